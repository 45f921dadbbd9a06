#!/usr/bin/env python3
"""A Mixtral-style sparse MoE block whose experts run in megamoe, checked against plain PyTorch.

    router (nn.Linear) -> softmax -> top-k -> renormalise -> megamoe experts (SwiGLU MLPs)

The block runs on the GPU when one is present (megamoe's CUDA backend), else on the CPU
(megamoe's reference backend). It compares its output with the same block written in plain
PyTorch, eagerly and under torch.compile, and exits non-zero when they disagree.

    python3 examples/torch_moe_block.py                      # small shapes, a few seconds
    python3 examples/torch_moe_block.py --mixtral --tokens 512 --bench   # Mixtral-8x7B shapes (GPU)
"""

from __future__ import annotations

import argparse
import sys
import time

import torch
import torch.nn.functional as F

import megamoe
import megamoe.torch_ops


class TorchExperts(torch.nn.Module):
    """The experts in plain PyTorch: w1 (gate), w3 (up) [E, I, H], w2 (down) [E, H, I]."""

    def __init__(self, w1: torch.Tensor, w3: torch.Tensor, w2: torch.Tensor):
        super().__init__()
        self.w1, self.w3, self.w2 = w1, w3, w2

    def forward(self, x, topk_ids, topk_weights):
        out = torch.zeros(x.shape, dtype=torch.float32, device=x.device)
        for e in range(self.w1.shape[0]):
            tok, slot = torch.nonzero(topk_ids == e, as_tuple=True)
            if tok.numel() == 0:
                continue
            xe = x[tok]
            h = F.silu(xe @ self.w1[e].t()) * (xe @ self.w3[e].t())
            y = h @ self.w2[e].t()
            out.index_add_(0, tok, topk_weights[tok, slot, None] * y.float())
        return out.to(x.dtype)


class MegaMoEExperts(torch.nn.Module):
    """The same experts in megamoe: W13 = [w1; w3] per expert (gate rows, then up rows)."""

    def __init__(self, w1, w3, w2, top_k: int, max_tokens: int):
        super().__init__()
        E, I, H = w1.shape
        self.layer = megamoe.MoELayer(E, top_k, H, I, device=w1.device, max_tokens=max_tokens)
        self.layer.prepare_weights(torch.cat([w1, w3], dim=1), w2)  # copied; the originals may go
        self.moe = megamoe.torch_ops.MoEModule(self.layer)

    def forward(self, x, topk_ids, topk_weights):
        return self.moe(x, topk_ids, topk_weights)


class SparseMoEBlock(torch.nn.Module):
    """Mixtral's block: router logits -> softmax (fp32) -> top-k -> renormalise -> experts."""

    def __init__(self, router: torch.nn.Linear, experts: torch.nn.Module, top_k: int):
        super().__init__()
        self.router, self.experts, self.top_k = router, experts, top_k

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        shape = hidden.shape
        x = hidden.reshape(-1, shape[-1])
        probs = torch.softmax(self.router(x).float(), dim=-1)
        topk_weights, topk_ids = torch.topk(probs, self.top_k, dim=-1)
        topk_weights = topk_weights / topk_weights.sum(dim=-1, keepdim=True)
        return self.experts(x, topk_ids.to(torch.int32), topk_weights).reshape(shape)


def rel_l2(a: torch.Tensor, b: torch.Tensor) -> float:
    a, b = a.double(), b.double()
    return ((a - b).norm() / b.norm().clamp_min(1e-30)).item()


def timed(fn, iters: int, cuda: bool) -> float:
    for _ in range(3):
        fn()
    if cuda:
        torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(iters):
        fn()
    if cuda:
        torch.cuda.synchronize()
    return (time.perf_counter() - t0) / iters * 1e3


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tokens", type=int, default=64)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--intermediate", type=int, default=512)
    p.add_argument("--experts", type=int, default=8)
    p.add_argument("--top-k", type=int, default=2)
    p.add_argument("--mixtral", action="store_true", help="Mixtral-8x7B shapes: H 4096, I 14336, E 8, K 2")
    p.add_argument("--device", default=None, help="cpu | cuda[:N] (default: cuda when available)")
    p.add_argument("--no-compile", action="store_true", help="skip the torch.compile check")
    p.add_argument("--bench", action="store_true", help="time megamoe against the PyTorch experts")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()
    if args.mixtral:
        args.hidden, args.intermediate, args.experts, args.top_k = 4096, 14336, 8, 2

    use_cuda = torch.cuda.is_available() and megamoe.with_cuda
    device = torch.device(args.device or ("cuda" if use_cuda else "cpu"))
    cuda = device.type == "cuda"
    torch.manual_seed(args.seed)
    E, K, H, I, T = args.experts, args.top_k, args.hidden, args.intermediate, args.tokens

    router = torch.nn.Linear(H, E, bias=False).to(device, torch.bfloat16)
    w1 = (torch.randn(E, I, H, device=device) / H ** 0.5).bfloat16()
    w3 = (torch.randn(E, I, H, device=device) / H ** 0.5).bfloat16()
    w2 = (torch.randn(E, H, I, device=device) / I ** 0.5).bfloat16()

    ours = SparseMoEBlock(router, MegaMoEExperts(w1, w3, w2, K, max_tokens=max(T, 1)), K).eval()
    theirs = SparseMoEBlock(router, TorchExperts(w1, w3, w2), K).eval()
    print(f"megamoe {megamoe.__version__}: backend {ours.experts.layer.backend} on {device}; "
          f"T={T} H={H} I={I} E={E} K={K}")

    ok = True
    with torch.inference_mode():
        x = torch.randn(T, H, device=device).bfloat16()
        got, want = ours(x), theirs(x)
        err = rel_l2(got, want)
        # PyTorch rounds the gate/up projections to bf16 before SwiGLU; megamoe keeps them in
        # FP32 (docs/DESIGN.md section 1), so the two differ by a few bf16 ulps.
        print(f"eager     : rel-L2 vs plain PyTorch = {err:.2e}")
        ok &= err < 2e-2 and bool(torch.isfinite(got).all())
        if not args.no_compile:
            compiled = torch.compile(ours, fullgraph=True)
            got_c = compiled(x)
            err_c = rel_l2(got_c, want)
            print(f"compiled  : rel-L2 vs plain PyTorch = {err_c:.2e}")
            ok &= err_c < 2e-2
        if args.bench:
            ms_ours = timed(lambda: ours(x), 20, cuda)
            ms_theirs = timed(lambda: theirs(x), 20, cuda)
            print(f"time      : megamoe block {ms_ours:.3f} ms, PyTorch block {ms_theirs:.3f} ms "
                  "(eager, router included, no CUDA graphs)")
    print("OK" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
