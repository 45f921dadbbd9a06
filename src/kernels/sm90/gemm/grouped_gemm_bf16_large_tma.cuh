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
// pass of up to 256 rows is only as wide as its rows rounded up to kTokBox = 32: at most 31 padded
// columns an expert (a simulation of the bench's uniform routing at T = 8192: 6% of the MMA work
// against CUTLASS's 26% at deepseek-v3, README of bench/results/2026-12-05_bf16_large_tma_prepared/).
//
// Work: an expert's rows are cut into passes (Bf16LargeTmaArgs::pass_mode: 0 = passes of 256 and the
// remainder; 1 = ceil(rows / 256) equal passes; 2, the default = passes of 320, where a pass of
// 257..320 rows runs two MMAs of N = 144 or 160 on its halves, so experts of 256 +- 16 rows take
// one pass); a tile
// is (expert, block of 128 weight rows, pass): a full K loop of 64-wide steps (wgmma's M: two
// consumer warpgroups of 64 rows), then its epilogue. Tiles are handed out persistently: with a
// tile counter (Bf16LargeTmaArgs::dynamic_tiles, the default where the caller gives one) each is the
// next ticket of the launch's counter, which the TMA lane draws once the stage of the tile's first
// step is free (or, Bf16LargeTmaArgs::early_draw, right after issuing the previous tile's last step)
// and writes beside that stage for the consumers; without one, tile t = blockIdx.x +
// i * gridDim.x (the static order: with pass widths alternating 320 / 192 and an even grid it gave
// the even CTAs every wide pass, 0.81x at gpt-oss-120b T = 12288 against 0.96x dynamic)
// in the order expert, block, pass (pass fastest): the CTAs running the passes of one weight block
// run side by side, so the block comes from HBM once and from L2 for the others (one CTA running
// all passes of its block one after the other would read it from HBM again: a block's 128 rows
// are 1.8 MB at K = 7168, and 132 of them in flight overflow the 50 MB L2), and the CTAs of a wave
// share the expert's token rows in L2 -- unless the expert has many passes (mixtral-8x7b T = 32768:
// 26 passes, 64 MB of tokens): then the pass groups (Bf16LargeTmaArgs::pass_group, on by default
// since session 52) run the expert's passes a group of ~7 at a time over all its blocks.
// Measured and not kept (docs/BENCHMARKS.md, sessions 56 / 57, H100, T = 2048..8192): an L2
// prefetch of the weight blocks ahead 0.89-0.93x; two-CTA clusters running the two 128-row halves of a
// 256-row block on one pass, each CTA loading half of the token boxes for both by TMA multicast,
// 0.79x (0.63-0.95x).
//
// Warp roles (384 threads, one CTA per SM):
//   warps 0-3, 4-7  consumers (warpgroup c): per step 4 wgmma m64nNk16 (N = the pass's width, one
//                   accumulator array per width: N / 2 floats a thread; two-MMA passes 2 x 72 or
//                   2 x 80), both operands from shared
//                   memory (A = the stage's weight rows 64 c .. 64 c + 63, B = its token rows), one
//                   group in flight across steps; epilogue from registers straight to global memory
//   warp 8, lane 0  TMA issuer: per step one box of the tile's 128 weight rows (64 K) and the
//                   pass's token rows in boxes of 32 (64 K), into the step's stage
//   warps 9-11      idle (a warpgroup must own the registers setmaxnreg gives away)
// setmaxnreg: producer warpgroup 40, consumers 232 (128 x 40 + 256 x 232 = 64512 of 65536). ptxas
// reports 168 registers a thread (384 threads, one CTA an SM: the allocation at launch); the
// consumers' code uses up to the 232 that setmaxnreg gives them (R215 / R229 in the SASS): N = 256
// holds 128 accumulators, like CUTLASS's 128 x 256 cooperative tile, a 320-row pass 2 x 80.
//
// Shared memory (dynamic, 1024-byte aligned): kStages stages of [weights 128 rows x 128 B | tokens
// 320 rows x 128 B], both SW128 K-major, 56 KB a stage (CUTLASS's large tile: 4 stages of 48 KB);
// a pass of r rows fills only ceil(r / 32) token boxes (and waits for only their bytes).
// Barriers: a full / empty pair per stage: full = the issuer's arrival with the stage's transaction
// bytes, empty = the 8 consumer warps (lane 0 of each, after the wgmma wait that retires the stage's
// MMAs). Every wait is bounded (ptx::mbar_wait traps after kTimeoutNs: a lost TMA becomes a launch
// error, not a hung GPU).
//
// Rows outside the product: weight rows past N (TMA's zero fill within the expert: the map is
// [G, N, K]), token columns past the pass (the next rows of A or TMA's zero fill past rows_bound)
// and K past the end (zero fill in both operands: exact zeros) are multiplied but never stored.
// Epilogue (the float operations of the other bf16 tactics, so the outputs are bit for bit theirs;
// stores of two adjacent columns by a lane-pair exchange where the output allows, see store()):
// accumulator 4 j + q of a thread is weight row n_warp + gq (q < 2) or + 8 (q >= 2) and token
// 8 j + 2 tig + q % 2; fp32 D = acc, bf16 D = bf16(acc); gated FC1 (W13 gate/up interleaved in 8-row
// groups): rows gq and gq + 8 are gate j and up j, a[t, j] = bf16(act(acc_g + b13[j], acc_u +
// b13[I + j])); relu2 (canonical rows): a[t, n] = bf16(relu(acc + b13[n])^2).
#pragma once
#include <cuda.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/tile_tickets.cuh"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma_walk.h"
#include "kernels/sm90/gemm/staged_epilogue.cuh"
#include "kernels/sm90/gemm/wgmma.cuh"
#include "kernels/sm90/moe/activation_math.cuh"

