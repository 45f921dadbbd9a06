#!/usr/bin/env bash
# Runs one command under the CUPTI kernel tracer (ktrace.c) and writes its timeline (timeline.py):
#   scripts/ktrace/trace.sh OUT_PREFIX [VAR=VALUE ...] -- COMMAND [ARGS ...]
# writes OUT_PREFIX.log (the command's output), OUT_PREFIX.csv.gz (every kernel's start / end) and
# OUT_PREFIX.timeline.txt (per-graph medians), and prints the timeline's last 8 lines. Builds
# /tmp/libktrace.so on first use (CUDA's CUPTI, or the pip package nvidia-cuda-cupti's). Exit status:
# the command's (124 on timeout, TRACE_TIMEOUT seconds, default 90).
set -u
out=$1; shift
envs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
CUDA=${CUDA_HOME:-/usr/local/cuda}
CUPTI_PIP=$(python3 -c 'import nvidia.cuda_cupti, os; print(os.path.join(nvidia.cuda_cupti.__path__[0], "lib"))' 2>/dev/null || true)
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -f /tmp/libktrace.so ]; then
  gcc -O2 -shared -fPIC -o /tmp/libktrace.so "$here/ktrace.c" -I"$CUDA/include" -I"$CUDA/extras/CUPTI/include" \
    -L"$CUDA/lib64" -L"$CUDA/extras/CUPTI/lib64" ${CUPTI_PIP:+-L"$CUPTI_PIP"} -lcupti || exit 1
fi
env "${envs[@]}" CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT="$out.csv" \
  LD_LIBRARY_PATH="$CUDA/lib64:$CUDA/extras/CUPTI/lib64${CUPTI_PIP:+:$CUPTI_PIP}:${LD_LIBRARY_PATH:-}" \
  timeout "${TRACE_TIMEOUT:-90}" "$@" > "$out.log" 2>&1
rc=$?
if [ -f "$out.csv" ]; then
  python3 "$here/timeline.py" "$out.csv" > "$out.timeline.txt"
  gzip -f "$out.csv"
  tail -n 8 "$out.timeline.txt"
fi
exit $rc
