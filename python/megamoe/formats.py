"""Quantizers and dequantizers for every recipe, bit-exact with the C++ library's
(src/formats/quantize.h, docs/FORMATS.md). Host (NumPy) only.

Inputs are ``[..., N, K]`` arrays (K, the reduction dimension, innermost; leading dimensions
such as experts are batched), float32 or bfloat16 (float16 is accepted too: exact in
float32). Values are used as given: pass bfloat16 arrays to quantize bf16 master weights.
Outputs use ml_dtypes dtypes where one exists, so ``codes.astype(np.float32)`` decodes them;
packed FP4 is uint8 with element 2j in the low nibble of byte j.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _arrays
from . import _C

if _arrays.ml_dtypes is not None:
    E4M3 = np.dtype(_arrays.ml_dtypes.float8_e4m3fn)
    E8M0 = np.dtype(_arrays.ml_dtypes.float8_e8m0fnu)
    BF16 = np.dtype(_arrays.ml_dtypes.bfloat16)
else:  # pragma: no cover - only where ml_dtypes is missing: every function below says so
    E4M3 = E8M0 = BF16 = None

__all__ = [
    "quantize_fp8_block",
    "dequantize_fp8_block",
    "quantize_mx",
    "dequantize_mx",
    "quantize_nvfp4",
    "dequantize_nvfp4",
    "quantize_weights",
    "quantize_weights_gpu",
]


def _to_numpy(a: Any, name: str) -> np.ndarray:
    if _arrays.is_torch_tensor(a):
        t = a.detach().cpu()
        return t.float().numpy() if str(t.dtype) == "torch.bfloat16" else t.numpy()
    if isinstance(a, np.ndarray):
        return a
    try:
        return np.asarray(a)
    except Exception as e:  # pragma: no cover - odd objects
        raise TypeError(f"megamoe: argument '{name}': expected an array, got {type(a).__name__}") from e


def _float_input(w: Any, name: str = "w") -> Tuple[np.ndarray, Tuple[int, ...]]:
    """w [..., N, K] -> (float32 C-contiguous [B, N, K], leading shape)."""
    _arrays.need_ml_dtypes("the quantizers")
    a = _to_numpy(w, name)
    if a.dtype not in (np.dtype(np.float32), BF16, np.dtype(np.float16)):
        raise TypeError(f"megamoe: argument '{name}': expected dtype float32 or bfloat16, got dtype {a.dtype}")
    if a.ndim < 2 or 0 in a.shape[-2:]:
        raise ValueError(f"megamoe: argument '{name}': expected shape [..., N, K] with N, K >= 1, "
                         f"got shape {list(a.shape)}")
    lead = tuple(a.shape[:-2])
    a3 = np.ascontiguousarray(a.reshape((-1,) + a.shape[-2:]), dtype=np.float32)
    return a3, lead


def _code_input(c: Any, name: str, allowed: Tuple[np.dtype, ...]) -> np.ndarray:
    """Codes/scales arrays as uint8 (ml_dtypes 8-bit dtypes reinterpreted)."""
    _arrays.need_ml_dtypes("the dequantizers")
    a = _to_numpy(c, name)
    if a.dtype not in allowed + (np.dtype(np.uint8),):
        names = " or ".join(str(d) for d in allowed + (np.dtype(np.uint8),))
        raise TypeError(f"megamoe: argument '{name}': expected dtype {names}, got dtype {a.dtype}")
    if a.ndim < 2 or 0 in a.shape[-2:]:
        raise ValueError(f"megamoe: argument '{name}': expected at least 2 dimensions, the last two >= 1, "
                         f"got shape {list(a.shape)}")
    a = np.ascontiguousarray(a)
    return a.view(np.uint8) if a.dtype != np.uint8 else a


def _as3(a: np.ndarray) -> np.ndarray:
    return a.reshape((-1,) + a.shape[-2:])


def _check_lead(name: str, a: np.ndarray, lead: Tuple[int, ...], tail: Tuple[int, ...]) -> None:
    want = lead + tail
    if tuple(a.shape) != want:
        raise ValueError(f"megamoe: argument '{name}': expected shape {list(want)}, got shape {list(a.shape)}")


def _global_scale(global_scale: Any, lead: Tuple[int, ...], B: int) -> np.ndarray:
    """NVFP4's per-matrix global scales: a scalar or an array broadcastable to the leading shape."""
    try:
        g = np.asarray(_to_numpy(global_scale, "global_scale"), dtype=np.float32)
    except (TypeError, ValueError):
        raise TypeError(f"megamoe: argument 'global_scale': expected float32 values, got {global_scale!r}") from None
    try:
        return np.ascontiguousarray(np.broadcast_to(g, lead).reshape(B))
    except ValueError:
        raise ValueError(f"megamoe: argument 'global_scale': expected a scalar or shape {list(lead)} "
                         f"(the leading shape), got shape {list(g.shape)}") from None


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


