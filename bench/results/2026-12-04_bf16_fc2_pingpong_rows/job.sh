#!/usr/bin/env bash
# Session 36. The bf16 split path's FC2 (bf16 y) runs CUTLASS's cooperative 128 x 256 tile when
# K > 1024 and the ping-pong 64 x 256 tile otherwise (grouped_gemm_bf16.cu, kPingpongMaxK). Where
# the experts hold <= 64 rows (mixtral-8x7b T = 256, gpt-oss-120b T = 2048, deepseek-v3 T <= 2048) a
# 128-row tile executes twice the MMA work it needs. pp_knob.patch adds MEGAMOE_BF16_FC2_PP_MAX_ROWS:
# the ping-pong tile also when the mean rows per expert is at most that (default 0: unchanged).
# 1. bf16 GEMM / split / conformance GPU tests with the knob huge (every bf16 FC2 on the ping-pong
#    tile); racecheck / memcheck on the bf16-output GEMM test;
# 2. A/B knob 0 / 64 / 128, bf16 `auto` T = 128..2048, four presets, alternated, best of two.
# Binary: .carry/ppknob.tgz (HEAD + pp_knob.patch, scripts/local_variant.sh of grouped_gemm_bf16.cu).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/v && tar xzf .carry/ppknob.tgz -C /tmp/v || exit 1
export MEGAMOE_BF16_FC2_PP_MAX_ROWS=1000000
scripts/ab_checks.sh "$R" /tmp/v/megamoe_gpu_tests "$t0" 'GroupedGemm*:SplitBf16*:GemmBf16Act*:*bf16_bf16_bf16_split*' \
  'GroupedGemm.FusedSetupPdlAndBf16OutputEqualRun'
unset MEGAMOE_BF16_FC2_PP_MAX_ROWS
for k in 0 64 128; do
  printf '#!/bin/sh\nMEGAMOE_BF16_FC2_PP_MAX_ROWS=%s exec /tmp/v/megamoe "$@"\n' $k > /tmp/v/k$k.sh; chmod +x /tmp/v/k$k.sh
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
AB_VARIANTS="k0=/tmp/v/k0.sh k64=/tmp/v/k64.sh k128=/tmp/v/k128.sh" RUN_TIMEOUT=90 \
  scripts/ab_bench.sh "$R" x x 2 "$t0" 480 \
  "auto=--recipe bf16 --presets $PR --tokens 128,256,512,1024,2048 --iters 50" | tail -n 50
echo "end $(( $(date +%s) - t0 ))s"
