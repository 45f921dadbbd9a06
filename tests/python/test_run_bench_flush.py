"""bench/run_bench.py --l2-flush read: the peers' scripts run from a copy whose one flush call reads."""
import importlib.util
import pathlib

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "bench" / "run_bench.py"
spec = importlib.util.spec_from_file_location("run_bench", SCRIPT)
run_bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_bench)

PEER = '''import torch
def time_cell(fn, iters, flush):
    for _ in range(iters):
        flush.zero_()
        fn()
'''


def test_memset_runs_the_peer_as_shipped(tmp_path):
    peer = tmp_path / "peer.py"
    peer.write_text(PEER)
    tmp = []
    assert run_bench.peer_script(str(peer), "memset", tmp) == str(peer)
    assert tmp == [] and sorted(p.name for p in tmp_path.iterdir()) == ["peer.py"]


def test_read_copy_sits_beside_the_peer_and_changes_only_the_flush(tmp_path):
    peer = tmp_path / "peer.py"
    peer.write_text(PEER)
    tmp = []
    copy = pathlib.Path(run_bench.peer_script(str(peer), "read", tmp))
    assert copy.parent == tmp_path, "beside the original, so its imports resolve the same way"
    assert tmp == [str(copy)], "the copy is removed with the job's other temporary files"
    assert copy.read_text() == PEER.replace("flush.zero_()", "flush.sum()")
    assert peer.read_text() == PEER, "the peer's own script is untouched"


@pytest.mark.parametrize("body", [PEER.replace("flush.zero_()", "flush.fill_(0)"), PEER + "flush.zero_()\n"])
def test_a_changed_timing_loop_is_an_error_not_a_silent_memset(tmp_path, body):
    peer = tmp_path / "peer.py"
    peer.write_text(body)
    with pytest.raises(SystemExit, match="flush.zero_"):
        run_bench.peer_script(str(peer), "read", [])


def test_shipped_peers_have_exactly_one_flush_call():
    peers = pathlib.Path(__file__).resolve().parents[3] / "shared" / "peers"
    scripts = sorted(peers.glob("*_moe.py")) if peers.is_dir() else []
    if not scripts:
        pytest.skip("shared/peers/ is not beside this checkout")
    for s in scripts:
        assert s.read_text().count(run_bench.PEER_FLUSH_CALL) == 1, s.name
