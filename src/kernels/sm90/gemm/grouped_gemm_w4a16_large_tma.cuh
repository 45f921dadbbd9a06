// W4A16 grouped GEMM, warp-specialised large tactic (grouped_gemm_w4a16.h, kLargeTma): a
// producer warpgroup moves and decodes, two consumer warpgroups only multiply.
//
// Work: tiles of 128 weight rows x one expert (swap-AB as the other tactics: weight rows are
// wgmma's M, tokens its N), handed out persistently (tile t = blockIdx.x + i * gridDim.x, expert
// rank major, so the CTAs of one wave share an expert's token rows in L2). A tile runs its
// expert's rows in passes of up to 320 tokens (wgmma N = 64, 128, 192 or 256: the pass's rows
// rounded up to 64; 257..320 rows as two MMAs of N = 160 on the halves of the token tile), every
// pass a full K loop of 64-wide steps that decodes the tile's weights again. Why 320: at T = 8192
// deepseek-v3 and gpt-oss-120b experts hold 256 +- 16 rows, and with passes of 256 about half of
// them paid a second pass (a full decode for a few rows: ~1100 cycles per step at N = 64 against
// ~1600 at N = 256); mixtral-8x7b's ~2048 rows take 7 passes instead of 8-9.
//
// Warp roles (384 threads, one CTA per SM):
//   warp 0, lanes 0-1  TMA issuers: lane 0 per step the pass's token rows (boxes of 64 rows x 64 K
//                    bf16, 128-byte swizzle), lane 1 the tile's packed codes (two boxes of 64 rows
//                    x 32 bytes) and scales (two bulk copies), each into its own ring
//   warps 1-3        decoders: the e2m1 codes + scales of a stage -> bf16 weights (decode_step,
//                    the register decode every W4A16 tactic uses), written by stmatrix into the
//                    step's A buffer in the swizzled K-major layout wgmma reads from shared memory
//   warps 4-7, 8-11  consumers (warpgroup c): 4 wgmma m64nNk16 per step, both operands from
//                    shared memory (A = warpgroup c's 64 decoded rows, B = the stage's token
//                    tile), one wgmma group in flight across steps, fp32 accumulators (N/2 a
//                    thread). Epilogue: bf16 outputs of passes of >= 128 tokens staged (EpiArgs::
//                    staged, the default): packed to bf16 pairs, written by stmatrix .trans into
//                    the warp's own 16 A rows of the pass's last A buffer, which the consumers
//                    hold (no dempty arrival) until the stores are done, and stored 16 bytes (8
//                    columns of a token) a lane; fp32 D, narrower passes and large_tma_staged = 0
//                    straight from the registers, one element a store
// The producer warpgroup gives registers to the consumers (setmaxnreg 56 / 224: 128 x 56 +
// 256 x 224 = 64512 of the SM's 65536). Both operands in shared memory keep the consumers'
// registers to the accumulators: with A in registers (double-buffered fragments) ptxas ran out of
// the 168 registers a 384-thread kernel compiles to and serialised the MMAs (warning C7512).
//
// Shared memory (dynamic, 1024-byte aligned), three rings:
//   kXStages x 40 KB token tiles (320 rows x 128 B, SW128, the K-major layout the B descriptor
//                   reads), written by TMA, freed by the consumers once their MMAs are done
//   kABufs x 16 KB A buffers: per warpgroup 64 rows x 64 K bf16, SW128 (the A descriptor),
//                   written by the decoders, freed by the consumers once their MMAs are done; a
//                   staged pass's last buffer only once its epilogue's stores are done (the
//                   scratch: virtual warp vw's 2048 bytes at + vw * 2048), so while those are in
//                   flight the decoders run at most 2 buffers ahead instead of 3
//   kWStages x 4.5 KB codes + scales: packed codes (two halves of 64 rows x 32 B, fragment order),
//                   then the scale tile (two halves of 64 rows), written by TMA, freed by the
//                   decoders (3 deep: what the 40 KB token stages leave)
// Barriers: a full / empty pair per slot of each ring: xfull / wfull (TMA transaction bytes),
// xempty (8 consumer warps), wempty and dfull (the 96 decoder lanes), dempty (8 consumer warps).
// Every wait is bounded (ptx::mbar_wait traps after kTimeoutNs: a lost TMA becomes a launch error,
// not a hung GPU).
//
// Tile rows: a tile is two halves of 64 weight rows, loaded as two TMA boxes (and two scale
// copies). Half 0 is tile rows 0..63, half 1 rows 64..127; virtual warp vw (warp vw % 4 of
// warpgroup vw / 4) has A rows 16 (vw % 4) + gq and + 8 (accumulator rows of lane group gq), and
// the decoders fill them with tile rows 8 vw + gq (half 0) and 64 + 8 vw + gq (half 1), so every
// consumer thread holds each accumulator of half 0 next to the same position of half 1. Plain outputs: half 1 follows
// half 0 (weight rows n0 .. n0 + 127). Gated FC1 with the activation epilogue: half 0 is gate
// rows j0 .. j0 + 63 of canonical W13 ([gate | up]) and half 1 the up rows I + j0 .., so a thread
// holds h[gate j] and h[up j] of the same token and applies the activation in registers: no fp32
// h in memory, and no re-layout of the weights (the Mega kernel reads the same canonical W13).
//
// Why a producer decode: with the decode in the MMA warps (kLarge), each step is decode -> MMA
// -> wait in one instruction stream, and two CTAs per SM must hide each other's decode (ncu:
// tensor pipe 60% active at T = 8192). Here the decode runs one to two steps ahead in other
// warps, and the token tile comes by TMA instead of every thread's cp.async (the L1 path free).
// Measured (H200, docs/BENCHMARKS.md): faster than kLarge from about 256 rows per expert (where
// w4a16_pick_tactic switches), slower below 128; a 64-K step takes ~1600 cycles at N = 256
// against ~1290 at the MMA ceiling, and neither the decode warps nor the ring depths alone
// explain the difference (the variants tried are listed there). What the decoders add beside the
// MMAs is on the critical path: dealing a step out in k16 units (11 / 11 / 10 blocks a warp
// instead of 12 / 12 / 8, but about twice the instructions a block) ran 0.72x, a rolled loop
// that loads the next virtual warp's codes before decoding the current one 0.955x, and four decoder
// warps (2 virtual warps each, warp 0's lane 0 issuing the loads from inside the decode loop) 0.78x
// (session 57, H100), and in a second form (codes two steps ahead, the token tile one) 0.751x
// (session 58, H100).
#pragma once
#include <algorithm>

