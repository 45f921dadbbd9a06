#!/usr/bin/env bash
# Prepared in session 39 (no device time left), not yet run. The W4A16 small tactic's TMA form runs one
# CTA per (expert, K part, 128-row block) item, each filling its pipeline from empty (at deepseek-v3
# T = 1: 512 CTAs of ~0.45 MB each on 264 slots). w4a16_small_persistent.patch (on a34ed65) gives it the
# bf16 small kernel's item walk (../2026-12-04_bf16_small_persistent/): items walked
# blockIdx.x + i gridDim.x, thread 0's copies following a cursor over (item, pass, K stage) into the next
# item. MEGAMOE_W4A16_SMALL_PERSISTENT=1: min(items, 2 x SMs) CTAs; 0: one CTA per item (the shipped grid
# as a 1-D grid, new loop). W4A16GemmArgs::small_max_ctas caps the grid for tests: W4A16.GemmTacticsMatchCpu
# now compares three walking CTAs with one CTA per item, bit for bit, with K whole and split in two.
# 90-108 registers (shipped form: 70-86), no spills; nothing ran on a GPU.
# Binaries: .carry/pp.tgz (megamoe + megamoe_gpu_tests of a34ed65 + this patch + the bf16 twin's),
# .carry/ship.tgz (megamoe of 51a19be: the same W4A16 kernels as a34ed65). Carry [".carry"] holding those two.
# 1. W4A16 / fp4 tests with knob 0 and 1; racecheck / memcheck / synccheck on W4A16.GemmTacticsMatchCpu
#    and W4A16.SmallShapes with knob 1;
# 2. A/B base / k0 / k1: forced split_small w4a16_mxfp4 T = 1..128, `auto` w4a16_mxfp4 / nvfp4 T = 1..256,
#    four presets, best of two.
# Ship only beyond the spread (and re-tune the W4A16 table at T <= 256 if it moves the split_small cells).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/pp
mkdir -p $B /tmp/ship && tar xzf .carry/pp.tgz -C $B && tar xzf .carry/ship.tgz -C /tmp/ship || exit 1
for k in 1 0; do
  MEGAMOE_W4A16_SMALL_PERSISTENT=$k timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='W4A16.*:*fp4*' \
    > "$R/tests_k$k.log" 2>&1
  echo "W4A16 tests knob $k rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_k$k.log" | head -8
done
for t in racecheck memcheck synccheck; do
  MEGAMOE_W4A16_SMALL_PERSISTENT=1 timeout 120 compute-sanitizer --tool $t $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='W4A16.GemmTacticsMatchCpu:W4A16.SmallShapes' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|^\[  PASSED|FAILED" "$R/san_$t.log" | head -3
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
M=$B/megamoe@MEGAMOE_W4A16_SMALL_PERSISTENT
mkdir -p "$R/ab"
AB_VARIANTS="base=/tmp/ship/megamoe k0=$M=0 k1=$M=1" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 560 \
  "forced_mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_small --presets $PR --tokens 1,2,4,8,16,32,64,128 --iters 50" \
  "auto_mx=--recipe w4a16_mxfp4 --presets $PR --tokens 1,2,4,8,16,32,64,128,256 --iters 50" \
  "auto_nv=--recipe w4a16_nvfp4 --presets $PR --tokens 1,2,4,16,64,256 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
