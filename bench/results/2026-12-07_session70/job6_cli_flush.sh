#!/usr/bin/env bash
# Session 70: the `--l2-flush` option of `megamoe bench` (added after call 2) on the GPU: the binary of
# .carry/bld.txz (wip/deep-ring 6629f70: main e506db3 with the option, and the deep ring, off unless its
# knob is set; built on the CPU machine). w4a16_mxfp4 T = 1 / 2 on gpt-oss-120b and
# deepseek-v3 with --l2-flush read and memset (the records must say which), then bench/run_bench.py
# --l2-flush read at gpt-oss-120b T = 1 / 2 with triton_kernels (the flag path instead of the variable).
# Carry [".carry", ".peers"].
set -u
source scripts/device_env.sh
carried_job_start
cat "$R/gpu.txt"
for v in read memset read memset; do
  $B/megamoe bench --recipe w4a16_mxfp4 --presets gpt-oss-120b,deepseek-v3 --tokens 1,2 --iters 50 \
    --l2-flush $v --json "$R/cli_$v.json" > "$R/cli_$v.txt" 2>&1
  echo "$v rc=$? $(el)s $(python3 -c "import json;print([(r['model'][:8],r['tokens'],r['l2_flush'],round(r['median_ms']*1e3,1)) for r in json.load(open('$R/cli_$v.json'))])")"
done
timeout 120 python3 bench/run_bench.py --build $B --recipe w4a16_mxfp4 --presets gpt-oss-120b --tokens 1,2 --iters 50 \
  --triton-kernels-peer .peers/triton_kernels_moe.py --l2-flush read --out "$R/rb_read.json" > "$R/rb_read.txt" 2> "$R/rb_read.log"
echo "run_bench read rc=$? $(el)s"; tail -6 "$R/rb_read.txt"; grep -m2 "run_bench\]" "$R/rb_read.log" | cut -c1-300
echo "end $(el)s"
