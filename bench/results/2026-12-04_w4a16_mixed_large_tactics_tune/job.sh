#!/usr/bin/env bash
# Prepared in session 40 (no device time left), not yet run. The W4A16 split backend runs one tactic for
# both GEMMs, while FC1 (N = 2I, K = H, the activation epilogue) and FC2 (N = H, K = I, bf16 y) have
# different shapes; at T = 2048..8192 `megamoe tune` put `split_large` and `split_large_tma` within a
# few percent of each other per layer (bench/results/2026-12-04_w4a16_large_act_epilogue/tune_run/).
# mixed_large_tactics.patch (on 0e0e34c) adds `split_large_tma_fc1` (FC1 on the TMA tactic, FC2 on
# the wgmma one) and `split_large_tma_fc2` (the reverse) to the split (and so the Mega) backends;
# no new kernel instantiation. It builds and the CPU tests pass; nothing of it ran on a GPU.
# Binaries built on the CPU machine: .carry/mix.tgz (megamoe + megamoe_gpu_tests of 0e0e34c + the patch;
# rebuild with `git apply` + ninja if this checkout lacks it). Carry [".carry"] (only that tarball).
# 1. the W4A16 conformance `every_tactic` cases (every tactic against the CPU reference, T = 1, 7,
#    70, 600) and the W4A16 backend tests;
# 2. `megamoe tune` mxfp4 / nvfp4, four presets, T = 1024..8192: the tune prints every tactic's time,
#    so a mixed tactic that wins shows up directly; merge (`scripts/merge_tune.py --buckets 1024-8192`)
#    only what wins beyond 2%, then apply the patch and A/B `auto` against the committed table.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/mix
mkdir -p $B && tar xzf .carry/mix.tgz -C $B || exit 1
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 \
  --gtest_filter='*fp4*every_tactic*:*W4A16*:SplitW4A16*' > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
for r in w4a16_mxfp4 w4a16_nvfp4; do
  for p in qwen3-30b-a3b mixtral-8x7b deepseek-v3 gpt-oss-120b; do
    [ $(( $(date +%s) - t0 )) -gt 420 ] && { echo "skip $r $p (time)"; continue; }
    timeout 60 $B/megamoe tune --recipe $r --presets $p --tokens 1024-8192 --iters 20 --rounds 2 \
      --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2> "$R/tune_${r}_$p.err"
    echo "tune $r $p rc=$? $(( $(date +%s) - t0 ))s"; grep -v "^$" "$R/tune_${r}_$p.txt" | tail -n 5 | cut -c1-220
  done
done
echo "end $(( $(date +%s) - t0 ))s"
