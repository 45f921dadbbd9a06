#!/usr/bin/env bash
# A variant of the `megamoe` CLI and `megamoe_gpu_tests` built on the CPU machine from an up-to-date
# build directory (BUILD, default /work/build-h6): the listed translation units are compiled again
# with extra macros, swapped into a copy of libmegamoe.a, and both binaries relinked with ninja's
# own link commands (no device-link step is involved). The stripped binaries go to OUT/NAME/, so a
# device job can carry them (tar them: stripped, the two are ~40 MB, ~11 MB compressed).
#
#   scripts/local_variant.sh OUT NAME "-DMACRO=1 -DOTHER" src/kernels/.../a.cu [more .cu ...]
#
# Run `ninja megamoe_cli megamoe_gpu_tests` in BUILD first: the variant differs from that build only
# in the listed units.
set -euo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,11p' "$0" >&2
  exit 2
fi
out=$1 name=$2 defs=$3
shift 3
build=${BUILD:-/work/build-h6}
work=$(mktemp -d)
cp "$build/libmegamoe.a" "$work/libmegamoe.a"
objs=()
for tu in "$@"; do
  target="CMakeFiles/megamoe.dir/$tu.o"
  obj="$work/$(basename "$tu").o"
  # ar replaces members by their basename: refuse a unit whose basename the archive holds twice
  # (e.g. the backends' backend.cu), where the wrong member could be replaced.
  n=$(ar t "$work/libmegamoe.a" | grep -cx "$(basename "$tu").o" || true)
  [ "$n" = 1 ] || { echo "$tu: $n archive members named $(basename "$tu").o (need exactly 1)" >&2; exit 1; }
  cmd=$(cd "$build" && ninja -t commands "$target" | tail -n 1)
  [ -n "$cmd" ] || { echo "no compile command for $target" >&2; exit 1; }
  cmd=$(sed -E "s# -o [^ ]+# -o $obj#; s# -MF [^ ]+# -MF $work/dep.d#" <<<"$cmd")
  (cd "$build" && eval "$cmd $defs")
  objs+=("$obj")
done
# The archive's members are named by their basenames (ar's default); replace them.
ar r "$work/libmegamoe.a" "${objs[@]}" 2>/dev/null
mkdir -p "$out/$name"
for bin in megamoe megamoe_gpu_tests; do
  link=$(cd "$build" && ninja -t commands "$bin" | tail -n 1)
  link=${link//libmegamoe.a/$work\/libmegamoe.a}
  link=$(sed -E "s# -o [^ ]+# -o $out/$name/$bin#" <<<"$link")
  (cd "$build" && eval "$link")
  strip "$out/$name/$bin"
done
rm -rf "$work"
echo "$out/$name: $(ls "$out/$name" | tr '\n' ' ')"
