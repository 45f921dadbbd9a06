// Permute + 1x128 quantize of FC1's input (see moe_kernels_fp8.h). One warp per (token, 128-column
// group): lane l loads columns 4l..4l+3 (8 bytes of bf16), the warp takes the group's amax with a
// unsigned max over |x|'s bits, every lane encodes its 4 codes (one 32-bit word) and stores them
// to each of the token's routed rows; lane j looks up route j's row and stores its scale (the
// lookups run in parallel: with one lane walking the routes, deepseek-v3 at T = 8192 took 427 us,
// latency bound on 8 x 3 dependent loads per warp).
// A partial last group (H not a multiple of 128; H % 4 == 0, so a lane's 4 columns are all real or
// all past H) reads and writes only its real columns: lanes past H contribute |0| to the amax,
// which leaves it unchanged, so scale and codes equal the CPU quantizer's over the real columns.
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/moe/moe_kernels_fp8.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

using namespace fp8;

// Budget: kThreads = 256 threads a CTA = 8 warps, one role (each warp loads, reduces the amax,
// encodes and stores one (token, group) to every routed row), no shared memory, no pipeline.
constexpr int kThreads = 256;
constexpr int kColsPerLane = kBlock / 32;  // 4: one 8-byte bf16 load, one 32-bit store of codes
static_assert(kColsPerLane * sizeof(uint16_t) == sizeof(uint2), "a lane's bf16 columns: one 8-byte load");
static_assert(kColsPerLane * sizeof(uint8_t) == sizeof(uint32_t), "a lane's codes: one 32-bit store");
static_assert(kThreads % 32 == 0, "whole warps, one per (token, group)");

template <bool kVec>
__global__ void permute_quant_kernel(const uint16_t* __restrict__ x, int64_t ldx, int64_t T, int K, int64_t H,
                                     const int32_t* __restrict__ route_to_row, const int32_t* __restrict__ row_expert,
                                     const int32_t* __restrict__ offsets, uint8_t* __restrict__ xq,
                                     float* __restrict__ sx) {
  const int64_t HB = (H + kBlock - 1) / kBlock;
  const int64_t wid = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (wid >= T * HB) return;  // whole warps exit together
  const int64_t t = wid / HB, hb = wid - t * HB;
  const int64_t c = hb * kBlock + lane * kColsPerLane;
  const bool real = c < H;  // false only in the partial last group (the warp stays whole for the max)
  const uint16_t* src = x + t * ldx + c;
  float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  if (real) {
    if constexpr (kVec) {
      const uint2 w = __ldg(reinterpret_cast<const uint2*>(src));
      v[0] = __uint_as_float(w.x << 16);
      v[1] = __uint_as_float(w.x & 0xFFFF0000u);
      v[2] = __uint_as_float(w.y << 16);
      v[3] = __uint_as_float(w.y & 0xFFFF0000u);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) v[j] = __uint_as_float(uint32_t(src[j]) << 16);
    }
  }
  uint32_t am = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) am = max(am, abs_bits(v[j]));
  am = warp_max(am);
  const float s = block_scale(am, false);
  const uint32_t codes = encode4(v, s, am >= kInfBits);
  // The token's routed rows, up to 32 at a time: lane j looks up route j (its row, the row's
  // expert and that expert's range: three dependent loads, once for all routes instead of once per
  // route) and stores the route's scale; then every lane stores its codes to each row.
  for (int k0 = 0; k0 < K; k0 += 32) {
    const int k = k0 + lane;
    int32_t my_row = -1;
    if (k < K) {
      my_row = __ldg(route_to_row + t * K + k);
      if (my_row >= 0) {
        const int32_t e = __ldg(row_expert + my_row);
        const int64_t lo = __ldg(offsets + e), hi = __ldg(offsets + e + 1);
        sx[act_scale_index(my_row, hb, HB, lo, hi)] = s;
      }
    }
    const int n = K - k0 < 32 ? K - k0 : 32;
    for (int j = 0; j < n; ++j) {
      const int32_t row = __shfl_sync(0xFFFFFFFFu, my_row, j);
      if (row >= 0 && real) *reinterpret_cast<uint32_t*>(xq + int64_t(row) * H + c) = codes;
    }
  }
}

}  // namespace

void launch_permute_quant_fp8(const void* x, int64_t ldx, int64_t T, int64_t K, int64_t H,
                              const int32_t* route_to_row, const int32_t* row_expert, const int32_t* offsets,
                              void* xq, float* sx, cudaStream_t stream) {
  if (T <= 0) return;
  // 4: each lane quantizes 4 whole columns and stores them as one 32-bit word (rows of H bytes).
  if (H <= 0 || H % kColsPerLane != 0) throw_invalid("hidden_size", "a positive multiple of 4 (fp8 permute-quantize)", std::to_string(H));
  if (!cu::aligned(xq, sizeof(uint32_t))) throw_invalid("xq", "a 4-byte aligned pointer", "misaligned");
  const bool vec = ldx % kColsPerLane == 0 && cu::aligned(x, sizeof(uint2));
  const int64_t warps = T * cu::ceil_div<int64_t>(H, kBlock);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(warps * 32, kThreads));
  auto xs = static_cast<const uint16_t*>(x);
  auto xp = static_cast<uint8_t*>(xq);
  if (vec)
    permute_quant_kernel<true><<<grid, kThreads, 0, stream>>>(xs, ldx, T, int(K), H, route_to_row, row_expert, offsets, xp, sx);
  else
    permute_quant_kernel<false><<<grid, kThreads, 0, stream>>>(xs, ldx, T, int(K), H, route_to_row, row_expert, offsets, xp, sx);
  cu::check_launch("permute_quant_fp8", "fp8 permute-quantize kernel launch");
}

}  // namespace megamoe::sm90
