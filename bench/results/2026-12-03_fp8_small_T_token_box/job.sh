#!/usr/bin/env bash
# 2026-12-03 (session 34). Where the fp8 TMA kernel's small-T time goes, and the prepared job2.sh of
# ../2026-12-03_fp8_tma_small/ (the shipped table against vLLM / PyTorch; Mega vs split at
# qwen3-30b-a3b T = 128..512; a kernel timeline of `auto` there).
# Binaries built on the CPU machine (scripts/local_variant.sh), carried compressed:
#   base  = .carry/new.tgz    HEAD (aac9303) as shipped
#   b16   = .carry/box16.tgz  token tiles loaded in TMA boxes of 16 rows (MEGAMOE_FP8_TOK_BOX=16):
#                             a pass of r rows loads ceil(r / 16) boxes instead of ceil(r / 64)
#   b32   = .carry/box32.tgz  boxes of 32 rows
#   nomma = .carry/nomma.tgz  the step without its wgmma (MEGAMOE_DIAG_NO_MMA; wrong results)
# At qwen3-30b-a3b T = 128 an expert holds ~8 rows, and a step loads a 64-row token box (8 KiB) for
# 16 KiB of weights. A/B: forced split_tma_small T = 128..512 (all four variants) and split_tma_act
# T = 2048 / 8192 (base, b16, b32: the box count at large T), alternated, best of two. Then the fp8
# GPU tests and the three sanitizers on b16.
# Run from the repository root: bash bench/results/2026-12-03_fp8_small_T_token_box/job.sh
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
for v in base:new b16:box16 b32:box32 nomma:nomma; do
  mkdir -p /tmp/${v%%:*} && tar xzf .carry/${v#*:}.tgz -C /tmp/${v%%:*} || exit 1
done
B=/tmp/base
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
# 1. job2.sh's questions (the bench warms each cell up for >= 50 ms since ac8b651).
timeout 110 python3 bench/run_bench.py --build $B --recipe fp8_block --backends auto --presets $PR \
  --tokens 128,256,512,1024,2048 --iters 50 --vllm-peer .peers/vllm_triton_moe.py --out "$R/peer_shipped.json" \
  > "$R/peer_shipped.log" 2>&1
echo "peer rc=$? $(( $(date +%s) - t0 ))s"; tail -n 24 "$R/peer_shipped.log"
for rep in 1 2; do
  for be in mega split; do
    MEGAMOE_TACTIC_CACHE=off timeout 40 $B/megamoe bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_$be \
      --tactic split_tma_small --presets qwen3-30b-a3b --tokens 128,256,512 --iters 50 > "$R/${be}_r$rep.log" 2>&1
    echo "$be r$rep: $(grep -E '^qwen3' "$R/${be}_r$rep.log" | awk '{printf "T=%s %s ms  ", $2, $3}')"
  done
done
CUDA=/usr/local/cuda
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -L$CUDA/lib64 -lcupti && \
  CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/mega_auto_qwen3.csv LD_LIBRARY_PATH=$CUDA/lib64:${LD_LIBRARY_PATH:-} \
  timeout 40 $B/megamoe bench --recipe fp8_block --presets qwen3-30b-a3b --tokens 128,256 --iters 50 > "$R/mega_auto_trace.log" 2>&1
grep -E "^qwen3" "$R/mega_auto_trace.log"
python3 scripts/ktrace/timeline.py $R/mega_auto_qwen3.csv > $R/mega_auto_qwen3.timeline.txt; head -30 $R/mega_auto_qwen3.timeline.txt
gzip -f $R/*.csv
echo "part 1 done $(( $(date +%s) - t0 ))s"
# 2. A/B of the token box (and the no-MMA diagnosis).
export MEGAMOE_TACTIC_CACHE=off
C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $PR --iters 50"
for rep in 1 2; do
  for v in base b16 b32 nomma; do
    [ $(( $(date +%s) - t0 )) -gt 430 ] && { echo "deadline at $v r$rep"; break 2; }
    timeout 60 /tmp/$v/megamoe bench $C --tactic split_tma_small --tokens 128,256,512 --json "$R/${v}_small_r$rep.json" \
      > "$R/${v}_small_r$rep.log" 2>&1 || echo "$v small r$rep rc=$?"
    [ $v = nomma ] && continue
    timeout 60 /tmp/$v/megamoe bench $C --tactic split_tma_act --tokens 2048,8192 --json "$R/${v}_act_r$rep.json" \
      > "$R/${v}_act_r$rep.log" 2>&1 || echo "$v act r$rep rc=$?"
  done
  echo "r$rep $(( $(date +%s) - t0 ))s"
done
for v in b16 b32 nomma; do echo "== base vs $v"; python3 scripts/ab_compare.py "$R" base $v; done
# 3. Correctness of b16 (if time is left).
if [ $(( $(date +%s) - t0 )) -lt 470 ]; then
  scripts/ab_checks.sh "$R" /tmp/b16/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' \
    'Fp8Gemm.PartialBlocksSmall:Fp8Gemm.FusedActivationEqualsSeparateKernelSmall:Fp8Gemm.PitchedRowsSmall'
fi
echo "end $(( $(date +%s) - t0 ))s"
