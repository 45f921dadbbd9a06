#!/usr/bin/env bash
# Session 53: `megamoe tune` on the H100 (the shipped table is the H200's, and an H100 takes it by its
# SM count): job_diag.sh found our bf16 large-T GEMM 1.10x faster than CUTLASS's large tile at
# deepseek-v3 T = 8192 on the H100, where the H200's table keeps CUTLASS. Buckets 2048..8192 for bf16
# and fp8_block on the four presets, then mixtral-8x7b bf16 at 16384 / 32768 (pass groups since the
# session-51 H100 tune), then W4A16 at 4096 / 8192 while time is left. Merged into H100 entries with
# scripts/merge_tune.py --add. Carry [".carry"]. Ends by ~560 s.
set -u
source scripts/device_env.sh
carried_job_start
tune() {  # tune NAME DEADLINE megamoe-tune-args...
  local name=$1 d=$2; shift 2
  [ "$(left $d)" -lt 20 ] && { echo "skip $name (time)"; return; }
  timeout "$(left $d)" $B/megamoe tune "$@" --iters 50 --rounds 2 --cache "$R/tune_$name.json" > "$R/tune_$name.txt" 2>&1
  echo "tune $name rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_$name.txt" | grep -E "^[a-z0-9.-]+ +[0-9]+ " | cut -c1-150
}
for r in bf16 fp8_block; do
  for p in deepseek-v3 qwen3-30b-a3b gpt-oss-120b mixtral-8x7b; do
    [ $r = fp8_block ] && d=400 || d=230
    tune "${r}_$p" $d --recipe $r --presets $p --tokens 2048,4096,8192
  done
done
tune bf16_mixtral-8x7b_large 470 --recipe bf16 --presets mixtral-8x7b --tokens 16384,32768
for r in w4a16_mxfp4 w4a16_nvfp4; do
  tune "${r}_8192" 560 --recipe $r --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 4096,8192
done
echo "end $(el)s"
