// Staged epilogue stores of our swap-AB GEMMs (weights are wgmma's M, tokens its N; the bf16 large
// TMA kernel and the W4A16 TMA tactic): a warp's bf16 outputs go through 2048 bytes of shared memory
// so that each lane stores 16 bytes (8 output columns of one token) instead of 2 or 4.
//
// A consumer warp's accumulators cover two groups of 8 weight rows (its MMA rows gq and gq + 8,
// lane group gq = lane / 4) x the pass's tokens: accumulator 4 j + q is token 8 j + 2 tig + q % 2
// (tig = lane % 4) of group q / 2. Each group is 8 adjacent output columns (plain outputs: the two
// groups' columns may lie apart, e.g. 64 rows in the W4A16 tile), or, for a gated activation, the
// two groups (gate, up) make one group of 8 output columns. The caller packs a token pair of a
// group into one bf16x2 word (`pair`), in the float operations of its direct epilogue (the same
// bits), and stmatrix .trans writes the words so that memory rows are token rows:
//   two groups (store_two_groups): a round is 16 tokens (blocks j, j + 1) x 2 groups, four 8 x 8
//     matrices; token t's 8 columns of group h land in 16-byte chunk 2 t + (h ^ (t / 4 % 2)) of the
//     round's 512 bytes (the XOR puts a matrix's 8 rows, 32 bytes apart, on distinct banks); lane L
//     then loads token L / 2, group L % 2;
//   one group (store_one_group): a round is 32 tokens (blocks j .. j + 3; x2 for a last pair) at
//     chunk t; lane L loads token L.
// kRoundsAtOnce rounds fill the scratch between two __syncwarp. The scratch is the caller's: the
// warp's own 16 rows of an operand tile no other warp reads any more (see the kernels).
#pragma once
#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>

#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/ptx_staging.cuh"

namespace megamoe::sm90::staged {

constexpr int kScratchBytes = 2048;  // a warp's 16 rows x 128 bytes of an SW128 operand tile
constexpr int kRoundBytes = 512;     // one stmatrix x4 round: 16 tokens x 32 bytes, or 32 x 16
constexpr int kRoundsAtOnce = kScratchBytes / kRoundBytes;

// The end of a staged epilogue whose scratch lies in an operand slot the warp held (its empty
// barrier counts one arrival per consumer warp): the proxy fence orders this thread's generic
// accesses of the scratch before the async-proxy writes (TMA) or reads (wgmma) of the slot's next
// use, the warpgroup barrier puts lane 0's arrival after every lane's fence, loads and stmatrix
// (racecheck does not carry __syncwarp's ordering to another lane's arrival), then the warp frees
// the slot.
__device__ __forceinline__ void release_scratch(uint32_t empty_bar, int c, int lane) {
  ptx::fence_proxy_async_shared();
  ptx::warpgroup_barrier(c);
  if (lane == 0) ptx::mbar_arrive(empty_bar);
}

__device__ __forceinline__ uint32_t pack_bf16x2(float lo, float hi) {  // lo at the lower address
  const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&v);
}

// kBlocks (even) blocks of 8 tokens, tokens t0 .. t0 + rows - 1 stored. pair(j, h): group h's word of
// block j. da / db: group 0's / 1's first output column in token row 0 (null: past the output).
template <int kBlocks, class Pair>
__device__ __forceinline__ void store_two_groups(uint32_t scratch, int lane, const Pair& pair, __nv_bfloat16* da,
                                                 __nv_bfloat16* db, size_t ldd, int t0, int rows) {
  static_assert(kBlocks % 2 == 0, "rounds of 16 tokens");
  constexpr int kRounds = kBlocks / 2;
  // stmatrix: lane 8 i + r gives row r of matrix i = (group i % 2, block 2 r' + i / 2), token r + 8 (i / 2).
  const int wt = (lane & 7) + 8 * (lane >> 4), wh = (lane >> 3) & 1;
  const int rt = lane >> 1, rh = lane & 1;  // the 16-byte load and store
  const uint32_t wchunk = scratch + uint32_t((2 * wt + (wh ^ ((wt >> 2) & 1))) * 16);
  const uint32_t rchunk = scratch + uint32_t((2 * rt + (rh ^ ((rt >> 2) & 1))) * 16);
  __nv_bfloat16* const d = rh ? db : da;
#pragma unroll
  for (int r0 = 0; r0 < kRounds; r0 += kRoundsAtOnce) {
    if (r0 * 16 >= rows) break;  // warp-uniform
#pragma unroll
    for (int r = r0; r < r0 + kRoundsAtOnce && r < kRounds; ++r) {
      if (r * 16 >= rows) break;
      ptx::stmatrix_x4_trans(wchunk + uint32_t((r - r0) * kRoundBytes), pair(2 * r, 0), pair(2 * r, 1),
                             pair(2 * r + 1, 0), pair(2 * r + 1, 1));
    }
    __syncwarp();
#pragma unroll
    for (int r = r0; r < r0 + kRoundsAtOnce && r < kRounds; ++r) {
      if (r * 16 >= rows) break;
      const int tok = r * 16 + rt;
      const uint4 v = ptx::ld_shared_v4(rchunk + uint32_t((r - r0) * kRoundBytes));
      if (tok < rows && d != nullptr) *reinterpret_cast<uint4*>(d + size_t(t0 + tok) * ldd) = v;
    }
    __syncwarp();
  }
}

// kBlocks (even) blocks of 8 tokens of one group of 8 columns starting at d (token row 0); pair(j):
// block j's word.
template <int kBlocks, class Pair>
__device__ __forceinline__ void store_one_group(uint32_t scratch, int lane, const Pair& pair, __nv_bfloat16* d,
                                                size_t ldd, int t0, int rows) {
  static_assert(kBlocks % 2 == 0, "rounds of 32 tokens, a last one of 16");
  constexpr int kRounds = (kBlocks + 3) / 4;
  const uint32_t chunk = scratch + uint32_t(lane * 16);  // stmatrix row and load of token lane
#pragma unroll
  for (int r0 = 0; r0 < kRounds; r0 += kRoundsAtOnce) {
    if (r0 * 32 >= rows) break;  // warp-uniform
#pragma unroll
    for (int r = r0; r < r0 + kRoundsAtOnce && r < kRounds; ++r) {
      if (r * 32 >= rows) break;
      const uint32_t at = chunk + uint32_t((r - r0) * kRoundBytes);
      if (4 * r + 4 <= kBlocks) ptx::stmatrix_x4_trans(at, pair(4 * r), pair(4 * r + 1), pair(4 * r + 2), pair(4 * r + 3));
      else ptx::stmatrix_x2_trans(at, pair(4 * r), pair(4 * r + 1));  // kBlocks % 4 == 2: lanes 0..15
    }
    __syncwarp();
#pragma unroll
    for (int r = r0; r < r0 + kRoundsAtOnce && r < kRounds; ++r) {
      if (r * 32 >= rows) break;
      const int tok = r * 32 + lane;
      const uint4 v = ptx::ld_shared_v4(chunk + uint32_t((r - r0) * kRoundBytes));
      if (tok < rows && (4 * r + 4 <= kBlocks || lane < 16)) *reinterpret_cast<uint4*>(d + size_t(t0 + tok) * ldd) = v;
    }
    __syncwarp();
  }
}

}  // namespace megamoe::sm90::staged
