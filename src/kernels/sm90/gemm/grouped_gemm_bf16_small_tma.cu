// bf16 grouped GEMM for small T without CUTLASS (grouped_gemm_bf16_small_tma.h; the bf16 split
// backend's `split_tma_small` tactic): the W4A16 small tactic's TMA form
// (grouped_gemm_w4a16_small.cu) with bf16 weights, so no decode -- A fragments by ldmatrix.
// Why: CUTLASS's swap-AB kernel (one CTA per SM, one TMA-issuing thread, 128-byte row parts per
// copy) streamed the weights at ~3.98 TB/s at qwen3-30b-a3b T = 128, vLLM's Triton kernel at ~4.20;
// the 2026-12-03 stream micro-benchmark reached 4.0-4.2 TB/s with two issuing CTAs per SM and
// 4.3-4.4 only where a row's bytes came >= 1 KiB at a time. Two K steps a copy (256 contiguous bytes
// of every weight row) ran qwen3-30b-a3b's FC1 / FC2 at T = 128 in 198 / 100 us against CUTLASS's
// 205 / 108 and this kernel's one-step form's 206 / 108 (docs/BENCHMARKS.md, session 39).
//
// Work: one CTA owns 128 weight rows of one expert (blockIdx.x: the 128-row block, blockIdx.y:
// the rank of the expert among those with rows), 8 warps of 16 rows; tokens in passes of BT (32
// or 64) as mma.sync m16n8k16's N (swap-AB: D^T = W . A^T).
// Stage = KSPS 64-wide K steps (2 when K % 64 == 0, else 1): one TMA box per operand with the
// 128-byte swizzle, the weights' [KSPS][128 rows][128 B] then the tokens' [KSPS][BT][128 B] (rows
// past N or past the tensor, and parts past K, arrive as zeros). Thread 0 issues a stage kStages - 1
// ahead of its own warp into an mbarrier ring; every thread waits for the stage's `full` barrier
// and arrives on its `empty` barrier when done (no CTA barrier in the K loop). Two CTAs per SM
// (__launch_bounds__(256, 2)).
//
// Epilogue: fp32 D[row, n] = acc; or FC1's activation (ActEpilogueArgs): with W13 in the gate/up
// interleaved layout (common/gate_up_layout.h) rows gq and gq + 8 of a warp's 16 rows are gate j
// and up j, both in the thread's registers: a[row, j] = bf16(act(h_gate + b13[j], h_up + b13[I +
// j])), relu2 (canonical rows) a[row, n] = bf16(relu(h + b13[n])^2) -- the float operations of
// fp32 D followed by the activation kernel.
#include "kernels/sm90/gemm/grouped_gemm_bf16_small_tma.h"

