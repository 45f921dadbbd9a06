#!/usr/bin/env bash
# Session 38: the TMA form as the small tactic's default and the W4A16 tables re-tuned with it
# (tune.sh, merged with scripts/merge_tune.py --buckets 1-256). Binaries built on the CPU machine:
# .carry/new.tgz (megamoe + megamoe_gpu_tests of the shipped tree), .carry/base_table.tgz (megamoe of the
# same tree with HEAD 466e0d2's src/core/tactics_default.cpp: scripts/local_variant.sh; run with
# MEGAMOE_W4A16_SMALL_TMA=0 it is 466e0d2's W4A16 path).
# 1. the whole GPU suite with the new default;
# 2. A/B `auto`: base (466e0d2's table, cp.async form) against new, w4a16_mxfp4 / nvfp4, T = 1..256,
#    four presets, alternated, best of two;
# 3. mxfp4 `auto` against OpenAI's triton_kernels (.peers, carried) at deepseek-v3 / gpt-oss-120b T = 1..64.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/new /tmp/base && tar xzf .carry/new.tgz -C /tmp/new && tar xzf .carry/base_table.tgz -C /tmp/base || exit 1
timeout 240 /tmp/new/megamoe_gpu_tests --gtest_brief=1 > "$R/gpu_suite.log" 2>&1
echo "suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/gpu_suite.log" | head -20
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="base=/tmp/base/megamoe@MEGAMOE_W4A16_SMALL_TMA=0 new=/tmp/new/megamoe" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 400 \
  "mx=--recipe w4a16_mxfp4 --presets $PR --tokens 1,2,4,8,16,32,64,128,256 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $PR --tokens 1,2,4,8,16,32,64,128,256 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
timeout 150 python3 bench/run_bench.py --build /tmp/new --out "$R/tk_mxfp4.json" --recipe w4a16_mxfp4 --backends auto \
  --presets deepseek-v3,gpt-oss-120b --tokens 1,2,4,8,16,32,64 --iters 50 --triton-kernels-peer .peers/triton_kernels_moe.py \
  > "$R/tk_mxfp4.log" 2>&1
echo "vs triton_kernels rc=$? $(( $(date +%s) - t0 ))s"; tail -25 "$R/tk_mxfp4.log"
echo "end $(( $(date +%s) - t0 ))s"
