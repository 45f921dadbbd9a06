#!/usr/bin/env bash
# Session 64, first call. Carry [".carry"]: bld.txz = b62cd0c + session 63's late_release.patch (its
# knob MEGAMOE_W4A16_SMALL_EARLY=3, plus 4 = 3 where the grid needs more than one wave (2 CTAs an SM), else 1;
# the default 1 runs b62cd0c's kernels, so every other cell is main's).
# On an H200: session 63's job2_tune_h200.sh (fp8_block `megamoe tune` T = 2048..8192 on the four presets,
# the caches as one, `auto` shipped table against the tuned cache). On an H100: session 63's
# job8_late_release.sh (W4A16 tests at 3, `auto` A/B 1 / 3 / 4 at T = 1..64 mxfp4, racecheck at 3).
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
if grep -q H200 "$R/gpu.txt"; then
  for p in deepseek-v3 mixtral-8x7b qwen3-30b-a3b gpt-oss-120b; do
    tune_until "fp8_$p" 250 --recipe fp8_block --presets $p --tokens 2048,4096,8192
  done
  merge_tune_caches "$R/tuned.json" "$R"/tune_fp8_*.json
  mkdir -p "$R/ab"
  AB_VARIANTS="shipped=$B/megamoe tuned=$B/megamoe@MEGAMOE_TACTIC_CACHE=$R/tuned.json" RUN_TIMEOUT=120 \
    scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 540 "f8=--recipe fp8_block --presets $P --tokens 2048,4096,8192 --iters 50" > "$R/ab.txt" 2>&1
  grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"; grep -h '"tactic"' "$R"/ab/*tuned*_r1.json | sort | uniq -c
  echo "end $(el)s"; exit 0
fi
MEGAMOE_W4A16_SMALL_EARLY=3 sharded_gpu_tests w4e3 60 --gtest_filter='W4A16*:*W4A16*:*w4a16*'
AB_END=500 knob_ab MEGAMOE_W4A16_SMALL_EARLY "e1=1 e3=3 e4=4" 40 \
  "mx=--recipe w4a16_mxfp4 --presets $P --tokens 1,2,4,8,16,32,64 --iters 50"
MEGAMOE_W4A16_SMALL_EARLY=3 gpu_sanitizers 'W4A16.SmallEarlyWeightsPdlEqualsPlainBitwise' 40 racecheck
echo "end $(el)s"
