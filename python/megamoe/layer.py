"""MoELayer: one Mixture-of-Experts block (route -> FC1 + activation -> FC2 -> combine)."""

from __future__ import annotations

import itertools
import sys
import weakref
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import numpy as np

from . import _arrays
from ._args import _int
from . import _C

DeviceLike = Union[None, str, int, Any]  # Any: a torch.device

RECIPES = ("bf16", "fp8_block", "w4a16_mxfp4", "w4a16_nvfp4", "mxfp8", "w4a8_mxfp4", "nvfp4")
ACTIVATIONS = ("swiglu", "swiglu_oai", "geglu", "relu2")
EP_STYLES = ("auto", "push", "pull")
FP4_RECIPES = ("w4a16_mxfp4", "w4a8_mxfp4", "w4a16_nvfp4", "nvfp4")

# Layers by handle, for torch.ops.megamoe.* (an op takes the int handle, never the object).
_LAYERS: "weakref.WeakValueDictionary[int, MoELayer]" = weakref.WeakValueDictionary()
_NEXT_HANDLE = itertools.count(1)

# The torch module once megamoe.torch_ops is imported (set there); None before.
_torch: Any = None


def layer_from_handle(handle: int) -> "MoELayer":
    """The live MoELayer with this ``handle`` (see ``MoELayer.handle``)."""
    layer = _LAYERS.get(int(handle))
    if layer is None:
        raise RuntimeError(
            f"megamoe: no live MoELayer has handle {handle} (it was garbage-collected, or the handle "
            "comes from another process); keep a reference to the layer while its op is in use"
        )
    return layer


_TORCH_OPS_FAILED = False


def _ensure_torch_ops() -> None:
    """Registers torch.ops.megamoe.* once the program uses torch (imports megamoe.torch_ops)."""
    global _TORCH_OPS_FAILED
    if _torch is None and not _TORCH_OPS_FAILED and "torch" in sys.modules:
        try:
            from . import torch_ops  # noqa: F401  (sets _torch)
        except (ImportError, AttributeError) as e:  # a torch without torch.library.custom_op
            _TORCH_OPS_FAILED = True
            import warnings

            warnings.warn(f"megamoe: torch.ops.megamoe.* not registered ({e}); eager calls still work",
                          RuntimeWarning, stacklevel=3)


def _str(name: str, v: Any) -> str:
    if not isinstance(v, str):
        raise TypeError(f"megamoe: argument '{name}': expected a str, got {type(v).__name__}")
    return v


def _current_cuda_device() -> int:
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        return int(torch.cuda.current_device())
    return int(_C.cuda_current_device())


def _cuda_device_count() -> int:
    if not _C.with_cuda:
        return 0
    return int(_C.cuda_device_count())


def resolve_device(device: DeviceLike, backend: str = "auto") -> int:
    """megamoe device ordinal: -1 for the CPU, N for CUDA device N.

    ``None`` picks the current CUDA device when this build has CUDA and a device is present
    (and ``backend`` is not ``"cpu_reference"``), else the CPU.
    """
    if device is None:
        if backend == "cpu_reference" or _cuda_device_count() == 0:
            return -1
        return _current_cuda_device()
    if not isinstance(device, (str, int)) and hasattr(device, "type"):  # torch.device
        if device.type == "cpu":
            return -1
        if device.type == "cuda":
            return _current_cuda_device() if device.index is None else int(device.index)
        raise ValueError(f"megamoe: argument 'device': expected 'cpu' or 'cuda[:N]', got {device}")
    if isinstance(device, bool):
        raise TypeError("megamoe: argument 'device': expected None, 'cpu', 'cuda', 'cuda:N' or an int, got bool")
    if isinstance(device, int):
        if device < -1:
            raise ValueError(f"megamoe: argument 'device': expected -1 (CPU) or a CUDA ordinal >= 0, got {device}")
        return device
    if isinstance(device, str):
        d = device.strip().lower()
        if d == "cpu":
            return -1
        if d == "cuda":
            return _current_cuda_device()
        if d.startswith("cuda:") and d[5:].isdigit():
            return int(d[5:])
        raise ValueError(f"megamoe: argument 'device': expected 'cpu', 'cuda' or 'cuda:N', got '{device}'")
    raise TypeError(
        "megamoe: argument 'device': expected None, 'cpu', 'cuda', 'cuda:N', an int or a torch.device, "
        f"got {type(device).__name__}"
    )


