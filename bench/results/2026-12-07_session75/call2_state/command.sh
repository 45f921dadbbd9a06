bash bench/results/2026-12-07_session74/job2_h200_state.sh   # carry [".carry", ".peers"]; no CACHE: the shipped table
