#!/usr/bin/env python3
"""PyTorch baseline for the MoE block (docs/DESIGN.md section 6), timed the same way as `megamoe bench`.

Pipeline: stable sort of the routes by expert -> gather x rows -> torch._grouped_mm FC1 ->
SwiGLU -> torch._grouped_mm FC2 -> weighted index_add into an fp32 output -> bf16.
CUDA-graph replayed, L2 flushed before every replay, median of --iters replays.
Routing is the same as megamoe's (megamoe.make_routes when the Python package is built,
else an identical NumPy port below), so both sides do the same work.
With --check and the megamoe Python package importable, megamoe's output on the same
tensors is compared with PyTorch's (rel-L2) for every cell.

--recipe w4a16_mxfp4 / w4a16_nvfp4: the pipeline a user writes without megamoe. The weights
stay on the GPU in the canonical packed format (docs/FORMATS.md section 3: uint8 e2m1 codes
[E, N, K/2], element 2j in the low nibble of byte j; e8m0 scales per 32 along K, or e4m3
scales per 16 plus an fp32 global per expert per FC). Each forward dequantizes, with plain
torch ops, the weights of the experts this batch routes to (all of them once T*K >= E) to
bf16, then runs the bf16 pipeline above on them. The codes are random and the scales are
chosen so the dequantized weights have the bf16 anchor's magnitude (timing does not depend
on the values; --check feeds megamoe the very same codes and scales).
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
            elif routing == "balanced":
                e = perm[(t * K + k) % E]  # K consecutive slots: distinct, as K <= E
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


def rowwise_fp8_weights(torch, W):
    """rowwise_fp8 of [E, rows, cols] weights one expert at a time (the same values): the whole
    tensor's fp32 temporaries (deepseek-v3's W13: 28 GiB) ran an 80 GB H100 out of memory at T = 32768."""
    codes = torch.empty(W.shape, dtype=torch.float8_e4m3fn, device=W.device)
    scales = torch.empty(W.shape[:-1], dtype=torch.float32, device=W.device)
    for e in range(W.shape[0]):
        codes[e], scales[e] = rowwise_fp8(torch, W[e])
    return codes, scales


W4A16_RECIPES = ("w4a16_mxfp4", "w4a16_nvfp4")
W4A16_BLOCK = {"w4a16_mxfp4": 32, "w4a16_nvfp4": 16}
E2M1_VALUES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0)


def e2m1_pair_lut(torch, device):
    """int32 [256]: for a packed byte b, the bf16 bits of e2m1(b & 15) in the low half and of
    e2m1(b >> 4) in the high half. Gathering it and viewing the int32 result as bf16 (little
    endian) decodes both nibbles in the canonical order (element 2j = low nibble) in one
    gather, instead of two nibble gathers and an interleave."""
    bits = np.array(E2M1_VALUES, np.float32).view(np.uint32) >> 16   # exact in bf16: drop the low half
    b = np.arange(256)
    return torch.from_numpy((bits[b & 15] | (bits[b >> 4] << 16)).astype(np.uint32).view(np.int32)).to(device)


def dequant_fp4(torch, lut, codes, scales, glob, recipe):
    """bf16 [C, N, K] from packed e2m1 codes [C, N, K/2] and their scales (docs/FORMATS.md):
    w4a16_mxfp4: e2m1 * 2^(s - 127), e8m0 code s per 32 along K (exact in bf16);
    w4a16_nvfp4: e2m1 * (e4m3 scale * global), e4m3 per 16 along K, fp32 global [C]. The
    global is folded into the block scale before the bf16 rounding, as a user would do it
    (megamoe applies it to the fp32 accumulator instead: the results differ by bf16 rounding)."""
    C, N, Kh = codes.shape
    B = W4A16_BLOCK[recipe]
    # index_select takes int32 indices, so the gather index costs 4 bytes per code byte, not 8.
    vals = lut.index_select(0, codes.reshape(-1).to(torch.int32)).view(torch.bfloat16)
    vals = vals.view(C, N, 2 * Kh // B, B)
    if recipe == "w4a16_mxfp4":
        s = scales.view(torch.float8_e8m0fnu).to(torch.float32)   # 2^(s-127) exactly; 255 -> NaN
    else:
        s = scales.view(torch.float8_e4m3fn).to(torch.float32) * glob.view(C, 1, 1)
    return (vals * s.to(torch.bfloat16).unsqueeze(-1)).view(C, N, 2 * Kh)


def random_fp4_weights(torch, E, N, K, recipe, gen, device):
    """Canonical packed weights with random codes and sane scales: the dequantized values have
    the bf16 anchor's RMS, 1/sqrt(3K) (uniform(-1, 1)/sqrt(K)). Returns (codes u8 [E,N,K/2],
    scales u8 [E,N,K/B], global f32 [E] or None)."""
    B = W4A16_BLOCK[recipe]
    codes = torch.randint(0, 256, (E, N, K // 2), dtype=torch.uint8, device=device, generator=gen)
    e2m1_rms = math.sqrt(sum(v * v for v in E2M1_VALUES) / 16)   # uniform random nibbles: ~2.93
    target = 1.0 / math.sqrt(3 * K) / e2m1_rms                    # RMS the block scale should give
    if recipe == "w4a16_mxfp4":
        # e8m0 exponent near log2(target), jittered by -1..+1 per block like real checkpoints.
        e = round(math.log2(target)) + 127
        scales = (torch.randint(-1, 2, (E, N, K // B), device=device, generator=gen) + e).to(torch.uint8)
        return codes, scales, None
    # e4m3 block scales spread over [64, 448] (the quantizer puts the largest block at 448)
    # and a per-expert global that brings their RMS (~279) to the target, jittered +-10 %.
    sc = torch.rand(E, N, K // B, device=device, generator=gen) * 384 + 64
    scales = sc.to(torch.float8_e4m3fn).view(torch.uint8)
    glob = (target / sc.square().mean().sqrt()) * (0.9 + 0.2 * torch.rand(E, device=device, generator=gen))
    return codes, scales, glob.float()


def build_pipeline(torch, W13, W2, E, I, recipe="bf16"):
    """Returns f(x, ids, w) -> out bf16, capturable in a CUDA graph (no host syncs).
    bf16: torch._grouped_mm. fp8_block: the row-scaled FP8 pipeline of docs/DESIGN.md section 6
    (torch._scaled_grouped_mm, e4m3 weights and activations with one scale per row).
    w4a16_*: W13 and W2 are (codes, scales, global) tuples in the canonical packed format;
    the experts the batch touches are dequantized to bf16 (dequant_fp4), then torch._grouped_mm."""
    select = None
    if recipe == "fp8_block":
        W13q, s13 = rowwise_fp8_weights(torch, W13)   # [E, 2I, H], [E, 2I]
        W2q, s2 = rowwise_fp8_weights(torch, W2)      # [E, H, I], [E, H]

        def mm1(xs, offs, slots):
            q, sa = rowwise_fp8(torch, xs)
            return torch._scaled_grouped_mm(q, W13q.transpose(-2, -1), sa, s13, offs=offs, out_dtype=torch.bfloat16)

        def mm2(a, offs, slots):
            q, sa = rowwise_fp8(torch, a)
            return torch._scaled_grouped_mm(q, W2q.transpose(-2, -1), sa, s2, offs=offs, out_dtype=torch.bfloat16)
    elif recipe in W4A16_RECIPES:
        lut = e2m1_pair_lut(torch, W13[0].device)
        arange_e = torch.arange(E, device=W13[0].device)

        def select(counts, routes):
            # Dequantizing all E experts per forward would cost E/routes times more than
            # needed at small T (deepseek-v3, T = 1: 256 experts for 8 routes), so a user who
            # keeps the weights packed dequantizes only the experts in use. Their number is
            # data dependent; to stay graph-capturable (no host sync) take a fixed
            # C = min(E, routes) slots: the used experts in ascending id (the order the
            # sorted routes are in), padded with unused ones (zero rows; still dequantized).
            C = min(E, routes)
            if C == E:
                return None
            key = torch.where(counts > 0, arange_e, arange_e + E)
            return torch.sort(key).indices[:C]

        def dequant(Wq, slots):
            codes, scales, glob = Wq
            if slots is not None:
                codes, scales = codes.index_select(0, slots), scales.index_select(0, slots)
                glob = glob.index_select(0, slots) if glob is not None else None
            return dequant_fp4(torch, lut, codes, scales, glob, recipe)

        # The bf16 copy of W13 is dead before W2's is made, so only one is alive at a time.
        def mm1(xs, offs, slots):
            return torch._grouped_mm(xs, dequant(W13, slots).transpose(-2, -1), offs=offs)

        def mm2(a, offs, slots):
            return torch._grouped_mm(a, dequant(W2, slots).transpose(-2, -1), offs=offs)
    else:
        def mm1(xs, offs, slots):
            return torch._grouped_mm(xs, W13.transpose(-2, -1), offs=offs)

        def mm2(a, offs, slots):
            return torch._grouped_mm(a, W2.transpose(-2, -1), offs=offs)

    def forward(x, ids, w):
        T, K = ids.shape
        flat = ids.reshape(-1).long()
        order = torch.sort(flat, stable=True).indices
        counts = torch.zeros(E, dtype=torch.int32, device=x.device)
        counts.scatter_add_(0, flat, torch.ones_like(flat, dtype=torch.int32))
        slots = select(counts, T * K) if select is not None else None
        offs = torch.cumsum(counts if slots is None else counts.index_select(0, slots), 0, dtype=torch.int32)
        token = order // K
        xs = x.index_select(0, token)
        h = mm1(xs, offs, slots)
        a = (torch.nn.functional.silu(h[:, :I].float()) * h[:, I:].float()).to(torch.bfloat16)
        y = mm2(a, offs, slots)
        out = torch.zeros(x.shape, dtype=torch.float32, device=x.device)
        out.index_add_(0, token, y.float() * w.reshape(-1)[order].unsqueeze(1))
        return out.to(torch.bfloat16)
    return forward


BASELINE_NAMES = {
    "bf16": "torch_grouped_mm",
    "fp8_block": "torch_scaled_grouped_mm_fp8_rowwise",
    "w4a16_mxfp4": "torch_dequant_touched_experts_mxfp4_grouped_mm",
    "w4a16_nvfp4": "torch_dequant_touched_experts_nvfp4_grouped_mm",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--presets", default="deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b")
    ap.add_argument("--tokens", default="1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192")
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--routing", default="uniform", choices=["uniform", "zipf", "one-hot-expert", "balanced"])
    ap.add_argument("--recipe", default="bf16", choices=list(BASELINE_NAMES))
    ap.add_argument("--json", help="write records here")
    ap.add_argument("--check", action="store_true", help="compare megamoe's output with PyTorch's per cell")
    ap.add_argument("--l2-flush", default="memset", choices=["memset", "read"],
                    help="the flush before each replay: a memset of 256 MiB (L2 left full of dirty lines, as "
                         "`megamoe bench` and the peers by default) or a read of it (clean lines; "
                         "`megamoe bench --l2-flush read`)")
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
        layer = None
        if args.recipe in W4A16_RECIPES:
            W13 = random_fp4_weights(torch, E, 2 * I, H, args.recipe, g, dev)
            W2 = random_fp4_weights(torch, E, H, I, args.recipe, g, dev)
            if mm is not None:  # megamoe gets the very same codes and scales
                layer = mm.MoELayer(E, K, H, I, recipe=args.recipe, max_tokens=max(tokens), device="cuda")
                layer.prepare_weights(W13[0], W2[0], w13_scale=W13[1], w2_scale=W2[1],
                                      w13_global_scale=W13[2], w2_global_scale=W2[2])
        else:
            W13 = (torch.rand(E, 2 * I, H, device=dev, generator=g) * 2 - 1).mul_(1 / math.sqrt(H)).to(torch.bfloat16)
            W2 = (torch.rand(E, H, I, device=dev, generator=g) * 2 - 1).mul_(1 / math.sqrt(I)).to(torch.bfloat16)
            if mm is not None and args.recipe == "bf16":
                layer = mm.MoELayer(E, K, H, I, max_tokens=max(tokens), device="cuda")
                layer.prepare_weights(W13, W2)
        fwd = build_pipeline(torch, W13, W2, E, I, args.recipe)
        base_name = BASELINE_NAMES[args.recipe]
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
                if args.l2_flush == "read":
                    flush.sum()
                else:
                    flush.fill_(i & 0xFF)
                e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                e0.record()
                graph.replay()
                e1.record()
                e1.synchronize()
                if i >= 5:
                    times.append(e0.elapsed_time(e1))
            rec = {"model": name, "tokens": T, "name": base_name, "median_ms": float(np.median(times)),
                   "routing": args.routing, "l2_flush": args.l2_flush}
            if args.recipe in W4A16_RECIPES:
                rec["dequant_experts"] = min(E, T * K)   # experts dequantized to bf16 per forward
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
