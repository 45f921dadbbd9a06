"""Framework adaptation: turning user arrays into what ``megamoe._C`` reads, and back.

How each kind of array reaches the C++ library (never copied):

* ``torch.Tensor``: described directly (data pointer, dtype, shape, strides, device) without
  DLPack, so no capsule is made and ``Tensor.__dlpack__``'s stream synchronisation never runs
  (important under CUDA-graph capture). ``float8_e4m3fn`` / ``float8_e8m0fnu`` keep their
  meaning; ``float4_e2m1fn_x2`` is read as packed ``uint8``.
* ``numpy.ndarray``: through DLPack; ml_dtypes arrays (``bfloat16``, ``float8_e4m3fn``,
  ``float8_e8m0fnu``), which NumPy cannot export, go as a same-width ``uint`` view plus a
  dtype tag.
* anything else with ``__dlpack__`` (CuPy, JAX, ...): through DLPack. For CUDA arrays
  megamoe calls ``__dlpack__(stream=S)`` itself with ``S`` the stream it will run on, so the
  producer orders its pending work before megamoe's (the DLPack stream protocol).
"""

from __future__ import annotations

import sys
from typing import Any, Optional, Tuple

import numpy as np

try:  # a declared dependency; optional here so that torch-only programs run without it
    import ml_dtypes
except ImportError:  # pragma: no cover - exercised only where ml_dtypes is missing
    ml_dtypes = None

# DLPack device types.
DL_CPU = 1
DL_CUDA = 2
DL_CUDA_HOST = 3
DL_CUDA_MANAGED = 13

SUPPORTED_DTYPES = (
    "bfloat16, float16, float32, float64, int32, int64, uint8, float8_e4m3fn or float8_e8m0fnu"
)

# ml_dtypes dtypes NumPy cannot export through DLPack -> (megamoe dtype name, uint view).
_NUMPY_TAGGED = {}
if ml_dtypes is not None:
    _NUMPY_TAGGED = {
        np.dtype(ml_dtypes.bfloat16): ("bfloat16", np.uint16),
        np.dtype(ml_dtypes.float8_e4m3fn): ("float8_e4m3fn", np.uint8),
        np.dtype(ml_dtypes.float8_e8m0fnu): ("float8_e8m0fnu", np.uint8),
    }


def need_ml_dtypes(what: str):
    """The ml_dtypes module, or ImportError saying what needs it."""
    if ml_dtypes is None:
        raise ImportError(f"megamoe: {what} needs the ml_dtypes package (pip install ml_dtypes)")
    return ml_dtypes
_NUMPY_NATIVE = {np.dtype(t) for t in (np.float16, np.float32, np.float64, np.int32, np.int64, np.uint8)}

# torch dtype name (str(dtype) without "torch.") -> megamoe dtype name.
_TORCH_DTYPES = {
    "bfloat16": "bfloat16",
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "int32": "int32",
    "int64": "int64",
    "uint8": "uint8",
    "float8_e4m3fn": "float8_e4m3fn",
    "float8_e8m0fnu": "float8_e8m0fnu",
    "float4_e2m1fn_x2": "uint8",  # two e2m1 per byte: the canonical packed layout
}


def torch_module() -> Any:
    """The ``torch`` module if the program imported it, else None (never imports torch)."""
    return sys.modules.get("torch")


def is_torch_tensor(obj: Any) -> bool:
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(obj, torch.Tensor)


def framework_of(obj: Any) -> str:
    """'torch', 'numpy' or 'dlpack' (any other producer)."""
    if isinstance(obj, np.ndarray):
        return "numpy"
    if is_torch_tensor(obj):
        return "torch"
    return "dlpack"


def _fail_dtype(name: str, got: str) -> TypeError:
    return TypeError(f"megamoe: argument '{name}': expected dtype {SUPPORTED_DTYPES}, got dtype {got}")


def torch_spec(t: Any, name: str) -> tuple:
    """(data_ptr, dtype, shape, strides, device type, device id) of a torch tensor."""
    dt = str(t.dtype).replace("torch.", "")
    tag = _TORCH_DTYPES.get(dt)
    if tag is None:
        raise _fail_dtype(name, f"torch.{dt}")
    if t.is_cuda:
        dev = (DL_CUDA, t.device.index if t.device.index is not None else 0)
    elif t.device.type == "cpu":
        dev = (DL_CPU, 0)
    else:
        raise ValueError(
            f"megamoe: argument '{name}': expected a tensor in CPU or CUDA memory, got a tensor on {t.device}"
        )
    if str(t.layout) != "torch.strided":
        raise ValueError(f"megamoe: argument '{name}': expected a strided (dense) tensor, got layout {t.layout}")
    return (t.data_ptr(), tag, list(t.shape), list(t.stride()), dev[0], dev[1])


def numpy_export(a: np.ndarray, name: str) -> Tuple[Any, str]:
    tagged = _NUMPY_TAGGED.get(a.dtype)
    if tagged is not None:
        tag, view = tagged
        return a.view(view), tag
    if a.dtype in _NUMPY_NATIVE:
        return a, ""
    raise _fail_dtype(name, f"numpy.{a.dtype}")


def dlpack_device(obj: Any) -> Tuple[int, int]:
    """(DLPack device type, id) of any array; CPU for objects that do not say."""
    if is_torch_tensor(obj):
        return (DL_CUDA, obj.device.index or 0) if obj.is_cuda else (DL_CPU, 0)
    f = getattr(obj, "__dlpack_device__", None)
    if f is None:
        return (DL_CPU, 0)
    dev = f()
    return int(dev[0]), int(dev[1])


def export(obj: Any, name: str, dl_stream: Optional[int] = None) -> Tuple[Any, str]:
    """(what _C takes, dtype tag) for one tensor argument.

    ``dl_stream`` is the stream value to hand to a foreign CUDA producer's ``__dlpack__``
    (DLPack convention: 1 = the legacy default stream, otherwise a cudaStream_t).
    """
    if obj is None:
        raise TypeError(f"megamoe: argument '{name}': expected a tensor, got None")
    if isinstance(obj, np.ndarray):
        return numpy_export(obj, name)
    if is_torch_tensor(obj):
        return torch_spec(obj, name), ""
    if isinstance(obj, np.generic) or isinstance(obj, (list, tuple, int, float)):
        raise TypeError(
            f"megamoe: argument '{name}': expected a tensor (an object with __dlpack__, e.g. a torch/CuPy/JAX/"
            f"NumPy array), got an object of type {type(obj).__name__}"
        )
    if dl_stream is not None and hasattr(obj, "__dlpack__"):
        dev_type, _ = dlpack_device(obj)
        if dev_type in (DL_CUDA, DL_CUDA_MANAGED):
            return obj.__dlpack__(stream=dl_stream), ""
    return obj, ""


def host_numpy_or_torch(obj: Any) -> Any:
    """For the CPU oracle: torch tensors moved to the host, everything else unchanged."""
    if is_torch_tensor(obj):
        return obj.detach().cpu()
    return obj


def stream_value(stream: Any) -> int:
    """A cudaStream_t as int from an int, a torch/CuPy stream object or None (0: legacy default)."""
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr", "handle"):
        v = getattr(stream, attr, None)
        if isinstance(v, int):
            return v
    raise TypeError(
        "megamoe: argument 'stream': expected None, an int (cudaStream_t) or a stream object with "
        f".cuda_stream/.ptr, got an object of type {type(stream).__name__}"
    )
