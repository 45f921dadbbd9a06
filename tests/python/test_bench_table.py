"""scripts/bench_table.py on synthetic run_bench records: the per-cell ratios and the summary."""
import importlib.util
import json
import pathlib
import subprocess
import sys

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "bench_table.py"
spec = importlib.util.spec_from_file_location("bench_table", SCRIPT)
bench_table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_table)


def rec(backend, model, tokens, ms, tactic="t", baselines=()):
    return {"backend": backend, "model": model, "tokens": tokens, "median_ms": ms, "floor_ms": ms / 2,
            "tactic": tactic, "baselines": [{"name": n, "median_ms": v} for n, v in baselines]}


RECORDS = [
    rec("mega", "m", 1, 0.5, "mega", [("torch", 1.0), ("vllm", 0.4)]),
    rec("split", "m", 1, 0.6),
    rec("mega", "m", 64, 2.0, "split_swap_ab", [("torch", 3.0)]),  # no vllm figure here
    rec("split", "m", 64, 2.0),
    rec("mega", "m", 128, 4.0, "split_swap_ab", [("torch", 5.0), ("vllm", 5.0)]),
]


def test_ratios_and_summary():
    header, rows, summary = bench_table.build(RECORDS, "mega", ["split"])
    assert header[:4] == ["preset", "T", "ours ms (tactic)", "floor ms"]
    assert [r[1] for r in rows] == ["1", "64", "128"]
    assert rows[0][2] == "0.5000 (mega)" and rows[0][3] == "0.2500"
    assert rows[0][4:] == ["0.6000", "1.20x", "1.0000", "2.00x", "0.4000", "0.80x"]
    assert rows[1][-2:] == ["-", "-"], "a cell without the baseline shows a dash"
    assert rows[2][4:6] == ["-", "-"], "a cell without the other backend shows a dash"
    g, lo, hi, wins, n = summary["split"]
    assert (n, wins) == (2, 1) and lo == pytest.approx(1.0) and hi == pytest.approx(1.2)
    assert g == pytest.approx((1.2 * 1.0) ** 0.5)
    assert summary["vllm"][3:] == (1, 2) and summary["vllm"][0] == pytest.approx((0.8 * 1.25) ** 0.5)
    assert summary["torch"][3:] == (3, 3)


def test_max_tokens_and_unknown_backend(tmp_path):
    _, rows, summary = bench_table.build(RECORDS, "mega", [], max_tokens=64)
    assert [r[1] for r in rows] == ["1", "64"] and summary["vllm"][4] == 1
    path = tmp_path / "r.json"
    path.write_text(json.dumps(RECORDS))
    out = subprocess.run([sys.executable, str(SCRIPT), str(path), "--ours", "mega", "--vs", "split"],
                         capture_output=True, text=True, check=True).stdout
    assert "ours vs split: geomean 1.095x (1.000-1.200), faster in 1/2 cells" in out
    bad = subprocess.run([sys.executable, str(SCRIPT), str(path), "--ours", "nope"], capture_output=True, text=True)
    assert bad.returncode == 2 and "no records of backend 'nope'" in bad.stderr


def test_failed_baseline_is_a_dash():
    # A baseline that failed in a cell (PyTorch out of memory) carries "error" and no time: a dash in
    # that cell, and the summary counts only the cells that have a time.
    records = [
        rec("mega", "m", 1, 1.0, "t", [("torch", 2.0)]),
        {"backend": "mega", "model": "m", "tokens": 2, "median_ms": 1.0, "floor_ms": 0.5, "tactic": "t",
         "baselines": [{"name": "torch", "error": "CUDA out of memory"}]},
    ]
    header, rows, summary = bench_table.build(records, "mega", [])
    assert rows[0][4:] == ["2.0000", "2.00x"]
    assert rows[1][4:] == ["-", "-"]
    g, lo, hi, wins, n = summary["torch"]
    assert (n, wins) == (1, 1) and g == pytest.approx(2.0)
