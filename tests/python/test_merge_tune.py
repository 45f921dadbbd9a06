"""scripts/merge_tune.py on a synthetic table and tune: winners copied bucket by bucket with their
times, buckets outside --buckets and --keep untouched, --min-gain holding near-ties, unknown shapes
refused without --add."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "merge_tune.py"
KEY = {"gpu": "NVIDIA H200", "sm_count": 132, "backend": "sm90_bf16_mxfp4_bf16_mega", "recipe": "w4a16_mxfp4",
       "activation": "swiglu", "bias": False, "experts": 8, "top_k": 2, "hidden": 4096, "intermediate": 14336}


def write_table(path, tactics, times):
    entry = dict(KEY, driver=0, library="*", tactics=tactics, measured_ms=times)
    body = json.dumps({"format": "megamoe-tactics", "version": 1, "entries": [entry]}, indent=1)
    path.write_text('const char* shipped_tactics_json() {\n  return R"json(\n' + body + '\n)json";\n}\n')


def read_table(path):
    text = path.read_text()
    return json.loads(text[text.index('R"json(') + 7:text.index(')json"')])["entries"][0]


def write_tune(path, tactics, times, **overrides):
    entry = dict(KEY, driver=13000, library="0.1.0", tactics=tactics, measured_ms=times)
    entry.update(overrides)
    path.write_text(json.dumps({"format": "megamoe-tactics", "version": 1, "entries": [entry]}))


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, args)], capture_output=True, text=True)


def test_merge_min_gain_keep_and_buckets(tmp_path):
    table, tune = tmp_path / "table.cpp", tmp_path / "tune.json"
    write_table(table, {"1": "a", "2": "a", "4": "a", "8": "a"},
                {b: {"a": 1.0, "b": 2.0} for b in ("1", "2", "4", "8")})
    # Bucket 1: b wins by 1.5x; bucket 2: by 1%; bucket 4: by 10% but kept; bucket 8: outside --buckets.
    times = {"1": {"a": 1.5, "b": 1.0}, "2": {"a": 1.01, "b": 1.0}, "4": {"a": 1.1, "b": 1.0},
             "8": {"a": 3.0, "b": 1.0}}
    write_tune(tune, {b: "b" for b in times}, times)
    out = run(tune, "--table", table, "--buckets", "1-4", "--min-gain", "0.02", "--keep", "w4a16_mxfp4:4096:4")
    assert out.returncode == 0, out.stderr
    assert "1 bucket(s) changed their tactic, 1 kept by --min-gain" in out.stdout
    e = read_table(table)
    assert e["tactics"] == {"1": "b", "2": "a", "4": "a", "8": "a"}
    # A changed bucket takes the tune's times; held and kept buckets keep the table's, so every
    # bucket's tactic stays the fastest of its stored times (tests/cpu/test_tactics.cpp's rule).
    assert e["measured_ms"]["1"] == {"a": 1.5, "b": 1.0}
    assert e["measured_ms"]["2"] == {"a": 1.0, "b": 2.0}
    assert e["measured_ms"]["4"] == {"a": 1.0, "b": 2.0}
    for b, t in e["tactics"].items():
        assert min(e["measured_ms"][b], key=e["measured_ms"][b].get) == t
    # Without --min-gain every winner is merged.
    write_table(table, {"2": "a"}, {"2": {"a": 1.0, "b": 2.0}})
    write_tune(tune, {"2": "b"}, {"2": {"a": 1.01, "b": 1.0}})
    assert run(tune, "--table", table).returncode == 0
    assert read_table(table)["tactics"] == {"2": "b"}


def test_dry_run_and_unknown_shape(tmp_path):
    table, tune = tmp_path / "table.cpp", tmp_path / "tune.json"
    write_table(table, {"1": "a"}, {"1": {"a": 1.0, "b": 2.0}})
    before = table.read_text()
    write_tune(tune, {"1": "b"}, {"1": {"a": 2.0, "b": 1.0}})
    out = run(tune, "--table", table, "--dry-run")
    assert out.returncode == 0 and "a -> b" in out.stdout
    assert table.read_text() == before
    write_tune(tune, {"1": "b"}, {"1": {"a": 2.0, "b": 1.0}}, hidden=1024)
    out = run(tune, "--table", table)
    assert out.returncode != 0 and "no shipped entry" in out.stderr
    assert run(tune, "--table", table, "--add").returncode == 0


def test_buckets_past_8192_compare_with_the_inherited_tactic(tmp_path):
    # The table names 8192 only: a layer runs T = 16384 / 32768 with a (core/tactics.h). A tune of
    # 16384 whose winner leads a by 1% is held by --min-gain (the bucket stays unnamed, a runs);
    # one that leads by 1.5x names the bucket, and 32768 then inherits it.
    table, tune = tmp_path / "table.cpp", tmp_path / "tune.json"
    write_table(table, {"8192": "a"}, {"8192": {"a": 1.0, "b": 2.0}})
    write_tune(tune, {"16384": "b"}, {"16384": {"a": 1.01, "b": 1.0}})
    out = run(tune, "--table", table, "--min-gain", "0.02")
    assert out.returncode == 0, out.stderr
    assert "a kept" in out.stdout and read_table(table)["tactics"] == {"8192": "a"}
    write_tune(tune, {"16384": "b"}, {"16384": {"a": 1.5, "b": 1.0}})
    out = run(tune, "--table", table, "--min-gain", "0.02")
    assert out.returncode == 0 and "a -> b" in out.stdout, out.stdout
    e = read_table(table)
    assert e["tactics"] == {"8192": "a", "16384": "b"} and e["measured_ms"]["16384"] == {"a": 1.5, "b": 1.0}


def test_add_for_another_gpu_makes_a_partial_entry(tmp_path):
    # The table's H200 entry names every bucket up to 8192 (a complete entry). An H100 tune (same SM
    # count) with --add makes an H100 entry that names only the buckets whose winner beats the H200's
    # tactic by --min-gain (bucket 2: 1.5x; bucket 4: 1%, held, so it stays the H200's; bucket 8: the
    # H200's tactic wins, named with the H100's times). The H200 entry is left as it was.
    table, tune = tmp_path / "table.cpp", tmp_path / "tune.json"
    buckets = [str(1 << b) for b in range(14)]
    write_table(table, {b: "a" for b in buckets}, {b: {"a": 1.0, "b": 2.0} for b in buckets})
    h200 = read_table(table)
    times = {"2": {"a": 1.5, "b": 1.0}, "4": {"a": 1.01, "b": 1.0}, "8": {"a": 1.0, "b": 1.2}}
    write_tune(tune, {"2": "b", "4": "b", "8": "a"}, times, gpu="NVIDIA H100 80GB HBM3")
    assert run(tune, "--table", table, "--min-gain", "0.02").returncode != 0  # a new entry needs --add
    out = run(tune, "--table", table, "--min-gain", "0.02", "--add")
    assert out.returncode == 0, out.stderr
    assert "1 bucket(s) changed their tactic, 1 kept by --min-gain" in out.stdout, out.stdout
    text = table.read_text()
    entries = json.loads(text[text.index('R"json(') + 7:text.index(')json"')])["entries"]
    assert entries[0] == h200
    h100 = entries[1]
    assert h100["gpu"] == "NVIDIA H100 80GB HBM3" and h100["driver"] == 0 and h100["library"] == "*"
    assert h100["tactics"] == {"2": "b", "8": "a"}
    assert h100["measured_ms"] == {"2": times["2"], "8": times["8"]}
    # A tune where the H200's tactic wins everywhere within the gain adds no entry at all.
    write_table(table, {b: "a" for b in buckets}, {b: {"a": 1.0, "b": 2.0} for b in buckets})
    write_tune(tune, {"4": "b"}, {"4": {"a": 1.01, "b": 1.0}}, gpu="NVIDIA H100 80GB HBM3")
    out = run(tune, "--table", table, "--min-gain", "0.02", "--add")
    assert out.returncode == 0, out.stderr
    text = table.read_text()
    assert len(json.loads(text[text.index('R"json(') + 7:text.index(')json"')])["entries"]) == 1
