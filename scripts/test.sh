#!/usr/bin/env bash
# The README's test command: set up, build, run every test (C++ via ctest, Python via pytest).
# GPU tests (ctest label `gpu`) skip themselves where no GPU exists.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MEGAMOE_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"
"$ROOT/scripts/build.sh"
(cd "$BUILD" && ctest --output-on-failure -j "$(nproc)" ${CTEST_ARGS:-})
MEGAMOE_BUILD_DIR="$BUILD" "${PYTHON:-python3}" -m pytest -q "$ROOT/tests/python"
