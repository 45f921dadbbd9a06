#!/usr/bin/env bash
# SASS of a CUDA object on the CPU machine (its CUDA toolkit has nvcc and ptxas but no cuobjdump /
# nvdisasm): fetches NVIDIA's pip wheels of the two tools into .deps/cuda-tools once, then runs
# `cuobjdump -sass` with any extra arguments (e.g. -fun NAME). Used to count a K loop's
# instructions or check that a TMA load compiled to UTMALDG without a GPU.
#
#   scripts/sass.sh OBJECT [cuobjdump args...]
#
# One translation unit's object, from a configured build directory:
#   cmd=$(ninja -C BUILD -t commands CMakeFiles/megamoe.dir/src/kernels/sm90/gemm/TU.cu.o | tail -1 |
#         sed -E "s# -o [^ ]+# -o /tmp/tu.o#; s# -MF [^ ]+# -MF /tmp/tu.d#"); (cd BUILD && eval "$cmd")
set -euo pipefail
if [ $# -lt 1 ]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tools=$root/.deps/cuda-tools
if [ ! -x "$tools/bin/cuobjdump" ] || [ ! -x "$tools/bin/nvdisasm" ]; then
  mkdir -p "$tools/bin" "$tools/wheels"
  # Versions listed in the package index of this machine (.library/env/packages/pypi.tsv).
  python3 -m pip download --quiet --no-deps -d "$tools/wheels" nvidia-cuda-cuobjdump==13.4.92 nvidia-cuda-nvdisasm==13.5.37
  for whl in "$tools"/wheels/*.whl; do python3 -m zipfile -e "$whl" "$tools/unpacked"; done
  for t in cuobjdump nvdisasm; do
    cp "$(find "$tools/unpacked" -type f -name "$t" | head -1)" "$tools/bin/$t"
    chmod +x "$tools/bin/$t"
  done
fi
obj=$1; shift
PATH="$tools/bin:$PATH" cuobjdump -sass "$@" "$obj"
