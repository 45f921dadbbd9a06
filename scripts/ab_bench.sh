#!/usr/bin/env bash
# The timing half of an A/B job (docs/BENCHMARKS.md: builds alternated, best of the repetitions):
# runs each `megamoe bench` configuration with the base and the new binary in turn, REPS times,
# writing OUT/<base|new>_<config>_r<rep>.json for scripts/ab_compare.py, then prints the comparison.
# Stops starting runs once the job has used DEADLINE seconds (counted from T0, the job's start).
#
#   scripts/ab_bench.sh OUT BASE_BIN NEW_BIN REPS T0 DEADLINE CONFIG=ARGS [CONFIG=ARGS ...]
#
# CONFIG: a name without "_r" (e.g. split_tma); ARGS: the bench arguments after `megamoe bench`, one
# string (e.g. "--recipe fp8_block --tactic split_tma --presets ... --tokens 2048,8192 --iters 50").
# Each run is bounded by RUN_TIMEOUT seconds (default 60). More builds than two: AB_VARIANTS="name=BIN
# [name=BIN ...]" (BASE_BIN and NEW_BIN are then ignored; the first variant is the base of the
# comparisons printed at the end), e.g. AB_VARIANTS="base=/tmp/b/megamoe b16=/tmp/v/megamoe". A variant
# that is one binary under environment knobs: name=BIN@VAR=VALUE[@VAR=VALUE ...], e.g.
# AB_VARIANTS="off=/tmp/n/megamoe@MEGAMOE_X=0 on=/tmp/n/megamoe@MEGAMOE_X=1".
set -uo pipefail
if [ $# -lt 7 ]; then
  sed -n '2,14p' "$0" >&2
  exit 2
fi
out=$1 base_bin=$2 new_bin=$3 reps=$4 t0=$5 deadline=$6; shift 6
root=$(cd "$(dirname "$0")/.." && pwd)
read -r -a variants <<< "${AB_VARIANTS:-base=$base_bin new=$new_bin}"
for rep in $(seq 1 "$reps"); do
  for spec in "${variants[@]}"; do
    v=${spec%%=*} rest=${spec#*=}
    bin=${rest%%@*} envs=()
    [[ "$rest" == *@* ]] && IFS='@' read -r -a envs <<< "${rest#*@}"
    for config in "$@"; do
      [ $(( $(date +%s) - t0 )) -gt "$deadline" ] && { echo "ab_bench: deadline reached at $v r$rep"; break 3; }
      name=${config%%=*}; read -r -a args <<< "${config#*=}"
      timeout "${RUN_TIMEOUT:-60}" env "${envs[@]}" "$bin" bench "${args[@]}" --json "$out/${v}_${name}_r$rep.json" \
        > "$out/${v}_${name}_r$rep.log" 2>&1 || echo "ab_bench: $v $name r$rep exited with $?"
    done
    echo "$v r$rep $(( $(date +%s) - t0 ))s"
  done
done
first=${variants[0]%%=*}
for spec in "${variants[@]:1}"; do python3 "$root/scripts/ab_compare.py" "$out" "$first" "${spec%%=*}"; done
