#!/usr/bin/env python3
"""Per-cell markdown table of `bench/run_bench.py` records: one backend against others and the baselines.

For every (preset, tokens) cell of the backend named by --ours: its median (and the tactic it ran),
the weight-stream floor, then for each --vs backend and each baseline in the records (PyTorch,
vLLM's Triton fused MoE, triton_kernels, ...) its median and the ratio other / ours (> 1: ours is
faster). Then one summary line per comparison: the geometric mean of the ratios, their range and
the cells where ours is faster. Used for the tables in docs/BENCHMARKS.md.

    python3 scripts/bench_table.py bf16_T1.json bf16_T128.json --ours sm90_bf16_bf16_bf16_mega \\
        --vs sm90_bf16_bf16_bf16_split [--max-tokens 64]
"""
import argparse
import json
import math


def load_records(paths):
    out = []
    for path in paths:
        data = json.load(open(path))
        out += data.get("records", data) if isinstance(data, dict) else data
    return out


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values))


def build(records, ours, versus, max_tokens=None):
    """Returns (header, rows, summary): rows are lists of cells, summary maps a comparison's name
    to (geomean, min, max, faster, cells). Raises ValueError when --ours has no records."""
    cells = {}  # (model, tokens) -> {backend: record}
    for r in records:
        if max_tokens is not None and r["tokens"] > max_tokens:
            continue
        cells.setdefault((r["model"], r["tokens"]), {})[r["backend"]] = r
    keys = sorted((k for k, v in cells.items() if ours in v), key=lambda k: (k[0], k[1]))
    if not keys:
        raise ValueError(f"no records of backend '{ours}' (backends present: "
                         f"{sorted({b for v in cells.values() for b in v})})")
    baselines = []
    for k in keys:
        for b in cells[k][ours].get("baselines", []):
            if b["name"] not in baselines:
                baselines.append(b["name"])
    names = list(versus) + baselines
    header = ["preset", "T", "ours ms (tactic)", "floor ms"]
    for n in names:
        header += [f"{n} ms", f"ours vs {n}"]
    ratios = {n: [] for n in names}
    rows = []
    for model, tokens in keys:
        mine = cells[(model, tokens)][ours]
        row = [model, str(tokens), f"{mine['median_ms']:.4f} ({mine.get('tactic', '')})", f"{mine['floor_ms']:.4f}"]
        # A baseline that failed in this cell (e.g. out of memory) carries "error" instead of a time.
        base = {b["name"]: b["median_ms"] for b in mine.get("baselines", []) if "median_ms" in b}
        for n in names:
            other = cells[(model, tokens)].get(n, {}).get("median_ms") if n in versus else base.get(n)
            if other is None:
                row += ["-", "-"]
                continue
            ratio = other / mine["median_ms"]
            ratios[n].append(ratio)
            row += [f"{other:.4f}", f"{ratio:.2f}x"]
        rows.append(row)
    summary = {n: (geomean(v), min(v), max(v), sum(x > 1 for x in v), len(v)) for n, v in ratios.items() if v}
    return header, rows, summary


def markdown(header, rows, summary):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines.append("")
    for n, (g, lo, hi, wins, count) in summary.items():
        lines.append(f"ours vs {n}: geomean {g:.3f}x ({lo:.3f}-{hi:.3f}), faster in {wins}/{count} cells")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json", nargs="+", help="bench/run_bench.py --out files")
    ap.add_argument("--ours", required=True, help="the backend whose cells make the rows")
    ap.add_argument("--vs", action="append", default=[], help="another backend in the records (repeatable)")
    ap.add_argument("--max-tokens", type=int, default=None, help="only cells with T <= this")
    a = ap.parse_args()
    try:
        print(markdown(*build(load_records(a.json), a.ours, a.vs, a.max_tokens)))
    except ValueError as e:
        ap.error(str(e))


if __name__ == "__main__":
    main()
