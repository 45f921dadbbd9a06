// Grouped blockwise FP8 GEMM, our own warp-specialised kernel (grouped_gemm_fp8_blockwise.h,
// Fp8GemmTactic::kTma): the same product as the CUTLASS tactics, D = sum_kb (A . W^T)_kb * sa * sw.
//
// Work: swap-AB tiles of 128 weight rows (wgmma's M: two warpgroups of 64) x one pass of up to
// kMaxTok token rows of one expert (wgmma's N, rounded up to 32). An expert of r rows has
// ceil(r / kMaxTok) passes, the last one narrower: at T = 8192 deepseek-v3's experts hold 256 +- 16
// rows, which the 128-token-row tiles of the CUTLASS large tactic cover with 3 tiles (384 rows of
// MMA) whenever r > 256, and these passes with 128 + 128 + 32. Tile t = (expert, weight row
// block, pass) with the pass fastest, handed out persistently (t = blockIdx.x + i * gridDim.x): the
// CTAs running the passes of one weight block run side by side, so the second reads it from L2.
//
// A step is 128 K: one 128-byte e4m3 row part per weight and token row, and one scale block on
// both sides. A warpgroup runs the step's four wgmma m64nNk32 into a temporary accumulator, waits
// for them, then promotes: acc += tmp * (sw * sa[token]) (DeepSeek-V3's per-128-K promotion in FP32;
// sw is the tile's weight scale for this K block, sa the token's). The two warpgroups run the same
// steps side by side.
//
// Threads: 384 (one CTA per SM): two consumer warpgroups (warps 0-7) and a producer warpgroup of
// which one warp works (Producer): lane 0 loads the weight tile (one TMA box of 128 rows x 128
// bytes) and the pass's token rows (boxes of 32 rows x 128 bytes), 128-byte swizzle, and every lane
// copies its share of the step's token scales and the weight scale by cp.async, its arrival on the
// stage's barrier triggered when its copies land (a warp that loaded the scales into registers
// first was 2x slower: it waited an L2 round trip per step). The CTA compiles to 168 registers a
// thread, which holds the accumulator and one temporary at N = 128 (ptxas did not give the
// consumers' code setmaxnreg's larger budget: two temporaries, to overlap one step's promotion
// with the next step's MMAs, spilled). Measured, not kept: 256 threads with warp 0 producing
// between its steps (255 registers, N = 160) was 2x slower; the two warpgroups taking turns at the
// MMAs (named barriers) changed nothing (docs/BENCHMARKS.md).
// Shared memory (dynamic, 1024-byte aligned): kStages stages of [weight tile 16 KiB | token tile
// kMaxTok x 128 B], then kStages scale slots (kMaxTok token scales, then the weight scale). One
// full / empty barrier pair per stage: full = lane 0's TMA arrival with the transaction bytes + 32
// cp.async arrivals; empty = the 256 threads, after their promotion read the scales. Every wait is
// bounded (ptx::mbar_wait traps after kTimeoutNs: a lost TMA becomes a launch error, not a hung GPU).
//
// Rows outside the product: weight rows past N (the last block of an N % 128 != 0 matrix: the next
// expert's rows or TMA's zero fill), token rows past the expert's end (the next expert's rows or
// zero fill) and K past the end (zero fill in both operands: exact zeros) are multiplied but never
// stored.
#include <cuda.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "kernels/sm90/gemm/wgmma.cuh"
#include "kernels/sm90/gemm/wgmma_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {
namespace fp8_tma {
namespace {

constexpr int kConsumerWarps = 8;                   // two warpgroups
constexpr int kThreads = kConsumerWarps * 32 + 128;  // + the producer warpgroup (one warp works)
constexpr int kProducerRegs = 40, kConsumerRegs = 232;
static_assert(kProducerRegs * 128 + kConsumerRegs * 256 <= 65536, "register file");
constexpr int kWRows = 128;    // weight rows per tile: 2 consumer warpgroups x 64 (wgmma M)
constexpr int kWgRows = 64;
constexpr int kBK = 128;       // K per step: one 128-byte e4m3 row part, one scale block
constexpr int kRowBytes = 128;
constexpr int kTokBox = 32;    // token rows per TMA box: a pass's width rounds up to 32
constexpr int kMaxTok = 128;   // tokens per pass: the temporary and the accumulator, N / 2 floats
                               // each, stay within the 168 registers a 384-thread CTA compiles to
constexpr int kStages = 6;
constexpr int kWBytes = kWRows * kRowBytes;     // 16384
constexpr int kXBytes = kMaxTok * kRowBytes;    // token tile
constexpr int kStageBytes = kWBytes + kXBytes;  // both 1024-byte multiples: SW128 tiles stay aligned
constexpr int kScaleFloats = kMaxTok + 4;       // token scales, then the weight scale (16-byte slots)
constexpr int kAlignSlack = 1024;
constexpr int kSmemBytes = kAlignSlack + kStages * kStageBytes + kStages * kScaleFloats * 4;
constexpr unsigned long long kTimeoutNs = 4ull * 1000ull * 1000ull * 1000ull;  // 4 s per wait
static_assert(kWBytes % 1024 == 0 && kXBytes % 1024 == 0, "SW128 tiles start on 1024-byte boundaries");
static_assert(kMaxTok % kTokBox == 0 && kMaxTok <= 160, "pass widths: multiples of 32 that wgmma_fp8.cuh has");
static_assert(kSmemBytes <= 227 * 1024, "fits the opt-in shared memory");

struct Barriers {
  uint64_t full[kStages], empty[kStages];
};

using ptx::smem_u32;

// The CTA's tile sequence. Tile t counts (expert, weight row block, pass), pass fastest, over the
// experts with rows; every role walks it with its own cursor and agrees on the sequence.
struct TileWalk {
  const int32_t* offsets;
  int G, nblk;
  int t;
  int g = -1, base = 0, count = 0, npass = 1;  // expert g's tiles are [base, base + count)
  int lo = 0, hi = 0, blk = 0, t0 = 0, ntok = 0;
  __device__ TileWalk(const int32_t* o, int G_, int nblk_) : offsets(o), G(G_), nblk(nblk_), t(int(blockIdx.x)) {}
  __device__ bool next() {
    while (t >= base + count) {
      base += count;
      if (++g >= G) return false;
      lo = __ldg(offsets + g);
      hi = __ldg(offsets + g + 1);
      npass = (hi - lo + kMaxTok - 1) / kMaxTok;
      count = hi > lo ? nblk * npass : 0;
    }
    const int local = t - base;
    blk = local / npass;
    t0 = lo + (local - blk * npass) * kMaxTok;
    ntok = min(kMaxTok, hi - t0);
    t += int(gridDim.x);
    return true;
  }
};

struct Params {
  const float* SA;  // activation scales, per expert [KB, rows] (act_scale_index)
  const float* SW;  // weight scales [G, KB, NB]
  const int32_t* offsets;
  void* D;          // fp32 or bf16 [rows, ldd]
  int64_t ldd;
  int N, K, G;
};

// The four k32 MMAs of one step (stage s) into `tmp` (overwritten by the first), committed as one group.
template <int NT>
__device__ __forceinline__ void issue_step(float (&tmp)[NT / 2], uint32_t full_bar, uint32_t parity,
                                           uint64_t adesc, uint64_t bdesc) {
  ptx::mbar_wait(full_bar, parity, kTimeoutNs);
  wgmma::fence();
  wgmma::fence_acc(tmp);
#pragma unroll
  for (int k32 = 0; k32 < 4; ++k32)  // +2 = +32 bytes of K in both tiles
    wgmma::mma_ss_e4m3<NT>(tmp, adesc + uint64_t(2 * k32), bdesc + uint64_t(2 * k32), k32 > 0);
  wgmma::commit();
}

// acc += tmp * (sw * sa[token]) with the scales of stage slot `sc`; accumulator 4j + q is token
// 8j + 2 tig + (q & 1). Then this thread releases the stage (its scale reads; the MMAs' reads of the
// tiles completed before the caller's wait). Every lane arrives: racecheck does not carry
// __syncwarp's ordering over to another lane's arrive.
template <int NT>
__device__ __forceinline__ void promote(float (&acc)[NT / 2], const float (&tmp)[NT / 2], const float* sc, int tig,
                                        uint32_t empty_bar) {
  const float sw = sc[kMaxTok];
#pragma unroll
  for (int j = 0; j < NT / 8; ++j) {
    const float2 sa = *reinterpret_cast<const float2*>(sc + 8 * j + 2 * tig);
    const float s0 = sw * sa.x, s1 = sw * sa.y;
    acc[4 * j + 0] = fmaf(tmp[4 * j + 0], s0, acc[4 * j + 0]);
    acc[4 * j + 1] = fmaf(tmp[4 * j + 1], s1, acc[4 * j + 1]);
    acc[4 * j + 2] = fmaf(tmp[4 * j + 2], s0, acc[4 * j + 2]);
    acc[4 * j + 3] = fmaf(tmp[4 * j + 3], s1, acc[4 * j + 3]);
  }
  ptx::mbar_arrive(empty_bar);
}

// Shared-memory addresses of the ring, fixed for the kernel: stage s's barriers and operand tiles are
// these plus s times a stride.
struct Ring {
  uint32_t full0, empty0;  // barriers of stage 0 (8 bytes apart)
  const float* scales;     // scale slots
  __device__ uint32_t full(uint32_t s) const { return full0 + 8 * s; }
  __device__ uint32_t empty(uint32_t s) const { return empty0 + 8 * s; }
};

// The producer (one warp of the producer warpgroup), with its own tile cursor ahead of the
// consumers'. Lane 0 loads the weight and token tiles by TMA (one arrival with the transaction
// bytes); every lane copies its share of the step's scales by cp.async, its arrival triggered when
// its copies land (the warp never waits for a load, only for a free slot).
struct Producer {
  TileWalk walk;
  bool live;
  int kt = 0;          // the next step's K block within walk's tile
  uint32_t step = 0;   // the next step to produce (CTA-wide count)
  const CUtensorMap* tm_x;
  const CUtensorMap* tm_w;
  __device__ Producer(const int32_t* offsets, int G, int nblk, const CUtensorMap* x, const CUtensorMap* w)
      : walk(offsets, G, nblk), live(walk.next()), tm_x(x), tm_w(w) {}

