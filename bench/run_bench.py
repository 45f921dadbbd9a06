#!/usr/bin/env python3
"""One benchmark job: `megamoe bench` and the PyTorch baseline on the same GPU, same
shapes, seeds and routing, merged into one JSON (a list of records, one per cell, each
with `baselines`), plus a table with the speedups. Usage:

  python3 bench/run_bench.py --build build --out bench/results/NAME.json [--presets ..] [--tokens ..]
      [--backends sm90_bf16_bf16_bf16_split,sm90_bf16_bf16_bf16_mega] [--vllm-peer PATH/vllm_triton_moe.py]
      [--triton-kernels-peer PATH/triton_kernels_moe.py]

Each named backend is timed by `megamoe bench --backend NAME` and gets its own records; with
--vllm-peer, vLLM's Triton fused MoE (the peer in shared/peers/, run from a copy) is timed in
the same job and attached to every cell as the baseline `vllm_triton_0.33.0`. With
--triton-kernels-peer and --recipe w4a16_mxfp4, OpenAI's triton_kernels MXFP4 MoE (what vLLM
runs for gpt-oss; shared/peers/triton_kernels_moe.py, run from a copy with its triton_kernels
folder beside it) is timed the same way on the presets it knows (gpt-oss-120b, deepseek-v3) and
attached as the baseline `triton_kernels_v3.6.0`. That peer runs gpt-oss-120b with its own
activation (swiglu_oai and biases; the baseline record says so in `activation`) while `megamoe
bench` runs plain swiglu unless the preset's activation is asked for: the biases are ~0.3% of
the bytes a T = 1 forward reads.

--l2-flush read: every party's flush before a replay reads the 256 MiB buffer instead of zeroing it
(megamoe and PyTorch's pipeline through their --l2-flush, each peer from a copy of
its script whose one flush call reads), so the layer starts with L2 full of clean lines; with the
default memset it starts full of dirty lines, whose write-back (up to one L2, 50-60 MB) lands inside
the timed region -- a share of a decode cell's time (docs/BENCHMARKS.md, session 70).

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


def triton_kernels_baselines(records):
    """Baseline records (model, tokens, name, median_ms, ...) from the triton_kernels peer's JSON:
    the full pipeline time (routing structures + both matmul_ogs calls) as median_ms, the two
    matmuls alone as median_ms_matmuls; cells the peer did not run (median_ms null) are left out."""
    out = []
    for r in records:
        if r.get("median_ms") is None:
            continue
        b = {"model": r["model"], "tokens": r["tokens"], "name": r.get("peer", "triton_kernels_v3.6.0"),
             "median_ms": r["median_ms"], "activation": r.get("activation"), "bias": r.get("bias")}
        if r.get("median_ms_matmuls") is not None:
            b["median_ms_matmuls"] = r["median_ms_matmuls"]
        if "check_rel_l2" in r:
            b["check_rel_l2"] = r["check_rel_l2"]
        out.append(b)
    return out


# The peers' scripts (shared/peers/) flush L2 before each replay by zeroing a 256 MiB buffer, one
# `flush.zero_()` in their timing loop. For --l2-flush read, a copy beside the script (so that its
# imports resolve as the original's) has that one call replaced by a read of the buffer: the flush
# only, the peer's kernels and the rest of its timing untouched.
PEER_FLUSH_CALL = "flush.zero_()"


def peer_script(path, l2_flush, tmp):
    if l2_flush == "memset":
        return path
    src = open(path).read()
    n = src.count(PEER_FLUSH_CALL)
    if n != 1:
        sys.exit(f"run_bench: --l2-flush read: expected one '{PEER_FLUSH_CALL}' in {path} (its flush before a "
                 f"replay), found {n}; the peer's timing loop changed, so no read-flush copy can be made")
    folder, name = os.path.split(os.path.abspath(path))
    copy = os.path.join(folder, f"_readflush_{name}")
    with open(copy, "w") as f:
        f.write(src.replace(PEER_FLUSH_CALL, "flush.sum()"))
    tmp.append(copy)
    return copy


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--presets", default="deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b")
    ap.add_argument("--tokens", default="1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192")
    ap.add_argument("--iters", default="50")
    ap.add_argument("--routing", default="uniform", choices=["uniform", "zipf", "one-hot-expert", "balanced"],
                    help="megamoe's and PyTorch's routing (src/core/workload.h); the peers route uniformly "
                         "with their own generator, so they run only with uniform")
    ap.add_argument("--recipe", default="bf16")
    ap.add_argument("--backends", default="auto",
                    help="comma-separated megamoe backends to time (each gets its own records), e.g. "
                         "sm90_bf16_bf16_bf16_split,sm90_bf16_bf16_bf16_mega")
    ap.add_argument("--vllm-peer", default=os.environ.get("MEGAMOE_VLLM_PEER"),
                    help="path to the peer script vllm_triton_moe.py (shared/peers/, copied into an ignored "
                         "folder on the GPU machine): its times become the baseline vllm_triton_0.33.0")
    ap.add_argument("--triton-kernels-peer", default=os.environ.get("MEGAMOE_TRITON_KERNELS_PEER"),
                    help="path to the peer script triton_kernels_moe.py (shared/peers/, copied with its "
                         "triton_kernels folder): with --recipe w4a16_mxfp4 its times become the baseline "
                         "triton_kernels_v3.6.0 on gpt-oss-120b and deepseek-v3")
    ap.add_argument("--check", action="store_true", help="also compare megamoe with PyTorch per cell")
    ap.add_argument("--tactic", default=None,
                    help="force this tactic of the megamoe backends in every cell (docs/TUNING.md), e.g. mega")
    ap.add_argument("--l2-flush", default="memset", choices=["memset", "read"],
                    help="how every party's flush before a replay leaves L2: memset (the default, as the peers "
                         "ship: full of dirty lines the layer's misses write back inside the timed region) or "
                         "read (full of clean lines; the peers run from a copy whose flush reads its buffer)")
    args = ap.parse_args()
    if args.routing != "uniform" and (args.vllm_peer or args.triton_kernels_peer):
        ap.error(f"--routing {args.routing}: the peers draw uniform routes with their own generator; "
                 "drop --vllm-peer / --triton-kernels-peer or use --routing uniform")

    backends = [b for b in args.backends.split(",") if b]
    w4a16 = args.recipe in W4A16_RECIPES
    tmp = []
    mine = []
    runs = [(args.recipe, b, f"{args.out}.megamoe{i}.tmp") for i, b in enumerate(backends)]
    if w4a16:
        runs.append(("bf16", "auto", args.out + ".megamoe_bf16.tmp"))
    results = {}
    for recipe, backend, path in runs:
        cmd = [os.path.join(args.build, "megamoe"), "bench", "--presets", args.presets, "--tokens", args.tokens,
               "--iters", args.iters, "--routing", args.routing, "--recipe", recipe, "--backend", backend,
               "--json", path, "--l2-flush", args.l2_flush]
        if args.tactic:
            cmd += ["--tactic", args.tactic]
        print("[run_bench]", " ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)
        tmp.append(path)
        results[(recipe, backend)] = json.load(open(path))
    for b in backends:
        mine += results[(args.recipe, b)]

    base_json = args.out + ".torch.tmp"
    cmd = [sys.executable, os.path.join(HERE, "anchors", "torch_moe.py"), "--presets", args.presets, "--tokens",
           args.tokens, "--iters", args.iters, "--routing", args.routing, "--recipe", args.recipe, "--json", base_json,
           "--l2-flush", args.l2_flush]
    if args.check:
        cmd.append("--check")
    print("[run_bench]", " ".join(cmd), file=sys.stderr, flush=True)
    subprocess.run(cmd, check=True)
    tmp.append(base_json)
    base = json.load(open(base_json))
    torch_names = {b["name"] for b in base}

    peer_name = None
    if args.vllm_peer and args.recipe in ("bf16", "fp8_block"):
        peer_json = args.out + ".vllm.tmp"
        script = peer_script(args.vllm_peer, args.l2_flush, tmp)
        cmd = [sys.executable, script, "--recipe", args.recipe, "--presets", args.presets, "--tokens", args.tokens,
               "--iters", args.iters, "--json", peer_json]
        print("[run_bench]", " ".join(cmd), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=True)
        tmp.append(peer_json)
        for r in json.load(open(peer_json)):
            if r.get("median_ms") is None:
                continue  # a shape the peer does not run (e.g. fp8_block at H = 2880)
            peer_name = r.get("peer", "vllm_triton_0.33.0")
            base.append({"model": r["model"], "tokens": r["tokens"], "name": peer_name,
                         "median_ms": r["median_ms"], "config_source": r.get("config_source")})

    tk_name = None
    if args.triton_kernels_peer and args.recipe == "w4a16_mxfp4":
        known = ("gpt-oss-120b", "deepseek-v3")  # the presets the peer script defines
        script = peer_script(args.triton_kernels_peer, args.l2_flush, tmp)
        for preset in [p for p in args.presets.split(",") if p in known]:
            peer_json = f"{args.out}.tk_{preset}.tmp"
            cmd = [sys.executable, script, "--preset", preset, "--tokens", args.tokens,
                   "--iters", args.iters, "--json", peer_json]
            print("[run_bench]", " ".join(cmd), file=sys.stderr, flush=True)
            subprocess.run(cmd, check=True)
            tmp.append(peer_json)
            base += triton_kernels_baselines(json.load(open(peer_json)))
        tk_name = next((b["name"] for b in base if b["name"].startswith("triton_kernels")), None)

    if w4a16:
        # Our bf16 backend on the same cells, as a baseline record like the PyTorch one.
        for r in results[("bf16", "auto")]:
            style = r["backend"].rsplit("_", 1)[-1]   # split / mega
            base.append({"model": r["model"], "tokens": r["tokens"], "name": f"megamoe_bf16_{style}",
                         "backend": r["backend"], "median_ms": r["median_ms"], "floor_ms": r["floor_ms"],
                         "routing": r["routing"]})
    by_cell = {}
    for b in base:
        by_cell.setdefault((b["model"], b["tokens"]), []).append(b)
    date = datetime.date.today().isoformat()
    commit = os.environ.get("MEGAMOE_COMMIT")
    for r in mine:
        r["date"] = date
        r["l2_flush_all"] = args.l2_flush  # every party's flush (megamoe's own is r["l2_flush"])
        if commit:
            r["commit"] = commit
        r["baselines"] = [{k: v for k, v in b.items() if k not in ("model", "tokens")}
                          for b in by_cell.get((r["model"], r["tokens"]), [])]
    with open(args.out, "w") as f:
        json.dump(mine, f, indent=1)
    for path in tmp:
        os.remove(path)

    def baseline_ms(r, pred):
        ok = [b["median_ms"] for b in r["baselines"] if "median_ms" in b and pred(b["name"])]
        return ok[0] if ok else float("nan")

    is_torch = lambda n: n in torch_names
    is_peer = lambda n: n == peer_name
    is_tk = lambda n: n == tk_name
    is_bf16 = lambda n: n.startswith("megamoe_bf16_")
    head = (f"{'backend':28s} {'model':14s} {'T':>5s} {'megamoe ms':>11s} {'floor ms':>9s} {'%floor':>7s} "
            f"{'torch ms':>9s} {'vs torch':>8s}")
    head += f" {'vllm ms':>9s} {'vs vllm':>8s}" if peer_name else ""
    head += f" {'tk ms':>9s} {'vs tk':>8s}" if tk_name else ""
    head += f" {'bf16 ms':>9s} {'vs bf16':>8s}" if w4a16 else ""
    print(f"L2 flush before each replay (every party): {args.l2_flush}")
    print(head)
    logs = {}
    for r in mine:
        line = (f"{r['backend']:28s} {r['model']:14s} {r['tokens']:5d} {r['median_ms']:11.4f} {r['floor_ms']:9.4f} "
                f"{100 * r['floor_ms'] / r['median_ms']:6.1f}%")
        for what, pred, on in (("the PyTorch baseline", is_torch, True), (peer_name, is_peer, bool(peer_name)),
                               (tk_name, is_tk, bool(tk_name)), ("megamoe bf16", is_bf16, w4a16)):
            if not on:
                continue
            t = baseline_ms(r, pred)
            if math.isnan(t):  # the baseline did not run this cell (e.g. no vLLM config for the shape)
                line += f" {'-':>9s} {'-':>8s}"
                continue
            logs.setdefault((r["backend"], what), []).append(math.log(t / r["median_ms"]))
            line += f" {t:9.4f} {t / r['median_ms']:7.2f}x"
        print(line)
    for (backend, what), l in logs.items():
        print(f"{backend}: " + geomean_line(l, what))


if __name__ == "__main__":
    main()
