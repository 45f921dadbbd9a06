// The synthetic layer's canonical weights handed to a GPU layer (CUDA builds only):
// bf16, fp8_block and the four recipes with packed e2m1 weights (w4a16_mxfp4, w4a8_mxfp4,
// w4a16_nvfp4, nvfp4; kernels/sm90/quantize/quantize_fp4.h) are generated and quantized on the device
// (full-size presets never pass through host memory); the rest (mxfp8) is quantized on the host
// with the CPU quantizers. Either way the bytes equal reference::synthetic_canonical_weights.
#pragma once
#if defined(MEGAMOE_WITH_CUDA)
#include <cuda_runtime.h>

#include <cstdint>

#include "megamoe/layer.h"

namespace megamoe::cli {

// Calls layer.prepare_weights with the synthetic weights of layer.config() and `seed`.
// Synchronises `stream`; temporary device buffers are freed before returning.
void prepare_synthetic_weights(MoeLayer& layer, uint64_t seed, cudaStream_t stream);

}  // namespace megamoe::cli
#endif
