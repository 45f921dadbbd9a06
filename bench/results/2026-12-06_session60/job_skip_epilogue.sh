#!/usr/bin/env bash
# Prepared in session 60 (not run): how much of FC1's time the fp8 activation epilogue costs end to
# end, the bound on what hiding it (ping-pong warpgroups, other warps taking the accumulators) could
# gain. Build main with fp8_skip_epilogue_diag.patch applied (git am; a knob, off by default, that
# leaves FC1's output unwritten: timings only, never --check) and carry it as .carry/bld.txz.
# Kernel timelines of forced split_tma_act at T = 8192 with the knob off / on; the FC1 kernel's
# difference is the epilogue's exposed cost (run 9 of session 60 sampled it at 17-31% of FC1's
# consumer time).
set -u
source scripts/device_env.sh
carried_job_start
for p in mixtral-8x7b qwen3-30b-a3b deepseek-v3; do
  ktrace_bench "on_$p" -- --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma_act --presets $p --tokens 8192
  MEGAMOE_FP8_TMA_DIAG_SKIP_EPILOGUE=1 ktrace_bench "skip_$p" -- --recipe fp8_block --backend sm90_fp8_fp8_bf16_split \
    --tactic split_tma_act --presets $p --tokens 8192
done
echo "end $(el)s"
