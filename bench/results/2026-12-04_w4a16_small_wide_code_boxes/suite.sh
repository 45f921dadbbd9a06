#!/usr/bin/env bash
# Session 41, the committed tree (318f4bb: 128-byte code boxes + the re-tuned W4A16 table): the whole GPU
# test binary, then W4A16 `auto` against our bf16 at T = 1..64 on qwen3-30b-a3b and mixtral-8x7b (the
# other two presets are in final_run/r/tk_mxfp4_decode.json). .carry/head.txz: megamoe + megamoe_gpu_tests.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
B=/tmp/head
mkdir -p $B && tar xJf .carry/head.txz -C $B || exit 1
timeout 300 $B/megamoe_gpu_tests --gtest_brief=1 > "$R/tests.log" 2>&1
echo "suite rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests from" "$R/tests.log" | head -12
for r in w4a16_mxfp4 w4a16_nvfp4 bf16; do
  timeout 60 $B/megamoe bench --recipe $r --presets qwen3-30b-a3b,mixtral-8x7b,deepseek-v3,gpt-oss-120b --tokens 1-64 --iters 50 \
    --json "$R/dec_$r.json" > "$R/dec_$r.log" 2>&1
  echo "$r rc=$? $(( $(date +%s) - t0 ))s"
done
python3 - "$R" <<'PY'
import json, sys
r = sys.argv[1]
bf = {(x['model'], x['tokens']): x['median_ms'] for x in json.load(open(f"{r}/dec_bf16.json"))}
for rec in ('w4a16_mxfp4', 'w4a16_nvfp4'):
    for x in json.load(open(f"{r}/dec_{rec}.json")):
        k = (x['model'], x['tokens'])
        fl = x.get('floor_ms') or 0
        print(f"{rec} {k[0]:15s} T={k[1]:3d} {x['tactic']:16s} {x['median_ms']*1000:7.1f} us  floor {100*fl/x['median_ms']:5.1f}%  bf16 {bf[k]*1000:7.1f}  x{bf[k] / x['median_ms']:.2f}")
PY
echo "end $(( $(date +%s) - t0 ))s"
