#!/usr/bin/env bash
# Session 60: the activations' limit clamps as min.NaN / max.NaN (activation_math.cuh; every
# activation epilogue and kernel), against adfe8b7. Carry [".carry"]: bld.txz = this tree, base.txz =
# adfe8b7.
# 1. the whole GPU test binary (the NaN paths: SplitKernels.ActivationSigmoidWholeRange and the
# activation conformance cases); 2. A/B base / new: fp8_block, bf16 and w4a16_mxfp4 `auto`, and
# fp8_block split_tma against split_tma_act at deepseek-v3 T = 4096 / 8192 (the tune and the A/Bs
# disagree there on an H100).
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/base.txz -C /tmp/b0
sharded_gpu_tests suite 200
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets deepseek-v3 --tokens 4096,8192 --iters 50"
mkdir -p "$R/ab"
AB_VARIANTS="base=/tmp/b0/megamoe new=$B/megamoe" RUN_TIMEOUT=200 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-520}" \
  "fp8=--recipe fp8_block --presets $P --tokens 2048,8192,16384 --iters 50" \
  "bf16=--recipe bf16 --presets $P --tokens 8192 --iters 50" \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 8192 --iters 50" \
  "ds_tma=$S --tactic split_tma" "ds_act=$S --tactic split_tma_act" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
