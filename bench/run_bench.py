#!/usr/bin/env python3
"""One benchmark job: `megamoe bench` and the PyTorch baseline on the same GPU, same
shapes, seeds and routing, merged into one JSON (a list of records, one per cell, each
with `baselines`), plus a table with the speedups. Usage:

  python3 bench/run_bench.py --build build --out bench/results/NAME.json [--presets ..] [--tokens ..]
"""
import argparse
import datetime
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--presets", default="deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b")
    ap.add_argument("--tokens", default="1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192")
    ap.add_argument("--iters", default="50")
    ap.add_argument("--routing", default="uniform")
    ap.add_argument("--recipe", default="bf16")
    ap.add_argument("--check", action="store_true", help="also compare megamoe with PyTorch per cell")
    args = ap.parse_args()

    mine_json = args.out + ".megamoe.tmp"
    base_json = args.out + ".torch.tmp"
    cmd = [os.path.join(args.build, "megamoe"), "bench", "--presets", args.presets, "--tokens", args.tokens,
           "--iters", args.iters, "--routing", args.routing, "--recipe", args.recipe, "--json", mine_json]
    print("[run_bench]", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)
    cmd = [sys.executable, os.path.join(HERE, "anchors", "torch_moe.py"), "--presets", args.presets, "--tokens",
           args.tokens, "--iters", args.iters, "--routing", args.routing, "--recipe", args.recipe, "--json", base_json]
    if args.check:
        cmd.append("--check")
    print("[run_bench]", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)

    mine = json.load(open(mine_json))
    base = json.load(open(base_json))
    by_cell = {}
    for b in base:
        by_cell.setdefault((b["model"], b["tokens"]), []).append(b)
    date = datetime.date.today().isoformat()
    for r in mine:
        r["date"] = date
        r["baselines"] = [{k: v for k, v in b.items() if k not in ("model", "tokens")}
                          for b in by_cell.get((r["model"], r["tokens"]), [])]
    with open(args.out, "w") as f:
        json.dump(mine, f, indent=1)
    os.remove(mine_json)
    os.remove(base_json)

    print(f"{'model':14s} {'T':>5s} {'megamoe ms':>11s} {'floor ms':>9s} {'%floor':>7s} {'torch ms':>9s} {'speedup':>8s}")
    logs = []
    for r in mine:
        ok = [b for b in r["baselines"] if "median_ms" in b]
        t = ok[0]["median_ms"] if ok else float("nan")
        sp = t / r["median_ms"]
        if ok:
            logs.append(math.log(sp))
        print(f"{r['model']:14s} {r['tokens']:5d} {r['median_ms']:11.4f} {r['floor_ms']:9.4f} "
              f"{100 * r['floor_ms'] / r['median_ms']:6.1f}% {t:9.4f} {sp:7.2f}x")
    if logs:
        print(f"geomean speedup over the PyTorch baseline: {math.exp(sum(logs) / len(logs)):.2f}x "
              f"({sum(1 for l in logs if l > 0)}/{len(logs)} cells faster)")


if __name__ == "__main__":
    main()
