#!/usr/bin/env bash
# Session 74, the second call (the same warm H200 as job 1). Carry [".carry", ".peers"]. Where issues 14 /
# 15 stand on the H200 with every party in the same job (bench/run_bench.py, read flush): fp8_block and
# bf16 at T = 8192 with vLLM's Triton fused MoE, w4a16_mxfp4 T = 1 / 4 / 16 / 64 with triton_kernels and
# our bf16. Our binary runs `auto` with the table job 1's tunes lead to: MEGAMOE_TACTIC_CACHE=$CACHE (job
# 1's merged cache copied into this folder; unset: the shipped table). ~380 s.
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_main73.txz} carried_job_start
cat "$R/gpu.txt"
# The split GEMM suites first: session 73 moved their seeding into tests/common/test_seed.h (same seeds).
sharded_gpu_tests t 45 --gtest_filter='*Split*:*split*:W4A16.*'
[ -n "${CACHE:-}" ] && { export MEGAMOE_TACTIC_CACHE=$CACHE; echo "tactic cache $CACHE"; }
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
run_bench_until mx ${MX_END:-200} --recipe w4a16_mxfp4 --tokens 1,4,16,64 --triton-kernels-peer .peers/triton_kernels_moe.py
run_bench_until fp8_8192 ${F8_END:-290} --recipe fp8_block --tokens 8192 --vllm-peer .peers/vllm_triton_moe.py
run_bench_until bf16_8192 ${B16_END:-380} --recipe bf16 --tokens 8192 --vllm-peer .peers/vllm_triton_moe.py
echo "end $(el)s"