#include <cuda.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/common/grouped_rows.cuh"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/common/tma_ring.cuh"
#include "kernels/sm90/moe/activation_math.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90::bf16_small {
namespace {

constexpr int kBN = 128;         // weight rows per CTA: 8 warps x 16 (mma.sync's M)
constexpr int kThreads = 256;
constexpr int kBK = 64;          // K per stage: one 128-byte row part of bf16
constexpr int kRowBytes = 128;
constexpr int kChunk = 16;       // one swizzle chunk
constexpr int kWBytes = kBN * kRowBytes;  // 16384: one weight box

// KSPS 64-wide K steps a stage: one TMA box per operand spans KSPS 128-byte parts of every row
// (KSPS = 2 when K % 64 == 0, else 1). Two CTAs per SM; the stages fill what they leave of an SM's
// 228 KB (1 KB reserved per CTA, 1 KB of alignment slack each): BT 32: 5 one-step / 2 two-step
// stages, BT 64: 4 / 2.
template <int BT, int KSPS>
struct Cfg {
  static constexpr int kNT = BT / 8;                        // n8 token tiles
  static constexpr int kXBytes = BT * kRowBytes;            // one token sub-tile (one K step)
  static constexpr int kStep = kWBytes + kXBytes;           // 20 / 24 KB a K step
  static constexpr int kStage = KSPS * kStep;               // [KSPS][128][128 B] weights, then [KSPS][BT][128 B] tokens
  static constexpr int kStages = (228 * 1024 / 2 - 2048) / kStage;
  static constexpr int kSmem = kStages * kStage + 1024;
  static_assert(kXBytes % 1024 == 0, "SW128 sub-tiles start on 1024-byte boundaries");
  static_assert(kStages >= 2, "one stage in flight while one is read");
  static_assert(kSmem <= 227 * 1024, "the opt-in shared memory limit of a CTA");
};

struct EpiParams {
  void* D;        // fp32 [rows, ldd] or, with the activation, bf16 a [rows, ldd]
  int64_t ldd;
  ActEpilogueArgs act;
};

// Swizzled byte offset of 16-byte chunk c of row r in a [rows x 128 B] SW128 tile.
__device__ __forceinline__ uint32_t sw128(int r, int c) { return uint32_t(r * kRowBytes + ((c ^ (r & 7)) * kChunk)); }

// The pass's outputs: acc[j][q] is row n_warp + gq + 8 (q >> 1), token column 8 j + 2 tig + (q & 1).
template <int NT, bool kAct, Activation A>
__device__ __forceinline__ void store(const EpiParams& ep, const float (&acc)[NT][4], int g, int t0, int rows_here,
                                      int n_warp, int N, int lane) {
  const int gq = lane >> 2, tig = lane & 3;
  if constexpr (!kAct) {
    float* D = static_cast<float*>(ep.D);
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int col = j * 8 + 2 * tig + (q & 1), n = n_warp + gq + (q >> 1) * 8;
        if (col < rows_here && n < N) D[size_t(t0 + col) * size_t(ep.ldd) + n] = acc[j][q];
      }
  } else if constexpr (A == Activation::kReLU2) {
    __nv_bfloat16* a = static_cast<__nv_bfloat16*>(ep.D);
    const float* b = ep.act.b13 ? ep.act.b13 + size_t(g) * size_t(N) : nullptr;
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int col = j * 8 + 2 * tig + (q & 1), n = n_warp + gq + (q >> 1) * 8;
        if (col < rows_here && n < N) {
          const float h = acc[j][q] + (b ? __ldg(b + n) : 0.0f);
          a[size_t(t0 + col) * size_t(ep.ldd) + n] = __float2bfloat16_rn(act::act_fn<A>(h, 0.0f, ep.act.limit, ep.act.alpha));
        }
      }
  } else {
    // Gated: physical rows n_warp + gq (gate) and n_warp + gq + 8 (up) are output column jo.
    __nv_bfloat16* a = static_cast<__nv_bfloat16*>(ep.D);
    const int I = N / 2;
    if (n_warp >= N) return;  // gated N % 16 == 0: a warp's 16 rows are all in or all out
    const int jo = int(gate_up::output_col(n_warp + gq));
    const float* b = ep.act.b13 ? ep.act.b13 + size_t(g) * size_t(N) : nullptr;
    const float bg = b ? __ldg(b + jo) : 0.0f, bu = b ? __ldg(b + I + jo) : 0.0f;
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        const int col = j * 8 + 2 * tig + q;
        if (col < rows_here)
          a[size_t(t0 + col) * size_t(ep.ldd) + jo] =
              __float2bfloat16_rn(act::act_fn<A>(acc[j][q] + bg, acc[j][q + 2] + bu, ep.act.limit, ep.act.alpha));
      }
  }
}

