#!/usr/bin/env bash
# Builds `megamoe` and `megamoe_gpu_tests` here and packs them for a device job that carries
# `.carry` (the jobs under bench/results/ untar .carry/bld.txz into /tmp/bld): stripped, xz -9e,
# ~7.7 MB (the device tool's limit is 64 MiB for the working tree and the carried paths together).
# CUDA objects built on this machine (sm_90a) run on the H100 / H200 machines.
#
#   scripts/pack_carry.sh [BUILD_DIR]        (default: ../build-carry beside the checkout)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/../build-carry}
export JOBS=${JOBS:-$(nproc)}  # device_build.sh's parallelism, and xz's threads below
MEGAMOE_CMAKE_ARGS="${MEGAMOE_CMAKE_ARGS:--DMEGAMOE_BUILD_PYTHON=OFF}" \
  "$root/scripts/device_build.sh" "$build" megamoe_cli megamoe_gpu_tests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$build/megamoe" "$build/megamoe_gpu_tests" "$tmp/"
strip "$tmp/megamoe" "$tmp/megamoe_gpu_tests"
mkdir -p "$root/.carry"
tar cf - -C "$tmp" megamoe megamoe_gpu_tests | xz -9e -T"${JOBS}" > "$root/.carry/bld.txz"
echo "pack_carry: $root/.carry/bld.txz ($(du -h "$root/.carry/bld.txz" | cut -f1)), commit $(git -C "$root" rev-parse --short HEAD)"
