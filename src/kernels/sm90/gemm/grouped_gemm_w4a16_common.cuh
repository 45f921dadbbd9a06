// Device pieces shared by the W4A16 GEMM tactics (grouped_gemm_w4a16.h): the copy atoms,
// the e2m1 decode into MMA A fragments, and the lookup of the j-th expert that has rows.
//
// A fragment (mma.sync m16n8k16 and wgmma with A in registers use the same per-warp layout):
// lane (gq = lane/4, tig = lane%4) of the warp that owns weight rows r0..r0+15 holds, per k16
// block, four bf16x2: {row gq, k 2tig..+1}, {row gq+8, k 2tig..+1}, {row gq, k 2tig+8..+9},
// {row gq+8, k 2tig+8..+9}. A packed byte holds the pair (2j, 2j+1), so for the four k16
// blocks s of a 64-wide K step a lane needs bytes 8s+tig and 8s+tig+4 of each of its rows:
// fragment order stores those 8 bytes contiguously at 8*tig (byte 8tig+2s+h <- 8s+tig+4h), one
// 8-byte shared-memory load per row per K step; inside each 32-bit word the 32 code bits are
// then placed for the register decode (decode_pairs below).
#pragma once
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "kernels/sm90/common/grouped_rows.cuh"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"
#include "kernels/sm90/gemm/w4a16_bits.h"

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
template <Fp4Scale F>
struct ScaleCfg {
  static constexpr int kPerRow = F == Fp4Scale::kMxfp4 ? 2 : 4;  // scale codes per row per K step
  static constexpr int kTileBytes = kBN * kPerRow;                 // one K step of 128 rows
};

using ptx::cp_async16;  // common/ptx.cuh
using ptx::cp_async_commit;
using ptx::cp_async_wait;
using ptx::pdl_wait_then_release;

// The decode, in registers (no table): decode_pairs and the factor bytes in w4a16_bits.h (the
// bit contract the prepare kernel and the CPU tests share).

// The block scale J of a row's factor bytes (w4a16_prepare_scales) as the bf16 pair that turns a
// decoded pair (e2m1 * 2^-126) into e2m1 * scale / alpha-shift (w4a16_bits.h): one PRMT puts
// byte J in both halves, one IMAD forms the bits.
template <Fp4Scale F, int J>
__device__ __forceinline__ uint32_t scale_factor(uint32_t codes) {
  const uint32_t dup = __byte_perm(codes, 0u, 0x4040u + J + (J << 8));  // byte J in bytes 0 and 2
  return F == Fp4Scale::kMxfp4 ? dup * kMxMul + kMxAdd : dup * kNvMul + kNvAdd;
}

__device__ __forceinline__ uint32_t scaled(uint32_t pair, uint32_t factor) {
  const __nv_bfloat162 r = __hmul2(*reinterpret_cast<const __nv_bfloat162*>(&pair),
                                   *reinterpret_cast<const __nv_bfloat162*>(&factor));  // exact
  return *reinterpret_cast<const uint32_t*>(&r);
}

// A fragments of one warp for one 64-wide K step: rows gq (wa, factor bytes ca) and gq+8 (wb,
// cb); wa/wb are the lane's 8 fragment-order bytes (prepared bits), ca/cb the row's factor bytes
// of the step (kPerRow bytes, little-endian). af[s] feeds the MMA of k16 block s.
template <Fp4Scale F>
__device__ __forceinline__ void decode_step(uint2 wa, uint2 wb, uint32_t ca, uint32_t cb, uint32_t (&af)[4][4]) {
  uint32_t sa[4], sb[4];  // per k16 block (mxfp4: one factor per two blocks)
  if constexpr (F == Fp4Scale::kMxfp4) {
    sa[0] = sa[1] = scale_factor<F, 0>(ca);
    sa[2] = sa[3] = scale_factor<F, 1>(ca);
    sb[0] = sb[1] = scale_factor<F, 0>(cb);
    sb[2] = sb[3] = scale_factor<F, 1>(cb);
  } else {
    sa[0] = scale_factor<F, 0>(ca);
    sa[1] = scale_factor<F, 1>(ca);
    sa[2] = scale_factor<F, 2>(ca);
    sa[3] = scale_factor<F, 3>(ca);
    sb[0] = scale_factor<F, 0>(cb);
    sb[1] = scale_factor<F, 1>(cb);
    sb[2] = scale_factor<F, 2>(cb);
    sb[3] = scale_factor<F, 3>(cb);
  }
  // Pair j of word x feeds k16 block j / 2 (word y: block 2 + j / 2), register 2 (j % 2) for
  // row gq (wa) and 2 (j % 2) + 1 for row gq + 8 (wb): the fragment order's byte j.
  auto put = [&](uint32_t word, int s0, int r, const uint32_t (&sf)[4]) {
    uint32_t p0, p1, p2, p3;
    decode_pairs(word, p0, p1, p2, p3);
    af[s0][r] = scaled(p0, sf[s0]);
    af[s0][r + 2] = scaled(p1, sf[s0]);
    af[s0 + 1][r] = scaled(p2, sf[s0 + 1]);
    af[s0 + 1][r + 2] = scaled(p3, sf[s0 + 1]);
  };
  put(wa.x, 0, 0, sa);
  put(wb.x, 0, 1, sb);
  put(wa.y, 2, 0, sa);
  put(wb.y, 2, 1, sb);
}

// Scale codes of a row for one K step from a scale tile in shared memory.
template <Fp4Scale F>
__device__ __forceinline__ uint32_t row_scale_codes(const uint8_t* tile, int row) {
  if constexpr (F == Fp4Scale::kMxfp4) return *reinterpret_cast<const uint16_t*>(tile + row * 2);
  else return *reinterpret_cast<const uint32_t*>(tile + row * 4);
}

// One 16-byte chunk of packed weight codes, global -> shared (cp.async tactics). A K step reads
// only 32 bytes of each weight row (rows are K / 2 bytes apart), so DRAM would see short
// scattered requests; the copy asks L2 to fetch the aligned 128 bytes around the chunk, and the
// next three K steps of the row hit L2. Measured on H200 (mxfp4, four presets, forced tactics):
// small 1.03-1.20x faster at T = 1..256 (deepseek-v3 T = 16 0.926 -> 0.783 ms), large
// 0.99-1.09x at T = 256..4096; 256 bytes was no better.
__device__ __forceinline__ void cp_async_weights16(uint32_t dst, const void* src, bool valid) {
  ptx::cp_async16_l2_128(dst, src, valid);
}

// Hides how a value was computed: the compiler then keeps it in a register instead of
// recomputing it from its inputs at every use (what it does with addresses in the K loops).
__device__ __forceinline__ void opaque(uint32_t& v) { asm volatile("" : "+r"(v)); }
__device__ __forceinline__ void opaque(unsigned long& v) { asm volatile("" : "+l"(v)); }
template <typename T>
__device__ __forceinline__ void opaque(T*& p) {
  asm volatile("" : "+l"(p));
}

}  // namespace megamoe::sm90::w4a16
