"""What travels to the GPU machine stays small enough to carry the binaries with it.

A device call copies the tracked files (and untracked ones git does not ignore) plus the carried
paths, at most 64 MiB in all (.library/device/README.md); the prepared jobs carry `.carry/bld.txz`
(megamoe + megamoe_gpu_tests, ~9 MiB) and `.peers`. bench/results/ (every session's raw records) has
outgrown that, so a call travels a slim tree: scripts/slim_tree.sh moves the records aside but for the
job folders a call needs. These tests keep the slim tree's fixed part (everything outside
bench/results/) and each results folder small enough that the fixed part, two job folders and the
carry fit, counted as scripts/travel_size.py counts (4 KiB blocks a file, the safe side of what the
tool refused in session 55). scripts/dry_run_job.sh checks the actual sum before a call.
"""
import collections
import importlib.util
import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXED_BUDGET = 16 * 1024 * 1024   # everything outside bench/results/ (3.6 MiB in session 55)
FOLDER_BUDGET = 16 * 1024 * 1024  # one bench/results/ entry: 16 + 2 x 16 + ~10 carried < 64 MiB

spec = importlib.util.spec_from_file_location("travel_size", ROOT / "scripts" / "travel_size.py")
travel_size = importlib.util.module_from_spec(spec)
spec.loader.exec_module(travel_size)
needs_git = pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                               reason="not a git checkout")


@needs_git
def test_the_slim_trees_fixed_part_leaves_room():
    size = travel_size.travel_bytes(ROOT, tracked_only=True, exclude=("bench/results/",))
    assert size > 1024 * 1024, size  # the count saw the tree
    assert size <= FIXED_BUDGET, (
        f"tracked files outside bench/results/: {size / 2**20:.1f} MiB, over {FIXED_BUDGET / 2**20:.0f} MiB; "
        "every device call carries them")


@needs_git
def test_each_results_folder_can_travel_with_a_job():
    per_entry = collections.Counter()
    for n, cost in travel_size.git_file_costs(ROOT, tracked_only=True, under=("bench/results",)):
        per_entry["/".join(n.split("/")[:3])] += cost
    over = {k: round(v / 2**20, 1) for k, v in per_entry.items() if v > FOLDER_BUDGET}
    assert not over, f"bench/results entries over {FOLDER_BUDGET / 2**20:.0f} MiB (gzip raw logs): {over}"


def test_block_count_rounds_each_file_up(tmp_path):
    f = tmp_path / "one_byte"
    f.write_bytes(b"x")
    assert travel_size.file_cost(f) == 4096
    f.write_bytes(b"x" * 4097)
    assert travel_size.file_cost(f) == 8192
    assert os.path.getsize(f) == 4097
