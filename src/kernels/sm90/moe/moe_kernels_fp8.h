// Memory-bound kernels of the sm90 fp8_block split path that quantize on the fly (1 x 128 groups,
// the rules of formats::quantize_fp8_act_1x128, bit for bit; device twins in quantize_fp8.cuh).
// Codes are written expert-ordered [rows, C] e4m3 (C = H or I, a multiple of 4, row stride C);
// scales in the per-expert MN-major layout the grouped FP8 GEMM reads (grouped_gemm_fp8_blockwise.h,
// "SA"): for a row of local expert e (lo = offsets[e], hi = offsets[e+1], CB = ceil(C/128)) the
// scale of its 128-column group cb is at lo*CB + cb*(hi-lo) + (row-lo). When C is not a multiple
// of 128 the last group is partial: its scale covers its real columns only (as the CPU quantizer's)
// and nothing is written past column C. Asynchronous, allocation-free, graph-capturable; row counts
// only the device knows are read on the device. pdl: launched with programmatic dependent launch
// (the kernel may start before the previous one in the stream ends and waits for it with
// griddepcontrol.wait before its first load; ptx.cuh).
#pragma once
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/sm90/moe/moe_kernels.h"  // ActivationParams

namespace megamoe::sm90 {

// Permute + quantize FC1's input: for every token t, the codes and scales of x[t, :] (bf16, row
// stride ldx elements) go to each routed row = route_to_row[t*K+k] >= 0: xq [rows, H] e4m3, sx as
// above (row_expert / offsets from the same route plan). x is read once, quantized once per token.
// H % 4 == 0.
void launch_permute_quant_fp8(const void* x, int64_t ldx, int64_t T, int64_t K, int64_t H,
                              const int32_t* route_to_row, const int32_t* row_expert, const int32_t* offsets,
                              void* xq, float* sx, cudaStream_t stream, bool pdl = false);

// Activation + quantize FC2's input, for rows r < offsets[E_local] (device; max_rows is a host
// upper bound): h' = h[r, :] + b13[row_expert[r], :] (b13 may be null), a = bf16(act(h')) exactly
// as launch_activation computes it, then a quantized per 128 columns: aq [rows, I] e4m3 and sa
// (layout above). h [rows, N13] fp32 (N13 = 2I gated, I for relu2). I % 4 == 0.
void launch_activation_quant_fp8(const float* h, const float* b13, const int32_t* row_expert,
                                 const int32_t* offsets, int64_t local_experts, int64_t max_rows, int64_t I,
                                 const ActivationParams& params, void* aq, float* sa, cudaStream_t stream,
                                 bool pdl = false);

}  // namespace megamoe::sm90
