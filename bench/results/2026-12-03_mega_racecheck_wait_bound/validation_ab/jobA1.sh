#!/usr/bin/env bash
# For the next device job (not run yet): abort_flag_and_wait_timeout.patch applied to the tree, HEAD built
# beside it as the base. The whole GPU suite (with MegaKernel.LostDependencyIsReportedNotHung), racecheck and
# memcheck on the fault test, racecheck on the gpt-oss-120b shape with a 10-minute wait bound, and an A/B
# of the Mega kernels against the base (the loop's abort read and the wait bound's argument must cost nothing).
# Run from the repository root with the patch applied and saved as .snap/mine.patch (the base tree reverses it).
set -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/gpu.txt 2>&1
source scripts/device_env.sh
t0=$(date +%s)
MEGAMOE_AB_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" JOBS=16 \
  scripts/ab_build.sh .snap/mine.patch $BN /tmp/build-base megamoe_gpu_tests || exit 1
echo "builds $(( $(date +%s) - t0 ))s"
timeout 240 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1
echo "GPU tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/gpu_tests.log | head -8
for tool in racecheck memcheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='MegaKernel.LostDependencyIsReportedNotHung' > $R/san-fault-$tool.log 2>&1
  echo "fault test $tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED|PASSED" $R/san-fault-$tool.log | head -3
done
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base new; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe
    timeout 80 $X bench --recipe bf16 --backend sm90_bf16_bf16_bf16_mega --tactic mega_min8 --presets $P --tokens 1,2,8,64 --iters 50 --json $R/${v}_bf16_r$rep.json > $R/${v}_bf16_r$rep.log 2>&1
    timeout 80 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_mega --tactic mega_min16 --presets $P --tokens 1,2,8,64 --iters 50 --json $R/${v}_fp8_r$rep.json > $R/${v}_fp8_r$rep.log 2>&1
  done
done
python3 scripts/ab_compare.py $R base new
left=$(( 560 - ($(date +%s) - t0) )); [ $left -lt 20 ] && left=20
MEGAMOE_MEGA_WAIT_TIMEOUT_MS=600000 timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Registered/Conformance.Run/sm90_bf16_bf16_bf16_mega__shape_gpt_oss_H2880_I2880' > $R/san-gptoss-racecheck.log 2>&1
echo "gpt-oss shape racecheck rc=$?"; grep -E "RACECHECK SUMMARY|FAILED|PASSED" $R/san-gptoss-racecheck.log | head -3
echo "end $(( $(date +%s) - t0 ))s"
