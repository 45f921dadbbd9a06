# Sourced by a GPU-machine job (the `device` tool runs it in the repository root with $OUT set);
# the committed form of bench/results/2026-12-03_fp8_tma_tokens_in_m/jobs/env.sh, which the job
# scripts under bench/results/ sourced as .snap/env.sh:
#   R       $OUT/r, the job's logs and JSON; tarred into $OUT/r.tgz when the job exits (one file to
#           bring back), then removed. The call line must not write $OUT/r.tgz itself after the
#           job: $R is unset in the calling shell, and such a tar replaced every file of session
#           47's five calls with an empty archive
#   BN, BB  build-dn / build-db in the repository root: the new and the base build of an A/B job
#   NCCL_ROOT  empty when the CUDA toolkit has nccl_device.h, else the pip package nvidia-nccl-cu13's
#              folder (then MEGAMOE_NCCL_LIBRARY points at its libnccl)
ROOT=$(pwd)
export R="${OUT:?OUT: the device tool sets it}/r"
mkdir -p "$R"
trap 'tar czf "$OUT/r.tgz" -C "$OUT" r && rm -rf "$R"' EXIT
export BN="$ROOT/build-dn" BB="$ROOT/build-db"
NCCL_ROOT=""
if [ ! -f /usr/local/cuda/include/nccl_device.h ]; then
  NCCL_ROOT="$(python3 -c 'import nvidia.nccl, os; print(nvidia.nccl.__path__[0])' 2>/dev/null || true)"
fi
if [ -n "$NCCL_ROOT" ]; then export MEGAMOE_NCCL_LIBRARY="$NCCL_ROOT/lib/libnccl.so.2"; fi
export NCCL_ROOT

# The start of a job that carries its binaries (.carry/bld.txz: megamoe + megamoe_gpu_tests, packed by
# scripts/pack_carry.sh): the GPU's name into $R/gpu.txt, the job's clock (t0; el = seconds since it,
# left D = seconds to deadline D), the binaries unpacked into B=/tmp/bld. CARRY_BLD names another
# archive under .carry/ (default bld.txz). Exits the job if the archive is missing or broken.
carried_job_start() {
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
  t0=$(date +%s)
  unpack_carry "${CARRY_BLD:-bld.txz}" /tmp/bld
  B=/tmp/bld
}
# One archive under .carry/ unpacked into a folder (a job's second binary, e.g. the base of an A/B
# between two builds): unpack_carry NAME DIR. Exits the job if the archive is missing or broken.
unpack_carry() {
  mkdir -p "$2" && tar xJf ".carry/$1" -C "$2" || { echo "no usable .carry/$1" >&2; exit 1; }
}
el() { echo $(( $(date +%s) - t0 )); }
left() { echo $(( $1 - ($(date +%s) - t0) )); }

# An A/B of named variants (AB_VARIANTS' form: "name=BINARY[@VAR=value...] ...") with scripts/ab_bench.sh,
# two rounds alternating, until DEADLINE seconds into the job: ab_variants "VARIANTS" RUN_TIMEOUT DEADLINE
# "cell=bench args" ...; writes $R/ab/ and $R/ab.txt, prints the comparison's summary lines.
ab_variants() {
  local variants=$1 run_timeout=$2 deadline=$3
  shift 3
  mkdir -p "$R/ab"
  AB_VARIANTS="$variants" RUN_TIMEOUT=$run_timeout scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "$deadline" "$@" \
    > "$R/ab.txt" 2>&1
  grep -E "^==|speed-up|geomean|ALL|deadline" "$R/ab.txt"
}

# An A/B of one environment knob with $B/megamoe (ab_variants until AB_END seconds into the job,
# default 540): knob_ab KNOB "name=value ..." RUN_TIMEOUT "cell=bench args" ...
knob_ab() {
  local knob=$1 values=$2 run_timeout=$3 v variants=""
  shift 3
  for v in $values; do variants+="${v%%=*}=$B/megamoe@$knob=${v#*=} "; done
  ab_variants "$variants" "$run_timeout" "${AB_END:-540}" "$@"
}

# One `megamoe bench` under the kernel tracer (scripts/ktrace/trace.sh): ktrace_bench NAME -- BENCH ARGS...;
# writes $R/tl_NAME.* and $R/b_NAME.json (--iters 50 added), prints the cell's tactic and median and the
# timeline's kernel lines. Environment knobs: set them on the call.
ktrace_bench() {
  local name=$1
  shift 2
  scripts/ktrace/trace.sh "$R/tl_$name" -- $B/megamoe bench "$@" --iters 50 --json "$R/b_$name.json" > /tmp/tl.txt
  echo "== $name rc=$? $(el)s $(python3 -c "import json;x=json.load(open('$R/b_$name.json'))[0];print(x['tactic'],round(x['median_ms']*1000,1),'us')" 2>&1)"
  grep -E "^ +[0-9]+ |span" /tmp/tl.txt
}

