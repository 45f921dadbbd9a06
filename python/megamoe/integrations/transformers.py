"""Hugging Face transformers (5.x) integration: the experts implementation ``"megamoe"``.

    import megamoe.integrations.transformers          # registers "megamoe" (also: register())
    model = AutoModelForCausalLM.from_pretrained(name, dtype=torch.bfloat16, experts_implementation="megamoe")
    # or, on a loaded model: model.set_experts_implementation("megamoe")

transformers 5.x routes the forward of every experts module decorated with
``@use_experts_implementation`` (Mixtral, Qwen3-MoE, GPT-OSS, ...) through
``ExpertsInterface``: ``forward(module, hidden_states [T, H], top_k_index [T, K],
top_k_weights [T, K]) -> [T, H]``. The function registered here converts the module's weights
once to megamoe's canonical layout (``w13`` [E, 2I, H] = gate rows then up rows, ``w2``
[E, H, I], optional ``b13`` [E, 2I] / ``b2`` [E, H]), builds a :class:`megamoe.MoELayer` on
the device of ``hidden_states`` (the CUDA backends for CUDA tensors, ``cpu_reference`` for CPU
tensors) and caches it on the module. Layouts, read from the flags the decorator sets on the
module (``is_transposed``, ``is_concatenated``, ``has_bias``):

- ``is_transposed=False`` (Mixtral, Qwen3-MoE): ``gate_up_proj`` [E, 2I, H] (gate rows, then up
  rows) and ``down_proj`` [E, H, I] are already canonical.
- ``is_transposed=True`` (GPT-OSS): ``gate_up_proj`` [E, H, 2I] -> transpose to [E, 2I, H];
  ``down_proj`` [E, I, H] -> [E, H, I].
- ``is_concatenated=False`` (GPT-OSS): gate and up interleaved along 2I (gate = ``[..., 0::2]``,
  up = ``[..., 1::2]``) -> de-interleaved to gate rows then up rows; the same for
  ``gate_up_proj_bias`` [E, 2I].

Activations: the default gate (``act_fn(gate) * up``) with SiLU -> ``swiglu``, with the tanh
GELU -> ``geglu``; GPT-OSS's gate (``clamp``, ``gate * sigmoid(alpha * gate) * (up + 1)``) ->
``swiglu_oai`` with the module's ``alpha`` and ``limit``. Anything else raises
NotImplementedError naming the module.

Numerics: megamoe computes in bf16 with FP32 accumulation (docs/DESIGN.md section 1). Weights
are rounded to bf16 when the layer is prepared, ``hidden_states`` is cast to bf16, the routing
weights to float32, and the bf16 result is cast back to ``hidden_states.dtype`` (so an fp32
model runs its experts at bf16 precision). ``top_k_index`` may be int32 or int64; ids
``>= num_experts`` (transformers' expert-parallel sentinels) become -1 ("no route").

Caching: the prepared layer lives on the module (``module._megamoe_cache``, not a parameter or
buffer, dropped by ``copy.deepcopy`` and pickling), one per device. Each eager call compares
the weights' ``data_ptr``, version counter, dtype and shape with those it was prepared from and
re-prepares when they changed (``load_state_dict``, ``.to()``, in-place edits); under
``torch.compile`` the check is skipped and the weights are taken as frozen (run one eager
forward first; the same holds for CUDA-graph capture). ``clear_cache(model)`` frees the
prepared layers.

Capacity: each layer is built with ``max_tokens`` (default 1024, ``register(max_tokens=N)`` or
``set_max_tokens(N)``), which sizes its GPU workspace once; longer inputs run in chunks of
``max_tokens`` tokens on the same layer.

Inference only: no gradient flows through the megamoe experts (a warning says so once when the
call runs with grad enabled and weights that require grad).
"""

from __future__ import annotations

import warnings
from typing import Any, Dict, Optional, Tuple

import torch

from ..layer import MoELayer

__all__ = [
    "NAME",
    "canonical_weights",
    "clear_cache",
    "experts_activation",
    "megamoe_experts_forward",
    "prepared_layer",
    "register",
    "set_max_tokens",
]

#: The name under which the implementation is registered (``experts_implementation=NAME``).
NAME = "megamoe"

_MAX_TOKENS = 1024
_CACHE_ATTR = "_megamoe_cache"
_GRAD_WARNED = False

# Experts classes whose custom gate is gpt-oss's swiglu (clamp to `limit`, gate *
# sigmoid(alpha * gate) * (up + 1)), with `alpha` and `limit` attributes.
_SWIGLU_OAI_CLASSES = ("GptOssExperts",)


