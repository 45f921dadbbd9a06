// Grouped blockwise FP8 GEMM, our own warp-specialised kernel (grouped_gemm_fp8_blockwise.h,
// Fp8GemmTactic::kTma, and kTmaSmall: Geometry<1> below): the same product as the CUTLASS tactics,
// D = sum_kb (A . W^T)_kb * sa * sw,
// stored as fp32 or bf16 D (grouped_gemm_fp8_tma.cu), or, as FC1 of the fp8_block MoE, passed
// through the activation and quantized to FC2's input in the epilogue (grouped_gemm_fp8_tma_act.cu):
// a = bf16(act(h + b13)), then e4m3 codes + 1x128 scales, no h in memory.
//
// Work (Geometry<2>; Geometry<1> has one consumer warpgroup and tiles of 64 token rows, and is
// otherwise the same; WidePaired, the two-warpgroup kernels' default since session 58, runs two
// 128-row weight blocks a step: see Geometry below): tiles of up to 128 token rows of one expert
// (wgmma's M: two warpgroups of 64) x one 128-column block of the output, handed out persistently,
// tile t = (expert, column block, pass) with the pass fastest: the CTAs running the passes of one
// weight block run side by side, so the second reads it from L2. An expert of r rows has
// ceil(r / 128) passes; in the last one a warpgroup whose 64 rows hold no token only releases the
// stages. The two-warpgroup geometries draw their tiles from a launch-wide counter by default
// (Params::tile_counter, common/tile_tickets.cuh: the TMA lane takes the next ticket once the tile's
// first stage is free and leaves it in the stage for the scale warp and the consumers); Narrow keeps
// the static order t = blockIdx.x + i * gridDim.x. In the static order CTAs whose tiles ran short (an
// expert's last pass of few rows) drift ahead, and the passes of one weight block stop running side
// by side: deepseek-v3's FC1 at T = 8192 read 13.9 GB from DRAM for 7.5 GB of weights, 8.1 GB in the
// dynamic order, and ran 1.18x faster alone, 1.28x in the replayed layer (session 58, one H100).
// A tile runs kSubTiles sub-tiles, each a K loop over 128 weight rows (wgmma's N) loaded as two
// boxes of 64 rows:
//   plain D and relu2:  one sub-tile, rows 128 blk + [0, 64) and + [64, 128);
//   gated activations:  two sub-tiles h = 0, 1: gate rows 128 ib + 64 h + [0, 64) and the matching
//                       up rows I + 128 ib + 64 h + [0, 64), so a thread holds gate and up of the
//                       same (row, i). Sub-tile 0's activations wait in shared memory (kStash)
//                       until sub-tile 1's complete the 1x128 group: the group's amax needs all 128.
//
// A step is 128 K: one 128-byte e4m3 row part per weight and token row, and one scale block on
// both sides. A warpgroup runs the step's four wgmma m64n128k32 into a temporary accumulator,
// waits for them, then promotes: acc += tmp * (sw * sa[row]) (DeepSeek-V3's per-128-K promotion in
// FP32; sw is the weight scale of the box the column came from, sa the token row's). With tokens in
// M a thread's accumulators cover 2 token rows, so the promotion needs 2 token scales (swap-AB,
// tokens in N, needed 32 and was 2x slower). The two warpgroups share the tensor cores: one
// promotes while the other's MMAs run. A step's order is CUTLASS's mainloop's: the thread reads its
// scales before issuing the MMAs, releases the stage right after their wait, tests the next stage's
// full barrier, then promotes (against reading the scales after the wait and releasing after the
// promotion: 1.00-1.06x, docs/BENCHMARKS.md 2026-12-03 "CUTLASS's step order").
//
// Threads: 384 (one CTA per SM; Geometry<1>: 256, two CTAs per SM): two consumer warpgroups (warps 0-7; Geometry<1>:
// one, warps 0-3) and a producer warpgroup of
// which two warps work: kTmaWarp's lane 0 loads the token tile (boxes of 64 rows x 128 bytes) and
// the step's weight boxes (64 rows x 128 bytes; two, WidePaired four) by TMA, 128-byte swizzle;
// kScaleWarp's lane 0 loads the step's token scales (one 132-float box, Geometry<1>: 68, of a
// one-row fp32 tensor map over SA: an expert's scales of one K block are contiguous) and the weight
// boxes' scales (4-float boxes of a one-row map
// over SW) by TMA, each box from a 16-byte aligned element (see kTokScaleBox), with its own arrival
// and transaction bytes (neither warp waits for a load, only for a free slot). The scales took 130
// cp.async of 4 bytes a step before (the step without MMAs and token tiles ran 1.20-1.38x faster at
// T = 8192 without them); by TMA, split_tma_act runs 1.071x and split_tma 1.005x faster
// (bench/results/2026-12-03_fp8_tma_scales_by_tma/). One warp doing tiles and scales was 7-19%
// slower, a warp loading the scales into registers 2x slower.
// The CTA compiles to 168 registers a thread (Geometry<1>: 128, so that two CTAs fit; its consumers
// get 216 by setmaxnreg): the accumulator and one temporary (64 floats each).
// A second temporary, to overlap one step's promotion with the next step's MMAs, fits the
// consumers' setmaxnreg budget (8-24-byte spills, no C7518 when no wgmma sits behind a branch) but
// ran 0.96x (5-7% slower at T >= 2048): bench/results/2026-12-03_fp8_tma_two_temporaries/.
// Shared memory (dynamic, 1024-byte aligned): kStages stages of [token tile 128 x 128 B | weight
// tile 128 x 128 B] (Geometry<1>: 4 stages, 64-row token tiles), kStages scale slots of
// kScaleSlotBytes (the token-scale box, then the two weight-scale boxes, 128-byte aligned as TMA
// wants), then the activation stash (kStash bytes; Wide and Narrow), then the activation epilogue's
// code scratch (kCodeBytes, 2 KiB a consumer warp; WidePaired). One full / empty barrier pair per
// stage: full = the two producer warps' arrivals with their transaction bytes (tiles; scales); empty = every
// consumer thread (256; Geometry<1>: 128), after their step's MMAs
// completed (the scales were read before them). Every wait is
// bounded (ptx::mbar_wait traps after kTimeoutNs: a lost TMA becomes a launch error, not a hung GPU).
//
// Rows outside the product: weight rows past N (a partial last block: the next expert's rows or
// TMA's zero fill), token rows past the expert's end (the next expert's rows or zero fill) and K
// past the end (zero fill in both operands: exact zeros) are multiplied but never stored.
//
// What does not bound the K steps at T = 8192 (session 59, forced tactics against this kernel,
// bench/results/2026-12-06_session59/: the tensor pipe is ~60% busy and the layer runs at the 700 W
// power cap, deepseek-v3 at 1.37 GHz on an H100):
//   - L2 bandwidth: two-CTA clusters multicasting the weight boxes of two passes moved 24% fewer L2
//     bytes and ran 0.97x;
//   - the stages in flight: 3 instead of 4 ran 0.974x;
//   - the promotion's turnaround: each 64-row box promoted while the next box's MMAs run, 0.997x;
//   - the copy count: 128-row boxes, 6 copies a step instead of 11, 1.003x.
// The producer lane is on the critical path, though: 20-48 bytes of spills there cost 3.4%.
// Ragged last passes (uniform routing leaves deepseek-v3's experts ~256 +- 16 rows at T = 8192, so
// about half take a third pass of a few rows; balanced routing ran 1.16x faster on one H100): a pass
// of <= 64 rows shared by both warpgroups, one weight block each, ran 1.002x (session 61,
// bench/results/2026-12-06_session61/lone_split.patch); passes of 192 rows on three consumer
// warpgroups (one weight block a step), which fold the third pass into the second, 0.960x (session
// 62, bench/results/2026-12-06_session62/tall.patch): the paired steps are worth more.
#pragma once
#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>
#include <type_traits>

