#!/usr/bin/env python3
"""Plots a bench JSON (bench/run_bench.py output): latency and % of floor against tokens,
one panel pair per model, with the floor and the baselines drawn.
  python3 bench/plot.py bench/results/X.json -o bench/results/X.png
"""
import argparse
import json

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args()
    recs = json.load(open(args.json))
    models = list(dict.fromkeys(r["model"] for r in recs))
    fig, axes = plt.subplots(2, len(models), figsize=(4.5 * len(models), 7), squeeze=False)
    for j, m in enumerate(models):
        rs = sorted((r for r in recs if r["model"] == m), key=lambda r: r["tokens"])
        T = [r["tokens"] for r in rs]
        ax = axes[0][j]
        ax.plot(T, [r["median_ms"] for r in rs], "o-", label=rs[0]["backend"])
        ax.plot(T, [r["floor_ms"] for r in rs], "k--", label="floor")
        names = sorted({b["name"] for r in rs for b in r.get("baselines", [])})
        for n in names:
            pts = [(r["tokens"], b["median_ms"]) for r in rs for b in r.get("baselines", [])
                   if b["name"] == n and "median_ms" in b]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "s:", label=n)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(m)
        ax.set_ylabel("ms")
        ax.legend(fontsize=7)
        ax2 = axes[1][j]
        ax2.plot(T, [100 * r["floor_ms"] / r["median_ms"] for r in rs], "o-")
        ax2.set_xscale("log", base=2)
        ax2.set_ylim(0, 105)
        ax2.set_xlabel("tokens")
        ax2.set_ylabel("% of floor")
    fig.suptitle(f"{recs[0]['gpu']} commit {recs[0]['commit']}")
    fig.tight_layout()
    fig.savefig(args.out, dpi=90)


if __name__ == "__main__":
    main()