def set_max_tokens(max_tokens: int) -> None:
    """Capacity (tokens per megamoe call) of the prepared layers; a cached layer built with
    another capacity is rebuilt on its module's next eager call."""
    global _MAX_TOKENS
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ValueError(f"megamoe: argument 'max_tokens': expected an int >= 1, got {max_tokens!r}")
    _MAX_TOKENS = max_tokens


def register(name: str = NAME, *, max_tokens: Optional[int] = None) -> None:
    """Registers :func:`megamoe_experts_forward` with transformers' ``ExpertsInterface`` as ``name``.

    Importing this module already registers ``"megamoe"``; calling again is harmless.
    """
    try:
        from transformers.integrations.moe import ExpertsInterface
    except ImportError as e:  # transformers missing, or older than 5.x
        raise ImportError(
            "megamoe: the transformers integration needs transformers >= 5.0 (with "
            f"transformers.integrations.moe.ExpertsInterface): {e}"
        ) from e
    if max_tokens is not None:
        set_max_tokens(max_tokens)
    ExpertsInterface.register(name, megamoe_experts_forward)


# ---- weight conversion ---------------------------------------------------------------------
def _module_name(module: Any) -> str:
    return type(module).__name__


def _param(module: Any, name: str) -> "torch.Tensor":
    t = getattr(module, name, None)
    if not isinstance(t, torch.Tensor):
        raise NotImplementedError(
            f"megamoe: experts module {_module_name(module)} has no tensor '{name}' (got "
            f"{type(t).__name__}); megamoe runs unquantized experts that store gate_up_proj and down_proj "
            "as 3-D tensors (bf16/fp16/fp32)"
        )
    if t.dim() != 3 and name in ("gate_up_proj", "down_proj"):
        raise ValueError(
            f"megamoe: {_module_name(module)}.{name}: expected a 3-D tensor [E, ., .], got shape {tuple(t.shape)}"
        )
    if not t.is_floating_point() or t.dtype.itemsize < 2:
        raise NotImplementedError(
            f"megamoe: {_module_name(module)}.{name}: expected dtype bfloat16, float16 or float32, got {t.dtype} "
            "(quantized experts are not converted by this integration)"
        )
    return t


def _weight_tensors(module: Any) -> Tuple["torch.Tensor", ...]:
    names = ("gate_up_proj", "down_proj")
    if getattr(module, "has_bias", False):
        names += ("gate_up_proj_bias", "down_proj_bias")
    return tuple(_param(module, n) for n in names)


def experts_activation(module: Any) -> Tuple[str, Dict[str, float]]:
    """megamoe's ``(activation, activation_params)`` for a transformers experts module."""
    if not getattr(module, "has_gate", True):
        raise NotImplementedError(
            f"megamoe: experts module {_module_name(module)} is not gated (has_gate=False); megamoe's gated "
            "activations need gate_up_proj"
        )
    from transformers import activations as hf_act
    from transformers.integrations import moe as hf_moe

    default_gate = getattr(hf_moe, "_default_apply_gate", None)
    gate_fn = getattr(type(module), "_apply_gate", None)
    if gate_fn is None or gate_fn is default_gate:  # act_fn(gate) * up, gate = first half
        act = getattr(module, "act_fn", None)
        if isinstance(act, (hf_act.SiLUActivation, torch.nn.SiLU)):
            return "swiglu", {}
        if isinstance(act, (hf_act.GELUTanh, hf_act.NewGELUActivation)):
            return "geglu", {}
        raise NotImplementedError(
            f"megamoe: experts module {_module_name(module)}: activation {type(act).__name__} has no megamoe "
            "equivalent (supported: SiLU -> swiglu, tanh GELU -> geglu)"
        )
    if _module_name(module) in _SWIGLU_OAI_CLASSES:
        return "swiglu_oai", {"alpha": float(module.alpha), "limit": float(module.limit)}
    raise NotImplementedError(
        f"megamoe: experts module {_module_name(module)} has its own _apply_gate, which megamoe does not "
        f"know (known: the default act_fn(gate) * up, and {', '.join(_SWIGLU_OAI_CLASSES)}'s swiglu_oai)"
    )


def _deinterleave(t: "torch.Tensor", dim: int) -> "torch.Tensor":
    """[.., g0, u0, g1, u1, ..] along ``dim`` -> [.., g0, g1, .., u0, u1, ..]."""
    idx = [slice(None)] * t.dim()
    idx[dim] = slice(0, None, 2)
    gate = t[tuple(idx)]
    idx[dim] = slice(1, None, 2)
    up = t[tuple(idx)]
    return torch.cat([gate, up], dim=dim)


