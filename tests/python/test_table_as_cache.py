"""scripts/table_as_cache.py on a synthetic table: the entry each GPU runs from the shipped defaults
(its own partial entry filled from the complete one of another GPU with the same SM count, or that
complete entry alone), keyed to the GPU, driver and version given."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "table_as_cache.py"
LAYER = {"backend": "sm90_bf16_bf16_bf16_mega", "recipe": "bf16", "activation": "swiglu", "bias": False,
         "experts": 8, "top_k": 2, "hidden": 4096, "intermediate": 14336}
BUCKETS = [str(1 << b) for b in range(14)]


def entry(gpu, tactics, sm_count=132, **layer):
    e = dict(LAYER, gpu=gpu, sm_count=sm_count, driver=0, library="*", tactics=tactics,
             measured_ms={b: {t: 1.0} for b, t in tactics.items()})
    e.update(layer)
    return e


def write_table(path, entries):
    body = json.dumps({"format": "megamoe-tactics", "version": 1, "entries": entries}, indent=1)
    path.write_text('const char* shipped_tactics_json() {\n  return R"json(\n' + body + '\n)json";\n}\n')


def convert(tmp_path, table, gpu):
    out = tmp_path / "cache.json"
    r = subprocess.run([sys.executable, str(SCRIPT), "--gpu", gpu, "--driver", "13000", "--table", str(table),
                        "--out", str(out)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return json.loads(out.read_text())["entries"]


def test_partial_entries_are_filled_and_keyed_to_the_gpu(tmp_path):
    table = tmp_path / "table.cpp"
    h200 = {b: "a" for b in BUCKETS}
    h200["16384"] = "c"
    write_table(table, [entry("NVIDIA H200", h200),
                        entry("NVIDIA H100 80GB HBM3", {"2048": "b", "32768": "b"}),
                        entry("NVIDIA H200", {b: "z" for b in BUCKETS}, hidden=2048),
                        entry("NVIDIA H200", {b: "y" for b in BUCKETS}, sm_count=114, hidden=1024)])
    got = convert(tmp_path, table, "NVIDIA H100 80GB HBM3")
    assert len(got) == 2  # the two layers with 132-SM entries; the 114-SM one serves no 132-SM GPU
    first = next(e for e in got if e["hidden"] == 4096)
    want = dict(h200, **{"2048": "b", "32768": "b"})
    assert first["tactics"] == dict(sorted(want.items(), key=lambda kv: int(kv[0])))
    assert first["measured_ms"]["2048"] == {"b": 1.0} and first["measured_ms"]["4096"] == {"a": 1.0}
    assert (first["gpu"], first["sm_count"], first["driver"], first["library"]) == \
        ("NVIDIA H100 80GB HBM3", 132, 13000, "0.1.0")
    second = next(e for e in got if e["hidden"] == 2048)  # no H100 entry: the H200's whole
    assert set(second["tactics"].values()) == {"z"}
    # A GPU without entries of its own takes the complete entry, never the partial H100 one.
    got = convert(tmp_path, table, "NVIDIA H800")
    assert next(e for e in got if e["hidden"] == 4096)["tactics"] == dict(sorted(h200.items(), key=lambda kv: int(kv[0])))