#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/tile_tickets.cuh"
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "kernels/sm90/gemm/staged_epilogue.cuh"
#include "kernels/sm90/gemm/wgmma.cuh"
#include "kernels/sm90/gemm/wgmma_fp8.cuh"
#include "kernels/sm90/moe/activation_math.cuh"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/config.h"

namespace megamoe::sm90::fp8_tma {

constexpr int kProducerRegs = 40;  // the producer warpgroup's setmaxnreg budget (Geometry: the consumers')
constexpr int kBN = 128;       // weight rows per sub-tile: wgmma's N; output columns per tile
constexpr int kWBox = 64;      // weight rows per TMA box: a sub-tile is two (gate | up, or two halves)
constexpr int kWgRows = 64;    // token rows per consumer warpgroup: wgmma's M
constexpr int kBK = 128;       // K per step: one 128-byte e4m3 row part, one scale block
constexpr int kRowBytes = 128;
constexpr int kTokBox = kWgRows;      // token rows per TMA box: one warpgroup's A tile
constexpr int kWBlockBytes = kBN * kRowBytes;  // 16384: one 128-row weight block of a step
// A stage's scale slot. A TMA box must start on a 16-byte aligned global address (an fp32 box from
// an element that is not a multiple of 4 is an illegal instruction on the H200:
// bench/results/2026-12-03_fp8_tma_scales_by_tma/probe/), so each box starts at its first wanted
// element rounded down to a multiple of 4, and a consumer reads from float (element & 3) of it:
// Geometry::kTokScaleBox = kMaxTok + 4 token scales (528 bytes in Geometry<2>), then the two
// weight scales' 4-float boxes at 128-byte offsets (TMA's shared-memory alignment).
constexpr int kWScaleBox = 4;  // floats
// Sub-tile 0's activations of a gated tile: per consumer thread 2 rows x 16 bf16 = 16 words,
// word w of thread t at [w * kConsumerThreads + t] (consecutive threads, consecutive banks).
constexpr int kStashWords = 16;
constexpr int kCodeScratchBytes = 16 * kRowBytes;  // a warp's 16 token rows of 128 e4m3 codes
constexpr int kAlignSlack = 1024;
constexpr int kMaxStages = 8;
constexpr unsigned long long kTimeoutNs = ptx::kGemmWaitTimeoutNs;  // 4 s per wait
static_assert(kWBlockBytes % 1024 == 0 && (kWBox * kRowBytes) % 1024 == 0, "SW128 tiles start on 1024-byte boundaries");
static_assert(kBN == fp8::kBlock, "a tile's columns are one 1x128 group of FC2's input");

// The CTA's shape, by its number of consumer warpgroups:
//   Geometry<2> (split_tma, split_tma_act): tiles of up to 128 tokens (two warpgroups of 64 rows),
//               6 stages of 32 KiB (a 128-row token tile and the 128-row weight tile);
//   Geometry<1> (split_tma_small): tiles of up to 64 tokens, one consumer warpgroup, two CTAs per
//               SM of 4 stages of 24 KiB each. Where the experts hold <= 64 rows only one warpgroup
//               of Geometry<2> works while every stage reserves a 128-row token tile: 6 x 16 KiB of
//               weights in flight against 8 x 16 KiB here. As one CTA per SM with 8 stages it
//               streamed 1.04-1.07x faster than Geometry<2> at T = 128..512 on qwen3-30b-a3b and
//               gpt-oss-120b, slower wherever experts hold more rows
//               (bench/results/2026-12-03_fp8_tma_one_wg/); as two CTAs of 4 stages (two pipelines,
//               each with its own issuing thread and consumer, so one CTA's epilogue or pipeline
//               start overlaps the other's stream) it ran 1.029x faster than that over T = 128..1024
//               (qwen3-30b-a3b 1.02-1.07x, mixtral-8x7b 1.09-1.15x, gpt-oss-120b 0.98-1.00x), while a
//               second TMA warp or one 128-row weight box per step had changed nothing
//               (bench/results/2026-12-04_fp8_tma_small_two_ctas/, 2026-12-04_fp8_tma_two_issuers_wbox128/).
//   Geometry<2, 2> (WidePaired: split_tma, split_tma_act and split_tma_act_large_fc2 since session
//               58, except relu2's activation kernel): a step loads two 128-row weight blocks beside
//               the 128-row token tile, 4 stages of 48 KiB: a gated FC1 tile's gate block and its up
//               block (one K loop per output block instead of two sub-tiles, no stash: a thread holds
//               gate and up of the same column), a plain tile's 256 weight rows (256 output
//               columns; where N holds an even number of 128-row blocks, grouped_gemm_fp8_tma.cu).
//               The token tile is read from L2 once per 256 weight rows, and a step's barrier
//               waits and scale loads serve twice the MMAs; the consumers keep two
//               accumulators and one temporary (192 of their 232 registers), and promote the first
//               block while the other warpgroup's MMAs run. On one H100 (forced tactics, T = 2048 /
//               8192, four presets): the activation kernel 1.021x over Geometry<2>'s, then the plain
//               kernels 1.029x (T = 8192 up to 1.13x; T = 2048 0.97-1.10x):
//               bench/results/2026-12-06_session58/. Knobs MEGAMOE_FP8_TMA_ACT_PAIRED=0 and
//               MEGAMOE_FP8_TMA_PAIRED=0 keep Geometry<2> (grouped_gemm_fp8_tma_act.cu / _tma.cu).
// Token scales: one box of kMaxTok + 4 floats a step (the tile's from a 16-byte aligned element).
template <int kWGs_, int kWBlocks_ = 1>
struct Geometry {
  static constexpr int kWGs = kWGs_;
  static constexpr int kWBlocks = kWBlocks_;  // 128-row weight blocks a step: 1, or 2 (TileShape)
  static constexpr int kWBoxes = 2 * kWBlocks;  // 64-row weight boxes a step
  static constexpr int kWBytes = kWBlocks * kWBlockBytes;
  static constexpr int kCtas = kWGs == 2 ? 1 : 2;  // CTAs per SM
  static constexpr int kConsumerWarps = 4 * kWGs;
  static constexpr int kConsumerThreads = kConsumerWarps * 32;
  // The consumers' setmaxnreg budget: what the producer warpgroup leaves of a CTA's share of the
  // SM's registers, in setmaxnreg's multiples of 8 (Geometry<2>: 232, Geometry<1>: 216).
  static constexpr int kConsumerRegs = (65536 / kCtas - kProducerRegs * 128) / kConsumerThreads / 8 * 8;
  static constexpr int kThreads = kConsumerThreads + 128;  // + the producer warpgroup (two warps work)
  static constexpr int kTmaWarp = kConsumerWarps, kScaleWarp = kConsumerWarps + 1;
  static constexpr int kMaxTok = kWGs * kWgRows;  // token rows per tile (a pass): the warpgroups' A tiles
  static constexpr int kStages = kWGs == 2 && kWBlocks == 1 ? 6 : 4;
  static constexpr int kXBytes = kMaxTok * kRowBytes;
  static constexpr int kStageBytes = kXBytes + kWBytes;  // 1024-byte multiples: SW128 tiles stay aligned
  // A stage's scale slot: the token-scale box, then the weight boxes' scales (a 4-float box each) at
  // 128-byte offsets (TMA's shared-memory alignment).
  static constexpr int kTokScaleBox = kMaxTok + 4;
  static constexpr int kWScaleOfs = (kTokScaleBox * 4 + 127) / 128 * 128;
  static constexpr int kScaleSlotBytes = kWScaleOfs + kWBoxes * 128;
  static constexpr int kScaleTxBytes = (kTokScaleBox + kWBoxes * kWScaleBox) * 4;  // the scale warp's transaction bytes
  static constexpr int kStash = kWBlocks == 1 ? kStashWords * kConsumerThreads * 4 : 0;  // 16 / 8 KiB; none paired
  // The activation epilogue's codes of a warp's 16 token rows x 128 columns (kCodeScratchBytes), staged
  // so that they leave as 16-byte stores (quantize_store): WidePaired only, whose shared memory has
  // room beside its 4 stages (Wide's and Narrow's has not).
  static constexpr int kCodeBytes = kWBlocks == 2 ? kConsumerWarps * kCodeScratchBytes : 0;
  static constexpr int kSmemBytes = kAlignSlack + kStages * (kStageBytes + kScaleSlotBytes) + kStash + kCodeBytes;
  static_assert(kXBytes % 1024 == 0 && kStages <= kMaxStages, "SW128 tiles aligned; barrier arrays");
  static_assert(kSmemBytes <= 227 * 1024 && (kSmemBytes + 1024) * kCtas <= 228 * 1024,
                "fits the opt-in shared memory, kCtas CTAs (and their 1 KiB reserve each) in one SM");
  static_assert(kProducerRegs * 128 + kConsumerRegs * kConsumerThreads <= 65536 / kCtas, "register file");
  static_assert(kTokScaleBox * 4 <= kWScaleOfs && kScaleSlotBytes % 128 == 0 && kTokScaleBox <= 256 &&
                    (kTokScaleBox * 4) % 16 == 0,
                "scale boxes: TMA's 128-byte shared alignment, at most 256 elements, 16-byte multiples");
};
using Wide = Geometry<2>;
using Narrow = Geometry<1>;
using WidePaired = Geometry<2, 2>;

// What the epilogue makes of the accumulators.
enum class Out : int { kF32, kBf16, kAct };

struct Params {
  const float* SA;  // activation scales, per expert [KB, rows] (act_scale_index)
  const float* SW;  // weight scales [G, KB, NB]
  const int32_t* offsets;
  void* D;          // kF32 / kBf16: [rows, ldd]
  int64_t ldd;
  int N, K, G;
  // kAct: FC1 of the MoE, N = 2I (gated) or I (relu2); a -> aq [rows, I] e4m3 + sa_out (FC2's
  // activation scales, act_scale_index with IB = ceil(I / 128) blocks).
  int I;
  const float* b13;  // [G, N] fp32 or null
  uint8_t* aq;
  float* sa_out;
  float limit, alpha;
  // Floats between the 16-byte aligned bases of the scale tensor maps and SA / SW (0-3; a scale
  // pointer needs only 4-byte alignment).
  int sa_lead, sw_lead;
  // kBf16: D through shared memory, 16 bytes a lane (store_d_staged; every bf16 D the GEMM accepts
  // fits: N, ldd % 8 == 0, D 16-byte aligned), else two columns a store (store_d).
  bool staged_d;
  // kAct on a geometry with code scratch (Geometry::kCodeBytes): FC2's codes through shared memory,
  // 16 bytes a lane (quantize_store; needs I % 16 == 0 and aq 16-byte aligned), else two a store.
  bool staged_codes;
  // The dynamic tile order (gemm_params, MEGAMOE_FP8_TMA_DYNAMIC): the launch's tile counter
  // (common/tile_tickets.cuh), or null for the static order (CTA b runs tiles b, b + grid, ...).
  int* tile_counter;
};

struct Barriers {
  uint64_t full[kMaxStages], empty[kMaxStages];
  // Dynamic tile order only: the ticket of the tile whose first step stage s holds, written by the
  // TMA lane once the stage is free and announced to the scale warp by ticket_bar[s] (one arrival);
  // the consumers read it after the stage's full phase. A past-the-end ticket comes with no loads.
  uint64_t ticket_bar[kMaxStages];
  int ticket[kMaxStages];
};
__device__ __forceinline__ void sts_i32(uint32_t addr, int v) {
  asm volatile("st.shared.b32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ int lds_i32(uint32_t addr) {
  int v;
  asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}

// The CTA's tile sequence. Tile t counts (expert, column block, pass), pass fastest, over the
// experts with rows. Static order: every role walks it with its own cursor (next(): tiles b,
// b + grid, ...) and agrees on the sequence; dynamic order: at(ticket) with the tickets the TMA lane
// draws (increasing per CTA: the walk only moves forward). Once past the end, base is the tile count.
template <class Geo>
struct TileWalk {
  static constexpr int kMaxTok = Geo::kMaxTok;
  const int32_t* offsets;
  int G, nblk;
  int t;
  int g = -1, base = 0, count = 0, npass = 1;  // expert g's tiles are [base, base + count)
  int lo = 0, hi = 0, blk = 0, t0 = 0, ntok = 0;
  __device__ TileWalk(const int32_t* o, int G_, int nblk_) : offsets(o), G(G_), nblk(nblk_), t(int(blockIdx.x)) {}
  __device__ bool at(int tile) {
    while (tile >= base + count) {
      base += count;
      if (g + 1 >= G) {
        g = G;
        count = 0;
        return false;
      }
      ++g;
      lo = __ldg(offsets + g);
      hi = __ldg(offsets + g + 1);
      npass = (hi - lo + kMaxTok - 1) / kMaxTok;
      count = hi > lo ? nblk * npass : 0;
    }
    const int local = tile - base;
    blk = local / npass;
    t0 = lo + (local - blk * npass) * kMaxTok;
    ntok = min(kMaxTok, hi - t0);
    return true;
  }
  __device__ bool next() {
    const bool ok = at(t);
    t += int(gridDim.x);
    return ok;
  }
};

// The sub-tiles of a tile and the weight rows (within the expert's N) of box b of sub-tile h, for a
// geometry with kWBlocks weight blocks a step (Geometry::kWBlocks). Two blocks a step (kPaired) are
// a gated tile's gate block (boxes 0, 1) and up block (2, 3), or a plain tile's 256 weight rows
// (output columns 256 blk + [0, 128) and + [128, 256)); relu2's activation tile keeps one.
template <Out kOut, Activation kAct, int kWBlocks = 1>
struct TileShape {
  static constexpr bool kGated = kOut == Out::kAct && kAct != Activation::kReLU2;
  static constexpr bool kPaired = kWBlocks == 2;
  static_assert(kWBlocks == 1 || (kPaired && (kGated || kOut != Out::kAct)), "relu2's tiles hold one block");
  static constexpr int kSubTiles = kGated && !kPaired ? 2 : 1;
  static constexpr int kBoxes = 2 * kWBlocks;
  static constexpr int kCols = kGated ? kBN : kWBlocks * kBN;  // output columns of a tile
  __device__ static int box_row(int blk, int h, int b, int I) {
    if constexpr (kPaired && kGated) return (b < 2 ? 0 : I) + blk * kBN + (b & 1) * kWBox;
    else if constexpr (kGated) return (b == 0 ? 0 : I) + blk * kBN + h * kWBox;
    else return blk * kCols + b * kWBox;
  }
};

// Shared-memory addresses of the ring, fixed for the kernel: stage s's barriers and operand tiles are
// these plus s times a stride.
struct Ring {
  uint32_t full0, empty0;  // barriers of stage 0 (8 bytes apart)
  uint32_t scales;         // scale slot of stage 0 (kScaleSlotBytes apart)
  __device__ uint32_t full(uint32_t s) const { return full0 + 8 * s; }
  __device__ uint32_t empty(uint32_t s) const { return empty0 + 8 * s; }
};

// The four k32 MMAs of one step (stage s) into `tmp` (overwritten by the first), committed as one group.
// The caller waited for the stage's full phase.
__device__ __forceinline__ void issue_step(float (&tmp)[kBN / 2], uint64_t adesc, uint64_t bdesc) {
  wgmma::fence();
  wgmma::fence_acc(tmp);
#pragma unroll
  for (int k32 = 0; k32 < 4; ++k32)  // +2 = +32 bytes of K in both tiles
    wgmma::mma_ss_e4m3<kBN>(tmp, adesc + uint64_t(2 * k32), bdesc + uint64_t(2 * k32), k32 > 0);
  wgmma::commit();
}

// A thread's scales of one step: its two token rows' and the weight boxes'. Read from the stage's
// scale slot while the step's MMAs run (they landed with the stage's full phase), not after the wait.
template <int kBoxes>
struct StepScales {
  float sa0, sa1, sw[kBoxes];
};
__device__ __forceinline__ float lds_f32(uint32_t addr) {
  float v;
  asm volatile("ld.shared.f32 %0, [%1];" : "=f"(v) : "r"(addr));
  return v;
}

// A sub-tile's scale elements of one step, the producer's and the consumers' alike: sa indexes SA
// ([KB, rows] per expert; the tile's first row, K block kt), sw[b] indexes SW ([G, KB, NB]; weight
// box b's block), counted from the maps' aligned bases. Element indices stay below 2^31 (the host
// launch checked the extents).
template <int kBoxes>
struct ScaleCursor {
  int sa, span, NB;
  int sw[kBoxes];
  template <class Shape, class Walk>
  __device__ static ScaleCursor start(const Params& p, const Walk& w, int h, int KT) {
    ScaleCursor c;
    c.NB = (p.N + kBN - 1) / kBN;
    c.sa = p.sa_lead + w.lo * KT + (w.t0 - w.lo);
    c.span = w.hi - w.lo;
    const int row0 = Shape::box_row(w.blk, h, 0, p.I), sw = p.sw_lead + w.g * KT * c.NB;
    // A box past N (a gated tile's last up box when 2I % 128 == 0) is never stored: its scale is
    // the first box's, any finite value.
#pragma unroll
    for (int b = 0; b < kBoxes; ++b) {
      const int row = Shape::box_row(w.blk, h, b, p.I);
      c.sw[b] = sw + (row < p.N ? row : row0) / kBN;
    }
    return c;
  }
  __device__ void next() {
    sa += span;
#pragma unroll
    for (int b = 0; b < kBoxes; ++b) sw[b] += NB;
  }
};
__device__ __forceinline__ int aligned4(int e) { return e & ~3; }

template <class Geo, int kBoxes>
__device__ __forceinline__ StepScales<kBoxes> load_scales(uint32_t sc, int r0, const ScaleCursor<kBoxes>& cur) {
  const uint32_t ta = sc + 4u * uint32_t((cur.sa & 3) + r0);
  StepScales<kBoxes> r;
  r.sa0 = lds_f32(ta);
  r.sa1 = lds_f32(ta + 32u);
#pragma unroll
  for (int b = 0; b < kBoxes; ++b) r.sw[b] = lds_f32(sc + uint32_t(Geo::kWScaleOfs + 128 * b + 4 * (cur.sw[b] & 3)));
  return r;
}

// acc += tmp * (sw[box] * sa[row]) for one 128-row weight block of boxes sw0, sw1: accumulator 4j + q
// is token row r0 (q < 2) or r0 + 8 (q >= 2) of the tile, weight column 8j + 2 tig + (q & 1), of box
// j / 8. The caller released the stage before, or has yet to issue MMAs on it (every lane arrives:
// racecheck does not carry __syncwarp's ordering over to another lane's arrive).
__device__ __forceinline__ void promote(float (&acc)[kBN / 2], const float (&tmp)[kBN / 2], float sa0, float sa1,
                                        float sw0, float sw1) {
#pragma unroll
  for (int b = 0; b < 2; ++b) {
    const float s0 = (b ? sw1 : sw0) * sa0, s1 = (b ? sw1 : sw0) * sa1;
#pragma unroll
    for (int j = 8 * b; j < 8 * b + 8; ++j) {
      acc[4 * j + 0] = fmaf(tmp[4 * j + 0], s0, acc[4 * j + 0]);
      acc[4 * j + 1] = fmaf(tmp[4 * j + 1], s0, acc[4 * j + 1]);
      acc[4 * j + 2] = fmaf(tmp[4 * j + 2], s1, acc[4 * j + 2]);
      acc[4 * j + 3] = fmaf(tmp[4 * j + 3], s1, acc[4 * j + 3]);
    }
  }
}

// A producer warp of the producer warpgroup (lane 0 works), with its own tile cursor ahead of the
// consumers'. The TMA warp loads the step's token tile and two weight boxes, the scale warp the
// step's token scales (tm_sa: one box from the tile's first row rounded down to a 16-byte aligned
// element; the floats outside the tile's rows belong to other rows or K blocks, or arrive as zeros
// past SA's end, and are never read) and the two boxes' weight scales (tm_sw). Each issues one arrival with its
// transaction bytes; both wait only for free slots.
template <class Geo, Out kOut, Activation kAct, bool kScales>
__device__ __forceinline__ void produce(const Params& p, const Ring& ring, uint32_t sbase, uint32_t tslot0,
                                        uint32_t tbar0, int KT, int nblk, int lane, const CUtensorMap* tm_x,
                                        const CUtensorMap* tm_w, const CUtensorMap* tm_sa, const CUtensorMap* tm_sw) {
  if (lane != 0) return;
  using Shape = TileShape<kOut, kAct, Geo::kWBlocks>;
  constexpr int kStages = Geo::kStages;
  TileWalk<Geo> walk(p.offsets, p.G, nblk);
  uint32_t step = 0;  // CTA-wide step count
  TileTickets tickets(p.tile_counter);
  uint32_t tphase = 0;  // the scale warp: bit s = the parity of ticket_bar[s]'s next phase
  for (;;) {
    if (p.tile_counter == nullptr) {
      if (!walk.next()) break;
    } else {
      // The tile's first step's stage: free (the TMA lane waits for it, then draws) or announced (the
      // scale warp waits for the TMA lane's ticket).
      const uint32_t s = step % kStages, use = step / kStages;
      int ticket;
      if constexpr (!kScales) {
        if (use > 0) ptx::mbar_wait(ring.empty(s), (use - 1) & 1u, kTimeoutNs);
        ticket = tickets.draw();
        sts_i32(tslot0 + 4 * s, ticket);
        ptx::mbar_arrive(tbar0 + 8 * s);
      } else {
        ptx::mbar_wait(tbar0 + 8 * s, (tphase >> s) & 1u, kTimeoutNs);
        tphase ^= 1u << s;
        ticket = lds_i32(tslot0 + 4 * s);
      }
      if (!walk.at(ticket)) {  // past the end: the stage's full phase carries the ticket alone
        ptx::mbar_arrive(ring.full(s));
        break;
      }
      if constexpr (!kScales) ++tickets.run;
    }
    const int boxes = (walk.ntok + kTokBox - 1) / kTokBox;
    for (int h = 0; h < Shape::kSubTiles; ++h) {
      int rows[Shape::kBoxes];  // the weight boxes' rows in W
#pragma unroll
      for (int b = 0; b < Shape::kBoxes; ++b) rows[b] = walk.g * p.N + Shape::box_row(walk.blk, h, b, p.I);
      ScaleCursor<Shape::kBoxes> cur = ScaleCursor<Shape::kBoxes>::template start<Shape>(p, walk, h, KT);
      for (int kt = 0; kt < KT; ++kt, ++step, cur.next()) {
        const uint32_t s = step % kStages, use = step / kStages;
        if (use > 0) ptx::mbar_wait(ring.empty(s), (use - 1) & 1u, kTimeoutNs);
        const uint32_t full = ring.full(s);
        if constexpr (!kScales) {
          const uint32_t st = sbase + s * uint32_t(Geo::kStageBytes);
          ptx::mbar_arrive_expect_tx(full, uint32_t(Geo::kWBytes + boxes * kTokBox * kRowBytes));  // zero fill counts
          for (int b = 0; b < boxes; ++b)
            ptx::tma_load_2d(st + uint32_t(b * kTokBox * kRowBytes), tm_x, full, kt * kBK, walk.t0 + b * kTokBox);
#pragma unroll
          for (int b = 0; b < Shape::kBoxes; ++b)
            ptx::tma_load_2d(st + uint32_t(Geo::kXBytes + b * kWBox * kRowBytes), tm_w, full, kt * kBK, rows[b]);
        } else {
          const uint32_t sc = ring.scales + s * uint32_t(Geo::kScaleSlotBytes);
          ptx::mbar_arrive_expect_tx(full, uint32_t(Geo::kScaleTxBytes));
          ptx::tma_load_2d(sc, tm_sa, full, aligned4(cur.sa), 0);
#pragma unroll
          for (int b = 0; b < Shape::kBoxes; ++b)
            ptx::tma_load_2d(sc + uint32_t(Geo::kWScaleOfs + 128 * b), tm_sw, full, aligned4(cur.sw[b]), 0);
        }
      }
    }
  }
  if constexpr (!kScales) {
    if (p.tile_counter != nullptr) tickets.finish(walk.base);
  }
}

// kF32 / kBf16 epilogue: rows t0 + r0 and t0 + r0 + 8, columns n = 128 blk + 8j + 2 tig and n + 1:
// one 8-byte (fp32) or 4-byte (bf16) store per pair (N and ldd are even, so n < N means n + 1 < N
// and the pair is aligned).
template <Out kOut, class Walk>
__device__ __forceinline__ void store_d(const Params& p, const Walk& w, const float (&acc)[kBN / 2], int n0,
                                        int r0, int tig) {
#pragma unroll
  for (int hr = 0; hr < 2; ++hr) {
    const int r = r0 + 8 * hr;
    if (r >= w.ntok) continue;
    const size_t row = size_t(w.t0 + r) * size_t(p.ldd);
#pragma unroll
    for (int j = 0; j < kBN / 8; ++j) {
      const int n = n0 + 8 * j + 2 * tig;
      if (n >= p.N) continue;
      const float v0 = acc[4 * j + 2 * hr], v1 = acc[4 * j + 2 * hr + 1];
      if constexpr (kOut == Out::kBf16)
        *reinterpret_cast<__nv_bfloat162*>(static_cast<__nv_bfloat16*>(p.D) + row + n) = __floats2bfloat162_rn(v0, v1);
      else
        *reinterpret_cast<float2*>(static_cast<float*>(p.D) + row + n) = make_float2(v0, v1);
    }
  }
}

// The staged form of store_d for bf16 D (Params::staged_d), through `scratch`: the warp's own 16
// token rows of the tile's last stage (2048 bytes, rows 128 B apart; only its warpgroup's MMAs read
// them, and they are done: the caller held the stage and met the warpgroup's named barrier). Two
// rounds of 64 columns: stmatrix x4 (untransposed: fragment rows are token rows) of the blocks j,
// j + 1 puts token row t's 8 columns of block j at 16-byte chunk (j % 8) ^ (t % 8) of scratch row t
// (the XOR puts a matrix's 8 rows, 128 bytes apart, on distinct banks); then each lane loads 16
// bytes, a quarter-warp one token row's 128 contiguous bytes, 4 rows a warp instruction. N % 8 == 0:
// a chunk is all in or all out.
template <class Walk>
__device__ __forceinline__ void store_d_staged(const Params& p, const Walk& w, const float (&acc)[kBN / 2], int n0,
                                               uint32_t scratch, int row_w, int lane) {
  // stmatrix: lane 8 i + r gives row r of matrix i = (token rows 8 (i % 2) .., block j + i / 2).
  const int st_t = (lane & 7) + 8 * ((lane >> 3) & 1), st_jb = lane >> 4;
  const int ld_t = lane >> 3, ld_jc = lane & 7;  // + 4 q: the rows of load q
  __nv_bfloat16* const D = static_cast<__nv_bfloat16*>(p.D);
#pragma unroll
  for (int half = 0; half < 2; ++half) {
#pragma unroll
    for (int jj = 0; jj < 8; jj += 2) {
      const int j = 8 * half + jj;
      const uint32_t at = scratch + uint32_t(st_t * kRowBytes + (((jj + st_jb) ^ (st_t & 7)) * 16));
      using staged::pack_bf16x2;
      ptx::stmatrix_x4(at, pack_bf16x2(acc[4 * j], acc[4 * j + 1]), pack_bf16x2(acc[4 * j + 2], acc[4 * j + 3]),
                       pack_bf16x2(acc[4 * j + 4], acc[4 * j + 5]), pack_bf16x2(acc[4 * j + 6], acc[4 * j + 7]));
    }
    __syncwarp();
    const int n = n0 + 64 * half + 8 * ld_jc;
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int t = ld_t + 4 * q;
      const uint4 v = ptx::ld_shared_v4(scratch + uint32_t(t * kRowBytes + ((ld_jc ^ (t & 7)) * 16)));
      if (row_w + t < w.ntok && n < p.N)
        *reinterpret_cast<uint4*>(D + size_t(w.t0 + row_w + t) * size_t(p.ldd) + size_t(n)) = v;
    }
    __syncwarp();
  }
}

// a = bf16(act(h + b13)) of this thread's columns i0 + 8 jj + 2 tig + q (jj < kCols), as
// activation_fp8.cu computes it (0 past I): a[hr][jj][q] is token row r0 + 8 hr; the gate value is
// accumulator 4 (gj + jj) + 2 hr + q of `gate`, the up value the same of `up` at uj. Gated sub-tile h:
// gate and up in one accumulator (gj = 0, uj = 8, i0 = 128 blk + 64 h); a paired tile: one
// accumulator each (gj = uj = 0, i0 = 128 blk, jj up to 16); relu2: no up (i0 = 128 blk, jj up to 16).
// kChecked: columns may lie past I (the last column block of an I that is not a multiple of 128).
// Unchecked (every column of the block is below I: the caller's tile-wide test) the values are
// computed without a test per element. The test made each element a branch of its own around its
// ~25-instruction dependent chain, which the compiler could not interleave with the other chains:
// on one H100 (ncu, session 59, deepseek-v3 T = 8192) the epilogue's warps spent 61% of its samples
// waiting on those chains (fixed-latency and MUFU results) against 20% issuing, and the epilogue
// took ~18% of FC1's consumer time (KT = 56; ~45% at qwen3-30b-a3b's KT = 16). The checked form
// keeps the branches: computing and selecting every value there spilled (184 bytes with biases).
// Session 61 cut the element's arithmetic from ~30 instructions to ~17 (times_sigmoid without libm's
// expf or a Newton step, the clamps skipped where limit = +inf, pairs rounded to bf16 as one, the
// amax as max.NaN of |a|, quantize_store's quotients without the 2^100 multiply where the warp's
// scales allow): its ~2,200 issue cycles a tile now match what its two MUFU operations an element
// take of the MUFU pipe (16 a clock per SM), so the rest only hides beside another tile's MMAs.
template <Activation kAct, bool kBias, int kCols, bool kChecked, bool kClamp = true, class Walk>
__device__ __forceinline__ void activate(const Params& p, const Walk& w, const float (&gate)[kBN / 2], int gj,
                                         const float (&up)[kBN / 2], int uj, int i0, int tig,
                                         float (&a)[2][kCols][2]) {
  constexpr bool kGated = kAct != Activation::kReLU2;
  const float* br = kBias ? p.b13 + size_t(w.g) * size_t(p.N) : nullptr;
#pragma unroll
  for (int jj = 0; jj < kCols; ++jj) {
    const int i = i0 + 8 * jj + 2 * tig;
    const bool in = !kChecked || i < p.I;  // i even, I even: i < I means i + 1 < I
    float2 bg = make_float2(0.0f, 0.0f), bu = bg;
    if (kBias && in) {
      bg = __ldg(reinterpret_cast<const float2*>(br + i));
      if constexpr (kGated) bu = __ldg(reinterpret_cast<const float2*>(br + p.I + i));
    }
#pragma unroll
    for (int hr = 0; hr < 2; ++hr) {
      float g[2], u[2] = {0.0f, 0.0f};
#pragma unroll
      for (int q = 0; q < 2; ++q) {
        g[q] = gate[4 * (gj + jj) + 2 * hr + q];
        if constexpr (kGated) u[q] = up[4 * (uj + jj) + 2 * hr + q];
        if constexpr (kBias) {
          g[q] += q ? bg.y : bg.x;
          u[q] += q ? bu.y : bu.x;  // relu2 ignores u
        }
      }
      if (in) {
        act::act_bf16x2<kAct, kClamp>(g[0], u[0], g[1], u[1], p.limit, p.alpha, a[hr][jj][0], a[hr][jj][1]);
      } else {
        a[hr][jj][0] = a[hr][jj][1] = 0.0f;
      }
    }
  }
}

// The 1x128 groups of token rows r0 and r0 + 8 from their 128 activations a[hr][j][q] (i = 128 blk
// + 8j + 2 tig + q; the quad of threads tig = 0..3 holds a row's group): amax over the quad, the
// scale and the codes exactly as formats::quantize_fp8_act_1x128 (quantize_fp8.cuh), the scale
// stored by tig 0 in FC2's activation-scale layout. kChecked: as in activate, a column test per pair
// (the codes are made without branches either way: encode2).
// The codes leave either two a store (2-byte stores, each warp instruction 8 token rows apart), or,
// with `codes` (the warp's kCodeScratchBytes of shared memory, 0 for none; unchecked tiles only),
// through shared memory as 16-byte stores: the pairs go to scratch row lr = gq + 8 hr (the warp's
// token row), 16-byte chunk (j / 2) ^ (lr % 8) (the XOR puts the 8 rows of one store on distinct
// banks), then each lane loads 16 bytes, a quarter-warp one row's 128 contiguous bytes, 4 rows a
// warp instruction. On one H100 (ncu, mixtral-8x7b / qwen3-30b-a3b T = 8192) the 2-byte stores'
// queue (lg throttle) and the register waits behind them were 27-32% of the epilogue's samples.
template <bool kChecked, class Walk>
__device__ __forceinline__ void quantize_store(const Params& p, const Walk& w, const float (&a)[2][16][2], int r0,
                                               int tig, uint32_t codes) {
  const int IB = (p.I + kBN - 1) / kBN;
  const int gq = r0 & 7;  // r0 = 64 c + 16 wq + gq
#pragma unroll
  for (int hr = 0; hr < 2; ++hr) {
    // The amax as a float max.NaN of |a| (one instruction an element, the absolute value an operand
    // modifier; a NaN gives the canonical NaN 0x7FFFFFFF, Inf 0x7F800000: both poison the group as
    // the bitwise unsigned max of fp8::abs_bits does, whose AND and 3-way max took 1.5).
    float amf = 0.0f;
#pragma unroll
    for (int j = 0; j < 16; ++j)
#pragma unroll
      for (int q = 0; q < 2; ++q) amf = act::max_nan(amf, fabsf(a[hr][j][q]));
    uint32_t am = __float_as_uint(amf);
    am = max(am, __shfl_xor_sync(0xFFFFFFFFu, am, 1));
    am = max(am, __shfl_xor_sync(0xFFFFFFFFu, am, 2));
    const bool poisoned = am >= fp8::kInfBits;
    const float s = fp8::block_scale(am, /*ue8m0=*/false);
    const fp8::ScaleDivisor d = fp8::scale_divisor(s);
    const int r = r0 + 8 * hr;
    if (!kChecked && codes != 0) {
      const int lr = gq + 8 * hr;
      const uint32_t row = codes + uint32_t(lr * kRowBytes + 2 * tig);
      auto stage = [&](auto unit_m) {
#pragma unroll
        for (int j = 0; j < 16; ++j)
          ptx::st_shared_u16(row + uint32_t((((j >> 1) ^ gq) << 4) + ((j & 1) << 3)),
                             fp8::encode2<decltype(unit_m)::value>(a[hr][j][0], a[hr][j][1], d, poisoned));
      };
      // d.m is 1 for every scale >= 2^-80: one vote a warp skips the multiply by it per code.
      if (__all_sync(0xFFFFFFFFu, d.m == 1.0f))
        stage(std::true_type{});
      else
        stage(std::false_type{});
    } else if (r < w.ntok) {
      uint8_t* out = p.aq + size_t(w.t0 + r) * size_t(p.I);
#pragma unroll
      for (int j = 0; j < 16; ++j) {
        const int i = w.blk * kBN + 8 * j + 2 * tig;
        const uint16_t code = fp8::encode2(a[hr][j][0], a[hr][j][1], d, poisoned);
        if (!kChecked || i < p.I) *reinterpret_cast<uint16_t*>(out + i) = code;
      }
    }
    if (tig == 0 && r < w.ntok) p.sa_out[fp8::act_scale_index(w.t0 + r, w.blk, IB, w.lo, w.hi)] = s;
  }
  if (!kChecked && codes != 0) {
    __syncwarp();
    const int lane = 4 * gq + tig, row_w = r0 - gq;  // row_w: the warp's first token row of the tile
    const int ld_t = lane >> 3, ch = lane & 7;       // + 4 q: the rows of load q
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int t = ld_t + 4 * q;
      const uint4 v = ptx::ld_shared_v4(codes + uint32_t(t * kRowBytes + ((ch ^ (t & 7)) << 4)));
      if (row_w + t < w.ntok)
        *reinterpret_cast<uint4*>(p.aq + size_t(w.t0 + row_w + t) * size_t(p.I) + size_t(w.blk * kBN + 16 * ch)) = v;
    }
    __syncwarp();  // the loads are done before the next tile's codes overwrite the scratch
  }
}

