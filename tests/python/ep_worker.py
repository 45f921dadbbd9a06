#!/usr/bin/env python3
"""One rank of the two-GPU expert-parallel test (tests/python/test_ep.py runs it):

    torchrun --nproc-per-node 2 tests/python/ep_worker.py

Each rank joins an EpGroup made from the torch.distributed (NCCL) group, builds the full
synthetic expert set from one fixed seed (the same on every rank) and gives its layer only the
experts its placement names. Every rank then runs the same sequence of forwards, each on its
own random tokens (different counts per rank, zero on one rank in some steps), and compares
its output with a float64 torch evaluation of the whole MoE on its tokens (rel-L2 < 1e-2).
Layers: the default contiguous placement (on torch's current stream and on a side stream),
a permuted placement with a replicated expert, and a placement that leaves two experts on no
rank (their routes count in unrouted_count() and contribute nothing). check_errors() runs after
every step. Prints "ep_worker: rank R OK" per rank, exits non-zero on any failure.
"""
import gc
import math
import os
import sys
import traceback

import torch
import torch.distributed as dist

import megamoe

E, K, H, I = 8, 2, 256, 128
MAX_TOKENS = 64
SEED = 1234
TOL = 1e-2

# Tokens per rank for each step (rank r takes column r % 2): the same schedule on every rank,
# since every rank must call forward for each step.
STEPS = [(37, 64), (5, 0), (0, 17), (64, 1), (0, 0)]


def full_weights():
    """All E experts, bf16, from one seed: identical on every rank."""
    g = torch.Generator().manual_seed(SEED)
    w13 = (torch.randn(E, 2 * I, H, generator=g) / math.sqrt(H)).bfloat16()
    w2 = (torch.randn(E, H, I, generator=g) / math.sqrt(I)).bfloat16()
    return w13, w2


def make_tokens(T, rank, step, dev):
    g = torch.Generator().manual_seed(SEED + 1000 * (rank + 1) + step)
    x = (torch.rand(T, H, generator=g) * 2 - 1).bfloat16()
    ids = torch.rand(T, E, generator=g).argsort(dim=1)[:, :K].to(torch.int32)  # K distinct experts
    ids[torch.rand(T, K, generator=g) < 0.1] = -1                             # some no-route slots
    w = torch.softmax(torch.randn(T, K, generator=g), dim=-1)
    return x.to(dev), ids.to(dev), w.to(dev)


def reference(x, ids, w, w13, w2, held):
    """float64 MoE over the routes whose expert is in `held`: sum_k w * W2 (silu(g) * u)."""
    out = torch.zeros(x.shape[0], H, dtype=torch.float64, device=x.device)
    for e in held:
        t, k = torch.nonzero(ids == e, as_tuple=True)
        if t.numel() == 0:
            continue
        h = x[t].double() @ w13[e].double().T
        a = torch.nn.functional.silu(h[:, :I]) * h[:, I:]
        y = a @ w2[e].double().T
        out.index_add_(0, t, y * w[t, k].double().unsqueeze(1))
    return out


def rel_l2(a, b):
    d = b.norm().item()
    return (a.double() - b).norm().item() / (d if d > 0 else 1.0)


def run_layer(name, group, placement, w13, w2, dev, failures, side_stream=False):
    rank, size = group.rank, group.size
    held_here = placement[rank] if placement is not None else list(range(rank * E // size, (rank + 1) * E // size))
    held_anywhere = sorted({e for r in (placement or []) for e in r}) if placement is not None else list(range(E))
    layer = megamoe.MoELayer(E, K, H, I, ep_group=group, expert_placement=placement, max_tokens=MAX_TOKENS,
                             backend="auto")
    assert layer.ep_rank == rank and layer.ep_size == size and layer.device == f"cuda:{dev.index}", repr(layer)
    assert layer.local_expert_ids == held_here, (layer.local_expert_ids, held_here)
    idx = torch.tensor(held_here)
    layer.prepare_weights(w13[idx].to(dev), w2[idx].to(dev))
    print(f"ep_worker: rank {rank} layer '{name}' backend {layer.backend}, experts {held_here}", flush=True)
    stream = torch.cuda.Stream(device=dev) if side_stream else None
    for step, counts in enumerate(STEPS):
        T = counts[rank % len(counts)]
        x, ids, w = make_tokens(T, rank, step, dev)
        if stream is not None:
            stream.wait_stream(torch.cuda.current_stream(dev))
            with torch.cuda.stream(stream):
                out = torch.empty(T, H, dtype=torch.bfloat16, device=dev)
                layer(x, ids, w, out)
                layer.check_errors()        # waits on the side stream (torch's current one here)
            torch.cuda.current_stream(dev).wait_stream(stream)
        else:
            out = layer(x, ids, w)
            layer.check_errors()
        held_t = torch.tensor(held_anywhere, dtype=ids.dtype, device=dev)
        unrouted_expected = int(((ids >= 0) & ~torch.isin(ids, held_t)).sum())
        unrouted = layer.unrouted_count()
        ref = reference(x, ids, w, w13.to(dev), w2.to(dev), held_anywhere)
        ok = tuple(out.shape) == (T, H) and out.dtype == torch.bfloat16 and bool(torch.isfinite(out).all())
        err = rel_l2(out, ref) if ok and T > 0 else 0.0
        msg = (f"layer '{name}' step {step}: T={T} rel-L2 {err:.2e}, unrouted {unrouted} "
               f"(expected {unrouted_expected})")
        if not ok or err >= TOL or unrouted != unrouted_expected:
            failures.append(msg + ("" if ok else f", bad output shape/dtype/values {tuple(out.shape)} {out.dtype}"))
            print(f"ep_worker: rank {rank} FAIL {msg}", flush=True)
        else:
            print(f"ep_worker: rank {rank} ok {msg}", flush=True)
    # Layers are destroyed collectively (window deregistration): same order on every rank.
    torch.cuda.synchronize(dev)
    del layer
    gc.collect()


def main():
    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local_rank)
    dev = torch.device("cuda", local_rank)
    dist.init_process_group("nccl")
    rank, size = dist.get_rank(), dist.get_world_size()
    failures = []
    try:
        group = megamoe.EpGroup.from_torch()
        assert (group.rank, group.size, group.device) == (rank, size, local_rank), repr(group)
        assert not group.aborted
        w13, w2 = full_weights()
        run_layer("contiguous", group, None, w13, w2, dev, failures)
        run_layer("contiguous, side stream", group, None, w13, w2, dev, failures, side_stream=True)
        if size == 2:
            run_layer("permuted + replica of expert 5", group, [[6, 0, 3, 5], [1, 2, 4, 7, 5]], w13, w2, dev, failures)
            run_layer("experts 3 and 7 on no rank", group, [[0, 1, 2], [4, 5, 6]], w13, w2, dev, failures)
        del group
        gc.collect()
    except Exception:  # noqa: BLE001  (reported; the peers then time out or are stopped by torchrun)
        print(f"ep_worker: rank {rank} FAIL with an exception:\n{traceback.format_exc()}", flush=True)
        sys.stdout.flush()
        os._exit(1)
    # Every rank learns whether any rank failed, so all exit alike.
    bad = torch.tensor([len(failures)], device=dev)
    dist.all_reduce(bad)
    dist.destroy_process_group()
    if failures:
        print(f"ep_worker: rank {rank} FAIL ({len(failures)} checks):\n  " + "\n  ".join(failures), flush=True)
        return 1
    if bad.item():
        print(f"ep_worker: rank {rank} passed its own checks, but another rank failed", flush=True)
        return 1
    print(f"ep_worker: rank {rank} OK", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
