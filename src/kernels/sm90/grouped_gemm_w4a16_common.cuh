// Device pieces shared by the two W4A16 GEMM tactics (grouped_gemm_w4a16.h): the copy atoms,
// the e2m1 decode into MMA A fragments, and the lookup of the j-th expert that has rows.
//
// A fragment (mma.sync m16n8k16 and wgmma with A in registers use the same per-warp layout):
// lane (gq = lane/4, tig = lane%4) of the warp that owns weight rows r0..r0+15 holds, per k16
// block, four bf16x2: {row gq, k 2tig..+1}, {row gq+8, k 2tig..+1}, {row gq, k 2tig+8..+9},
// {row gq+8, k 2tig+8..+9}. A packed byte holds the pair (2j, 2j+1), so for the four k16
// blocks s of a 64-wide K step a lane needs bytes 8s+tig and 8s+tig+4 of each of its rows:
// fragment order stores those 8 bytes contiguously at 8*tig (byte 8tig+2s+h <- 8s+tig+4h), one
// 8-byte shared-memory load per row per K step.
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/sm90/grouped_gemm_w4a16.h"

namespace megamoe::sm90::w4a16 {

constexpr int kBK = 64;                // K per pipeline step: 32 packed bytes per weight row
constexpr int kBN = 128;               // weight rows per CTA (8 warps x 16, or 2 warpgroups x 64)
constexpr int kThreads = 256;
constexpr int kLutCopies = 16;         // see Lut below
constexpr int kLutBytes = 256 * kLutCopies * 4;

template <Fp4Scale F>
struct ScaleCfg {
  static constexpr int kPerRow = F == Fp4Scale::kMxfp4 ? 2 : 4;  // scale codes per row per K step
  static constexpr int kTileBytes = kBN * kPerRow;                 // one K step of 128 rows
};

__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool valid) {
  const int n = valid ? 16 : 0;  // 0: zero-fill, nothing read
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(n) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// bf16 bits of the e2m1 code c (0..15).
__device__ __forceinline__ uint32_t e2m1_bf16_bits(uint32_t c) {
  const uint32_t m = c & 7;
  // m >= 2: exponent (m>>1)-1, mantissa bit m&1: bits = ((m>>1)+126)<<7 | (m&1)<<6 = 0x3F00 + (m<<6)
  const uint32_t mag = m == 0 ? 0u : (m == 1 ? 0x3F00u : (0x3F00u + (m << 6)));
  return mag | ((c & 8) << 12);
}

// Byte -> bf16x2 lookup table in shared memory, kLutCopies copies interleaved so that entry e
// of copy c sits at word 16e + c: lane l reads copy l%16, so the 32 lanes of a warp hit at most
// two words per bank whatever bytes they look up (one table would serialize random bytes ~3.5x).
struct Lut {
  const uint32_t* lane_base;
  __device__ __forceinline__ static void fill(uint32_t* lut, int tid, int nthreads) {
    for (int i = tid; i < 256 * kLutCopies; i += nthreads) {
      const uint32_t e = uint32_t(i) / kLutCopies;
      lut[i] = e2m1_bf16_bits(e & 15) | (e2m1_bf16_bits(e >> 4) << 16);
    }
  }
  __device__ __forceinline__ uint32_t operator()(uint32_t byte) const { return lane_base[byte * kLutCopies]; }
};

// The block scale as a bf16 pair (both halves equal).
template <Fp4Scale F>
__device__ __forceinline__ __nv_bfloat162 scale_bf16x2(uint32_t code) {
  uint32_t bits;
  if constexpr (F == Fp4Scale::kMxfp4) {
    // e8m0: 2^(code-127); 0 -> 2^-127 (a bf16 subnormal), 255 -> NaN.
    bits = code == 0 ? 0x0040u : (code == 255 ? 0x7FC0u : (code << 7));
  } else {
    __nv_fp8_e4m3 v;
    v.__x = static_cast<__nv_fp8_storage_t>(code);
    bits = __bfloat16_as_ushort(__float2bfloat16_rn(static_cast<float>(v)));  // exact
  }
  bits |= bits << 16;
  return *reinterpret_cast<const __nv_bfloat162*>(&bits);
}

__device__ __forceinline__ uint32_t scaled(uint32_t pair, __nv_bfloat162 s) {
  const __nv_bfloat162 r = __hmul2(*reinterpret_cast<const __nv_bfloat162*>(&pair), s);  // exact
  return *reinterpret_cast<const uint32_t*>(&r);
}

// A fragments of one warp for one 64-wide K step: rows gq (wa, scale codes ca) and gq+8 (wb,
// cb); wa/wb are the lane's 8 fragment-order bytes, ca/cb the row's scale codes of the step
// (kPerRow bytes, little-endian). af[s] feeds the MMA of k16 block s.
template <Fp4Scale F>
__device__ __forceinline__ void decode_step(const Lut& lut, uint2 wa, uint2 wb, uint32_t ca, uint32_t cb,
                                            uint32_t (&af)[4][4]) {
#pragma unroll
  for (int s = 0; s < 4; ++s) {
    const int si = F == Fp4Scale::kMxfp4 ? (s >> 1) : s;  // 32- or 16-wide scale block of k16 block s
    const __nv_bfloat162 sa = scale_bf16x2<F>((ca >> (8 * si)) & 0xFF), sb = scale_bf16x2<F>((cb >> (8 * si)) & 0xFF);
    const uint32_t xa = s < 2 ? wa.x : wa.y, xb = s < 2 ? wb.x : wb.y;
    const int sh = (s & 1) * 16;
    af[s][0] = scaled(lut((xa >> sh) & 0xFF), sa);
    af[s][1] = scaled(lut((xb >> sh) & 0xFF), sb);
    af[s][2] = scaled(lut((xa >> (sh + 8)) & 0xFF), sa);
    af[s][3] = scaled(lut((xb >> (sh + 8)) & 0xFF), sb);
  }
}

// Scale codes of a row for one K step from a scale tile in shared memory.
template <Fp4Scale F>
__device__ __forceinline__ uint32_t row_scale_codes(const uint8_t* tile, int row) {
  if constexpr (F == Fp4Scale::kMxfp4) return *reinterpret_cast<const uint16_t*>(tile + row * 2);
  else return *reinterpret_cast<const uint32_t*>(tile + row * 4);
}

// The index of the j-th expert (in expert order) with at least one row, or -1 when fewer than
// j+1 experts have rows. Grids are sized by the number of experts that can have rows, not by
// G: at decode sizes 8 of 256 experts are active and idle CTAs would dominate the launch.
// Block-uniform; uses two __syncthreads per 256 experts scanned. `scratch` holds 9 ints.
__device__ __forceinline__ int nth_active_expert(const int32_t* __restrict__ offsets, int G, int j, int* scratch) {
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nwarps = blockDim.x >> 5;
  int before = 0;
  if (tid == 0) scratch[8] = -1;
  for (int base = 0; base < G; base += blockDim.x) {
    const int g = base + tid;
    const bool ne = g < G && __ldg(offsets + g + 1) > __ldg(offsets + g);
    const unsigned m = __ballot_sync(0xffffffffu, ne);
    if (lane == 0) scratch[warp] = __popc(m);
    __syncthreads();
    int rank = before, total = 0;
    for (int w = 0; w < nwarps; ++w) {
      if (w < warp) rank += scratch[w];
      total += scratch[w];
    }
    rank += __popc(m & ((1u << lane) - 1u));
    if (ne && rank == j) scratch[8] = g;
    before += total;
    __syncthreads();
    if (scratch[8] >= 0 || before > j) break;
  }
  return scratch[8];
}

}  // namespace megamoe::sm90::w4a16