// Included by the tactic's translation units (grouped_gemm_bf16_large_tma*.cu), each instantiating
// its own outputs: internal linkage keeps them apart.
namespace megamoe::sm90::bf16_large {
namespace {

// kWRows, kMaxTok, kMaxPass, kTokBox: grouped_gemm_bf16_large_tma_walk.h (the work split).
constexpr int kThreads = 384;
constexpr int kBK = 64;            // K per step: one 128-byte row part of bf16 (the SW128 span)
constexpr int kRowBytes = 128;
constexpr int kWBytes = kWRows * kRowBytes;        // 16384: the tile's weights of one step
constexpr int kWgABytes = 64 * kRowBytes;          // 8192: one warpgroup's A (its 64 weight rows)
constexpr int kXBytes = kMaxPass * kRowBytes;      // 40960: the widest pass's tokens of one step
constexpr int kTokBoxBytes = kTokBox * kRowBytes;  // 4096
constexpr int kStageBytes = kWBytes + kXBytes;     // 57344
constexpr int kStages = 4;                         // 229376 bytes: CUTLASS's large tile also runs 4
constexpr int kAlignSlack = 1024;                  // SW128 tiles start on 1024-byte boundaries
constexpr int kSmem = kAlignSlack + kStages * kStageBytes;
constexpr int kConsumerWarps = 8;
constexpr int kIssuerWarp = 8;
constexpr int kProducerRegs = 40, kConsumerRegs = 232;
constexpr unsigned long long kTimeoutNs = ptx::kGemmWaitTimeoutNs;  // 4 s per wait
static_assert(kWBytes % 1024 == 0 && kWgABytes % 1024 == 0 && kTokBoxBytes % 1024 == 0,
              "every operand tile and token box starts on an 8-row (1024-byte) SW128 atom");
static_assert(kProducerRegs * 128 + kConsumerRegs * 256 <= 65536, "register file");
static_assert(kMaxTok % kTokBox == 0 && kMaxTok / kTokBox == 8, "eight one-MMA pass widths: 32, 64, .., 256");
static_assert((144 * kRowBytes) % 1024 == 0 && (160 * kRowBytes) % 1024 == 0 && 2 * 160 == kMaxPass,
              "a two-MMA pass's second half starts on an 8-row SW128 atom, and fits the stage");

struct Barriers {
  uint64_t full[kStages], empty[kStages];
  // Dynamic tile order only: the ticket of the tile whose first K step stage s holds, written by the
  // TMA lane before that stage's loads (the stage's full / empty barriers order it for the consumers;
  // a ticket past the last tile arrives on its own, without loads).
  int ticket[kStages];
};
static_assert(kSmem + sizeof(Barriers) <= 227 * 1024, "fits the opt-in shared memory of a CTA (with the barriers)");

struct EpiArgs {
  void* D;  // fp32 D / bf16 D [rows, ldd], or bf16 a [rows, ldd]
  int64_t ldd;
  ActEpilogueArgs act;
  int stores;  // kStoresSingle / kStoresPaired / kStoresStaged (launch_store_mode: what the output allows)
};

// The staged epilogue (EpiArgs::stores == kStoresStaged; bf16 outputs, passes whose MMA width is at
// least kStagedMinTok tokens, i.e. of more than 96 rows; narrower passes store paired). A thread's accumulators hold 2 adjacent tokens
// of one weight row, so a direct store writes 2 bf16 of a token row's 16 (a warp instruction
// touches 8 token rows x 8 bytes). Staged: the warp packs its outputs to bf16 pairs, writes them
// transposed with stmatrix .trans into scratch, so that memory rows are token rows, and reads them
// back 16 bytes a lane: one 16-byte global store per lane for 16 tokens x 16 weight rows (two lanes
// write a token row's 32 bytes) against four 4-byte ones.
// Scratch: the warp's own 16 weight rows of the pass's last stage (2048 bytes: its A rows, which
// only its warpgroup's MMAs read). The consumers hold that stage (no arrival on its empty barrier
// at the end of the K loop), meet at their warpgroup's named barrier (every wgmma of the
// warpgroup has completed, not just the warp's own wait), write the scratch, and release the stage
// after a proxy fence and a second warpgroup barrier. Holding a stage leaves the TMA lane 3 stages
// ahead of the next tile instead of 4, so only passes wide enough to hide a load behind 3 steps
// stage (kStagedMinTok).
constexpr int kStagedMinTok = 128;  // an MMA width (token_boxes(rows) * kTokBox)
static_assert(staged::kScratchBytes == 16 * kRowBytes, "the scratch: a warp's 16 weight rows of one stage");
static_assert(kStoresSingle == 0 && kStoresPaired == 1 && kStoresStaged == 2, "EpiArgs::stores values");

using ptx::smem_u32;

// Consumer warpgroup c: one pass of NT tokens over the K loop. `step` is the CTA-wide step counter
// (stage = step % kStages), advanced by KT. After issuing step i's MMAs, wait for step i - 1's
// group, then release its stage (wgmma reads both operands asynchronously). kTwo: a pass of up to
// 2 NT tokens as two MMAs of width NT per k16 block, on token rows 0..NT-1 (acc) and NT..2NT-1
// (acc2) of the stage, the same A descriptor.
// hold_last: the last stage stays held (the staged epilogue's scratch; release_held frees it).
template <int NT, bool kTwo = false>
__device__ __forceinline__ void consume_pass(float (&acc)[NT / 2], float (&acc2)[NT / 2], Barriers& bars,
                                             uint32_t base, int c, int lane, int KT, uint32_t& step,
                                             bool hold_last) {
#pragma unroll
  for (int i = 0; i < NT / 2; ++i) {
    acc[i] = 0.0f;
    if constexpr (kTwo) acc2[i] = 0.0f;
  }
  for (int kt = 0; kt < KT; ++kt) {
    const uint32_t i = step + uint32_t(kt), s = i % kStages;
    ptx::mbar_wait(smem_u32(&bars.full[s]), (i / kStages) & 1u, kTimeoutNs);
    const uint32_t st = base + s * uint32_t(kStageBytes);
    const uint64_t adesc = wgmma::sw128_desc(st + uint32_t(c * kWgABytes));
    const uint64_t bdesc = wgmma::sw128_desc(st + uint32_t(kWBytes));
    const uint64_t bdesc2 = wgmma::sw128_desc(st + uint32_t(kWBytes + NT * kRowBytes));
    wgmma::mma_k64_ss<NT, kTwo>(acc, acc2, adesc, bdesc, bdesc2);
    if (kt > 0 && lane == 0) ptx::mbar_arrive(smem_u32(&bars.empty[(i - 1) % kStages]));
  }
  wgmma::wait<0>();
  wgmma::fence_acc(acc);
  if constexpr (kTwo) wgmma::fence_acc(acc2);
  step += uint32_t(KT);
  if (!hold_last && lane == 0) ptx::mbar_arrive(smem_u32(&bars.empty[(step - 1) % kStages]));
}

// The staged epilogue's scratch of CTA warp `warp` (0..7): its 16 weight rows 16 warp .. + 15 of the
// tile, in the pass's last stage (step - 1). Before writing it, every MMA of the warpgroup must be
// done reading the stage: the warpgroup's named barrier (1 + c) after each warp's wgmma wait.
__device__ __forceinline__ uint32_t hold_scratch(uint32_t base, uint32_t step, int c, int warp) {
  ptx::warpgroup_barrier(c);
  return base + ((step - 1) % kStages) * uint32_t(kStageBytes) + uint32_t(warp * staged::kScratchBytes);
}

// After the staged stores: the warp frees the held stage (staged::release_scratch).
__device__ __forceinline__ void release_held(Barriers& bars, uint32_t step, int c, int lane) {
  staged::release_scratch(smem_u32(&bars.empty[(step - 1) % kStages]), c, lane);
}

// The pass's outputs (tokens t0 .. t0 + rows - 1) of the thread's weight rows n_warp + gq and + 8.
// Every value is made in the thread that holds its accumulator (gated: act(gate, up) of output
// column jo; plain: acc, relu2: relu(acc + b)^2). Lanes gq and gq ^ 1 (lane ^ 4) hold adjacent
// columns of the same tokens; each sends the other one value (one shuffle per two values), so that
// the even lane holds token 8 j + 2 tig and the odd lane token 8 j + 2 tig + 1, both columns. Then
//   EpiArgs::stores >= 1: one store of the two columns (4 bytes bf16, 8 bytes fp32): a warp store
//                     instruction writes 8 token rows x 8 columns; needs an even column count, an
//                     even ldd and D aligned to two elements (paired_stores_fit);
//   else:             one store per column (the single-store variant of the A/B, and any output
//                     the pair does not fit).
// What both epilogues (store, store_staged) make of a thread's accumulators.
// Gated: output column jo's biases (gate b13[jo], up b13[I + jo]) and act(gate + bg, up + bu).
template <Activation A>
struct GatedValues {
  float bg, bu, limit, alpha;
  __device__ __forceinline__ GatedValues(const EpiArgs& ep, int g, int jo, int N) : limit(ep.act.limit), alpha(ep.act.alpha) {
    const float* b = ep.act.b13 ? ep.act.b13 + size_t(g) * size_t(N) : nullptr;
    bg = b ? __ldg(b + jo) : 0.0f;
    bu = b ? __ldg(b + N / 2 + jo) : 0.0f;
  }
  __device__ __forceinline__ float operator()(float gate, float up) const {
    return act::act_fn<A>(gate + bg, up + bu, limit, alpha);
  }
};
// Plain D (the accumulator) and relu2 (relu(acc + b13[n])^2, a has N = I columns): the biases of
// weight rows na and nb (0 past N or without b13).
template <LargeTmaOut O>
struct PlainValues {
  float ba = 0.0f, bb = 0.0f, limit, alpha;
  __device__ __forceinline__ PlainValues(const EpiArgs& ep, int g, int na, int nb, int N)
      : limit(ep.act.limit), alpha(ep.act.alpha) {
    if constexpr (O == LargeTmaOut::kAct) {
      const float* b = ep.act.b13 ? ep.act.b13 + size_t(g) * size_t(N) : nullptr;
      ba = b && na < N ? __ldg(b + na) : 0.0f;
      bb = b && nb < N ? __ldg(b + nb) : 0.0f;
    }
  }
  __device__ __forceinline__ float operator()(float v, float bias) const {
    if constexpr (O == LargeTmaOut::kAct) return act::act_fn<Activation::kReLU2>(v + bias, 0.0f, limit, alpha);
    else return v;
  }
};

template <int NT, LargeTmaOut O, Activation A>
__device__ __forceinline__ void store(const EpiArgs& ep, const float (&acc)[NT / 2], int lane, int g, int n_warp,
                                      int t0, int rows, int N) {
  const int gq = lane >> 2, tig = lane & 3, odd = gq & 1;
  const int na = n_warp + gq, nb = na + 8;
  auto write = [&](int col, int n, float v) {
    const size_t idx = size_t(t0 + col) * size_t(ep.ldd) + size_t(n);
    if constexpr (O == LargeTmaOut::kF32) static_cast<float*>(ep.D)[idx] = v;
    else static_cast<__nv_bfloat16*>(ep.D)[idx] = __float2bfloat16_rn(v);
  };
  auto write2 = [&](int col, int n, float lo, float hi) {  // n even
    const size_t idx = size_t(t0 + col) * size_t(ep.ldd) + size_t(n);
    if constexpr (O == LargeTmaOut::kF32)  // one 8-byte store (a float2 after the selects split in two)
      *reinterpret_cast<unsigned long long*>(static_cast<float*>(ep.D) + idx) =
          (static_cast<unsigned long long>(__float_as_uint(hi)) << 32) | __float_as_uint(lo);
    else
      *reinterpret_cast<__nv_bfloat162*>(static_cast<__nv_bfloat16*>(ep.D) + idx) = __floats2bfloat162_rn(lo, hi);
  };
  // Values v0 (token 8 j + 2 tig) and v1 (the next token) of column n of an output of `cols` columns.
  auto emit = [&](int j, int n, int cols, float v0, float v1) {
    const float recv = __shfl_xor_sync(0xffffffffu, odd ? v0 : v1, 4);
    const int col = j * 8 + 2 * tig + odd, n0 = n - odd;  // n0: the pair's even column
    const float lo = odd ? recv : v0, hi = odd ? v1 : recv;
    if (col >= rows) return;
    if (ep.stores != kStoresSingle) {
      if (n0 < cols) write2(col, n0, lo, hi);
    } else {
      if (n0 < cols) write(col, n0, lo);
      if (n0 + 1 < cols) write(col, n0 + 1, hi);
    }
  };
  if constexpr (O == LargeTmaOut::kAct && A != Activation::kReLU2) {
    // Gated: physical rows na (gate) and nb (up) are output column jo. N % 16 == 0: a warp's 16
    // rows are all in or all out.
    if (n_warp >= N) return;
    const int I = N / 2, jo = int(gate_up::output_col(na));
    const GatedValues<A> gated(ep, g, jo, N);
#pragma unroll
    for (int j = 0; j < NT / 8; ++j) {
      if (j * 8 >= rows) break;  // warp-uniform
      emit(j, jo, I, gated(acc[4 * j], acc[4 * j + 2]), gated(acc[4 * j + 1], acc[4 * j + 3]));
    }
  } else {
    const PlainValues<O> value(ep, g, na, nb, N);
    const float ba = value.ba, bb = value.bb;
#pragma unroll
    for (int j = 0; j < NT / 8; ++j) {
      if (j * 8 >= rows) break;  // warp-uniform
      emit(j, na, N, value(acc[4 * j], ba), value(acc[4 * j + 1], ba));
      emit(j, nb, N, value(acc[4 * j + 2], bb), value(acc[4 * j + 3], bb));
    }
  }
}

// The staged form of store() (bf16 outputs; the same float operations, so the same bits), through
// the warp's 2048-byte scratch (staged_epilogue.cuh): plain / relu2 as two groups of 8 columns
// (weight rows na = n_warp + gq and nb = na + 8: columns n_warp .. and n_warp + 8 .., a group past
// the output's N columns, a multiple of 8, is not stored); gated as one group of 8 output columns
// (gate_up::output_col(n_warp + gq) = n_warp / 2 + gq).
template <int NT, LargeTmaOut O, Activation A>
__device__ __forceinline__ void store_staged(const EpiArgs& ep, const float (&acc)[NT / 2], uint32_t scratch,
                                             int lane, int g, int n_warp, int t0, int rows, int N) {
  static_assert(O != LargeTmaOut::kF32, "the staged epilogue stores bf16");
  __nv_bfloat16* const D = static_cast<__nv_bfloat16*>(ep.D);
  const size_t ldd = size_t(ep.ldd);
  const int gq = lane >> 2;
  if constexpr (O == LargeTmaOut::kAct && A != Activation::kReLU2) {
    if (n_warp >= N) return;  // N % 16 == 0: the warp's 16 rows are all in or all out
    const int jo0 = n_warp / 2;
    const GatedValues<A> gated(ep, g, jo0 + gq, N);
    auto pair = [&](int j) {
      return staged::pack_bf16x2(gated(acc[4 * j], acc[4 * j + 2]), gated(acc[4 * j + 1], acc[4 * j + 3]));
    };
    staged::store_one_group<NT / 8>(scratch, lane, pair, D + jo0, ldd, t0, rows);
  } else {
    const PlainValues<O> value(ep, g, n_warp + gq, n_warp + gq + 8, N);
    auto pair = [&](int j, int h) {
      const float bias = h ? value.bb : value.ba;
      return staged::pack_bf16x2(value(acc[4 * j + 2 * h], bias), value(acc[4 * j + 2 * h + 1], bias));
    };
    staged::store_two_groups<NT / 8>(scratch, lane, pair, n_warp < N ? D + n_warp : nullptr,
                                     n_warp + 8 < N ? D + n_warp + 8 : nullptr, ldd, t0, rows);
  }
}

// The pass's epilogue: the activation picked at run time (one K loop for the four).
// kStaged: through `scratch` (store_staged), else straight from registers (store).
template <int NT, LargeTmaOut O, bool kStaged>
__device__ __forceinline__ void store_pass(const EpiArgs& ep, const float (&acc)[NT / 2], uint32_t scratch, int lane,
                                           int g, int n_warp, int t0, int rows, int N) {
  auto one = [&](auto act_tag) {
    constexpr Activation kA = decltype(act_tag)::value;
    if constexpr (kStaged) store_staged<NT, O, kA>(ep, acc, scratch, lane, g, n_warp, t0, rows, N);
    else store<NT, O, kA>(ep, acc, lane, g, n_warp, t0, rows, N);
  };
  using SwiGLU = std::integral_constant<Activation, Activation::kSwiGLU>;
  if constexpr (O != LargeTmaOut::kAct) {
    one(SwiGLU{});
  } else {
    switch (ep.act.activation) {
      case Activation::kSwiGLU: one(SwiGLU{}); break;
      case Activation::kSwiGLUOAI: one(std::integral_constant<Activation, Activation::kSwiGLUOAI>{}); break;
      case Activation::kGeGLU: one(std::integral_constant<Activation, Activation::kGeGLU>{}); break;
      default: one(std::integral_constant<Activation, Activation::kReLU2>{}); break;
    }
  }
}

// Whether passes of NT tokens (a two-MMA pass: 2 NT) may stage their stores (kStagedMinTok).
template <int NT, LargeTmaOut O>
constexpr bool kMayStage = O != LargeTmaOut::kF32 && NT >= kStagedMinTok;

template <int NT, LargeTmaOut O>
__device__ __forceinline__ void run_pass(const EpiArgs& ep, Barriers& bars, uint32_t base, int warp, int lane, int KT,
                                         uint32_t& step, int g, int n_warp, int t0, int rows, int N) {
  float acc[NT / 2];
  const int c = warp / 4;
  const bool staged = kMayStage<NT, O> && ep.stores == kStoresStaged;
  consume_pass<NT>(acc, acc, bars, base, c, lane, KT, step, staged);
  if constexpr (kMayStage<NT, O>) {
    if (staged) {
      const uint32_t scratch = hold_scratch(base, step, c, warp);
      store_pass<NT, O, true>(ep, acc, scratch, lane, g, n_warp, t0, rows, N);
      release_held(bars, step, c, lane);
      return;
    }
  }
  store_pass<NT, O, false>(ep, acc, 0u, lane, g, n_warp, t0, rows, N);
}

// A pass of NH + 1 .. 2 NH tokens (pass mode 2): two accumulator arrays of one MMA width, the second
// for tokens t0 + NH ...
template <int NH, LargeTmaOut O>
__device__ __forceinline__ void run_pass_two(const EpiArgs& ep, Barriers& bars, uint32_t base, int warp, int lane,
                                             int KT, uint32_t& step, int g, int n_warp, int t0, int rows, int N) {
  float acc[NH / 2], acc2[NH / 2];
  const int c = warp / 4;
  const bool staged = kMayStage<2 * NH, O> && ep.stores == kStoresStaged;
  consume_pass<NH, true>(acc, acc2, bars, base, c, lane, KT, step, staged);
  if constexpr (kMayStage<2 * NH, O>) {
    if (staged) {  // both halves through the one scratch (store_staged ends on a __syncwarp)
      const uint32_t scratch = hold_scratch(base, step, c, warp);
      store_pass<NH, O, true>(ep, acc, scratch, lane, g, n_warp, t0, NH, N);
      store_pass<NH, O, true>(ep, acc2, scratch, lane, g, n_warp, t0 + NH, rows - NH, N);
      release_held(bars, step, c, lane);
      return;
    }
  }
  store_pass<NH, O, false>(ep, acc, 0u, lane, g, n_warp, t0, NH, N);
  store_pass<NH, O, false>(ep, acc2, 0u, lane, g, n_warp, t0 + NH, rows - NH, N);
}

template <LargeTmaOut O>
__global__ void __launch_bounds__(kThreads, 1)
    bf16_large_tma_kernel(const __grid_constant__ CUtensorMap tm_x, const __grid_constant__ CUtensorMap tm_w,
                          const int32_t* __restrict__ offsets, EpiArgs ep, int N, int K, int G, int mode,
                          int pgroup, int* __restrict__ sched, bool early_draw) {
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

  TileWalk walk(offsets, G, nblk, mode, int(blockIdx.x), int(gridDim.x), pgroup);
  uint32_t step = 0;  // CTA-wide step counter: the same sequence in both roles
  if (warp >= kConsumerWarps) {
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (warp != kIssuerWarp || lane != 0) return;
    ptx::prefetch_tensormap(&tm_x);
    ptx::prefetch_tensormap(&tm_w);
    // Static order: the CTA's own sequence. Dynamic (sched != null): the next ticket of the launch's
    // counter, so a CTA whose tiles ran short takes more (tiles of different widths take different
    // times; a fixed stride can give one CTA all the wide ones); the ticket rides with the tile's
    // first stage to the consumers.
    TileTickets tickets(sched);  // dynamic order only
    auto draw = [&]() { return tickets.draw(); };
    auto wait_free = [&](uint32_t i) {  // the stage of step i is free (its previous use released)
      const uint32_t use = i / kStages;
      if (use > 0) ptx::mbar_wait(smem_u32(&bars.empty[i % kStages]), (use - 1) & 1u, kTimeoutNs);
    };
    // When the next ticket is drawn (dynamic order):
    //   default:    once the stage of the tile's first step is free: a CTA takes a tile only when it
    //               can start loading it (a tile drawn earlier waits for that stage, near the launch's
    //               end while other CTAs find none left); a tile then pays the stage wait and the
    //               atomic's round trip one after the other;
    //   early_draw: right after the previous tile's last step is issued, so the round trip overlaps
    //               the wait for the stage.
    const bool early = sched != nullptr && early_draw;
    int ticket = early ? draw() : 0;
    for (;;) {
      bool first_free = false;  // the stage of the tile's first step waited for
      if (!early) {
        wait_free(step);
        first_free = true;
        if (sched != nullptr) ticket = draw();
      }
      if (!(sched != nullptr ? walk.at(ticket) : walk.next())) {
        if (sched != nullptr) {  // the past-the-end ticket, in the next stage once free, without loads
          if (!first_free) wait_free(step);
          const uint32_t s = step % kStages;
          bars.ticket[s] = ticket;
          ptx::mbar_arrive(smem_u32(&bars.full[s]));
        }
        break;
      }
      ++tickets.run;
      // Every box starts inside the pass (t0 + 32 b < t0 + rows <= offsets[G] <= rows_bound); the
      // last may run past the tensor's rows (zero fill).
      const int boxes = token_boxes(walk.rows);
      for (int kt = 0; kt < KT; ++kt, ++step) {
        const uint32_t s = step % kStages, use = step / kStages;
        if ((kt > 0 || !first_free) && use > 0) ptx::mbar_wait(smem_u32(&bars.empty[s]), (use - 1) & 1u, kTimeoutNs);
        if (kt == 0 && sched != nullptr) bars.ticket[s] = ticket;  // before the arrival that publishes it
        const uint32_t full = smem_u32(&bars.full[s]), st = base + s * uint32_t(kStageBytes);
        ptx::mbar_arrive_expect_tx(full, uint32_t(kWBytes + boxes * kTokBoxBytes));  // zero-filled bytes count too
        ptx::tma_load_3d(st, &tm_w, full, kt * kBK, walk.blk * kWRows, walk.g);
        for (int b = 0; b < boxes; ++b)
          ptx::tma_load_2d(st + uint32_t(kWBytes + b * kTokBoxBytes), &tm_x, full, kt * kBK, walk.t0 + b * kTokBox);
      }
      if (early) ticket = draw();
    }
    // The CTA's last ticket is drawn: walk.base is the launch's tile count once the walk is past its
    // end (common/tile_tickets.cuh checks it and resets the counter for the next launch).
    if (sched != nullptr) tickets.finish(walk.base);
    return;
  }

  ptx::setmaxnreg_inc<kConsumerRegs>();  // warpgroup c = warp / 4: weight rows 64 c .. 64 c + 63 of the tile
  // Dynamic order: the ticket in the stage of the tile's first step (its full barrier's wait, which
  // the K loop repeats at once, orders the read).
  auto next_tile = [&]() -> bool {
    if (sched == nullptr) return walk.next();
    const uint32_t s = step % kStages;
    ptx::mbar_wait(smem_u32(&bars.full[s]), (step / kStages) & 1u, kTimeoutNs);
    // Lane 0 reads the ticket and passes it on in registers: lane 0 is the lane that later arrives on
    // the stage's empty barrier, so the read is ordered before the producer's next write of the slot
    // by program order (a read by every lane was not: nothing orders lanes 1..31's reads before lane
    // 0's arrival, and racecheck reported it, session 51).
    int ticket = 0;
    if (lane == 0) ticket = bars.ticket[s];
    return walk.at(__shfl_sync(0xffffffffu, ticket, 0));
  };
  while (next_tile()) {
    const int n_warp = walk.blk * kWRows + warp * 16;  // the warp's first weight row (16 a warp)
    const int g = walk.g, t0 = walk.t0, rows = walk.rows;
    if (rows > kMaxTok) {  // pass mode 2: two MMAs, on rows 0..143 / 144..287 or 0..159 / 160..319
      if (rows <= 288) run_pass_two<144, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N);
      else run_pass_two<160, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N);
      continue;
    }
    switch (token_boxes(rows)) {  // one accumulator array per MMA width: MMAs of different N sharing
                                  // one array made ptxas serialise them (warning C7512)
      case 1: run_pass<32, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 2: run_pass<64, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 3: run_pass<96, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 4: run_pass<128, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 5: run_pass<160, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 6: run_pass<192, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N); break;
      case 7: run_pass<224, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N); break;
      default: run_pass<256, O>(ep, bars, base, warp, lane, KT, step, g, n_warp, t0, rows, N); break;
    }
  }
}

