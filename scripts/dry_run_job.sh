#!/usr/bin/env bash
# Runs a device job script on this machine (no GPU) to catch what the GPU machine would refuse
# before device time is spent: stub `nvidia-smi`, `compute-sanitizer` and `ncu` (the latter two run
# their command without the tool), OUT in a temporary folder, the job's own deadlines. `megamoe bench` /
# `tune` check every argument before they look for a GPU, so each of their runs must stop at
# "no CUDA device found"; any other message in a run's log (a bad argument, a missing binary) fails.
#
#   scripts/dry_run_job.sh JOB.sh [VAR=VALUE ...]     e.g. scripts/dry_run_job.sh bench/results/X/job.sh AB_END=60
#   DRY_RUN_GPU=H200 scripts/dry_run_job.sh JOB.sh    (the stub GPU name then contains "H200": a job's H200 branch)
#
# Needs what the job needs locally (e.g. .carry/bld.txz: scripts/pack_carry.sh).
set -uo pipefail
if [ $# -lt 1 ]; then
  sed -n '2,10p' "$0" >&2
  exit 2
fi
job=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/out"
printf '#!/bin/sh\necho "dry-run stub GPU %s, 0"\n' "${DRY_RUN_GPU:-}" > "$tmp/bin/nvidia-smi"
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do case "$1" in --tool|--error-exitcode) shift 2;; --*) shift;; *) break;; esac; done\nexec "$@"\n' \
  > "$tmp/bin/compute-sanitizer"
# ncu: `--import` (exporting a report) does nothing; a profile runs its command without the tool, from
# the first argument that is an executable file (its options' values are not), so a job's commands
# under ncu are checked too (session 55: `--iters 5` under ncu_kernels.sh passed the dry run unseen).
# Such a command (`megamoe run`) finds no GPU here and runs the CPU reference instead, minutes at
# T = 8192 (session 65's ncu job took 483 s to dry-run): it is stopped after 15 s, by when its
# arguments were checked, and that counts as accepted. The stub names the command in the log, so the
# run is counted below.
printf '#!/bin/sh\nfor a in "$@"; do [ "$a" = --import ] && exit 0; done\nwhile [ $# -gt 0 ] && ! { [ -f "$1" ] && [ -x "$1" ]; }; do shift; done\n[ $# -gt 0 ] || exit 0\necho "dry-run ncu: $*"\ntimeout 15 "$@"\nrc=$?\n[ $rc -eq 124 ] && { echo "dry-run ncu: stopped after 15 s, its arguments accepted"; exit 0; }\nexit $rc\n' \
  > "$tmp/bin/ncu"
chmod +x "$tmp/bin/nvidia-smi" "$tmp/bin/compute-sanitizer" "$tmp/bin/ncu"
(cd "$root" && env PATH="$tmp/bin:$PATH" OUT="$tmp/out" "$@" timeout 600 bash "$job") > "$tmp/job.log" 2>&1
echo "dry_run_job: $job exited with $?"
tail -5 "$tmp/job.log"
# Each archive the job left (r.tgz, or one per sub-job where a job runs several: job9_r.tgz ...) into
# a folder of its own.
for a in "$tmp"/out/*.tgz; do
  [ -f "$a" ] && mkdir -p "${a%.tgz}.d" && tar xzf "$a" -C "${a%.tgz}.d"
done
bad=0 runs=0
while IFS= read -r -d '' log; do
  if grep -q "megamoe" "$log" || grep -q "run_bench" "$log"; then
    runs=$((runs + 1))
    # megamoe's own messages, argparse's (run_bench.py), a missing file or program; a Python traceback
    # after megamoe's "no CUDA device found" (run_bench.py stops there) is expected, and so is `megamoe
    # run`'s refusal of a named GPU backend ("needs a CUDA device"), after it checked its arguments.
    if grep -v -E "no CUDA device found|needs a CUDA device" "$log" | grep -q -E "^megamoe: |error: |No such file|not found"; then
      echo "dry_run_job: $log:"; grep -v -E "no CUDA device found|needs a CUDA device" "$log" | grep -m 3 -E "^megamoe: |error: |No such file|not found"
      bad=$((bad + 1))
    fi
  fi
done < <(find "$tmp/out" \( -name '*.log' -o -name '*.txt' \) -print0 2>/dev/null)
echo "dry_run_job: $runs logs of megamoe runs, $bad with another error"
# What travels to the GPU machine: tracked and untracked-not-ignored files plus the usual carried paths
# (.carry, .peers), capped at 64 MiB a call (.library/device/README.md); a tree over it is refused at
# no device time, but the session's jobs would not run (session 53 committed a 10 MB ncu page; session
# 55 found the full tree too big: scripts/slim_tree.sh). Counted in 4 KiB blocks a file (travel_size.py).
travel=$(python3 "$root/scripts/travel_size.py" .carry .peers)
echo "dry_run_job: the tree with .carry and .peers: $((travel / 1048576)) MiB of the 64 MiB a device call may carry"
if [ "$travel" -gt $((64 * 1048576)) ]; then
  echo "dry_run_job: over 64 MiB: scripts/slim_tree.sh on bench/results/JOB_FOLDER (records aside) before the call"
  bad=$((bad + 1))
fi
[ "$bad" -eq 0 ]
