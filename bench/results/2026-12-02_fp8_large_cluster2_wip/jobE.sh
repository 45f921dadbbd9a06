#!/usr/bin/env bash
# Device job E: racecheck of HEAD's (c71cfec = c83524e kernels) FP8 grouped GEMM test.
set -u
source scripts/device_env.sh
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_gpu_tests > $R/build.log 2>&1 || { tail -20 $R/build.log; exit 1; }
timeout 100 compute-sanitizer --tool racecheck --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Fp8Gemm.PartialBlocksSmall' > $R/san-racecheck-head.log 2>&1
echo "racecheck rc=$?"; grep -E "RACECHECK SUMMARY|PASSED" $R/san-racecheck-head.log | head -2; grep "Race reported" $R/san-racecheck-head.log | head -2
