#!/usr/bin/env bash
# U2: build, whole GPU suite, sanitizers on the fp8 TMA tests, forced tactics incl. split_tma_act, vLLM peer with auto.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
git rev-parse HEAD > $R/commit.txt 2>/dev/null; git status --short > $R/status.txt 2>/dev/null
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build.log | head -60; exit 1; fi
X=$BN/megamoe
t0=$(date +%s)
timeout 300 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1
echo "gpu tests rc=$? $(( $(date +%s) - t0 ))s"; tail -3 $R/gpu_tests.log; grep -B2 -A10 "Failure" $R/gpu_tests.log | head -40
F='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.BothTacticsMatchFloat64Product'
for tool in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > $R/san-$tool.log 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED|Hazard" $R/san-$tool.log | head -5
done
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for t in tma tmaact large; do
  tac=split_tma; [ $t = tmaact ] && tac=split_tma_act; [ $t = large ] && tac=split_large_tile
  timeout 150 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 128,512,2048,8192 --iters 50 --json $R/${t}_fp8_r3.json > $R/${t}_fp8_r3.log 2>&1
  echo "bench $t rc=$?"; grep -iE "error|mismatch" $R/${t}_fp8_r3.log | head -3
done
python3 scripts/ab_compare.py $R tma tmaact 2>&1 | tail -20
python3 scripts/ab_compare.py $R large tmaact 2>&1 | tail -20
unset MEGAMOE_TACTIC_CACHE
timeout 280 python3 bench/run_bench.py --build $BN --recipe fp8_block --backends sm90_fp8_fp8_bf16_split --presets deepseek-v3,qwen3-30b-a3b,mixtral-8x7b --tokens 128,2048,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out $R/peer_auto.json > $R/peer_auto.log 2>&1
echo "peer rc=$?"; tail -25 $R/peer_auto.log
