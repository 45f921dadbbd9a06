"""The CPU oracle: the library's reference MoE (src/reference) on host arrays."""

from __future__ import annotations

from typing import Any, Mapping, Optional

import numpy as np

from . import _arrays
from .layer import FP4_RECIPES, MoELayer


def _shape(a: Any, name: str):
    shape = getattr(a, "shape", None)
    if shape is None:
        raise TypeError(f"megamoe: argument '{name}': expected a tensor, got {type(a).__name__}")
    return tuple(int(s) for s in shape)


def reference_moe(
    x: Any,
    topk_ids: Any,
    topk_weights: Any,
    w13: Any,
    w2: Any,
    *,
    w13_scale: Any = None,
    w2_scale: Any = None,
    w13_global_scale: Any = None,
    w2_global_scale: Any = None,
    b13: Any = None,
    b2: Any = None,
    activation: str = "swiglu",
    activation_params: Optional[Mapping[str, float]] = None,
    recipe: str = "bf16",
    num_experts: Optional[int] = None,
    ep_rank: int = 0,
    ep_size: int = 1,
    fc1_input_global_scale: float = 1.0,
    fc2_input_global_scale: float = 1.0,
    num_threads: int = 0,
) -> np.ndarray:
    """The MoE block computed by megamoe's CPU reference (the oracle every backend is tested
    against; docs/DESIGN.md section 1): FP32 accumulation over the recipe's exact dequantized
    values, bf16 rounding of the activation and of each expert output, a fixed-order FP32
    combine rounded once.

    Arguments are as for ``MoELayer(...)``, ``prepare_weights(...)`` and a call; the sizes
    come from the arrays (E_local = w13.shape[0], H = w2.shape[1], I from w2, K =
    topk_ids.shape[1]); ``num_experts`` defaults to E_local * ep_size. torch tensors (CPU or
    CUDA) are copied to the host first. Returns a NumPy ml_dtypes.bfloat16 array [T, H].
    """
    x, topk_ids, topk_weights = (_arrays.host_numpy_or_torch(a) for a in (x, topk_ids, topk_weights))
    tensors = dict(w13=w13, w2=w2, w13_scale=w13_scale, w2_scale=w2_scale, w13_global_scale=w13_global_scale,
                   w2_global_scale=w2_global_scale, b13=b13, b2=b2)
    tensors = {k: _arrays.host_numpy_or_torch(v) for k, v in tensors.items() if v is not None}
    w13s, w2s, ids_s, xs = _shape(w13, "w13"), _shape(w2, "w2"), _shape(topk_ids, "topk_ids"), _shape(x, "x")
    if len(w13s) != 3:
        raise ValueError(f"megamoe: argument 'w13': expected shape [E, N13, H], got shape {list(w13s)}")
    if len(w2s) != 3:
        raise ValueError(f"megamoe: argument 'w2': expected shape [E, H, I], got shape {list(w2s)}")
    if len(ids_s) != 2:
        raise ValueError(f"megamoe: argument 'topk_ids': expected shape [T, K], got shape {list(ids_s)}")
    e_local, hidden = w13s[0], w2s[1]
    inter = w2s[2] * (2 if recipe in FP4_RECIPES else 1)
    tokens = xs[0] if len(xs) >= 1 else 0
    layer = MoELayer(
        e_local * ep_size if num_experts is None else num_experts,
        ids_s[1],
        hidden,
        inter,
        recipe=recipe,
        activation=activation,
        activation_params=activation_params,
        ep_rank=ep_rank,
        ep_size=ep_size,
        max_tokens=max(tokens, 1),
        backend="cpu_reference",
        device="cpu",
        has_bias=b13 is not None or b2 is not None,
        num_threads=num_threads,
    )
    layer.prepare_weights(
        tensors.pop("w13"), tensors.pop("w2"), fc1_input_global_scale=fc1_input_global_scale,
        fc2_input_global_scale=fc2_input_global_scale, **tensors,
    )
    if _arrays.is_torch_tensor(x):
        out = np.empty((tokens, hidden), dtype=_arrays.need_ml_dtypes("reference_moe's output").bfloat16)
        layer._call_generic(x, topk_ids, topk_weights, out, None)
        return out
    out = layer(x, topk_ids, topk_weights)
    if not isinstance(out, np.ndarray):  # pragma: no cover - CPU layers always return NumPy here
        out = np.asarray(out)
    return out
