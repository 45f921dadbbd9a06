#!/usr/bin/env bash
# The expert-parallel GPU job (on a machine with >= 2 GPUs, e.g. the nvidia-h200-x2 kind):
# configure + build, the multigpu test launcher (ctest label multigpu), `megamoe check --ep`,
# the Python torchrun test, and the EP benchmark with the PyTorch all_to_all baseline.
#   GPU_EP_STEPS="build tests sanitize check python bench baseline"   (default: all)
#   BUILD_DIR=/root/build-ep  OUT=./gpu-out  EP=2  EP_TOKENS=1,8,64,512,4096  EP_PRESETS=...
set -u
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${OUT:-$ROOT/gpu-out}"; mkdir -p "$OUT"
B="${BUILD_DIR:-$ROOT/build-ep}"
EP="${EP:-2}"
STEPS="${GPU_EP_STEPS:-build tests sanitize check python bench baseline}"
TOK="${EP_TOKENS:-1,8,64,512,4096}"
PRESETS="${EP_PRESETS:-deepseek-v3,qwen3-30b-a3b,mixtral-8x7b,kimi-k2}"
export PYTHONUNBUFFERED=1
has() { [[ " $STEPS " == *" $1 "* ]]; }
cd "$ROOT"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo "no nvidia-smi here"
nvidia-smi topo -m 2>/dev/null | head -5
# NCCL: the toolkit's headers, else those of the pip package nvidia-nccl-cu13 of the Python
# environment; megamoe loads libnccl.so.2 at run time, from the same package
# (MEGAMOE_NCCL_LIBRARY), so headers and library agree.
NCCL_ROOT=""
if [ ! -f /usr/local/cuda/include/nccl_device.h ]; then
  NCCL_ROOT="$(python3 -c 'import nvidia.nccl, os; print(nvidia.nccl.__path__[0])' 2>/dev/null || true)"
  echo "NCCL from $NCCL_ROOT"; ls "$NCCL_ROOT/include" "$NCCL_ROOT/lib" 2>/dev/null | head
  export MEGAMOE_NCCL_LIBRARY="$NCCL_ROOT/lib/libnccl.so.2"
fi
if has build; then
  t0=$(date +%s)
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_PYTHON=ON ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > "$OUT/cfg.log" 2>&1 || { tail -30 "$OUT/cfg.log"; exit 1; }
  grep -i "nccl" "$OUT/cfg.log"
  cmake --build "$B" -j "$(nproc)" > "$OUT/build.log" 2>&1 || { grep -B3 -A25 "error" "$OUT/build.log" | head -100; exit 1; }
  echo "build $(( $(date +%s) - t0 ))s"
fi
if has tests; then
  MEGAMOE_EP_RANKS=$EP timeout 420 "$B/megamoe_multigpu_tests" > "$OUT/multigpu_tests.log" 2>&1
  echo "multigpu tests rc=$?"; grep -E "^\[  (PASSED|FAILED|  OK|SKIPPED) |^launcher|CommError|rel-L2|Failure" "$OUT/multigpu_tests.log" | head -80
fi
if has sanitize; then
  F="${SAN_FILTER:-Ep/EpStyles.Bf16*:Ep/EpStyles.ZeroTokens*:Ep/EpStyles.Placement*}"
  for tool in memcheck racecheck; do
    MEGAMOE_EP_RANKS=$EP timeout ${SAN_TIMEOUT:-300} compute-sanitizer --tool $tool --target-processes all --error-exitcode 9 \
      "$B/megamoe_multigpu_tests" --gtest_filter="$F" > "$OUT/san-ep-$tool.log" 2>&1
    echo "ep $tool rc=$?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/san-ep-$tool.log" | head -6
  done
fi
if has check; then
  for style in push pull; do
    timeout 200 "$B/megamoe" check --ep "$EP" --ep-style $style > "$OUT/check_ep_$style.log" 2>&1
    echo "check --ep $EP $style rc=$?"; grep -E "passed|FAIL" "$OUT/check_ep_$style.log" | head -10
  done
fi
if has python; then
  MEGAMOE_BUILD_DIR="$B" timeout 400 python3 -m pytest -q -rs -p no:cacheprovider tests/python/test_ep.py > "$OUT/pytest_ep.log" 2>&1
  echo "pytest ep rc=$?"; grep -E "^FAILED|passed|failed|FAIL|SKIP" "$OUT/pytest_ep.log" | tail -12
fi
if has bench; then
  for style in ${EP_STYLES:-push pull}; do
    timeout 400 "$B/megamoe" bench --ep "$EP" --ep-style $style --presets "$PRESETS" --tokens "$TOK" \
      --json "$OUT/ep${EP}_bf16_$style.json" > "$OUT/bench_ep_$style.log" 2>&1
    echo "bench --ep $EP $style rc=$?"; grep -v "^\[bench\]" "$OUT/bench_ep_$style.log" | head -60
  done
fi
if has baseline; then
  timeout 500 python3 -m torch.distributed.run --nproc-per-node "$EP" bench/anchors/ep_torch_all_to_all.py \
    --presets "$PRESETS" --tokens-per-rank "$TOK" --out "$OUT/ep${EP}_torch.json" > "$OUT/baseline.log" 2>&1
  echo "baseline rc=$?"; tail -30 "$OUT/baseline.log"
fi
