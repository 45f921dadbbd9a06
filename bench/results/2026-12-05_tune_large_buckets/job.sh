#!/usr/bin/env bash
# Session 49: the prepared job of session 48 (../2026-12-05_tune_large_buckets_prepared/): `auto` at
# T = 16384 / 32768 against vLLM's Triton fused MoE and PyTorch in the same job, then `megamoe tune`
# of those buckets (bf16, fp8_block), with the binary of this session's kernels (.carry/bld.txz;
# ../2026-12-05_bf16_staged_v2/). Knobs of the call line (e.g. MEGAMOE_BF16_LARGE_TMA_STORES=1)
# reach every run. Carry [".carry", ".peers"]; ~300-420 s.
set -u
source scripts/device_env.sh
carried_job_start
env | grep -E '^MEGAMOE_' > "$R/knobs.txt"
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
TOK=${TOKENS:-16384,32768}       # e.g. TOKENS=8192,16384,32768 (the deadlines stay: more buckets, fewer presets reached)
REC=${RECIPES:-bf16 fp8_block}  # e.g. RECIPES=bf16 (one recipe a call when TOKENS has more buckets)
PEER=${PEER:-1}                 # PEER=0 skips the vLLM / PyTorch phase
if [ "$PEER" = 1 ] && [ -f .peers/vllm_triton_moe.py ]; then
  for rd in bf16:150 fp8_block:270; do  # each recipe's phase ends by its deadline (s since the start)
    r=${rd%%:*} d=${rd#*:}
    case " $REC " in *" $r "*) ;; *) continue ;; esac
    [ "$(left $d)" -lt 30 ] && { echo "skip peer $r (time)"; continue; }
    timeout "$(left $d)" python3 bench/run_bench.py --build "$B" --recipe $r --out "$R/auto_peer_$r.json" \
      --presets $P --tokens $TOK --iters 50 --vllm-peer .peers/vllm_triton_moe.py > "$R/auto_peer_$r.log" 2>&1
    echo "peer $r rc=$? $(el)s"; grep -E "geomean|T= *[0-9]+ " "$R/auto_peer_$r.log" | tail -10
  done
else echo "peer phase skipped (PEER=$PEER, .peers/vllm_triton_moe.py present: $([ -f .peers/vllm_triton_moe.py ] && echo yes || echo no))"; fi
for r in $REC; do
  for p in gpt-oss-120b qwen3-30b-a3b mixtral-8x7b deepseek-v3; do
    [ "$(left 500)" -lt 25 ] && { echo "skip tune $r $p (time)"; continue; }
    timeout "$(left 500)" $B/megamoe tune --recipe $r --presets $p --tokens $TOK \
      --iters 50 --rounds 2 --cache "$R/tune_${r}_$p.json" > "$R/tune_${r}_$p.txt" 2>&1
    echo "tune $r $p rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_${r}_$p.txt" | grep -E "^$p " | cut -c1-160
  done
done
echo "end $(el)s"
