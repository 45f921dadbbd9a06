#!/usr/bin/env bash
# Configure and build megamoe into build/ (CUDA backends when nvcc is present), with the
# Python package assembled in build/python (PYTHONPATH=build/python to import it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MEGAMOE_BUILD_DIR:-$ROOT/build}"
JOBS="${JOBS:-$(nproc)}"
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_PYTHON=ON ${MEGAMOE_CMAKE_ARGS:-}
fi
cmake --build "$BUILD" -j "$JOBS"