// Encodes the two tensor maps and launches the persistent grid (at most one CTA per SM); the caller
// checked the arguments.
template <LargeTmaOut O>
cudaError_t launch_impl(const Bf16LargeTmaArgs& a, int64_t rows_bound, int mode, int pgroup, int stores, int* sched,
                        bool early_draw, cudaStream_t stream) {
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
  const int64_t tiles = max_tiles(a.N, a.num_groups, rows_bound);  // a CTA without a tile exits at once
  const int grid = int(std::min<int64_t>(tiles, cu::current_sm_count()));
  const EpiArgs ep{a.D, a.ldd, a.act, stores};
  // pgroup == kPassGroupAuto: the pass group for this grid (auto_pass_group).
  kernel<<<grid, kThreads, kSmem, stream>>>(tx, tw, a.offsets, ep, int(a.N), int(a.K), a.num_groups, mode,
                                            pgroup == kPassGroupAuto ? auto_pass_group(grid) : pgroup, sched, early_draw);
  return cudaGetLastError();
}

}  // namespace

// One translation unit each (they compile in parallel): fp32 / bf16 D (grouped_gemm_bf16_large_tma.cu),
// the activation epilogue (grouped_gemm_bf16_large_tma_act.cu).
cudaError_t launch_plain(const Bf16LargeTmaArgs& a, int64_t rows_bound, int mode, int pgroup, int stores, int* sched,
                         bool early_draw, cudaStream_t stream);
cudaError_t launch_act(const Bf16LargeTmaArgs& a, int64_t rows_bound, int mode, int pgroup, int stores, int* sched,
                       bool early_draw, cudaStream_t stream);

}  // namespace megamoe::sm90::bf16_large