@torch.no_grad()
def canonical_weights(module: Any, device: Any = None) -> Dict[str, "torch.Tensor"]:
    """The module's experts in megamoe's canonical layout, bf16, contiguous, on ``device``
    (default: the weights' device): ``w13`` [E, 2I, H] (gate rows, then up rows), ``w2``
    [E, H, I], and for modules with biases ``b13`` [E, 2I], ``b2`` [E, H]."""
    tensors = _weight_tensors(module)
    gate_up, down = tensors[0], tensors[1]
    transposed = bool(getattr(module, "is_transposed", False))
    concatenated = bool(getattr(module, "is_concatenated", True))
    cls = _module_name(module)
    E = gate_up.shape[0]
    # H and I from gate_up_proj; down_proj must agree.
    if transposed:  # gate_up [E, H, 2I], down [E, I, H]
        H, I = gate_up.shape[1], gate_up.shape[2] // 2
        src13, src2 = (E, H, 2 * I), (E, I, H)
    else:  # gate_up [E, 2I, H], down [E, H, I]
        H, I = gate_up.shape[2], gate_up.shape[1] // 2
        src13, src2 = (E, 2 * I, H), (E, H, I)
    for name, t, want in (("gate_up_proj", gate_up, src13), ("down_proj", down, src2)):
        if tuple(t.shape) != want:
            raise ValueError(
                f"megamoe: {cls}.{name}: expected shape {list(want)} (is_transposed={transposed}), "
                f"got {list(t.shape)}"
            )
    dev = gate_up.device if device is None else torch.device(device)

    def bf16(t: "torch.Tensor") -> "torch.Tensor":
        return t.detach().to(device=dev, dtype=torch.bfloat16)

    w13 = bf16(gate_up)
    w2 = bf16(down)
    if transposed:
        w13 = w13.transpose(1, 2)
        w2 = w2.transpose(1, 2)
    if not concatenated:
        w13 = _deinterleave(w13, 1)
    out = {"w13": w13.contiguous(), "w2": w2.contiguous()}
    if len(tensors) == 4:
        b13, b2 = tensors[2], tensors[3]
        for name, t, want in (("gate_up_proj_bias", b13, (E, 2 * I)), ("down_proj_bias", b2, (E, H))):
            if tuple(t.shape) != want:
                raise ValueError(f"megamoe: {cls}.{name}: expected shape {list(want)}, got {list(t.shape)}")
        b13 = bf16(b13) if b13.dtype == torch.bfloat16 else b13.detach().to(device=dev, dtype=torch.float32)
        b2 = bf16(b2) if b2.dtype == torch.bfloat16 else b2.detach().to(device=dev, dtype=torch.float32)
        if not concatenated:
            b13 = _deinterleave(b13, 1)
        out["b13"] = b13.contiguous()
        out["b2"] = b2.contiguous()
    return out


# ---- the prepared-layer cache ----------------------------------------------------------------
class _Cache:
    """Prepared layers of one experts module, per device. Never copied or pickled."""

    __slots__ = ("entries",)

    def __init__(self) -> None:
        self.entries: Dict[str, Tuple[tuple, MoELayer]] = {}

    def __deepcopy__(self, memo: Any) -> "_Cache":
        return _Cache()

    def __getstate__(self) -> dict:
        return {}

    def __setstate__(self, state: dict) -> None:
        self.entries = {}

    def __repr__(self) -> str:
        return f"megamoe prepared layers on {sorted(self.entries)}"


def _version(t: "torch.Tensor") -> int:
    try:
        return int(t._version)
    except RuntimeError:  # inference tensors have no version counter
        return -1


def _fingerprint(module: Any, top_k: int) -> tuple:
    return (top_k, _MAX_TOKENS) + tuple(
        (t.data_ptr(), _version(t), t.dtype, tuple(t.shape), str(t.device)) for t in _weight_tensors(module)
    )


def _device_key(device: "torch.device") -> str:
    if device.type == "cuda":
        return f"cuda:{device.index if device.index is not None else torch.cuda.current_device()}"
    if device.type == "cpu":
        return "cpu"
    raise ValueError(f"megamoe: argument 'hidden_states': expected a tensor on cpu or cuda, got a tensor on {device}")


def _cache(module: Any) -> _Cache:
    c = module.__dict__.get(_CACHE_ATTR)
    if c is None:
        c = _Cache()
        object.__setattr__(module, _CACHE_ATTR, c)
    return c


