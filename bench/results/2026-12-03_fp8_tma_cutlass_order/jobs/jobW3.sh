#!/usr/bin/env bash
# W3: the working tree (HEAD + the CUTLASS step order in the fp8 TMA kernel): the whole GPU test binary,
# megamoe tune fp8_block T = 128..8192, then `auto` with that cache against vLLM's Triton fused MoE.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build.log | head -60; exit 1; fi
timeout 200 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1
echo "GPU tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/gpu_tests.log | head -8
X=$BN/megamoe
timeout 200 $X tune --recipe fp8_block --tokens 128,256,512,1024,2048,4096,8192 --iters 30 --cache $R/tune_fp8.json > $R/tune_fp8.txt 2> $R/tune_fp8.err
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat $R/tune_fp8.txt
export MEGAMOE_TACTIC_CACHE=$R/tune_fp8.json
timeout 150 python3 bench/run_bench.py --build $BN --recipe fp8_block --backends auto --presets deepseek-v3,qwen3-30b-a3b,mixtral-8x7b --tokens 128,512,2048,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out $R/peer_tuned.json > $R/peer_tuned.log 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -16 $R/peer_tuned.log
