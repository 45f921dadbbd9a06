#!/usr/bin/env bash
# One ncu profile of a command's kernels as the prepared ncu jobs take it: the sections and metrics
# given, the report exported as the details page (OUT_details.txt), the raw metrics of METRICS plus the
# warp stall reasons (OUT_stalls.csv), the per-SASS-instruction source page with its samples when
# SECTIONS has SourceCounters (OUT_source.csv.gz: gzipped, as one kernel's page reached 10 MB and the
# tree that travels to the GPU is capped at 64 MiB; scripts/ncu_sass_stalls.py reads it as it is), one
# line per kernel from scripts/ncu_stall_table.py; the .ncu-rep itself is removed (too large to bring
# back).
#
#   scripts/ncu_kernels.sh OUT KERNEL_REGEX COUNT TIMEOUT "SECTIONS" METRICS -- COMMAND [ARGS...]
#
# SECTIONS: ncu --section options, e.g. "--section WarpStateStats --section SourceCounters"; METRICS:
# comma-separated (gpu__time_duration.sum first); the stall metrics are added. The command's output
# goes to OUT.log. Environment knobs for the command: set them on this script.
set -uo pipefail
if [ $# -lt 8 ] || [ "$7" != "--" ]; then
  sed -n '2,12p' "$0" >&2
  exit 2
fi
out=$1 regex=$2 count=$3 limit=$4 sections=$5 metrics=$6; shift 7
root=$(cd "$(dirname "$0")/.." && pwd)
all="${metrics},$(python3 "$root/scripts/ncu_stall_table.py" --stall-metrics)"
read -r -a sec <<< "$sections"
timeout "$limit" ncu --clock-control none --cache-control all "${sec[@]}" --metrics "$all" -k "regex:$regex" \
  -c "$count" -o "$out" "$@" > "$out.log" 2>&1
rc=$?
ncu --import "$out.ncu-rep" --page details --print-details all > "${out}_details.txt" 2>&1
ncu --import "$out.ncu-rep" --page raw --csv --metrics "$all" > "${out}_stalls.csv" 2>&1
# Without SourceCounters the source page is the SASS listing alone (session 53's three pages, 1.5 MB
# compressed, had no sample column): scripts/sass.sh gives that here, so the page is left out.
if [[ " $sections " == *" SourceCounters "* ]]; then
  ncu --import "$out.ncu-rep" --page source --print-source sass --csv 2>&1 | gzip -9 > "${out}_source.csv.gz"
else
  echo "ncu_kernels: no SourceCounters section: no per-instruction page" >&2
fi
python3 "$root/scripts/ncu_stall_table.py" "${out}_stalls.csv"
rm -f "$out.ncu-rep"
exit $rc
