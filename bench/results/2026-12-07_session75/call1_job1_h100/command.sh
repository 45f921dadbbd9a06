bash bench/results/2026-12-07_session74/job1_h200_tunes.sh   # carry [".carry", ".peers"]; ran its H100 branch
