#!/usr/bin/env python3
"""PyTorch baseline for the expert-parallel MoE block (docs/DESIGN.md section 3), one process per GPU:

    torchrun --nproc-per-node 2 bench/anchors/ep_torch_all_to_all.py --out ep_torch.json \
        [--presets deepseek-v3,qwen3-30b-a3b,mixtral-8x7b,kimi-k2] [--tokens-per-rank 1,8,64,512,4096]

What a user writes with torch.distributed alone (the torchtitan-style token shuffle):
  1. every route (token t, slot k) goes to the rank owning its expert (contiguous blocks of
     E/R experts per rank); routes are sorted by destination rank (stable: by token, then k);
  2. the per-destination route counts are exchanged with all_to_all_single, then copied to
     the host (the split sizes of the next exchange must be Python ints: one device->host sync);
  3. dispatch: one all_to_all_single of the routes' x rows (bf16 [H] plus the local expert id
     packed into two extra bf16 columns), so a token goes once per route, not once per rank;
  4. the owner runs the single-GPU PyTorch expert pipeline of bench/anchors/torch_moe.py
     (imported, build_pipeline: stable sort by expert, x row gather, torch._grouped_mm FC1,
     SwiGLU, torch._grouped_mm FC2) on its local experts, each received route being one row with
     one expert and weight 1 (that pipeline's combine then returns y itself, rounded to bf16;
     it costs one fp32 pass over the received rows that a pipeline written for EP would skip);
  5. return: all_to_all_single of the y rows back to the source ranks;
  6. weighted combine at the source in fp32 (index_add over the routes), rounded to bf16 once.

Variants: "moe" (the above) and "exchange_only" (step 4 replaced by the identity: the received
rows go straight back), whose records carry exchange_gbps: the bytes each rank sends to other
ranks in one forward (dispatch rows of (H+2)*2 bytes plus returned rows of the same width,
averaged over ranks) divided by ms_median.

Modes: "eager" is the real thing (the host needs the counts each forward, so it cannot be
captured). "graph" captures one forward in a CUDA graph with the split sizes fixed at capture
time from the (unchanging) routing of the cell, the counts exchange still inside: a lower bound
for PyTorch that no real forward with changing routing reaches. When capturing NCCL collectives
fails on any rank, the cell's graph record holds the error instead and eager stands. Every
record says which mode it is.

Timing: bf16 weights with uniform random values (only the shapes matter for time), uniform
random routing (bench/anchors/torch_moe.py make_routes, seeded per rank and token count), an
L2 flush and a host barrier (a gloo group, so no NCCL work sits between the timed forwards)
before each forward, CUDA events around it; --warmup forwards, then --iters (>= 50 by
default) timed ones. ms_median: the median over iterations of the slowest rank's time.
Weights are generated one expert at a time on the GPU (no fp32 copy of the whole tensor).
--check compares every cell's output with the single-GPU pipeline on the full weights (only
for presets whose full weights fit in --check-max-gb; each rank regenerates every expert from
the per-expert seeds) and the exchange-only output with sum_k w[t,k] x[t].

Writes a JSON list of records (preset, ep_size, tokens_per_rank, ms_median, mode, variant,
exchange_gbps, ...) to --out after every cell (rank 0), so a run that stops keeps its results.
"""
import argparse
import datetime
import json
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch_moe  # noqa: E402  (the single-GPU PyTorch MoE pipeline and the routing generator)

DEFAULT_PRESETS = "deepseek-v3,qwen3-30b-a3b,mixtral-8x7b,kimi-k2"
PRESETS = torch_moe.PRESETS  # name: (H, I, E, K); includes "tiny" (256, 128, 8, 2) for smoke runs
BASELINE_NAME = "torch_all_to_all_single_grouped_mm"


def log(rank, msg):
    if rank == 0:
        print(f"[ep_anchor] {msg}", file=sys.stderr, flush=True)


def expert_weights(torch, experts, N, K, scale, seed, which, dev):
    """bf16 [len(experts), N, K], uniform(-scale, scale), one generator per global expert, so any
    rank regenerates any expert identically. Made one expert at a time (fp32 temp of one expert)."""
    out = torch.empty(len(experts), N, K, dtype=torch.bfloat16, device=dev)
    g = torch.Generator(device=dev)
    for i, e in enumerate(experts):
        g.manual_seed(seed * 1000003 + which * 100003 + int(e))
        out[i] = (torch.rand(N, K, device=dev, generator=g) * 2 - 1).mul_(scale)
    return out