#include <cuda.h>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16_common.cuh"
#include "kernels/sm90/gemm/staged_epilogue.cuh"
#include "kernels/sm90/gemm/wgmma.cuh"
#include "kernels/sm90/moe/activation_math.cuh"

// Included by the tactic's translation units (grouped_gemm_w4a16_large_tma*.cu), each instantiating
// its own epilogues: internal linkage keeps them apart.
namespace megamoe::sm90::w4a16_tma {
namespace {

using namespace w4a16;

// What the epilogue writes: fp32 D, bf16 D, or the activation's bf16 a (FC1).
enum class Epi : uint8_t { kF32, kBf16, kSwiGLU, kSwiGLUOAI, kGeGLU, kReLU2 };
template <Epi E> constexpr bool kIsAct = E >= Epi::kSwiGLU;
template <Epi E> constexpr bool kGated = kIsAct<E> && E != Epi::kReLU2;
template <Epi E> constexpr Activation kAct = E == Epi::kSwiGLU      ? Activation::kSwiGLU
                                             : E == Epi::kSwiGLUOAI ? Activation::kSwiGLUOAI
                                             : E == Epi::kGeGLU     ? Activation::kGeGLU
                                                                    : Activation::kReLU2;

constexpr int kTmaThreads = 384;
constexpr int kWRows = 128;        // weight rows per tile: 2 consumer warpgroups x 64
constexpr int kMaxTok = 320;       // tokens per pass: wgmma's largest N (256), or two MMAs of 160
constexpr int kSplitN = 160;       // the MMA width of each half of a pass of 257..320 tokens
constexpr int kTokBox = 64;        // token rows per TMA box (a pass loads ceil(rows / 64) of them)
constexpr int kXStages = 4;        // token tiles in flight (TMA -> consumers)
constexpr int kWStages = 3;        // packed codes + scales of a step in flight (TMA -> decoders)
constexpr int kABufs = 3;          // decoded A tiles: decoders -> consumers (see consume_pass)
constexpr int kDecodeWarps = 3, kConsumerWarps = 8, kVirtualWarps = 8;  // 16 weight rows each
constexpr int kTokBoxBytes = kTokBox * kSmemRowBytes;                 // 8192
constexpr int kXBytes = kMaxTok * kSmemRowBytes;                      // 40960: one token stage
constexpr int kHalfRows = 64;      // weight rows per TMA box (one half of the tile)
constexpr int kWBytes = kWRows * kPackedRowBytes;                     // 4096
constexpr int kWHalfBytes = kHalfRows * kPackedRowBytes;              // 2048
constexpr int kWStageBytes = kWBytes + ScaleCfg<Fp4Scale::kNvfp4>::kTileBytes;  // 4608: codes, then scales
constexpr int kAWgBytes = 64 * kSmemRowBytes;                         // 8192: one warpgroup's 64 x 64 bf16
constexpr int kABytes = 2 * kAWgBytes;                                // 16384: both warpgroups' A tiles
constexpr int kAlignSlack = 1024;  // SW128 tiles start on 1024-byte boundaries
constexpr int kXOff = 0, kAOff = kXStages * kXBytes, kWOff = kAOff + kABufs * kABytes;
constexpr int kSmemTma = kAlignSlack + kWOff + kWStages * kWStageBytes;  // 222.5 KB
constexpr unsigned long long kTimeoutNs = ptx::kGemmWaitTimeoutNs;  // 4 s per wait
constexpr int kProducerRegs = 56, kConsumerRegs = 224;
static_assert(kXBytes % 1024 == 0 && kABytes % 1024 == 0, "SW128 tiles stay 1024-byte aligned");
static_assert(2 * kSplitN == kMaxTok && (kSplitN * kSmemRowBytes) % 1024 == 0,
              "the second half of a 320-token tile starts on an 8-row (1024-byte) SW128 atom");
static_assert(kWStageBytes % 128 == 0, "TMA boxes and bulk copies land 128-byte aligned");
static_assert(kSmemTma <= kMaxDynamicSmem, "fits the opt-in shared memory");
static_assert(kProducerRegs * 128 + kConsumerRegs * 256 <= 65536, "register file");
static_assert(kWRows == 2 * 64 && kVirtualWarps * 16 == kWRows, "two consumer warpgroups of m64");

// Three rings, each slot with a full / empty pair: token tiles (x), codes + scales (w), decoded A
// tiles (a; "full" = dfull, "empty" = dempty).
struct Barriers {
  uint64_t xfull[kXStages], xempty[kXStages], wfull[kWStages], wempty[kWStages], dfull[kABufs], dempty[kABufs];
};

using ptx::smem_u32;

// The first expert after g with at least one row, or G. Every role walks the experts with its own
// cursor, in the same order, so all agree on the tile sequence without talking to each other.
__device__ __forceinline__ int next_active_expert(const int32_t* __restrict__ offsets, int G, int g) {
  for (++g; g < G; ++g)
    if (__ldg(offsets + g + 1) > __ldg(offsets + g)) break;
  return g;
}

// The CTA's tile sequence: tile t = blockIdx.x + i * gridDim.x is row block t % nblk of the
// (t / nblk)-th expert with rows. next() returns false when the tiles are exhausted.
struct TileWalk {
  const int32_t* offsets;
  int G, nblk;
  int t, g = -1, rank = -1;
  int blk = 0, lo = 0, hi = 0;
  __device__ TileWalk(const int32_t* o, int G_, int nblk_) : offsets(o), G(G_), nblk(nblk_), t(int(blockIdx.x)) {}
  __device__ bool next() {
    const int want = t / nblk;
    while (rank < want) {
      g = next_active_expert(offsets, G, g);
      if (g >= G) return false;
      ++rank;
    }
    blk = t % nblk;
    lo = __ldg(offsets + g);
    hi = __ldg(offsets + g + 1);
    t += int(gridDim.x);
    return true;
  }
};

__device__ __forceinline__ int pass_boxes(int rows) { return (min(rows, kMaxTok) + kTokBox - 1) / kTokBox; }

// Consumer warpgroup c: one pass of N tokens (N / 64 boxes) over the K loop. `step` is the CTA-wide
// step counter (token stage = step % kXStages, A buffer = step % kABufs); it advances by KT. One
// wgmma group in flight: after issuing step i, wait for step i - 1's group, then free its token
// stage and its A buffer (wgmma reads both asynchronously, so neither is released earlier). The
// decoders fill A buffer i while groups i - 2 and i - 1 run (kABufs = 3): two groups of slack.
// kTwo: a pass of 2N tokens as two MMAs of width N per k16 block, on token rows 0..N-1 (acc) and
// N..2N-1 (acc2) of the stage, the same A descriptor.
// hold_last: the last step's A buffer stays held (its token stage is released as usual): the staged
// epilogue's scratch, freed by release_held_a.
template <int N, bool kTwo = false>
__device__ __forceinline__ void consume_pass(float (&acc)[N / 2], float (&acc2)[N / 2], Barriers& bars,
                                             uint32_t xbase, uint32_t abase, int c, int lane, int KT,
                                             uint32_t& step, bool hold_last) {
#pragma unroll
  for (int i = 0; i < N / 2; ++i) {
    acc[i] = 0.0f;
    if constexpr (kTwo) acc2[i] = 0.0f;
  }
  auto release = [&](uint32_t i, bool free_a) {
    if (lane == 0) {
      ptx::mbar_arrive(smem_u32(&bars.xempty[i % kXStages]));
      if (free_a) ptx::mbar_arrive(smem_u32(&bars.dempty[i % kABufs]));
    }
  };
  for (int kt = 0; kt < KT; ++kt) {
    const uint32_t i = step + uint32_t(kt);
    const uint32_t xs = i % kXStages, b = i % kABufs;
    ptx::mbar_wait(smem_u32(&bars.dfull[b]), (i / kABufs) & 1u, kTimeoutNs);
    ptx::mbar_wait(smem_u32(&bars.xfull[xs]), (i / kXStages) & 1u, kTimeoutNs);
    const uint64_t adesc = wgmma::sw128_desc(abase + b * uint32_t(kABytes) + uint32_t(c * kAWgBytes));
    const uint64_t bdesc = wgmma::sw128_desc(xbase + xs * uint32_t(kXBytes));
    const uint64_t bdesc2 = wgmma::sw128_desc(xbase + xs * uint32_t(kXBytes) + uint32_t(N * kSmemRowBytes));
    wgmma::mma_k64_ss<N, kTwo>(acc, acc2, adesc, bdesc, bdesc2);
    if (kt > 0) release(i - 1, true);
  }
  wgmma::wait<0>();
  wgmma::fence_acc(acc);
  if constexpr (kTwo) wgmma::fence_acc(acc2);
  step += uint32_t(KT);
  release(step - 1, !hold_last);
}

// The kernel's outputs and the epilogue's per-layer values.
struct EpiArgs {
  void* out;          // fp32 D / bf16 D [rows, N], or bf16 a [rows, I] (I = N / 2 gated, N relu2)
  const float* bias;  // activations: b13 [G, N] canonical, or null
  float limit, act_alpha;
  // bf16 outputs: passes of at least kStagedMinTok tokens store through shared memory, 16 bytes a
  // lane (store_staged; w4a16_large_tma_staged: the request, and `out` 16-byte aligned).
  bool staged;
};

// Base weight row (within the expert) of half h of row block blk.
template <Epi E>
__device__ __forceinline__ int half_row(int blk, int h, int N) {
  if constexpr (kGated<E>) return blk * kHalfRows + h * (N / 2);  // gate rows j0.., up rows I + j0..
  else return blk * kWRows + h * kHalfRows;
}

// A consumer thread's weight rows of the current tile and what its epilogue applies to them.
struct RowEpi {
  float al;      // the expert's alpha
  int na, nb;    // weight rows of accumulators q < 2 and q >= 2 (gated: gate row j and up row I + j)
  float ba, bb;  // their biases (activations with b13; else 0 and unused)
};

// One pass of NT tokens (t0 .. t0 + rows - 1): the K loop (consume_pass), then the epilogue.
// Accumulator 4j + q is weight row na (q < 2) or nb (q >= 2), token 8j + 2tig + q % 2.
// h = alpha * acc rounded once (__fmul_rn: never contracted into an FMA with the bias), then
// + bias and the activation: the float operations of fp32 D followed by launch_activation.
template <int NT, Epi E>
__device__ __forceinline__ void epilogue(const EpiArgs& ep, const float (&acc)[NT / 2], int lane, const RowEpi& rw,
                                         int t0, int rows, int N) {
  const int tig = lane & 3;
#pragma unroll
  for (int j = 0; j < NT / 8; ++j) {
    if (j * 8 >= rows) break;
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      const int col = j * 8 + 2 * tig + q;
      if (col >= rows) continue;
      const size_t t = size_t(t0 + col);
      float ha = __fmul_rn(rw.al, acc[4 * j + q]), hb = __fmul_rn(rw.al, acc[4 * j + q + 2]);
      if constexpr (kIsAct<E>) {
        if (ep.bias) {
          ha = __fadd_rn(ha, rw.ba);
          hb = __fadd_rn(hb, rw.bb);
        }
      }
      if constexpr (kGated<E>) {
        const int I = N / 2;  // na is gate row j (< I), nb its up row I + j
        static_cast<__nv_bfloat16*>(ep.out)[t * size_t(I) + size_t(rw.na)] =
            __float2bfloat16_rn(act::act_fn<kAct<E>>(ha, hb, ep.limit, ep.act_alpha));
      } else {
        auto put = [&](int n, float h) {
          if (n >= N) return;
          const size_t idx = t * size_t(N) + size_t(n);
          if constexpr (E == Epi::kF32) static_cast<float*>(ep.out)[idx] = h;
          else if constexpr (E == Epi::kBf16) static_cast<__nv_bfloat16*>(ep.out)[idx] = __float2bfloat16_rn(h);
          else static_cast<__nv_bfloat16*>(ep.out)[idx] =  // relu2: a has N = I columns
                   __float2bfloat16_rn(act::act_fn<Activation::kReLU2>(h, 0.0f, ep.limit, ep.act_alpha));
        };
        put(rw.na, ha);
        put(rw.nb, hb);
      }
    }
  }
}

// The staged epilogue (EpiArgs::staged; bf16 outputs, passes of at least kStagedMinTok tokens;
// smaller passes and fp32 D store directly). epilogue() stores one bf16 a lane: a warp store
// instruction writes 2 bytes in each of 8 token rows. Staged: the warp packs its values into bf16
// pairs, writes them transposed with stmatrix .trans into 2048 bytes of scratch, so that memory rows
// are token rows, and reads them back 16 bytes a lane (8 output columns of one token; the helpers of
// staged_epilogue.cuh): one 16-byte store per lane for 16 tokens x 16 weight rows instead of eight
// 2-byte ones.
// Scratch: the warp's own 16 A rows (16 (vw % 4) .. + 15 of warpgroup c's tile, abase + b kABytes +
// vw * 2048) of the pass's last A buffer, which only its warpgroup's wgmma reads. The consumers hold
// that buffer (consume_pass's hold_last: no dempty arrival after the K loop; the token stage is
// released as usual), meet at their warpgroup's named barrier (every wgmma of the warpgroup has
// completed, not just the warp's own wait), write the scratch, and release the buffer after a proxy
// fence and a second warpgroup barrier (release_held_a). While a buffer is held the decoders run at
// most 2 buffers ahead instead of 3: they decode the next pass's first two steps and then wait for
// the epilogue, which only passes of 2+ boxes (>= 128 tokens, long enough per step to cover that)
// pay; narrower passes store directly.
constexpr int kStagedMinTok = 128;
static_assert(staged::kScratchBytes == 16 * kSmemRowBytes && 4 * staged::kScratchBytes == kAWgBytes,
              "the scratch: a warp's 16 A rows, four warps to a warpgroup's tile");

// Whether passes of NT tokens (a two-MMA pass: 2 NT) may stage their stores.
template <int NT, Epi E>
constexpr bool kMayStage = E != Epi::kF32 && NT >= kStagedMinTok;

// The scratch of virtual warp vw in the pass's held last A buffer (step - 1). Before writing it,
// every MMA of warpgroup c must be done reading the buffer: the warpgroup's named barrier after each
// warp's wgmma wait (wait_group orders only the warp's own MMAs).
__device__ __forceinline__ uint32_t hold_scratch(uint32_t abase, uint32_t step, int c, int vw) {
  ptx::warpgroup_barrier(c);
  return abase + ((step - 1) % kABufs) * uint32_t(kABytes) + uint32_t(vw * staged::kScratchBytes);
}

// After the staged stores: the warp frees the held A buffer for the decoders (staged::release_scratch).
__device__ __forceinline__ void release_held_a(Barriers& bars, uint32_t step, int c, int lane) {
  staged::release_scratch(smem_u32(&bars.dempty[(step - 1) % kABufs]), c, lane);
}

// The staged form of epilogue() (the same float operations, so the same bits). Plain outputs
// (bf16 D, relu2's a; dense [rows, N], the row stride N) as two groups of 8 columns: the warp's rows
// of half 0 (columns rw.na - gq .. + 7) and of half 1 (rw.nb - gq .., 64 columns on; not stored
// when past N: the last tile of an N % 128 == 64 matrix has one half). Gated: one group of 8 output
// columns rw.na - gq .. + 7 of a [rows, I], from the gate (q < 2) and up (q >= 2) accumulators.
template <int NT, Epi E>
__device__ __forceinline__ void store_staged(const EpiArgs& ep, const float (&acc)[NT / 2], uint32_t scratch,
                                             int lane, const RowEpi& rw, int t0, int rows, int N) {
  static_assert(E != Epi::kF32, "the staged epilogue stores bf16");
  __nv_bfloat16* const out = static_cast<__nv_bfloat16*>(ep.out);
  const int gq = lane >> 2;
  // h of accumulator i for weight row bias `bias` (activations with b13), as epilogue() forms it.
  auto h_of = [&](int i, float bias) {
    float h = __fmul_rn(rw.al, acc[i]);
    if constexpr (kIsAct<E>) {
      if (ep.bias) h = __fadd_rn(h, bias);
    }
    return h;
  };
  if constexpr (kGated<E>) {
    const int I = N / 2;  // na is gate row j (< I), nb its up row I + j
    auto pair = [&](int j) {
      return staged::pack_bf16x2(
          act::act_fn<kAct<E>>(h_of(4 * j, rw.ba), h_of(4 * j + 2, rw.bb), ep.limit, ep.act_alpha),
          act::act_fn<kAct<E>>(h_of(4 * j + 1, rw.ba), h_of(4 * j + 3, rw.bb), ep.limit, ep.act_alpha));
    };
    staged::store_one_group<NT / 8>(scratch, lane, pair, out + (rw.na - gq), size_t(I), t0, rows);
  } else {
    auto value = [&](int i, float bias) {
      const float h = h_of(i, bias);
      if constexpr (E == Epi::kReLU2)  // relu2: a has N = I columns
        return act::act_fn<Activation::kReLU2>(h, 0.0f, ep.limit, ep.act_alpha);
      else
        return h;
    };
    auto pair = [&](int j, int half) {  // accumulators 4j + 2 half (+ 1): row na (half 0) or nb (half 1)
      const float bias = half ? rw.bb : rw.ba;
      return staged::pack_bf16x2(value(4 * j + 2 * half, bias), value(4 * j + 2 * half + 1, bias));
    };
    const int col_a = rw.na - gq, col_b = rw.nb - gq;  // col_a < N always (N % 64 == 0)
    staged::store_two_groups<NT / 8>(scratch, lane, pair, out + col_a, col_b < N ? out + col_b : nullptr,
                                     size_t(N), t0, rows);
  }
}

template <int NT, Epi E>
__device__ __forceinline__ void run_pass(const EpiArgs& ep, Barriers& bars, uint32_t xbase, uint32_t abase,
                                         int c, int vw, int lane, int KT, uint32_t& step, const RowEpi& rw, int t0,
                                         int rows, int N) {
  float acc[NT / 2];
  const bool staged = kMayStage<NT, E> && ep.staged;
  consume_pass<NT>(acc, acc, bars, xbase, abase, c, lane, KT, step, staged);
  if constexpr (kMayStage<NT, E>) {
    if (staged) {
      const uint32_t scratch = hold_scratch(abase, step, c, vw);
      store_staged<NT, E>(ep, acc, scratch, lane, rw, t0, rows, N);
      release_held_a(bars, step, c, lane);
      return;
    }
  }
  epilogue<NT, E>(ep, acc, lane, rw, t0, rows, N);
}

// A pass of kSplitN + 1 .. 2 kSplitN tokens: two accumulator arrays of the same MMA width (one width
// per function, as above), the second for tokens t0 + kSplitN ...
template <Epi E>
__device__ __forceinline__ void run_pass_two(const EpiArgs& ep, Barriers& bars, uint32_t xbase, uint32_t abase,
                                             int c, int vw, int lane, int KT, uint32_t& step, const RowEpi& rw,
                                             int t0, int rows, int N) {
  float acc[kSplitN / 2], acc2[kSplitN / 2];
  const bool staged = kMayStage<2 * kSplitN, E> && ep.staged;
  consume_pass<kSplitN, true>(acc, acc2, bars, xbase, abase, c, lane, KT, step, staged);
  if constexpr (kMayStage<2 * kSplitN, E>) {
    if (staged) {  // both halves through the one scratch (the store helpers end on a __syncwarp)
      const uint32_t scratch = hold_scratch(abase, step, c, vw);
      store_staged<kSplitN, E>(ep, acc, scratch, lane, rw, t0, kSplitN, N);
      store_staged<kSplitN, E>(ep, acc2, scratch, lane, rw, t0 + kSplitN, rows - kSplitN, N);
      release_held_a(bars, step, c, lane);
      return;
    }
  }
  epilogue<kSplitN, E>(ep, acc, lane, rw, t0, kSplitN, N);
  epilogue<kSplitN, E>(ep, acc2, lane, rw, t0 + kSplitN, rows - kSplitN, N);
}

template <Fp4Scale F, Epi E>
__global__ void __launch_bounds__(kTmaThreads, 1)
    w4a16_large_tma_kernel(const __grid_constant__ CUtensorMap tm_x, const __grid_constant__ CUtensorMap tm_w,
                           const uint8_t* __restrict__ S, const float* __restrict__ alpha,
                           const int32_t* __restrict__ offsets, EpiArgs ep, int N, int K, int G) {
  constexpr int kPerRow = ScaleCfg<F>::kPerRow;
  constexpr int kSHalfBytes = kHalfRows * kPerRow;  // one half's scale codes of a step: 128 or 256 B
  extern __shared__ uint8_t smem_raw[];
  __shared__ Barriers bars;
  const uint32_t raw = smem_u32(smem_raw);
  const uint32_t base = (raw + uint32_t(kAlignSlack - 1)) & ~uint32_t(kAlignSlack - 1);
  const uint32_t xbase = base + uint32_t(kXOff), abase = base + uint32_t(kAOff), wbase = base + uint32_t(kWOff);
  const uint8_t* wring = smem_raw + (wbase - raw);  // the codes + scales ring, for the decoders' loads
  const int warp = int(threadIdx.x) >> 5, lane = int(threadIdx.x) & 31;
  // Row blocks per expert: 128 rows (gated: 64 gate + 64 up rows, N = 2I, I % 64 == 0).
  const int KT = K / kBK, nblk = (N + kWRows - 1) / kWRows;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kXStages; ++s) {
      ptx::mbar_init(smem_u32(&bars.xfull[s]), 1);
      ptx::mbar_init(smem_u32(&bars.xempty[s]), kConsumerWarps);
    }
    for (int s = 0; s < kWStages; ++s) {
      ptx::mbar_init(smem_u32(&bars.wfull[s]), 1);
      ptx::mbar_init(smem_u32(&bars.wempty[s]), kDecodeWarps * 32);  // every decoder lane
    }
    for (int b = 0; b < kABufs; ++b) {
      ptx::mbar_init(smem_u32(&bars.dfull[b]), kDecodeWarps * 32);  // every decoder lane
      ptx::mbar_init(smem_u32(&bars.dempty[b]), kConsumerWarps);
    }
    ptx::mbar_fence_init();
  }
  __syncthreads();
  ptx::pdl_wait_then_release();  // the activations come from the previous kernel

  TileWalk walk(offsets, G, nblk);
  uint32_t step = 0;  // CTA-wide step counter, the same sequence in every role
  if (warp < 4) {
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (warp == 0) {
      // Two TMA issuers, each on its own ring: lane 0 the token tiles (released by the consumers),
      // lane 1 the codes and scales (released by the decoders, which run ahead of the consumers).
      // They share one loop and reconverge every step, so lane 1 issues step i's codes only after
      // lane 0 has issued step i - 1's tile; a loop of its own for each lane measured 1.005-1.007x
      // (run-to-run noise; H100, docs/BENCHMARKS.md session 57): the codes are not what is late.
      if (lane > 1) return;
      if (lane == 0) ptx::prefetch_tensormap(&tm_x);
      else ptx::prefetch_tensormap(&tm_w);
      while (walk.next()) {
        const int r0 = half_row<E>(walk.blk, 0, N), r1 = half_row<E>(walk.blk, 1, N);
        const bool two = r1 < N;  // plain outputs: the last block of an N % 128 == 64 matrix has one half
        const uint32_t wbytes = uint32_t((two ? 2 : 1) * (kWHalfBytes + kSHalfBytes));
        const uint8_t* sg = S + (size_t(walk.g) * size_t(KT) * size_t(N)) * kPerRow;
        for (int t0 = walk.lo; t0 < walk.hi; t0 += kMaxTok) {
          const int boxes = pass_boxes(walk.hi - t0);
          for (int kt = 0; kt < KT; ++kt, ++step) {
            if (lane == 0) {
              const uint32_t s = step % kXStages, use = step / kXStages;
              if (use > 0) ptx::mbar_wait(smem_u32(&bars.xempty[s]), (use - 1) & 1u, kTimeoutNs);
              const uint32_t full = smem_u32(&bars.xfull[s]), st = xbase + s * uint32_t(kXBytes);
              ptx::mbar_arrive_expect_tx(full, uint32_t(boxes * kTokBoxBytes));  // zero-filled rows count too
              for (int b = 0; b < boxes; ++b)
                ptx::tma_load_2d(st + uint32_t(b * kTokBoxBytes), &tm_x, full, kt * kBK, t0 + b * kTokBox);
            } else {
              const uint32_t s = step % kWStages, use = step / kWStages;
              if (use > 0) ptx::mbar_wait(smem_u32(&bars.wempty[s]), (use - 1) & 1u, kTimeoutNs);
              const uint32_t full = smem_u32(&bars.wfull[s]), st = wbase + s * uint32_t(kWStageBytes);
              ptx::mbar_arrive_expect_tx(full, wbytes);
              const uint8_t* sk = sg + size_t(kt) * size_t(N) * kPerRow;
              ptx::tma_load_2d(st, &tm_w, full, kt * kPackedRowBytes, walk.g * N + r0);
              ptx::bulk_load(st + uint32_t(kWBytes), sk + size_t(r0) * kPerRow, kSHalfBytes, full);
              if (two) {
                ptx::tma_load_2d(st + uint32_t(kWHalfBytes), &tm_w, full, kt * kPackedRowBytes, walk.g * N + r1);
                ptx::bulk_load(st + uint32_t(kWBytes + kSHalfBytes), sk + size_t(r1) * kPerRow, kSHalfBytes, full);
              }
            }
          }
        }
      }
      return;
    }
    // Decoders: warp 1..3 decodes virtual warps dw, dw + 3, dw + 6 (< 8) of every step. A single-half
    // tile decodes stale half-1 bytes too: those rows' results are never written.
    const int dw = warp - 1, gq = lane >> 2, tig = lane & 3;
    while (walk.next()) {
      for (int t0 = walk.lo; t0 < walk.hi; t0 += kMaxTok) {
        for (int kt = 0; kt < KT; ++kt, ++step) {
          const uint32_t ws = step % kWStages, b = step % kABufs;
          ptx::mbar_wait(smem_u32(&bars.wfull[ws]), (step / kWStages) & 1u, kTimeoutNs);
          if (step >= uint32_t(kABufs))
            ptx::mbar_wait(smem_u32(&bars.dempty[b]), ((step / kABufs) - 1) & 1u, kTimeoutNs);
          const uint8_t* wst = wring + ws * kWStageBytes;  // codes [128 rows x 32 B], then scales
          const uint8_t* ss = wst + kWBytes;
          const uint32_t adst = abase + b * uint32_t(kABytes);
          for (int vw = dw; vw < kVirtualWarps; vw += kDecodeWarps) {
            const int ra = vw * 8 + gq, rb = kHalfRows + ra;  // MMA rows gq and gq + 8
            const uint2 wa = *reinterpret_cast<const uint2*>(wst + ra * kPackedRowBytes + tig * 8);
            const uint2 wb = *reinterpret_cast<const uint2*>(wst + rb * kPackedRowBytes + tig * 8);
            uint32_t af[4][4];
            decode_step<F>(wa, wb, row_scale_codes<F>(ss, ra), row_scale_codes<F>(ss, rb), af);
            // stmatrix: af[k16] is matrices {rows 0-7, rows 8-15} x {k 0-7, k 8-15} of the warp's 16
            // A rows (16 (vw % 4) .. of warpgroup vw / 4's tile); lane l addresses row l % 8 of matrix
            // l / 8: A row 16 (vw % 4) + 8 (m & 1) + l % 8, 16-byte chunk 2 k16 + (m >> 1), SW128.
            const int m = lane >> 3, arow = (vw % 4) * 16 + (m & 1) * 8 + (lane & 7);
            const uint32_t rbase = adst + uint32_t((vw / 4) * kAWgBytes + arow * kSmemRowBytes);
#pragma unroll
            for (int k16 = 0; k16 < 4; ++k16) {
              const int chunk = (2 * k16 + (m >> 1)) ^ (arow & 7);
              ptx::stmatrix_x4(rbase + uint32_t(chunk * 16), af[k16][0], af[k16][1], af[k16][2], af[k16][3]);
            }
          }
          // Every lane releases its own reads of the codes and scales (the next TMA into this stage
          // is ordered after each reader's arrive: racecheck, which does not carry __syncwarp's
          // ordering over to another lane's arrive, flagged the lane-0-only release once the
          // ring wrapped within a test).
          ptx::mbar_arrive(smem_u32(&bars.wempty[ws]));
          ptx::fence_proxy_async_shared();  // the A tile is read by wgmma (async proxy)
          // Every lane publishes its own A writes too: the staged epilogue's consumer threads write
          // (stmatrix) the rows decoder lanes wrote, and racecheck orders those writes only by the
          // writing lane's own arrival (as wempty above).
          ptx::mbar_arrive(smem_u32(&bars.dfull[b]));  // A tile written
        }
      }
    }
    return;
  }

  // Consumers.
  ptx::setmaxnreg_inc<kConsumerRegs>();
  // Virtual warp vw = warp - 4 (warp vw % 4 of warpgroup c): tile rows 8 vw + gq and 64 + 8 vw + gq.
  const int vw = warp - 4, c = vw / 4, gq = lane >> 2;
  while (walk.next()) {
    RowEpi rw;
    rw.al = alpha ? __ldg(alpha + walk.g) : 1.0f;
    rw.na = half_row<E>(walk.blk, 0, N) + vw * 8 + gq;  // the weight rows of accumulators q < 2
    rw.nb = half_row<E>(walk.blk, 1, N) + vw * 8 + gq;  // and q >= 2
    rw.ba = rw.bb = 0.0f;
    if constexpr (kIsAct<E>) {
      if (ep.bias) {
        const float* br = ep.bias + size_t(walk.g) * size_t(N);
        rw.ba = __ldg(br + rw.na);
        if (rw.nb < N) rw.bb = __ldg(br + rw.nb);
      }
    }
    for (int t0 = walk.lo; t0 < walk.hi; t0 += kMaxTok) {
      const int rows = min(kMaxTok, walk.hi - t0);
      const int boxes = pass_boxes(rows);
      switch (boxes) {  // one accumulator array per MMA width: MMAs of different N sharing one
                        // array made ptxas serialise them (warning C7512)
        case 1: run_pass<64, E>(ep, bars, xbase, abase, c, vw, lane, KT, step, rw, t0, rows, N); break;
        case 2: run_pass<128, E>(ep, bars, xbase, abase, c, vw, lane, KT, step, rw, t0, rows, N); break;
        case 3: run_pass<192, E>(ep, bars, xbase, abase, c, vw, lane, KT, step, rw, t0, rows, N); break;
        case 4: run_pass<256, E>(ep, bars, xbase, abase, c, vw, lane, KT, step, rw, t0, rows, N); break;
        default: run_pass_two<E>(ep, bars, xbase, abase, c, vw, lane, KT, step, rw, t0, rows, N); break;
      }
    }
  }
}