def prepared_layer(module: Any, device: Any, top_k: int) -> MoELayer:
    """The :class:`megamoe.MoELayer` holding ``module``'s experts on ``device`` (built and
    prepared on first use, re-prepared when the weights changed)."""
    key = _device_key(torch.device(device))
    cache = _cache(module)
    fp = _fingerprint(module, top_k)
    hit = cache.entries.get(key)
    if hit is not None and hit[0] == fp:
        return hit[1]
    if key != "cpu" and torch.cuda.is_current_stream_capturing():
        raise RuntimeError(
            f"megamoe: {_module_name(module)}: the experts' weights are not prepared (or changed) and cannot be "
            "prepared during CUDA-graph capture (it copies and synchronises); run one eager forward before capturing"
        )
    cache.entries.pop(key, None)  # free the stale layer before building the new one
    activation, params = experts_activation(module)
    weights = canonical_weights(module, key)
    E, N13, H = weights["w13"].shape
    layer = MoELayer(
        E, top_k, H, N13 // 2,
        activation=activation,
        activation_params=params or None,
        has_bias="b13" in weights,
        max_tokens=_MAX_TOKENS,
        device=key,
    )
    layer.prepare_weights(**weights)
    cache.entries[key] = (fp, layer)
    return layer


def clear_cache(model: Any) -> int:
    """Drops the prepared megamoe layers of ``model`` and its submodules; returns how many."""
    n = 0
    mods = model.modules() if hasattr(model, "modules") else [model]
    for m in mods:
        c = m.__dict__.get(_CACHE_ATTR)
        if c is not None:
            n += len(c.entries)
            c.entries.clear()
    return n


# ---- the experts forward -----------------------------------------------------------------
def _warn_no_grad(module: Any) -> None:
    global _GRAD_WARNED
    if _GRAD_WARNED or not torch.is_grad_enabled():
        return
    if any(t.requires_grad for t in _weight_tensors(module)):
        _GRAD_WARNED = True
        warnings.warn(
            "megamoe: the 'megamoe' experts implementation is inference-only: no gradient flows through "
            "the experts. Run the model under torch.no_grad() / torch.inference_mode(), or use another "
            "experts_implementation for training.",
            RuntimeWarning,
            stacklevel=3,
        )


def megamoe_experts_forward(
    self: Any,
    hidden_states: "torch.Tensor",
    top_k_index: "torch.Tensor",
    top_k_weights: "torch.Tensor",
) -> "torch.Tensor":
    """transformers' experts forward on megamoe: ``hidden_states`` [T, H], ``top_k_index``
    [T, K] (int32/int64), ``top_k_weights`` [T, K] -> [T, H] in ``hidden_states.dtype``."""
    if not isinstance(hidden_states, torch.Tensor):
        raise TypeError(
            f"megamoe: argument 'hidden_states': expected a torch.Tensor, got {type(hidden_states).__name__}"
        )
    shape = hidden_states.shape
    H = shape[-1]
    x = hidden_states.reshape(-1, H)
    T = x.shape[0]
    K = top_k_index.shape[-1]
    for name, t in (("top_k_index", top_k_index), ("top_k_weights", top_k_weights)):
        if t.numel() != T * K:
            raise ValueError(
                f"megamoe: argument '{name}': expected shape [{T}, {K}] (tokens of hidden_states, top-k), "
                f"got {list(t.shape)}"
            )
    if torch.compiler.is_compiling():
        hit = _cache(self).entries.get(_device_key(x.device))
        if hit is None:
            raise RuntimeError(
                "megamoe: run one eager forward before torch.compile: the experts' weights are converted "
                "and prepared outside the compiled graph"
            )
        layer = hit[1]
    else:
        _warn_no_grad(self)
        layer = prepared_layer(self, x.device, K)
    if layer.hidden_size != H:
        raise ValueError(
            f"megamoe: argument 'hidden_states': expected hidden size {layer.hidden_size} "
            f"({_module_name(self)}), got {H}"
        )

    xb = x.to(torch.bfloat16).contiguous()
    ids = top_k_index.reshape(T, K)
    if ids.dtype not in (torch.int32, torch.int64):
        ids = ids.to(torch.int64)
    # transformers' expert-parallel sentinel (id >= num_experts, weight 0) is megamoe's "no route".
    ids = ids.masked_fill(ids >= layer.num_experts, -1).contiguous()
    w = top_k_weights.reshape(T, K).to(torch.float32).contiguous()

    # In chunks of the layer's capacity (one chunk unless T > max_tokens).
    cap = layer.max_tokens
    out = torch.empty((T, H), dtype=torch.bfloat16, device=x.device)
    for s in range(0, T, cap):
        e = min(s + cap, T)
        layer(xb[s:e], ids[s:e], w[s:e], out=out[s:e])
    return out.to(hidden_states.dtype).reshape(shape)


# Importing this module registers "megamoe" (ImportError without transformers 5.x).
register()