class EpMoE:
    """One rank's expert-parallel MoE forward over torch.distributed (see the module docstring)."""

    def __init__(self, torch, dist, group, E, K, H, I, W13, W2, identity):
        self.torch, self.dist, self.group = torch, dist, group
        self.R = dist.get_world_size(group)
        self.rank = dist.get_rank(group)
        self.E, self.K, self.H, self.I = E, K, H, I
        self.EL = E // self.R
        self.identity = identity
        self.pipe = None if identity else torch_moe.build_pipeline(torch, W13, W2, self.EL, I, "bf16")

    def count(self, dest):
        """Routes per destination rank, int64 [R] (scatter_add: torch.bincount syncs the host)."""
        torch = self.torch
        c = torch.zeros(self.R, dtype=torch.int64, device=dest.device)
        return c.scatter_add_(0, dest, torch.ones_like(dest))

    def splits(self, ids):
        """(send counts, receive counts) per rank as Python lists (one device->host sync)."""
        torch = self.torch
        dest = ids.reshape(-1).long() // self.EL
        send = self.count(dest)
        recv = torch.empty_like(send)
        self.dist.all_to_all_single(recv, send, group=self.group)
        both = torch.stack([send, recv]).cpu()
        return both[0].tolist(), both[1].tolist()

    def forward(self, x, ids, w, static_splits=None):
        """out [T, H] bf16. With static_splits (graph mode) the counts are still exchanged on the
        device, but the split sizes used are the given host lists (no host sync)."""
        torch, dist, H, K = self.torch, self.dist, self.H, self.K
        T = x.shape[0]
        flat = ids.reshape(-1).long()
        dest = flat // self.EL
        order = torch.sort(dest, stable=True).indices       # routes grouped by destination rank
        token = order // K
        send_counts = self.count(dest)
        recv_counts = torch.empty_like(send_counts)
        dist.all_to_all_single(recv_counts, send_counts, group=self.group)
        if static_splits is None:
            both = torch.stack([send_counts, recv_counts]).cpu()
            sc, rc = both[0].tolist(), both[1].tolist()
        else:
            sc, rc = static_splits
        # dispatch: x row + local expert id (int32 packed into two bf16 columns)
        send = torch.empty(T * K, H + 2, dtype=torch.bfloat16, device=x.device)
        send[:, :H] = x.index_select(0, token)
        send[:, H:].view(torch.int32)[:, 0] = (flat - dest * self.EL)[order].to(torch.int32)
        n_recv = int(sum(rc))
        recv = torch.empty(n_recv, H + 2, dtype=torch.bfloat16, device=x.device)
        dist.all_to_all_single(recv, send, output_split_sizes=rc, input_split_sizes=sc, group=self.group)
        if self.identity:
            y = recv                                            # rows go back as they came
        elif n_recv == 0:
            y = torch.empty(0, H, dtype=torch.bfloat16, device=x.device)
        else:
            local_ids = recv[:, H:].view(torch.int32)[:, :1]    # [n_recv, 1]
            ones = torch.ones(n_recv, 1, dtype=torch.float32, device=x.device)
            y = self.pipe(recv[:, :H], local_ids, ones)         # [n_recv, H] bf16: each route's y
        back = torch.empty(T * K, y.shape[1], dtype=torch.bfloat16, device=x.device)
        dist.all_to_all_single(back, y, output_split_sizes=sc, input_split_sizes=rc, group=self.group)
        out = torch.zeros(T, H, dtype=torch.float32, device=x.device)
        out.index_add_(0, token, back[:, :H].float() * w.reshape(-1)[order].unsqueeze(1))
        return out.to(torch.bfloat16)

    def offrank_bytes(self, sc, rc):
        """Bytes this rank sends to other ranks in one forward (dispatch + return)."""
        row_out = (self.H + 2) * 2
        row_back = (self.H + 2) * 2 if self.identity else self.H * 2
        return (sum(sc) - sc[self.rank]) * row_out + (sum(rc) - rc[self.rank]) * row_back


