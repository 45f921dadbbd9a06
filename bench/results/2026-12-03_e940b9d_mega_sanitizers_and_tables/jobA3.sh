#!/usr/bin/env bash
# A3 (e940b9d): racecheck on every Mega test except the 1000-replay stress test (wait bound 10 min);
# the stress test alone under racecheck with its exit status and stderr kept apart.
set -u
source scripts/device_env.sh
t0=$(date +%s)
[ -x $BN/megamoe_gpu_tests ] || { cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1; ninja -C $BN -j16 megamoe_gpu_tests > $R/build.log 2>&1; }
echo "build $(( $(date +%s) - t0 ))s"
export MEGAMOE_MEGA_WAIT_TIMEOUT_MS=600000
timeout 90 compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_filter='MegaKernel.DependencyCounterStress' > $R/san-racecheck-stress.out 2> $R/san-racecheck-stress.err
echo "stress racecheck rc=$? $(( $(date +%s) - t0 ))s"; tail -5 $R/san-racecheck-stress.out; tail -5 $R/san-racecheck-stress.err
left=$(( 560 - ($(date +%s) - t0) ))
timeout $left compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_filter='MegaBf16.*:MegaKernel.*:*mega*:-MegaKernel.DependencyCounterStress' > $R/san-racecheck.log 2>&1
echo "racecheck rc=$? $(( $(date +%s) - t0 ))s ok=$(grep -c '^\[       OK' $R/san-racecheck.log) failed=$(grep -c '^\[  FAILED' $R/san-racecheck.log)"; grep -E "SUMMARY|Error" $R/san-racecheck.log | tail -3; grep "^\[ RUN" $R/san-racecheck.log | tail -1
