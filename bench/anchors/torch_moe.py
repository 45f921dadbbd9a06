#!/usr/bin/env python3
"""PyTorch baseline for the MoE block (DESIGN section 6), timed the same way as `megamoe bench`.

Pipeline: stable sort of the routes by expert -> gather x rows -> torch._grouped_mm FC1 ->
SwiGLU -> torch._grouped_mm FC2 -> weighted index_add into an fp32 output -> bf16.
CUDA-graph replayed, L2 flushed before every replay, median of --iters replays.
Routing is the same as megamoe's (megamoe.make_routes when the Python package is built,
else an identical NumPy port below), so both sides do the same work.
With --check and the megamoe Python package importable, megamoe's output on the same
tensors is compared with PyTorch's (rel-L2) for every cell.
"""
import argparse
import json
import math
import sys

import numpy as np

PRESETS = {  # name: (H, I, E, K)
    "tiny": (256, 128, 8, 2),
    "deepseek-v3": (7168, 2048, 256, 8),
    "qwen3-30b-a3b": (2048, 768, 128, 8),
    "gpt-oss-120b": (2880, 2880, 128, 4),
    "mixtral-8x7b": (4096, 14336, 8, 2),
    "kimi-k2": (7168, 2048, 384, 8),
    "qwen3.5-397b": (4096, 1024, 512, 10),
}

M64 = (1 << 64) - 1


