"""scripts/ab_compare.py on synthetic A/B records: the best median of each build's repetitions, the
speed-up, each build's spread over its repetitions, and the mark on cells whose builds differ by no
more than that spread."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "ab_compare.py"


def write(directory, build, rep, cells):
    recs = [{"model": m, "tokens": t, "median_ms": ms} for (m, t), ms in cells.items()]
    (directory / f"{build}_f8_r{rep}.json").write_text(json.dumps(recs))


def run(directory, *builds):
    out = subprocess.run([sys.executable, str(SCRIPT), str(directory), *builds], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_spread_and_the_unresolved_mark(tmp_path):
    # cell a: builds differ by 10%, each build's rounds by <= 1%: decided.
    # cell b: base's rounds 1.55 / 1.74 ms (12.3%), new 1.72 / 1.74: 0.901x but within base's spread.
    write(tmp_path, "base", 1, {("a", 8): 1.10, ("b", 8): 1.55})
    write(tmp_path, "new", 1, {("a", 8): 1.00, ("b", 8): 1.74})
    write(tmp_path, "base", 2, {("a", 8): 1.11, ("b", 8): 1.74})
    write(tmp_path, "new", 2, {("a", 8): 1.005, ("b", 8): 1.72})
    lines = run(tmp_path).splitlines()
    a = next(l for l in lines if l.lstrip().startswith("a "))
    b = next(l for l in lines if l.lstrip().startswith("b "))
    assert "base    1100.0 us" in a and "new    1000.0 us" in a and "speed-up 1.100" in a
    assert "spread 0.9% / 0.5%" in a and "within" not in a
    assert "speed-up 0.901" in b and "spread 12.3% / 1.2%" in b and b.endswith("within the rounds' spread")
    assert lines[-1] == "ALL cells: 2, geomean 0.996, 1 within the rounds' spread"


def test_one_repetition_shows_no_spread(tmp_path):
    write(tmp_path, "old", 1, {("m", 1): 2.0})
    write(tmp_path, "new", 1, {("m", 1): 1.0})
    out = run(tmp_path, "old", "new")
    assert "speed-up 2.000" in out and "spread" not in out and "within" not in out
    assert out.splitlines()[-1] == "ALL cells: 1, geomean 2.000"
