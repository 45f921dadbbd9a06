// Activation + 1x128 quantize of FC2's input (see moe_kernels_fp8.h). One warp per (row,
// 128-column group of I): lane l takes columns 4l..4l+3 of g (and u, and the biases) with 16-byte
// loads, computes a = bf16(act(h + b13)) with the same formulas as activation.cu (which mirror the
// CPU reference), then the warp quantizes the group's 128 bf16 values exactly as
// formats::quantize_fp8_act_1x128 does: e4m3 codes (one 32-bit store per lane) and one fp32 scale.
// A partial last group (I not a multiple of 128; I % 4 == 0, so a lane's 4 columns are all real
// or all past I) loads and stores only its real columns; lanes past I hold a = 0, which leaves the
// unsigned amax unchanged, so the scale and codes are the CPU quantizer's over the real columns.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/vector_io.cuh"
#include "kernels/sm90/moe/activation_math.cuh"
#include "kernels/sm90/moe/moe_kernels_fp8.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

using namespace fp8;

using act::act_fn;

// Budget: kThreads = 256 threads a CTA = 8 warps, one role (each warp loads, activates, reduces
// the amax and stores one (row, group)), no shared memory, no pipeline.
constexpr int kThreads = 256;
constexpr int kColsPerLane = kBlock / 32;  // 4: one 16-byte fp32 load, one 32-bit store of codes
static_assert(kColsPerLane * sizeof(float) == vec::kBytesPerVectorLoad, "a lane's fp32 columns: one vector load");
static_assert(kColsPerLane * sizeof(uint8_t) == sizeof(uint32_t), "a lane's codes: one 32-bit store");
static_assert(kThreads % 32 == 0, "whole warps, one per (row, group)");

template <Activation kAct, bool kBias>
__global__ void activation_quant_kernel(const float* __restrict__ h, const float* __restrict__ b13,
                                        const int32_t* __restrict__ row_expert, const int32_t* __restrict__ offsets,
                                        int64_t local_experts, int64_t max_rows, int64_t I, float limit, float alpha,
                                        uint8_t* __restrict__ aq, float* __restrict__ sa) {
  constexpr bool kGated = kAct != Activation::kReLU2;
  const int64_t N13 = kGated ? 2 * I : I;
  const int64_t IB = (I + kBlock - 1) / kBlock;
  const int64_t wid = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (wid >= max_rows * IB) return;
  const int64_t row = wid / IB, ib = wid - row * IB;
  if (row >= int64_t(__ldg(offsets + local_experts))) return;  // whole warps exit together
  const int64_t c = ib * kBlock + lane * kColsPerLane;
  const bool real = c < I;  // false only in the partial last group (the warp stays whole for the max)
  const int32_t e = __ldg(row_expert + row);
  float a[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (real) {
    const float* hr = h + row * N13;
    float g[4], u[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    vec::ldg_f32x4(hr + c, g);
    if constexpr (kGated) vec::ldg_f32x4(hr + I + c, u);
    if constexpr (kBias) {
      const float* br = b13 + int64_t(e) * N13;
      float bg[4];
      vec::ldg_f32x4(br + c, bg);
#pragma unroll
      for (int j = 0; j < 4; ++j) g[j] += bg[j];
      if constexpr (kGated) {
        float bu[4];
        vec::ldg_f32x4(br + I + c, bu);
#pragma unroll
        for (int j = 0; j < 4; ++j) u[j] += bu[j];
      }
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) a[j] = __bfloat162float(__float2bfloat16_rn(act_fn<kAct>(g[j], u[j], limit, alpha)));
  }
  uint32_t am = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) am = max(am, abs_bits(a[j]));
  am = warp_max(am);
  const float s = block_scale(am, false);
  if (real) *reinterpret_cast<uint32_t*>(aq + row * I + c) = encode4(a, s, am >= kInfBits);
  if (lane == 0) {
    const int64_t lo = __ldg(offsets + e), hi = __ldg(offsets + e + 1);
    sa[act_scale_index(row, ib, IB, lo, hi)] = s;
  }
}

template <Activation kAct>
void launch_act(const float* h, const float* b13, const int32_t* row_expert, const int32_t* offsets, int64_t EL,
                int64_t max_rows, int64_t I, const ActivationParams& p, uint8_t* aq, float* sa, cudaStream_t stream) {
  const int64_t warps = max_rows * cu::ceil_div<int64_t>(I, kBlock);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(warps * 32, kThreads));
  if (b13)
    activation_quant_kernel<kAct, true><<<grid, kThreads, 0, stream>>>(h, b13, row_expert, offsets, EL, max_rows, I,
                                                                       p.limit, p.alpha, aq, sa);
  else
    activation_quant_kernel<kAct, false><<<grid, kThreads, 0, stream>>>(h, b13, row_expert, offsets, EL, max_rows, I,
                                                                        p.limit, p.alpha, aq, sa);
}

}  // namespace

void launch_activation_quant_fp8(const float* h, const float* b13, const int32_t* row_expert, const int32_t* offsets,
                                 int64_t local_experts, int64_t max_rows, int64_t I, const ActivationParams& p,
                                 void* aq, float* sa, cudaStream_t stream) {
  if (max_rows <= 0) return;
  // 4: each lane takes 4 whole columns with 16-byte fp32 loads (rows of 2I or I floats, bias rows
  // likewise) and stores their codes as one 32-bit word (rows of I bytes).
  if (I <= 0 || I % kColsPerLane != 0)
    throw_invalid("intermediate_size", "a positive multiple of 4 (fp8 activation-quantize)", std::to_string(I));
  if (!cu::aligned(aq, sizeof(uint32_t))) throw_invalid("aq", "a 4-byte aligned pointer", "misaligned");
  if (p.gate_up_interleaved)
    throw_invalid("params.gate_up_interleaved", "false (fp8_block keeps W13 canonical: [gate | up] h)", "true");
  auto ap = static_cast<uint8_t*>(aq);
  switch (p.activation) {
    case Activation::kSwiGLU: launch_act<Activation::kSwiGLU>(h, b13, row_expert, offsets, local_experts, max_rows, I, p, ap, sa, stream); break;
    case Activation::kSwiGLUOAI: launch_act<Activation::kSwiGLUOAI>(h, b13, row_expert, offsets, local_experts, max_rows, I, p, ap, sa, stream); break;
    case Activation::kGeGLU: launch_act<Activation::kGeGLU>(h, b13, row_expert, offsets, local_experts, max_rows, I, p, ap, sa, stream); break;
    case Activation::kReLU2: launch_act<Activation::kReLU2>(h, b13, row_expert, offsets, local_experts, max_rows, I, p, ap, sa, stream); break;
  }
  cu::check_launch("activation_fp8", "fp8 activation-quantize kernel launch");
}

}  // namespace megamoe::sm90
