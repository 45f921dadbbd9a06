#!/usr/bin/env bash
# Session 72, after job14 on the same warm H100: `auto` with job14's tune cache (the entries the
# shipped table takes next) against OpenAI's triton_kernels MXFP4 MoE and PyTorch, same job
# (bench/run_bench.py), w4a16_mxfp4 T = 1 / 2 / 4 / 8, gpt-oss-120b and deepseek-v3, both flushes.
# Carry [".carry", ".peers"] (.carry/bld_deep.txz).
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_deep.txz} carried_job_start
cat "$R/gpu.txt"
export MEGAMOE_TACTIC_CACHE=$ROOT/bench/results/2026-12-07_session72/job14_h100/tuned.json
for fl in read memset; do
  timeout 150 python3 bench/run_bench.py --build $B --recipe w4a16_mxfp4 --presets gpt-oss-120b,deepseek-v3 \
    --tokens 1,2,4,8 --iters 50 --l2-flush $fl --triton-kernels-peer .peers/triton_kernels_moe.py \
    --out "$R/peers_$fl.json" > "$R/peers_$fl.txt" 2>&1
  echo "peers $fl rc=$? $(el)s"; grep -v "^\[" "$R/peers_$fl.txt" | tail -14 | cut -c1-160
done
echo "end $(el)s"
