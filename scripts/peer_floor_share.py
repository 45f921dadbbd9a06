#!/usr/bin/env python3
"""Where a peer already runs at the HBM floor: per cell of a `bench/run_bench.py` JSON, our share of
the floor, the peer's, and the speed-up over the peer.

The floor (docs/BENCHMARKS.md) is the larger of touched weight bytes / measured copy bandwidth and
FLOPs / measured MMA rate; no kernel streams weights much faster than the copy rate (100-105% of
the floor is the measured top). So where the peer runs at >= 91% of the floor, a 1.10x lead over it
needs > 100% of the floor: no faster GEMM gets there, only fewer bytes. Those cells are marked.

    python3 scripts/peer_floor_share.py RESULT.json [--peer vllm] [--min-tokens 128]
"""
import argparse
import json


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("--peer", default="vllm", help="substring of the baseline's name (default: vllm)")
    ap.add_argument("--min-tokens", type=int, default=128)
    ap.add_argument("--lead", type=float, default=1.10, help="the lead a target asks for (default 1.10)")
    args = ap.parse_args()
    data = json.load(open(args.json))
    records = data.get("records", data) if isinstance(data, dict) else data
    cells = capped = 0
    for r in records:
        peers = [b for b in r.get("baselines", []) if args.peer in b["name"]]
        if not peers or r["tokens"] < args.min_tokens or not r.get("floor_ms"):
            continue
        peer, floor = peers[0], r["floor_ms"]
        ours_pct, peer_pct = 100 * floor / r["median_ms"], 100 * floor / peer["median_ms"]
        need = peer_pct * args.lead  # our share of the floor that the lead needs
        cap = need > 100.0
        cells += 1
        capped += cap
        print(f"{r['model']:14s} T={r['tokens']:5d}  ours {ours_pct:5.1f}% of the floor  {peer['name']} {peer_pct:5.1f}%  "
              f"speed-up {peer['median_ms'] / r['median_ms']:.3f}" + (f"  ({args.lead:.2f}x needs {need:.0f}%)" if cap else ""))
    print(f"{cells} cells; {capped} where a {args.lead:.2f}x lead needs more than 100% of the floor")


if __name__ == "__main__":
    main()
