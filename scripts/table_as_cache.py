#!/usr/bin/env python3
"""Write the shipped tactic table (src/core/tactics_default.cpp) as a tactic cache for one GPU: for every
layer, the entry that GPU runs from the shipped defaults (its own entry with the buckets it leaves
empty taken from a complete entry of another GPU with the same SM count, or that complete entry
alone), keyed to the GPU, driver and megamoe version given, so that `MEGAMOE_TACTIC_CACHE=<file>` makes
a binary with another table run this one. The A/B of new table entries on the GPU
(bench/results/2026-12-05_session53/job_ab_h100_table.sh) compares against it.

    python3 scripts/table_as_cache.py --gpu "NVIDIA H100 80GB HBM3" --driver 13000 --out old_table.json
        [--sm-count 132] [--library 0.1.0] [--table src/core/tactics_default.cpp]

The driver and version must be the ones `megamoe tune` records on that machine (a cache entry matches
only its own machine); the GPU's tune JSON shows them.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from merge_tune import CLOSE, KEY, OPEN, TABLE, sibling_of  # noqa: E402

LAYER = [k for k in KEY if k not in ("gpu", "sm_count")]


def by_bucket(d):
    return dict(sorted(d.items(), key=lambda kv: int(kv[0])))


def served_entries(table, gpu, sm_count):
    """The shipped entries as `gpu` runs them, one per layer (core/tactics.cpp's lookup): its own
    entry with the empty buckets taken from the complete sibling (merge_tune.sibling_of), or the
    sibling alone."""
    layers = []
    for e in table["entries"]:
        layer = tuple(e[k] for k in LAYER)
        if e["sm_count"] == sm_count and layer not in layers:
            layers.append(layer)
    out = []
    for layer in layers:
        probe = dict(zip(LAYER, layer), gpu=gpu, sm_count=sm_count)
        own = next((e for e in table["entries"] if all(e[k] == probe[k] for k in KEY)), None)
        sibling = sibling_of(table, probe)
        if own is None and sibling is None:
            continue
        entry = json.loads(json.dumps(own if own is not None else sibling))
        if own is not None and sibling is not None:
            for bucket, tactic in sibling["tactics"].items():
                if bucket not in entry["tactics"]:
                    entry["tactics"][bucket] = tactic
                    entry["measured_ms"][bucket] = sibling["measured_ms"].get(bucket, {})
        entry["tactics"], entry["measured_ms"] = by_bucket(entry["tactics"]), by_bucket(entry["measured_ms"])
        out.append(entry)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", required=True, help="the GPU's name as CUDA reports it")
    ap.add_argument("--driver", type=int, required=True, help="cudaDriverGetVersion on that machine, e.g. 13000")
    ap.add_argument("--sm-count", type=int, default=132)
    ap.add_argument("--library", default="0.1.0", help="the megamoe version string of the binary")
    ap.add_argument("--table", default=TABLE)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    text = open(args.table).read()
    table = json.loads(text[text.index(OPEN) + len(OPEN):text.index(CLOSE)])
    entries = served_entries(table, args.gpu, args.sm_count)
    for e in entries:
        e.update(gpu=args.gpu, sm_count=args.sm_count, driver=args.driver, library=args.library)
    json.dump({"format": table["format"], "version": table["version"], "entries": entries}, open(args.out, "w"),
              indent=1)
    print(f"{args.out}: {len(entries)} entries for {args.gpu}")


if __name__ == "__main__":
    main()
