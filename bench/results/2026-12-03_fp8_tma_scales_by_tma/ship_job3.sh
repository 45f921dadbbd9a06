#!/usr/bin/env bash
# Session 32, after ship_job2.sh: `megamoe tune --recipe fp8_block` at T = 128, 256, 512 with the
# scales-by-TMA kernel, merged on the device into src/core/tactics_default.cpp (the merged file comes
# back as $OUT/r/tactics_default.cpp), a rebuild, then `auto` with the final table against vLLM's
# Triton fused MoE and PyTorch at T = 128, 512, 2048, 8192. From the repository root:
#   bash bench/results/2026-12-03_fp8_tma_scales_by_tma/ship_job3.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
build() {
  MEGAMOE_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" scripts/device_build.sh "$BN" megamoe_cli \
    > "$R/build.log" 2>&1 || { tail -n 30 "$R/build.log" "$BN.build.log"; exit 1; }
  echo "build $(( $(date +%s) - t0 ))s"
}
build
timeout 120 "$BN/megamoe" tune --recipe fp8_block --tokens 128,256,512 --iters 30 \
  --cache "$R/tune_fp8_small.json" > "$R/tune_fp8_small.txt" 2> "$R/tune_fp8_small.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; cat "$R/tune_fp8_small.txt"
python3 scripts/merge_tune.py "$R/tune_fp8_small.json" --buckets 128-512 | tee "$R/merge.txt"
cp src/core/tactics_default.cpp "$R/"
build
timeout 150 python3 bench/run_bench.py --build "$BN" --recipe fp8_block --backends auto \
  --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 128,512,2048,8192 --iters 50 \
  --vllm-peer .peers/vllm_triton_moe.py --out "$R/peer_final.json" > "$R/peer_final.log" 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 22 "$R/peer_final.log"
