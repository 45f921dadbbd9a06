# Sourced by a GPU-machine job (the `device` tool runs it in the repository root with $OUT set);
# the committed form of bench/results/2026-12-03_fp8_tma_tokens_in_m/jobs/env.sh, which the job
# scripts under bench/results/ sourced as .snap/env.sh:
#   R       $OUT/r, the job's logs and JSON; tarred into $OUT/r.tgz when the job exits (one file to
#           bring back), then removed. The call line must not write $OUT/r.tgz itself after the
#           job: $R is unset in the calling shell, and such a tar replaced every file of session
#           47's five calls with an empty archive
#   BN, BB  build-dn / build-db in the repository root: the new and the base build of an A/B job
#   NCCL_ROOT  empty when the CUDA toolkit has nccl_device.h, else the pip package nvidia-nccl-cu13's
#              folder (then MEGAMOE_NCCL_LIBRARY points at its libnccl)
ROOT=$(pwd)
export R="${OUT:?OUT: the device tool sets it}/r"
mkdir -p "$R"
trap 'tar czf "$OUT/r.tgz" -C "$OUT" r && rm -rf "$R"' EXIT
export BN="$ROOT/build-dn" BB="$ROOT/build-db"
NCCL_ROOT=""
if [ ! -f /usr/local/cuda/include/nccl_device.h ]; then
  NCCL_ROOT="$(python3 -c 'import nvidia.nccl, os; print(nvidia.nccl.__path__[0])' 2>/dev/null || true)"
fi
if [ -n "$NCCL_ROOT" ]; then export MEGAMOE_NCCL_LIBRARY="$NCCL_ROOT/lib/libnccl.so.2"; fi
export NCCL_ROOT