# ---- fp8_block ------------------------------------------------------------------------------
def quantize_fp8_block(w: Any, *, ue8m0: bool = False) -> Tuple[np.ndarray, np.ndarray]:
    """DeepSeek-V3 block FP8: one float32 scale per 128x128 block of each [N, K] matrix.

    scale = amax(block) / 448 (1 for an all-zero block; rounded up to a power of two with
    ``ue8m0``), code = e4m3(x / scale), saturating, round-to-nearest-even.

    Returns (codes float8_e4m3fn [..., N, K], scales float32 [..., ceil(N/128), ceil(K/128)]).
    """
    src, lead = _float_input(w)
    B, N, K = src.shape
    codes = np.empty((B, N, K), np.uint8)
    scales = np.empty((B, _cdiv(N, 128), _cdiv(K, 128)), np.float32)
    _C.quantize_fp8_block(src, codes, scales, bool(ue8m0))
    return codes.view(E4M3).reshape(lead + (N, K)), scales.reshape(lead + scales.shape[1:])


def dequantize_fp8_block(codes: Any, scales: Any) -> np.ndarray:
    """float32 [..., N, K] = e4m3(codes) * scale of the code's 128x128 block."""
    c = _code_input(codes, "codes", (E4M3,))
    s = _to_numpy(scales, "scales")
    if s.dtype != np.float32:
        raise TypeError(f"megamoe: argument 'scales': expected dtype float32, got dtype {s.dtype}")
    lead, (N, K) = tuple(c.shape[:-2]), c.shape[-2:]
    _check_lead("scales", s, lead, (_cdiv(N, 128), _cdiv(K, 128)))
    dst = np.empty((int(np.prod(lead, dtype=np.int64)), N, K), np.float32)
    _C.dequantize_fp8_block(_as3(c), _as3(np.ascontiguousarray(s)), dst)
    return dst.reshape(lead + (N, K))


# ---- MX -------------------------------------------------------------------------------------
def _elem(elem: str) -> str:
    if elem not in ("e2m1", "e4m3"):
        raise ValueError(f"megamoe: argument 'elem': expected \"e2m1\" or \"e4m3\", got '{elem}'")
    return elem


