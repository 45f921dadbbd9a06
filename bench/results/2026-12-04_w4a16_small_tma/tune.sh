#!/usr/bin/env bash
# Session 38, after run3 (the TMA form 1.027x over the cp.async form, forced split_small): the W4A16
# tables re-tuned with the TMA form (MEGAMOE_W4A16_SMALL_TMA=1; the split_small / _k1 / _k2 tactics
# run it), T = 1..256, four presets, so that the K split (k1 / k2) and mega-vs-split choices follow the
# new kernel. Same carry as job.sh (.carry/st.tgz).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/st && tar xzf .carry/st.tgz -C /tmp/st || exit 1
for r in w4a16_mxfp4 w4a16_nvfp4; do
  MEGAMOE_W4A16_SMALL_TMA=1 MEGAMOE_TACTIC_CACHE=off timeout 270 /tmp/st/megamoe tune --recipe $r \
    --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 1,2,4,8,16,32,64,128,256 --iters 30 \
    --cache "$R/tune_$r.json" > "$R/tune_$r.txt" 2> "$R/tune_$r.err"
  echo "tune $r rc=$? $(( $(date +%s) - t0 ))s"
done
echo "end $(( $(date +%s) - t0 ))s"