// The activation epilogue of a (sub-)tile: a = bf16(act(h + b13)) (activate), then the 1x128
// groups' codes and scales (quantize_store). A gated sub-tile 0 (two sub-tiles per tile, unpaired)
// only stashes its activations; sub-tile 1 completes the groups with them. kChecked: see activate.
template <class Geo, Activation kAct, bool kBias, class Shape, bool kChecked, int kUp>
__device__ __forceinline__ void act_epilogue(const Params& p, const TileWalk<Geo>& w, const float (&acc)[kBN / 2],
                                             const float (&up)[kUp], int h, int tig, int r0, uint32_t my_stash,
                                             uint32_t codes) {
  if constexpr (!Shape::kGated || Shape::kPaired) {
    float a[2][16][2];
    if constexpr (Shape::kPaired) {
      // Unchecked swiglu tiles without a clamp skip it (act_fn's kClamp): one uniform test a tile.
      constexpr bool kClampable = kAct == Activation::kSwiGLU || kAct == Activation::kSwiGLUOAI;
      if (kClampable && !kChecked && act::no_clamp(p.limit))
        activate<kAct, kBias, 16, kChecked, false>(p, w, acc, 0, up, 0, w.blk * kBN, tig, a);
      else
        activate<kAct, kBias, 16, kChecked>(p, w, acc, 0, up, 0, w.blk * kBN, tig, a);
    } else
      activate<kAct, kBias, 16, kChecked>(p, w, acc, 0, acc, 0, w.blk * kBN, tig, a);
    quantize_store<kChecked>(p, w, a, r0, tig, codes);
  } else {
    float a[2][8][2];
    activate<kAct, kBias, 8, kChecked>(p, w, acc, 0, acc, 8, w.blk * kBN + h * kWBox, tig, a);
    if (h == 0) {  // exact in bf16: stash pairs, word 2 (8 hr + jj) .. of this thread
#pragma unroll
      for (int hr = 0; hr < 2; ++hr)
#pragma unroll
        for (int jj = 0; jj < 8; ++jj) {
          const __nv_bfloat162 v = __floats2bfloat162_rn(a[hr][jj][0], a[hr][jj][1]);
          asm volatile("st.shared.b32 [%0], %1;" ::"r"(my_stash + uint32_t((8 * hr + jj) * Geo::kConsumerThreads * 4)),
                       "r"(*reinterpret_cast<const uint32_t*>(&v)));
        }
    } else {
      float all[2][16][2];
#pragma unroll
      for (int hr = 0; hr < 2; ++hr)
#pragma unroll
        for (int jj = 0; jj < 8; ++jj) {
          uint32_t v;
          asm volatile("ld.shared.b32 %0, [%1];" : "=r"(v) : "r"(my_stash + uint32_t((8 * hr + jj) * Geo::kConsumerThreads * 4)));
          const __nv_bfloat162 b2 = *reinterpret_cast<const __nv_bfloat162*>(&v);
          all[hr][jj][0] = __low2float(b2);
          all[hr][jj][1] = __high2float(b2);
          all[hr][jj + 8][0] = a[hr][jj][0];
          all[hr][jj + 8][1] = a[hr][jj][1];
        }
      quantize_store<kChecked>(p, w, all, r0, tig, codes);
    }
  }
}

