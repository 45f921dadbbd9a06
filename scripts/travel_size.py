#!/usr/bin/env python3
"""The bytes a device call copies to the GPU machine: the tracked files and the untracked ones git does
not ignore, plus carried paths (.library/device/README.md: 64 MiB in all a call).

    python3 scripts/travel_size.py [--tracked-only] [CARRIED ...]   # prints the byte count

The whole tree no longer fits beside .carry: bench/results/ holds every session's raw records. A call
travels a slim tree (scripts/slim_tree.sh on JOB_FOLDER ...). scripts/dry_run_job.sh checks the sum
with .carry and .peers before a call; tests/python/test_repo_size.py keeps what a slim tree always
holds (everything outside bench/results/) and each results folder below budgets that leave room.
"""
import argparse
import os
import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[1]
# Each file counted in whole 4 KiB blocks: session 55's calls were refused at 60 MiB of bytes (tracked
# files plus .carry), and at 4 KiB a file the same tree was 72 MiB. The device tool's exact count is not
# documented; this one is on the safe side of what it refused.
BLOCK = 4096


def file_cost(path):
    return -(-os.path.getsize(path) // BLOCK) * BLOCK


def git_file_costs(root=ROOT, tracked_only=False, under=()):
    """(path, cost) of each file git lists that is present (a file moved aside by slim_tree.sh is not)."""
    args = ["git", "ls-files", "-z", "--cached"] + ([] if tracked_only else ["--others", "--exclude-standard"])
    names = subprocess.run(args + ["--", *under], cwd=root, capture_output=True, check=True).stdout.split(b"\0")
    for n in names:
        if n and (root / n.decode()).is_file():
            yield n.decode(), file_cost(root / n.decode())


def travel_bytes(root=ROOT, carried=(), tracked_only=False, exclude=()):
    total = sum(c for n, c in git_file_costs(root, tracked_only) if not n.startswith(tuple(exclude)))
    for d in carried:
        for base, _, files in os.walk(root / d):
            total += sum(file_cost(os.path.join(base, f)) for f in files)
    return total


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tracked-only", action="store_true", help="git's tracked files alone")
    ap.add_argument("carried", nargs="*", help="carried paths, relative to the repository root")
    a = ap.parse_args()
    print(travel_bytes(carried=a.carried, tracked_only=a.tracked_only))
