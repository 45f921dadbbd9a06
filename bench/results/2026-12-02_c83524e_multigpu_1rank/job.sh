#!/usr/bin/env bash
# Device job C: HEAD's multigpu test binary with one rank (MEGAMOE_EP_RANKS=1), then memcheck on it.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_multigpu_tests > $R/build.log 2>&1 || { tail -30 $R/build.log; exit 1; }
echo "build $(( $(date +%s) - t0 ))s"
MEGAMOE_EP_RANKS=1 timeout 120 $BN/megamoe_multigpu_tests > $R/multigpu_r1.log 2>&1
echo "multigpu (1 rank) rc=$?"; grep -E "^\[  (PASSED|FAILED) |tests ran" $R/multigpu_r1.log | head -8
for tool in memcheck racecheck; do
  MEGAMOE_EP_RANKS=1 timeout 150 compute-sanitizer --tool $tool --target-processes all --error-exitcode 9 $BN/megamoe_multigpu_tests > $R/san-ep-$tool.log 2>&1
  echo "$tool rc=$?"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|tests ran|PASSED" $R/san-ep-$tool.log | head -4
done
