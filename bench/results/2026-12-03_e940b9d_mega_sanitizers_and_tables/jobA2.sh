#!/usr/bin/env bash
# A2 (e940b9d): sanitizers on the Mega tests with the abort-path fix (wait bound 10 min), then
# `auto` and split vs vLLM's Triton fused MoE and PyTorch, bf16 and fp8_block, T = 1..1024.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
t0=$(date +%s)
[ -x $BN/megamoe_gpu_tests ] || { cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1; ninja -C $BN -j16 megamoe_gpu_tests megamoe_cli > $R/build.log 2>&1; }
echo "build $(( $(date +%s) - t0 ))s"
F='MegaBf16.*:MegaKernel.*:*mega*'
echo "mega tests: $($BN/megamoe_gpu_tests --gtest_list_tests --gtest_filter="$F" | grep -c '^  ')"
MEGAMOE_MEGA_WAIT_TIMEOUT_MS=600000 timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_filter="$F" > $R/san-racecheck.log 2>&1
echo "racecheck rc=$? $(( $(date +%s) - t0 ))s ok=$(grep -c '^\[       OK' $R/san-racecheck.log)"; grep -E "SUMMARY|FAILED" $R/san-racecheck.log | tail -3
MEGAMOE_MEGA_WAIT_TIMEOUT_MS=600000 timeout 100 compute-sanitizer --tool synccheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_filter='MegaBf16.*:MegaKernel.*:*mega*fp8*small*:*mega*zipf*' > $R/san-synccheck.log 2>&1
echo "synccheck rc=$? $(( $(date +%s) - t0 ))s ok=$(grep -c '^\[       OK' $R/san-synccheck.log)"; grep -E "SUMMARY|FAILED" $R/san-synccheck.log | tail -3
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for r in bf16 fp8_block; do
  S=sm90_bf16_bf16_bf16_split; [ $r = fp8_block ] && S=sm90_fp8_fp8_bf16_split
  for tk in 1,2,4,8,16,32,64 128,256,512,1024; do
    left=$(( 585 - ($(date +%s) - t0) )); [ $left -lt 10 ] && break
    n=${tk%%,*}
    timeout $left python3 bench/run_bench.py --build $BN --out $R/${r}_T${n}.json --recipe $r --backends auto,$S --presets $P --tokens $tk --iters 50 --vllm-peer .peers/vllm_triton_moe.py > $R/${r}_T${n}.txt 2>&1
    echo "$r T=$tk rc=$? $(( $(date +%s) - t0 ))s"
  done
done
