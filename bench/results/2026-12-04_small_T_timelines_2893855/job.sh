#!/usr/bin/env bash
# Session 36 (2026-12-04): the kernel timelines of bench/results/2026-12-03_small_T_timelines/ again, at
# 2893855 (after session 35's activation / quantizer arithmetic, one-scan route plan and table), for the
# cells still behind vLLM: bf16 and fp8_block, qwen3-30b-a3b and mixtral-8x7b, T = 128. `megamoe bench`
# and vLLM's Triton fused MoE, each under the CUPTI tracer (scripts/ktrace). Binary: .carry/base.tgz
# (the CLI of 2893855 built on the CPU machine). Run from the repository root with carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/carry && tar xzf .carry/base.tgz -C /tmp/carry || exit 1
B=/tmp/carry
CUDA=/usr/local/cuda
CUPTI_PIP=$(python3 -c 'import nvidia.cuda_cupti, os; print(os.path.join(nvidia.cuda_cupti.__path__[0], "lib"))' 2>/dev/null || true)
ls $CUDA/lib64/libcupti* $CUDA/extras/CUPTI/lib64/libcupti* $CUPTI_PIP 2>&1 | head -5
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -I$CUDA/extras/CUPTI/include \
  -L$CUDA/lib64 -L$CUDA/extras/CUPTI/lib64 ${CUPTI_PIP:+-L$CUPTI_PIP} -lcupti || exit 1
export LD_LIBRARY_PATH=$CUDA/lib64:$CUDA/extras/CUPTI/lib64${CUPTI_PIP:+:$CUPTI_PIP}:${LD_LIBRARY_PATH:-}
PR=qwen3-30b-a3b,mixtral-8x7b
for recipe in bf16 fp8_block; do
  CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/ours_$recipe.csv timeout 120 $B/megamoe bench --recipe $recipe \
    --presets $PR --tokens 128 --iters 50 > "$R/ours_$recipe.log" 2>&1
  echo "ours $recipe rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\s*(qwen|mixtral)|ms" "$R/ours_$recipe.log" | tail -6
  python3 scripts/ktrace/timeline.py $R/ours_$recipe.csv | tee $R/ours_$recipe.timeline.txt
  CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/vllm_$recipe.csv timeout 150 python3 .peers/vllm_triton_moe.py \
    --recipe $recipe --presets $PR --tokens 128 --iters 50 > "$R/vllm_$recipe.log" 2>&1
  echo "vllm $recipe rc=$? $(( $(date +%s) - t0 ))s"; grep -E "T=" "$R/vllm_$recipe.log" | tail -4 | cut -c1-120
  python3 scripts/ktrace/timeline.py $R/vllm_$recipe.csv | tee $R/vllm_$recipe.timeline.txt
done
gzip -f $R/*.csv