def quantize_mx(w: Any, elem: str = "e2m1") -> Tuple[np.ndarray, np.ndarray]:
    """OCP MX: one e8m0 scale per 32 elements along K; elements e2m1 (MXFP4) or e4m3 (MXFP8).

    Returns (codes, scales float8_e8m0fnu [..., N, K/32]); codes are packed uint8
    [..., N, K/2] for e2m1 and float8_e4m3fn [..., N, K] for e4m3. K must be a multiple of 32.
    """
    elem = _elem(elem)
    src, lead = _float_input(w)
    B, N, K = src.shape
    kc = K // 2 if elem == "e2m1" else K
    codes = np.empty((B, N, kc), np.uint8)
    scales = np.empty((B, N, K // 32), np.uint8)
    _C.quantize_mx(src, elem, codes, scales)
    codes = codes.reshape(lead + (N, kc))
    return (codes if elem == "e2m1" else codes.view(E4M3)), scales.view(E8M0).reshape(lead + (N, K // 32))


def _check_whole_blocks(c: np.ndarray, K: int, block: int, fmt: str, packed: bool) -> None:
    """A dequantizer's codes cover whole scale blocks along K (else the scales' shape would be blamed)."""
    if K % block:
        per_byte = ", 2 e2m1 codes a byte" if packed else ""
        raise ValueError(f"megamoe: argument 'codes': expected K (the last dimension{per_byte}) a multiple of {block} "
                         f"(the {fmt} scale block), got shape {list(c.shape)} (K = {K})")


def dequantize_mx(codes: Any, scales: Any, elem: str = "e2m1") -> np.ndarray:
    """float32 [..., N, K] = element * 2^(scale - 127)."""
    elem = _elem(elem)
    c = _code_input(codes, "codes", (E4M3,))
    s = _code_input(scales, "scales", (E8M0,))
    lead, N = tuple(c.shape[:-2]), c.shape[-2]
    K = c.shape[-1] * 2 if elem == "e2m1" else c.shape[-1]
    _check_whole_blocks(c, K, 32, "MX", packed=elem == "e2m1")
    _check_lead("scales", s, lead, (N, K // 32))
    dst = np.empty((int(np.prod(lead, dtype=np.int64)), N, K), np.float32)
    _C.dequantize_mx(_as3(c), _as3(s), elem, dst)
    return dst.reshape(lead + (N, K))


# ---- NVFP4 ----------------------------------------------------------------------------------
def quantize_nvfp4(w: Any, global_scale: Any = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NVFP4: e2m1 elements, an e4m3 scale per 16 along K and a float32 global scale per
    [N, K] matrix (per expert).

    global = amax(matrix) / (448 * 6) unless ``global_scale`` (a scalar or an array of the
    leading shape) is given. Returns (codes packed uint8 [..., N, K/2], scales float8_e4m3fn
    [..., N, K/16], global float32 [...]). dequant = e2m1 * e4m3 * global.
    """
    src, lead = _float_input(w)
    B, N, K = src.shape
    codes = np.empty((B, N, K // 2), np.uint8)
    scales = np.empty((B, N, K // 16), np.uint8)
    if global_scale is None:
        g = np.empty((B,), np.float32)
        compute = True
    else:
        g = _global_scale(global_scale, lead, B)
        compute = False
    _C.quantize_nvfp4(src, codes, scales, g, compute)
    return (codes.reshape(lead + (N, K // 2)), scales.view(E4M3).reshape(lead + (N, K // 16)), g.reshape(lead))


def dequantize_nvfp4(codes: Any, scales: Any, global_scale: Any) -> np.ndarray:
    """float32 [..., N, K] = (e2m1 * e4m3) * global."""
    c = _code_input(codes, "codes", ())
    s = _code_input(scales, "scales", (E4M3,))
    lead, N, K = tuple(c.shape[:-2]), c.shape[-2], c.shape[-1] * 2
    _check_whole_blocks(c, K, 16, "NVFP4", packed=True)
    _check_lead("scales", s, lead, (N, K // 16))
    B = int(np.prod(lead, dtype=np.int64))
    g = _global_scale(global_scale, lead, B)
    dst = np.empty((B, N, K), np.float32)
    _C.dequantize_nvfp4(_as3(c), _as3(s), g, dst)
    return dst.reshape(lead + (N, K))


# ---- whole layers -----------------------------------------------------------------------------
def quantize_weights(recipe: str, w13: Any, w2: Any, *, ue8m0: bool = False) -> Dict[str, np.ndarray]:
    """Canonical weights for ``recipe`` from master weights w13 [E, N13, H], w2 [E, H, I]
    (float32 or bfloat16), as keyword arguments for ``MoELayer.prepare_weights``::

        layer.prepare_weights(**megamoe.quantize_weights("w4a16_mxfp4", w13, w2))

    bf16 rounds to bfloat16 (RNE); fp8_block uses 128x128 blocks (``ue8m0``: power-of-two
    scales); mxfp8 / *mxfp4 use MX with e4m3 / e2m1 elements; nvfp4 recipes use a global
    scale per expert per FC. Biases are not included.
    """
    _arrays.need_ml_dtypes("quantize_weights")
    out: Dict[str, np.ndarray] = {}
    if recipe == "bf16":
        for name, w in (("w13", w13), ("w2", w2)):
            a = _to_numpy(w, name)
            if a.dtype not in (np.dtype(np.float32), BF16, np.dtype(np.float16)):
                raise TypeError(f"megamoe: argument '{name}': expected dtype float32 or bfloat16, got dtype {a.dtype}")
            out[name] = a if a.dtype == BF16 else a.astype(np.float32).astype(BF16)
    elif recipe == "fp8_block":
        out["w13"], out["w13_scale"] = quantize_fp8_block(w13, ue8m0=ue8m0)
        out["w2"], out["w2_scale"] = quantize_fp8_block(w2, ue8m0=ue8m0)
    elif recipe == "mxfp8":
        out["w13"], out["w13_scale"] = quantize_mx(w13, "e4m3")
        out["w2"], out["w2_scale"] = quantize_mx(w2, "e4m3")
    elif recipe in ("w4a16_mxfp4", "w4a8_mxfp4"):
        out["w13"], out["w13_scale"] = quantize_mx(w13, "e2m1")
        out["w2"], out["w2_scale"] = quantize_mx(w2, "e2m1")
    elif recipe in ("w4a16_nvfp4", "nvfp4"):
        out["w13"], out["w13_scale"], out["w13_global_scale"] = quantize_nvfp4(w13)
        out["w2"], out["w2_scale"], out["w2_global_scale"] = quantize_nvfp4(w2)
    else:
        raise ValueError(
            "megamoe: argument 'recipe': expected one of bf16|fp8_block|w4a16_mxfp4|w4a16_nvfp4|mxfp8|"
            f"w4a8_mxfp4|nvfp4, got '{recipe}'"
        )
    return out


# ---- GPU quantization of torch CUDA tensors ------------------------------------------------
_GPU_KINDS = {
    "fp8_block": "fp8_block",
    "mxfp8": "mxfp8",
    "w4a16_mxfp4": "mxfp4",
    "w4a8_mxfp4": "mxfp4",
    "w4a16_nvfp4": "nvfp4",
    "nvfp4": "nvfp4",
}


def quantize_weights_gpu(recipe: str, w13: Any, w2: Any, *, ue8m0: bool = False, stream: Any = None) -> Dict[str, Any]:
    """``quantize_weights`` on the GPU, for torch CUDA tensors: the same canonical weights, bit
    for bit (the C++ GPU quantizers, include/megamoe/quantize.h), without a trip through host
    memory. w13 [E, N13, H] and w2 [E, H, I] are bfloat16 or float32 CUDA tensors on one
    device; the results are new torch tensors on that device::

        layer.prepare_weights(**megamoe.quantize_weights_gpu("w4a16_mxfp4", w13, w2))

    Runs asynchronously on ``stream`` (default: torch's current stream). Biases are not included.
    """
    torch = _arrays.torch_module()
    if torch is None or not _arrays.is_torch_tensor(w13) or not _arrays.is_torch_tensor(w2):
        got = type(w13).__name__ if not _arrays.is_torch_tensor(w13) else type(w2).__name__
        raise TypeError(f"megamoe: quantize_weights_gpu: expected torch CUDA tensors for w13 and w2, got {got}")
    for name, w in (("w13", w13), ("w2", w2)):
        if not w.is_cuda:
            raise ValueError(f"megamoe: argument '{name}': expected a CUDA tensor, got a tensor on {w.device}")
        if w.dim() != 3:
            raise ValueError(f"megamoe: argument '{name}': expected 3 dimensions [E, N, K], got {w.dim()}")
        if w.dtype not in (torch.bfloat16, torch.float32):
            raise TypeError(f"megamoe: argument '{name}': expected dtype bfloat16 or float32, got {w.dtype}")
    if w13.device != w2.device:
        raise ValueError(f"megamoe: argument 'w2': expected a tensor on {w13.device} (where w13 is), got {w2.device}")
    if recipe == "bf16":
        return {"w13": w13.to(torch.bfloat16), "w2": w2.to(torch.bfloat16)}
    kind = _GPU_KINDS.get(recipe)
    if kind is None:
        raise ValueError(
            "megamoe: argument 'recipe': expected one of bf16|fp8_block|w4a16_mxfp4|w4a16_nvfp4|mxfp8|"
            f"w4a8_mxfp4|nvfp4, got '{recipe}'"
        )
    if not _C.with_cuda:
        raise NotImplementedError("megamoe: quantize_weights_gpu: this megamoe build has no CUDA code (built without nvcc)")
    dev = w13.device
    st = _arrays.stream_value(stream) if stream is not None else torch.cuda.current_stream(dev).cuda_stream
    out: Dict[str, Any] = {}
    for name, w in (("w13", w13), ("w2", w2)):
        w = w.contiguous()
        E, N, K = w.shape
        g = None
        if kind == "fp8_block":
            codes = torch.empty((E, N, K), dtype=torch.float8_e4m3fn, device=dev)
            scales = torch.empty((E, -(-N // 128), -(-K // 128)), dtype=torch.float32, device=dev)
        elif kind == "mxfp8":
            codes = torch.empty((E, N, K), dtype=torch.float8_e4m3fn, device=dev)
            scales = torch.empty((E, N, K // 32), dtype=torch.float8_e8m0fnu, device=dev)
        elif kind == "mxfp4":
            codes = torch.empty((E, N, K // 2), dtype=torch.uint8, device=dev)
            scales = torch.empty((E, N, K // 32), dtype=torch.float8_e8m0fnu, device=dev)
        else:
            codes = torch.empty((E, N, K // 2), dtype=torch.uint8, device=dev)
            scales = torch.empty((E, N, K // 16), dtype=torch.float8_e4m3fn, device=dev)
            g = torch.empty((E,), dtype=torch.float32, device=dev)
        _C.quantize_gpu(kind, _arrays.torch_spec(w, name), _arrays.torch_spec(codes, name + " codes"),
                        _arrays.torch_spec(scales, name + "_scale"),
                        None if g is None else _arrays.torch_spec(g, name + "_global_scale"), bool(ue8m0), int(st))
        out[name], out[name + "_scale"] = codes, scales
        if g is not None:
            out[name + "_global_scale"] = g
    return out