template <int BT, int KSPS, bool kAct>
__global__ void __launch_bounds__(kThreads, 2)
    bf16_small_tma_kernel(const __grid_constant__ CUtensorMap tm_x, const __grid_constant__ CUtensorMap tm_w,
                          const int32_t* __restrict__ offsets, EpiParams ep, int N, int K, int G) {
  using C = Cfg<BT, KSPS>;
  constexpr int kNT = C::kNT, kStages = C::kStages, kAhead = kStages - 1;
  extern __shared__ uint8_t smem_raw[];
  __shared__ __align__(8) uint64_t full_bar[kStages], empty_bar[kStages];
  TmaRing<kStages, kThreads> ring{full_bar, empty_bar};
  __shared__ int scratch[9];
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const uint32_t raw = ptx::smem_u32(smem_raw);
  const uint32_t sbase = (raw + 1023u) & ~1023u;
  if (tid == 0) {
    ring.init();
    ptx::prefetch_tensormap(&tm_x);
    ptx::prefetch_tensormap(&tm_w);
  }
  ptx::pdl_wait_then_release();
  const int g = nth_active_expert(offsets, G, blockIdx.y, scratch);  // its barriers publish the inits
  if (g < 0) return;
  const int n0 = blockIdx.x * kBN;
  const int lo = __ldg(offsets + g), hi = __ldg(offsets + g + 1);
  // Stages of KSPS K steps; a last partial step or stage: TMA's zero fill past K.
  const int KS = (K + kBK * KSPS - 1) / (kBK * KSPS);
  const int wr = warp * 16;

  // Per-lane ldmatrix offsets. A (weights, rows wr..wr+15, k16 block s): lane l gives row
  // (l & 7) + 8 ((l >> 3) & 1) of the warp's slab, chunk 2 s + (l >> 4): matrices a0..a3 of
  // mma.sync's A fragment. B (tokens, n8 tile j, k16 blocks 2 h and 2 h + 1): lane l gives token
  // row 8 j + (l & 7), chunk 4 h + (l >> 3): b0, b1 of block 2 h, then of block 2 h + 1.
  const int arow = wr + (lane & 7) + 8 * ((lane >> 3) & 1), achunk = lane >> 4;
  uint32_t a_off[4];
#pragma unroll
  for (int s = 0; s < 4; ++s) a_off[s] = sw128(arow, 2 * s + achunk);
  uint32_t b_off[2];
#pragma unroll
  for (int h = 0; h < 2; ++h) b_off[h] = sw128(lane & 7, 4 * h + (lane >> 3));

  uint32_t issued = 0;
  auto load_stage = [&](int ks, int t0) {
    const int slot = ring.acquire(issued);
    const uint32_t bar = ring.arm(slot, uint32_t(C::kStage));
    const uint32_t st = sbase + uint32_t(slot * C::kStage);
    if constexpr (KSPS == 1) {
      ptx::tma_load_3d(st, &tm_w, bar, ks * kBK, n0, g);
      ptx::tma_load_2d(st + kWBytes, &tm_x, bar, ks * kBK, t0);
    } else {  // maps {64 K, rows, K / 64 (, G)}: the stage's KSPS row parts in one box
      ptx::tma_load_4d(st, &tm_w, bar, 0, n0, ks * KSPS, g);
      ptx::tma_load_3d(st + KSPS * kWBytes, &tm_x, bar, 0, t0, ks * KSPS);
    }
    ++issued;
  };

  uint32_t used = 0;
  for (int t0 = lo; t0 < hi; t0 += BT) {
    const int rows_here = min(BT, hi - t0);
    if (tid == 0)
      for (int ks = 0; ks < min(kAhead, KS); ++ks) load_stage(ks, t0);
    float acc[kNT][4];
#pragma unroll
    for (int j = 0; j < kNT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) acc[j][q] = 0.0f;
    auto k_loop = [&](auto nta_c) {
      constexpr int NTA = decltype(nta_c)::value;
      for (int ks = 0; ks < KS; ++ks, ++used) {
        if (tid == 0 && ks + kAhead < KS) load_stage(ks + kAhead, t0);
        const int slot = ring.wait_full(used);
        const uint32_t stage = sbase + uint32_t(slot * C::kStage);
#pragma unroll
        for (int sub = 0; sub < KSPS; ++sub) {
          const uint32_t wst = stage + uint32_t(sub * kWBytes), xst = stage + uint32_t(KSPS * kWBytes + sub * C::kXBytes);
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            uint32_t af[2][4];
#pragma unroll
            for (int s = 0; s < 2; ++s)
              ptx::ldmatrix_x4(wst + a_off[2 * h + s], af[s][0], af[s][1], af[s][2], af[s][3]);
            uint32_t b[NTA][4];
#pragma unroll
            for (int j = 0; j < NTA; ++j)
              ptx::ldmatrix_x4(xst + uint32_t(j * 8 * kRowBytes) + b_off[h], b[j][0], b[j][1], b[j][2], b[j][3]);
#pragma unroll
            for (int j = 0; j < NTA; ++j) ptx::mma_m16n8k16_bf16(acc[j], af[0], b[j][0], b[j][1]);
#pragma unroll
            for (int j = 0; j < NTA; ++j) ptx::mma_m16n8k16_bf16(acc[j], af[1], b[j][2], b[j][3]);
          }
        }
        ring.release(slot);
      }
    };
    with_active_tiles<kNT>((rows_here + 7) / 8, k_loop);
    if constexpr (!kAct) {
      store<kNT, false, Activation::kSwiGLU>(ep, acc, g, t0, rows_here, n0 + wr, N, lane);
    } else {
      switch (ep.act.activation) {
        case Activation::kSwiGLU: store<kNT, true, Activation::kSwiGLU>(ep, acc, g, t0, rows_here, n0 + wr, N, lane); break;
        case Activation::kSwiGLUOAI:
          store<kNT, true, Activation::kSwiGLUOAI>(ep, acc, g, t0, rows_here, n0 + wr, N, lane);
          break;
        case Activation::kGeGLU: store<kNT, true, Activation::kGeGLU>(ep, acc, g, t0, rows_here, n0 + wr, N, lane); break;
        default: store<kNT, true, Activation::kReLU2>(ep, acc, g, t0, rows_here, n0 + wr, N, lane); break;
      }
    }
  }
}

