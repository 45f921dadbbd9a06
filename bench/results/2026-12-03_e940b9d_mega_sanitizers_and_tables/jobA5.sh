#!/usr/bin/env bash
# A5: the stress test under racecheck with 20 replays per case (MEGAMOE_TEST_STRESS_REPS), plus the test as shipped
set -u
source scripts/device_env.sh
t0=$(date +%s)
ninja -C $BN -j16 megamoe_gpu_tests > $R/build.log 2>&1 || { echo build failed; tail -20 $R/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
MEGAMOE_TEST_STRESS_REPS=20 MEGAMOE_MEGA_WAIT_TIMEOUT_MS=600000 timeout 150 compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_filter='MegaKernel.DependencyCounterStress' > $R/san-racecheck-stress20.log 2>&1
echo "stress racecheck (20 reps) rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|OK|FAILED" $R/san-racecheck-stress20.log | tail -3
timeout 60 $BN/megamoe_gpu_tests --gtest_filter='MegaKernel.*' > $R/stress_plain.log 2>&1
echo "plain rc=$?"; grep -E "OK|FAILED|PASSED" $R/stress_plain.log | tail -4
MEGAMOE_TEST_STRESS_REPS=abc timeout 60 $BN/megamoe_gpu_tests --gtest_filter='MegaKernel.DependencyCounterStress' > $R/stress_badenv.log 2>&1
echo "bad env rc=$? (expect 1)"; grep -E "MEGAMOE_TEST_STRESS_REPS" $R/stress_badenv.log | head -2
