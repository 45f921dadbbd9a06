#!/usr/bin/env bash
# 2026-12-03 (session 34), after job4.sh: ncu put split_tma_act's FC1 at qwen3-30b-a3b T = 128 at
# 2.76 TB/s against split_tma's 3.74 on the same 405 MB. A gated sub-tile reads 64 of each 128 weight
# rows (gate and up halves), and every tile ran sub-tile 0 first, so the CTAs streaming side by side
# all read the same halves. alternate_sub_tiles.patch: odd column blocks run sub-tile 1 first.
#   base = .carry/base.tgz (HEAD aac9303), new = .carry/alt.tgz (with the patch)
# fp8 GPU tests (the fused-activation test checks codes and scales bitwise against split_tma + the
# activation kernel) and the three sanitizers on new; forced split_tma_act, alternated, best of two,
# T = 128..8192; then `megamoe tune --recipe fp8_block --rounds 2` T = 128..8192 on new (deadline).
# Run from the repository root: bash bench/results/2026-12-03_fp8_small_T_token_box/job5.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/alt.tgz -C /tmp/new || exit 1
scripts/ab_checks.sh "$R" /tmp/new/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' \
  'Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.PartialBlocksSmall'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $PR --iters 50 --tactic split_tma_act"
MEGAMOE_TACTIC_CACHE=off scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 250 \
  "small=$C --tokens 128,256,512,1024" "large=$C --tokens 2048,4096,8192" | tail -n 32
echo "ab done $(( $(date +%s) - t0 ))s"
if [ $(( $(date +%s) - t0 )) -lt 260 ]; then
  timeout 200 /tmp/new/megamoe tune --recipe fp8_block --presets $PR --tokens 128,256,512,1024,2048,4096,8192 --iters 30 \
    --rounds 2 --cache "$R/tune_fp8_128-8192.json" > "$R/tune.log" 2> "$R/tune.err"
  echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cut -c1-60 "$R/tune.log" | tail -n 30
fi
echo "end $(( $(date +%s) - t0 ))s"