// One tile: per sub-tile a K loop (issue, wait for the MMAs, release the stage, promote; one
// temporary, see the header), then its epilogue. Warpgroup c multiplies token rows 64 c .. 64 c + 63
// of the tile. A warpgroup with no rows in the tile (an
// expert's last pass of at most 64 rows) only releases the stages, each after it was filled, so
// that its arrivals count for this use of the slot and never a later one.
template <class Geo, Out kOut, Activation kAct, bool kBias>
__device__ __forceinline__ void consume_tile(const Params& p, const Ring& ring, uint32_t sbase, uint32_t stash,
                                             uint64_t desc0, const TileWalk<Geo>& w, int c, int wq, int lane,
                                             int KT, uint32_t& step) {
  using Shape = TileShape<kOut, kAct, Geo::kWBlocks>;
  constexpr int kStages = Geo::kStages;
  constexpr bool kStagedD = kOut == Out::kBf16;
  if (c * kWgRows >= w.ntok) {
    for (int i = 0; i < Shape::kSubTiles * KT; ++i, ++step) {
      const uint32_t s = step % kStages;
      ptx::mbar_wait(ring.full(s), (step / kStages) & 1u, kTimeoutNs);
      ptx::mbar_arrive(ring.empty(s));
    }
    return;
  }
  const int tig = lane & 3, r0 = c * kWgRows + wq * 16 + (lane >> 2);  // this thread's first token row
  // Stage s's A (token) descriptor: desc0 + s * (kStageBytes >> 4); B (weights): + (kXBytes - 64 c rows) >> 4.
  constexpr uint64_t kStageDesc = uint64_t(Geo::kStageBytes >> 4);
  const uint64_t bofs = uint64_t((Geo::kXBytes - c * kWgRows * kRowBytes) >> 4);
  const uint32_t my_stash = stash + uint32_t(4 * (c * 128 + wq * 32 + lane));  // word 0 of this thread
  // The warp's code scratch (after the stash), or 0: direct 2-byte stores (quantize_store).
  const uint32_t my_codes = Geo::kCodeBytes > 0 && p.staged_codes
                                ? stash + uint32_t(Geo::kStash + (c * 4 + wq) * kCodeScratchBytes)
                                : 0u;
#pragma unroll 1
  for (int h = 0; h < Shape::kSubTiles; ++h) {
    // acc: the sub-tile's product (a paired tile's first block: the gate block); up: a paired tile's
    // second block (the up block).
    float acc[kBN / 2], tmp[kBN / 2], up[Shape::kPaired ? kBN / 2 : 1];
#pragma unroll
    for (int i = 0; i < kBN / 2; ++i) acc[i] = 0.0f;
    if constexpr (Shape::kPaired) {
#pragma unroll
      for (int i = 0; i < kBN / 2; ++i) up[i] = 0.0f;
    }
    // Whether the next step's stage is already full, tested while this step is promoted (as
    // CUTLASS's mainloop does): the blocking wait at the top of a step only runs when it was not.
    bool ready = ptx::mbar_try_wait(ring.full(step % kStages), (step / kStages) & 1u);
    ScaleCursor<Shape::kBoxes> cur = ScaleCursor<Shape::kBoxes>::template start<Shape>(p, w, h, KT);
    for (int kt = 0; kt < KT; ++kt, ++step, cur.next()) {
      // The stage index through a shuffle as well: ptxas then keeps the stage's descriptors in
      // uniform registers (a stage index carried from the previous step, or a counter shuffled once
      // per K loop, went back to 16 R2UR moves a step).
      const uint32_t s = __shfl_sync(0xFFFFFFFFu, step % kStages, 0);
      if (!ready) ptx::mbar_wait(ring.full(s), (step / kStages) & 1u, kTimeoutNs);
      const StepScales<Shape::kBoxes> sc = load_scales<Geo>(ring.scales + s * uint32_t(Geo::kScaleSlotBytes), r0, cur);
      const uint64_t ad = desc0 + s * kStageDesc;
      issue_step(tmp, ad, ad + bofs);
      wgmma::wait<0>();
      wgmma::fence_acc(tmp);
      if constexpr (Shape::kPaired) {
        // The first block's product is promoted before the second block's MMAs reuse the temporary
        // (the other warpgroup's MMAs keep the tensor cores busy meanwhile); the stage stays held.
        promote(acc, tmp, sc.sa0, sc.sa1, sc.sw[0], sc.sw[1]);
        issue_step(tmp, ad, ad + bofs + uint64_t(kWBlockBytes >> 4));
        wgmma::wait<0>();
        wgmma::fence_acc(tmp);
      }
      // The scales were read before the MMAs, which have completed. A staged epilogue holds the
      // last stage (its scratch) until its stores are done.
      if (!(kStagedD && p.staged_d && kt + 1 == KT)) ptx::mbar_arrive(ring.empty(s));
      ready = kt + 1 < KT && ptx::mbar_try_wait(ring.full((step + 1) % kStages), ((step + 1) / kStages) & 1u);
      if constexpr (Shape::kPaired)
        promote(up, tmp, sc.sa0, sc.sa1, sc.sw[2], sc.sw[3]);
      else
        promote(acc, tmp, sc.sa0, sc.sa1, sc.sw[0], sc.sw[1]);
    }
    if constexpr (kStagedD) {
      if (p.staged_d) {
        // The held stage (step - 1): every MMA of the warpgroup has read it (named barrier 1 + c),
        // then the scratch; afterwards a proxy fence orders this thread's generic accesses before
        // the TMA writes that refill the stage, and every thread arrives, as in the K loop.
        // A paired tile's second block goes through the same scratch after the first (store_d_staged
        // ends with the warp's loads done).
        const uint32_t held = (step - 1) % kStages;
        const uint32_t scratch = sbase + held * uint32_t(Geo::kStageBytes) + uint32_t((c * 4 + wq) * 16 * kRowBytes);
        ptx::warpgroup_barrier(c);
        store_d_staged(p, w, acc, w.blk * Shape::kCols, scratch, c * kWgRows + wq * 16, lane);
        if constexpr (Shape::kPaired) store_d_staged(p, w, up, w.blk * Shape::kCols + kBN, scratch, c * kWgRows + wq * 16, lane);
        ptx::fence_proxy_async_shared();
        ptx::mbar_arrive(ring.empty(held));
        continue;
      }
    }
    if constexpr (kOut != Out::kAct) {
      store_d<kOut>(p, w, acc, w.blk * Shape::kCols, r0, tig);
      if constexpr (Shape::kPaired) store_d<kOut>(p, w, up, w.blk * Shape::kCols + kBN, r0, tig);
    } else {
      // One test per tile: whether every column of the block lies below I (always, where I % 128 == 0).
      if ((w.blk + 1) * kBN <= p.I)
        act_epilogue<Geo, kAct, kBias, Shape, false>(p, w, acc, up, h, tig, r0, my_stash, my_codes);
      else
        act_epilogue<Geo, kAct, kBias, Shape, true>(p, w, acc, up, h, tig, r0, my_stash, 0);
    }
  }
}

