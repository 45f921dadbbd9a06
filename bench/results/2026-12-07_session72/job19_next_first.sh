#!/usr/bin/env bash
# Prepared for the next session's first call. Carry [".carry", ".peers"]: .carry/bld_main72.txz (main's
# library at 9c5ecf8, built at bdf5035) and, for the H100 branch, .carry/bld_fc1k2.txz (wip/fc1-k2).
# On an H200: job18_h200_tune.sh (the H200's entries for split_small_deep: tune + `auto` A/B), then
#   job17_state.sh's H200 branch (fp8_block / bf16 T = 8192 with vLLM, w4a16_mxfp4 with triton_kernels);
#   ~420 s in all.
# On an H100: job16_fc1_k2.sh (FC1's K in two parts under split_small_deep; ~150 s).
d=$(dirname "$0")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  JB=${JB18:-150} bash "$d/job18_h200_tune.sh"
  mv "$OUT/r.tgz" "$OUT/job18_r.tgz"  # job 18's records; job 17 writes r.tgz again
  JB=${JB17:-260} exec bash "$d/job17_state.sh"
fi
exec bash "$d/job16_fc1_k2.sh"
