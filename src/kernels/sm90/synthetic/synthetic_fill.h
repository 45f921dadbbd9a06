// Device-side generation of the synthetic layer's canonical bf16 weights (the rule in
// src/core/synthetic.h), so full-size presets never pass through host memory.
#pragma once
#include <cstdint>

#include <cuda_runtime.h>

#include "megamoe/config.h"

namespace megamoe::sm90 {

// w13 [E_local, N13, H] bf16, w2 [E_local, H, I] bf16, b13 [E_local, N13] / b2 [E_local, H]
// fp32 (bf16-valued; may be null when config.has_bias is false). Asynchronous on `stream`.
void fill_synthetic_layer_bf16(const MoeConfig& config, uint64_t seed, void* w13, void* w2, float* b13,
                               float* b2, cudaStream_t stream);

// x [T, H] bf16 as workload::make_x makes it.
void fill_synthetic_x_bf16(int64_t T, int64_t H, uint64_t seed, void* x, cudaStream_t stream);

}  // namespace megamoe::sm90
