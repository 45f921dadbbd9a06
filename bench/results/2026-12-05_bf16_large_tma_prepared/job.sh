#!/usr/bin/env bash
# Prepared in session 45 (no GPU was lent that session; nothing here has run on a GPU). Our own bf16
# large-T grouped GEMM, tactic `split_large_tma` of the bf16 split backend (branch wip/bf16-large-tma):
# a persistent warp-specialised wgmma kernel whose token passes are only as wide as the expert's rows
# (32 .. 256, steps of 32), against CUTLASS's 128 x 256 tile (`split_large_tile`, what `auto` runs for
# bf16 at T >= 1024), which multiplies up to 127 rows that do not exist in every expert's last tile
# (README). Binary: /work/carry-stash/bf16_large_tma.txz on the CPU machine -> .carry/blt.txz
# (megamoe + megamoe_gpu_tests of the branch; xz).
# Two calls on one warm machine: `bash job.sh check` (~300 s), then `bash job.sh ab` (~480 s; AB_DEADLINE,
# default 480 s from the call's start, bounds it); optional `bash job.sh tune` (<= 560 s: the table's
# measurements if the A/B shows a win) and `bash job.sh ncu` (~250 s):
#  check: the bf16 GEMM / activation-epilogue / split-backend GPU tests and the bf16 backends'
#    conformance cases (every_tactic forces split_large_tma), the layer-level and every_tactic cases
#    again with pass modes 0 and 1 (MEGAMOE_BF16_LARGE_TMA_PASSES, read once per process; 2 is the
#    default; the GEMM-level tests run all three modes themselves; mode 0 with one column a store,
#    MEGAMOE_BF16_LARGE_TMA_PAIRED=0); `megamoe run --tactic
#    split_large_tma` against the CPU reference on the four presets (modes 2 and 0); memcheck / racecheck /
#    synccheck on the kernel's small problem (Bf16LargeTma.SmallProblemForSanitizers).
#  ab: tile (forced split_large_tile) / tma2 (forced split_large_tma: pass mode 2, the default, with
#    the epilogue's paired stores, the default) / tma2s (the same with one column a store:
#    MEGAMOE_BF16_LARGE_TMA_PAIRED=0) / tma0 (pass mode 0), bf16 T = 1024..8192 with uniform routing,
#    and T = 8192 with balanced routing (every expert 256 rows at deepseek-v3: no ragged tiles, so
#    tile against tma there compares the two mainloops alone); four presets, two alternated runs,
#    best of two (the deadline cuts tma0's second run first).
#  ncu: FC1 and FC2 of deepseek-v3 and qwen3-30b-a3b at T = 8192, tile against tma: duration, tensor
#    pipe, issue slots, L2 / DRAM throughput, stall reasons.
set -u
phase=${1:?check, ab, tune or ncu}
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/blt && tar xJf .carry/blt.txz -C /tmp/blt || exit 1
B=/tmp/blt
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
SPLIT=sm90_bf16_bf16_bf16_split
if [ "$phase" = check ]; then
F='Bf16LargeTma.*:GemmBf16Act.*:SplitBf16.*:GroupedGemm*:Registered/Conformance.Run/sm90_bf16_bf16_bf16_*'
timeout 300 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -12
for m in 0 1; do
  MEGAMOE_BF16_LARGE_TMA_PAIRED=$m MEGAMOE_BF16_LARGE_TMA_PASSES=$m timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='SplitBf16.LargeTma*:Registered/Conformance.Run/sm90_bf16_bf16_bf16_*every_tactic' > "$R/tests_mode$m.log" 2>&1
  echo "tests mode $m rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_mode$m.log" | head -8
done
for pt in qwen3-30b-a3b:2048 mixtral-8x7b:1024 gpt-oss-120b:1024 deepseek-v3:512; do
  IFS=: read -r p T <<< "$pt"
  for m in 2 0; do
    [ $(( $(date +%s) - t0 )) -gt 330 ] && { echo "skip run $pt mode $m (time)"; continue; }
    log="$R/run_${p}_${T}_mode$m.log"
    MEGAMOE_BF16_LARGE_TMA_PASSES=$m timeout 90 $B/megamoe run --backend $SPLIT --tactic split_large_tma \
      --preset $p --tokens $T --iters 2 > "$log" 2>&1
    echo "run $pt mode $m rc=$? $(grep -E 'rel-L2' "$log" | tail -1 | cut -c1-90)"
  done
done
for t in memcheck racecheck synccheck; do
  timeout 120 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='Bf16LargeTma.SmallProblemForSanitizers' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
echo "check done $(( $(date +%s) - t0 ))s"
fi
if [ "$phase" = ab ]; then
wrap() { mkdir -p /tmp/w; printf '#!/bin/sh\nexec %s "$@" --tactic %s\n' "$B/megamoe" "$2" > "/tmp/w/$1"; chmod +x "/tmp/w/$1"; }
mkdir -p "$R/ab"
# A forced tactic as a variant: a wrapper that appends --tactic to every bench call.
wrap tile split_large_tile; wrap tma split_large_tma
V="tile=/tmp/w/tile tma2=/tmp/w/tma@MEGAMOE_BF16_LARGE_TMA_PASSES=2 tma2s=/tmp/w/tma@MEGAMOE_BF16_LARGE_TMA_PAIRED=0"
AB_VARIANTS="$V tma0=/tmp/w/tma@MEGAMOE_BF16_LARGE_TMA_PASSES=0" RUN_TIMEOUT=120 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_DEADLINE:-480}" \
  "uniform=--recipe bf16 --backend $SPLIT --presets $P --tokens 1024,2048,4096,8192 --iters 50" \
  "balanced=--recipe bf16 --backend $SPLIT --routing balanced --presets $P --tokens 8192 --iters 50" \
  2>&1 | grep -E "^==|geomean|speed-up|deadline|r[0-9] "
fi
if [ "$phase" = tune ]; then
# For the table, if the A/B shows a win: every tactic of the bf16 layer (`auto`: the Mega backend,
# whose split tactics include split_large_tma) at T = 1024..8192, four presets; then on the CPU
# machine `python3 scripts/merge_tune.py <r>/tune_bf16.json --buckets 1024-8192 --min-gain 0.02`.
timeout 560 $B/megamoe tune --recipe bf16 --presets $P --tokens 1024,2048,4096,8192 --iters 20 --rounds 2 \
  --cache "$R/tune_bf16.json" > "$R/tune_bf16.txt" 2>&1
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; tail -22 "$R/tune_bf16.txt"
fi
if [ "$phase" = ncu ]; then
M="gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"
M="$M,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum"
SEC="--section WarpStateStats --section SpeedOfLight --section LaunchStats"
for v in split_large_tile split_large_tma; do
  for p in deepseek-v3 qwen3-30b-a3b; do
    # split_large_tma in pass mode 2, the default (one pass for deepseek-v3's 256 +- 16 rows)
    [ $(( $(date +%s) - t0 )) -gt 420 ] && { echo "skip $v $p (time)"; continue; }
    # The first forward's two GEMMs (FC1, FC2): CUTLASS's device_kernel or ours (`megamoe run`: no
    # cuBLAS ceiling GEMMs before them, as `bench` has).
    scripts/ncu_kernels.sh "$R/nc_${v}_$p" 'device_kernel|bf16_large_tma' 2 150 "$SEC" "$M" -- \
      $B/megamoe run --backend $SPLIT --tactic $v --preset $p --tokens 8192 --iters 2 --no-check
    echo "ncu $v $p rc=$? $(( $(date +%s) - t0 ))s"
  done
done
fi
echo "end $(( $(date +%s) - t0 ))s"
