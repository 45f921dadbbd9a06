// GPU fp8_block quantizers (DeepSeek-V3 style), bit-identical to the CPU quantizers in
// src/formats/quantize.h (formats::quantize_fp8_block_weight / quantize_fp8_act_1x128): the
// same amax, the same scale rule (amax / 448 by IEEE division, 1 for an all-zero block,
// optional ue8m0 rounding up to a power of two), the same saturating RNE e4m3 codes of
// x / s, the same NaN poisoning of blocks that hold a NaN or an inf, partial edge blocks
// over their real elements. Used to make fp8 weights on the device (tools, benchmarks) and
// tested code for code and scale for scale against the CPU (tests/gpu/test_quantize_fp8.cpp).
// All calls are asynchronous on `stream`, allocate nothing and are graph-capturable.
#pragma once
#include <cstdint>

#include <cuda_runtime.h>

#include "megamoe/config.h"
#include "megamoe/tensor.h"

namespace megamoe::sm90 {

// src [batch, N, K] (dtype kBF16 or kF32, contiguous) -> codes [batch, N, K] e4m3 and scales
// fp32 [batch, ceil(N/128), ceil(K/128)] (row-major; block (i, j) covers rows 128i.., columns
// 128j.. of its batch entry): quantize_fp8_block_weight applied to each [N, K] matrix.
void quantize_fp8_block_weight_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K,
                                   uint8_t* codes, float* scales, bool ue8m0, cudaStream_t stream);

// src [M, K] (kBF16 or kF32) with row stride ld >= K (elements) -> codes [M, K] e4m3 and scales
// fp32 [M, ceil(K/128)]: quantize_fp8_act_1x128.
void quantize_fp8_act_1x128_gpu(const void* src, DType src_dtype, int64_t M, int64_t K, int64_t ld,
                                uint8_t* codes, float* scales, bool ue8m0, cudaStream_t stream);

// The synthetic layer's fp8_block weights made on the device: fill_synthetic_layer_fp8_block
// (synthetic/synthetic_fill.h).

}  // namespace megamoe::sm90
