// Permute + 1x128 quantize of FC1's input (see moe_kernels_fp8.h). One warp per (token, up to
// kMaxGroups 128-column groups): per group lane l loads columns 4l..4l+3 (8 bytes of bf16), the
// warp takes the group's amax with an unsigned max over |x|'s bits, every lane encodes its 4 codes
// (one 32-bit word) and stores them to each of the token's routed rows; lane j looks up route j's
// row and stores its scale (the lookups run in parallel: with one lane walking the routes,
// deepseek-v3 at T = 8192 took 427 us, latency bound on 8 x 3 dependent loads per warp).
// A partial last group (H not a multiple of 128; H % 4 == 0, so a lane's 4 columns are all real or
// all past H) reads and writes only its real columns: lanes past H contribute |0| to the amax,
// which leaves it unchanged, so scale and codes equal the CPU quantizer's over the real columns.
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/moe/moe_kernels_fp8.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

using namespace fp8;

// Budget: kThreads = 256 threads a CTA = 8 warps, one role (each warp loads up to kMaxGroups
// groups of one token, looks up the token's routes once, then reduces, encodes and stores each
// group to every routed row), no shared memory. Why several groups a warp: with one, each warp's
// work was a chain of x load -> amax -> three dependent route lookups -> stores, and deepseek-v3
// at T = 8192 ran at 2.1 TB/s (49% of the copy rate, H200 ncu). Now the loads of all its groups
// and the lookups are in flight together, and the lookups serve kMaxGroups groups.
constexpr int kThreads = 256;
constexpr int kColsPerLane = kBlock / 32;  // 4: one 8-byte bf16 load, one 32-bit store of codes
constexpr int kMaxGroups = 8;              // groups a warp holds in registers (2 words a lane each)
static_assert(kColsPerLane * sizeof(uint16_t) == sizeof(uint2), "a lane's bf16 columns: one 8-byte load");
static_assert(kColsPerLane * sizeof(uint8_t) == sizeof(uint32_t), "a lane's codes: one 32-bit store");
static_assert(kThreads % 32 == 0, "whole warps, one per (token, groups)");

template <bool kVec>
__device__ __forceinline__ uint2 load4(const uint16_t* src) {
  if constexpr (kVec) return __ldg(reinterpret_cast<const uint2*>(src));
  return make_uint2(uint32_t(src[0]) | uint32_t(src[1]) << 16, uint32_t(src[2]) | uint32_t(src[3]) << 16);
}

// Warp w: token w / warps_per_token, groups [gpw * (w % warps_per_token), + gpw) (gpw <= kGroups).
// Two instantiations: kGroups = 1 when gpw is 1 (small T), kMaxGroups otherwise; the 8-group one
// needs 70 registers, which at small T cost occupancy for nothing (mixtral-8x7b T = 128 and
// qwen3-30b-a3b T = 512, one group a warp, ran 1-2% slower with it).
template <bool kVec, int kGroups>
__global__ void permute_quant_kernel(const uint16_t* __restrict__ x, int64_t ldx, int64_t T, int K, int64_t H,
                                     int64_t gpw, const int32_t* __restrict__ route_to_row,
                                     const int32_t* __restrict__ row_expert, const int32_t* __restrict__ offsets,
                                     uint8_t* __restrict__ xq, float* __restrict__ sx) {
  ptx::pdl_wait_then_release();  // x, the route plan: from earlier kernels (a no-op without PDL)
  const int64_t HB = (H + kBlock - 1) / kBlock;
  const int64_t warps_per_token = (HB + gpw - 1) / gpw;
  const int64_t wid = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (wid >= T * warps_per_token) return;  // whole warps exit together
  const int64_t t = wid / warps_per_token, hb0 = (wid - t * warps_per_token) * gpw;
  const int ng = int(hb0 + gpw < HB ? gpw : HB - hb0);
  // Every group's loads first (a partial last group reads only its real columns), then every
  // group's scale and codes: 2 words a group stay live, not the 4 values.
  uint2 w[kGroups];
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    const int64_t c = (hb0 + g) * kBlock + lane * kColsPerLane;
    w[g] = g < ng && c < H ? load4<kVec>(x + t * ldx + c) : make_uint2(0u, 0u);
  }
  uint32_t codes[kGroups];
  float scale[kGroups];
