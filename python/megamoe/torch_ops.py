"""PyTorch integration: ``torch.ops.megamoe.fused_moe`` and ``torch.ops.megamoe.fused_moe_out``.

Imported automatically by ``import megamoe`` when torch is already imported, or the first
time a MoELayer is built or called with torch tensors; ``import megamoe.torch_ops`` does it
explicitly.

Op design: a layer's prepared weights live in C++ (in the backend's device layout, made once
by ``prepare_weights``), so the ops take the layer by *handle*, an int from
``MoELayer.handle``, looked up in a registry of live layers. The int is a constant to
torch.compile (the graph specialises on it) and costs nothing at run time; the layer must stay
alive while graphs that use its handle run.

    fused_moe(Tensor x, Tensor topk_ids, Tensor topk_weights, int handle) -> Tensor
    fused_moe_out(Tensor x, Tensor topk_ids, Tensor topk_weights, Tensor(a!) out, int handle) -> ()

Both run on the current CUDA stream, allocate nothing but the output (fused_moe) and never
synchronise, so they work inside CUDA-graph capture (``torch.cuda.graph`` and
``torch.compile(mode="reduce-overhead")``). Fake (meta) implementations give the output's
shape, dtype and device, so the ops trace under torch.compile with dynamic token counts.
No autograd formula is registered (inference only).
"""

from __future__ import annotations

import torch

from . import layer as _layer

__all__ = ["fused_moe", "fused_moe_out", "MoEModule"]


@torch.library.custom_op("megamoe::fused_moe", mutates_args=())
def fused_moe(x: torch.Tensor, topk_ids: torch.Tensor, topk_weights: torch.Tensor, handle: int) -> torch.Tensor:
    """out [T, H] bf16 = the MoE block of the layer named by ``handle`` applied to x [T, H].

    Inference only: the op has no autograd formula, so call it (and torch.compile modules
    that use it) under ``torch.no_grad()`` or ``torch.inference_mode()``."""
    return _layer.layer_from_handle(handle)._forward_torch(x, topk_ids, topk_weights)


@fused_moe.register_fake
def _fused_moe_fake(x, topk_ids, topk_weights, handle):
    layer = _layer.layer_from_handle(handle)
    if x.dim() != 2:
        raise ValueError(f"megamoe: argument 'x': expected shape [T, {layer.hidden_size}], got shape {list(x.shape)}")
    return x.new_empty((x.shape[0], layer.hidden_size), dtype=torch.bfloat16)


@torch.library.custom_op("megamoe::fused_moe_out", mutates_args=("out",))
def fused_moe_out(
    x: torch.Tensor, topk_ids: torch.Tensor, topk_weights: torch.Tensor, out: torch.Tensor, handle: int
) -> None:
    """Like fused_moe, writing into ``out`` [T, H] bf16."""
    _layer.layer_from_handle(handle)._forward_torch(x, topk_ids, topk_weights, out)


@fused_moe_out.register_fake
def _fused_moe_out_fake(x, topk_ids, topk_weights, out, handle):
    return None


class MoEModule(torch.nn.Module):
    """``torch.nn.Module`` over a prepared MoELayer: ``forward(x, topk_ids, topk_weights)``
    calls ``torch.ops.megamoe.fused_moe``, so it compiles with ``fullgraph=True``."""

    def __init__(self, layer: "_layer.MoELayer") -> None:
        super().__init__()
        self.layer = layer
        self.handle = layer.handle

    def forward(self, x: torch.Tensor, topk_ids: torch.Tensor, topk_weights: torch.Tensor) -> torch.Tensor:
        return torch.ops.megamoe.fused_moe(x, topk_ids, topk_weights, self.handle)

    def extra_repr(self) -> str:
        return repr(self.layer)


_layer._torch = torch
