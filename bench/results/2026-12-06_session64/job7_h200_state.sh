#!/usr/bin/env bash
# Session 64, the H200 (last ~200 s of the budget; same carry as job5: main's kernels but the narrow
# ring's rule, which picks the wide ring at every cell below but T = 1..64's): `auto` fp8_block
# T = 2048 / 4096 / 8192 and bf16 / w4a16_mxfp4 T = 8192 (issue 14 / 15's large-T targets), bf16 and
# w4a16_mxfp4 T = 1 / 4 / 16 / 64 (issue 15's decode targets), four presets, one process per recipe.
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
b() { local n=$1; shift; timeout "$(left 130)" $B/megamoe bench "$@" --presets $P --iters 50 --json "$R/$n.json" > "$R/$n.txt" 2>&1
  echo "$n rc=$? $(el)s"; grep -E "^[a-z0-9-]+ +[0-9]+ " "$R/$n.txt" | cut -c1-110; }
b fp8_large --recipe fp8_block --tokens 2048,4096,8192
b mx_8192 --recipe w4a16_mxfp4 --tokens 8192
b bf16_8192 --recipe bf16 --tokens 8192
b mx_small --recipe w4a16_mxfp4 --tokens 1,4,16,64
b bf16_small --recipe bf16 --tokens 1,4,16,64
echo "end $(el)s"