def time_fn(torch, dist, cpu_group, fn, flush, warmup, iters):
    """Median over iterations of the slowest rank's milliseconds (and this rank's median)."""
    times = []
    for i in range(warmup + iters):
        flush.fill_(i & 0xFF)
        dist.barrier(group=cpu_group)
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        fn()
        e1.record()
        e1.synchronize()
        if i >= warmup:
            times.append(e0.elapsed_time(e1))
    t = torch.tensor(times, dtype=torch.float64)
    mine = float(np.median(times))
    dist.all_reduce(t, op=dist.ReduceOp.MAX, group=cpu_group)
    return float(np.median(t.numpy())), mine


def all_ok(torch, dist, cpu_group, ok):
    flag = torch.tensor([0 if ok else 1], dtype=torch.int64)
    dist.all_reduce(flag, group=cpu_group)
    return int(flag.item()) == 0


def rel_l2(a, b):
    b = b.double()
    d = b.norm().item()
    return (a.double() - b).norm().item() / (d if d > 0 else 1.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--presets", default=DEFAULT_PRESETS)
    ap.add_argument("--tokens-per-rank", default="1,8,64,512,4096")
    ap.add_argument("--iters", type=int, default=50, help="timed forwards per cell (default 50)")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--modes", default="eager,graph", help="eager and/or graph (see the docstring)")
    ap.add_argument("--variants", default="moe,exchange_only")
    ap.add_argument("--check", action="store_true", help="compare outputs with the single-GPU pipeline")
    ap.add_argument("--check-max-gb", type=float, default=8.0,
                    help="--check only presets whose full bf16 weights take at most this many GB")
    ap.add_argument("--out", required=True, help="JSON records (written by rank 0)")
    args = ap.parse_args()

    import torch
    import torch.distributed as dist

    local_rank = int(os.environ.get("LOCAL_RANK", "0"))
    torch.cuda.set_device(local_rank)
    dev = torch.device("cuda", local_rank)
    dist.init_process_group("nccl", device_id=dev)
    group = dist.group.WORLD
    cpu_group = dist.new_group(backend="gloo")   # barriers and timing reductions off the NCCL stream
    rank, R = dist.get_rank(), dist.get_world_size()
    modes = [m for m in args.modes.split(",") if m]
    variants = [v for v in args.variants.split(",") if v]
    for m in modes:
        if m not in ("eager", "graph"):
            raise SystemExit(f"--modes: expected eager and/or graph, got {m!r}")
    for v in variants:
        if v not in ("moe", "exchange_only"):
            raise SystemExit(f"--variants: expected moe and/or exchange_only, got {v!r}")
    tokens = [int(t) for t in args.tokens_per_rank.split(",") if t]
    flush = torch.empty(256 << 20, dtype=torch.uint8, device=dev)
    records = []
    nccl = torch.cuda.nccl.version()
    meta = {"name": BASELINE_NAME, "torch": torch.__version__,
            "nccl": ".".join(map(str, nccl)) if isinstance(nccl, tuple) else str(nccl),
            "gpu": torch.cuda.get_device_name(dev), "routing": "uniform", "iters": args.iters,
            "warmup": args.warmup, "date": datetime.datetime.now().isoformat(timespec="seconds")}

    def emit(rec):
        rec = {**meta, **rec}
        records.append(rec)
        if rank == 0:
            with open(args.out, "w") as f:
                json.dump(records, f, indent=1)

    # Each mode is one pass over every cell: eager first, so a graph pass that fails or hangs
    # leaves the eager results written.
    for mode in modes:
        for name in args.presets.split(","):
            H, I, E, K = PRESETS[name]
            if E % R:
                log(rank, f"{name}: E={E} is not a multiple of {R} ranks; skipped")
                continue
            EL = E // R
            mine = range(rank * EL, (rank + 1) * EL)
            W13 = expert_weights(torch, mine, 2 * I, H, 1 / math.sqrt(H), args.seed, 13, dev)
            W2 = expert_weights(torch, mine, H, I, 1 / math.sqrt(I), args.seed, 2, dev)
            gb = (W13.numel() + W2.numel()) * 2 / 1e9
            log(rank, f"{name}: {EL} experts per rank, {gb:.1f} GB of weights per rank")
            full_gb = E * 3 * H * I * 2 / 1e9
            ref_pipe = None
            if args.check and full_gb <= args.check_max_gb:
                ref_pipe = torch_moe.build_pipeline(
                    torch, expert_weights(torch, range(E), 2 * I, H, 1 / math.sqrt(H), args.seed, 13, dev),
                    expert_weights(torch, range(E), H, I, 1 / math.sqrt(I), args.seed, 2, dev), E, I, "bf16")
            for variant in variants:
                moe = EpMoE(torch, dist, group, E, K, H, I, W13, W2, identity=(variant == "exchange_only"))
                for T in tokens:
                    ids_np, w_np = torch_moe.make_routes(T, E, K, "uniform", args.seed + T + 7919 * rank)
                    ids = torch.from_numpy(np.asarray(ids_np, dtype=np.int32)).to(dev)
                    w = torch.from_numpy(np.asarray(w_np, dtype=np.float32)).to(dev)
                    g = torch.Generator(device=dev).manual_seed(args.seed * 31 + 17 * rank + T)
                    x = (torch.rand(T, H, device=dev, generator=g) * 2 - 1).to(torch.bfloat16)
                    sc, rc = moe.splits(ids)
                    rec = {"preset": name, "ep_size": R, "tokens_per_rank": T, "variant": variant, "mode": mode,
                           "hidden_size": H, "intermediate_size": I, "num_experts": E, "top_k": K}
                    graph = None
                    err = None
                    try:
                        if mode == "eager":
                            fn = lambda: moe.forward(x, ids, w)  # noqa: E731
                        else:
                            s = torch.cuda.Stream()
                            s.wait_stream(torch.cuda.current_stream())
                            with torch.cuda.stream(s):
                                for _ in range(2):
                                    moe.forward(x, ids, w, (sc, rc))
                            torch.cuda.current_stream().wait_stream(s)
                            torch.cuda.synchronize()
                            graph = torch.cuda.CUDAGraph()
                            with torch.cuda.graph(graph):
                                moe.forward(x, ids, w, (sc, rc))
                            fn = graph.replay
                    except Exception as e:  # noqa: BLE001  (recorded; the cell goes on without this mode)
                        err = f"{type(e).__name__}: {str(e)[:300]}"
                        graph = None
                        try:
                            torch.cuda.synchronize()
                        except Exception:  # noqa: BLE001
                            pass
                    if not all_ok(torch, dist, cpu_group, err is None):
                        rec["error"] = err or "failed on another rank"
                        emit(rec)
                        log(rank, f"{name:14s} T={T:5d} {variant:13s} {mode}: failed: {rec['error'][:200]}")
                        graph = None
                        continue
                    ms, ms_mine = time_fn(torch, dist, cpu_group, fn, flush, args.warmup, args.iters)
                    rec["ms_median"] = ms
                    rec["ms_median_rank0"] = ms_mine if rank == 0 else None
                    stats = torch.tensor([moe.offrank_bytes(sc, rc), sum(sc) - sc[rank]], dtype=torch.float64)
                    dist.all_reduce(stats, group=cpu_group)
                    rec["offrank_bytes_per_rank"] = float(stats[0]) / R
                    rec["offrank_routes_per_rank"] = float(stats[1]) / R
                    rec["exchange_gbps"] = (float(stats[0]) / R / (ms * 1e-3) / 1e9) if variant == "exchange_only" \
                        else None
                    if args.check:
                        out = moe.forward(x, ids, w)
                        if variant == "exchange_only":
                            want = (x.float().unsqueeze(1) * w.unsqueeze(2)).sum(1)
                            rec["check_rel_l2"] = rel_l2(out, want)
                        elif ref_pipe is not None:
                            rec["check_rel_l2"] = rel_l2(out, ref_pipe(x, ids, w).float())
                        if "check_rel_l2" in rec:
                            c = torch.tensor([rec["check_rel_l2"]], dtype=torch.float64)
                            dist.all_reduce(c, op=dist.ReduceOp.MAX, group=cpu_group)
                            rec["check_rel_l2"] = float(c.item())   # the worst rank
                    emit(rec)
                    line = f"{name:14s} T={T:5d} {variant:13s} {mode:5s} {ms:.4f} ms"
                    if rec["exchange_gbps"] is not None:
                        line += f"  {rec['exchange_gbps']:.1f} GB/s off-rank"
                    if "check_rel_l2" in rec:
                        line += f"  check rel-L2 {rec['check_rel_l2']:.2e}"
                    log(rank, line)
                    del graph
                del moe
            del W13, W2, ref_pipe
            torch.cuda.empty_cache()
    dist.barrier(group=cpu_group)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
