#!/usr/bin/env python3
"""Per-replay kernel timeline of the CUDA graphs in a ktrace CSV (scripts/ktrace/ktrace.c).

For each graph replayed at least --min-replays times: the replays (its kernels grouped by the
restart of its node sequence), then per kernel position the median duration and the median gap
from the previous kernel's end (negative: it started before that kernel ended, e.g. by PDL), the
median span (first start to last end), the median sum of kernel durations, and the median lead
(the end of the last memset before the replay to its first kernel: graph launch latency, in the
time that the benches' events bracket). All times in microseconds.

    python3 scripts/ktrace/timeline.py run.csv[.gz] [--min-replays 10]

Kernel names are demangled with c++filt when it is on the PATH and shortened to the function's
own name (our fp8 TMA kernel with its geometry and output: fp8_tma_kernel<wg2,out1>).
"""
import argparse
import csv
import gzip
import re
import statistics
import subprocess
import sys
from collections import defaultdict


def demangle_all(names):
    """Mangled name -> demangled, through one c++filt call (names unchanged without c++filt)."""
    names = sorted(set(names))
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return {n: n for n in names}
    lines = out.split("\n")
    return {n: (lines[i] if i < len(lines) and lines[i] else n) for i, n in enumerate(names)}


def base_name(text):
    """The function's own name in a demangled signature: the identifier before its template
    arguments or parameters (at nesting depth 0), without namespaces."""
    text = text.replace("(anonymous namespace)::", "")
    if text.startswith("void "):
        text = text[5:]
    depth = 0
    for i, ch in enumerate(text):
        if ch in "<(" and depth == 0:
            return text[:i].split("::")[-1], text[i:]
        depth += ch in "<("
        depth -= ch in ">)"
    return text.split("::")[-1], ""


def short(name, demangled=None):
    d = demangled or name
    if "gemm_pdl_kernel" in d:  # CUTLASS's kernels: their mainloop's stage count
        m = re.search(r"MainloopSm90\w+<(\d+)", d)
        return "cutlass_gemm" + (f"<{m.group(1)} stages>" if m else "")
    base, rest = base_name(d)
    if base == "fp8_tma_kernel":  # geometry and output of our fp8 TMA kernel
        geo = re.search(r"Geometry<(\d)>", rest)
        out = re.search(r"Out\)(\d)", rest)
        base += f"<wg{geo.group(1) if geo else '?'},out{out.group(1) if out else '?'}>"
    return base[:44] if base else d[-44:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--min-replays", type=int, default=10)
    args = ap.parse_args()
    opener = gzip.open if args.csv.endswith(".gz") else open
    rows = list(csv.DictReader(opener(args.csv, "rt")))
    for r in rows:
        r["start"], r["end"] = int(r["start_ns"]), int(r["end_ns"])
        r["graph"], r["node"] = int(r["graph"]), int(r["node"])
    rows.sort(key=lambda r: r["start"])
    demangled = demangle_all(r["name"] for r in rows if r["kind"] == "kernel")
    memset_ends = [r["end"] for r in rows if r["kind"] == "memset" or "fill" in r["name"].lower()]
    by_graph = defaultdict(list)
    for r in rows:
        if r["kind"] == "kernel" and r["graph"] != 0:
            by_graph[r["graph"]].append(r)
    for g, ks in sorted(by_graph.items()):
        first = ks[0]["node"]
        replays, cur = [], []
        for k in ks:
            if k["node"] == first and cur:
                replays.append(cur)
                cur = []
            cur.append(k)
        if cur:
            replays.append(cur)
        n = statistics.mode(len(rp) for rp in replays)
        replays = [rp for rp in replays if len(rp) == n]
        if len(replays) < args.min_replays:
            continue
        print(f"graph {g}: {len(replays)} replays of {n} kernels")
        print(f"  {'#':>2} {'kernel':<44} {'grid':>6} {'dur us':>9} {'gap us':>8}")
        for i in range(n):
            dur = statistics.median((rp[i]["end"] - rp[i]["start"]) / 1e3 for rp in replays)
            gap = statistics.median((rp[i]["start"] - rp[i - 1]["end"]) / 1e3 for rp in replays) if i else 0.0
            k = replays[0][i]
            print(f"  {i:>2} {short(k['name'], demangled.get(k['name'])):<44} {k['grid_x']:>6} {dur:>9.1f} {gap:>8.1f}")
        span = statistics.median((max(k["end"] for k in rp) - rp[0]["start"]) / 1e3 for rp in replays)
        busy = statistics.median(sum(k["end"] - k["start"] for k in rp) / 1e3 for rp in replays)
        leads = []
        for rp in replays:
            before = [e for e in memset_ends if e <= rp[0]["start"]]
            if before:
                leads.append((rp[0]["start"] - before[-1]) / 1e3)
        lead = f"{statistics.median(leads):.1f}" if leads else "n/a"
        print(f"  span {span:.1f} us, kernels {busy:.1f} us, lead (last memset/fill end -> first kernel) {lead} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
