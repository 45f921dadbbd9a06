#!/usr/bin/env bash
# Z4: bf16 Mega kernel: an FC2 tile that waits for its dependency prefetches its later W2 steps into L2,
# against HEAD (base tree = this tree with .snap/mine.patch reversed). bf16 Mega tests, sanitizers, A/B.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
t0=$(date +%s)
mkdir -p /tmp/basetree && tar cf - --exclude=./build-dn --exclude=./build-db --exclude=./.git . | tar xf - -C /tmp/basetree
(cd /tmp/basetree && patch -R -p1 < .snap/mine.patch > /dev/null && echo "base tree ok")
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
cmake -S /tmp/basetree -B /tmp/build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_TESTS=OFF ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
( ninja -C $BN -j10 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; echo "build new rc $?" ) &
( ninja -C /tmp/build-base -j6 megamoe_cli > $R/build_base.log 2>&1; echo "build base rc $?" ) &
wait
echo "builds $(( $(date +%s) - t0 ))s"; grep -A5 "error" $R/build.log | head -20
timeout 100 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*bf16_bf16_bf16_mega*:MegaBf16.*' > $R/tests_mega_bf16.log 2>&1
echo "bf16 mega tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/tests_mega_bf16.log | head -5
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base new; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe
    for t in mega_min8 mega_rounds; do
      timeout 80 $X bench --recipe bf16 --backend sm90_bf16_bf16_bf16_mega --tactic $t --presets $P --tokens 1,2,4,8 --iters 50 --json $R/${v}_${t}_r$rep.json > $R/${v}_${t}_r$rep.log 2>&1
    done
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
python3 scripts/ab_compare.py $R base new
MEGAMOE_MEGA_TRACE=$R/trace_new_gpt.csv timeout 60 $BN/megamoe bench --recipe bf16 --backend sm90_bf16_bf16_bf16_mega --tactic mega_min8 --presets gpt-oss-120b --tokens 1 --iters 50 > $R/trace_new_gpt.log 2>&1
python3 scripts/mega_trace_summary.py $R/trace_new_gpt.csv
F='Registered/Conformance.Run/sm90_bf16_bf16_bf16_mega__tokens_T7:Registered/Conformance.Run/sm90_bf16_bf16_bf16_mega__routing_zipf_E8:Registered/Conformance.Run/sm90_bf16_bf16_bf16_mega__shape_gpt_oss_H2880_I2880'
for tool in racecheck memcheck; do
  [ $(( $(date +%s) - t0 )) -gt 300 ] && { echo "skip $tool (time)"; continue; }
  timeout 45 compute-sanitizer --tool $tool --error-exitcode 9 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > $R/san-$tool.log 2>&1
  echo "$tool rc=$? $(( $(date +%s) - t0 ))s"; grep -E "ERROR SUMMARY|RACECHECK SUMMARY|FAILED|PASSED" $R/san-$tool.log | head -3
done
echo "end $(( $(date +%s) - t0 ))s"
