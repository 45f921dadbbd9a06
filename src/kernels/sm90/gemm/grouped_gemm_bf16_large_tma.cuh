// bf16 grouped GEMM for large T, our own warp-specialised kernel (grouped_gemm_bf16_large_tma.h;
// tactic `split_large_tma` of the bf16 split backend): a TMA producer warp, two wgmma consumer
// warpgroups, tiles whose token width follows the expert's rows.
//
// Why: CUTLASS's 128 x 256 tile (`split_large_tile`) runs an expert's rows in 128-row tiles, so the
// last tile of every expert multiplies up to 127 rows that do not exist: at T = 8192 with uniform
// routing 18% of deepseek-v3's MMA work (256 +- 16 rows an expert), 19% of gpt-oss-120b's, 12% of
// qwen3-30b-a3b's; with every expert at exactly 256 rows (`--routing balanced`) the bf16 layer ran
// 1.14x / 1.21x / 1.07x faster (docs/BENCHMARKS.md, "What the experts' uneven sizes cost").
// Here tokens are wgmma's N (swap-AB: D^T = W . A^T), and N can be any multiple of 8 up to 256, so a
// pass is only as wide as its rows rounded up to kTokBox = 32: at most 31 padded columns an expert.
//
// Work: an expert's rows are cut into passes of at most 256 tokens (Bf16LargeTmaArgs::
// balanced_passes: passes of 256 and the remainder, or equal passes); a tile is (expert, block of 128
// weight rows, pass): a full K loop of 64-wide steps (wgmma's M: two consumer warpgroups of 64
// rows), then its epilogue. Tiles are handed out persistently (tile t = blockIdx.x + i * gridDim.x)
// in the order expert, block, pass (pass fastest): the CTAs running the passes of one weight block
// run side by side, so the block comes from HBM once and from L2 for the others (one CTA running
// all passes of its block one after the other would read it from HBM again: a block's 128 rows
// are 1.8 MB at K = 7168, and 132 of them in flight overflow the 50 MB L2), and the CTAs of a wave
// share the expert's token rows in L2.
//
// Warp roles (384 threads, one CTA per SM):
//   warps 0-3, 4-7  consumers (warpgroup c): per step 4 wgmma m64nNk16 (N = the pass's width, one
//                   accumulator array per width: N / 2 floats a thread), both operands from shared
//                   memory (A = the stage's weight rows 64 c .. 64 c + 63, B = its token rows), one
//                   group in flight across steps; epilogue from registers straight to global memory
//   warp 8, lane 0  TMA issuer: per step one box of the tile's 128 weight rows (64 K) and the
//                   pass's token rows in boxes of 32 (64 K), into the step's stage
//   warps 9-11      idle (a warpgroup must own the registers setmaxnreg gives away)
// setmaxnreg: producer warpgroup 40, consumers 232 (128 x 40 + 256 x 232 = 64512 of 65536). ptxas
// compiles the kernel for 168 registers a thread (384 threads, one CTA an SM): N = 256 holds 128
// accumulators, like CUTLASS's 128 x 256 cooperative tile.
//
// Shared memory (dynamic, 1024-byte aligned): kStages stages of [weights 128 rows x 128 B | tokens
// 256 rows x 128 B], both SW128 K-major, 48 KB a stage (CUTLASS's large tile: 4 stages of 48 KB);
// a pass of width W fills only W / 32 token boxes (and waits for only their bytes).
// Barriers: a full / empty pair per stage: full = the issuer's arrival with the stage's transaction
// bytes, empty = the 8 consumer warps (lane 0 of each, after the wgmma wait that retires the stage's
// MMAs). Every wait is bounded (ptx::mbar_wait traps after kTimeoutNs: a lost TMA becomes a launch
// error, not a hung GPU).
//
// Rows outside the product: weight rows past N (TMA's zero fill within the expert: the map is
// [G, N, K]), token columns past the pass (the next rows of A or TMA's zero fill past rows_bound)
// and K past the end (zero fill in both operands: exact zeros) are multiplied but never stored.
// Epilogue (the float operations of the other bf16 tactics, so the outputs are bit for bit theirs):
// accumulator 4 j + q of a thread is weight row n_warp + gq (q < 2) or + 8 (q >= 2) and token
// 8 j + 2 tig + q % 2; fp32 D = acc, bf16 D = bf16(acc); gated FC1 (W13 gate/up interleaved in 8-row
// groups): rows gq and gq + 8 are gate j and up j, a[t, j] = bf16(act(acc_g + b13[j], acc_u +
// b13[I + j])); relu2 (canonical rows): a[t, n] = bf16(relu(acc + b13[n])^2).
#pragma once
#include <cuda.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h"
#include "kernels/sm90/gemm/wgmma.cuh"
#include "kernels/sm90/moe/activation_math.cuh"

