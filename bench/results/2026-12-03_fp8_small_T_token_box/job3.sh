#!/usr/bin/env bash
# 2026-12-03 (session 34), after job2.sh: diagnostics for the next steps at small T (fp8_block).
#   base    = .carry/base.tgz     HEAD (aac9303)
#   plan256 = .carry/plan256.tgz  route_plan.cu with plan_small_limit.patch, MEGAMOE_PLAN_SMALL_LIMIT=256:
#             the route plan's single-block path only up to 256 routes (T*K), the three-kernel path above
# 1. Kernel timelines (scripts/ktrace) of split_tma against split_tma_act, forced, at qwen3-30b-a3b and
#    gpt-oss-120b T = 128: which kernel makes the fused activation epilogue 1.13-1.21x slower there.
# 2. The route plan's duration against T*K on both paths (ktrace of the split backend, forced
#    split_tma_small, qwen3-30b-a3b T = 32..160), base and plan256; then base against plan256,
#    alternated, best of two, on the four presets at T = 64 / 128 (forced split_tma_small).
# Run from the repository root: bash bench/results/2026-12-03_fp8_small_T_token_box/job3.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/plan256 && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/plan256.tgz -C /tmp/plan256 || exit 1
CUDA=/usr/local/cuda
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -L$CUDA/lib64 -lcupti || exit 1
export MEGAMOE_TACTIC_CACHE=off
trace() {  # NAME BIN ARGS...: megamoe bench under the tracer, then the timeline
  local name=$1 bin=$2; shift 2
  CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/$name.csv LD_LIBRARY_PATH=$CUDA/lib64:${LD_LIBRARY_PATH:-} \
    timeout 60 $bin bench "$@" > "$R/$name.log" 2>&1 || echo "$name rc=$?"
  python3 scripts/ktrace/timeline.py $R/$name.csv > $R/$name.timeline.txt
  echo "== $name"; grep -E "^(qwen3|gpt|deep|mix)" "$R/$name.log"; cat $R/$name.timeline.txt
}
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --iters 50"
for t in split_tma split_tma_act; do
  trace ${t}_T128 /tmp/base/megamoe $S --tactic $t --presets qwen3-30b-a3b,gpt-oss-120b --tokens 128
done
for v in base plan256; do
  trace plan_$v /tmp/$v/megamoe $S --tactic split_tma_small --presets qwen3-30b-a3b --tokens 32,64,96,128,160
done
gzip -f $R/*.csv
echo "traces done $(( $(date +%s) - t0 ))s"
scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/plan256/megamoe 2 "$t0" 300 \
  "small=$S --tactic split_tma_small --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 64,128" | tail -n 14
echo "end $(( $(date +%s) - t0 ))s"
