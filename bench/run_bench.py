#!/usr/bin/env python3
"""One benchmark job: `megamoe bench` and the PyTorch baseline on the same GPU, same
shapes, seeds and routing, merged into one JSON (a list of records, one per cell, each
with `baselines`), plus a table with the speedups. Usage:

  python3 bench/run_bench.py --build build --out bench/results/NAME.json [--presets ..] [--tokens ..]

For the W4A16 recipes the job has two baselines: the PyTorch dequantize-then-grouped_mm
pipeline (bench/anchors/torch_moe.py) and megamoe's own bf16 backend (`megamoe bench
--recipe bf16` on the same presets, tokens, seeds and routing): a 4-bit format has to beat
the plain bf16 weights it replaces, not only PyTorch.
"""
import argparse
import datetime
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
W4A16_RECIPES = ("w4a16_mxfp4", "w4a16_nvfp4")


def geomean_line(logs, what):
    return (f"geomean speedup over {what}: {math.exp(sum(logs) / len(logs)):.2f}x "
            f"({sum(1 for l in logs if l > 0)}/{len(logs)} cells faster)")


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
    bf16_json = args.out + ".megamoe_bf16.tmp"
    w4a16 = args.recipe in W4A16_RECIPES
    runs = [(args.recipe, mine_json)] + ([("bf16", bf16_json)] if w4a16 else [])
    for recipe, path in runs:
        cmd = [os.path.join(args.build, "megamoe"), "bench", "--presets", args.presets, "--tokens", args.tokens,
               "--iters", args.iters, "--routing", args.routing, "--recipe", recipe, "--json", path]
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
    torch_names = {b["name"] for b in base}
    if w4a16:
        # Our bf16 backend on the same cells, as a baseline record like the PyTorch one.
        for r in json.load(open(bf16_json)):
            style = r["backend"].rsplit("_", 1)[-1]   # split / mega
            base.append({"model": r["model"], "tokens": r["tokens"], "name": f"megamoe_bf16_{style}",
                         "backend": r["backend"], "median_ms": r["median_ms"], "floor_ms": r["floor_ms"],
                         "routing": r["routing"]})
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
    for path in (mine_json, base_json) + ((bf16_json,) if w4a16 else ()):
        os.remove(path)

    def baseline_ms(r, torch_side):
        ok = [b["median_ms"] for b in r["baselines"] if "median_ms" in b and (b["name"] in torch_names) == torch_side]
        return ok[0] if ok else float("nan")

    head = f"{'model':14s} {'T':>5s} {'megamoe ms':>11s} {'floor ms':>9s} {'%floor':>7s} {'torch ms':>9s} {'speedup':>8s}"
    print(head + (f" {'bf16 ms':>9s} {'vs bf16':>8s}" if w4a16 else ""))
    logs, logs_bf16 = [], []
    for r in mine:
        t = baseline_ms(r, True)
        sp = t / r["median_ms"]
        if not math.isnan(t):
            logs.append(math.log(sp))
        line = (f"{r['model']:14s} {r['tokens']:5d} {r['median_ms']:11.4f} {r['floor_ms']:9.4f} "
                f"{100 * r['floor_ms'] / r['median_ms']:6.1f}% {t:9.4f} {sp:7.2f}x")
        if w4a16:
            tb = baseline_ms(r, False)
            if not math.isnan(tb):
                logs_bf16.append(math.log(tb / r["median_ms"]))
            line += f" {tb:9.4f} {tb / r['median_ms']:7.2f}x"
        print(line)
    if logs:
        print(geomean_line(logs, "the PyTorch baseline"))
    if logs_bf16:
        print(geomean_line(logs_bf16, "megamoe bf16"))


if __name__ == "__main__":
    main()
