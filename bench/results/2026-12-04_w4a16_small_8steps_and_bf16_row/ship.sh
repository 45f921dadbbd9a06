#!/usr/bin/env bash
# Session 39, the committed tree 51a19be (the W4A16 8-step rule as the default, the bf16 split_tma_small
# table): W4A16 GPU tests with the default knobs; `auto` w4a16_mxfp4 against triton_kernels (the README row).
# .carry/ship.tgz (megamoe, megamoe_gpu_tests of 51a19be). Carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/ship
mkdir -p $B && tar xzf .carry/ship.tgz -C $B || exit 1
timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*fp4*:GemmBf16Act.*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -6
timeout 220 python3 bench/run_bench.py --build $B --recipe w4a16_mxfp4 --backends auto \
  --presets deepseek-v3,gpt-oss-120b --tokens 1,2,4,8,16,32,64 --iters 50 --triton-kernels-peer .peers/triton_kernels_moe.py \
  --out "$R/tk_mxfp4.json" > "$R/tk_mxfp4.log" 2>&1
echo "tk rc=$? $(( $(date +%s) - t0 ))s"; tail -n 20 "$R/tk_mxfp4.log"
echo "end $(( $(date +%s) - t0 ))s"
