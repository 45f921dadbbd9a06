#!/usr/bin/env bash
# Prepared in session 39 (no device time left), not yet run. The bf16 small kernel (`split_tma_small`,
# shipped in b1fadf0) runs one CTA per item (128 weight rows of one expert): each CTA fills its
# pipeline from empty and drains it at its end. The 2026-12-03 stream micro-benchmark (rows2.cu) streamed
# a continuous sequence across items (grid-stride) at 4.24 TB/s for qwen3-30b-a3b's FC1 with two
# issuers per SM and 128-byte row parts; the kernel reaches 3.95 (one step a copy) / 4.07 TB/s (two).
# bf16_small_persistent.patch (on a34ed65): one loop for both ways -- items (expert rank, 128-row block)
# walked blockIdx.x + i gridDim.x; thread 0's copies follow a cursor over (item, pass, K stage) that
# runs on into the next item while the consumers finish the current one.
# MEGAMOE_BF16_SMALL_PERSISTENT=1: min(items, 2 x SMs) CTAs; 0: one CTA per item (the shipped grid, new
# loop). Bf16SmallTmaArgs::max_ctas caps the grid for tests (GemmBf16Act: two cases with three CTAs
# walking 16-32 items; 91-128 registers, no spills). It compiles; nothing of it ran on a GPU.
# Binaries built on the CPU machine: .carry/pp.tgz (megamoe + megamoe_gpu_tests of a34ed65 + this patch +
# ../2026-12-04_w4a16_small_persistent/w4a16_small_persistent.patch, whose knob stays 0 here),
# .carry/ship.tgz (megamoe of 51a19be, the shipped kernel; same bf16 kernel code as a34ed65). Carry [".carry"]
# holding those two.
# 1. tests: GemmBf16Act (all cases), the bf16 GEMM / split / conformance tests with knob 0 and 1;
#    racecheck / memcheck / synccheck on GemmBf16Act.FusedEquals* with knob 1;
# 2. timelines: bf16 qwen3-30b-a3b / mixtral-8x7b T = 128, forced split_tma_small, base / knob 0 / knob 1;
# 3. A/B: base, new@0, new@1; forced split_tma_small T = 8..512 and `auto` T = 4..1024, four presets;
# 4. the pass width's untuned rule (32 tokens up to a mean of 24 rows per expert, 64 above):
#    MEGAMOE_BF16_SMALL_TOKENS=32 against 64, forced split_tma_small, T = 32..1024 (the patch adds the knob).
# Ship only beyond the spread (and re-tune the bf16 table if split_tma_small wins more cells).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/pp
mkdir -p $B /tmp/ship && tar xzf .carry/pp.tgz -C $B && tar xzf .carry/ship.tgz -C /tmp/ship || exit 1
timeout 60 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='GemmBf16Act.*' > "$R/tests_act.log" 2>&1
echo "GemmBf16Act rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|differs|written" "$R/tests_act.log" | head -12
for k in 0 1; do
  MEGAMOE_BF16_SMALL_PERSISTENT=$k timeout 90 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='GroupedGemm*:SplitBf16*:*bf16_bf16_bf16*:Tactic*' > "$R/tests_k$k.log" 2>&1
  echo "bf16 tests knob $k rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_k$k.log" | head -8
done
for t in racecheck memcheck synccheck; do
  MEGAMOE_BF16_SMALL_PERSISTENT=1 timeout 120 compute-sanitizer --tool $t $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='GemmBf16Act.FusedEqualsUnfusedAndCpuForEveryActivationAndKernel' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s"; grep -E "SUMMARY|^\[  PASSED|FAILED" "$R/san_$t.log" | head -3
done
for p in qwen3-30b-a3b mixtral-8x7b; do
  for v in base k0 k1; do
    bin=$B/megamoe; k=${v#k}; [ "$v" = base ] && { bin=/tmp/ship/megamoe; k=0; }
    scripts/ktrace/trace.sh $R/tl_${p}_$v MEGAMOE_BF16_SMALL_PERSISTENT=$k -- $bin bench --recipe bf16 --backend sm90_bf16_bf16_bf16_split \
      --tactic split_tma_small --presets $p --tokens 128 --iters 50 > /tmp/tl.txt
    echo "timeline $p $v rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^ +[0-9] |span" /tmp/tl.txt
  done
done
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
M=$B/megamoe@MEGAMOE_BF16_SMALL_PERSISTENT
AB_VARIANTS="base=/tmp/ship/megamoe k0=$M=0 k1=$M=1" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 480 \
  "forced=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_tma_small --presets $PR --tokens 8,32,128,256,512 --iters 50" \
  "auto=--recipe bf16 --presets $PR --tokens 4,8,16,32,64,128,256,512,1024 --iters 50" \
  > "$R/ab/ab_compare.txt" 2>&1
grep -E "== |geomean|ALL|deadline" "$R/ab/ab_compare.txt"
mkdir -p "$R/ab_tokens"
M=$B/megamoe@MEGAMOE_BF16_SMALL_TOKENS
AB_VARIANTS="t32=$M=32 t64=$M=64" RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/ab_tokens" x x 2 "$t0" 580 \
  "forced=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_tma_small --presets $PR --tokens 32,64,128,256,512,1024 --iters 50" \
  > "$R/ab_tokens/ab_compare.txt" 2>&1
grep -E "== |T=|geomean|ALL|deadline" "$R/ab_tokens/ab_compare.txt"
echo "end $(( $(date +%s) - t0 ))s"
