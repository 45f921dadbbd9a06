#!/usr/bin/env bash
# Prepared in session 46 (after the GPU time of that session was spent; nothing here has run on a GPU).
# Our bf16 large-T GEMM (`split_large_tma`) with a dynamic tile order (branch
# wip/bf16-large-tma-dynamic, MEGAMOE_BF16_LARGE_TMA_DYNAMIC=1, off by default): the TMA lane draws
# each tile from a launch-wide counter instead of walking tiles blockIdx.x + i * gridDim.x. Why:
# session 46 measured the kernel at 0.77x of CUTLASS's large tile on qwen3-30b-a3b T = 8192 (also
# with balanced routing) and read 1.8x the tile's DRAM bytes there. With ~512 rows an expert, pass
# mode 2 cuts every expert into a 320-row pass (two MMAs) and a ~192-row one, the tile index's
# parity is the pass, and with 132 CTAs (even) every even CTA gets only the wide passes and every
# odd one only the narrow ones: the even half runs ~1.6x longer, the odd half drifts ahead into
# later experts (L2 misses). A counter hands tiles to whichever CTA is free.
# Binary: /work/carry-stash/bf16_large_tma_dynamic.txz on the CPU machine -> .carry/bld.txz
# (megamoe + megamoe_gpu_tests of the branch; xz).
# Calls on one warm machine: `bash job.sh check` (~200 s), `bash job.sh ab` (~300 s; AB_DEADLINE,
# default 420 s from the call's start), optional `bash job.sh tune` (~60 s) if the A/B shows a win:
#  check: the bf16 large GEMM tests (both orders: the GEMM test runs every shape static and dynamic
#    and checks the counter is zero after each launch), the act-epilogue and split-backend tests and
#    the bf16 backends' conformance cases with MEGAMOE_BF16_LARGE_TMA_DYNAMIC=1 (every launch of the
#    backends then dynamic: counters reused across layers, forwards and graph replays); `megamoe run
#    --tactic split_large_tma` against the CPU reference with the knob on, four presets;
#    memcheck / racecheck / synccheck on Bf16LargeTma.SmallProblemForSanitizers (both orders).
#  ab: tile (forced split_large_tile) / stat (forced split_large_tma, static order: the branch's
#    restructured producer loop, compare with session 46's tma2) / dyn (dynamic order) / dyn0
#    (dynamic, passes of 256), T = 1024..8192 uniform and T = 8192 balanced, four presets, and
#    gpt-oss-120b / deepseek-v3 at T = 12288 / 16384 ("beyond": main's table runs
#    split_large_tma_fc1 for gpt-oss-120b at every T > 4096, and above ~10,000 tokens its experts
#    need two passes, the static order's bad case), best of two.
#  tune: T = 4096 / 8192 per preset with the knob on (then merge_tune.py --buckets 4096-8192
#    --min-gain 0.02 on the CPU machine, after making the dynamic order the default on the branch).
#  peer (~250 s; carry [".carry", ".peers"], .peers = the CPU machine's copy of ../shared/peers):
#    `auto` bf16 (the Mega backend with main's table: the large tile, gpt-oss-120b T = 8192 on
#    split_large_tma_fc1) with the static and the dynamic order, T = 4096 / 8192, four presets, each
#    cell with vLLM's Triton fused MoE (the users' peer) and PyTorch timed in the same job as baselines
#    (bench/run_bench.py); the records of session 46's A/B carry no peer baseline.
set -u
phase=${1:?check, ab, tune or peer}
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/bld && tar xJf .carry/bld.txz -C /tmp/bld || exit 1
B=/tmp/bld
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
SPLIT=sm90_bf16_bf16_bf16_split
if [ "$phase" = check ]; then
timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='Bf16LargeTma.*' > "$R/tests_gemm.log" 2>&1
echo "gemm tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_gemm.log" | head -8
F='GemmBf16Act.*:SplitBf16.*:Registered/Conformance.Run/sm90_bf16_bf16_bf16_*'
MEGAMOE_BF16_LARGE_TMA_DYNAMIC=1 timeout 200 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_dyn.log" 2>&1
echo "tests dynamic rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_dyn.log" | head -8
for pt in qwen3-30b-a3b:2048 mixtral-8x7b:1024 gpt-oss-120b:1024 deepseek-v3:512; do
  IFS=: read -r p T <<< "$pt"
  log="$R/run_${p}_${T}_dyn.log"
  MEGAMOE_BF16_LARGE_TMA_DYNAMIC=1 timeout 90 $B/megamoe run --backend $SPLIT --tactic split_large_tma \
    --preset $p --tokens $T --iters 3 > "$log" 2>&1
  echo "run $pt dyn rc=$? $(grep -E 'rel-L2' "$log" | tail -1 | cut -c1-90)"
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
wrap tile split_large_tile; wrap tma split_large_tma
V="tile=/tmp/w/tile stat=/tmp/w/tma@MEGAMOE_BF16_LARGE_TMA_DYNAMIC=0 dyn=/tmp/w/tma@MEGAMOE_BF16_LARGE_TMA_DYNAMIC=1"
AB_VARIANTS="$V dyn0=/tmp/w/tma@MEGAMOE_BF16_LARGE_TMA_DYNAMIC=1@MEGAMOE_BF16_LARGE_TMA_PASSES=0" RUN_TIMEOUT=120 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_DEADLINE:-420}" \
  "uniform=--recipe bf16 --backend $SPLIT --presets $P --tokens 1024,2048,4096,8192 --iters 50" \
  "balanced=--recipe bf16 --backend $SPLIT --routing balanced --presets $P --tokens 8192 --iters 50" \
  "beyond=--recipe bf16 --backend $SPLIT --presets gpt-oss-120b,deepseek-v3 --tokens 12288,16384 --iters 50" \
  2>&1 | grep -E "^==|geomean|speed-up|deadline|r[0-9] "
fi
if [ "$phase" = tune ]; then
for p in gpt-oss-120b deepseek-v3 qwen3-30b-a3b mixtral-8x7b; do
  MEGAMOE_BF16_LARGE_TMA_DYNAMIC=1 timeout 120 $B/megamoe tune --recipe bf16 --presets $p --tokens 4096,8192 \
    --iters 20 --rounds 2 --cache "$R/tune_bf16_$p.json" > "$R/tune_bf16_$p.txt" 2>&1
  echo "tune $p rc=$? $(( $(date +%s) - t0 ))s"; tr '\r' '\n' < "$R/tune_bf16_$p.txt" | grep -E "^$p " | cut -c1-200
done
fi
if [ "$phase" = peer ]; then
[ -f .peers/vllm_triton_moe.py ] || { echo "no .peers/vllm_triton_moe.py: carry .peers"; exit 1; }
for v in 0 1; do
  MEGAMOE_BF16_LARGE_TMA_DYNAMIC=$v timeout 280 python3 bench/run_bench.py --build "$B" --out "$R/auto_dyn$v.json" \
    --presets $P --tokens 4096,8192 --backends sm90_bf16_bf16_bf16_mega --vllm-peer .peers/vllm_triton_moe.py \
    > "$R/auto_dyn$v.log" 2>&1
  echo "auto dyn=$v rc=$? $(( $(date +%s) - t0 ))s"; grep -E "geomean|vllm" "$R/auto_dyn$v.log" | tail -6
done
fi
echo "end $(( $(date +%s) - t0 ))s"
