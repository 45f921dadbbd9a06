#!/usr/bin/env bash
# Session 59, last call: `megamoe tune` of fp8_block T = 16384 / 32768 on deepseek-v3 and gpt-oss-120b
# (the buckets past 8192 still run CUTLASS's tile; at 8192 our kernel won 1.14x on the H200 and
# deepseek-v3 / gpt-oss-120b lose most to ragged passes). --iters 20 to fit the session's last
# device seconds. Carry [".carry"]: bld.txz = main (f5ce56f's kernels).
set -u
source scripts/device_env.sh
carried_job_start
tune_big() {  # tune_big NAME DEADLINE ARGS: tune_until with --iters 20 (a lighter tune than the default 50)
  local name=$1 d=$2; shift 2
  [ "$(left "$d")" -lt 20 ] && { echo "skip $name (time)"; return; }
  timeout "$(left "$d")" "$B/megamoe" tune "$@" --iters 20 --rounds 2 --cache "$R/tune_$name.json" > "$R/tune_$name.txt" 2>&1
  echo "tune $name rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_$name.txt" | grep -E "^[a-z0-9.-]+ +[0-9]+ " | cut -c1-160
}
tune_big fp8_deepseek-v3 120 --recipe fp8_block --presets deepseek-v3 --tokens 16384,32768
tune_big fp8_gpt-oss-120b 190 --recipe fp8_block --presets gpt-oss-120b --tokens 16384,32768
echo "end $(el)s"