// Encodes the two tensor maps and launches the persistent grid (at most one CTA per SM).
template <Fp4Scale F, Epi E>
cudaError_t launch_tma(const W4A16GemmArgs& a, const EpiArgs& ep, int64_t rows_bound, int grid_y,
                       cudaStream_t stream) {
  auto kernel = w4a16_large_tma_kernel<F, E>;
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemTma);
  if (attr != cudaSuccess) return attr;
  // Token rows [rows_bound, K] bf16: boxes of 64 K x 64 rows, 128-byte swizzle (the B tile).
  const cuuint64_t xd[2] = {cuuint64_t(a.K), cuuint64_t(rows_bound)};
  const cuuint64_t xs[1] = {cuuint64_t(a.K * 2)};
  const cuuint32_t xb[2] = {cuuint32_t(kBK), cuuint32_t(kTokBox)};
  const CUtensorMap tx = cu::encode_tensor_map(a.A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, xd, xs, xb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "w4a16", "A");
  // Packed codes [G * N, K / 2] bytes: boxes of one step (32 bytes) x 64 rows (half a tile), unswizzled.
  const cuuint64_t wd[2] = {cuuint64_t(a.K / 2), cuuint64_t(int64_t(a.num_groups) * a.N)};
  const cuuint64_t ws[1] = {cuuint64_t(a.K / 2)};
  const cuuint32_t wb[2] = {cuuint32_t(kPackedRowBytes), cuuint32_t(kHalfRows)};
  const CUtensorMap tw = cu::encode_tensor_map(a.W, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, wd, ws, wb,
                                               CU_TENSOR_MAP_SWIZZLE_NONE, "w4a16", "W");
  const int64_t tiles = cu::ceil_div<int64_t>(a.N, kWRows) * grid_y;
  const int grid = int(std::min<int64_t>(tiles, cu::current_sm_count()));
  kernel<<<grid, kTmaThreads, kSmemTma, stream>>>(tx, tw, a.scales, a.alpha, a.offsets, ep, int(a.N), int(a.K),
                                                  a.num_groups);
  return cudaGetLastError();
}

}  // namespace
}  // namespace megamoe::sm90::w4a16_tma
