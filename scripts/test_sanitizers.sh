#!/usr/bin/env bash
# The CPU code under AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer: a CPU-only
# Debug build (no CUDA backends: the CPU reference, formats and quantizers, routing, tactic cache,
# config validation, CLI) in its own directory, its ctest suite, and the CLI's run / check commands
# on every recipe. Any sanitizer report fails the run (halt_on_error). Part of the README's test
# command (scripts/test.sh); ~1 minute of build and ~2 of tests on 2 cores.
# With MEGAMOE_TEST_TSAN=1 (CI sets it, .ci/run) the same build and suite also run under
# ThreadSanitizer (the CPU reference runs on every core): ~1 more minute of build, ~5 of tests.
#
#   scripts/test_sanitizers.sh        # build dirs: $MEGAMOE_SAN_BUILD_DIR (default build-san/),
#                                     # and with TSan the same name + "-tsan"
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MEGAMOE_SAN_BUILD_DIR:-$ROOT/build-san}"
JOBS="${JOBS:-$(nproc)}"

# build_and_test DIR "SANITIZER FLAGS": configure (once), build, run ctest and the CLI.
build_and_test() {
  local dir=$1 flags=$2
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DMEGAMOE_ENABLE_CUDA=OFF \
      -DMEGAMOE_BUILD_TESTS=ON -DMEGAMOE_BUILD_TOOLS=ON -DMEGAMOE_BUILD_PYTHON=OFF -DMEGAMOE_INSTALL=OFF \
      -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" >/dev/null
  fi
  cmake --build "$dir" -j "$JOBS"
  (cd "$dir" && ctest --output-on-failure -j "$JOBS" --timeout 1200)
  for recipe in bf16 fp8_block w4a16_mxfp4 w4a16_nvfp4 mxfp8 nvfp4 w4a8_mxfp4; do
    "$dir/megamoe" run --preset tiny --recipe "$recipe" > /dev/null
  done
  "$dir/megamoe" check > /dev/null
}

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
build_and_test "$BUILD" "-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
echo "sanitizers: ctest and the CLI ran clean under ASan + UBSan"
if [ "${MEGAMOE_TEST_TSAN:-0}" != 0 ]; then
  # A report makes the process exit with 66: the test or the CLI run fails.
  export TSAN_OPTIONS=halt_on_error=0:exitcode=66
  build_and_test "$BUILD-tsan" "-fsanitize=thread -fno-omit-frame-pointer"
  echo "sanitizers: ctest and the CLI ran clean under TSan"
fi
