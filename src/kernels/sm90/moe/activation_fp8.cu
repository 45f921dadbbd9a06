// Activation + 1x128 quantize of FC2's input (see moe_kernels_fp8.h). A warp walks one or more
// 128-column groups of a row (activation_quant_kernel says how many); in each, lane l takes
// columns 4l..4l+3 of g (and u, and the biases) with 16-byte copies, computes
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
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/vector_io.cuh"
#include "kernels/sm90/moe/activation_math.cuh"
#include "kernels/sm90/moe/moe_kernels_fp8.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

using namespace fp8;

using act::act_fn;

// Budget: kThreads = 256 threads a CTA = 8 warps, one role (each warp streams its (row, groups):
// loads, activates, reduces the amax and stores). Shared memory: a private ring per warp of
// kDepth stages, each the group's 128 g and 128 u floats (1 KiB; relu2 uses the g half), filled by
// cp.async: kDepth - 1 groups in flight per warp without holding them in registers. Measured
// (H200, T = 8192, ncu): with the next group held in registers (1 KiB in flight per warp, 40 warps
// per SM at 48 registers) the kernel read h at 2.0-2.4 TB/s, 51-59% of the copy rate.
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kColsPerLane = kBlock / 32;  // 4: one 16-byte fp32 load, one 32-bit store of codes
constexpr int kDepth = 4;                  // stages per warp: 3 groups in flight (3 KiB a warp)
constexpr int kStageFloats = 2 * kBlock;   // g then u of one 128-column group
constexpr int kSmemBytes = kWarps * kDepth * kStageFloats * int(sizeof(float));  // 32 KiB a CTA
static_assert(kColsPerLane * sizeof(float) == vec::kBytesPerVectorLoad, "a lane's fp32 columns: one cp.async");
static_assert(kColsPerLane * sizeof(uint8_t) == sizeof(uint32_t), "a lane's codes: one 32-bit store");
static_assert(kThreads % 32 == 0, "whole warps: a warp owns its (row, groups)");
static_assert(kSmemBytes <= 48 * 1024, "static shared memory without the opt-in");

// The biases of one lane for one 128-column group: columns c..c+3 of the gate and up rows (the
// expert's bias row is small and shared by its rows: L1 / L2 hits, one group ahead in registers).
struct LaneBias {
  float g[4], u[4];
};

template <bool kGated, bool kBias>
__device__ __forceinline__ void load_bias(const float* br, int64_t I, int64_t c, LaneBias& v) {
#pragma unroll
  for (int j = 0; j < 4; ++j) v.g[j] = v.u[j] = 0.0f;
  if (!kBias || c >= I) return;
  vec::ldg_f32x4(br + c, v.g);
  if constexpr (kGated) vec::ldg_f32x4(br + I + c, v.u);
}

// Lane's 16 bytes of g (and u) of the group at column c into its slots of stage `st` (zero-filled
// past I: a = 0 there). One commit group per call, empty past the warp's last group, so that
// cp.async.wait_group kDepth - 1 always means "this iteration's group has landed".
template <bool kGated>
__device__ __forceinline__ void issue_group(const float* hr, int64_t I, int64_t c, bool in_range, uint32_t st) {
  if (in_range) {
    const bool real = c < I;
    ptx::cp_async16(st, real ? hr + c : hr, real);
    if constexpr (kGated) ptx::cp_async16(st + kBlock * sizeof(float), real ? hr + I + c : hr, real);
  }
  ptx::cp_async_commit();
}

