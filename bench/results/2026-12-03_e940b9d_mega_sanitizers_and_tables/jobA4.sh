#!/usr/bin/env bash
# A4: why the 1000-replay stress test dies under racecheck: line-buffered output, the test's exit status
set -u
source scripts/device_env.sh
export MEGAMOE_MEGA_WAIT_TIMEOUT_MS=600000
timeout 100 compute-sanitizer --tool racecheck --target-processes all bash -c "stdbuf -oL -eL $BN/megamoe_gpu_tests --gtest_filter='MegaKernel.DependencyCounterStress' 2>&1; echo \"app rc=\$?\"" > $R/san-racecheck-stress2.log 2>&1
echo "rc=$?"; tail -25 $R/san-racecheck-stress2.log
dmesg 2>/dev/null | tail -5
