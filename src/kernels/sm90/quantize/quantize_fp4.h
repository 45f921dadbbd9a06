// GPU quantizers for the MX and NVFP4 weight formats, bit-identical to the CPU quantizers in
// src/formats/quantize.h (formats::quantize_mx, formats::nvfp4_global_scale,
// formats::quantize_nvfp4): the same integer amax over |x|'s bits, the same scale rules (MX:
// e8m0 floor(log2 amax) - emax; NVFP4: e4m3((amax / 6) / global) with IEEE divisions), the same
// saturating RNE element codes, the same NaN poisoning of blocks that hold a NaN or an inf, the
// same packing (element 2j in the low nibble of byte j). Used to make 4-bit weights on the device
// (tools, benchmarks, the public include/megamoe/quantize.h) and tested code for code and scale
// for scale against the CPU (tests/gpu/test_quantize_fp4.cpp).
// All calls are asynchronous on `stream`, allocate nothing and are graph-capturable. Sources are
// contiguous [batch, N, K] tensors of dtype kBF16 or kF32 (any 16-byte alignment is fastest;
// others work); K (the reduction dim) is innermost.
#pragma once
#include <cstdint>

#include <cuda_runtime.h>

#include "megamoe/config.h"
#include "megamoe/tensor.h"

namespace megamoe::sm90 {

// MX e2m1 (MXFP4): src [batch, N, K] -> codes packed [batch, N, K/2], scales e8m0 codes
// [batch, N, K/32]: formats::quantize_mx(.., MxElem::kE2M1, ..) applied to every row. K must be a
// multiple of 32 (else InvalidArgument).
void quantize_mx_e2m1_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, uint8_t* codes,
                          uint8_t* scales, cudaStream_t stream);

// MX e4m3 (MXFP8), the same kernel with e4m3 elements: codes [batch, N, K] e4m3, scales e8m0 codes
// [batch, N, K/32] (formats::quantize_mx(.., MxElem::kE4M3, ..)).
void quantize_mx_e4m3_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, uint8_t* codes,
                          uint8_t* scales, cudaStream_t stream);

// NVFP4 global scale of every batch entry (one per expert per FC, the `alpha` of docs/DESIGN.md section 1):
// global[b] = formats::nvfp4_global_scale(src + b*N*K, N*K), i.e. max |x| over the entry's finite
// elements / 2688, or 1 when that is 0. `global` (device, f32 [batch]) doubles as the reduction's
// workspace (it holds amax bits between the steps), so nothing else is needed: three stream
// operations (a memset, a max-reduction with atomics, a finishing kernel). Shape rules as below.
void nvfp4_global_scale_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, float* global,
                            cudaStream_t stream);

// NVFP4: src [batch, N, K] with the device f32 [batch] global scales (as nvfp4_global_scale_gpu
// makes them, or a checkpoint's) -> codes packed [batch, N, K/2], scales e4m3 codes [batch, N, K/16]:
// formats::quantize_nvfp4(src + b*N*K, N, K, K, global[b], ..) for every batch entry b. K must be a
// multiple of 16 (else InvalidArgument). The CPU quantizer rejects a global scale that is not
// finite and > 0; a device value cannot be checked without a synchronisation, so here every block
// of such a batch entry is poisoned instead (scale 0x7F, codes 0x7: dequantizes to NaN).
void quantize_nvfp4_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, const float* global,
                        uint8_t* codes, uint8_t* scales, cudaStream_t stream);

// The synthetic layer's e2m1 weights made on the device: fill_synthetic_layer_fp4
// (synthetic/synthetic_fill.h).

}  // namespace megamoe::sm90
