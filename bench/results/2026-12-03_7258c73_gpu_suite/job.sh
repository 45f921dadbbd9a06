#!/usr/bin/env bash
# HEAD validation: full build with the Python module, the whole GPU test binary, pytest on the GPU,
# the multigpu binary with one rank.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt 2>&1
git log --oneline -1 > $R/tree.txt 2>&1; git status --short >> $R/tree.txt 2>&1
t0=$(date +%s)
MEGAMOE_CMAKE_ARGS="-DMEGAMOE_BUILD_PYTHON=ON -Dnanobind_DIR=$ROOT/.snap/nanobind/cmake ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" \
  scripts/device_build.sh $BN || exit 1
echo "build $(( $(date +%s) - t0 ))s"
timeout 260 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1
echo "GPU tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $R/gpu_tests.log | head -8
MEGAMOE_BUILD_DIR=$BN timeout 150 python3 -m pytest -q -rs -p no:cacheprovider tests/python > $R/pytest.log 2>&1
echo "pytest rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^FAILED|passed|failed" $R/pytest.log | tail -4
if [ -x $BN/megamoe_multigpu_tests ]; then
  MEGAMOE_EP_RANKS=1 timeout 90 $BN/megamoe_multigpu_tests --gtest_brief=1 > $R/multigpu_1rank.log 2>&1
  echo "multigpu 1 rank rc=$?"; grep -E "^\[  PASSED|^\[  FAILED|^\[  SKIPPED" $R/multigpu_1rank.log | head -4
fi
echo "end $(( $(date +%s) - t0 ))s"
