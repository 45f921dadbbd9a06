#!/usr/bin/env bash
# Configures (Release, Ninja) and builds the given targets with every core, for one GPU job
# (docs/BENCHMARKS.md: configure + build + tests + bench in one call). Logs: BUILD_DIR.cfg.log and
# BUILD_DIR.build.log; on a failure the first errors are printed and the exit status is 1.
#
#   scripts/device_build.sh BUILD_DIR [targets ...]     (no targets: everything)
#
# Extra CMake arguments: MEGAMOE_CMAKE_ARGS (e.g. "-DMEGAMOE_NCCL_ROOT=..."); JOBS (default: all cores).
set -uo pipefail
if [ $# -lt 1 ]; then
  sed -n '2,8p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
build=$1; shift
read -r -a extra <<< "${MEGAMOE_CMAKE_ARGS:-}"
mkdir -p "$(dirname "$build")"
if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${extra[@]}" > "$build.cfg.log" 2>&1; then
  echo "device_build: configure failed (see $build.cfg.log)" >&2; tail -20 "$build.cfg.log" >&2; exit 1
fi
if ! ninja -C "$build" -j"${JOBS:-$(nproc)}" "$@" > "$build.build.log" 2>&1; then
  echo "device_build: build failed (see $build.build.log)" >&2; grep -m 5 -A 10 "error" "$build.build.log" >&2; exit 1
fi
