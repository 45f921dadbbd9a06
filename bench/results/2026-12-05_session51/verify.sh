#!/usr/bin/env bash
# Session 51, after merging wip/bf16-staged-v2 (6902196): the bf16 large TMA kernel's consumers read
# the dynamic ticket in lane 0 and shuffle it (the branch's racecheck run reported 4 hazards between
# every lane's ticket read and the producer's past-the-end ticket write). Carry [".carry", ".peers"]
# (.carry/bld.txz = megamoe + megamoe_gpu_tests of 6902196). ~250-330 s:
#   racecheck / memcheck / synccheck on the four staged sanitizer cases, the bf16 large-T tests in both
#   tile orders, then fp8_block `auto` at T = 16384 / 32768 against vLLM and PyTorch (the PyTorch
#   anchor's weights now quantized one expert at a time: it ran out of memory on an H100).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
mkdir -p /tmp/bld && tar xJf .carry/bld.txz -C /tmp/bld || exit 1
B=/tmp/bld
S='Bf16LargeTma.SmallProblemForSanitizers:GemmBf16Act.LargeTmaStagedForSanitizers:Fp8Gemm.ManyTilesPerCta:W4A16.LargeTmaStagedForSanitizers'
for t in racecheck memcheck synccheck; do
  timeout 80 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$S" > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
for d in 1 0; do
  MEGAMOE_BF16_LARGE_TMA_DYNAMIC=$d timeout 90 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='Bf16LargeTma.*:GemmBf16Act.*:SplitBf16.*' > "$R/tests_bf16_dynamic$d.log" 2>&1
  echo "bf16 tests dynamic=$d rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_bf16_dynamic$d.log" | head -6
done
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
if [ "${SKIP_PEER:-}" = "" ] && [ -f .peers/vllm_triton_moe.py ]; then
  timeout 150 python3 bench/run_bench.py --build "$B" --recipe fp8_block --out "$R/auto_peer_fp8_block.json" \
    --presets $P --tokens 16384,32768 --iters 50 --vllm-peer .peers/vllm_triton_moe.py > "$R/auto_peer_fp8_block.log" 2>&1
  echo "peer fp8_block rc=$? $(el)s"; grep -E "geomean|anchor\]" "$R/auto_peer_fp8_block.log" | tail -12
fi
echo "end $(el)s"
