#!/usr/bin/env bash
# Diagnosis builds on the GPU machine: the `megamoe` CLI of the working tree once per VARIANT, each
# with its own CUDA macros (e.g. nostore=MEGAMOE_DIAG_NO_STORE; none after `=` for the plain tree),
# in parallel into /tmp/build-VARIANT, without tests. Logs: $R/VARIANT_build.log. Exits 1 naming the
# first variant that did not build. Run after `source scripts/device_env.sh`.
#
#   scripts/diag_builds.sh VARIANT=[MACRO[,MACRO...]] [VARIANT=...]
set -uo pipefail
if [ $# -lt 1 ]; then
  sed -n '2,7p' "$0" >&2
  exit 2
fi
: "${R:?source scripts/device_env.sh first}"
root=$(cd "$(dirname "$0")/.." && pwd)
base_args="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} -DMEGAMOE_BUILD_TESTS=OFF"
jobs=$(( $(nproc) / $# )); [ "$jobs" -ge 1 ] || jobs=1
for spec in "$@"; do
  name=${spec%%=*} macros=${spec#*=}
  MEGAMOE_CMAKE_ARGS="$base_args${macros:+ -DCMAKE_CUDA_FLAGS=-D$macros}" JOBS=$jobs \
    "$root/scripts/device_build.sh" "/tmp/build-$name" megamoe_cli > "$R/${name}_build.log" 2>&1 &
done
wait
for spec in "$@"; do
  name=${spec%%=*}
  [ -x "/tmp/build-$name/megamoe" ] || { echo "$name build failed"; tail -n 20 "/tmp/build-$name.build.log"; exit 1; }
done
