#!/usr/bin/env bash
# Session 64, prepared, not run. Run 1 measured the W4A16 small tactic's late PDL release
# (MEGAMOE_W4A16_SMALL_EARLY=3) at gpt-oss-120b mxfp4 T = 1 50.5 -> 47.0 us (1.074x, one job, best of
# two) while deepseek-v3 / qwen3-30b-a3b T = 1 lost 1.7 / 2.4%. Is it real, and where does it come from?
# Build: `git apply bench/results/2026-12-06_session64/late_release_b62cd0c.patch` on b62cd0c (the code
# run 1 ran), `scripts/pack_carry.sh BUILD`, then revert. Carry [".carry"].
# 1. `auto` A/B knob 1 / 3, mxfp4 and nvfp4, T = 1 / 2, four presets, three rounds; 2. the kernel
# timelines of gpt-oss-120b and deepseek-v3 mxfp4 T = 1 at 1 and 3 (which kernel moves).
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/ab"
AB_VARIANTS="e1=$B/megamoe@MEGAMOE_W4A16_SMALL_EARLY=1 e3=$B/megamoe@MEGAMOE_W4A16_SMALL_EARLY=3" RUN_TIMEOUT=40 \
  scripts/ab_bench.sh "$R/ab" x x 3 "$t0" 200 "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2 --iters 50" \
  "nv=--recipe w4a16_nvfp4 --presets $P --tokens 1,2 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
for k in 1 3; do
  for p in gpt-oss-120b deepseek-v3; do
    MEGAMOE_W4A16_SMALL_EARLY=$k ktrace_bench "${p}_e$k" -- --recipe w4a16_mxfp4 --presets $p --tokens 1
  done
done
echo "end $(el)s"
