#!/usr/bin/env python3
"""Summarise a Mega-kernel timeline (MEGAMOE_MEGA_TRACE=file.csv, docs/TUNING.md).

Per work-item kind (FC1, FC2, combine): how many items, when they were claimed, when their first
weight step was ready and when they finished (first / median / last, microseconds from the first
CTA's entry); the median time from the route plan to the first item; and, per CTA, the gap
between the end of one item and the start of the next. Used for docs/BENCHMARKS.md ("The Mega
kernel at T = 1").

    python3 scripts/mega_trace_summary.py trace.csv [more.csv ...]
"""
import argparse
import csv
import statistics

KINDS = {0: "quant", 1: "fc1", 2: "fc2", 3: "combine", 4: "return"}


def us(v):
    return v / 1e3


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")


def summarise(path):
    # Rows with a negative claim time are left over from an earlier launch in the trace buffer.
    rows = [r for r in csv.DictReader(open(path)) if int(r["claimed_ns"]) >= 0]
    if not rows:
        return f"{path}: no items"
    out = [f"== {path}"]
    plan = [int(r["plan_ns"]) for r in rows if int(r["plan_ns"]) >= 0]
    by_cta = {}
    for r in rows:
        by_cta.setdefault(r["cta"], []).append(r)
    starts, gaps = [], []
    for items in by_cta.values():
        items.sort(key=lambda r: int(r["claimed_ns"]))
        starts.append(int(items[0]["claimed_ns"]))
        gaps += [int(b["claimed_ns"]) - int(a["done_ns"]) for a, b in zip(items, items[1:])]
    out.append(f"  plan built (median) {us(statistics.median(plan)):.1f} us, first item (median) "
               f"{us(statistics.median(starts)):.1f} us, item end -> next item start (median) "
               f"{us(statistics.median(gaps)) if gaps else float('nan'):.2f} us")
    for kind in sorted({int(r["kind"]) for r in rows}):
        rs = [r for r in rows if int(r["kind"]) == kind]
        claimed = [int(r["claimed_ns"]) for r in rs]
        first = [int(r["first_step_ns"]) for r in rs if int(r["first_step_ns"]) >= 0]
        done = [int(r["done_ns"]) for r in rs]
        line = f"  {KINDS.get(kind, kind):8s} n={len(rs):4d} claimed {us(min(claimed)):6.1f}..{us(max(claimed)):6.1f}"
        if first:
            line += f"  first step {us(min(first)):6.1f}/{us(pct(first, .5)):6.1f}/{us(max(first)):6.1f}"
        line += f"  done {us(min(done)):6.1f}/{us(pct(done, .5)):6.1f}/{us(max(done)):6.1f} us"
        out.append(line)
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("traces", nargs="+", help="CSV files written by MEGAMOE_MEGA_TRACE")
    for path in ap.parse_args().traces:
        print(summarise(path))


if __name__ == "__main__":
    main()
