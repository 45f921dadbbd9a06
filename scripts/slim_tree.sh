#!/usr/bin/env bash
# Make the working tree small enough to travel to the GPU machine, and put it back afterwards.
#
#   scripts/slim_tree.sh on [bench/results/KEEP ...]   # moves bench/results/* (but KEEP) into .aside/
#   scripts/slim_tree.sh off                           # moves them back; .aside/ ends empty
#   scripts/slim_tree.sh status
#
# Why: a device call copies the tracked files plus the carried paths, 64 MiB in all
# (.library/device/README.md), and bench/results/ -- thousands of raw records from earlier sessions --
# outgrew that with .carry beside it: session 55's calls were refused at 60 MiB by our byte count
# (the tool's count is higher: it counts more than the bytes; scripts/travel_size.py counts each file
# in 4 KiB blocks to stay on the safe side). No job reads old records, so the slim tree keeps only the
# job folders named. .aside/ is git-ignored and inside the checkout: nothing leaves this machine, and
# `off` refuses to overwrite a file that came back in the meantime. Commit only with the tree `off`
# (git status shows the moved records as deleted while it is `on`).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
aside=.aside/results
case "${1:-status}" in
  on)
    shift
    mkdir -p "$aside"
    for d in bench/results/*; do
      keep=0
      for k in "$@"; do [ "${k%/}" = "$d" ] && keep=1; done
      [ "$keep" = 1 ] && continue
      [ -e "$aside/$(basename "$d")" ] && { echo "slim_tree: $aside/$(basename "$d") exists; run off first" >&2; exit 1; }
      mv "$d" "$aside/"
    done
    echo "slim_tree: on; kept: ${*:-nothing}; travel $(( $(python3 scripts/travel_size.py .carry .peers) / 1048576 )) MiB with .carry and .peers"
    ;;
  off)
    [ -d "$aside" ] || { echo "slim_tree: already off"; exit 0; }
    for d in "$aside"/*; do
      [ -e "$d" ] || continue
      if [ -e "bench/results/$(basename "$d")" ]; then
        echo "slim_tree: bench/results/$(basename "$d") exists beside its moved copy; merge by hand" >&2; exit 1
      fi
      mv "$d" bench/results/
    done
    rmdir "$aside" .aside 2>/dev/null || true
    echo "slim_tree: off; git status: $(git status --short bench/results | wc -l) changed paths under bench/results"
    ;;
  status)
    if [ -d "$aside" ] && [ -n "$(ls -A "$aside" 2>/dev/null)" ]; then
      echo "slim_tree: on ($(ls "$aside" | wc -l) folders aside)"
    else
      echo "slim_tree: off"
    fi
    ;;
  *) echo "usage: scripts/slim_tree.sh on [bench/results/KEEP ...] | off | status" >&2; exit 2 ;;
esac
