#!/usr/bin/env bash
# X1: (1) the whole GPU test binary at HEAD (80ff610's K-loop change had only the fp8 tests);
# (2) where the graph replay's time goes beyond the per-kernel sum at T = 8192: SM clock / power
# sampled by nvidia-smi during `megamoe bench`, and kernel durations inside the graph replays
# (nsys --cuda-graph-trace=node), fp8_block mixtral-8x7b and bf16 deepseek-v3 (`auto`).
set -u
PART=${1:-A}
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv > $R/gpu.txt
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli megamoe_gpu_tests > $R/build.log 2>&1; echo "build rc $? $(( $(date +%s) - t0 ))s"; tail -3 $R/build.log | grep -i error
if [ $PART = A ]; then
# (3) what the ragged last tiles cost: `auto` with uniform against balanced routing (every expert
# floor/ceil of T*K/E rows), T = 2048, 8192, fp8_block and bf16, four presets, alternated, two runs.
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for rt in uniform balanced; do
    for r in fp8_block bf16; do
      timeout 100 $BN/megamoe bench --recipe $r --routing $rt --presets $P --tokens 2048,8192 --iters 50 --json $R/${rt}_${r}_r$rep.json > $R/${rt}_${r}_r$rep.log 2>&1
    done
  done
  echo "routing r$rep $(( $(date +%s) - t0 ))s"
done
python3 scripts/ab_compare.py $R uniform balanced
fi
if [ $PART = B ]; then
timeout 280 $BN/megamoe_gpu_tests --gtest_brief=1 > $R/gpu_tests.log 2>&1; echo "gpu tests rc=$? $(( $(date +%s) - t0 ))s"
grep -E "^\[  PASSED|^\[  FAILED|tests ran" $R/gpu_tests.log | head -5
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
echo "nsys: ${NSYS:-none}"
for c in fp8_block:mixtral-8x7b bf16:deepseek-v3; do
  r=${c%%:*}; p=${c##*:}
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active --format=csv -lms 50 > $R/smi_${r}.csv 2>&1 &
  SMI=$!
  timeout 120 $BN/megamoe bench --recipe $r --presets $p --tokens 8192 --iters 200 --json $R/bench_${r}.json > $R/bench_${r}.log 2>&1
  echo "bench $r rc=$? $(( $(date +%s) - t0 ))s"; kill $SMI; grep -E "ms|ceil" $R/bench_${r}.log | tail -3
  if [ -n "$NSYS" ]; then
    timeout 150 $NSYS profile --cuda-graph-trace=node --trace=cuda -o $R/nsys_${r} -f true $BN/megamoe bench --recipe $r --presets $p --tokens 8192 --iters 50 > $R/nsys_${r}.log 2>&1
    echo "nsys $r rc=$? $(( $(date +%s) - t0 ))s"
    $NSYS stats --report cuda_gpu_kern_sum --format csv -o $R/kern_${r} $R/nsys_${r}.nsys-rep > /dev/null 2>&1
    $NSYS stats --report cuda_gpu_trace --format csv -o $R/trace_${r} $R/nsys_${r}.nsys-rep > /dev/null 2>&1
    ls $R | grep -E "kern_|trace_" ; gzip -f $R/trace_${r}*.csv; rm -f $R/nsys_${r}.sqlite
  fi
done
fi
