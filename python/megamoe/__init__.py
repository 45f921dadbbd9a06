"""megamoe: fast Mixture-of-Experts layers (C++/CUDA) for any DLPack framework.

    import megamoe
    layer = megamoe.MoELayer(num_experts=8, top_k=2, hidden_size=4096, intermediate_size=14336)
    layer.prepare_weights(w13, w2)              # canonical [E, 2I, H] / [E, H, I], once
    out = layer(x, topk_ids, topk_weights)      # x [T, H] bf16 -> out [T, H] bf16

Arrays may be torch tensors, NumPy arrays (ml_dtypes for bfloat16/float8) or anything with
``__dlpack__`` (CuPy, JAX, ...). With PyTorch, ``torch.ops.megamoe.fused_moe`` is a custom op
that works under torch.compile and CUDA-graph capture (see ``megamoe.torch_ops``).

Expert parallelism across GPUs: ``group = megamoe.EpGroup.from_torch()`` (under torchrun), then
``megamoe.MoELayer(..., ep_group=group)`` on every rank (see ``megamoe.ep``).

Errors: ValueError (bad shape/stride/device/value), TypeError (bad dtype),
NotImplementedError (no backend can run the request here), megamoe.OutOfMemoryError,
megamoe.CudaError and megamoe.CommError (a peer rank did not answer within the timeout, or the
group was aborted; all three RuntimeError); messages name the argument, the expected and the
actual value.
"""

from __future__ import annotations

import sys

from . import _C
from .formats import (
    dequantize_fp8_block,
    dequantize_mx,
    dequantize_nvfp4,
    quantize_fp8_block,
    quantize_mx,
    quantize_nvfp4,
    quantize_weights,
    quantize_weights_gpu,
)
from .ep import EpGroup
from .layer import ACTIVATIONS, EP_STYLES, RECIPES, MoELayer, layer_from_handle, registered_backends
from .reference import reference_moe

__version__: str = _C.__version__

#: True when this build has the CUDA backends (it was compiled where nvcc exists).
with_cuda: bool = bool(_C.with_cuda)

OutOfMemoryError = _C.OutOfMemoryError
CudaError = _C.CudaError
CommError = _C.CommError

__all__ = [
    "ACTIVATIONS",
    "CommError",
    "CudaError",
    "EP_STYLES",
    "EpGroup",
    "MoELayer",
    "OutOfMemoryError",
    "RECIPES",
    "__version__",
    "dequantize_fp8_block",
    "dequantize_mx",
    "dequantize_nvfp4",
    "layer_from_handle",
    "quantize_fp8_block",
    "quantize_mx",
    "quantize_nvfp4",
    "quantize_weights",
    "quantize_weights_gpu",
    "reference_moe",
    "registered_backends",
    "with_cuda",
]

# torch.ops.megamoe.* are registered as soon as torch is in use; importing torch here would
# cost NumPy-only users a second, so it happens only when the program already imported it
# (otherwise on the first MoELayer built or called with torch, or `import megamoe.torch_ops`).
if "torch" in sys.modules:
    from .layer import _ensure_torch_ops

    _ensure_torch_ops()