def _mix64(z):
    z = (z + 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _hash3(seed, stream, index):
    return _mix64((_mix64(seed ^ _mix64(stream)) + index) & M64)


def _uniform_f32(seed, stream, index, scale):
    bits = _hash3(seed, stream, index) >> 40
    u = np.float32(bits) * np.float32(1.0 / 16777216.0)
    return (np.float32(2.0) * u - np.float32(1.0)) * np.float32(scale)


def make_routes(T, E, K, routing, seed):
    """A port of src/core/workload.cpp make_routes (ids identical; weights to ~1 ulp)."""
    try:
        import megamoe  # noqa: F401
        if hasattr(megamoe, "make_routes"):
            return megamoe.make_routes(T, E, K, routing, seed)
    except ImportError:
        pass
    perm = list(range(E))
    for i in range(E - 1, 0, -1):
        j = _hash3(seed, 11, i) % (i + 1)
        perm[i], perm[j] = perm[j], perm[i]
    cdf, acc = [], 0.0
    for i in range(E):
        acc += 1.0 / math.pow(i + 1, 1.2)
        cdf.append(acc)
    cdf = [v / acc for v in cdf]
    import bisect
    ids = np.full((T, K), -1, np.int32)
    w = np.zeros((T, K), np.float32)
    for t in range(T):
        taken = set()
        draw = t * 1000003
        for k in range(K):
            if routing == "one-hot-expert" and k == 0:
                e = 0
            else:
                while True:
                    u = (_hash3(seed, 6, draw) >> 11) * (1.0 / 9007199254740992.0)
                    draw += 1
                    if routing == "zipf":
                        pick = perm[min(bisect.bisect_left(cdf, u), E - 1)]
                    else:
                        pick = min(int(u * E), E - 1)
                    if pick not in taken:
                        e = pick
                        break
            taken.add(e)
            ids[t, k] = e
        logits = np.array([_uniform_f32(seed, 7, t * K + k, 2.0) for k in range(K)], np.float32)
        ex = np.exp(logits - logits.max())
        w[t] = ex / ex.sum()
    return ids, w


def rowwise_fp8(torch, t):
    """Row-scaled e4m3 (scale = amax/448 per row of the last dim): (codes, fp32 scales)."""
    amax = t.float().abs().amax(-1).clamp_min(1e-12)
    scale = amax / 448.0
    return (t.float() / scale.unsqueeze(-1)).to(torch.float8_e4m3fn), scale


def build_pipeline(torch, W13, W2, E, I, recipe="bf16"):
    """Returns f(x, ids, w) -> out bf16, capturable in a CUDA graph (no host syncs).
    bf16: torch._grouped_mm. fp8_block: the row-scaled FP8 pipeline of DESIGN section 6
    (torch._scaled_grouped_mm, e4m3 weights and activations with one scale per row)."""
    if recipe == "fp8_block":
        W13q, s13 = rowwise_fp8(torch, W13)   # [E, 2I, H], [E, 2I]
        W2q, s2 = rowwise_fp8(torch, W2)      # [E, H, I], [E, H]

        def mm1(xs, offs):
            q, sa = rowwise_fp8(torch, xs)
            return torch._scaled_grouped_mm(q, W13q.transpose(-2, -1), sa, s13, offs=offs, out_dtype=torch.bfloat16)

        def mm2(a, offs):
            q, sa = rowwise_fp8(torch, a)
            return torch._scaled_grouped_mm(q, W2q.transpose(-2, -1), sa, s2, offs=offs, out_dtype=torch.bfloat16)
    else:
        def mm1(xs, offs):
            return torch._grouped_mm(xs, W13.transpose(-2, -1), offs=offs)

        def mm2(a, offs):
            return torch._grouped_mm(a, W2.transpose(-2, -1), offs=offs)

    def forward(x, ids, w):
        T, K = ids.shape
        flat = ids.reshape(-1).long()
        order = torch.sort(flat, stable=True).indices
        counts = torch.zeros(E, dtype=torch.int32, device=x.device)
        counts.scatter_add_(0, flat, torch.ones_like(flat, dtype=torch.int32))
        offs = torch.cumsum(counts, 0, dtype=torch.int32)
        token = order // K
        xs = x.index_select(0, token)
        h = mm1(xs, offs)
        a = (torch.nn.functional.silu(h[:, :I].float()) * h[:, I:].float()).to(torch.bfloat16)
        y = mm2(a, offs)
        out = torch.zeros(x.shape, dtype=torch.float32, device=x.device)
        out.index_add_(0, token, y.float() * w.reshape(-1)[order].unsqueeze(1))
        return out.to(torch.bfloat16)
    return forward


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--presets", default="deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b")
    ap.add_argument("--tokens", default="1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--routing", default="uniform", choices=["uniform", "zipf", "one-hot-expert"])
    ap.add_argument("--recipe", default="bf16", choices=["bf16", "fp8_block"])
    ap.add_argument("--json", help="write records here")
    ap.add_argument("--check", action="store_true", help="compare megamoe's output with PyTorch's per cell")
    args = ap.parse_args()

    import torch
    dev = torch.device("cuda")
    flush = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
    records = []
    mm = None
    if args.check:
        try:
            import megamoe as mm
        except ImportError as e:
            print(f"[anchor] --check: megamoe Python package not importable ({e}); skipping the check", file=sys.stderr)
    tokens = [int(t) for t in args.tokens.split(",")]
    for name in args.presets.split(","):
        H, I, E, K = PRESETS[name]
        g = torch.Generator(device=dev).manual_seed(args.seed)
        W13 = (torch.rand(E, 2 * I, H, device=dev, generator=g) * 2 - 1).mul_(1 / math.sqrt(H)).to(torch.bfloat16)
        W2 = (torch.rand(E, H, I, device=dev, generator=g) * 2 - 1).mul_(1 / math.sqrt(I)).to(torch.bfloat16)
        fwd = build_pipeline(torch, W13, W2, E, I, args.recipe)
        base_name = "torch_scaled_grouped_mm_fp8_rowwise" if args.recipe == "fp8_block" else "torch_grouped_mm"
        layer = None
        if mm is not None and args.recipe == "bf16":
            layer = mm.MoELayer(E, K, H, I, max_tokens=max(tokens), device="cuda")
            layer.prepare_weights(W13, W2)
        for T in tokens:
            ids_np, w_np = make_routes(T, E, K, args.routing, args.seed + T)
            ids = torch.from_numpy(np.asarray(ids_np, dtype=np.int32)).to(dev)
            w = torch.from_numpy(np.asarray(w_np, dtype=np.float32)).to(dev)
            x = (torch.rand(T, H, device=dev, generator=g) * 2 - 1).to(torch.bfloat16)
            try:
                s = torch.cuda.Stream()
                s.wait_stream(torch.cuda.current_stream())
                with torch.cuda.stream(s):
                    for _ in range(2):
                        out = fwd(x, ids, w)
                torch.cuda.current_stream().wait_stream(s)
                graph = torch.cuda.CUDAGraph()
                with torch.cuda.graph(graph):
                    out = fwd(x, ids, w)
            except Exception as e:  # e.g. a shape the PyTorch kernel refuses: record, go on
                torch.cuda.synchronize()
                records.append({"model": name, "tokens": T, "name": base_name, "error": str(e)[:300],
                                "routing": args.routing})
                print(f"[anchor] {name:14s} T={T:5d} failed: {str(e)[:200]}", file=sys.stderr, flush=True)
                continue
            times = []
            for i in range(5 + args.iters):
                flush.fill_(i & 0xFF)
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                e0.record()
                graph.replay()
                e1.record()
                e1.synchronize()
                if i >= 5:
                    times.append(e0.elapsed_time(e1))
            rec = {"model": name, "tokens": T, "name": base_name, "median_ms": float(np.median(times)),
                   "routing": args.routing}
            if layer is not None:
                mine = layer(x, ids, w)
                ref = out.double()
                rec["rel_l2_megamoe_vs_torch"] = float((mine.double() - ref).norm() / ref.norm().clamp_min(1e-30))
            records.append(rec)
            print(f"[anchor] {name:14s} T={T:5d} {rec['median_ms']:.4f} ms"
                  + (f"  megamoe rel-L2 {rec['rel_l2_megamoe_vs_torch']:.2e}" if "rel_l2_megamoe_vs_torch" in rec else ""),
                  file=sys.stderr, flush=True)
            del graph
        del W13, W2, layer
        torch.cuda.empty_cache()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(records, f, indent=1)


if __name__ == "__main__":
    main()
