#!/usr/bin/env python3
"""Compare two builds' `megamoe bench --json` records from one A/B job (docs/BENCHMARKS.md).

The job writes, per configuration (e.g. recipe and tactic) and repetition, one file per build:
DIR/<A>_<config>_r<rep>.json and DIR/<B>_<config>_r<rep>.json (the builds alternated). Per
configuration and (model, tokens) cell this prints the best median over the repetitions of each
build and the speed-up A / B (> 1: B is faster), then the geometric mean per configuration and
over every cell.

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


def best_medians(directory, build, config):
    best = {}
    for path in glob.glob(os.path.join(directory, f"{build}_{config}_r*.json")):
        for r in records(path):
            key = (r["model"], r["tokens"])
            best[key] = min(best.get(key, float("inf")), r["median_ms"])
    return best


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
    every = []
    for config in configs:
        a, b = best_medians(args.dir, args.a, config), best_medians(args.dir, args.b, config)
        ratios = []
        print(f"== {config}")
        for key in sorted(k for k in a if k in b):
            ratio = a[key] / b[key]
            ratios.append(ratio)
            print(f"  {key[0]:16s} T={key[1]:5d} {args.a} {a[key] * 1e3:9.1f} us  {args.b} {b[key] * 1e3:9.1f} us"
                  f"  speed-up {ratio:.3f}")
        if ratios:
            every += ratios
            print(f"  geomean {geomean(ratios):.3f} min {min(ratios):.3f} max {max(ratios):.3f}")
    if every:
        print(f"ALL cells: {len(every)}, geomean {geomean(every):.3f}")


if __name__ == "__main__":
    main()
