#!/usr/bin/env bash
# Session 37, after job2.sh: kernel timelines (CUPTI tracer, scripts/ktrace) of fp8_block and bf16,
# qwen3-30b-a3b T = 128, with MEGAMOE_L2_PREFETCH_MB = 0 and 32: does FC1 get faster, and where do the
# ~6-9 us that job2 measured come from. Binary: job2's (.carry/l2.tgz, l2_prefetch.patch), carry [".carry"].
# As first run (run3/) it traced fp8_block and bf16 with job2's binary; after job4 it traced fp8_block only
# with job4's binary (run3b/, l2_prefetch_v2.patch).
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/new && tar xzf .carry/l2.tgz -C /tmp/new || exit 1
CUDA=/usr/local/cuda
CUPTI_PIP=$(python3 -c 'import nvidia.cuda_cupti, os; print(os.path.join(nvidia.cuda_cupti.__path__[0], "lib"))' 2>/dev/null || true)
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -I$CUDA/extras/CUPTI/include \
  -L$CUDA/lib64 -L$CUDA/extras/CUPTI/lib64 ${CUPTI_PIP:+-L$CUPTI_PIP} -lcupti || exit 1
export LD_LIBRARY_PATH=$CUDA/lib64:$CUDA/extras/CUPTI/lib64${CUPTI_PIP:+:$CUPTI_PIP}:${LD_LIBRARY_PATH:-}
for recipe in fp8_block bf16; do
  for mb in 0 32; do
    MEGAMOE_L2_PREFETCH_MB=$mb CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/${recipe}_mb$mb.csv timeout 90 \
      /tmp/new/megamoe bench --recipe $recipe --presets qwen3-30b-a3b --tokens 128 --iters 50 > "$R/${recipe}_mb$mb.log" 2>&1
    echo "$recipe mb$mb rc=$? $(( $(date +%s) - t0 ))s"
    python3 scripts/ktrace/timeline.py $R/${recipe}_mb$mb.csv | tee $R/${recipe}_mb$mb.timeline.txt
  done
done
gzip -f $R/*.csv
