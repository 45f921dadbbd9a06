#!/usr/bin/env python3
"""Summarise ncu's per-instruction warp-stall samples of one kernel.

Input: `ncu --import R.ncu-rep --page source --csv --print-source sass > R.csv` (gzip allowed), from a
report taken with `--section SourceCounters`. Prints the kernel's stall reasons as shares of all
samples, the instructions with the most samples, and, with --loop, the instructions executed about as
often as the hottest wgmma/mma (the main loop), in address order, each with its samples and its two
leading stall reasons. Used for docs/BENCHMARKS.md (2026-12-03, "fp8_block TMA kernel in CUTLASS's
step order").

    python3 scripts/ncu_sass_stalls.py R.csv[.gz] [--top 14] [--loop [--min-ratio 0.9]]
"""
import argparse
import collections
import csv
import gzip


def num(text):
    text = (text or "").replace(",", "")
    return int(text) if text.isdigit() else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv")
    ap.add_argument("--top", type=int, default=14)
    ap.add_argument("--loop", action="store_true", help="print the main loop's instructions")
    ap.add_argument("--min-ratio", type=float, default=0.9,
                    help="--loop: executed at least this fraction of the hottest MMA's count")
    args = ap.parse_args()
    opener = gzip.open if args.csv.endswith(".gz") else open
    lines = opener(args.csv, "rt").read().splitlines()
    rows = list(csv.DictReader(lines[1:]))  # line 0 names the kernel
    reasons = [c for c in rows[0] if c.startswith("stall_") and "Not Issued" not in c]
    samples = lambda r: num(r["Warp Stall Sampling (All Samples)"])
    total = sum(samples(r) for r in rows)
    print(lines[0][:160])
    by_reason = collections.Counter()
    for r in rows:
        for c in reasons:
            by_reason[c] += num(r[c])
    print(f"samples {total}")
    for c, v in by_reason.most_common(10):
        print(f"  {c[6:]:22s} {100 * v / total:5.1f}%")

    def line(r, extra=""):
        top2 = sorted(((num(r[c]), c[6:]) for c in reasons), reverse=True)[:2]
        why = " ".join(f"{n}={v}" for v, n in top2 if v)
        return f"{extra}{100 * samples(r) / total:5.2f}%  {r['Source'].strip()[:60]:60s} {why}"

    print("hottest instructions:")
    for r in sorted(rows, key=samples, reverse=True)[:args.top]:
        print("  " + line(r))
    if args.loop:
        executed = lambda r: num(r["Instructions Executed"])
        mma = [executed(r) for r in rows if "GMMA" in r["Source"] or "HMMA" in r["Source"]]
        ref = max(mma) if mma else max(executed(r) for r in rows)
        body = [r for r in rows if executed(r) >= args.min_ratio * ref]
        print(f"main loop ({len(body)} instructions executed >= {args.min_ratio} x the MMA's count; "
              f"{100 * sum(samples(r) for r in body) / total:.1f}% of the samples):")
        for r in body:
            print("  " + line(r, f"{executed(r) / ref:5.2f}x "))


if __name__ == "__main__":
    main()