template <int BT, int KSPS, bool kAct>
cudaError_t launch(const Bf16SmallTmaArgs& a, int64_t rows_bound, int grid_y, cudaStream_t stream) {
  using C = Cfg<BT, KSPS>;
  auto kernel = bf16_small_tma_kernel<BT, KSPS, kAct>;
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmem);
  if (attr != cudaSuccess) return attr;
  CUtensorMap tx, tw;
  if constexpr (KSPS == 1) {
    // Tokens [rows_bound, K] bf16 (row stride lda): boxes of 64 K x BT rows, 128-byte swizzle.
    const cuuint64_t xd[2] = {cuuint64_t(a.K), cuuint64_t(rows_bound)};
    const cuuint64_t xs[1] = {cuuint64_t(a.lda * 2)};
    const cuuint32_t xb[2] = {cuuint32_t(kBK), cuuint32_t(BT)};
    tx = cu::encode_tensor_map(a.A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, xd, xs, xb, CU_TENSOR_MAP_SWIZZLE_128B,
                               "bf16 small", "A");
    // Weights [G, N, K] bf16: boxes of 64 K x 128 rows x 1 expert, 128-byte swizzle.
    const cuuint64_t wd[3] = {cuuint64_t(a.K), cuuint64_t(a.N), cuuint64_t(a.num_groups)};
    const cuuint64_t ws[2] = {cuuint64_t(a.K * 2), cuuint64_t(a.N * a.K * 2)};
    const cuuint32_t wb[3] = {cuuint32_t(kBK), cuuint32_t(kBN), 1u};
    tw = cu::encode_tensor_map(a.W, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, wd, ws, wb, CU_TENSOR_MAP_SWIZZLE_128B,
                               "bf16 small", "W");
  } else {
    // K as {64, K / 64} (K % 64 == 0): one box spans KSPS row parts, landing as KSPS [rows][128 B]
    // sub-tiles; a stage past K / 64 parts is zero-filled.
    const cuuint64_t kb = cuuint64_t(a.K / kBK);
    const cuuint64_t xd[3] = {cuuint64_t(kBK), cuuint64_t(rows_bound), kb};
    const cuuint64_t xs[2] = {cuuint64_t(a.lda * 2), cuuint64_t(kRowBytes)};
    const cuuint32_t xb[3] = {cuuint32_t(kBK), cuuint32_t(BT), cuuint32_t(KSPS)};
    tx = cu::encode_tensor_map(a.A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, xd, xs, xb, CU_TENSOR_MAP_SWIZZLE_128B,
                               "bf16 small", "A");
    const cuuint64_t wd[4] = {cuuint64_t(kBK), cuuint64_t(a.N), kb, cuuint64_t(a.num_groups)};
    const cuuint64_t ws[3] = {cuuint64_t(a.K * 2), cuuint64_t(kRowBytes), cuuint64_t(a.N * a.K * 2)};
    const cuuint32_t wb[4] = {cuuint32_t(kBK), cuuint32_t(kBN), cuuint32_t(KSPS), 1u};
    tw = cu::encode_tensor_map(a.W, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4, wd, ws, wb, CU_TENSOR_MAP_SWIZZLE_128B,
                               "bf16 small", "W");
  }
  const EpiParams ep{a.D, a.ldd, a.act};
  const dim3 grid(unsigned((a.N + kBN - 1) / kBN), unsigned(grid_y), 1);
  kernel<<<grid, kThreads, C::kSmem, stream>>>(tx, tw, a.offsets, ep, int(a.N), int(a.K), a.num_groups);
  return cudaGetLastError();
}

