#!/usr/bin/env bash
# 2026-12-03 (session 34), after job.sh: 16-row boxes everywhere were faster at deepseek-v3 /
# gpt-oss-120b T = 128 and slower at large T and on full 64-row passes. tail_boxes.patch keeps the
# 64-row boxes and loads only a pass's last rows past them in 16-row boxes (a second tensor map).
# The new binary also has the tactic split_tma_small_act (split_tma_small's kernel with the
# activation and the quantization of a in FC1's epilogue, as split_tma_act has it).
#   base = .carry/base.tgz (HEAD aac9303), new = .carry/tail.tgz (tail_boxes.patch + split_tma_small_act)
# fp8 GPU tests and the three sanitizers on new; forced split_tma_small (T = 128..512),
# split_tma (T = 128..1024) and split_tma_act (T = 2048 / 8192) on the four presets, alternated,
# best of two, and split_tma_small_act on new (files sa_small_*: compared with new's split_tma_small);
# then, time permitting, `megamoe tune --recipe fp8_block --rounds 2` T = 128..2048 on new and `auto`
# with that tune against vLLM / PyTorch.
# Run from the repository root: bash bench/results/2026-12-03_fp8_small_T_token_box/job2.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/base /tmp/new && tar xzf .carry/base.tgz -C /tmp/base && tar xzf .carry/tail.tgz -C /tmp/new || exit 1
scripts/ab_checks.sh "$R" /tmp/new/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' \
  'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.PitchedRowsSmall'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $PR --iters 50"
MEGAMOE_TACTIC_CACHE=off scripts/ab_bench.sh "$R" /tmp/base/megamoe /tmp/new/megamoe 2 "$t0" 330 \
  "small=$C --tactic split_tma_small --tokens 128,256,512" "tma=$C --tactic split_tma --tokens 128,256,512,1024" \
  "act=$C --tactic split_tma_act --tokens 2048,8192" | tail -n 60
for rep in 1 2; do
  MEGAMOE_TACTIC_CACHE=off timeout 60 /tmp/new/megamoe bench $C --tactic split_tma_small_act --tokens 128,256,512 \
    --json "$R/sa_small_r$rep.json" > "$R/sa_small_r$rep.log" 2>&1 || echo "small_act r$rep rc=$?"
done
echo "== new split_tma_small vs new split_tma_small_act"; python3 scripts/ab_compare.py "$R" new sa
echo "ab done $(( $(date +%s) - t0 ))s"
if [ $(( $(date +%s) - t0 )) -lt 380 ]; then
  timeout 110 /tmp/new/megamoe tune --recipe fp8_block --presets $PR --tokens 128,256,512,1024,2048 --iters 30 --rounds 2 \
    --cache "$R/tune_fp8_128-2048.json" > "$R/tune.log" 2> "$R/tune.err"
  echo "tune rc=$? $(( $(date +%s) - t0 ))s"; tail -n 30 "$R/tune.log"
fi
if [ $(( $(date +%s) - t0 )) -lt 480 ] && [ -f "$R/tune_fp8_128-2048.json" ]; then
  MEGAMOE_TACTIC_CACHE="$R/tune_fp8_128-2048.json" timeout 100 python3 bench/run_bench.py --build /tmp/new --recipe fp8_block \
    --backends auto --presets $PR --tokens 128,256,512,1024,2048 --iters 50 --vllm-peer .peers/vllm_triton_moe.py \
    --out "$R/peer_tuned.json" > "$R/peer_tuned.log" 2>&1
  echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/peer_tuned.log"
fi
echo "end $(( $(date +%s) - t0 ))s"
