#!/usr/bin/env bash
# Session 57: three A/B knobs in one binary (branch wip/session57-ab = wip/bf16-large-multicast + the
# W4A16 issuer and decode-split knobs; all off = main's kernels). Carry [".carry"].
#  1. MEGAMOE_BF16_LARGE_TMA_CLUSTER=2: our bf16 large-T GEMM in two-CTA clusters sharing each pass's
#     token boxes by TMA multicast (session 56's job_multicast.sh, never run on a GPU before).
#  2. MEGAMOE_W4A16_TMA_ISSUERS=1: the W4A16 TMA tactic's two TMA lanes (token tiles; codes + scales)
#     walk the steps in loops of their own. Why: in the one loop they reconverge every step, so the
#     codes of step i are issued only once the token stage of step i is free (the consumers done with
#     step i - 4), about one step before the decoders need them; ncu (session 56, H100) has the
#     decoders waiting on the codes ring ~28% of their time.
#  3. MEGAMOE_W4A16_TMA_DECODE_SPLIT=1: the three decoder warps deal a step's 32 (virtual warp, k16
#     block) units round-robin, 11 / 11 / 10 blocks a warp instead of 12 / 12 / 8.
# The kernels' tests and their backends' conformance cases with the knobs on (2 and 3 together),
# the forced-tactic A/Bs (two rounds), then memcheck / racecheck / synccheck on the sanitizer tests.
set -u
source scripts/device_env.sh
carried_job_start
R0=$R
F1='Bf16LargeTma.*:Registered/Conformance.*bf16_bf16_bf16_split*'
MEGAMOE_BF16_LARGE_TMA_CLUSTER=2 timeout 120 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F1" > "$R/tests_cluster.log" 2>&1
echo "tests cluster=2 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_cluster.log" | head -8
F2='W4A16.*:LargeTactics/W4A16ActEpilogue*:Registered/Conformance.*fp4_bf16_split*'
MEGAMOE_W4A16_TMA_ISSUERS=1 MEGAMOE_W4A16_TMA_DECODE_SPLIT=1 timeout 150 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F2" > "$R/tests_issuers.log" 2>&1
echo "tests issuers=1 decode_split=1 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_issuers.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
R=$R0/mc AB_END=${AB_END1:-230} knob_ab MEGAMOE_BF16_LARGE_TMA_CLUSTER "one=1 pair=2" 150 \
  "bf16=--recipe bf16 --backend sm90_bf16_bf16_bf16_split --tactic split_large_tma --presets $P --tokens 2048,4096,8192 --iters 50"
echo "mc end $(el)s"
R=$R0/iss AB_END=${AB_END2:-430} knob_ab MEGAMOE_W4A16_TMA_ISSUERS \
  "lock=0 own=1 dec=0@MEGAMOE_W4A16_TMA_DECODE_SPLIT=1 both=1@MEGAMOE_W4A16_TMA_DECODE_SPLIT=1" 150 \
  "mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 4096,8192 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --backend sm90_bf16_nvfp4_bf16_split --tactic split_large_tma --presets $P --tokens 8192 --iters 50"
mkdir -p "$R0/san_cluster" "$R0/san_issuers"
R=$R0/san_cluster MEGAMOE_BF16_LARGE_TMA_CLUSTER=2 gpu_sanitizers 'Bf16LargeTma.SmallProblemForSanitizers' 60 memcheck racecheck synccheck
R=$R0/san_issuers MEGAMOE_W4A16_TMA_ISSUERS=1 MEGAMOE_W4A16_TMA_DECODE_SPLIT=1 gpu_sanitizers 'W4A16.LargeTmaStagedForSanitizers' 60 memcheck racecheck synccheck
echo "end $(el)s"