// Included by the tactic's translation units (grouped_gemm_bf16_large_tma*.cu), each instantiating
// its own outputs: internal linkage keeps them apart.
namespace megamoe::sm90::bf16_large {
namespace {

constexpr int kThreads = 384;
constexpr int kWRows = 128;        // weight rows per tile: 2 consumer warpgroups x wgmma's M = 64
constexpr int kMaxTok = 256;       // tokens per pass: wgmma's largest N
constexpr int kTokBox = 32;        // token rows per TMA box; pass widths are multiples of it
constexpr int kBK = 64;            // K per step: one 128-byte row part of bf16 (the SW128 span)
constexpr int kRowBytes = 128;
constexpr int kWBytes = kWRows * kRowBytes;        // 16384: the tile's weights of one step
constexpr int kWgABytes = 64 * kRowBytes;          // 8192: one warpgroup's A (its 64 weight rows)
constexpr int kXBytes = kMaxTok * kRowBytes;       // 32768: the widest pass's tokens of one step
constexpr int kTokBoxBytes = kTokBox * kRowBytes;  // 4096
constexpr int kStageBytes = kWBytes + kXBytes;     // 49152
constexpr int kStages = 4;                         // 196608 bytes: a fifth stage would pass 227 KB
constexpr int kAlignSlack = 1024;                  // SW128 tiles start on 1024-byte boundaries
constexpr int kSmem = kAlignSlack + kStages * kStageBytes;
constexpr int kConsumerWarps = 8;
constexpr int kIssuerWarp = 8;
constexpr int kProducerRegs = 40, kConsumerRegs = 232;
constexpr unsigned long long kTimeoutNs = ptx::kGemmWaitTimeoutNs;  // 4 s per wait
static_assert(kWBytes % 1024 == 0 && kWgABytes % 1024 == 0 && kTokBoxBytes % 1024 == 0,
              "every operand tile and token box starts on an 8-row (1024-byte) SW128 atom");
static_assert(kSmem <= 227 * 1024, "fits the opt-in shared memory of a CTA");
static_assert(kProducerRegs * 128 + kConsumerRegs * 256 <= 65536, "register file");
static_assert(kMaxTok % kTokBox == 0 && kMaxTok / kTokBox == 8, "eight pass widths: 32, 64, .., 256");

struct Barriers {
  uint64_t full[kStages], empty[kStages];
};

struct EpiArgs {
  void* D;  // fp32 D / bf16 D [rows, ldd], or bf16 a [rows, ldd]
  int64_t ldd;
  ActEpilogueArgs act;
};

using ptx::smem_u32;

// The token rows a pass covers (every pass of an expert but the last): 256, or with balanced passes
// the expert's rows over ceil(rows / 256) passes, rounded up to a whole token box (<= 256). Every
// role computes it from the same rows.
__device__ __forceinline__ int pass_step(int rows, int balanced) {
  if (!balanced || rows <= kMaxTok) return kMaxTok;
  const int passes = (rows + kMaxTok - 1) / kMaxTok;
  return ((rows + passes - 1) / passes + kTokBox - 1) / kTokBox * kTokBox;
}
__device__ __forceinline__ int token_boxes(int rows) { return (rows + kTokBox - 1) / kTokBox; }

// The CTA's tile sequence: tile t counts (expert, weight-row block, pass), pass fastest, over the
// experts with rows. Every role walks it with its own cursor (two loads per expert) and agrees on
// the sequence without talking to the others. next() returns false when the tiles are exhausted.
struct TileWalk {
  const int32_t* offsets;
  int G, nblk, balanced;
  int t;
  int g = -1, base = 0, count = 0, npass = 1, ps = kMaxTok;  // expert g's tiles are [base, base + count)
  int lo = 0, hi = 0, blk = 0, t0 = 0, rows = 0;
  __device__ TileWalk(const int32_t* o, int G_, int nblk_, int balanced_)
      : offsets(o), G(G_), nblk(nblk_), balanced(balanced_), t(int(blockIdx.x)) {}
  __device__ bool next() {
    while (t >= base + count) {
      base += count;
      if (++g >= G) return false;
      lo = __ldg(offsets + g);
      hi = __ldg(offsets + g + 1);
      ps = pass_step(hi - lo, balanced);
      npass = (hi - lo + ps - 1) / ps;
      count = hi > lo ? nblk * npass : 0;
    }
    const int local = t - base;
    blk = local / npass;
    t0 = lo + (local - blk * npass) * ps;
    rows = min(ps, hi - t0);
    t += int(gridDim.x);
    return true;
  }
};

// Consumer warpgroup c: one pass of NT tokens over the K loop. `step` is the CTA-wide step counter
// (stage = step % kStages), advanced by KT. After issuing step i's MMAs, wait for step i - 1's
// group, then release its stage (wgmma reads both operands asynchronously).
template <int NT>
__device__ __forceinline__ void consume_pass(float (&acc)[NT / 2], Barriers& bars, uint32_t base, int c, int lane,
                                             int KT, uint32_t& step) {
#pragma unroll
  for (int i = 0; i < NT / 2; ++i) acc[i] = 0.0f;
  for (int kt = 0; kt < KT; ++kt) {
    const uint32_t i = step + uint32_t(kt), s = i % kStages;
    ptx::mbar_wait(smem_u32(&bars.full[s]), (i / kStages) & 1u, kTimeoutNs);
    const uint32_t st = base + s * uint32_t(kStageBytes);
    const uint64_t adesc = wgmma::sw128_desc(st + uint32_t(c * kWgABytes));
    const uint64_t bdesc = wgmma::sw128_desc(st + uint32_t(kWBytes));
    wgmma::fence();
    wgmma::fence_acc(acc);
#pragma unroll
    for (int k16 = 0; k16 < 4; ++k16)  // +2 = +32 bytes of K in both tiles
      wgmma::mma_ss<NT>(acc, adesc + uint64_t(2 * k16), bdesc + uint64_t(2 * k16));
    wgmma::commit();
    wgmma::wait<1>();
    wgmma::fence_acc(acc);
    if (kt > 0 && lane == 0) ptx::mbar_arrive(smem_u32(&bars.empty[(i - 1) % kStages]));
  }
  wgmma::wait<0>();
  wgmma::fence_acc(acc);
  step += uint32_t(KT);
  if (lane == 0) ptx::mbar_arrive(smem_u32(&bars.empty[(step - 1) % kStages]));
}

// The pass's outputs (tokens t0 .. t0 + rows - 1) of the thread's weight rows n_warp + gq and + 8.
template <int NT, LargeTmaOut O, Activation A>
__device__ __forceinline__ void store(const EpiArgs& ep, const float (&acc)[NT / 2], int lane, int g, int n_warp,
                                      int t0, int rows, int N) {
  const int gq = lane >> 2, tig = lane & 3;
  const int na = n_warp + gq, nb = na + 8;
  if constexpr (O == LargeTmaOut::kAct && A != Activation::kReLU2) {
    // Gated: physical rows na (gate) and nb (up) are output column jo. N % 16 == 0: a warp's 16
    // rows are all in or all out.
    if (n_warp >= N) return;
    __nv_bfloat16* a = static_cast<__nv_bfloat16*>(ep.D);
    const int I = N / 2, jo = int(gate_up::output_col(na));
    const float* b = ep.act.b13 ? ep.act.b13 + size_t(g) * size_t(N) : nullptr;
    const float bg = b ? __ldg(b + jo) : 0.0f, bu = b ? __ldg(b + I + jo) : 0.0f;
#pragma unroll
    for (int j = 0; j < NT / 8; ++j) {
      if (j * 8 >= rows) break;
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        const int col = j * 8 + 2 * tig + q;
        if (col < rows)
          a[size_t(t0 + col) * size_t(ep.ldd) + size_t(jo)] = __float2bfloat16_rn(
              act::act_fn<A>(acc[4 * j + q] + bg, acc[4 * j + q + 2] + bu, ep.act.limit, ep.act.alpha));
      }
    }
  } else {
    const float* b = nullptr;
    if constexpr (O == LargeTmaOut::kAct) b = ep.act.b13 ? ep.act.b13 + size_t(g) * size_t(N) : nullptr;
    const float ba = b && na < N ? __ldg(b + na) : 0.0f, bb = b && nb < N ? __ldg(b + nb) : 0.0f;
    auto put = [&](size_t t, int n, float v, float bias) {
      if (n >= N) return;
      const size_t idx = t * size_t(ep.ldd) + size_t(n);
      if constexpr (O == LargeTmaOut::kF32) static_cast<float*>(ep.D)[idx] = v;
      else if constexpr (O == LargeTmaOut::kBf16) static_cast<__nv_bfloat16*>(ep.D)[idx] = __float2bfloat16_rn(v);
      else  // relu2: a has N = I columns
        static_cast<__nv_bfloat16*>(ep.D)[idx] =
            __float2bfloat16_rn(act::act_fn<Activation::kReLU2>(v + bias, 0.0f, ep.act.limit, ep.act.alpha));
    };
#pragma unroll
    for (int j = 0; j < NT / 8; ++j) {
      if (j * 8 >= rows) break;
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        const int col = j * 8 + 2 * tig + q;
        if (col >= rows) continue;
        const size_t t = size_t(t0 + col);
        put(t, na, acc[4 * j + q], ba);
        put(t, nb, acc[4 * j + q + 2], bb);
      }
    }
  }
}