#pragma unroll
  for (int g = 0; g < kGroups; ++g) {
    scale[g] = 0.0f;
    codes[g] = 0u;
    if (g >= ng) continue;  // ng is the same in every lane: the shuffles below stay converged
    const float v[4] = {__uint_as_float(w[g].x << 16), __uint_as_float(w[g].x & 0xFFFF0000u),
                        __uint_as_float(w[g].y << 16), __uint_as_float(w[g].y & 0xFFFF0000u)};
    bool poisoned;
    scale[g] = warp_group_scale(v, /*ue8m0=*/false, poisoned);
    codes[g] = encode4(v, scale_divisor(scale[g]), poisoned);
  }
  // The token's routed rows, up to 32 at a time: lane j looks up route j (its row, the row's
  // expert and that expert's range) and stores route j's scale of every group; then every lane
  // stores its codes of every group to each row.
  for (int k0 = 0; k0 < K; k0 += 32) {
    const int k = k0 + lane;
    const int32_t my_row = k < K ? __ldg(route_to_row + t * K + k) : -1;
    if (my_row >= 0) {
      const int32_t e = __ldg(row_expert + my_row);
      const int64_t lo = __ldg(offsets + e), hi = __ldg(offsets + e + 1);
#pragma unroll
      for (int g = 0; g < kGroups; ++g)
        if (g < ng) sx[act_scale_index(my_row, hb0 + g, HB, lo, hi)] = scale[g];
    }
    const int n = K - k0 < 32 ? K - k0 : 32;
    for (int j = 0; j < n; ++j) {
      const int32_t row = __shfl_sync(0xFFFFFFFFu, my_row, j);
      if (row < 0) continue;
      uint8_t* dst = xq + int64_t(row) * H + hb0 * kBlock + lane * kColsPerLane;
#pragma unroll
      for (int g = 0; g < kGroups; ++g)
        if (g < ng && (hb0 + g) * kBlock + lane * kColsPerLane < H)
          *reinterpret_cast<uint32_t*>(dst + g * kBlock) = codes[g];
    }
  }
}

}  // namespace

void launch_permute_quant_fp8(const void* x, int64_t ldx, int64_t T, int64_t K, int64_t H,
                              const int32_t* route_to_row, const int32_t* row_expert, const int32_t* offsets,
                              void* xq, float* sx, cudaStream_t stream, bool pdl) {
  if (T <= 0) return;
  // 4: each lane quantizes 4 whole columns and stores them as one 32-bit word (rows of H bytes).
  if (H <= 0 || H % kColsPerLane != 0) throw_invalid("hidden_size", "a positive multiple of 4 (fp8 permute-quantize)", std::to_string(H));
  if (!cu::aligned(xq, sizeof(uint32_t))) throw_invalid("xq", "a 4-byte aligned pointer", "misaligned");
  const bool vec = ldx % kColsPerLane == 0 && cu::aligned(x, sizeof(uint2));
  const int64_t HB = cu::ceil_div<int64_t>(H, kBlock), gpw = cu::units_per_warp(T, HB, kMaxGroups);
  const int64_t warps = T * cu::ceil_div<int64_t>(HB, gpw);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(warps * 32, kThreads));
  auto xs = static_cast<const uint16_t*>(x);
  auto xp = static_cast<uint8_t*>(xq);
  auto kernel = vec ? (gpw == 1 ? permute_quant_kernel<true, 1> : permute_quant_kernel<true, kMaxGroups>)
                   : (gpw == 1 ? permute_quant_kernel<false, 1> : permute_quant_kernel<false, kMaxGroups>);
  cu::check("permute_quant_fp8",
            cu::launch_kernel_pdl(kernel, dim3(grid), dim3(kThreads), 0, stream, pdl, xs, ldx, T, int(K), H, gpw,
                                  route_to_row, row_expert, offsets, xp, sx),
            "fp8 permute-quantize kernel launch");
}

}  // namespace megamoe::sm90
