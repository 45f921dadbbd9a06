#!/usr/bin/env bash
# Session 38: the W4A16 small tactic fed by TMA (MEGAMOE_W4A16_SMALL_TMA=1; kernel in
# src/kernels/sm90/gemm/grouped_gemm_w4a16_small.cu, patch small_tma.patch here if not shipped):
# thread 0 issues TMA boxes of packed codes / activations and bulk copies of the scale tiles per
# stage into a 5-stage (16-token passes) mbarrier ring, warps release stages on their own (no CTA
# barrier in the K loop). run1 (this script's first form, run1/job_run1.sh): 0.875x, racecheck flagged
# the lane-0-only release; run2: every thread releases, and MEGAMOE_W4A16_SMALL_TMA=2 adds a 128-byte L2
# prefetch of the codes every other stage (the 32-byte boxes fetch 32-byte sectors).
# Binaries built on the CPU machine (ninja megamoe_cli megamoe_gpu_tests; stripped; tar czf
# .carry/st.tgz -C <dir> megamoe megamoe_gpu_tests); carry [".carry"] holding only st.tgz.
# 1. W4A16 / fp4 GPU tests with the knob on and off; racecheck / memcheck / synccheck with it on;
# 2. kernel timelines of deepseek-v3 / gpt-oss-120b T = 1 (forced split_small), knob 0 and 1;
# 3. A/B knob 0 vs 1, forced split_small, mxfp4 and nvfp4, T = 1..128, four presets, best of two.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/st && tar xzf .carry/st.tgz -C /tmp/st || exit 1
F='W4A16.*:*fp4*'
MEGAMOE_W4A16_SMALL_TMA=0 timeout 120 /tmp/st/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_knob0.log" 2>&1
echo "tests knob0 rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_knob0.log" | head -12
mkdir -p "$R/knob1"  # (run2: the checks with knob 2, which runs every knob-1 path plus the prefetch)
MEGAMOE_W4A16_SMALL_TMA=2 scripts/ab_checks.sh "$R/knob1" /tmp/st/megamoe_gpu_tests "$t0" "$F" 'W4A16.GemmTacticsMatchCpu:W4A16.SmallShapes'
CUDA=/usr/local/cuda
CUPTI_PIP=$(python3 -c 'import nvidia.cuda_cupti, os; print(os.path.join(nvidia.cuda_cupti.__path__[0], "lib"))' 2>/dev/null || true)
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -I$CUDA/extras/CUPTI/include \
  -L$CUDA/lib64 -L$CUDA/extras/CUPTI/lib64 ${CUPTI_PIP:+-L$CUPTI_PIP} -lcupti || exit 1
for p in deepseek-v3 gpt-oss-120b; do
  for k in 0 1 2; do
    MEGAMOE_W4A16_SMALL_TMA=$k CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/tl_${p}_k$k.csv \
      LD_LIBRARY_PATH=$CUDA/lib64:$CUDA/extras/CUPTI/lib64${CUPTI_PIP:+:$CUPTI_PIP}:${LD_LIBRARY_PATH:-} timeout 90 \
      /tmp/st/megamoe bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small \
      --presets $p --tokens 1 --iters 50 > "$R/tl_${p}_k$k.log" 2>&1
    echo "timeline $p knob$k rc=$? $(( $(date +%s) - t0 ))s"
    python3 scripts/ktrace/timeline.py $R/tl_${p}_k$k.csv | tee $R/tl_${p}_k$k.timeline.txt | tail -8
  done
done
gzip -f $R/*.csv
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
M=/tmp/st/megamoe@MEGAMOE_W4A16_SMALL_TMA
AB_VARIANTS="cpasync=$M=0 tma=$M=1 tmapf=$M=2" RUN_TIMEOUT=60 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 500 \
  "mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small --presets $PR --tokens 1,2,4,8,16,32,64,128 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --backend sm90_bf16_nvfp4_bf16_split --tactic split_small --presets $PR --tokens 1,2,4,8,16,32,64,128 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |T=    1|geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