def _activation_params(activation: str, params: Optional[Mapping[str, float]]):
    if params is None:
        return None, None
    if not isinstance(params, Mapping):
        raise TypeError(
            f"megamoe: argument 'activation_params': expected a dict with keys 'limit'/'alpha', got "
            f"{type(params).__name__}"
        )
    unknown = set(params) - {"limit", "alpha"}
    if unknown:
        raise ValueError(
            f"megamoe: argument 'activation_params': expected keys 'limit' and/or 'alpha', got {sorted(unknown)}"
        )
    limit = params.get("limit")
    alpha = params.get("alpha")
    def _number(key: str, v: Any) -> float:
        try:
            return float(v)
        except (TypeError, ValueError):
            raise TypeError(f"megamoe: argument 'activation_params': expected a number for '{key}', got {v!r}") from None

    if limit is not None:
        limit = _number("limit", limit)
    if alpha is not None:
        alpha = _number("alpha", alpha)
        if activation != "swiglu_oai":
            raise ValueError(
                "megamoe: argument 'activation_params': expected 'alpha' only with activation 'swiglu_oai', "
                f"got alpha={alpha} with activation '{activation}'"
            )
    return limit, alpha


def _placement(placement: Any) -> Optional[List[List[int]]]:
    """expert_placement as a list of lists of ints (None or [] = contiguous blocks)."""
    if placement is None:
        return None
    if isinstance(placement, (str, bytes)) or not isinstance(placement, (Sequence, np.ndarray)):
        raise TypeError(
            "megamoe: argument 'expert_placement': expected a list (one per rank) of lists of global expert ids, "
            f"got {type(placement).__name__}"
        )
    out = []
    for r, experts in enumerate(placement):
        if isinstance(experts, (str, bytes)) or not isinstance(experts, (Sequence, np.ndarray)):
            raise TypeError(
                f"megamoe: argument 'expert_placement[{r}]': expected a list of global expert ids, got "
                f"{type(experts).__name__}"
            )
        row = [_int(f"expert_placement[{r}][{i}]", e) for i, e in enumerate(experts)]
        for i, e in enumerate(row):
            if not -(1 << 31) <= e < (1 << 31):
                raise ValueError(f"megamoe: argument 'expert_placement[{r}][{i}]': expected an expert id, got {e}")
        out.append(row)
    return out or None


def _sync_stream(layer_device: int, stream: Any) -> int:
    """The stream a synchronising query waits on: ``stream``, else torch's current stream on the
    layer's device when torch is in use, else the legacy default stream (0)."""
    torch = sys.modules.get("torch")
    if stream is None and layer_device >= 0 and torch is not None and torch.cuda.is_available():
        return int(torch.cuda.current_stream(layer_device).cuda_stream)
    return _arrays.stream_value(stream)


