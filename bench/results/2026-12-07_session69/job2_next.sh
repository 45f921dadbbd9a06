#!/usr/bin/env bash
# Session 69's next call. On an H200: session 67's job1_first.sh H200 branch (the fp8_block / bf16
# re-tune at large T; BUDGET seconds). On an H100 (call 2 ran its peers, call 4 the T = 1 anatomy):
# session 67's job2_h200_state_peers.sh (main's state beside vLLM / triton_kernels / PyTorch), its four
# deadlines at 110 / 220 / 340 / 420 s unless D1..D4 are set. Carry [".carry", ".peers"].
# (Call 4 ran this script's earlier form, whose H100 branch was job1_t1_anatomy.sh.)
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  exec bash bench/results/2026-12-07_session67/job1_first.sh
fi
D1=${D1:-110} D2=${D2:-220} D3=${D3:-340} D4=${D4:-420} exec bash bench/results/2026-12-07_session67/job2_h200_state_peers.sh
