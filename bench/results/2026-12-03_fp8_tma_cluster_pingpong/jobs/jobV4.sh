#!/usr/bin/env bash
# V4: the fp8 TMA kernel's warpgroups take turns issuing their MMAs (MEGAMOE_FP8_TMA_PINGPONG, default 1) + scales read before the wgmma wait.
# GPU suite, sanitizers, A/B pingpong 0 vs 1; if it wins: tune fp8_block and auto vs vLLM with that cache.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build.log | head -60; exit 1; fi
X=$BN/megamoe
MEGAMOE_FP8_TMA_PINGPONG=0 timeout 60 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm_pp0.log 2>&1
echo "Fp8Gemm pp0 rc=$?"; grep -E "FAILED|PASSED" $R/fp8gemm_pp0.log | head -4
timeout 30 $BN/megamoe_gpu_tests --gtest_filter='Fp8Gemm.*' > $R/fp8gemm_pp1.log 2>&1; rc=$?
echo "Fp8Gemm pp1 rc=$rc"; grep -E "FAILED|PASSED" $R/fp8gemm_pp1.log | head -4
[ $rc != 0 ] && exit 1
timeout 240 $BN/megamoe_gpu_tests > $R/gpu_tests.log 2>&1
echo "GPU suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  (PASSED|FAILED)|tests ran|FAILED  \]" $R/gpu_tests.log | head -12
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for pp in 0 1; do
    for tac in split_tma split_tma_act; do
      MEGAMOE_FP8_TMA_PINGPONG=$pp timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic $tac --presets $P --tokens 128,2048,8192 --iters 50 --json $R/pp${pp}${tac}_fp8_r$rep.json > $R/pp${pp}${tac}_fp8_r$rep.log 2>&1
    done
  done
  timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_large_tile --presets $P --tokens 128,2048,8192 --iters 50 --json $R/large_fp8_r$rep.json > $R/large_fp8_r$rep.log 2>&1
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
for tac in split_tma split_tma_act; do echo "=== $tac pp0 vs pp1"; python3 scripts/ab_compare.py $R pp0$tac pp1$tac 2>&1 | tail -14; done
echo "=== large vs pp1 split_tma_act"; cp $R/large_fp8_r1.json $R/largeact_fp8_r1.json; cp $R/large_fp8_r2.json $R/largeact_fp8_r2.json
python3 scripts/ab_compare.py $R large pp1split_tma 2>&1 | tail -3; python3 scripts/ab_compare.py $R largeact pp1split_tma_act 2>&1 | tail -14
for tool in racecheck synccheck memcheck; do
  timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall' > $R/san-$tool.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|FAILED" $R/san-$tool.log | head -3
done
g=$(python3 scripts/ab_compare.py $R pp0split_tma_act pp1split_tma_act 2>&1 | awk '/ALL cells/{print $NF}')
echo "act geomean $g"
if python3 -c "import sys; sys.exit(0 if float('$g' or 0) > 1.03 else 1)"; then
  timeout 200 $X tune --recipe fp8_block --tokens 128,256,512,1024,2048,4096,8192 --iters 30 --cache $R/tune_fp8.json > $R/tune_fp8.txt 2> $R/tune_fp8.err
  echo "tune rc=$? $(( $(date +%s) - t0 ))s"; tail -40 $R/tune_fp8.txt
  export MEGAMOE_TACTIC_CACHE=$R/tune_fp8.json
  timeout 150 python3 bench/run_bench.py --build $BN --recipe fp8_block --backends auto --presets deepseek-v3,qwen3-30b-a3b,mixtral-8x7b --tokens 128,512,2048,8192 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out $R/peer_tuned.json > $R/peer_tuned.log 2>&1
  echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -16 $R/peer_tuned.log
fi