// Warp w takes row w / warps_per_row and its groups [gpw * (w % warps_per_row), + gpw), streaming
// them through its ring; each lane reads back only what it copied itself, so no warp barrier.
template <Activation kAct, bool kBias>
__global__ void __launch_bounds__(kThreads)
    activation_quant_kernel(const float* __restrict__ h, const float* __restrict__ b13,
                            const int32_t* __restrict__ row_expert, const int32_t* __restrict__ offsets,
                            int64_t local_experts, int64_t max_rows, int64_t I, int64_t gpw, float limit,
                            float alpha, uint8_t* __restrict__ aq, float* __restrict__ sa) {
  constexpr bool kGated = kAct != Activation::kReLU2;
  __shared__ __align__(16) float ring[kWarps][kDepth][kStageFloats];
  ptx::pdl_wait_then_release();  // h from FC1 (a no-op without PDL)
  const int64_t N13 = kGated ? 2 * I : I;
  const int64_t IB = (I + kBlock - 1) / kBlock;
  const int64_t warps_per_row = (IB + gpw - 1) / gpw;
  const int64_t wid = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (wid >= max_rows * warps_per_row) return;
  const int64_t row = wid / warps_per_row, ib0 = (wid - row * warps_per_row) * gpw;
  if (row >= int64_t(__ldg(offsets + local_experts))) return;  // whole warps exit together
  const int64_t ib_end = ib0 + gpw < IB ? ib0 + gpw : IB;
  const float* hr = h + row * N13;
  const int64_t lc = lane * kColsPerLane;  // the lane's first column within a group
  const uint32_t my_ring = static_cast<uint32_t>(__cvta_generic_to_shared(&ring[threadIdx.x >> 5][0][lc]));
  constexpr uint32_t kStageBytes = kStageFloats * sizeof(float);
  // The first kDepth - 1 groups go out before the row's expert lookups, which they overlap.
#pragma unroll
  for (int q = 0; q < kDepth - 1; ++q)
    issue_group<kGated>(hr, I, (ib0 + q) * kBlock + lc, ib0 + q < ib_end, my_ring + q * kStageBytes);
  const int32_t e = __ldg(row_expert + row);
  const int64_t lo = __ldg(offsets + e), hi = __ldg(offsets + e + 1);
  const float* br = kBias ? b13 + int64_t(e) * N13 : nullptr;
  LaneBias bcur, bnext;
  load_bias<kGated, kBias>(br, I, ib0 * kBlock + lc, bcur);
  int slot = 0;
  for (int64_t ib = ib0; ib < ib_end; ++ib) {
    const int64_t c = ib * kBlock + lc;
    const int ahead = slot == 0 ? kDepth - 1 : slot - 1;  // the stage freed last iteration
    issue_group<kGated>(hr, I, c + (kDepth - 1) * kBlock, ib + kDepth - 1 < ib_end, my_ring + ahead * kStageBytes);
    if (ib + 1 < ib_end) load_bias<kGated, kBias>(br, I, c + kBlock, bnext);
    ptx::cp_async_wait<kDepth - 1>();  // this group's copies (kDepth - 1 newer groups may fly)
    float g4[4], u4[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    const uint32_t st = my_ring + slot * kStageBytes;
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(g4[0]), "=f"(g4[1]), "=f"(g4[2]), "=f"(g4[3]) : "r"(st));
    if constexpr (kGated)
      asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                   : "=f"(u4[0]), "=f"(u4[1]), "=f"(u4[2]), "=f"(u4[3])
                   : "r"(st + kBlock * uint32_t(sizeof(float))));
    float a[4];
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      float g = g4[j], u = u4[j];
      if constexpr (kBias) {
        g += bcur.g[j];
        if constexpr (kGated) u += bcur.u[j];
      }
      a[j] = c < I ? act::act_bf16<kAct>(g, u, limit, alpha) : 0.0f;
    }
    bool poisoned;
    const float s = warp_group_scale(a, /*ue8m0=*/false, poisoned);
    if (c < I) *reinterpret_cast<uint32_t*>(aq + row * I + c) = encode4(a, scale_divisor(s), poisoned);
    if (lane == 0) sa[act_scale_index(row, ib, IB, lo, hi)] = s;
    bcur = bnext;
    slot = slot == kDepth - 1 ? 0 : slot + 1;
  }
}

template <Activation kAct>
void launch_act(const float* h, const float* b13, const int32_t* row_expert, const int32_t* offsets, int64_t EL,
                int64_t max_rows, int64_t I, const ActivationParams& p, uint8_t* aq, float* sa, cudaStream_t stream,
                bool pdl) {
  const int64_t IB = cu::ceil_div<int64_t>(I, kBlock);
  const int64_t gpw = cu::units_per_warp(max_rows, IB, IB);  // up to the whole row
  const int64_t warps = max_rows * cu::ceil_div<int64_t>(IB, gpw);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(warps * 32, kThreads));
  auto kernel = b13 ? activation_quant_kernel<kAct, true> : activation_quant_kernel<kAct, false>;
  cu::check("activation_fp8",
            cu::launch_kernel_pdl(kernel, dim3(grid), dim3(kThreads), 0, stream, pdl, h, b13, row_expert, offsets, EL,
                                  max_rows, I, gpw, p.limit, p.alpha, aq, sa),
            "fp8 activation-quantize kernel launch");
}

}  // namespace

void launch_activation_quant_fp8(const float* h, const float* b13, const int32_t* row_expert, const int32_t* offsets,
                                 int64_t local_experts, int64_t max_rows, int64_t I, const ActivationParams& p,
                                 void* aq, float* sa, cudaStream_t stream, bool pdl) {
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
    case Activation::kSwiGLU: launch_act<Activation::kSwiGLU>(h, b13, row_expert, offsets, local_experts, max_rows, I, p, ap, sa, stream, pdl); break;
    case Activation::kSwiGLUOAI: launch_act<Activation::kSwiGLUOAI>(h, b13, row_expert, offsets, local_experts, max_rows, I, p, ap, sa, stream, pdl); break;
    case Activation::kGeGLU: launch_act<Activation::kGeGLU>(h, b13, row_expert, offsets, local_experts, max_rows, I, p, ap, sa, stream, pdl); break;
    case Activation::kReLU2: launch_act<Activation::kReLU2>(h, b13, row_expert, offsets, local_experts, max_rows, I, p, ap, sa, stream, pdl); break;
  }
}

}  // namespace megamoe::sm90
