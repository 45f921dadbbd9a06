#!/usr/bin/env python3
"""Compare two builds' `megamoe bench --json` records from one A/B job (docs/BENCHMARKS.md).

The job writes, per configuration (e.g. recipe and tactic) and repetition, one file per build:
DIR/<A>_<config>_r<rep>.json and DIR/<B>_<config>_r<rep>.json (the builds alternated). Per
configuration and (model, tokens) cell this prints the best median over the repetitions of each
build and the speed-up A / B (> 1: B is faster), then the geometric mean per configuration and
over every cell.

With two or more repetitions a cell also shows each build's spread (its slowest repetition over its
fastest, minus one) and is marked "within the rounds' spread" when the two builds differ by no more
than the larger spread: the repetitions of one build disagree as much as the builds do, so the cell
does not decide between them. Large-T cells run at the GPU's power cap, whose clock moves a process
by a few percent (docs/BENCHMARKS.md, session 76).

    python3 scripts/ab_compare.py DIR [A [B]]      # default A = base, B = new
"""
import argparse
import glob
import json
import math
import os


def records(path):
    data = json.load(open(path))
    return data.get("records", data) if isinstance(data, dict) else data


def rep_medians(directory, build, config):
    """(model, tokens) -> the cell's median_ms in each repetition of one build."""
    reps = {}
    for path in sorted(glob.glob(os.path.join(directory, f"{build}_{config}_r*.json"))):
        for r in records(path):
            reps.setdefault((r["model"], r["tokens"]), []).append(r["median_ms"])
    return reps


def spread(values):
    """The slowest repetition over the fastest, minus one (0 for one repetition)."""
    return max(values) / min(values) - 1.0


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("a", nargs="?", default="base")
    ap.add_argument("b", nargs="?", default="new")
    args = ap.parse_args()
    prefix = os.path.join(args.dir, args.a + "_")
    configs = sorted({p[len(prefix):].rsplit("_r", 1)[0] for p in glob.glob(prefix + "*_r*.json")})
    every, unresolved = [], 0
    for config in configs:
        a, b = rep_medians(args.dir, args.a, config), rep_medians(args.dir, args.b, config)
        ratios = []
        print(f"== {config}")
        for key in sorted(k for k in a if k in b):
            ratio = min(a[key]) / min(b[key])
            ratios.append(ratio)
            line = (f"  {key[0]:16s} T={key[1]:5d} {args.a} {min(a[key]) * 1e3:9.1f} us  {args.b} {min(b[key]) * 1e3:9.1f} us"
                    f"  speed-up {ratio:.3f}")
            if len(a[key]) > 1 or len(b[key]) > 1:
                sa, sb = spread(a[key]), spread(b[key])
                line += f"  spread {sa * 100:.1f}% / {sb * 100:.1f}%"
                if abs(ratio - 1.0) <= max(sa, sb):
                    line += "  within the rounds' spread"
                    unresolved += 1
            print(line)
        if ratios:
            every += ratios
            print(f"  geomean {geomean(ratios):.3f} min {min(ratios):.3f} max {max(ratios):.3f}")
    if every:
        print(f"ALL cells: {len(every)}, geomean {geomean(every):.3f}"
              + (f", {unresolved} within the rounds' spread" if unresolved else ""))


if __name__ == "__main__":
    main()
