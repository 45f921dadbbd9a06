#!/usr/bin/env bash
# The README's test command: set up, build, run every test (C++ via ctest, Python via pytest),
# then build and run the C++ example against the installed package (examples/cpp), then the CPU
# code again under ASan + UBSan (scripts/test_sanitizers.sh; MEGAMOE_TEST_SANITIZERS=0 skips it).
# GPU tests (ctest label `gpu`) skip themselves where no GPU exists.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MEGAMOE_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh"
(cd "$BUILD" && ctest --output-on-failure -j "$(nproc)" ${CTEST_ARGS:-})
MEGAMOE_BUILD_DIR="$BUILD" "${PYTHON:-python3}" -m pytest -q "$ROOT/tests/python"

# The installed C++ package: install the build into a scratch prefix, then configure, build and
# run the find_package(megamoe) consumer in examples/cpp against it (CPU reference backend, so
# no GPU needed even when the package has the CUDA backends). A few seconds.
PKG="$(mktemp -d)"
trap 'rm -rf "$PKG"' EXIT
cmake --install "$BUILD" --prefix "$PKG/prefix" --component Development >/dev/null
cmake -S "$ROOT/examples/cpp" -B "$PKG/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$PKG/prefix" >/dev/null
cmake --build "$PKG/build"
"$PKG/build/moe_cpu_example"

if [ "${MEGAMOE_TEST_SANITIZERS:-1}" != 0 ]; then
  "$ROOT/scripts/test_sanitizers.sh"
fi
