#!/usr/bin/env bash
# Session 58, eleventh call: wip/fp8-tma-dynamic as it would ship (dynamic tile order on for the
# two-warpgroup geometries, Narrow static). 1. fp8 tests + conformance with the defaults; 2. `megamoe
# tune` of fp8_block T = 2048..8192 on the four presets into one cache; 3. `auto` A/B: main's binary
# (9c9e7f3's kernels and table) against this one with the tune's cache, T = 2048..8192.
# Carry [".carry"]: bld.txz = /work/carry-stash/dynamic_ship.txz, main.txz = main_ad11127.txz.
set -u
source scripts/device_env.sh
carried_job_start
mkdir -p /tmp/b0 && tar xJf .carry/main.txz -C /tmp/b0
F='Fp8Gemm.*:Registered/Conformance.*fp8_fp8_bf16*'
timeout 100 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
tune_until fp8_all ${TUNE_END:-125} --recipe fp8_block --presets $P --tokens 2048,4096,8192
mkdir -p "$R/ab"
[ -s "$R/tune_fp8_all.json" ] && AB_VARIANTS="main=/tmp/b0/megamoe new=$B/megamoe@MEGAMOE_TACTIC_CACHE=$R/tune_fp8_all.json" \
  RUN_TIMEOUT=100 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_END:-215}" \
  "fp8=--recipe fp8_block --presets $P --tokens 2048,4096,8192 --iters 50" > "$R/ab.txt" 2>&1
grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
echo "end $(el)s"
