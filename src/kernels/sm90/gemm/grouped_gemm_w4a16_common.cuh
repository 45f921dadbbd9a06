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

#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"

namespace megamoe::sm90::w4a16 {

constexpr int kBK = 64;                // K per pipeline step: 32 packed bytes per weight row
constexpr int kBN = 128;               // weight rows per CTA (8 warps x 16, or 2 warpgroups x 64)
constexpr int kThreads = 256;
constexpr int kPackedRowBytes = kBK / 2;  // one weight row's e2m1 codes of a K step (2 per byte)
constexpr int kChunkBytes = ptx::kCpAsyncBytes;  // 16: one cp.async, one swizzle chunk
constexpr int kSmemRowBytes = 128;        // a 64-wide bf16 activation row in shared memory
constexpr int kMaxDynamicSmem = 227 * 1024;  // sm_90's largest opt-in shared memory per block
static_assert(kSmemRowBytes == kBK * 2, "one activation row of a K step is 128 bytes (8 chunks)");
static_assert(kBN * kPackedRowBytes == kThreads * kChunkBytes, "one weight chunk per thread per K step");
static_assert(kBN == (kThreads / 32) * 16, "8 warps x 16 weight rows (mma.sync m16, wgmma's A rows per warp)");
// Shared bytes of a Lut<Copies>: the pair table, then the scale table.
template <int Copies>
constexpr int lut_bytes() { return 256 * Copies * 4 + 256 * 4; }

template <Fp4Scale F>
struct ScaleCfg {
  static constexpr int kPerRow = F == Fp4Scale::kMxfp4 ? 2 : 4;  // scale codes per row per K step
  static constexpr int kTileBytes = kBN * kPerRow;                 // one K step of 128 rows
};

using ptx::cp_async16;  // common/ptx.cuh
using ptx::cp_async_commit;
using ptx::cp_async_wait;
using ptx::pdl_wait_then_release;

// bf16 bits of the e2m1 code c (0..15).
__device__ __forceinline__ uint32_t e2m1_bf16_bits(uint32_t c) {
  const uint32_t m = c & 7;
  // m >= 2: exponent (m>>1)-1, mantissa bit m&1: bits = ((m>>1)+126)<<7 | (m&1)<<6 = 0x3F00 + (m<<6)
  const uint32_t mag = m == 0 ? 0u : (m == 1 ? 0x3F00u : (0x3F00u + (m << 6)));
  return mag | ((c & 8) << 12);
}

// Byte -> bf16x2 lookup table in shared memory, Copies copies interleaved so that entry e of
// copy c sits at word Copies*e + c: lane l reads copy l % Copies. 32 copies (32 KB): every lane
// has its own bank, one wavefront per lookup whatever the bytes; 16 copies (16 KB): lanes l and
// l+16 share a bank, two wavefronts per lookup in practice; one table would serialize random
// bytes ~3.5x. The lookups are most of the small tactic's shared-memory traffic.
// A lookup is two integer instructions (PRMT pulls the byte, LEA scales it by the 64-byte entry
// stride onto the lane's copy) and one LDS: the decode is most of the small tactic's work.
template <Fp4Scale F>
__device__ __forceinline__ __nv_bfloat162 scale_bf16x2(uint32_t code);

template <int Copies>
struct Lut {
  static constexpr int kCopies = Copies;
  uint32_t lane_addr;   // shared-memory address of the lane's copy of entry 0
  uint32_t scale_addr;  // shared-memory address of the scale table (bf16x2 of each scale code)
  template <Fp4Scale F>
  __device__ __forceinline__ static void fill(uint32_t* lut, int tid, int nthreads) {
    for (int i = tid; i < 256 * Copies; i += nthreads) {
      const uint32_t e = uint32_t(i) / Copies;
      lut[i] = e2m1_bf16_bits(e & 15) | (e2m1_bf16_bits(e >> 4) << 16);
    }
    for (int i = tid; i < 256; i += nthreads) {
      const __nv_bfloat162 v = scale_bf16x2<F>(uint32_t(i));
      lut[256 * Copies + i] = *reinterpret_cast<const uint32_t*>(&v);
    }
  }
  __device__ __forceinline__ static Lut for_lane(const uint32_t* lut, int lane) {
    uint32_t a = uint32_t(__cvta_generic_to_shared(lut + (lane % Copies)));
    uint32_t s = uint32_t(__cvta_generic_to_shared(lut + 256 * Copies));
    // Opaque to the compiler, which otherwise re-derives (16 * byte + lane) * 4 + base per
    // lookup (four instructions instead of one IMAD).
    asm volatile("mov.b32 %0, %0;" : "+r"(a));
    asm volatile("mov.b32 %0, %0;" : "+r"(s));
    return Lut{a, s};
  }
  // The pair of byte J (0..3) of `word`. Not volatile: the address depends on the weight word,
  // which is read after the barrier that follows fill().
  template <int J>
  __device__ __forceinline__ uint32_t at(uint32_t word) const {
    const uint32_t idx = __byte_perm(word, 0u, 0x4440u + J);
    uint32_t v;
    asm("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(lane_addr + idx * (4 * Copies)));  // entry stride
    return v;
  }
  // The scale of code byte J of `codes` as a bf16 pair (a table: e8m0 / e4m3 special cases
  // cost five instructions in registers).
  template <int J>
  __device__ __forceinline__ __nv_bfloat162 scale(uint32_t codes) const {
    const uint32_t idx = __byte_perm(codes, 0u, 0x4440u + J);
    uint32_t v;
    asm("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(scale_addr + (idx << 2)));
    return *reinterpret_cast<const __nv_bfloat162*>(&v);
  }
};

// The block scale as a bf16 pair (both halves equal).
template <Fp4Scale F>
__device__ __forceinline__ __nv_bfloat162 scale_bf16x2(uint32_t code) {  // used to fill Lut
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
template <Fp4Scale F, class L>
__device__ __forceinline__ void decode_step(const L& lut, uint2 wa, uint2 wb, uint32_t ca, uint32_t cb,
                                            uint32_t (&af)[4][4]) {
  __nv_bfloat162 sa[4], sb[4];  // per k16 block (mxfp4: one code per two blocks)
  if constexpr (F == Fp4Scale::kMxfp4) {
    sa[0] = sa[1] = lut.template scale<0>(ca);
    sa[2] = sa[3] = lut.template scale<1>(ca);
    sb[0] = sb[1] = lut.template scale<0>(cb);
    sb[2] = sb[3] = lut.template scale<1>(cb);
  } else {
    sa[0] = lut.template scale<0>(ca);
    sa[1] = lut.template scale<1>(ca);
    sa[2] = lut.template scale<2>(ca);
    sa[3] = lut.template scale<3>(ca);
    sb[0] = lut.template scale<0>(cb);
    sb[1] = lut.template scale<1>(cb);
    sb[2] = lut.template scale<2>(cb);
    sb[3] = lut.template scale<3>(cb);
  }
  af[0][0] = scaled(lut.template at<0>(wa.x), sa[0]);
  af[0][1] = scaled(lut.template at<0>(wb.x), sb[0]);
  af[0][2] = scaled(lut.template at<1>(wa.x), sa[0]);
  af[0][3] = scaled(lut.template at<1>(wb.x), sb[0]);
  af[1][0] = scaled(lut.template at<2>(wa.x), sa[1]);
  af[1][1] = scaled(lut.template at<2>(wb.x), sb[1]);
  af[1][2] = scaled(lut.template at<3>(wa.x), sa[1]);
  af[1][3] = scaled(lut.template at<3>(wb.x), sb[1]);
  af[2][0] = scaled(lut.template at<0>(wa.y), sa[2]);
  af[2][1] = scaled(lut.template at<0>(wb.y), sb[2]);
  af[2][2] = scaled(lut.template at<1>(wa.y), sa[2]);
  af[2][3] = scaled(lut.template at<1>(wb.y), sb[2]);
  af[3][0] = scaled(lut.template at<2>(wa.y), sa[3]);
  af[3][1] = scaled(lut.template at<2>(wb.y), sb[3]);
  af[3][2] = scaled(lut.template at<3>(wa.y), sa[3]);
  af[3][3] = scaled(lut.template at<3>(wb.y), sb[3]);
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
