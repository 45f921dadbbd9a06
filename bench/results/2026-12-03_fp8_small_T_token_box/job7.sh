#!/usr/bin/env bash
# 2026-12-03 (session 34), after job5.sh (alternating the gated sub-tiles did not help): why is
# split_tma_act's FC1 slower than split_tma's at small T? Two diagnosis builds of the activation
# translation unit (act_diag_macros.patch; wrong results by design):
#   plainrows = MEGAMOE_DIAG_ACT_PLAIN_ROWS: each step's two weight boxes are adjacent 64-row boxes of
#               one 128-row block (the plain kernel's access pattern; the same bytes overall)
#   nostore   = MEGAMOE_DIAG_ACT_NO_STORE: the epilogue computes the codes but stores nothing
# against base (HEAD aac9303): forced split_tma_act at T = 128 / 512, alternated, best of two.
# Run from the repository root: bash bench/results/2026-12-03_fp8_small_T_token_box/job7.sh
set -u
source scripts/device_env.sh
t0=$(date +%s)
for v in base plainrows nostore; do mkdir -p /tmp/$v && tar xzf .carry/$v.tgz -C /tmp/$v || exit 1; done
export MEGAMOE_TACTIC_CACHE=off
C="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 128,512 --iters 50"
for rep in 1 2; do
  for v in base plainrows nostore; do
    timeout 60 /tmp/$v/megamoe bench $C --tactic split_tma_act --json "$R/${v}_act_r$rep.json" > "$R/${v}_act_r$rep.log" 2>&1 || echo "$v r$rep rc=$?"
  done
  echo "r$rep $(( $(date +%s) - t0 ))s"
done
timeout 60 /tmp/base/megamoe bench $C --tactic split_tma --json "$R/base_tma_r1.json" > "$R/base_tma_r1.log" 2>&1
for v in plainrows nostore; do echo "== base vs $v"; python3 scripts/ab_compare.py "$R" base $v; done
grep -E "^(deep|qwen|gpt|mix)" "$R/base_tma_r1.log"
echo "end $(( $(date +%s) - t0 ))s"