template <int NT, LargeTmaOut O>
__device__ __forceinline__ void run_pass(const EpiArgs& ep, Barriers& bars, uint32_t base, int c, int lane, int KT,
                                         uint32_t& step, int g, int n_warp, int t0, int rows, int N) {
  float acc[NT / 2];
  consume_pass<NT>(acc, bars, base, c, lane, KT, step);
  if constexpr (O != LargeTmaOut::kAct) {
    store<NT, O, Activation::kSwiGLU>(ep, acc, lane, g, n_warp, t0, rows, N);
  } else {
    switch (ep.act.activation) {
      case Activation::kSwiGLU: store<NT, O, Activation::kSwiGLU>(ep, acc, lane, g, n_warp, t0, rows, N); break;
      case Activation::kSwiGLUOAI: store<NT, O, Activation::kSwiGLUOAI>(ep, acc, lane, g, n_warp, t0, rows, N); break;
      case Activation::kGeGLU: store<NT, O, Activation::kGeGLU>(ep, acc, lane, g, n_warp, t0, rows, N); break;
      default: store<NT, O, Activation::kReLU2>(ep, acc, lane, g, n_warp, t0, rows, N); break;
    }
  }
}

template <LargeTmaOut O>
__global__ void __launch_bounds__(kThreads, 1)
    bf16_large_tma_kernel(const __grid_constant__ CUtensorMap tm_x, const __grid_constant__ CUtensorMap tm_w,
                          const int32_t* __restrict__ offsets, EpiArgs ep, int N, int K, int G, int balanced) {
  extern __shared__ uint8_t smem_raw[];
  __shared__ Barriers bars;
  const uint32_t base = (smem_u32(smem_raw) + uint32_t(kAlignSlack - 1)) & ~uint32_t(kAlignSlack - 1);
  const int warp = int(threadIdx.x) >> 5, lane = int(threadIdx.x) & 31;
  const int KT = (K + kBK - 1) / kBK, nblk = (N + kWRows - 1) / kWRows;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbar_init(smem_u32(&bars.full[s]), 1);
      ptx::mbar_init(smem_u32(&bars.empty[s]), kConsumerWarps);
    }
    ptx::mbar_fence_init();
  }
  __syncthreads();
  ptx::pdl_wait_then_release();  // the activations come from the previous kernel

  TileWalk walk(offsets, G, nblk, balanced);
  uint32_t step = 0;  // CTA-wide step counter: the same sequence in both roles
  if (warp >= kConsumerWarps) {
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (warp != kIssuerWarp || lane != 0) return;
    ptx::prefetch_tensormap(&tm_x);
    ptx::prefetch_tensormap(&tm_w);
    while (walk.next()) {
      // Every box starts inside the pass (t0 + 32 b < t0 + rows <= offsets[G] <= rows_bound); the
      // last may run past the tensor's rows (zero fill).
      const int boxes = token_boxes(walk.rows);
      for (int kt = 0; kt < KT; ++kt, ++step) {
        const uint32_t s = step % kStages, use = step / kStages;
        if (use > 0) ptx::mbar_wait(smem_u32(&bars.empty[s]), (use - 1) & 1u, kTimeoutNs);
        const uint32_t full = smem_u32(&bars.full[s]), st = base + s * uint32_t(kStageBytes);
        ptx::mbar_arrive_expect_tx(full, uint32_t(kWBytes + boxes * kTokBoxBytes));  // zero-filled bytes count too
        ptx::tma_load_3d(st, &tm_w, full, kt * kBK, walk.blk * kWRows, walk.g);
        for (int b = 0; b < boxes; ++b)
          ptx::tma_load_2d(st + uint32_t(kWBytes + b * kTokBoxBytes), &tm_x, full, kt * kBK, walk.t0 + b * kTokBox);
      }
    }
    return;
  }

  ptx::setmaxnreg_inc<kConsumerRegs>();
  const int c = warp / 4;  // warpgroup: weight rows 64 c .. 64 c + 63 of the tile
  while (walk.next()) {
    const int n_warp = walk.blk * kWRows + warp * 16;  // the warp's first weight row (16 a warp)
    const int g = walk.g, t0 = walk.t0, rows = walk.rows;
    switch (token_boxes(rows)) {  // one accumulator array per MMA width: MMAs of different N sharing
                                  // one array made ptxas serialise them (warning C7512)
      case 1: run_pass<32, O>(ep, bars, base, c, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 2: run_pass<64, O>(ep, bars, base, c, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 3: run_pass<96, O>(ep, bars, base, c, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 4: run_pass<128, O>(ep, bars, base, c, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 5: run_pass<160, O>(ep, bars, base, c, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 6: run_pass<192, O>(ep, bars, base, c, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 7: run_pass<224, O>(ep, bars, base, c, lane, KT, step, g, n_warp, t0, rows, N); break;
      default: run_pass<256, O>(ep, bars, base, c, lane, KT, step, g, n_warp, t0, rows, N); break;
    }
  }
}

// Encodes the two tensor maps and launches the persistent grid (at most one CTA per SM); the caller
// checked the arguments.
template <LargeTmaOut O>
cudaError_t launch_impl(const Bf16LargeTmaArgs& a, int64_t rows_bound, int balanced, cudaStream_t stream) {
  auto kernel = bf16_large_tma_kernel<O>;
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem);
  if (attr != cudaSuccess) return attr;
  // Tokens [rows_bound, K] bf16 (row stride lda): boxes of 64 K x 32 rows, 128-byte swizzle (B).
  const cuuint64_t xd[2] = {cuuint64_t(a.K), cuuint64_t(rows_bound)};
  const cuuint64_t xs[1] = {cuuint64_t(a.lda * 2)};
  const cuuint32_t xb[2] = {cuuint32_t(kBK), cuuint32_t(kTokBox)};
  const CUtensorMap tx = cu::encode_tensor_map(a.A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, xd, xs, xb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "bf16 large", "A");
  // Weights [G, N, K] bf16: boxes of 64 K x 128 rows x 1 expert, 128-byte swizzle (A; rows past N
  // zero-filled within the expert).
  const cuuint64_t wd[3] = {cuuint64_t(a.K), cuuint64_t(a.N), cuuint64_t(a.num_groups)};
  const cuuint64_t ws[2] = {cuuint64_t(a.K * 2), cuuint64_t(a.N * a.K * 2)};
  const cuuint32_t wb[3] = {cuuint32_t(kBK), cuuint32_t(kWRows), 1u};
  const CUtensorMap tw = cu::encode_tensor_map(a.W, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, wd, ws, wb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "bf16 large", "W");
  // Tiles, at most: row blocks x (the experts that can have rows + one more pass per 256 rows; an
  // expert of r rows has ceil(r / 256) passes); a CTA without a tile exits at once.
  const int64_t tiles = cu::ceil_div<int64_t>(a.N, kWRows) *
                        (std::min<int64_t>(a.num_groups, rows_bound) + cu::ceil_div<int64_t>(rows_bound, kMaxTok));
  const int grid = int(std::min<int64_t>(tiles, cu::current_sm_count()));
  const EpiArgs ep{a.D, a.ldd, a.act};
  kernel<<<grid, kThreads, kSmem, stream>>>(tx, tw, a.offsets, ep, int(a.N), int(a.K), a.num_groups, balanced);
  return cudaGetLastError();
}

}  // namespace

// One translation unit each (they compile in parallel): fp32 / bf16 D (grouped_gemm_bf16_large_tma.cu),
// the activation epilogue (grouped_gemm_bf16_large_tma_act.cu).
cudaError_t launch_plain(const Bf16LargeTmaArgs& a, int64_t rows_bound, int balanced, cudaStream_t stream);
cudaError_t launch_act(const Bf16LargeTmaArgs& a, int64_t rows_bound, int balanced, cudaStream_t stream);

}  // namespace megamoe::sm90::bf16_large