  // Produces steps until `limit` (exclusive) or the end of the CTA's tiles. Warp-uniform.
  __device__ void fill(uint32_t limit, const Params& p, const Ring& ring, uint32_t sbase, uint32_t scbase,
                       int KT, int NB, int lane) {
    while (live && step < limit) {
      const uint32_t s = step % kStages, use = step / kStages;
      if (use > 0) ptx::mbar_wait(ring.empty(s), (use - 1) & 1u, kTimeoutNs);
      const uint32_t full = ring.full(s), st = sbase + s * uint32_t(kStageBytes);
      const int boxes = (walk.ntok + kTokBox - 1) / kTokBox;
      if (lane == 0) {
        ptx::mbar_arrive_expect_tx(full, uint32_t(kWBytes + boxes * kTokBox * kRowBytes));  // zero fill counts
        ptx::tma_load_2d(st, tm_w, full, kt * kBK, walk.g * p.N + walk.blk * kWRows);
        for (int b = 0; b < boxes; ++b)
          ptx::tma_load_2d(st + uint32_t(kWBytes + b * kTokBox * kRowBytes), tm_x, full, kt * kBK,
                           walk.t0 + b * kTokBox);
      }
      const uint32_t sc = scbase + s * uint32_t(kScaleFloats * 4);
      const float* sa_k = p.SA + size_t(walk.lo) * size_t(KT) + size_t(kt) * size_t(walk.hi - walk.lo) +
                          size_t(walk.t0 - walk.lo);
      for (int r = lane; r < boxes * kTokBox; r += 32)
        ptx::cp_async4(sc + uint32_t(4 * r), sa_k + (r < walk.ntok ? r : 0), r < walk.ntok);
      if (lane == 0)
        ptx::cp_async4(sc + uint32_t(4 * kMaxTok),
                       p.SW + (size_t(walk.g) * size_t(KT) + size_t(kt)) * size_t(NB) + size_t(walk.blk));
      ptx::cp_async_mbar_arrive_noinc(full);
      ++step;
      if (++kt == KT) {
        kt = 0;
        live = walk.next();
      }
    }
  }
};

// One tile's K loop for a pass of NT (= the pass's rows rounded up to 32) tokens, then its epilogue:
// per step, issue, wait for the MMAs (one temporary: two do not fit in 168 registers, see the
// header), promote and release the stage.
template <int NT, bool kBf16Out>
__device__ __forceinline__ void consume_tile(const Params& p, const Ring& ring, uint64_t desc0, const TileWalk& w,
                                             int c, int wq, int lane, int KT, uint32_t& step) {
  float acc[NT / 2], ta[NT / 2];
#pragma unroll
  for (int i = 0; i < NT / 2; ++i) acc[i] = 0.0f;
  const int tig = lane & 3, gq = lane >> 2;
  // Stage s's A descriptor: desc0 + s * (kStageBytes >> 4); B: + (kWBytes - c * 64 rows) >> 4.
  constexpr uint64_t kStageDesc = uint64_t(kStageBytes >> 4);
  const uint64_t bofs = uint64_t((kWBytes - c * kWgRows * kRowBytes) >> 4);
  for (int kt = 0; kt < KT; ++kt) {
    const uint32_t i = step + uint32_t(kt), s = i % kStages;
    const uint64_t ad = desc0 + s * kStageDesc;
    issue_step<NT>(ta, ring.full(s), (i / kStages) & 1u, ad, ad + bofs);
    wgmma::wait<0>();
    wgmma::fence_acc(ta);
    promote<NT>(acc, ta, ring.scales + s * kScaleFloats, tig, ring.empty(s));
  }
  step += uint32_t(KT);
  // Epilogue: weight rows na (q < 2) and na + 8 (q >= 2) of this thread, tokens t0 + 8j + 2 tig + q % 2.
  const int na = w.blk * kWRows + c * kWgRows + wq * 16 + gq, nb = na + 8;
#pragma unroll
  for (int j = 0; j < NT / 8; ++j) {
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      const int col = 8 * j + 2 * tig + q;
      if (col >= w.ntok) continue;
      const size_t row = size_t(w.t0 + col) * size_t(p.ldd);
      if constexpr (kBf16Out) {
        __nv_bfloat16* d = static_cast<__nv_bfloat16*>(p.D) + row;
        if (na < p.N) d[na] = __float2bfloat16_rn(acc[4 * j + q]);
        if (nb < p.N) d[nb] = __float2bfloat16_rn(acc[4 * j + q + 2]);
      } else {
        float* d = static_cast<float*>(p.D) + row;
        if (na < p.N) d[na] = acc[4 * j + q];
        if (nb < p.N) d[nb] = acc[4 * j + q + 2];
      }
    }
  }
}

template <bool kBf16Out>
__global__ void __launch_bounds__(kThreads, 1)
    fp8_tma_kernel(const __grid_constant__ CUtensorMap tm_x, const __grid_constant__ CUtensorMap tm_w, Params p) {
  extern __shared__ uint8_t smem_raw[];
  __shared__ Barriers bars;
  const uint32_t raw = smem_u32(smem_raw);
  const uint32_t sbase = (raw + uint32_t(kAlignSlack - 1)) & ~uint32_t(kAlignSlack - 1);
  const uint32_t scbase = sbase + uint32_t(kStages * kStageBytes);
  const int warp = int(threadIdx.x) >> 5, lane = int(threadIdx.x) & 31;
  const int KT = (p.K + kBK - 1) / kBK, NB = (p.N + kWRows - 1) / kWRows;
  const Ring ring{smem_u32(&bars.full[0]), smem_u32(&bars.empty[0]),
                  reinterpret_cast<const float*>(smem_raw + (scbase - raw))};

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbar_init(ring.full(uint32_t(s)), 1 + 32);                 // lane 0's TMA arrival + 32 cp.async ones
      ptx::mbar_init(ring.empty(uint32_t(s)), kConsumerWarps * 32);  // every consumer thread
    }
    ptx::mbar_fence_init();
  }
  __syncthreads();
  ptx::pdl_wait_then_release();  // the activations come from the previous kernel

  if (warp >= kConsumerWarps) {
    // The producer warpgroup: warp kConsumerWarps runs the Producer over the whole tile sequence,
    // waiting only for free slots; the other three warps have nothing to do.
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (warp != kConsumerWarps) return;
    if (lane == 0) {
      ptx::prefetch_tensormap(&tm_x);
      ptx::prefetch_tensormap(&tm_w);
    }
    Producer producer(p.offsets, p.G, NB, &tm_x, &tm_w);
    while (producer.live) producer.fill(producer.step + 1u, p, ring, sbase, scbase, KT, NB, lane);
    return;
  }
  ptx::setmaxnreg_inc<kConsumerRegs>();
  // Warpgroup c = warp / 4 takes weight rows 64 c .. 64 c + 63 of the tile; wq = warp % 4.
  const int c = warp >> 2, wq = warp & 3;
  TileWalk walk(p.offsets, p.G, NB);
  uint32_t step = 0;  // CTA-wide step counter, the producer's sequence
  const uint64_t desc0 = wgmma::sw128_desc(sbase + uint32_t(c * kWgRows * kRowBytes));
  while (walk.next()) {
    switch ((walk.ntok + kTokBox - 1) / kTokBox) {  // one accumulator set per MMA width (C7512 otherwise)
      case 1: consume_tile<32, kBf16Out>(p, ring, desc0, walk, c, wq, lane, KT, step); break;
      case 2: consume_tile<64, kBf16Out>(p, ring, desc0, walk, c, wq, lane, KT, step); break;
      case 3: consume_tile<96, kBf16Out>(p, ring, desc0, walk, c, wq, lane, KT, step); break;
      default:
        consume_tile<kMaxTok, kBf16Out>(p, ring, desc0, walk, c, wq, lane, KT, step);
        break;
    }
  }
}

}  // namespace
}  // namespace fp8_tma

