#!/usr/bin/env bash
# Session 48: two changes to our bf16 large-T GEMM (split_large_tma*), one binary, measured against
# main's (afa0079 kernel code: the dynamic tile order, paired stores):
#   early:  the TMA lane draws the next tile's ticket right after issuing a tile's last step
#           (branch wip/bf16-large-tma-early-draw, session 47), stores as main (paired);
#   staged: early + the staged epilogue (branch wip/bf16-large-tma-staged-stores): bf16 outputs of
#           passes >= 128 tokens through 1 KB of scratch per warp in the pass's last stage, stored
#           16 bytes a lane (MEGAMOE_BF16_LARGE_TMA_STORES=2, the branch's default; =1 is "early").
# Binaries: .carry/bld.txz = megamoe + megamoe_gpu_tests of wip/fp8-tma-staged (56b1efb: both changes,
# and the W4A16 / fp8 staged epilogues that job_w4a16.sh / job_fp8.sh measure),
# .carry/old.txz = megamoe of afa0079. One call, carry [".carry", ".peers"]; ~450-560 s:
#  tests:  the large GEMM's tests (three store modes, both tile orders), the act-epilogue tests
#          (staged stores for every activation), the split backend's and the bf16 conformance cases;
#  san:    memcheck / racecheck / synccheck on the two small staged cases;
#  run:    `megamoe run --tactic split_large_tma` against the CPU reference, four presets;
#  ab:     tile (CUTLASS 128x256) / dyn (main) / early / staged, forced, uniform T = 1024..8192 and
#          beyond (T = 12288 / 16384), best of two alternated rounds;
#  ncu:    qwen3-30b-a3b T = 8192, early against staged (SourceCounters kept, xz);
#  tune:   T = 4096 / 8192 per preset with the staged binary (JSON for merge_tune), if time is left.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
mkdir -p /tmp/bld /tmp/old && tar xJf .carry/bld.txz -C /tmp/bld && tar xJf .carry/old.txz -C /tmp/old || exit 1
B=/tmp/bld
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
SPLIT=sm90_bf16_bf16_bf16_split
F='Bf16LargeTma.*:GemmBf16Act.*:SplitBf16.*:Registered/Conformance.Run/sm90_bf16_bf16_bf16_*'
timeout 240 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
S='Bf16LargeTma.SmallProblemForSanitizers:GemmBf16Act.LargeTmaStagedForSanitizers'
for t in memcheck racecheck synccheck; do
  timeout 150 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$S" > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
for pt in qwen3-30b-a3b:2048 mixtral-8x7b:1024 gpt-oss-120b:1024 deepseek-v3:512; do
  timeout 60 $B/megamoe run --backend $SPLIT --tactic split_large_tma --preset ${pt%%:*} --tokens ${pt#*:} \
    > "$R/run_${pt%%:*}.txt" 2>&1
  echo "run $pt rc=$? $(grep -o 'rel-L2 vs cpu_reference: .*' "$R/run_${pt%%:*}.txt")"
done
wrap() { mkdir -p /tmp/w; printf '#!/bin/sh\nexec %s "$@" --tactic %s\n' "$3" "$2" > "/tmp/w/$1"; chmod +x "/tmp/w/$1"; }
mkdir -p "$R/ab"; wrap tile split_large_tile $B/megamoe; wrap dyn split_large_tma /tmp/old/megamoe; wrap new split_large_tma $B/megamoe
AB_VARIANTS="tile=/tmp/w/tile dyn=/tmp/w/dyn early=/tmp/w/new@MEGAMOE_BF16_LARGE_TMA_STORES=1 staged=/tmp/w/new@MEGAMOE_BF16_LARGE_TMA_STORES=2" \
  RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 380 \
  "uniform=--recipe bf16 --backend $SPLIT --presets $P --tokens 1024,2048,4096,8192 --iters 50" \
  "beyond=--recipe bf16 --backend $SPLIT --presets gpt-oss-120b,deepseek-v3 --tokens 12288,16384 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab.txt"
for pair in "dyn early" "early staged" "dyn staged"; do  # the changes against each other (ab.txt: against tile)
  echo "== $pair"; python3 scripts/ab_compare.py "$R/ab" $pair > "$R/ab_${pair// /_}.txt" 2>&1
  grep -E "geomean|ALL" "$R/ab_${pair// /_}.txt"
done
echo "ab $(el)s"
M="gpu__time_duration.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active"
M="$M,smsp__issue_active.avg.pct_of_peak_sustained_active,lts__t_bytes.sum,dram__bytes_read.sum"
for v in staged:2 early:1; do
  [ "$(el)" -gt 470 ] && { echo "skip ncu ${v%%:*} (time)"; continue; }
  MEGAMOE_BF16_LARGE_TMA_STORES=${v#*:} scripts/ncu_kernels.sh "$R/nc_${v%%:*}_qwen3" 'bf16_large_tma' 2 90 \
    "--section SpeedOfLight --section LaunchStats --section WarpStateStats --section SourceCounters" "$M" -- \
    $B/megamoe run --backend $SPLIT --tactic split_large_tma --preset qwen3-30b-a3b --tokens 8192 --iters 2 --no-check
  echo "ncu ${v%%:*} rc=$? $(el)s"; xz -9 "$R"/nc_*_source.csv 2>/dev/null
done
for p in gpt-oss-120b qwen3-30b-a3b deepseek-v3 mixtral-8x7b; do
  [ "$(el)" -gt 530 ] && { echo "skip tune $p (time)"; continue; }
  timeout 40 $B/megamoe tune --recipe bf16 --presets $p --tokens 4096,8192 \
    --iters 20 --rounds 2 --cache "$R/tune_bf16_$p.json" > "$R/tune_bf16_$p.txt" 2>&1
  echo "tune $p rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_bf16_$p.txt" | grep -E "^$p " | cut -c1-150
done
echo "end $(el)s"
