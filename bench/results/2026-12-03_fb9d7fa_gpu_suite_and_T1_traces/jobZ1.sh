#!/usr/bin/env bash
# Z1: fb9d7fa (host-side validation changes of session 26): whole GPU suite, multigpu with one rank,
# pytest with the GPU, sanitizers on the Mega tests, the README's run command.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
git log -1 --format=%H > $R/commit.txt 2>/dev/null || true
t0=$(date +%s)
PYNB=""; python3 -c "import nanobind" 2>/dev/null || PYNB="-Dnanobind_DIR=$ROOT/.snap/nanobind/cmake"; cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_PYTHON=ON $PYNB ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli megamoe_gpu_tests megamoe_multigpu_tests > $R/build.log 2>&1; rc=$?
(ninja -C $BN -j12 > $R/build_py.log 2>&1; echo "python ext rc=$?") &
PYB=$!
echo "build $(( $(date +%s) - t0 ))s rc $rc"
if [ "$rc" != 0 ]; then grep -B3 -A20 "error" $R/build.log | head -60; exit 1; fi
timeout 220 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1
echo "GPU tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/gpu_tests.log | head -8
# Mega timelines at T = 1 with the shipped tactics (and neighbours), for offline analysis.
X=$BN/megamoe
tr() { MEGAMOE_TACTIC_CACHE=off MEGAMOE_MEGA_TRACE=$R/trace_$1.csv timeout 60 $X bench --recipe $2 --backend $3 --tactic $4 --presets $5 --tokens ${6:-1} --iters 50 --json $R/trace_$1.json > $R/trace_$1.log 2>&1; tail -1 $R/trace_$1.log; }
tr fp8_ds_min16 fp8_block sm90_fp8_fp8_bf16_mega mega_min16 deepseek-v3
tr fp8_ds_rounds fp8_block sm90_fp8_fp8_bf16_mega mega_rounds deepseek-v3
tr bf16_ds_mega bf16 sm90_bf16_bf16_bf16_mega mega deepseek-v3
tr bf16_gpt_min8 bf16 sm90_bf16_bf16_bf16_mega mega_min8 gpt-oss-120b
tr fp8_qw_min16 fp8_block sm90_fp8_fp8_bf16_mega mega_min16 qwen3-30b-a3b
tr bf16_qw_min16 bf16 sm90_bf16_bf16_bf16_mega mega_min16 qwen3-30b-a3b
tr fp8_mx_rounds fp8_block sm90_fp8_fp8_bf16_mega mega_rounds mixtral-8x7b
python3 scripts/mega_trace_summary.py $R/trace_*.csv > $R/trace_summary.txt 2>&1; head -60 $R/trace_summary.txt
MEGAMOE_EP_RANKS=1 timeout 90 $BN/megamoe_multigpu_tests --gtest_brief=1 > $R/multigpu_1rank.log 2>&1
echo "multigpu(1 rank) rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|^\[  SKIPPED|tests ran" $R/multigpu_1rank.log | head -8
wait $PYB; tail -3 $R/build_py.log; MEGAMOE_BUILD_DIR=$BN timeout 150 python3 -m pytest -q -rs tests/python > $R/pytest.log 2>&1
echo "pytest rc=$? $(( $(date +%s) - t0 ))s"; tail -4 $R/pytest.log
timeout 60 $BN/megamoe run > $R/run_default.log 2>&1; echo "run rc=$?"; tail -5 $R/run_default.log
F='MegaBf16.*:Registered/Conformance.Run/*mega*'
$BN/megamoe_gpu_tests --gtest_list_tests --gtest_filter="*mega*:Mega*" > $R/mega_list.txt 2>&1
for tool in memcheck racecheck; do
  [ $(( $(date +%s) - t0 )) -gt 440 ] && { echo "skip san $tool (time)"; continue; }
  timeout 75 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > $R/san-$tool.log 2>&1
  echo "san $tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|tests ran|PASSED" $R/san-$tool.log | head -4
done
echo "end $(( $(date +%s) - t0 ))s"