# $B/megamoe_gpu_tests in four concurrent shards on the one GPU (the whole binary ran over 200 s in one
# process on an H100): sharded_gpu_tests NAME TIMEOUT [gtest args...]; logs $R/NAME_shard<i>.log, then
# prints their summary lines. Environment knobs: set them on the call (VAR=value sharded_gpu_tests ...).
# stdout line-buffered where stdbuf exists: a shard the timeout kills keeps what it printed (session 52's
# control run lost a killed shard's buffered lines).
sharded_gpu_tests() {
  local name=$1 limit=$2 i lb=""
  shift 2
  command -v stdbuf > /dev/null && lb="stdbuf -oL"
  for i in 0 1 2 3; do
    GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout "$limit" $lb "$B/megamoe_gpu_tests" --gtest_brief=1 "$@" \
      > "$R/${name}_shard$i.log" 2>&1 &
  done
  wait
  echo "$name $(el)s"
  cat "$R/${name}"_shard*.log | grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|tests ran" | head -12
}

# One `megamoe tune` of the job (--iters 50 --rounds 2) until DEADLINE seconds into it (skipped with
# less than 20 s left): tune_until NAME DEADLINE TUNE ARGS...; writes $R/tune_NAME.json (its cache) and
# $R/tune_NAME.txt, prints the exit status and the tune's table lines.
tune_until() {
  local name=$1 d=$2
  shift 2
  [ "$(left "$d")" -lt 20 ] && { echo "skip $name (time)"; return; }
  timeout "$(left "$d")" "$B/megamoe" tune "$@" --iters 50 --rounds 2 --cache "$R/tune_$name.json" > "$R/tune_$name.txt" 2>&1
  echo "tune $name rc=$? $(el)s"; tr '\r' '\n' < "$R/tune_$name.txt" | grep -E "^[a-z0-9.-]+ +[0-9]+ " | cut -c1-160
}

# bench/run_bench.py (every party in one job: ours, PyTorch, the peers its arguments name) on the presets
# $P (default: the four), 50 replays, L2 flushed by a read, until DEADLINE seconds into the job (skipped
# with less than 30 s left): run_bench_until NAME DEADLINE RUN_BENCH ARGS...; writes $R/NAME.json and
# $R/NAME.txt, prints the exit status and the table's last lines.
run_bench_until() {
  local n=$1 d=$2
  shift 2
  [ "$(left "$d")" -lt 30 ] && { echo "skip $n (time)"; return; }
  timeout "$(left "$d")" python3 bench/run_bench.py --build "$B" \
    --presets "${P:-deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b}" --iters 50 --l2-flush read \
    --out "$R/$n.json" "$@" > "$R/$n.txt" 2>&1
  echo "$n rc=$? $(el)s"; grep -v "^\[" "$R/$n.txt" | tail -24 | cut -c1-170
}

# compute-sanitizer over $B/megamoe_gpu_tests: gpu_sanitizers FILTER TIMEOUT TOOL... (e.g. racecheck
# memcheck synccheck); logs $R/san_<tool>.log, one line per tool with its exit status (9: errors found)
# and the tool's summary line.
gpu_sanitizers() {
  local filter=$1 limit=$2 t
  shift 2
  for t in "$@"; do
    timeout "$limit" compute-sanitizer --tool "$t" --error-exitcode 9 "$B/megamoe_gpu_tests" --gtest_brief=1 \
      --gtest_filter="$filter" > "$R/san_$t.log" 2>&1
    echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
  done
}

# `megamoe tune` caches as one tactic cache (their entries concatenated; each tune's entries are
# distinct layers or recipes): merge_tune_caches OUT.json CACHE.json...; prints the entry count. For
# MEGAMOE_TACTIC_CACHE in an A/B against the shipped table, or scripts/merge_tune.py afterwards.
merge_tune_caches() {
  python3 - "$@" <<'PY'
import json, os, sys
out, files = sys.argv[1], [f for f in sys.argv[2:] if os.path.exists(f)]  # an unmatched glob stays literal
merged = None
for f in files:
    d = json.load(open(f))
    if merged is None:
        merged = d
    else:
        merged["entries"] += d["entries"]
if merged:
    json.dump(merged, open(out, "w"), indent=1)
print(out, len(merged["entries"]) if merged else 0, "entries from", len(files), "caches")
PY
}

# `auto` with the shipped table against `auto` with the job's merged tune cache ($R/tuned.json, as
# MEGAMOE_TACTIC_CACHE): tuned_vs_shipped DEADLINE RUN_TIMEOUT "cell=bench args" ... (ab_variants), then
# the tactics the tuned runs used.
tuned_vs_shipped() {
  local d=$1 limit=$2
  shift 2
  ab_variants "shipped=$B/megamoe tuned=$B/megamoe@MEGAMOE_TACTIC_CACHE=$R/tuned.json" "$limit" "$d" "$@"
  ab_tactics tuned
}
# The tactic each cell of one A/B variant ran (its first round's records): ab_tactics VARIANT.
ab_tactics() {
  grep -h '"tactic"' "$R"/ab/"$1"_*_r1.json 2>/dev/null | grep -o '"model": "[^"]*".*"tactic": "[^"]*", "tokens": [0-9]*' |
    sed 's/"recipe".*"tactic"/"tactic"/' | sort | uniq -c
}
