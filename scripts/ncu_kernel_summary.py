#!/usr/bin/env python3
"""Per-kernel medians of an ncu text report of repeated forwards.

`ncu --metrics gpu__time_duration.sum megamoe run --recipe <r> --preset <p> --tokens <T> --no-check`
profiles every kernel of every forward the run makes (warm-up and timed ones). This prints, for the
kernels of one forward in launch order, the median duration over the forwards; a forward starts at
each launch of the kernel whose name contains --first (the route plan's first kernel by default).
Synthetic weight fills before the first forward are left out. Used for
bench/results/2026-12-02_split_glue_ncu_T8192/summary.txt.

    python3 scripts/ncu_kernel_summary.py ncu_fp8_block_deepseek-v3.txt [more ...]
"""
import argparse
import gzip
import re
import statistics


def kernels(text):
    """(short name, microseconds) per profiled kernel, in order."""
    out = []
    for block in re.split(r"\n  (?=\S)", text):
        m = re.search(r"gpu__time_duration\.sum\s+(\S+)\s+([\d.,]+)", block)
        if not m:
            continue
        name = block.split("(")[0].strip().replace("<unnamed>", "")
        name = re.sub(r"<.*", "", name).split("::")[-1]
        scale = {"ns": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}.get(m.group(1), 1.0)
        out.append((name, float(m.group(2).replace(",", "")) * scale))
    return out


def summarise(path, first):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        seq = kernels(f.read())
    starts = [i for i, (name, _) in enumerate(seq) if first in name]
    if len(starts) < 2:
        return f"{path}: fewer than two forwards (no second '{first}' kernel)"
    period = starts[1] - starts[0]
    lines = [f"{path} (median over {len(starts)} forwards, us)"]
    total = 0.0
    for j in range(period):
        values = [seq[i + j][1] for i in starts if i + j < len(seq)]
        med = statistics.median(values)
        total += med
        lines.append(f"  {med:9.1f}  {seq[starts[0] + j][0]}")
    lines.append(f"  {total:9.1f}  (sum)")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+", help="ncu text reports (.txt or .txt.gz)")
    ap.add_argument("--first", default="route_plan_count", help="name part of each forward's first kernel")
    args = ap.parse_args()
    for path in args.reports:
        print(summarise(path, args.first))


if __name__ == "__main__":
    main()
