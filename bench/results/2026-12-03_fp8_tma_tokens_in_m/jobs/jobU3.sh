#!/usr/bin/env bash
# U3: build, megamoe tune fp8_block T=128..8192 (with split_tma / split_tma_act), auto with that cache vs vLLM peer.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
git rev-parse HEAD > $R/commit.txt 2>/dev/null
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build.log | head -60; exit 1; fi
X=$BN/megamoe
t0=$(date +%s)
timeout 330 $X tune --recipe fp8_block --tokens 128,256,512,1024,2048,4096,8192 --iters 30 --cache $R/tune_fp8.json > $R/tune_fp8.txt 2> $R/tune_fp8.err
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat $R/tune_fp8.txt
export MEGAMOE_TACTIC_CACHE=$R/tune_fp8.json
timeout 200 python3 bench/run_bench.py --build $BN --recipe fp8_block --backends auto --presets deepseek-v3,qwen3-30b-a3b,mixtral-8x7b --tokens 128,512,2048,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out $R/peer_tuned.json > $R/peer_tuned.log 2>&1
echo "peer rc=$?"; tail -16 $R/peer_tuned.log