// The TMA tactic's launch (grouped_gemm_fp8_blockwise.cu checked the arguments): the two tensor
// maps and a persistent grid of at most one CTA per SM.
void launch_fp8_tma(const fp8_gemm_detail::RunArgs& a, int num_groups, int64_t N, int64_t K, int64_t rows_bound,
                    bool bf16_out, cudaStream_t stream) {
  using namespace fp8_tma;
  if (int64_t(num_groups) * N > int64_t(INT32_MAX))
    throw_invalid("num_groups * N", "below 2^31 (fp8 TMA tactic: 32-bit row coordinates)",
                  std::to_string(int64_t(num_groups) * N));
  if (rows_bound > int64_t(INT32_MAX) - kMaxTok)
    throw_invalid("total_rows_upper_bound", "below 2^31 - 160 (fp8 TMA tactic)", std::to_string(rows_bound));
  auto kernel = bf16_out ? fp8_tma_kernel<true> : fp8_tma_kernel<false>;
  cu::check("grouped_gemm_fp8_blockwise",
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes),
            "fp8 TMA tactic: shared-memory opt-in");
  // Token rows [rows_bound, K] e4m3 and weight rows [G * N, K] e4m3: boxes of 128 bytes of K x 32
  // token rows or 128 weight rows, 128-byte swizzle (the K-major layout wgmma's descriptors read).
  const cuuint64_t xd[2] = {cuuint64_t(K), cuuint64_t(rows_bound)};
  const cuuint64_t xs[1] = {cuuint64_t(K)};
  const cuuint32_t xb[2] = {cuuint32_t(kBK), cuuint32_t(kTokBox)};
  const CUtensorMap tx = cu::encode_tensor_map(a.A, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, xd, xs, xb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "grouped_gemm_fp8_blockwise", "A");
  const cuuint64_t wd[2] = {cuuint64_t(K), cuuint64_t(int64_t(num_groups) * N)};
  const cuuint64_t ws[1] = {cuuint64_t(K)};
  const cuuint32_t wb[2] = {cuuint32_t(kBK), cuuint32_t(kWRows)};
  const CUtensorMap tw = cu::encode_tensor_map(a.W, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, wd, ws, wb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "grouped_gemm_fp8_blockwise", "W");
  // Tiles: weight row blocks x passes over at most rows_bound rows spread over the groups.
  const int64_t nblk = cu::ceil_div<int64_t>(N, kWRows);
  const int64_t tiles = nblk * (cu::ceil_div<int64_t>(rows_bound, kMaxTok) + num_groups);
  const int grid = int(std::max<int64_t>(1, std::min<int64_t>(tiles, cu::current_sm_count())));
  const Params p{a.SA, a.SW, a.offsets, a.D, a.ldd, int(N), int(K), num_groups};
  kernel<<<grid, kThreads, kSmemBytes, stream>>>(tx, tw, p);
  cu::check_launch("grouped_gemm_fp8_blockwise", "fp8 TMA tactic launch");
}

}  // namespace megamoe::sm90