class MoELayer:
    """One Mixture-of-Experts block: route each token to its top-k experts, run each expert's
    gated MLP (FC1, activation, FC2), weight by the router scores and sum (docs/DESIGN.md section 1).

    Args:
        num_experts: E, experts in the whole model.
        top_k: K, routes per token.
        hidden_size: H.
        intermediate_size: I, per expert (FC1 has 2I rows for gated activations, I for relu2).
        recipe: weight/activation format: "bf16", "fp8_block", "w4a16_mxfp4", "w4a16_nvfp4",
            "mxfp8", "w4a8_mxfp4", "nvfp4" (which ones run depends on the backend).
        activation: "swiglu", "swiglu_oai" (gpt-oss), "geglu" or "relu2".
        activation_params: {"limit": L} clamps swiglu/swiglu_oai; {"alpha": a} is swiglu_oai's
            sigmoid slope (default 1.702; limit defaults to 7.0 for swiglu_oai).
        ep_rank, ep_size: this layer is rank ep_rank of ep_size and holds only that rank's
            experts. Without ``ep_group`` nothing is exchanged: the layer computes its experts'
            share of each token it is given (routes to experts it does not hold contribute
            nothing). Default 0 and 1, or the group's rank and size when ``ep_group`` is given
            (an explicit value that differs from the group's raises ValueError).
        ep_group: a ``megamoe.EpGroup``: expert parallelism on GPUs. The layer exchanges tokens
            with the group's other ranks inside forward; constructing it is a collective (every
            rank of the group builds its layers in the same order), and every rank must call
            forward for each step, also with zero tokens. The layer keeps the group alive.
        expert_placement: which experts each rank holds: ``expert_placement[r]`` lists the
            global experts of rank r in local slot order (the first dimension of rank r's
            weights). One list per rank. An expert may be on several ranks (with a group, a route
            goes to the replica on its own rank when there is one, else to one picked by token;
            without a group, every holder computes all routes to it) or on none (with a group,
            its routes are dropped and counted by ``unrouted_count()``). None (default): rank r
            holds the contiguous block [r*E/ep_size, (r+1)*E/ep_size).
        ep_style: token exchange with a group: "push" (the source writes rows into the owner's
            receive buffer), "pull" (the owner reads them from the source) or "auto".
        ep_timeout_s: with a group, a forward that waits longer than this for a peer gives up;
            ``check_errors()`` then raises megamoe.CommError.
        max_tokens: capacity; a call accepts at most this many tokens. GPU workspace is sized
            from it once, here.
        backend: "auto" or a name from ``megamoe.registered_backends()``.
        device: None (the group's device with ``ep_group``; else the current CUDA device if this
            build has CUDA and a GPU is present, else the CPU), "cpu", "cuda", "cuda:N", an int
            ordinal (-1 = CPU) or a torch.device.
        has_bias: prepare_weights takes b13 [E_local, N13] and b2 [E_local, H].
        num_threads: CPU backend threads (0 = all cores).
        tactic_cache: the tactic cache ``megamoe tune`` writes (docs/TUNING.md): "" = the default
            location ($MEGAMOE_TACTIC_CACHE, else $XDG_CACHE_HOME/megamoe/tactics.json, else
            ~/.cache/megamoe/tactics.json), "off" = none
            (each backend's heuristic), else a file path. Read once, here.

    Raises:
        ValueError / TypeError for a bad configuration, NotImplementedError when no backend
        can run it here (the message lists each backend's reason).
    """

    def __init__(
        self,
        num_experts: int,
        top_k: int,
        hidden_size: int,
        intermediate_size: int,
        *,
        recipe: str = "bf16",
        activation: str = "swiglu",
        activation_params: Optional[Mapping[str, float]] = None,
        ep_rank: Optional[int] = None,
        ep_size: Optional[int] = None,
        max_tokens: int = 8192,
        backend: str = "auto",
        device: DeviceLike = None,
        has_bias: bool = False,
        num_threads: int = 0,
        ep_group: Any = None,
        expert_placement: Optional[Sequence[Sequence[int]]] = None,
        ep_style: str = "auto",
        ep_timeout_s: float = 5.0,
        tactic_cache: str = "",
    ) -> None:
        self._num_experts = _int("num_experts", num_experts)
        self._top_k = _int("top_k", top_k)
        self._hidden_size = _int("hidden_size", hidden_size)
        self._intermediate_size = _int("intermediate_size", intermediate_size)
        self._recipe = _str("recipe", recipe)
        self._activation = _str("activation", activation)
        ep_rank = None if ep_rank is None else _int("ep_rank", ep_rank, 32)
        ep_size = None if ep_size is None else _int("ep_size", ep_size, 32)
        self._max_tokens = _int("max_tokens", max_tokens)
        backend = _str("backend", backend)
        if not isinstance(has_bias, (bool, int)) and type(has_bias).__name__ != "bool_":
            raise TypeError(f"megamoe: argument 'has_bias': expected a bool, got {type(has_bias).__name__}")
        self._has_bias = bool(has_bias)
        limit, alpha = _activation_params(self._activation, activation_params)
        self._activation_params = dict(activation_params) if activation_params else {}
        self._ep_style = _str("ep_style", ep_style)
        if self._ep_style not in EP_STYLES:
            raise ValueError(f"megamoe: argument 'ep_style': expected one of {', '.join(EP_STYLES)}, got "
                             f"'{self._ep_style}'")
        if isinstance(ep_timeout_s, bool) or not isinstance(ep_timeout_s, (int, float, np.floating, np.integer)):
            raise TypeError(f"megamoe: argument 'ep_timeout_s': expected a number of seconds, got "
                            f"{type(ep_timeout_s).__name__}")
        self._ep_timeout_s = float(ep_timeout_s)
        if not self._ep_timeout_s > 0:
            raise ValueError(f"megamoe: argument 'ep_timeout_s': expected a positive number of seconds, got "
                             f"{self._ep_timeout_s}")
        self._ep_group = ep_group
        group_impl = None
        if ep_group is not None:
            from .ep import EpGroup

            if not isinstance(ep_group, EpGroup):
                raise TypeError(f"megamoe: argument 'ep_group': expected a megamoe.EpGroup or None, got "
                                f"{type(ep_group).__name__}")
            for name, given, group_value in (("ep_size", ep_size, ep_group.size), ("ep_rank", ep_rank, ep_group.rank)):
                if given is not None and given != group_value:
                    raise ValueError(f"megamoe: argument '{name}': expected {group_value} (the ep_group's {name[3:]}) "
                                     f"or None, got {given}")
            ep_rank, ep_size = ep_group.rank, ep_group.size
            if device is None:
                device = ep_group.device
            group_impl = ep_group._impl
        self._ep_rank = 0 if ep_rank is None else ep_rank
        self._ep_size = 1 if ep_size is None else ep_size
        self._expert_placement = _placement(expert_placement)
        if self._expert_placement is not None and len(self._expert_placement) != self._ep_size:
            raise ValueError(f"megamoe: argument 'expert_placement': expected {self._ep_size} lists (one per rank, "
                             f"ep_size), got {len(self._expert_placement)}")
        self._device_index = resolve_device(device, backend)
        if ep_group is not None and self._device_index != ep_group.device:
            raise ValueError(f"megamoe: argument 'device': expected cuda:{ep_group.device} (the ep_group's device) or "
                             f"None, got {device!r}")
        if self._device_index >= 0 and not _C.with_cuda:
            raise NotImplementedError(
                f"megamoe: unsupported: device cuda:{self._device_index} requested, but this megamoe build has "
                "no CUDA support (it was built without nvcc); use device='cpu'"
            )
        self._impl = _C.Layer(
            self._num_experts, self._top_k, self._hidden_size, self._intermediate_size,
            self._recipe, self._activation, limit, alpha, self._ep_rank, self._ep_size,
            self._max_tokens, backend, self._device_index, self._has_bias, _int("num_threads", num_threads, 32),
            group_impl, self._expert_placement, self._ep_style, self._ep_timeout_s, _str("tactic_cache", tactic_cache),
        )
        self._weights_ready = False
        self._handle = next(_NEXT_HANDLE)
        _LAYERS[self._handle] = self
        _ensure_torch_ops()

    # ---- description --------------------------------------------------------------------
    @property
    def num_experts(self) -> int:
        return self._num_experts

    @property
    def top_k(self) -> int:
        return self._top_k

    @property
    def hidden_size(self) -> int:
        return self._hidden_size

    @property
    def intermediate_size(self) -> int:
        return self._intermediate_size

    @property
    def local_experts(self) -> int:
        """Experts held by this rank (the first dimension of its weights):
        ``len(expert_placement[ep_rank])`` with a placement, else num_experts // ep_size."""
        if self._expert_placement is not None:
            return len(self._expert_placement[self._ep_rank])
        return self._num_experts // self._ep_size

    @property
    def local_expert_ids(self) -> List[int]:
        """The global experts this rank holds, in local slot order (weight row e of
        prepare_weights is expert ``local_expert_ids[e]``)."""
        if self._expert_placement is not None:
            return list(self._expert_placement[self._ep_rank])
        n = self._num_experts // self._ep_size
        return list(range(self._ep_rank * n, (self._ep_rank + 1) * n))

    @property
    def fc1_rows(self) -> int:
        """N13: 2I for gated activations, I for relu2."""
        return self._intermediate_size if self._activation == "relu2" else 2 * self._intermediate_size

    @property
    def recipe(self) -> str:
        return self._recipe

    @property
    def activation(self) -> str:
        return self._activation

    @property
    def activation_params(self) -> Dict[str, float]:
        return dict(self._activation_params)

    @property
    def ep_rank(self) -> int:
        return self._ep_rank

    @property
    def ep_size(self) -> int:
        return self._ep_size

    @property
    def ep_group(self) -> Any:
        """The ``megamoe.EpGroup`` given at construction, or None."""
        return self._ep_group

    @property
    def expert_placement(self) -> Optional[List[List[int]]]:
        """A copy of the placement given at construction (None: contiguous blocks)."""
        return None if self._expert_placement is None else [list(r) for r in self._expert_placement]

    @property
    def ep_style(self) -> str:
        return self._ep_style

    @property
    def ep_timeout_s(self) -> float:
        return self._ep_timeout_s

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    @property
    def has_bias(self) -> bool:
        return self._has_bias

    @property
    def backend(self) -> str:
        """The backend that runs this layer (``backend="auto"`` resolved)."""
        return self._impl.backend_name

    @property
    def tactic_names(self) -> List[str]:
        """The tactics this layer's backend can run (empty for the CPU reference; an EP layer's are its
        inner backend's)."""
        return list(self._impl.tactic_names)

    @property
    def tactic_source(self) -> str:
        """Where the layer's tactic table came from: "none", "shipped defaults", "shipped defaults
        (measured on <GPU>)" (another GPU with this one's SM count), "shipped defaults (the buckets
        it does not name: measured on <GPU>)" (this GPU's partial entry, the rest from that GPU's) or
        the cache path (followed by " (measured for <mega backend>)" when a split backend borrowed
        that entry)."""
        return self._impl.tactic_source

    def tactic_for(self, num_tokens: int) -> str:
        """The tactic a forward of ``num_tokens`` tokens runs ("" for a backend without tactics)."""
        return self._impl.tactic_for(_int("num_tokens", num_tokens))

    def force_tactic(self, name: str) -> None:
        """Runs tactic ``name`` for every token count ("" = back to the cache / heuristic).

        Raises ValueError for a name not in ``tactic_names``."""
        self._impl.force_tactic(_str("name", name))

    @property
    def device(self) -> str:
        """'cpu' or 'cuda:N'."""
        return "cpu" if self._device_index < 0 else f"cuda:{self._device_index}"

    @property
    def workspace_bytes(self) -> int:
        return int(self._impl.workspace_bytes)

    @property
    def weight_bytes(self) -> int:
        return int(self._impl.weight_bytes)

    @property
    def weights_ready(self) -> bool:
        return self._weights_ready

    @property
    def handle(self) -> int:
        """An int naming this layer to ``torch.ops.megamoe.fused_moe`` (valid while the layer lives)."""
        return self._handle

    def __repr__(self) -> str:
        ep = ""
        if self._ep_group is not None:
            ep += f"ep_group={self._ep_group!r}, "
        if self._expert_placement is not None:
            ep += f"expert_placement={self._expert_placement}, "
        return (
            f"MoELayer(num_experts={self._num_experts}, top_k={self._top_k}, hidden_size={self._hidden_size}, "
            f"intermediate_size={self._intermediate_size}, recipe='{self._recipe}', "
            f"activation='{self._activation}', ep_rank={self._ep_rank}, ep_size={self._ep_size}, {ep}"
            f"max_tokens={self._max_tokens}, backend='{self.backend}', device='{self.device}', "
            f"has_bias={self._has_bias})"
        )

    # ---- weights --------------------------------------------------------------------------
    def prepare_weights(
        self,
        w13: Any,
        w2: Any,
        *,
        w13_scale: Any = None,
        w2_scale: Any = None,
        w13_global_scale: Any = None,
        w2_global_scale: Any = None,
        b13: Any = None,
        b2: Any = None,
        fc1_input_global_scale: float = 1.0,
        fc2_input_global_scale: float = 1.0,
    ) -> "MoELayer":
        """Loads this rank's experts from canonical (checkpoint-like) layouts, once.

        Layouts (E = local experts, N13 = ``fc1_rows``, K innermost)::

            recipe       w13 / w2                                      w13_scale / w2_scale
            bf16         bfloat16 [E,N13,H] / [E,H,I]                  -
            fp8_block    float8_e4m3fn (or uint8) [E,N13,H] / [E,H,I]  float32 [E,ceil(N/128),ceil(K/128)]
            mxfp8        float8_e4m3fn (or uint8) [E,N13,H] / [E,H,I]  float8_e8m0fnu (or uint8) [E,N,K/32]
            w4a16_mxfp4  uint8 packed e2m1 [E,N13,H/2] / [E,H,I/2]     float8_e8m0fnu (or uint8) [E,N,K/32]
            w4a16_nvfp4  as w4a16_mxfp4                                float8_e4m3fn (or uint8) [E,N,K/16]
                         plus w13_global_scale / w2_global_scale float32 [E]
            biases (has_bias): b13 [E,N13], b2 [E,H], float32 or bfloat16

        Packed FP4: element 2j in the low nibble of byte j. ``megamoe.quantize_weights`` makes
        these from bf16/float32 master weights. Arrays may be NumPy (ml_dtypes dtypes included),
        torch tensors (CPU or the layer's GPU) or any DLPack tensor; they are copied, so they
        can be freed afterwards. Returns ``self``.
        """
        names = ("w13", "w2", "w13_scale", "w2_scale", "w13_global_scale", "w2_global_scale", "b13", "b2")
        values = (w13, w2, w13_scale, w2_scale, w13_global_scale, w2_global_scale, b13, b2)
        tensors = []
        for name, v in zip(names, values):
            if v is None:
                continue
            if name.endswith("global_scale") and isinstance(v, (list, tuple, float, int)):
                try:
                    v = np.asarray(v, dtype=np.float32).reshape(-1)
                except (TypeError, ValueError):
                    raise TypeError(f"megamoe: argument '{name}': expected float32 values (one per local expert), "
                                    f"got {v!r}") from None
            if _arrays.is_torch_tensor(v) and v.is_cuda:
                # C++ copies on the legacy default stream; order it after the producer's work.
                sys.modules["torch"].cuda.current_stream(v.device).synchronize()
            obj, tag = _arrays.export(v, name, dl_stream=1)
            tensors.append((name, obj, tag))
        scales = []
        for name, v in (("fc1_input_global_scale", fc1_input_global_scale),
                        ("fc2_input_global_scale", fc2_input_global_scale)):
            if isinstance(v, bool):
                raise TypeError(f"megamoe: argument '{name}': expected a number, got bool")
            try:
                scales.append(float(v))
            except (TypeError, ValueError):
                raise TypeError(f"megamoe: argument '{name}': expected a number, got {v!r}") from None
        try:
            self._impl.prepare_weights(tensors, scales[0], scales[1])
        except (ValueError, TypeError):
            raise  # rejected by validation, before anything changed: earlier weights stay in use
        except BaseException:
            self._weights_ready = False
            raise
        self._weights_ready = True
        return self

    # ---- forward --------------------------------------------------------------------------
    def __call__(
        self, x: Any, topk_ids: Any, topk_weights: Any, out: Any = None, *, stream: Any = None
    ) -> Any:
        """out[t] = sum_k topk_weights[t,k] * expert_{topk_ids[t,k]}(x[t]) (docs/DESIGN.md section 1).

        Args:
            x: [T, H] bfloat16 (rows contiguous; a row stride >= H is allowed), T <= max_tokens.
            topk_ids: [T, K] int32 or int64; -1 = no route. Host ids outside [0, E) raise
                ValueError; device ids outside it count as no route and are reported by
                ``invalid_id_count()``.
            topk_weights: [T, K] float32.
            out: optional [T, H] bfloat16 output, written (never read). When None it is
                allocated in x's framework: torch in -> torch out, NumPy in -> NumPy
                (ml_dtypes.bfloat16) out; other CPU arrays -> NumPy; other CUDA arrays -> a
                megamoe-owned buffer that exports DLPack (``from_dlpack`` it after the stream).
            stream: CUDA stream to run on (int cudaStream_t, or an object with ``.cuda_stream``
                / ``.ptr``). Default: torch's current stream for torch tensors, the legacy
                default stream otherwise. GPU calls are asynchronous and capturable.

        Every argument is validated before any work; errors name the argument, the expected
        and the actual value (TypeError for dtypes, ValueError for shapes/strides/devices/ids).

        The layer owns one workspace: calls on it must not overlap (one stream orders them;
        across streams or threads the caller orders them, or uses one layer each).
        """
        torch = _torch
        if torch is not None and isinstance(x, torch.Tensor):
            return self._call_torch(torch, x, topk_ids, topk_weights, out, stream)
        if _arrays.is_torch_tensor(x):  # torch imported after megamoe
            _ensure_torch_ops()
            return self._call_torch(sys.modules["torch"], x, topk_ids, topk_weights, out, stream)
        return self._call_generic(x, topk_ids, topk_weights, out, stream)

    forward = __call__

    def _call_torch(self, torch, x, topk_ids, topk_weights, out, stream):
        if _torch is not None and torch.compiler.is_compiling():
            if stream is not None:
                raise ValueError("megamoe: argument 'stream': must be None under torch.compile "
                                 "(the op runs on the current stream)")
            if out is None:
                return torch.ops.megamoe.fused_moe(x, topk_ids, topk_weights, self._handle)
            torch.ops.megamoe.fused_moe_out(x, topk_ids, topk_weights, out, self._handle)
            return out
        return self._forward_torch(x, topk_ids, topk_weights, out, stream)

    def _forward_torch(self, x, topk_ids, topk_weights, out=None, stream=None):
        """Eager torch path (also the body of torch.ops.megamoe.fused_moe)."""
        torch = sys.modules["torch"]
        if out is None:
            rows = x.shape[0] if x.dim() == 2 else 0
            out = torch.empty((rows, self._hidden_size), dtype=torch.bfloat16, device=x.device)
        if stream is not None:
            s = _arrays.stream_value(stream)
        elif x.is_cuda:
            s = torch.cuda.current_stream(x.device).cuda_stream
        else:
            s = 0
        ids_obj, ids_tag = _arrays.export(topk_ids, "topk_ids", dl_stream=s or 1)
        w_obj, w_tag = _arrays.export(topk_weights, "topk_weights", dl_stream=s or 1)
        out_obj, out_tag = _arrays.export(out, "out", dl_stream=s or 1)
        self._impl.forward(_arrays.torch_spec(x, "x"), "", ids_obj, w_obj, out_obj, out_tag, s,
                           topk_ids_tag=ids_tag, topk_weights_tag=w_tag)
        return out

    def _call_generic(self, x, topk_ids, topk_weights, out, stream):
        s = _arrays.stream_value(stream)
        dev_type, dev_id = _arrays.dlpack_device(x)
        on_cuda = dev_type in (_arrays.DL_CUDA, _arrays.DL_CUDA_MANAGED)
        dl_stream = (s if s != 0 else 1) if on_cuda else None
        made = []
        if out is None:
            if on_cuda and not _C.with_cuda:
                raise ValueError("megamoe: argument 'x': expected a tensor on cpu, got a tensor on a CUDA device "
                                 "(this megamoe build has no CUDA support)")
            hidden = self._hidden_size

            def out_obj(rows: int):  # called by _C once x is imported (x's row count)
                if on_cuda:
                    made.append(_C.cuda_empty([rows, hidden], "bfloat16", dev_id))
                    return made[0], ""
                bf16 = _arrays.need_ml_dtypes("a NumPy bfloat16 output").bfloat16
                made.append(np.empty((rows, hidden), dtype=bf16))
                return _arrays.numpy_export(made[0], "out")

            out_tag = ""
        else:
            out_obj, out_tag = _arrays.export(out, "out", dl_stream)
        x_obj, x_tag = _arrays.export(x, "x", dl_stream)
        ids_obj, ids_tag = _arrays.export(topk_ids, "topk_ids", dl_stream)
        w_obj, w_tag = _arrays.export(topk_weights, "topk_weights", dl_stream)
        self._impl.forward(x_obj, x_tag, ids_obj, w_obj, out_obj, out_tag, s, topk_ids_tag=ids_tag,
                           topk_weights_tag=w_tag)
        return made[0] if out is None else out

    def invalid_id_count(self, stream: Any = None) -> int:
        """Device-resident ids outside [-1, E) seen since the last call (then reset to 0).

        Synchronises ``stream`` (default: torch's current stream when torch is in use, else the
        legacy default stream). Host ids are checked before launch instead (ValueError).
        """
        return int(self._impl.invalid_id_count(_sync_stream(self._device_index, stream)))

    def check_errors(self, stream: Any = None) -> None:
        """Expert parallelism with an ``ep_group``: raises megamoe.CommError when a forward since
        the last call waited longer than ``ep_timeout_s`` for a peer (it died, raised before the
        exchange, or did not call forward) or the group was aborted; the outputs of those
        forwards are not valid. Resets the error. Does nothing for layers without a group.

        Synchronises ``stream`` (default: torch's current stream on the layer's device when torch
        is in use, else the legacy default stream), so call it where a sync is acceptable (e.g.
        once per step, outside CUDA-graph capture).
        """
        self._impl.check_errors(_sync_stream(self._device_index, stream))

    def unrouted_count(self, stream: Any = None) -> int:
        """Routes whose expert no rank holds (``expert_placement`` without it, e.g. after
        ``EpGroup.shrink``) seen by forward since the last call; they contribute nothing to the
        output. Resets the count to 0. Synchronises ``stream`` (default as in ``check_errors``).
        Counted by layers with an ``ep_group`` (the routes of this rank's tokens); 0 otherwise.
        """
        return int(self._impl.unrouted_count(_sync_stream(self._device_index, stream)))


def registered_backends() -> list:
    """Backend names in ``backend="auto"`` preference order (GPU backends first)."""
    return list(_C.registered_backends())
