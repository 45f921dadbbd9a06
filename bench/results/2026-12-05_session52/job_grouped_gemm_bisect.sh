#!/usr/bin/env bash
# Session 52: which earlier test of shard 3 (GTEST_TOTAL_SHARDS=4, index 3) makes
# GroupedGemm.AllRowsInOneGroupAndAllEmpty's large-tile "all rows in the first group" case leave its
# whole output unwritten (run3 and run8: 115200 of 115200 elements NaN; alone it passes), and whether
# zeroing the grouped GEMMs' workspace once at construction (MEGAMOE_GEMM_WORKSPACE_ZERO, 1 by
# default in this binary) changes it. Carry [".carry"]; ~120 s.
set -u
source scripts/device_env.sh
carried_job_start
T=GroupedGemm.AllRowsInOneGroupAndAllEmpty
P="SplitBf16.PaddedAndMisalignedRowStride SplitBf16.DeepseekWorkspaceFitsBudget Fp8Block.PdlEqualsPlainBitwise W4A16.SmallShapes W4A16.RefusesBadOutputs ConformanceRegistry.EveryGpuBackendIsCovered"
one() {  # one ZERO FILTER
  MEGAMOE_GEMM_WORKSPACE_ZERO=$1 timeout 90 "$B/megamoe_gpu_tests" --gtest_brief=1 --gtest_filter="$2" > "$R/x.log" 2>&1
  local rc=$? n
  n=$(grep -c 'left unwritten' "$R/x.log")
  echo "zero=$1 rc=$rc unwritten_cases=$n [$2] $(el)s"
  cat "$R/x.log" >> "$R/all.log"
  return "$n"
}
all="$(echo $P | tr ' ' ':'):$T"
one 0 "$all"
bad=""
for p in $P; do one 0 "$p:$T" || bad="$bad $p"; done
one 1 "$all"
for p in $bad; do one 1 "$p:$T"; done
one 0 "$T"
echo "end $(el)s"