template <int KSPS>
cudaError_t launch_steps(const Bf16SmallTmaArgs& a, int64_t rows_bound, int grid_y, bool wide, cudaStream_t stream) {
  if (a.act_out)
    return wide ? launch<64, KSPS, true>(a, rows_bound, grid_y, stream) : launch<32, KSPS, true>(a, rows_bound, grid_y, stream);
  return wide ? launch<64, KSPS, false>(a, rows_bound, grid_y, stream) : launch<32, KSPS, false>(a, rows_bound, grid_y, stream);
}

}  // namespace

void launch_bf16_small_tma(const Bf16SmallTmaArgs& a, int64_t rows_bound, cudaStream_t stream) {
  if (rows_bound <= 0 || a.num_groups <= 0) return;
  check_bf16_gemm_operands(a, "bf16 small GEMM", a.act_out && a.act.activation != Activation::kReLU2,
                           a.act_out ? 2 : 4);
  if (rows_bound > int64_t(INT32_MAX) || int64_t(a.num_groups) * a.N > int64_t(INT32_MAX))
    throw_invalid("rows, num_groups * N", "below 2^31 (bf16 small GEMM)", std::to_string(rows_bound));
  const int64_t grid_y = std::min<int64_t>(a.num_groups, rows_bound);
  if (grid_y > 65535) throw_invalid("num_groups", "at most 65535 (bf16 small GEMM)", std::to_string(a.num_groups));
  // 32 tokens a pass up to a mean of 24 rows per expert, 64 above (an untuned first rule).
  const bool wide = rows_bound / std::max<int64_t>(1, a.num_groups) > 24;
  // Two K steps a stage need K as whole 64-element parts (the maps split K into {64, K / 64});
  // measured 2026-12-04 at qwen3-30b-a3b T = 8..128: 1.02-1.04x over one step a stage.
  const cudaError_t e = a.K % kBK == 0 ? launch_steps<2>(a, rows_bound, int(grid_y), wide, stream)
                                       : launch_steps<1>(a, rows_bound, int(grid_y), wide, stream);
  cu::check("bf16 small", e, "bf16 small GEMM launch");
}

}  // namespace megamoe::sm90::bf16_small
