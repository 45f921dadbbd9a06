#!/usr/bin/env bash
# The CPU code under AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer: a CPU-only
# Debug build (no CUDA backends: the CPU reference, formats and quantizers, routing, tactic cache,
# config validation, CLI) in its own directory, its ctest suite, and the CLI's run / check commands
# on every recipe. Any sanitizer report fails the run (halt_on_error). Part of the README's test
# command (scripts/test.sh); ~1 minute of build and ~2 of tests on 2 cores.
#
#   scripts/test_sanitizers.sh        # build dir: $MEGAMOE_SAN_BUILD_DIR, default build-san/
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MEGAMOE_SAN_BUILD_DIR:-$ROOT/build-san}"
JOBS="${JOBS:-$(nproc)}"
SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMEGAMOE_ENABLE_CUDA=OFF \
    -DMEGAMOE_BUILD_TESTS=ON -DMEGAMOE_BUILD_TOOLS=ON -DMEGAMOE_BUILD_PYTHON=OFF -DMEGAMOE_INSTALL=OFF \
    -DCMAKE_CXX_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" -DCMAKE_SHARED_LINKER_FLAGS="$SAN" >/dev/null
fi
cmake --build "$BUILD" -j "$JOBS"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
(cd "$BUILD" && ctest --output-on-failure -j "$JOBS" --timeout 900)
for recipe in bf16 fp8_block w4a16_mxfp4 w4a16_nvfp4 mxfp8 nvfp4 w4a8_mxfp4; do
  "$BUILD/megamoe" run --preset tiny --recipe "$recipe" > /dev/null
done
"$BUILD/megamoe" check > /dev/null
echo "sanitizers: ctest and the CLI ran clean under ASan + UBSan"
