#!/usr/bin/env bash
# The next session's first call (prepared in session 75). Carry [".carry", ".peers"].
# On an H200: session 74's job 1 (the W4A16 `split_small_deep` tune at gpt-oss-120b / mixtral-8x7b
# T = 1 / 2 / 4 and the fp8_block tune at T = 2048..8192, then `auto` shipped against the merged
# caches; ~550 s; TUNE_END / AB_END shorten it) on this session's binary (.carry/bld_table75.txz: main
# with the H100 entry bf16 deepseek-v3 T = 1 -> split_tma_small; the H200's entries are main's).
# On an H100: job 9, the built table against the binary before it (~120 s), then job 11, FC1 on the
# W4A16 small tactic's deep ring (~240 s; records in $OUT/job9_r.tgz and $OUT/job11_r.tgz).
set -u
d=$(dirname "$0")
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  CARRY_BLD=bld_table75.txz bash "$d/../2026-12-07_session74/job1_h200_tunes.sh"
else
  AB_END=120 bash "$d/job9_table_ab.sh"
  mv "$OUT/r.tgz" "$OUT/job9_r.tgz"
  bash "$d/job11_fc1_deep.sh"
  mv "$OUT/r.tgz" "$OUT/job11_r.tgz" 2>/dev/null
fi
