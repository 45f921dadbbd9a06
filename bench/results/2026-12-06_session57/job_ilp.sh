#!/usr/bin/env bash
# Session 57, second call: the W4A16 TMA tactic's decoders with the next virtual warp's shared-memory
# loads issued before the current decode (MEGAMOE_W4A16_TMA_DECODE_ILP=1), alone and with the
# independent TMA issuers (MEGAMOE_W4A16_TMA_ISSUERS=1). Why: the first call's k16 decode split made
# the tactic 0.72x (more, shorter dependent chains per decoder warp): the decoders' latency is on the
# critical path. Binary: wip/session57-ab at the ILP commit. Carry [".carry"].
set -u
source scripts/device_env.sh
carried_job_start
R0=$R
F2='W4A16.*:LargeTactics/W4A16ActEpilogue*:Registered/Conformance.*fp4_bf16_split*'
MEGAMOE_W4A16_TMA_DECODE_ILP=1 MEGAMOE_W4A16_TMA_ISSUERS=1 timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F2" > "$R/tests_ilp.log" 2>&1
echo "tests ilp=1 issuers=1 rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_ilp.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
R=$R0/ilp AB_END=${AB_END:-200} knob_ab MEGAMOE_W4A16_TMA_DECODE_ILP \
  "lock=0 ilp=1 ilpown=1@MEGAMOE_W4A16_TMA_ISSUERS=1" 150 \
  "mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 4096,8192 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --backend sm90_bf16_nvfp4_bf16_split --tactic split_large_tma --presets $P --tokens 8192 --iters 50"
mkdir -p "$R0/san_ilp"
R=$R0/san_ilp MEGAMOE_W4A16_TMA_DECODE_ILP=1 MEGAMOE_W4A16_TMA_ISSUERS=1 gpu_sanitizers 'W4A16.LargeTmaStagedForSanitizers' 40 memcheck racecheck synccheck
echo "end $(el)s"
