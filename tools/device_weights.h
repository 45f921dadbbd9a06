// The synthetic layer's canonical weights handed to a GPU layer (CUDA builds only):
// bf16 and fp8_block are generated and quantized on the device (full-size presets never
// pass through host memory); other recipes are quantized on the host with the CPU
// quantizers. Either way the values equal reference::synthetic_weights(config, seed).
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