template <class Geo, Out kOut, Activation kAct, bool kBias>
__global__ void __launch_bounds__(Geo::kThreads, Geo::kCtas)
    fp8_tma_kernel(const __grid_constant__ CUtensorMap tm_x, const __grid_constant__ CUtensorMap tm_w,
                   const __grid_constant__ CUtensorMap tm_sa, const __grid_constant__ CUtensorMap tm_sw, Params p) {
  extern __shared__ uint8_t smem_raw[];
  __shared__ Barriers bars;
  const uint32_t raw = ptx::smem_u32(smem_raw);
  const uint32_t sbase = (raw + uint32_t(kAlignSlack - 1)) & ~uint32_t(kAlignSlack - 1);
  constexpr int kStages = Geo::kStages;
  const uint32_t scbase = sbase + uint32_t(kStages * Geo::kStageBytes);
  const uint32_t stash = scbase + uint32_t(kStages * Geo::kScaleSlotBytes);
  const int warp = int(threadIdx.x) >> 5, lane = int(threadIdx.x) & 31;
  const int KT = (p.K + kBK - 1) / kBK;
  // Output column blocks of a tile's width (a paired plain tile: 256 columns).
  constexpr int kCols = TileShape<kOut, kAct, Geo::kWBlocks>::kCols;
  const int nblk = kOut == Out::kAct ? (p.I + kBN - 1) / kBN : (p.N + kCols - 1) / kCols;
  const Ring ring{ptx::smem_u32(&bars.full[0]), ptx::smem_u32(&bars.empty[0]), scbase};
  const uint32_t tslot0 = ptx::smem_u32(&bars.ticket[0]), tbar0 = ptx::smem_u32(&bars.ticket_bar[0]);

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbar_init(ring.full(uint32_t(s)), 2);                  // the TMA warp's and the scale warp's
      ptx::mbar_init(ring.empty(uint32_t(s)), Geo::kConsumerThreads);  // every consumer thread
      ptx::mbar_init(ptx::smem_u32(&bars.ticket_bar[s]), 1);          // the TMA lane's (dynamic order)
    }
    ptx::mbar_fence_init();
  }
  __syncthreads();
  ptx::pdl_wait_then_release();  // the activations come from the previous kernel

  if (warp >= Geo::kConsumerWarps) {
    // The producer warpgroup: the TMA warp and the scale warp walk the whole tile sequence; the
    // other two warps have nothing to do.
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (warp == Geo::kTmaWarp) {
      if (lane == 0) {
        ptx::prefetch_tensormap(&tm_x);
        ptx::prefetch_tensormap(&tm_w);
      }
      produce<Geo, kOut, kAct, false>(p, ring, sbase, tslot0, tbar0, KT, nblk, lane, &tm_x, &tm_w, &tm_sa, &tm_sw);
    } else if (warp == Geo::kScaleWarp) {
      if (lane == 0) {
        ptx::prefetch_tensormap(&tm_sa);
        ptx::prefetch_tensormap(&tm_sw);
      }
      produce<Geo, kOut, kAct, true>(p, ring, sbase, tslot0, tbar0, KT, nblk, lane, &tm_x, &tm_w, &tm_sa, &tm_sw);
    }
    return;
  }
  ptx::setmaxnreg_inc<Geo::kConsumerRegs>();
  // Warpgroup c = warp / 4 takes token rows 64 c .. 64 c + 63 of the tile; wq = warp % 4.
  // c through a shuffle: ptxas then knows it is warp-uniform and keeps the descriptors derived from
  // it in uniform registers (no R2UR moves before each wgmma).
  const int c = __shfl_sync(0xFFFFFFFFu, warp >> 2, 0), wq = warp & 3;
  TileWalk<Geo> walk(p.offsets, p.G, nblk);
  uint32_t step = 0;  // CTA-wide step counter, the producers' sequence
  // The shared-memory addresses every step uses, through shuffles as well: ptxas cannot recompute a
  // shuffle's result, so it keeps them in registers instead of re-deriving the aligned ring base and
  // the barriers from SR_CgaCtaId in every step (an S2R and ~15 instructions a step before, ncu's
  // stall sampling: 2026-12-03, docs/BENCHMARKS.md).
  const Ring cring{__shfl_sync(0xFFFFFFFFu, ring.full0, 0), __shfl_sync(0xFFFFFFFFu, ring.empty0, 0),
                   __shfl_sync(0xFFFFFFFFu, ring.scales, 0)};
  const uint64_t desc0 = wgmma::sw128_desc(__shfl_sync(0xFFFFFFFFu, sbase, 0) + uint32_t(c * kWgRows * kRowBytes));
  // (csbase below: the same ring base for the staged epilogue's scratch.)
  const uint32_t csbase = __shfl_sync(0xFFFFFFFFu, sbase, 0);
  // Dynamic order: the ticket in the stage of the tile's first step, read after its full phase (which
  // consume_tile's first wait then finds complete); every thread reads it before its own arrival on the
  // stage's empty barrier, the TMA lane's condition for writing the slot again.
  const bool dynamic = p.tile_counter != nullptr;
  const uint32_t ctslot0 = __shfl_sync(0xFFFFFFFFu, tslot0, 0);
  auto next_tile = [&]() -> bool {
    if (!dynamic) return walk.next();
    const uint32_t s = step % kStages;
    ptx::mbar_wait(cring.full(s), (step / kStages) & 1u, kTimeoutNs);
    return walk.at(lds_i32(ctslot0 + 4 * s));
  };
  while (next_tile())
    consume_tile<Geo, kOut, kAct, kBias>(p, cring, csbase, stash, desc0, walk, c, wq, lane, KT, step);
}

