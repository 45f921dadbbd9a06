// Device-side generation of the synthetic layer's canonical weights (the rule in
// src/core/synthetic.h) in every weight format, so full-size presets never pass through host
// memory: bf16 directly, fp8_block and the e2m1 formats through the GPU quantizers
// (quantize/quantize_fp8_kernels.cuh, quantize/quantize_fp4_kernels.cuh) reading the bf16 master
// weights generated on the fly (no bf16 copy is stored).
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

// The synthetic layer's canonical fp8_block weights, made on the device without a host copy
// and equal byte for byte to reference::synthetic_canonical_weights: the bf16 master weights of
// the rule in core/synthetic.h (as fill_synthetic_layer_bf16 makes them), generated inside the
// quantizer (no bf16 copy is stored) and quantized as quantize_fp8_block_weight_gpu does with
// ue8m0 = false. w13 [E_local, N13, H] / w2 [E_local, H, I] e4m3 codes, w13_scale [E_local,
// ceil(N13/128), ceil(H/128)] / w2_scale [E_local, ceil(H/128), ceil(I/128)] fp32, biases fp32
// (bf16-valued) [E_local, N13] / [E_local, H] when config.has_bias (b13/b2 may be null otherwise).
void fill_synthetic_layer_fp8_block(const MoeConfig& config, uint64_t seed, uint8_t* w13, float* w13_scale,
                                    uint8_t* w2, float* w2_scale, float* b13, float* b2, cudaStream_t stream);

// The synthetic layer's canonical weights of the four recipes with e2m1 weights (w4a16_mxfp4,
// w4a8_mxfp4: MX e2m1; w4a16_nvfp4, nvfp4: NVFP4; both pairs have the same weight tensors), made
// on the device without a host copy and equal byte for byte to reference::synthetic_canonical_weights:
// the bf16 master weights of the rule in core/synthetic.h (as fill_synthetic_layer_bf16 makes
// them) are generated inside the quantizers (no bf16 copy is stored) and quantized as above.
//   w13 [E_local, N13, H/2] / w2 [E_local, H, I/2] packed e2m1,
//   w13_scale [E_local, N13, H/32] / w2_scale [E_local, H, I/32] e8m0 codes (MX), or
//             [E_local, N13, H/16] / [E_local, H, I/16] e4m3 codes (NVFP4),
//   w13_global / w2_global f32 [E_local] (NVFP4 only; may be null for MX),
//   b13 [E_local, N13] / b2 [E_local, H] fp32 (bf16-valued) when config.has_bias (may be null
//   otherwise).
// The nvfp4 recipe's activation global scales are host values (reference::
// kSyntheticNvfp4InputGlobalScale), not made here. Other recipes: InvalidArgument.
void fill_synthetic_layer_fp4(const MoeConfig& config, uint64_t seed, uint8_t* w13, uint8_t* w13_scale, uint8_t* w2,
                              uint8_t* w2_scale, float* w13_global, float* w2_global, float* b13, float* b2,
                              cudaStream_t stream);

// Reads `bytes` (a multiple of 16, 16-byte aligned) of `src` once, keeping the loads alive with
// a store to `sink` (one u32, device) that happens only for a sum no data gives. For benches: a
// sweep over a buffer larger than L2 leaves L2 holding clean lines of it, where a memset leaves
// dirty lines that the next kernel's misses must write back to DRAM first.
void read_sweep(const void* src, size_t bytes, unsigned* sink, cudaStream_t stream);

}  // namespace megamoe::sm90
