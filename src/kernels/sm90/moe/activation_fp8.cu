// Activation + 1x128 quantize of FC2's input (see moe_kernels_fp8.h). A warp walks one or more
// 128-column groups of a row (activation_quant_kernel says how many); in each, lane l takes
// columns 4l..4l+3 of g (and u, and the biases) with 16-byte loads, computes
// a = bf16(act(h + b13)) with the same formulas as activation.cu (which mirror the CPU
// reference), then the warp quantizes the group's 128 bf16 values exactly as
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
// the amax and stores its (row, group)s, one group's loads ahead), no shared memory.
constexpr int kThreads = 256;
constexpr int kColsPerLane = kBlock / 32;  // 4: one 16-byte fp32 load, one 32-bit store of codes
static_assert(kColsPerLane * sizeof(float) == vec::kBytesPerVectorLoad, "a lane's fp32 columns: one vector load");
static_assert(kColsPerLane * sizeof(uint8_t) == sizeof(uint32_t), "a lane's codes: one 32-bit store");
static_assert(kThreads % 32 == 0, "whole warps: a warp owns its (row, groups)");

// The h (and bias) values of one lane for one 128-column group: columns c..c+3 of g and of u.
struct LaneGroup {
  float g[4], u[4], bg[4], bu[4];
};

template <bool kGated, bool kBias>
__device__ __forceinline__ void load_group(const float* hr, const float* br, int64_t I, int64_t c, LaneGroup& v) {
#pragma unroll
  for (int j = 0; j < 4; ++j) v.g[j] = v.u[j] = v.bg[j] = v.bu[j] = 0.0f;
  if (c >= I) return;  // past I in the partial last group: a = 0 there
  vec::ldg_f32x4(hr + c, v.g);
  if constexpr (kGated) vec::ldg_f32x4(hr + I + c, v.u);
  if constexpr (kBias) {
    vec::ldg_f32x4(br + c, v.bg);
    if constexpr (kGated) vec::ldg_f32x4(br + I + c, v.bu);
  }
}

// Warp w takes row w / warps_per_row and its groups [gpw * (w % warps_per_row), + gpw): it loads
// the next group's h before it computes the current one, so each warp keeps a load in flight
// while it runs the activation and the quantizer's IEEE divisions (one warp per group left the
// memory idle while every warp computed: mixtral-8x7b T = 8192, 1.9 GB of h, ran at ~2 TB/s).
template <Activation kAct, bool kBias>
__global__ void __launch_bounds__(kThreads)
    activation_quant_kernel(const float* __restrict__ h, const float* __restrict__ b13,
                            const int32_t* __restrict__ row_expert, const int32_t* __restrict__ offsets,
                            int64_t local_experts, int64_t max_rows, int64_t I, int64_t gpw, float limit,
                            float alpha, uint8_t* __restrict__ aq, float* __restrict__ sa) {
  constexpr bool kGated = kAct != Activation::kReLU2;
  const int64_t N13 = kGated ? 2 * I : I;
  const int64_t IB = (I + kBlock - 1) / kBlock;
  const int64_t warps_per_row = (IB + gpw - 1) / gpw;
  const int64_t wid = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (wid >= max_rows * warps_per_row) return;
  const int64_t row = wid / warps_per_row, ib0 = (wid - row * warps_per_row) * gpw;
  if (row >= int64_t(__ldg(offsets + local_experts))) return;  // whole warps exit together
  const int64_t ib_end = ib0 + gpw < IB ? ib0 + gpw : IB;
  const int32_t e = __ldg(row_expert + row);
  const int64_t lo = __ldg(offsets + e), hi = __ldg(offsets + e + 1);
  const float* hr = h + row * N13;
  const float* br = kBias ? b13 + int64_t(e) * N13 : nullptr;
  LaneGroup cur, next;
  load_group<kGated, kBias>(hr, br, I, ib0 * kBlock + lane * kColsPerLane, cur);
  for (int64_t ib = ib0; ib < ib_end; ++ib) {
    const int64_t c = ib * kBlock + lane * kColsPerLane;
    if (ib + 1 < ib_end) load_group<kGated, kBias>(hr, br, I, c + kBlock, next);
    float a[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float g = cur.g[j], u = cur.u[j];
      if constexpr (kBias) {
        g += cur.bg[j];
        if constexpr (kGated) u += cur.bu[j];
      }
      a[j] = c < I ? __bfloat162float(__float2bfloat16_rn(act_fn<kAct>(g, u, limit, alpha))) : 0.0f;
    }
    uint32_t am = 0;
#pragma unroll
    for (int j = 0; j < 4; ++j) am = max(am, abs_bits(a[j]));
    am = warp_max(am);
    const float s = block_scale(am, false);
    if (c < I) *reinterpret_cast<uint32_t*>(aq + row * I + c) = encode4(a, s, am >= kInfBits);
    if (lane == 0) sa[act_scale_index(row, ib, IB, lo, hi)] = s;
    cur = next;
  }
}

// Groups per warp: the whole row once there are enough rows to fill the GPU with warps, fewer
// (down to one) at small T so that the warps still cover every SM.
int64_t groups_per_warp(int64_t max_rows, int64_t IB) {
  constexpr int64_t kTargetWarps = 8192;  // ~62 warps per SM on 132 SMs: full occupancy is 64
  const int64_t gpw = max_rows * IB / kTargetWarps;
  return gpw < 1 ? 1 : gpw > IB ? IB : gpw;
}

template <Activation kAct>
void launch_act(const float* h, const float* b13, const int32_t* row_expert, const int32_t* offsets, int64_t EL,
                int64_t max_rows, int64_t I, const ActivationParams& p, uint8_t* aq, float* sa, cudaStream_t stream) {
  const int64_t IB = cu::ceil_div<int64_t>(I, kBlock);
  const int64_t gpw = groups_per_warp(max_rows, IB);
  const int64_t warps = max_rows * cu::ceil_div<int64_t>(IB, gpw);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(warps * 32, kThreads));
  if (b13)
    activation_quant_kernel<kAct, true><<<grid, kThreads, 0, stream>>>(h, b13, row_expert, offsets, EL, max_rows, I,
                                                                       gpw, p.limit, p.alpha, aq, sa);
  else
    activation_quant_kernel<kAct, false><<<grid, kThreads, 0, stream>>>(h, b13, row_expert, offsets, EL, max_rows, I,
                                                                        gpw, p.limit, p.alpha, aq, sa);
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
