#!/usr/bin/env bash
# Builds two trees side by side for an A/B in one GPU job (docs/BENCHMARKS.md: "base and new built in
# one job"): the working tree ("new") and a copy of it with PATCH reversed ("base"), so both binaries
# run on the same machine, alternated, and scripts/ab_compare.py compares their `megamoe bench --json`
# records. The base builds the CLI only; the new tree builds the CLI and the listed extra targets.
#
#   scripts/ab_build.sh PATCH NEW_BUILD_DIR BASE_BUILD_DIR [extra new targets ...]
#
# PATCH: the change as `git diff` wrote it (paths relative to the repository root; applied to the
# working tree already). JOBS (default: all cores) is split between the two builds. Extra CMake
# arguments for both: MEGAMOE_AB_CMAKE_ARGS (e.g. "-DMEGAMOE_NCCL_ROOT=...").
set -euo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
patch_file=$(realpath "$1"); new_build=$2; base_build=$3; shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
base_tree=${MEGAMOE_AB_BASE_TREE:-/tmp/megamoe-ab-base}
jobs=${JOBS:-$(nproc)}
new_jobs=$(( jobs * 5 / 8 > 0 ? jobs * 5 / 8 : 1 )); base_jobs=$(( jobs - new_jobs > 0 ? jobs - new_jobs : 1 ))
rm -rf "$base_tree" && mkdir -p "$base_tree" "$(dirname "$new_build")" "$(dirname "$base_build")"
# The base tree: the working tree without build folders and git metadata, the patch reversed.
(cd "$root" && tar cf - --exclude=./.git --exclude="./$(basename "$new_build")" --exclude="./$(basename "$base_build")" \
  --exclude='./build*' . | tar xf - -C "$base_tree")
(cd "$base_tree" && patch -R -p1 --quiet < "$patch_file")
# Both trees configure and build through scripts/device_build.sh (each tree's own copy: it builds the
# tree it sits in), in parallel, logs beside the build folders.
status=0
MEGAMOE_CMAKE_ARGS="${MEGAMOE_AB_CMAKE_ARGS:-}" JOBS=$new_jobs \
  "$root/scripts/device_build.sh" "$new_build" megamoe_cli "$@" & new_pid=$!
MEGAMOE_CMAKE_ARGS="${MEGAMOE_AB_CMAKE_ARGS:-} -DMEGAMOE_BUILD_TESTS=OFF" JOBS=$base_jobs \
  "$base_tree/scripts/device_build.sh" "$base_build" megamoe_cli & base_pid=$!
wait "$new_pid" || { echo "ab_build: the new tree failed to build (see $new_build.build.log)" >&2; status=1; }
wait "$base_pid" || { echo "ab_build: the base tree failed to build (see $base_build.build.log)" >&2; status=1; }
exit $status
