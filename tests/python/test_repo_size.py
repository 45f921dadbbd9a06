"""The repository that travels to the GPU machine stays small enough to carry the binaries with it.

A device call copies the tracked files (and untracked ones git does not ignore) plus the carried
paths, at most 64 MiB in all (.library/device/README.md); the prepared jobs carry `.carry/bld.txz`
(megamoe + megamoe_gpu_tests, ~9 MB) and `.peers`. Session 53 committed a 10.5 MB ncu source page and
pushed the tracked files to 67.5 MB: every call of the next session would have been refused. This
test fails at commit time instead, below the limit by the carry's size: compress raw results
(gzip) or leave them out. scripts/dry_run_job.sh checks the whole sum before a call.
"""
import importlib.util
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TRACKED_BUDGET = 54 * 1024 * 1024  # 64 MiB less ~10 MiB for .carry and .peers


def tracked_bytes():
    spec = importlib.util.spec_from_file_location("travel_size", ROOT / "scripts" / "travel_size.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.travel_bytes(ROOT, tracked_only=True)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_tracked_files_leave_room_for_the_carried_binaries():
    size = tracked_bytes()
    assert size > 1024 * 1024, size  # the count saw the tree
    assert size <= TRACKED_BUDGET, (
        f"tracked files {size / 2**20:.1f} MiB, over {TRACKED_BUDGET / 2**20:.0f} MiB: with the ~10 MiB a device "
        "call carries (.carry, .peers) the working tree would pass the 64 MiB limit; gzip large raw results")
