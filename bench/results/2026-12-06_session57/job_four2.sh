#!/usr/bin/env bash
# Prepared in session 57, not run yet: the W4A16 TMA tactic with four decoder warps, second form
# (MEGAMOE_W4A16_TMA_DECODERS=4, branch wip/w4a16-four-decoders at 12d809d): warps 0-3 each decode 2 of
# a step's 8 virtual warps (instead of warps 1-3 decoding 3 / 3 / 2); warp 0's lane 0, after its own
# waits for step i, issues step i + 1's token tile and step i + 2's codes (a cursor of their own). The
# first form issued step i + 1's codes, one step of lead for their trip from memory, and ran 0.78x
# (run3_four). Carry [".carry"]: bld.txz = the branch (/work/carry-stash/four_v2.txz), main.txz = main
# at ad11127 (/work/carry-stash/main_ad11127.txz), the baseline; the branch's knob-off form carries the
# issuer code in its decoder loop (24-40 bytes spilled), so it is a variant, not the baseline.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/main.txz -C /tmp/b0
F2='W4A16.*:LargeTactics/W4A16ActEpilogue*:Registered/Conformance.*fp4_bf16_split*'
MEGAMOE_W4A16_TMA_DECODERS=4 timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F2" > "$R/tests_four.log" 2>&1
echo "tests decoders=4 (second form) rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_four.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="main=/tmp/b0/megamoe off=$B/megamoe@MEGAMOE_W4A16_TMA_DECODERS=3 four=$B/megamoe@MEGAMOE_W4A16_TMA_DECODERS=4" \
  RUN_TIMEOUT=100 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-150}" \
  "mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 4096,8192 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --backend sm90_bf16_nvfp4_bf16_split --tactic split_large_tma --presets $P --tokens 8192 --iters 50" \
  > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
MEGAMOE_W4A16_TMA_DECODERS=4 gpu_sanitizers 'W4A16.LargeTmaStagedForSanitizers' 30 memcheck racecheck
echo "end $(el)s"
