// bf16 grouped GEMM for small T fed by TMA, two CTAs per SM (grouped_gemm_bf16_small_tma.cu): for
// every expert g, D[rows of g, 0:N] = A[rows of g, 0:K] . W[g, 0:N, 0:K]^T (fp32 D), or FC1 with
// the activation in the epilogue (bf16 a [rows, I]; W13 gate/up interleaved for a gated
// activation). Offsets [G+1] on the device; asynchronous, allocation-free, graph-capturable.
// K % 8 == 0 (a partial last K step is zero-filled); gated activation: N % 16 == 0; A, W 16-byte aligned.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/sm90/gemm/bf16_gemm_operands.h"

namespace megamoe::sm90::bf16_small {

// D: fp32 [rows, ldd], or bf16 a [rows, ldd] when act_out (`act` read only then).
struct Bf16SmallTmaArgs : Bf16GemmOperands {
  bool act_out = false;
};

// Throws InvalidArgument on bad shapes, CudaError on a launch failure; rows_bound == 0 launches nothing.
void launch_bf16_small_tma(const Bf16SmallTmaArgs& args, int64_t rows_bound, cudaStream_t stream);

}  // namespace megamoe::sm90::bf16_small
