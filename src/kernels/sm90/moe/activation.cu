// Activation: fp32 h (+ b13 of the row's expert) -> act -> bf16 a (see moe_kernels.h). h's gate
// and up columns are [gate | up] or interleaved in groups of 8 (common/gate_up_layout.h).
// Budget: kThreads = 256 threads a CTA, one role, no shared memory, no pipeline. One thread per
// kColsPerThread = 8 outputs of one row: 2 x 16-byte loads of g (and of u, and of each bias
// half), one 16-byte store of 8 bf16. Formulas and NaN behaviour mirror the CPU reference
// (src/reference/reference.cpp): clamps written as the std::min / std::clamp comparisons.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/vector_io.cuh"
#include "kernels/sm90/moe/activation_math.cuh"
#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

using act::act_fn;

constexpr int kThreads = 256;
using vec::kBytesPerVectorLoad;
constexpr int kColsPerThread = 8;        // two fp32 vector loads in, one bf16 vector store out
static_assert(kColsPerThread * sizeof(__nv_bfloat16) == kBytesPerVectorLoad, "one 16-byte store of a");
static_assert(kColsPerThread * sizeof(float) == 2 * kBytesPerVectorLoad, "two 16-byte loads of h per thread");

template <Activation kAct, bool kBias>
__global__ void activation_kernel(const float* __restrict__ h, const float* __restrict__ b13,
                                  const int32_t* __restrict__ row_expert, const int32_t* __restrict__ total_rows,
                                  int64_t max_rows, int64_t I, float limit, float alpha, bool interleaved,
                                  __nv_bfloat16* __restrict__ a) {
  ptx::pdl_wait_then_release();
  constexpr bool kGated = kAct != Activation::kReLU2;
  const int64_t N13 = kGated ? 2 * I : I;
  const int64_t vecs = I / kColsPerThread;
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= max_rows * vecs) return;
  const int64_t row = idx / vecs, c = (idx - row * vecs) * kColsPerThread;
  if (row >= int64_t(__ldg(total_rows))) return;
  const float* hr = h + row * N13;
  float g[kColsPerThread], u[kColsPerThread];
  // Interleaved (gate_up_layout.h): c is a multiple of kGroup = 8, so gate columns c..c+7 are the
  // 8 physical columns from 2c and their up columns the next 8.
  static_assert(kColsPerThread == gate_up::kGroup, "one interleaved gate/up group per thread");
  const bool il = kGated && interleaved;
  vec::ldg_f32x8(hr + (il ? 2 * c : c), g);
  if constexpr (kGated) vec::ldg_f32x8(hr + (il ? 2 * c + gate_up::kGroup : I + c), u);
  if constexpr (kBias) {
    const float* br = b13 + int64_t(__ldg(row_expert + row)) * N13;
    float bg[kColsPerThread];
    vec::ldg_f32x8(br + c, bg);
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j) g[j] += bg[j];
    if constexpr (kGated) {
      float bu[kColsPerThread];
      vec::ldg_f32x8(br + I + c, bu);
#pragma unroll
      for (int j = 0; j < kColsPerThread; ++j) u[j] += bu[j];
    }
  }
  alignas(kBytesPerVectorLoad) __nv_bfloat16 out[kColsPerThread];
#pragma unroll
  for (int j = 0; j < kColsPerThread; ++j) out[j] = __float2bfloat16_rn(act_fn<kAct>(g[j], kGated ? u[j] : 0.0f, limit, alpha));
  *reinterpret_cast<uint4*>(a + row * I + c) = *reinterpret_cast<const uint4*>(out);
}

template <Activation kAct>
cudaError_t launch_act(const float* h, const float* b13, const int32_t* row_expert, const int32_t* total_rows,
                       int64_t max_rows, int64_t I, const ActivationParams& p, __nv_bfloat16* a,
                       cudaStream_t stream, bool pdl) {
  const int64_t threads = max_rows * (I / kColsPerThread);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(threads, kThreads));
  if (b13)
    return cu::launch_kernel_pdl(activation_kernel<kAct, true>, dim3(grid), dim3(kThreads), 0, stream, pdl, h, b13,
                                 row_expert, total_rows, max_rows, I, p.limit, p.alpha, p.gate_up_interleaved, a);
  return cu::launch_kernel_pdl(activation_kernel<kAct, false>, dim3(grid), dim3(kThreads), 0, stream, pdl, h, b13,
                               row_expert, total_rows, max_rows, I, p.limit, p.alpha, p.gate_up_interleaved, a);
}

}  // namespace

void launch_activation(const float* h, const float* b13, const int32_t* row_expert, const int32_t* total_rows,
                       int64_t max_rows, int64_t I, const ActivationParams& p, void* a, cudaStream_t stream) {
  launch_activation(h, b13, row_expert, total_rows, max_rows, I, p, a, stream, false);
}

void launch_activation(const float* h, const float* b13, const int32_t* row_expert, const int32_t* total_rows,
                       int64_t max_rows, int64_t I, const ActivationParams& p, void* a, cudaStream_t stream,
                       bool pdl) {
  if (max_rows <= 0) return;
  if (I % kColsPerThread != 0) throw_invalid("intermediate_size", "a multiple of " + std::to_string(kColsPerThread) + " (activation kernel)", std::to_string(I));
  auto ap = static_cast<__nv_bfloat16*>(a);
  cudaError_t e = cudaSuccess;
  switch (p.activation) {
    case Activation::kSwiGLU: e = launch_act<Activation::kSwiGLU>(h, b13, row_expert, total_rows, max_rows, I, p, ap, stream, pdl); break;
    case Activation::kSwiGLUOAI: e = launch_act<Activation::kSwiGLUOAI>(h, b13, row_expert, total_rows, max_rows, I, p, ap, stream, pdl); break;
    case Activation::kGeGLU: e = launch_act<Activation::kGeGLU>(h, b13, row_expert, total_rows, max_rows, I, p, ap, stream, pdl); break;
    case Activation::kReLU2: e = launch_act<Activation::kReLU2>(h, b13, row_expert, total_rows, max_rows, I, p, ap, stream, pdl); break;
  }
  cu::check("activation", e, "activation kernel launch");
}

}  // namespace megamoe::sm90
