#!/usr/bin/env bash
# Session 72, the last call: where issues 14 / 15 stand with main's library at 9c5ecf8 (split_small_deep,
# the H100 table's new entries; the binary was built at bdf5035, whose change is a test helper, so the
# W4A16 suites run first), every party in the same job (bench/run_bench.py). Carry [".carry", ".peers"]
# (.carry/bld_main72.txz).
#   On an H200 (the issues' GPU; its table has no split_small_deep entries): fp8_block and bf16 at
#     T = 8192 with vLLM's Triton fused MoE (issue 14), w4a16_mxfp4 T = 1 / 4 / 16 / 64 with
#     triton_kernels and our bf16 (issue 15), read flush.
#   On an H100: w4a16_mxfp4 T = 1 / 2 / 4 / 8 / 16 / 64 on four presets with triton_kernels and our
#     bf16 under the read flush (the record of `auto` at this commit, shipped table only).
set -u
source scripts/device_env.sh
CARRY_BLD=${CARRY_BLD:-bld_main72.txz} carried_job_start
cat "$R/gpu.txt"
JB=${JB:-270}
sharded_gpu_tests t 60 --gtest_filter='W4A16.*:*W4A16ActEpilogue*'
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
rb() { run_bench_until "$@"; }  # scripts/device_env.sh
if grep -q H200 "$R/gpu.txt"; then
  rb fp8_8192 90 --recipe fp8_block --tokens 8192 --vllm-peer .peers/vllm_triton_moe.py
  rb bf16_8192 170 --recipe bf16 --tokens 8192 --vllm-peer .peers/vllm_triton_moe.py
  rb mx $JB --recipe w4a16_mxfp4 --tokens 1,4,16,64 --triton-kernels-peer .peers/triton_kernels_moe.py
else
  rb mx $JB --recipe w4a16_mxfp4 --tokens 1,2,4,8,16,64 --triton-kernels-peer .peers/triton_kernels_moe.py
fi
echo "end $(el)s"
