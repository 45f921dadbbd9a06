#!/usr/bin/env bash
# Session 70: how much of a decode cell's time is the bench's L2 flush? Every replay of `megamoe bench`
# (and of the peers) follows a memset of a 256 MiB buffer, so the layer starts with L2 (50 MB on the
# H100, 60 MB on the H200) full of dirty lines that its misses write back to HBM inside the timed region:
# up to one L2 of write traffic, against the 50-180 MB a W4A16 T = 1 forward reads. The read flush
# (MEGAMOE_BENCH_FLUSH=read, tools/bench.cpp) leaves clean lines instead. Carry [".carry", ".peers"]
# (.carry/bld.txz, or CARRY_BLD: a build from e506db3 on, whose `megamoe bench` takes the --l2-flush
# that step 3's run_bench.py passes. Call 2 ran this script's first form with bld_main.txz = main
# a395644's kernels, and run_bench.py's first form, which set MEGAMOE_BENCH_FLUSH instead; see git log).
# JB: the seconds the call may run (default 420).
#   1. A/B memset / read, `auto`, w4a16_mxfp4 and bf16 T = 1..64 on the four presets, two alternated rounds;
#   2. T = 1 timelines under each flush (deepseek-v3, gpt-oss-120b, w4a16_mxfp4);
#   3. bench/run_bench.py --l2-flush read, then memset: w4a16_mxfp4 T = 1..64 on gpt-oss-120b and deepseek-v3
#      with triton_kernels, PyTorch and our bf16 (the peer from a copy whose one flush call reads).
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld.txz} carried_job_start
cat "$R/gpu.txt"
JB=${JB:-420}
P4=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
MX="mx=--recipe w4a16_mxfp4 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
BF="bf=--recipe bf16 --presets $P4 --tokens 1,2,4,8,16,32,64 --iters 50"
ab_variants "memset=$B/megamoe read=$B/megamoe@MEGAMOE_BENCH_FLUSH=read" 90 $((JB * 40 / 100)) "$MX" "$BF"
G="--recipe w4a16_mxfp4 --tokens 1"
for p in deepseek-v3 gpt-oss-120b; do
  ktrace_bench "${p}_memset" -- $G --presets $p
  MEGAMOE_BENCH_FLUSH=read ktrace_bench "${p}_read" -- $G --presets $p
done
for v in read memset; do
  [ "$(left $JB)" -lt 60 ] && { echo "skip run_bench $v: $(left $JB)s left"; continue; }
  timeout $(( $(left $JB) - 10 )) python3 bench/run_bench.py --build $B --recipe w4a16_mxfp4 \
    --presets deepseek-v3,gpt-oss-120b --tokens 1,2,4,8,16,32,64 --iters 50 \
    --triton-kernels-peer .peers/triton_kernels_moe.py --l2-flush $v --out "$R/rb_$v.json" > "$R/rb_$v.txt" 2> "$R/rb_$v.log"
  echo "run_bench $v rc=$? $(el)s"; cat "$R/rb_$v.txt"
done
echo "end $(el)s"
