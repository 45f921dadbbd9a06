"""scripts/peer_floor_share.py on a synthetic run_bench record set: shares of the floor, the speed-up,
and the cells where the asked lead would need more than 100% of the floor."""
import json
import pathlib
import subprocess
import sys

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "peer_floor_share.py"


def record(model, tokens, ours_ms, peer_ms, floor_ms):
    return {"model": model, "tokens": tokens, "median_ms": ours_ms, "floor_ms": floor_ms,
            "baselines": [{"name": "vllm_triton_0.33.0", "median_ms": peer_ms},
                          {"name": "torch_eager", "median_ms": 10 * peer_ms}]}


def test_marks_cells_where_the_lead_needs_more_than_the_floor(tmp_path):
    path = tmp_path / "r.json"
    recs = [record("a", 128, 1.0, 1.0, 0.95),   # peer at 95%: 1.10x needs 104.5% -> marked
            record("a", 256, 1.0, 1.5, 0.60),   # peer at 40%: 1.10x needs 44% -> not marked
            record("a", 64, 1.0, 1.0, 0.99)]    # under --min-tokens: skipped
    path.write_text(json.dumps({"records": recs}))
    out = subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert len(lines) == 3 and "T=   64" not in out.stdout
    assert "ours  95.0% of the floor" in lines[0] and "vllm_triton_0.33.0  95.0%" in lines[0]
    assert "(1.10x needs 104%)" in lines[0] or "(1.10x needs 105%)" in lines[0]
    assert "speed-up 1.500" in lines[1] and "needs" not in lines[1]
    assert lines[2] == "2 cells; 1 where a 1.10x lead needs more than 100% of the floor"
