#!/usr/bin/env python3
"""Merge `megamoe tune` results into the shipped tactic table (src/core/tactics_default.cpp).

A tune run writes its entries to a cache file (`megamoe tune ... --cache tune.json`). This copies
their winners and measured times, bucket by bucket, into the matching entries of the shipped
table -- same GPU, SM count, backend, recipe, activation, bias and shape -- and leaves every other
bucket and entry as it was. The table's rule (tests/cpu/test_tactics.cpp) holds afterwards: each
bucket's tactic is the fastest of the times stored with it. An entry of the tune without a match
in the table is an error unless --add is given (a new shape then gets its own entry).

    python3 scripts/merge_tune.py tune_bf16.json [more.json ...] [--buckets 1-64]
        [--keep bf16:7168:1 ...] [--min-gain 0.02] [--add] [--dry-run]

--keep RECIPE:HIDDEN:BUCKET leaves that bucket of that recipe and hidden size as it was (e.g. a
cell where the tune and the bench disagree; say why in docs/BENCHMARKS.md).
--min-gain G leaves a bucket as it was unless the tune timed the table's tactic at least (1 + G)
times its winner's time (near-ties between tactics move between processes by a few percent, so a
merge of every tune winner adds noise to the table; a bucket whose tactic the tune did not time
always takes the winner). A bucket past 8192 that the entry does not name holds the tactic the
layer runs there, the bucket below's (core/tactics.h): the tune's winner replaces it on the same rule.

A tune on another GPU with the same SM count as a complete entry of the table (e.g. an H100 beside the
H200's entries) makes, with --add, a partial entry for that GPU: a GPU's shipped entry may leave
buckets empty, and those run the complete entry's tactic (core/tactics.cpp). Its buckets are the
tune's winners, except where the complete entry's tactic is within --min-gain of the winner in this
tune: those stay empty, so the GPU keeps running the complete entry's tactic there.
"""
import argparse
import json
import os
import sys

TABLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "core", "tactics_default.cpp")
OPEN, CLOSE = 'R"json(', ')json"'
KEY = ("gpu", "sm_count", "backend", "recipe", "activation", "bias", "experts", "top_k", "hidden", "intermediate")


def bucket_range(text):
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def complete(entry):
    """Whether the entry names every bucket 1..8192 (what may serve another GPU's empty buckets)."""
    return all(str(1 << b) in entry["tactics"] for b in range(14))


def sibling_of(table, entry):
    """The first complete entry of another GPU with the same SM count and layer (core/tactics.cpp)."""
    layer = [k for k in KEY if k != "gpu"]
    for e in table["entries"]:
        if e is not entry and e["gpu"] != entry["gpu"] and complete(e) and all(e[k] == entry[k] for k in layer):
            return e
    return None


def effective_tactic(entry, bucket, sibling=None):
    """The tactic a layer runs in `bucket` from this entry: its own, else the sibling's (a complete
    entry of another GPU with the same SM count), else for buckets past 8192 the bucket below's
    (core/tactics.h, with_large_buckets_inherited); None when none names one."""
    while True:
        name = entry["tactics"].get(str(bucket))
        if name is None and sibling is not None:
            name = sibling["tactics"].get(str(bucket))
        if name is not None or bucket <= 8192:
            return name
        bucket //= 2


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tunes", nargs="+", help="tactic cache files written by `megamoe tune --cache`")
    ap.add_argument("--buckets", type=bucket_range, default=(1, 32768), help="token buckets to merge, e.g. 1-64")
    ap.add_argument("--keep", action="append", default=[], help="RECIPE:HIDDEN:BUCKET to leave unchanged")
    ap.add_argument("--min-gain", type=float, default=0.0,
                    help="change a bucket only if the tune's winner beats the table's tactic by this fraction")
    ap.add_argument("--add", action="store_true", help="add tune entries that have no match in the table")
    ap.add_argument("--dry-run", action="store_true", help="print the changes, write nothing")
    ap.add_argument("--table", default=TABLE)
    args = ap.parse_args()

    source = open(args.table).read()
    begin, end = source.index(OPEN) + len(OPEN), source.index(CLOSE)
    table = json.loads(source[begin:end])
    keep = set()
    for k in args.keep:
        recipe, hidden, bucket = k.split(":")
        keep.add((recipe, int(hidden), bucket))
    lo, hi = args.buckets
    changes = held = 0
    for path in args.tunes:
        for tuned in json.load(open(path))["entries"]:
            key = tuple(tuned[k] for k in KEY)
            matches = [e for e in table["entries"] if tuple(e[k] for k in KEY) == key]
            if len(matches) > 1:
                sys.exit(f"{args.table}: {len(matches)} entries for {key}")
            if not matches:
                if not args.add:
                    sys.exit(f"{path}: no shipped entry for {key} (--add makes one)")
                entry = {k: tuned[k] for k in KEY}
                entry.update({"driver": 0, "library": "*", "tactics": {}, "measured_ms": {}})
                table["entries"].append(entry)
                matches = [entry]
            entry = matches[0]
            sibling = None if complete(entry) else sibling_of(table, entry)
            for bucket, tactic in tuned["tactics"].items():
                if not lo <= int(bucket) <= hi or (tuned["recipe"], tuned["hidden"], bucket) in keep:
                    continue
                before = effective_tactic(entry, int(bucket), sibling)
                times = tuned["measured_ms"][bucket]
                if before != tactic and before in times and times[before] < (1.0 + args.min_gain) * times[tactic]:
                    held += 1
                    print(f"{tuned['gpu'][:22]:22s} {tuned['recipe']:12s} H={tuned['hidden']:5d} T={bucket:>5s}: {before} kept "
                          f"({tactic} only {times[before] / times[tactic]:.3f}x faster in the tune)")
                    continue
                if before != tactic:
                    changes += 1
                    print(f"{tuned['gpu'][:22]:22s} {tuned['recipe']:12s} H={tuned['hidden']:5d} T={bucket:>5s}: {before} -> "
                          f"{tactic}" + (f" ({times[before] / times[tactic]:.3f}x in the tune)" if before in times else ""))
                entry["tactics"][bucket] = tactic
                entry["measured_ms"][bucket] = tuned["measured_ms"][bucket]
            entry["tactics"] = dict(sorted(entry["tactics"].items(), key=lambda kv: int(kv[0])))
            entry["measured_ms"] = dict(sorted(entry["measured_ms"].items(), key=lambda kv: int(kv[0])))
    table["entries"] = [e for e in table["entries"] if e["tactics"]]  # a new entry that kept no bucket
    print(f"{changes} bucket(s) changed their tactic" + (f", {held} kept by --min-gain" if held else ""))
    if not args.dry_run:
        old = source[begin:end]
        lead, trail = old[: len(old) - len(old.lstrip())], old[len(old.rstrip()):]
        open(args.table, "w").write(source[:begin] + lead + json.dumps(table, indent=1) + trail + source[end:])


if __name__ == "__main__":
    main()
