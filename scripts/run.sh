#!/usr/bin/env bash
# The README's main command: set up, build, then `megamoe run` (default: the tiny preset,
# on the GPU when there is one, on the CPU reference otherwise). Extra arguments go to it.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${MEGAMOE_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh" >&2
"$ROOT/scripts/build.sh" >&2
exec "$BUILD/megamoe" run "$@"
