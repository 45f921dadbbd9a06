#!/usr/bin/env bash
# Prepared in session 54 (not run yet): the epilogues of our two swap-AB wgmma kernels for large T as
# a run-time loop over 32-token chunks (src/kernels/sm90/gemm/acc_chunks.cuh) instead of one unrolled
# epilogue per pass width: the bf16 large-T GEMM (Bf16LargeTmaArgs::chunked_epilogue,
# MEGAMOE_BF16_LARGE_TMA_CHUNKED=1) and the W4A16 TMA tactic (W4A16GemmArgs::large_tma_chunked,
# MEGAMOE_W4A16_LARGE_TMA_CHUNKED=1); both off by default; branch wip/bf16-large-gather-chunked, which
# also holds the gather knob (its job: ../2026-12-05_bf16_large_gather_prepared/job.sh, same carry).
# Why: unrolled, the bf16 activation kernel is ~213,000 SASS instructions (3.4 MB of code; chunked
# ~49,000) and each W4A16 activation kernel ~27,000-30,000 (half of it the activation math), so a
# tile's epilogue runs from cold instruction caches: ncu at qwen3-30b-a3b T = 8192 FC1 put "no
# instruction" at 7% of the bf16 kernel's warp stalls (H100, session 53; 14% on the H200 in session
# 46) against CUTLASS's 2%. Same outputs bit for bit (Bf16LargeTma.ChunkedEpilogueIsTheUnrolledOneBitForBit;
# the W4A16 tests compare both forms with the same references).
# Carry [".carry"] with .carry/bld.txz packed from the branch (scripts/pack_carry.sh). Phases, one call
# each (`bash <this folder>/job.sh check`, then `ab`, then `ncu` if time is left):
#   check (~300 s, ends by 560 s): the two kernels' GPU tests (bf16: float64 loop, activation
#     epilogues, bit for bit against the unrolled form, gather cases; W4A16: every tactic against the
#     CPU, the activation epilogue, the staged stores, DecodeIsExact), memcheck / racecheck / synccheck
#     on the sanitizer tests (both forms), `megamoe run --tactic split_large_tma` with both knobs on
#     against the CPU reference (bf16 and w4a16_mxfp4);
#   ab (until AB_END, default 540 s into the job): both knobs off / both on, two rounds alternated,
#     forced `split_large_tma` (both GEMMs on the kernel: activation and bf16 D epilogues) at T = 2048,
#     8192 on the four presets, bf16 and w4a16_mxfp4; compare: python3 scripts/ab_compare.py r/ab;
#   peer (~300 s; carry [".carry", ".peers"]): with both knobs on, the same forced cells through
#     bench/run_bench.py with the peers as baselines in the same job: bf16 against vLLM's Triton fused
#     MoE (and PyTorch), w4a16_mxfp4 against OpenAI's triton_kernels (gpt-oss-120b, deepseek-v3);
#   ncu (~150 s): qwen3-30b-a3b T = 8192, our bf16 kernel and the W4A16 TMA tactic (FC1), knobs off and
#     on: the stall reasons ("no instruction").
set -u
source scripts/device_env.sh
carried_job_start
phase=${1:-${PHASE:-check}}  # PHASE: for scripts/dry_run_job.sh, which passes no arguments
P=qwen3-30b-a3b,deepseek-v3,gpt-oss-120b,mixtral-8x7b
ON="MEGAMOE_BF16_LARGE_TMA_CHUNKED=1 MEGAMOE_W4A16_LARGE_TMA_CHUNKED=1"
if [ "$phase" = check ]; then
  timeout 240 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='Bf16LargeTma.*:GemmBf16Act.*:SplitBf16.LargeTmaTacticMatchesReference:W4A16.*:*W4A16ActEpilogue*' \
    > "$R/tests.log" 2>&1
  echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
  gpu_sanitizers 'Bf16LargeTma.SmallProblemForSanitizers:GemmBf16Act.LargeTmaStagedForSanitizers:W4A16.LargeTmaStagedForSanitizers' \
    90 memcheck racecheck synccheck
  for p in bf16:qwen3-30b-a3b:2048 bf16:mixtral-8x7b:1024 bf16:gpt-oss-120b:1024 w4a16_mxfp4:qwen3-30b-a3b:4096 \
           w4a16_mxfp4:gpt-oss-120b:2048 w4a16_mxfp4:mixtral-8x7b:2048; do
    r=${p%%:*} rest=${p#*:}; pr=${rest%%:*} t=${rest#*:}
    be=sm90_bf16_bf16_bf16_split; [ "$r" = bf16 ] || be=sm90_bf16_mxfp4_bf16_split
    [ "$(left 560)" -lt 20 ] && { echo "skip run $p (time)"; continue; }
    env $ON timeout "$(left 560)" $B/megamoe run --recipe $r --backend $be --tactic split_large_tma --preset $pr \
      --tokens $t > "$R/run_${r}_$pr.txt" 2>&1
    echo "run $p rc=$? $(grep -E 'rel-L2' "$R/run_${r}_$pr.txt")"
  done
fi
if [ "$phase" = ab ]; then
  knob_ab MEGAMOE_BF16_LARGE_TMA_CHUNKED "off=0@MEGAMOE_W4A16_LARGE_TMA_CHUNKED=0 on=1@MEGAMOE_W4A16_LARGE_TMA_CHUNKED=1" 150 \
    "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50" \
    "w4=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50"
fi
if [ "$phase" = peer ]; then
  [ -f .peers/vllm_triton_moe.py ] || { echo "no .peers: carry [\".carry\", \".peers\"]"; exit 1; }
  env $ON timeout "$(left 330)" python3 bench/run_bench.py --build "$B" --recipe bf16 \
    --backends sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50 \
    --vllm-peer .peers/vllm_triton_moe.py --out "$R/peer_bf16_chunked.json" > "$R/peer_bf16_chunked.log" 2>&1
  echo "peer bf16 rc=$? $(el)s"; grep -E "geomean|T= *[0-9]+ " "$R/peer_bf16_chunked.log" | tail -10
  env $ON timeout "$(left 560)" python3 bench/run_bench.py --build "$B" --recipe w4a16_mxfp4 \
    --backends sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets gpt-oss-120b,deepseek-v3 \
    --tokens 2048,8192 --iters 50 --triton-kernels-peer .peers/triton_kernels_moe.py \
    --out "$R/peer_w4a16_chunked.json" > "$R/peer_w4a16_chunked.log" 2>&1
  echo "peer w4a16 rc=$? $(el)s"; grep -E "geomean|T= *[0-9]+ " "$R/peer_w4a16_chunked.log" | tail -6
fi
if [ "$phase" = ncu ]; then
  M=gpu__time_duration.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
  S="--section WarpStateStats --section SpeedOfLight"
  for v in 0 1; do
    MEGAMOE_BF16_LARGE_TMA_CHUNKED=$v MEGAMOE_TACTIC_CACHE=off timeout 70 scripts/ncu_kernels.sh "$R/ncu_bf16_chunked$v" \
      "bf16_large_tma_kernel" 1 65 "$S" "$M" -- \
      $B/megamoe bench --recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma \
      --presets qwen3-30b-a3b --tokens 8192 --iters 50
    echo "ncu bf16 chunked=$v rc=$? $(el)s"
    MEGAMOE_W4A16_LARGE_TMA_CHUNKED=$v MEGAMOE_TACTIC_CACHE=off timeout 70 scripts/ncu_kernels.sh "$R/ncu_w4_chunked$v" \
      "w4a16_large_tma_kernel" 1 65 "$S" "$M" -- \
      $B/megamoe bench --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma \
      --presets qwen3-30b-a3b --tokens 8192 --iters 50
    echo "ncu w4 chunked=$v rc=$? $(el)s"
  done
fi
echo "end $(el)s"
