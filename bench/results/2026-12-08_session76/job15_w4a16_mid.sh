#!/usr/bin/env bash
# Session 76: issue 15's mid / large-T cells on this card with every party in one job (bench/run_bench.py,
# read flush): w4a16_mxfp4 T = 128 / 512 / 2048 / 8192 on the four presets against OpenAI's triton_kernels
# (deepseek-v3, gpt-oss-120b), our bf16 and PyTorch's dequantize pipeline (last measured against
# triton_kernels at these sizes in session 40, on the H200). Carry [".carry", ".peers"]. ~300 s.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_table75.txz} carried_job_start
cat "$R/gpu.txt"
run_bench_until mx_mid ${MID_END:-330} --recipe w4a16_mxfp4 --tokens 128,512,2048,8192 --triton-kernels-peer .peers/triton_kernels_moe.py
echo "end $(el)s"
