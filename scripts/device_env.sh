# Sourced by a GPU-machine job (the `device` tool runs it in the repository root with $OUT set):
#   R       $OUT/r, the job's logs and JSON; tarred into $OUT/r.tgz when the job exits (one file to
#           bring back), then removed
#   BN      build-dn in the repository root: the new build of an A/B job (scripts/ab_job.sh)
#   NCCL_ROOT  the pip package nvidia-nccl-cu13's folder when it has nccl_device.h, else empty
#              (then CMake takes NCCL from the CUDA toolkit)
ROOT=$(pwd)
export R="${OUT:?OUT: the device tool sets it}/r"
mkdir -p "$R"
trap 'tar czf "$OUT/r.tgz" -C "$OUT" r && rm -rf "$R"' EXIT
export BN="$ROOT/build-dn"
NCCL_ROOT="$(python3 -c 'import nvidia.nccl, os; print(nvidia.nccl.__path__[0])' 2>/dev/null || true)"
[ -n "$NCCL_ROOT" ] && [ -f "$NCCL_ROOT/include/nccl_device.h" ] || NCCL_ROOT=""
export NCCL_ROOT