// Host side (grouped_gemm_fp8_tma.cu): the four tensor maps and the persistent grid, then the
// kernel `kernel` (one of the instantiations above) on them.
using KernelFn = void (*)(CUtensorMap, CUtensorMap, CUtensorMap, CUtensorMap, Params);
// What the host launch needs of a Geometry.
// plain_cols: the output columns of a plain (fp32 / bf16 D) tile, the kernel's own TileShape::kCols,
// from which the host sizes the grid.
struct LaunchShape {
  int threads, smem_bytes, max_tok, tok_scale_box, ctas_per_sm, plain_cols;
};
template <class Geo>
constexpr LaunchShape launch_shape() {
  return {Geo::kThreads, Geo::kSmemBytes, Geo::kMaxTok, Geo::kTokScaleBox, Geo::kCtas,
          TileShape<Out::kF32, Activation::kSwiGLU, Geo::kWBlocks>::kCols};
}
// The GEMM's part of Params (the rest zero).
Params gemm_params(const fp8_gemm_detail::RunArgs& a, int num_groups, int64_t N, int64_t K, bool narrow);
void launch(KernelFn kernel, const LaunchShape& shape, const void* A, const void* W, const Params& p,
            int64_t rows_bound, int nblk, cudaStream_t stream);
// The activation-epilogue kernel of geometry Geo for `act`, with or without biases. Instantiated
// per geometry in a translation unit of its own, so that they build side by side: Wide in
// grouped_gemm_fp8_tma_act.cu, Narrow in grouped_gemm_fp8_tma_small_act.cu (narrow_act_kernel),
// WidePaired in grouped_gemm_fp8_tma_paired.cu (paired_act_kernel).
template <class Geo, Activation kAct>
KernelFn act_kernel(bool bias) {
  return bias ? fp8_tma_kernel<Geo, Out::kAct, kAct, true> : fp8_tma_kernel<Geo, Out::kAct, kAct, false>;
}
template <class Geo>
KernelFn act_kernel(Activation act, bool bias) {
  switch (act) {
    case Activation::kSwiGLU: return act_kernel<Geo, Activation::kSwiGLU>(bias);
    case Activation::kSwiGLUOAI: return act_kernel<Geo, Activation::kSwiGLUOAI>(bias);
    case Activation::kGeGLU: return act_kernel<Geo, Activation::kGeGLU>(bias);
    case Activation::kReLU2: return act_kernel<Geo, Activation::kReLU2>(bias);
  }
  return nullptr;  // unreachable: every Activation is listed
}
KernelFn narrow_act_kernel(Activation act, bool bias);  // act_kernel<Narrow>
KernelFn paired_act_kernel(Activation act, bool bias);  // act_kernel<WidePaired>, gated only (else null)
KernelFn paired_plain_kernel(bool bf16_out);  // WidePaired's fp32 / bf16 D kernel

}  // namespace megamoe::sm90::fp8_tma
