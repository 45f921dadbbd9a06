#!/usr/bin/env bash
# One GPU job (what each session runs on the H200): configure + build with every core, the
# whole GPU test binary, compute-sanitizer on small cases, the Python suite, and the bf16
# benchmark (split vs mega vs PyTorch, plus vLLM's Triton fused MoE when a copy of the peer is
# given), the mxfp4 benchmark (W4A16 split vs mega vs PyTorch and our bf16, plus OpenAI's
# triton_kernels MoE on gpt-oss-120b and deepseek-v3 when a copy of that peer is given), and a
# short `megamoe tune` (two presets, T = 1..64) into $OUT/tactics.json. Logs and JSON go to $OUT
# (default: ./gpu-out). Steps can be skipped:
#   GPU_CHECK_STEPS="build tests sanitize python bench bench_w4 tune" (default: all)
#   VLLM_PEER=path/to/vllm_triton_moe.py  TK_PEER=path/to/triton_kernels_moe.py (its
#   triton_kernels folder beside it)  BENCH_TOKENS=1,8,64  BUILD_DIR=/root/build-gpu
# CUTLASS headers must be in .deps/cutlass (scripts/setup.sh here, then carry .deps).
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/gpu-out}"; mkdir -p "$OUT"
B="${BUILD_DIR:-$ROOT/build-gpu}"
STEPS="${GPU_CHECK_STEPS:-build tests sanitize python bench bench_w4 tune}"
export PYTHONUNBUFFERED=1
has() { [[ " $STEPS " == *" $1 "* ]]; }
cd "$ROOT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "no nvidia-smi here"
if has build; then
  t0=$(date +%s)
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_PYTHON=ON > "$OUT/cfg.log" 2>&1 || { tail -30 "$OUT/cfg.log"; exit 1; }
  cmake --build "$B" -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -B3 -A25 "error" "$OUT/build.log" | head -100; exit 1; }
  echo "build $(( $(date +%s) - t0 ))s"
fi
if has tests; then
  timeout 400 "$B/megamoe_gpu_tests" --gtest_brief=1 --gtest_output="json:$OUT/gpu_tests.json" > "$OUT/gpu_tests.log" 2>&1
  echo "gpu tests rc=$?"; tail -3 "$OUT/gpu_tests.log"; grep -A6 "Failure" "$OUT/gpu_tests.log" | head -40
fi
if has sanitize; then
  F="${SAN_FILTER:-*tokens_T1:*tokens_T7:*invalid_ids_int32:*act_swiglu_bias:*graph_replay_T7:RoutePlan*:MegaBf16.NoRoutedRows}"
  # Under the sanitizers the Mega kernel runs ~100x slower: a 10-minute dependency bound instead of
  # 1 s, and 20 replays per case in the stress test (racecheck's host memory grows per queued launch).
  for tool in memcheck racecheck synccheck; do
    MEGAMOE_MEGA_WAIT_TIMEOUT_MS=600000 MEGAMOE_TEST_STRESS_REPS=20 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 "$B/megamoe_gpu_tests" --gtest_brief=1 \
      --gtest_filter="$F" > "$OUT/san-$tool.log" 2>&1
    echo "$tool rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/san-$tool.log" | head -3
  done
fi
if has python; then
  MEGAMOE_BUILD_DIR="$B" timeout 400 python3 -m pytest -q -rs -p no:cacheprovider tests/python > "$OUT/pytest.log" 2>&1
  echo "pytest rc=$?"; grep -E "^FAILED|passed|failed" "$OUT/pytest.log" | tail -8
fi
if has bench; then
  peer=(); [ -n "${VLLM_PEER:-}" ] && peer=(--vllm-peer "$VLLM_PEER")
  timeout 500 python3 bench/run_bench.py --build "$B" --out "$OUT/bf16.json" \
    --backends sm90_bf16_bf16_bf16_split,sm90_bf16_bf16_bf16_mega "${peer[@]}" \
    ${BENCH_TOKENS:+--tokens "$BENCH_TOKENS"} > "$OUT/bench.log" 2>&1
  echo "bench rc=$?"; grep -E "geomean" "$OUT/bench.log"
fi
if has bench_w4; then
  tk=(); [ -n "${TK_PEER:-}" ] && tk=(--triton-kernels-peer "$TK_PEER")
  timeout 500 python3 bench/run_bench.py --build "$B" --out "$OUT/w4a16_mxfp4.json" --recipe w4a16_mxfp4 \
    --backends sm90_bf16_mxfp4_bf16_split,sm90_bf16_mxfp4_bf16_mega "${tk[@]}" \
    ${BENCH_TOKENS:+--tokens "$BENCH_TOKENS"} > "$OUT/bench_w4.log" 2>&1
  echo "bench_w4 rc=$?"; grep -E "geomean" "$OUT/bench_w4.log"
fi
if has tune; then
  timeout 300 "$B/megamoe" tune --presets "${TUNE_PRESETS:-qwen3-30b-a3b,mixtral-8x7b}" --tokens "${TUNE_TOKENS:-1-64}" \
    --cache "$OUT/tactics.json" > "$OUT/tune.log" 2> "$OUT/tune.err"
  echo "tune rc=$?"; cat "$OUT/tune.log" | tail -20
fi
