// The Mega kernel at decode sizes (see mega.h), one template over the weight format (bf16;
// W4A16 packed e2m1 with mxfp4 / nvfp4 block scales: "W4A16" below; fp8_block e4m3: "fp8"
// below). One persistent launch:
//
//   route plan      every CTA builds the plan of the (<= kMaxRoutes) routes in its own shared
//                   memory: per local expert counts and offsets, rows stable by route index
//                   i = t*K + k, route -> row and row -> route maps, and the list of "units".
//                   A unit is one chunk of <= kMaxN = 16 consecutive rows of one expert (an
//                   expert with 40 rows has 3 units), so a tile never holds more than 16 tokens
//                   and experts without rows cost nothing. Invalid ids (not -1, not in [0, E))
//                   are "no route"; CTA 0 adds their count to the route plan's invalid-id word,
//                   the counter the split path uses (invalid_id_count() reads it).
//   work items      one monotonically increasing counter hands out, in this order:
//                   (fp8 only) x quantization items, one per 128 columns of H (a CTA runs the
//                   ones it claims before building its plan: they need none),
//                   FC1 tiles (unit u, 64 gate rows + the matching 64 up rows, K-split s),
//                   FC2 tiles (unit u, 128 rows of H, K-split s), combine tiles (128 columns of
//                   out, all tokens). Item = ((u * blocks) + block) * splits + split.
//   FC1 tile        swap-AB: weight rows are the MMA's M (128 = 2 halves of 64 rows: gated
//                   activations read gate rows [64b, 64b+64) and the matching up rows -- from
//                   canonical W13 (fp8, W4A16) or, for bf16, from the split backend's gate/up
//                   interleaved W13 through a 4-D tensor map (common/gate_up_layout.h), the
//                   ring's rows the same either way; relu2 reads 128 consecutive rows), the unit's tokens are N
//                   (8 or 16: the NT template), K = H streamed
//                   in steps of kBK = 64 x Fmt::kParts (bf16: one 128-byte part per row per
//                   step; a last step past K reads zeros).
//                   mma.sync m16n8k16 bf16 -> fp32. Warp w owns the m16 tile whose rows 0-7 are
//                   half-0 rows 8w..8w+7 and rows 8-15 are half-1 rows 8w..8w+7, so a thread's
//                   accumulators c0/c1 (gate) and c2/c3 (up) belong to the same output j and
//                   token: the activation needs no data exchange. a = bf16(act(h + b13)) goes to
//                   workspace a [row, I] (L2-resident at these sizes), then the unit's FC1-done
//                   counter is incremented (release).
//   FC2 tile        the same GEMM on W2 (rows of H, K = I) with a gathered from the workspace;
//                   waits (acquire, bounded) until unit_done[u] == FC1 blocks; y = bf16(acc + b2)
//                   to workspace y [row, H]; then hblock_done[block] += 1 (release).
//   combine tile    waits until hblock_done[block] == units, then for every token
//                   out[t, cols] = bf16(sum_{k = 0..K-1} w[t,k] * float(y[row(t,k), cols])),
//                   products and sums with __fmul_rn / __fadd_rn in k order, rounded once: the
//                   arithmetic of combine.cu (bit for bit, given the same y).
//   split-K         when a phase has fewer than 2 x grid tiles (MegaArgs::split_target), each
//                   tile's K range is cut into S splits (at most kMaxSplits, each at least
//                   kMinSplitSteps steps, or MegaArgs::min_split_steps: tactics "mega_min8" /
//                   "mega_min16"), so every SM streams weights from the start: the most splits
//                   allowed, or with MegaArgs::split_rounds (tactic "mega_rounds") the count
//                   with the fewest rounds x steps (choose_splits). Each split stores its fp32
//                   accumulators to a partial slot (fragment order); after a CTA barrier thread 0
//                   increments the tile's arrival counter with release semantics (arrive_last);
//                   the last arriver sums the S partials in split order 0..S-1 (its own
//                   from registers, the others from L2) -- deterministic, no float atomics -- and
//                   runs the epilogue. With S = 1 the tile runs the epilogue directly.
//   pipeline        a ring of S shared-memory stages, each one step: bf16 128 weight rows x 128
//                   bytes (16 KiB) + npad_max activation rows x 128 bytes (npad_max: the
//                   launch's widest unit rounded up to 8/16; S = min(12, 96 KiB / stage): 5
//                   stages). Weights arrive by TMA: thread 0 issues two 64-row x 64-K boxes of a
//                   3-D tensor map per step (W2, canonical W13; bf16 gated W13: 4-D, see FC1 tile;
//                   128-byte swizzle) on the
//                   stage's mbarrier (expect_tx 16 KiB). History (H200): with one CTA per SM the
//                   kernel was issue-bound (deepseek-v3 T = 64: 6 or 12 stages of 16 KiB the
//                   same 6.0 ms; division-free cursors 5.2 ms; 32 KiB steps 4.75 ms, 96% of the
//                   floor); two CTAs per SM with 16 KiB steps and 16-row units (Fmt) are 4-10%
//                   faster at T = 8 and within 3% at T = 1, slower above T = 16 where experts
//                   have more than 16 rows (each unit re-streams the expert's weights), where
//                   the split pipeline runs anyway.
//                   Activations (a few gathered
//                   rows) come by cp.async 16 B (.cg: L2 only, so rows written by other SMs in
//                   this launch are read coherently) into the same 128-byte XOR swizzle
//                   (chunk ^ (row & 7)), so ldmatrix is conflict-free on both. One cp.async
//                   group per step; a step is ready when its group and its barrier phase are
//                   complete; S - 1 steps in flight. The stream does not stop at tile
//                   boundaries: a CTA claims its next item when it starts the current one, and
//                   the current tile's last S - 1 iterations already load the next tile's
//                   weights (weights never depend on other tiles) and, when they are ready, its
//                   activations (FC1's x always;
//                   FC2's `a` rows once thread 0 has seen the unit's FC1 tiles done, checked at
//                   the tile's start and again just before the first such step). Only an FC2
//                   tile whose rows were not ready then loads them after its dependency wait,
//                   in one group for its first S - 1 steps, and its first step waits for every
//                   group in flight (the ring drains once).
//   dependencies    FC2 tiles wait on FC1 tiles of their unit, combine tiles on FC2 tiles; every
//                   waited-on item has a lower number, so it was claimed earlier by a running
//                   CTA, and a CTA finishes its current item before it waits for its next one:
//                   the lowest unfinished item is always running with its dependencies done, so
//                   the grid cannot deadlock -- even when not all CTAs are co-resident (another
//                   kernel on another stream), which only delays. The grid is the co-resident
//                   capacity anyway (persistent_grid()). Waits spin on ld.acquire.gpu with
//                   __nanosleep backoff and give up after kTimeoutNs (global timer): the CTA adds
//                   kTimeoutMark to the invalid-id word, stops claiming work and exits, so a lost
//                   dependency becomes an error report instead of a hung GPU. The waits for a
//                   stage's weights (mbarrier phases) are bounded by kTimeoutNs too: a TMA that
//                   never lands is a faulting copy, so the kernel traps (a launch error).
//   W4A16           the same skeleton with 4-bit weights (Fmt below). A step is 256 K: per
//                   64-row half one TMA box of 64 rows x 128 bytes of packed codes (the split
//                   backend's fragment order, 128-byte swizzle: one request per row per step --
//                   boxes of 32-byte rows left the kernel at 0.6-0.9 TB/s, request-bound) and one
//                   box of the rows' scale codes for the step's four 64-wide sub-steps (from the
//                   split backend's scale tiles), on the same mbarrier. Each warp decodes its A
//                   fragments in registers with the split W4A16 GEMM's decoder
//                   (grouped_gemm_w4a16_common.cuh: shifts and masks of the prepared bits, one
//                   HMUL2 by the block's factor, exact) and feeds the same mma.sync as bf16; the
//                   per-expert alpha (nvfp4's global scale) multiplies the accumulators before
//                   the bias, as the split path's GEMM does. The decode is latency-bound at 8
//                   warps per SM (ncu: 35% of issue slots busy), so W4A16 runs two CTAs per SM:
//                   units of at most 16 rows (NT <= 2), a 100 KiB ring and 128 registers per
//                   thread.
//   fp8             the same skeleton with e4m3 weights (Fmt<kFp8>): a step is 128 K, one
//                   128x128 scale block -- the bf16 step's 16 KiB and TMA boxes -- and the
//                   activations are e4m3 rows of the workspace (xq / aq: codes, then the row's
//                   fp32 scales), quantized once per launch by the CPU quantizer's rule: x by
//                   the quantization items (counters[2] counts them; FC1 tiles wait for all),
//                   `a` by the FC1 tile that completes a 128-column block of a unit (an arrival
//                   counter per (unit, block); unit_done[u] then counts blocks, FC2 waits for
//                   ceil(I/128)). The step's two weight scales and the rows' scales go with the
//                   step by cp.async 4 B into aux; mma.sync m16n8k32 e4m3 into a temporary,
//                   promoted into the accumulator with sw * sx. Measured against quantizing in
//                   every step (8 warps x 8 values per 128 K): 2x faster (deepseek-v3 T = 1,
//                   0.294 -> 0.145 ms).
//   expert          (MegaArgs::ep, the Mega-EP kernel) the same launch with the exchange inside:
//   parallelism     CTA d < R first plans this rank's tokens for owner d in shared memory and
//                   stores their rows into d's window (push; pull: into our send window), fences
//                   and releases d's dispatch flag (exchange_device.cuh, dispatch_to_owner); every
//                   CTA then waits for all R dispatch flags (pull: copies the rows in, then a grid
//                   barrier) and builds its route plan over the receive buffer, rows that did not
//                   arrive being "no route". FC1 / FC2 as above. The items after FC2 are a return
//                   tile per 128 columns (waits for the block's FC2 tiles, stores every route's y
//                   columns where its source reads them, fences, releases the block's return flag
//                   in every source's window; the last one also the whole return flag) and a
//                   combine tile per 128 columns of this rank's tokens (waits for that block's flag
//                   of every owner, then the exchange's fixed-order combine_one). They run after
//                   the GEMM loop (ep_tail, out of line: calls inside the loop cost the GEMM tiles
//                   registers). The epoch is read at entry and advanced by the last CTA.
//                   Measured (2 x H200, docs/EP.md "Mega-EP"): at T = 1 per rank the rows are in
//                   10-11 us after entry, the return and combine end 8-12 us after the last FC2
//                   tile.
//   counter reset   every CTA increments counters[1] when it leaves; the last one (it sees
//                   gridDim.x - 1) zeroes the work counter, the arrival and done counters and
//                   counters[1], so the next launch (a graph replay included) starts from zero
//                   without host work.
//
// Budget (static_asserts below): 256 threads (8 warps, every warp loads, computes and runs the
// epilogue: no warp specialisation in this first version), two CTAs per SM (launch bounds, Fmt).
// Dynamic shared memory (Fmt below): the aux region (fp8's 0.9 KiB of per-stage scales), then the
// ring (bf16 and fp8 96 KiB, W4A16 100 KiB; + 1 KiB to align it);
// static: the plan (~9.3 KiB) and one mbarrier per stage.
// Registers: 128 per thread (two CTAs per SM), NT <= 2 accumulators; -Xptxas -v: bf16 125, no
// spill; W4A16 128 with 8 bytes of spill, fp8 128 with 16-28.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/vector_io.cuh"
#include "kernels/sm90/ep/exchange_device.cuh"
#include "kernels/sm90/gemm/grouped_gemm_w4a16_common.cuh"
#include "kernels/sm90/mega/mega_params.h"
#include "kernels/sm90/moe/activation_math.cuh"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90::mega {

namespace {

constexpr int kWarps = kThreads / 32;
constexpr int kBox = 64;                   // K elements per TMA box and per 128-byte smem row
constexpr int kRowBytes = kBox * 2;        // one 128-byte smem row per weight / activation row part
constexpr int kChunks = kRowBytes / 16;    // 16-byte chunks per row (cp.async, ldmatrix rows)
constexpr int kWPart = kTileM * kRowBytes;   // 16 KiB: 128 weight rows x 64 K
// The ring: one launch's stage = 16 KiB of weights + npad_max activation rows of 128 bytes
// (npad_max = the widest unit of the launch rounded up to 8/16): at decode the kernel is a weight
// stream and bytes in flight per SM are what hide the HBM latency (6 stages of 24 KiB, the first
// version, reached 31% of HBM bandwidth at qwen3-30b-a3b T = 1); two CTAs x 4 steps x 16 KiB
// keep 128 KiB in flight per SM.
constexpr int kMaxStages = 12;             // cp.async.wait_group immediates below go to 10
constexpr int kRingAlign = 1024;           // TMA's 128-byte swizzle repeats every 8 rows of 128 B
constexpr int kMaxSplits = 16;
constexpr int kMinSplitSteps = 4;          // a split streams at least 4 steps (64 KiB of bf16
                                           // weights, 4 x 256 K of W4A16): measured (H200,
                                           // qwen3-30b-a3b T = 1, 32 KiB steps then): 2-step FC2
                                           // splits cost 57-59 us, 4 steps 50-52 us, 6 steps 54;
                                           // other presets within noise
constexpr int kCombineCols = kTileM;       // columns of out per combine tile (= FC2 rows per tile)
constexpr int kCombineVec = 8;             // bf16 columns per thread (one 16-byte load / store)
constexpr int kCombineThreadsPerToken = kCombineCols / kCombineVec;
constexpr int kCombineChunk = 4;           // routes whose y loads are in flight together
constexpr unsigned long long kTimeoutNs = 1000ull * 1000ull * 1000ull;  // 1 s per wait

static_assert(kWarps * 16 == kTileM, "each warp owns one m16 slice of the tile");
static_assert(kChunks == 8, "the XOR swizzle (chunk ^ (row & 7)) needs 8 chunks per row");
static_assert(kCombineThreadsPerToken * kCombineVec == kCombineCols && kThreads % kCombineThreadsPerToken == 0,
              "combine: whole tokens per pass");
static_assert(kCombineCols == ep::kReturnBlockCols, "EP: a return / combine tile is one return block");
static_assert(kMaxRoutes <= 32767 && kMaxExperts <= 32767, "plan indices fit int16");
static_assert(kMaxRoutes % 32 == 0, "the rank loop walks 32 routes at a time");

constexpr unsigned kFull = 0xffffffffu;

// What differs between the weight formats: the bytes of a step's weights (the stage's first
// part; the activations follow), the aux buffers, and the ring that is left.
template <WeightFormat WF>
struct Fmt;
template <>
struct Fmt<WeightFormat::kBf16> {
  static constexpr bool kPacked = false;
  static constexpr bool kFp8 = false;
  // Two CTAs per SM too, with 16 KiB steps (one 64-wide part), units of at most 16 rows and a
  // 96 KiB ring (5 stages at npad 16). Measured against one CTA per SM with 32 KiB steps and
  // 64-row units (H200, 2026-11-30, --tactic mega): T = 1 within +-3%, T = 8 4-10% faster
  // (deepseek-v3 1.260 -> 1.181 ms, qwen3-30b-a3b 0.160 -> 0.145 ms), T = 16 at 82-101% of the
  // floor.
  static constexpr int kParts = 1;               // 128-byte weight parts per row per step
  static constexpr int kBK = kBox * kParts;        // K per step
  static constexpr int kActBytes = 2;              // bf16 activations
  // Gated W13 is gate/up interleaved in groups of 8 rows (common/gate_up_layout.h, the split
  // backend's fused-activation layout): a half's 64 rows are 8 groups of a 4-D tensor map
  // (mega_host.cu), so the ring holds the same rows as with canonical W13.
  static constexpr bool kGateUpInterleaved = true;
  static constexpr int kActParts = kBK * kActBytes / kRowBytes;  // 128-byte activation parts per row per step
  static constexpr int kMinBlocks = 2;
  static constexpr int kWBytes = kParts * kWPart;
  static constexpr int kAuxBytes = 0;
  static constexpr int kRingBytes = 96 * 1024;
};
// fp8_block: e4m3 weights with an fp32 scale per 128x128 block; activations in e4m3 with an fp32
// scale per row per 128 K, quantized once per launch inside the kernel (x by the first work
// items, `a` by the FC1 tile that completes a 128-column block; the CPU quantizer's rule, bit
// for bit) into the workspace. A step is 128 K: one 128-byte part of e4m3 per weight row (the
// bf16 step's bytes, TMA boxes and swizzle) and per activation row, exactly one scale block along
// K. mma.sync m16n8k32 e4m3 (the bf16 fragment geometry in bytes) accumulates the step into a
// temporary that is promoted into the fp32 accumulator with sw(half) * sx(row): DeepSeek's
// per-128-K promotion. Shared memory before the ring ("aux"): per stage the activation rows'
// scales and the two weight scales of its halves (cp.async 4 B with the step).
template <>
struct Fmt<WeightFormat::kFp8> {
  static constexpr bool kPacked = false;
  static constexpr bool kFp8 = true;
  static constexpr bool kGateUpInterleaved = false;  // canonical W13 (the fp8 split path's)
  static constexpr int kParts = 1;
  static constexpr int kBK = 2 * kBox;   // 128 e4m3 per 128-byte row
  static constexpr int kActBytes = 1;    // e4m3 activations
  static constexpr int kActParts = kBK * kActBytes / kRowBytes;
  static constexpr int kMinBlocks = 2;
  static constexpr int kWBytes = kParts * kWPart;
  static constexpr int kAuxXs = 0;                                  // float xs[kMaxStages][kMaxN]
  static constexpr int kAuxWs = kAuxXs + kMaxStages * kMaxN * 4;    // float ws[kMaxStages][2]
  static constexpr int kAuxBytes = (kAuxWs + kMaxStages * 8 + 127) / 128 * 128;
  static constexpr int kRingBytes = 96 * 1024;  // 5 stages of 17-18 KiB
};
template <Fp4Scale F>
struct FmtFp4 {
  static constexpr bool kPacked = true;
  static constexpr bool kFp8 = false;
  static constexpr bool kGateUpInterleaved = false;  // canonical row order (the W4A16 split path's)
  static constexpr Fp4Scale kScale = F;
  static constexpr int kPerRow = w4a16::ScaleCfg<F>::kPerRow;  // scale codes per row per 64 K
  // 4 parts: a weight row's packed codes of one step are 128 bytes, one TMA request per row
  // per step. Measured (H200, gpt-oss-120b / deepseek-v3 T = 1): with 32-byte rows (2 parts of
  // 64 K as bf16, four boxes of 64 x 32 B per step) the kernel ran at 600-870 GB/s whatever the
  // ring depth or split: a step's 256 TMA row requests for 8 KiB, against bf16's 256 for 32 KiB.
  static constexpr int kParts = 4;
  static constexpr int kBK = kBox * kParts;
  static constexpr int kActBytes = 2;
  static constexpr int kActParts = kBK * kActBytes / kRowBytes;
  static constexpr int kWBox = kHalfM * kParts * w4a16::kPackedRowBytes;  // 8 KiB: 64 rows x 128 B, SW128
  static constexpr int kSSub = kHalfM * kPerRow;                  // 128 / 256 bytes: 64 rows, one sub-step
  static constexpr int kSBox = kParts * kSSub;                    // a half's codes of the step's sub-steps
  static constexpr int kWPacked = 2 * kWBox;                      // 16 KiB: 128 rows x 256 K
  static constexpr int kWBytes = kWPacked + 2 * kSBox;
  // Two CTAs per SM (16 warps): with one CTA of 8 warps the decode was latency-bound (ncu,
  // H200, deepseek-v3 T = 1: 35% of issue slots busy, 5.4 cycles per issued instruction per
  // warp). What two CTAs fit in 228 KiB: units of at most kMaxN = 16 rows (NT <= 2: the
  // accumulators and a 25-26 KiB stage) and a 100 KiB ring (3-4 stages; the decode needs no
  // table since the register decode of grouped_gemm_w4a16_common.cuh).
  static constexpr int kMinBlocks = 2;
  static constexpr int kAuxBytes = 0;
  static constexpr int kRingBytes = 100 * 1024;
};
template <>
struct Fmt<WeightFormat::kMxfp4> : FmtFp4<Fp4Scale::kMxfp4> {};
template <>
struct Fmt<WeightFormat::kNvfp4> : FmtFp4<Fp4Scale::kNvfp4> {};

// A step: kBK K elements; activations npad rows x kActParts 128-byte parts (bf16, or e4m3 for
// fp8), loaded as 16-byte chunks (kPerChunk elements) by cp.async: a thread takes chunk
// tid % kActChunks of rows tid / kActChunks + kActRows q, q < kActQ.
template <WeightFormat WF>
struct Step {
  static constexpr int kBK = Fmt<WF>::kBK;
  static constexpr int kActChunks = kChunks * Fmt<WF>::kActParts;
  static constexpr int kActRows = kThreads / kActChunks;
  static constexpr int kActQ = (kMaxN + kActRows - 1) / kActRows;
  static constexpr int kPerChunk = 16 / Fmt<WF>::kActBytes;
  static constexpr int kXBytes = kMaxN * kRowBytes * Fmt<WF>::kActParts;  // a widest unit's activations
  static_assert(kThreads % kActChunks == 0, "whole rows of chunks per pass");
};

template <WeightFormat WF>
constexpr int dyn_smem_bytes() {  // aux (fp8 buffers), then the ring aligned inside the allocation
  return Fmt<WF>::kAuxBytes + kRingAlign + Fmt<WF>::kRingBytes;
}
template <WeightFormat WF>
constexpr bool fits() {
  // 228 KiB per SM, 1 KiB of it reserved per CTA; the plan and barriers ~9.5 KiB static.
  return Fmt<WF>::kRingBytes / (Fmt<WF>::kWBytes + Step<WF>::kXBytes) >= 3 &&
         (dyn_smem_bytes<WF>() + 10 * 1024 + 1024) * Fmt<WF>::kMinBlocks <= 228 * 1024 && Fmt<WF>::kWBytes % 1024 == 0;
}
static_assert(fits<WeightFormat::kBf16>() && fits<WeightFormat::kMxfp4>() && fits<WeightFormat::kNvfp4>() &&
                  fits<WeightFormat::kFp8>(),
              "ring: >= 2 steps in flight at npad 16; aux + ring + plan within the 227 KiB of a CTA; "
              "stages stay 1024-byte aligned (the 128-byte swizzle of the TMA boxes)");

// The route plan of one launch, rebuilt by every CTA (static shared memory).
struct Plan {
  int16_t route_e[kMaxRoutes];     // local expert of route i, or -1
  int16_t route_rank[kMaxRoutes];  // rank of route i among its expert's routes
  int16_t route_row[kMaxRoutes];   // row of route i, or -1
  int16_t row_route[kMaxRoutes];   // route of row r
  int16_t unit_e[kMaxRoutes];      // expert of unit u
  int16_t unit_row0[kMaxRoutes];   // first row of unit u
  int16_t unit_n[kMaxRoutes];      // rows of unit u (1..64)
  int cnt[kMaxExperts];            // rows per expert, then the expert's first row
  int units, invalid, max_n;       // max_n: rows of the widest unit
  int item[2];                     // the current and the next item (claimed ahead), slots alternating
  int flag, abort, nx_ready;
  unsigned long long t_first;      // trace: when the current tile's first step was ready (EP return
                                   // and combine tiles: when what they wait for had arrived)
  unsigned long long epoch;        // EP: this forward's exchange epoch
  int ep_rows[kMaxEpRanks];        // EP: rows received from each source
};

// Params (mega_params.h): the weights as 3-D TMA tensors {K (innermost), rows of one expert,
// expert}: bf16 boxes of 64 x 64 (128 bytes x 64 rows, 128-byte swizzle) of W13 [EL, N13, H] and
// W2 [EL, H, I]; W4A16 boxes of 32 bytes x 64 rows of the packed bytes, and scale tiles as
// {N * s codes, K / 64, expert} with boxes of 64 rows' codes of one 64-wide K sub-step.

// One work item, decoded.
struct Item {
  int kind;  // kNone, kFC1, kFC2, kCombine
  int u, blk, s, S, tl, k0, nk;
  int e, row0, n, kdim;
  int c1[2];  // first row (within expert e) of each 64-row weight half; rows past the tensor
              // (relu2's or W2's last half block) are zero-filled by TMA and never stored
};
constexpr int kNone = 0, kFC1 = 1, kFC2 = 2, kCombine = 3, kReturn = 4;

// fp8_block's 128-wide blocks along a dimension of n (scale blocks, x-quantization items).
__device__ __forceinline__ int blocks128(int64_t n) { return int((n + 127) / 128); }

// Phase geometry, the same in every CTA.
struct Phases {
  int QX;                 // fp8: x quantization items (one per 128 columns of H), else 0
  int nb1, S1, spl1, T1;  // FC1: blocks per unit, splits, steps per split, tiles x splits
  int nb2, S2, spl2, T2;
  int IB;                 // 128-column blocks of `a`
  int total;
};

using ptx::smem_u32;

__device__ __forceinline__ int ld_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Thread 0: waits until *p >= target; false after timeout_ns.
__device__ bool wait_geq(const int* p, int target, unsigned long long timeout_ns) {
  if (ld_acquire(p) >= target) return true;
  const unsigned long long t0 = global_timer();
  unsigned ns = 32;
  for (;;) {
    __nanosleep(ns);
    if (ns < 128) ns *= 2;
    if (ld_acquire(p) >= target) return true;
    if (global_timer() - t0 > timeout_ns) return false;
  }
}

// S splits of nk_total steps for `tiles` tiles (see "split-K" above); tiles * S <= slots.
// rounds: of the S allowed, the one with the fewest step-times on the phase's critical path,
// ceil(tiles S / grid) rounds x spl steps (ties: fewer splits), instead of the largest.
__device__ void choose_splits(int tiles, int nk_total, int grid, int slots, int min_steps, int target, bool rounds,
                              int& S, int& spl) {
  S = 1;
  if (tiles > 0 && tiles < target * grid) {
    S = (target * grid + tiles - 1) / tiles;
    S = min(S, kMaxSplits);
    S = min(S, max(1, nk_total / min_steps));
    while (S > 1 && tiles * S > slots) --S;
  }
  if (rounds) {
    int best = S, best_cost = 1 << 30;
    for (int s = 1; s <= S; ++s) {
      const int sp = (nk_total + s - 1) / s, se = (nk_total + sp - 1) / sp;
      const int cost = (tiles * se + grid - 1) / grid * sp;
      if (cost < best_cost) {
        best_cost = cost;
        best = s;
      }
    }
    S = best;
  }
  spl = (nk_total + S - 1) / S;
  S = (nk_total + spl - 1) / spl;
}

template <WeightFormat WF>
__device__ Phases make_phases(const MegaArgs& a, int units, int slots) {
  constexpr int kBK = Step<WF>::kBK;
  Phases p;
  const bool gated = a.activation != Activation::kReLU2;
  p.nb1 = gated ? int(a.I / kHalfM) : int((a.I + kTileM - 1) / kTileM);
  const int min_steps = a.min_split_steps > 0 ? a.min_split_steps : kMinSplitSteps;
  const int target = a.split_target > 0 ? a.split_target : kSplitTarget;
  choose_splits(units * p.nb1, int((a.H + kBK - 1) / kBK), int(gridDim.x), slots, min_steps, target, a.split_rounds,
                p.S1, p.spl1);
  p.T1 = units * p.nb1 * p.S1;
  p.nb2 = int((a.H + kTileM - 1) / kTileM);
  choose_splits(units * p.nb2, int((a.I + kBK - 1) / kBK), int(gridDim.x), slots, min_steps, target, a.split_rounds,
                p.S2, p.spl2);
  p.T2 = units * p.nb2 * p.S2;
  p.IB = blocks128(a.I);
  p.QX = Fmt<WF>::kFp8 ? blocks128(a.H) : 0;
  // combine: one tile per 128 columns, as FC2's row blocks. EP: the GEMM loop's items end here;
  // a return tile per block and then a combine tile per block follow (ep_tail).
  p.total = p.QX + p.T1 + p.T2 + (a.ep.on ? 0 : p.nb2);
  return p;
}

template <WeightFormat WF>
__device__ Item decode(int item, const Phases& ph, const Plan& pl, const MegaArgs& a) {
  constexpr int kBK = Step<WF>::kBK;
  Item d{};
  d.kind = kNone;
  // Items below QX (fp8's x quantization) are run before the plan is built, never decoded.
  if (item < ph.QX || item >= ph.total) return d;
  item -= ph.QX;
  if (item >= ph.T1 + ph.T2) {
    d.kind = kCombine;
    d.blk = item - ph.T1 - ph.T2;  // EP: return tiles, then combine tiles (ep_tail decodes them)
    return d;
  }
  const bool fc1 = item < ph.T1;
  const int local = fc1 ? item : item - ph.T1;
  const int S = fc1 ? ph.S1 : ph.S2, nb = fc1 ? ph.nb1 : ph.nb2, spl = fc1 ? ph.spl1 : ph.spl2;
  d.kdim = int(fc1 ? a.H : a.I);
  const int nk_total = (d.kdim + kBK - 1) / kBK;  // a last half step reads zeros past K
  d.kind = fc1 ? kFC1 : kFC2;
  d.S = S;
  // Unsigned: every operand is >= 0, and the unsigned division is the shorter instruction sequence.
  const unsigned tl = unsigned(local) / unsigned(S), u = tl / unsigned(nb);
  d.s = local - int(tl) * S;
  d.tl = int(tl);
  d.blk = int(tl - u * unsigned(nb));
  d.u = int(u);
  d.k0 = d.s * spl;
  d.nk = min(spl, nk_total - d.k0);
  d.e = pl.unit_e[d.u];
  d.row0 = pl.unit_row0[d.u];
  d.n = pl.unit_n[d.u];
  if (fc1 && a.activation != Activation::kReLU2) {
    d.c1[0] = d.blk * kHalfM;              // gate rows
    d.c1[1] = int(a.I) + d.blk * kHalfM;   // the matching up rows
  } else {
    d.c1[0] = d.blk * kTileM;
    d.c1[1] = d.blk * kTileM + kHalfM;
  }
  return d;
}

// A tile's activation source rows as this thread loads them: element offsets from `base` (x for
// FC1, the workspace `a` for FC2; fp8: their quantized rows in xq / aq, each followed by its
// scales, see fp8_row_bytes) of rows n = tid / kActChunks + kActRows q (Step), -1 for none
// (zero-filled). Offsets, not pointers: two tiles' worth stay in registers (T <= 64 tokens, 512
// rows: int32).
template <WeightFormat WF>
struct SrcRows {
  const uint8_t* base = nullptr;
  int off[Step<WF>::kActQ];
};

// Weights of step `step` of tile d into the stage at shared address `base` (thread 0: two TMA
// boxes of 64 rows x 128 bytes, completing on the stage's barrier `bar`).
// W4A16: per half h, one box of packed codes (64 rows x 128 bytes: the step's 256 K, 128-byte
// swizzle) at base + h * kWBox, and one of scale codes (the step's 4 sub-steps x 64 rows) at
// base + kWPacked + h * kSBox.
// fp8: also the two weight scales of the step's halves (block (k0 + step, c1[h] / 128) of the
// MN-major [E_local, KB, NB] scales), by cp.async into `wsc` (the stage's pair in aux).
template <WeightFormat WF>
__device__ __forceinline__ void issue_weights(const Params& p, uint32_t base, uint32_t bar, uint32_t wsc, const Item& d,
                                              int step) {
  using F = Fmt<WF>;
  if (threadIdx.x != 0) return;
  const bool fc1 = d.kind == kFC1;
  const void* tm = fc1 ? static_cast<const void*>(&p.tm13) : static_cast<const void*>(&p.tm2);
  ptx::mbar_arrive_expect_tx(bar, F::kWBytes);  // boxes past K are zero-filled and still counted
  if constexpr (!F::kPacked) {
    const int k = (d.k0 + step) * F::kBK;  // element (bf16) or byte (e4m3) coordinate
    if (F::kGateUpInterleaved && fc1 && p.a.activation != Activation::kReLU2) {
      // 4-D map (K, 8 rows, gate / up, groups of 16 rows over all experts): half h of the tile is
      // groups c1[0] / 8 .. + 7 of expert e, their gate (h = 0) or up (h = 1) rows.
      const int group = d.e * int(p.a.I / gate_up::kGroup) + d.c1[0] / gate_up::kGroup;
#pragma unroll
      for (int part = 0; part < F::kParts; ++part)
#pragma unroll
        for (int h = 0; h < 2; ++h)
          ptx::tma_load_4d(base + part * kWPart + h * (kWPart / 2), tm, bar, k + part * (F::kBK / F::kParts), 0, h,
                           group);
    } else {
#pragma unroll
      for (int part = 0; part < F::kParts; ++part)
#pragma unroll
        for (int h = 0; h < 2; ++h)
          ptx::tma_load_3d(base + part * kWPart + h * (kWPart / 2), tm, bar, k + part * (F::kBK / F::kParts),
                           d.c1[h], d.e);
    }
    if constexpr (F::kFp8) {  // 32-bit indices: E_local * KB * NB < 2^31 for any real layer
      const int N = fc1 ? int(p.a.activation != Activation::kReLU2 ? 2 * p.a.I : p.a.I) : int(p.a.H);
      const int NB = (N + F::kBK - 1) / F::kBK, KB = (d.kdim + F::kBK - 1) / F::kBK;
      const float* sc = (fc1 ? p.a.wscale13 : p.a.wscale2) + (d.e * KB + d.k0 + step) * NB;
      ptx::cp_async4(wsc, sc + d.c1[0] / F::kBK);
      ptx::cp_async4(wsc + 4u, sc + d.c1[1] / F::kBK);
    }
  } else {
    const void* ts = fc1 ? static_cast<const void*>(&p.ts13) : static_cast<const void*>(&p.ts2);
    const int kt = (d.k0 + step) * F::kParts;  // first 64-wide K sub-step of the step
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      ptx::tma_load_3d(base + h * F::kWBox, tm, bar, kt * w4a16::kPackedRowBytes, d.c1[h], d.e);
      ptx::tma_load_3d(base + F::kWPacked + h * F::kSBox, ts, bar, d.c1[h] * F::kPerRow, kt, d.e);
    }
  }
}

// Activations of step `step` into the stage at `stage_base` (after its weights): rows n < npad of
// the unit (rows >= d.n are zero-filled), from this thread's source rows.
// fp8: the rows' scales of the step go to `xs` (the stage's kMaxN floats in aux) by the threads of
// chunk 0.
template <WeightFormat WF>
__device__ __forceinline__ void issue_acts(uint32_t stage_base, uint32_t xs, const Item& d, int step, int npad,
                                           const SrcRows<WF>& src_rows) {
  using St = Step<WF>;
  // Thread: 16-byte chunk c of the step's row bytes (part c / 8), rows tid / kActChunks + kActRows q.
  const int tid = threadIdx.x, c = tid % St::kActChunks, part = c / kChunks, cc = c % kChunks;
  const uint32_t base = stage_base + Fmt<WF>::kWBytes + part * npad * kRowBytes;
  const int kk = (d.k0 + step) * St::kBK + c * St::kPerChunk;
  const bool in_k = kk < d.kdim;  // the last half step of K = 64 (mod 128) reads zeros
#pragma unroll
  for (int q = 0; q < St::kActQ; ++q) {
    const int n = tid / St::kActChunks + St::kActRows * q;
    if (n >= npad) continue;
    const int off = src_rows.off[q];
    const bool valid = off >= 0 && in_k;
    const uint8_t* src = src_rows.base + (valid ? (off + kk) * Fmt<WF>::kActBytes : 0);  // zero-fill reads nothing
    ptx::cp_async16(base + n * kRowBytes + ((cc ^ (n & 7)) << 4), src, valid);
    if constexpr (Fmt<WF>::kFp8) {  // the row's scale of this 128-K block: after its K codes
      if (c == 0)
        ptx::cp_async4(xs + 4u * n, src_rows.base + (off >= 0 ? off + d.kdim + 4 * (d.k0 + step) : 0), off >= 0);
    }
  }
}

// 64 bytes of K (bf16: k16 blocks 2 kp and 2 kp + 1 of a 64-wide part; e4m3: k32 blocks of a
// 128-wide part) of every n8 tile: the B fragments from the part's swizzled activation rows at
// xbase, two MMAs with the A fragments a0 / a1 of those blocks.
template <int NT, bool kE4M3 = false>
__device__ __forceinline__ void mma_32k(uint32_t xbase, int kp, const uint32_t (&a0)[4], const uint32_t (&a1)[4],
                                        float (&acc)[NT][4]) {
  const int lane = threadIdx.x & 31;
#pragma unroll
  for (int nt = 0; nt < NT; ++nt) {
    const int n = nt * 8 + (lane & 7);
    const int chunk = 4 * kp + (lane >> 3);
    uint32_t b0, b1, b2, b3;
    ptx::ldmatrix_x4(xbase + n * kRowBytes + ((chunk ^ (n & 7)) << 4), b0, b1, b2, b3);
    if constexpr (kE4M3) {
      ptx::mma_m16n8k32_e4m3(acc[nt], a0, b0, b1);
      ptx::mma_m16n8k32_e4m3(acc[nt], a1, b2, b3);
    } else {
      ptx::mma_m16n8k16_bf16(acc[nt], a0, b0, b1);
      ptx::mma_m16n8k16_bf16(acc[nt], a1, b2, b3);
    }
  }
}

// One step: acc[NT][4] += W_stage (128 x 128) . X_stage (NT*8 x 128)^T for this warp's m16 slice.
template <int NT>
__device__ __forceinline__ void compute_step_bf16(uint32_t wbase, float (&acc)[NT][4]) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int npad = NT * 8;
  // A rows of this lane's ldmatrix address: matrix m = lane >> 3; m & 1 picks the half.
  const int arow = ((lane >> 3) & 1) * kHalfM + 8 * warp + (lane & 7);
#pragma unroll 1
  for (int part = 0; part < Fmt<WeightFormat::kBf16>::kParts; ++part) {  // 64 K elements in 128-byte rows (not unrolled: registers)
    const uint32_t a_addr = wbase + part * kWPart + arow * kRowBytes;
    const uint32_t xbase = wbase + Fmt<WeightFormat::kBf16>::kWBytes + part * npad * kRowBytes;
#pragma unroll
    for (int kp = 0; kp < kBox / 32; ++kp) {  // 32 K elements: two k16 MMAs
      uint32_t af[2][4];
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int chunk = (2 * kp + h) * 2 + (lane >> 4);
        ptx::ldmatrix_x4(a_addr + ((chunk ^ (lane & 7)) << 4), af[h][0], af[h][1], af[h][2], af[h][3]);
      }
      mma_32k<NT>(xbase, kp, af[0], af[1], acc);
    }
  }
}

// fp8: rows r < nrows of a bf16 matrix `src` (row stride ld), columns [col0, col0 + 128) within
// [0, ncols), quantized to e4m3 with one scale per row (fp8::block_scale / encode: the CPU
// quantizer, bit for bit; columns past ncols count as zeros, as the CPU rule takes the block's
// real columns) into row r of dst (fp8_row_bytes(ncols) bytes per row: the codes, then the
// row's fp32 scales, block col0 / 128 here). All threads: 16 per row, 8 columns each, the row's
// amax by shuffles within the half warp; 16 rows per pass. L2 loads (__ldcg): `a` was written by
// other CTAs of this launch.
__device__ void quantize_block_1x128(const __nv_bfloat16* src, int64_t ld, int nrows, int64_t col0, int64_t ncols,
                                     uint8_t* dst) {
  const int64_t ldq = fp8_row_bytes(ncols);
  float* sdst = reinterpret_cast<float*>(dst + ncols) + col0 / 128;
  const int tid = threadIdx.x, c = tid % 16;
  const int64_t col = col0 + 8 * c;
  for (int r0 = 0; r0 < nrows; r0 += kThreads / 16) {  // uniform across the CTA: shuffles stay converged
    const int r = r0 + tid / 16;
    const bool valid = r < nrows && col < ncols;
    uint4 raw = make_uint4(0u, 0u, 0u, 0u);
    if (valid) raw = __ldcg(reinterpret_cast<const uint4*>(src + int64_t(r) * ld + col));
    const uint32_t w[4] = {raw.x, raw.y, raw.z, raw.w};
    float v[8];
    uint32_t amax = 0;
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      v[2 * i] = __uint_as_float(w[i] << 16);  // bf16 -> f32 is exact: the bits shifted up
      v[2 * i + 1] = __uint_as_float(w[i] & 0xFFFF0000u);
      amax = max(amax, max(fp8::abs_bits(v[2 * i]), fp8::abs_bits(v[2 * i + 1])));
    }
#pragma unroll
    for (int o = 1; o < 16; o <<= 1) amax = max(amax, __shfl_xor_sync(kFull, amax, o));
    const float s = fp8::block_scale(amax, /*ue8m0=*/false);
    const bool poisoned = amax >= fp8::kInfBits;
    const fp8::ScaleDivisor d = fp8::scale_divisor(s);
    const float lo[4] = {v[0], v[1], v[2], v[3]}, hi[4] = {v[4], v[5], v[6], v[7]};
    if (valid)
      __stcg(reinterpret_cast<uint2*>(dst + int64_t(r) * ldq + col),
             make_uint2(fp8::encode4(lo, d, poisoned), fp8::encode4(hi, d, poisoned)));
    if (c == 0 && r < nrows) __stcg(reinterpret_cast<float*>(reinterpret_cast<uint8_t*>(sdst) + int64_t(r) * ldq), s);
  }
}

// The fp8 step: acc += (W_stage . Xq_stage^T) * sw(half) * sx(row) -- the step's 128 K are one
// scale block on both sides, accumulated by m16n8k32 e4m3 MMAs into a temporary, then promoted.
template <int NT>
__device__ __forceinline__ void compute_step_fp8(uint32_t wbase, uint32_t xs, uint32_t wsc, float (&acc)[NT][4]) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint32_t xq = wbase + Fmt<WeightFormat::kFp8>::kWBytes;
  const int arow = ((lane >> 3) & 1) * kHalfM + 8 * warp + (lane & 7);
  const uint32_t a_addr = wbase + arow * kRowBytes;
  float t[NT][4];
#pragma unroll
  for (int nt = 0; nt < NT; ++nt)
#pragma unroll
    for (int q = 0; q < 4; ++q) t[nt][q] = 0.0f;
#pragma unroll
  for (int kp = 0; kp < 2; ++kp) {  // 64 K: two k32 MMAs
    uint32_t af[2][4];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int chunk = (2 * kp + h) * 2 + (lane >> 4);
      ptx::ldmatrix_x4(a_addr + ((chunk ^ (lane & 7)) << 4), af[h][0], af[h][1], af[h][2], af[h][3]);
    }
    mma_32k<NT, true>(xq, kp, af[0], af[1], t);
  }
  float sw0, sw1;
  asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(sw0), "=f"(sw1) : "r"(wsc));
#pragma unroll
  for (int nt = 0; nt < NT; ++nt) {
    float sx0, sx1;  // rows n, n + 1 of the thread's accumulators
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(sx0), "=f"(sx1) : "r"(xs + 4u * (nt * 8 + 2 * (lane & 3))));
    acc[nt][0] = fmaf(t[nt][0], __fmul_rn(sw0, sx0), acc[nt][0]);
    acc[nt][1] = fmaf(t[nt][1], __fmul_rn(sw0, sx1), acc[nt][1]);
    acc[nt][2] = fmaf(t[nt][2], __fmul_rn(sw1, sx0), acc[nt][2]);
    acc[nt][3] = fmaf(t[nt][3], __fmul_rn(sw1, sx1), acc[nt][3]);
  }
}

// The W4A16 step: per 64-wide K sub-step, the lane's 8 fragment-order bytes of its two rows
// (half-0 row 8 warp + gq and half-1 row 8 warp + gq: the A fragment's rows gq and gq + 8) and
// their scale codes, decoded to the A fragments of four k16 blocks; then the bf16 step's B
// fragments and MMAs. Two sub-steps go together so that their decodes overlap.
template <WeightFormat WF, int NT>
__device__ __forceinline__ void compute_step_fp4(uint32_t wbase, float (&acc)[NT][4]) {
  using F = Fmt<WF>;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int npad = NT * 8;
  const int row = 8 * warp + (lane >> 2), tig = lane & 3;
  // Sub-step `part`'s packed bytes (rows gq, gq + 8: 8 bytes of 16-byte chunk 2 part + tig / 2
  // of the swizzled 128-byte rows; row & 7 == gq) and scale codes. Volatile: after the stage's
  // wait and barrier, in program order with the ldmatrix loads.
  auto load = [&](int part, uint2& wa, uint2& wb, uint32_t& ca, uint32_t& cb) {
    const int gq = lane >> 2;
    const uint32_t wa_addr = wbase + row * kRowBytes + (((2 * part + (tig >> 1)) ^ gq) << 4) + (tig & 1) * 8;
    const uint32_t sa_addr = wbase + F::kWPacked + part * F::kSSub + row * F::kPerRow;
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(wa.x), "=r"(wa.y) : "r"(wa_addr));
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(wb.x), "=r"(wb.y) : "r"(wa_addr + F::kWBox));
    if constexpr (F::kPerRow == 2) {
      asm volatile("ld.shared.u16 %0, [%1];" : "=r"(ca) : "r"(sa_addr));
      asm volatile("ld.shared.u16 %0, [%1];" : "=r"(cb) : "r"(sa_addr + F::kSBox));
    } else {
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(ca) : "r"(sa_addr));
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(cb) : "r"(sa_addr + F::kSBox));
    }
  };
  auto decode_mma = [&](int part, uint2 wa, uint2 wb, uint32_t ca, uint32_t cb) {
    uint32_t af[4][4];
    w4a16::decode_step<F::kScale>(wa, wb, ca, cb, af);
    const uint32_t xbase = wbase + F::kWBytes + part * npad * kRowBytes;
#pragma unroll
    for (int kp = 0; kp < kBox / 32; ++kp) mma_32k<NT>(xbase, kp, af[2 * kp], af[2 * kp + 1], acc);
  };
  static_assert(F::kParts % 2 == 0, "sub-steps go in pairs");
#pragma unroll 1
  for (int p0 = 0; p0 < F::kParts; p0 += 2) {  // two sub-steps at a time (all four measured no faster)
    uint2 wa[2], wb[2];
    uint32_t ca[2], cb[2];
#pragma unroll
    for (int i = 0; i < 2; ++i) load(p0 + i, wa[i], wb[i], ca[i], cb[i]);
#pragma unroll
    for (int i = 0; i < 2; ++i) decode_mma(p0 + i, wa[i], wb[i], ca[i], cb[i]);
  }
}

// cp.async.wait_group with a run-time count (the ring depth is chosen per launch).
__device__ __forceinline__ void cp_async_wait_upto(int n) {
  switch (n) {
    case 0: ptx::cp_async_wait<0>(); break;
    case 1: ptx::cp_async_wait<1>(); break;
    case 2: ptx::cp_async_wait<2>(); break;
    case 3: ptx::cp_async_wait<3>(); break;
    case 4: ptx::cp_async_wait<4>(); break;
    case 5: ptx::cp_async_wait<5>(); break;
    case 6: ptx::cp_async_wait<6>(); break;
    case 7: ptx::cp_async_wait<7>(); break;
    case 8: ptx::cp_async_wait<8>(); break;
    case 9: ptx::cp_async_wait<9>(); break;
    default: ptx::cp_async_wait<10>(); break;  // kMaxStages - 2
  }
}

// The tile size class of a unit of n rows: NT m16n8 column tiles, npad = 8 NT rows.
__device__ __forceinline__ int npad_of(int n) { return n <= 8 ? 8 : 16; }

struct Ctx {
  uint32_t ring;    // shared address of stage 0 (1024-byte aligned: the TMA swizzle's period)
  uint32_t bar0;    // shared address of stage 0's full barrier (one 8-byte mbarrier per stage)
  int stages;       // ring depth of this launch (see kRingBytes)
  int stage_bytes;  // a step's weights (Fmt::kWBytes) + npad_max activation rows
  uint32_t aux;                  // shared address of the aux region (fp8: Fmt<kFp8>'s buffers)
  Plan* pl;
  const Params* p;
  const Phases* ph;
  // Global step g uses stage g % stages; each stage's barrier completes once per use, so the
  // use of step g is phase g / stages of that barrier (every issued step is consumed, in order).
  // Two cursors walk the steps without division: consumption (the current tile's next step)
  // and issue (one past the last step whose weights were issued; issues are contiguous).
  uint32_t gstep, gissue;  // global indices of the two cursors
  int cslot, islot;        // their stages
  uint32_t cphase;         // parity of the consumed step's barrier phase
  int pre;                 // steps of the current tile whose weights are already in flight
  int pre_acts;            // ... and whose activations went with them (0, or pre)

  __device__ uint32_t addr(int slot) const { return ring + uint32_t(slot * stage_bytes); }
  __device__ uint32_t bar(int slot) const { return bar0 + uint32_t(slot) * 8u; }
  // fp8: stage `slot`'s two weight scales and its activation rows' scales.
  __device__ uint32_t wsc(int slot) const { return aux + uint32_t(Fmt<WeightFormat::kFp8>::kAuxWs + 8 * slot); }
  __device__ uint32_t xs(int slot) const { return aux + uint32_t(Fmt<WeightFormat::kFp8>::kAuxXs + 4 * kMaxN * slot); }
  __device__ int slot_after(int slot, int k) const {  // (slot + k) mod stages, 0 <= k < stages
    slot += k;
    return slot >= stages ? slot - stages : slot;
  }
  __device__ void consumed() {
    ++gstep;
    if (++cslot == stages) {
      cslot = 0;
      cphase ^= 1u;
    }
  }
  __device__ void issued() {
    ++gissue;
    if (++islot == stages) islot = 0;
  }
};

// Epilogue of one FC1/FC2 tile with the final accumulators (split sum already done).
// `al`: nvfp4's per-expert global scale of the tile's weights (1 otherwise), applied to the
// accumulators first, as the split path's W4A16 GEMM does (D = alpha * acc).
template <int NT>
__device__ __forceinline__ void epilogue(const Item& d, const MegaArgs& a, const MegaWorkspace& ws,
                                         const float (&acc)[NT][4], float al) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int g = lane >> 2, c = lane & 3, mrow = 8 * warp + g;
  const bool gated = a.activation != Activation::kReLU2;
  const int64_t N13 = gated ? 2 * a.I : a.I;
  __nv_bfloat16* abuf = static_cast<__nv_bfloat16*>(ws.a);
  __nv_bfloat16* ybuf = static_cast<__nv_bfloat16*>(ws.y);
#pragma unroll
  for (int nt = 0; nt < NT; ++nt) {
#pragma unroll
    for (int jn = 0; jn < 2; ++jn) {
      const int n = nt * 8 + 2 * c + jn;
      if (n >= d.n) continue;
      const int64_t row = d.row0 + n;
      const float v0 = __fmul_rn(al, acc[nt][jn]), v1 = __fmul_rn(al, acc[nt][2 + jn]);  // half-0 / half-1 row mrow
      if (d.kind == kFC1) {
        if (gated) {
          const int64_t j = int64_t(d.blk) * kHalfM + mrow;
          float gv = v0, uv = v1;
          if (a.b13) {
            gv = __fadd_rn(gv, __ldg(a.b13 + d.e * N13 + j));
            uv = __fadd_rn(uv, __ldg(a.b13 + d.e * N13 + a.I + j));
          }
          abuf[row * a.I + j] = __float2bfloat16_rn(act::act_apply(a.activation, gv, uv, a.limit, a.alpha));
        } else {
          const int64_t j0 = int64_t(d.blk) * kTileM + mrow, j1 = j0 + kHalfM;
          float h0 = v0, h1 = v1;
          if (a.b13) h0 = __fadd_rn(h0, __ldg(a.b13 + d.e * N13 + j0));
          abuf[row * a.I + j0] = __float2bfloat16_rn(act::act_apply(a.activation, h0, 0.0f, a.limit, a.alpha));
          if (j1 < a.I) {
            if (a.b13) h1 = __fadd_rn(h1, __ldg(a.b13 + d.e * N13 + j1));
            abuf[row * a.I + j1] = __float2bfloat16_rn(act::act_apply(a.activation, h1, 0.0f, a.limit, a.alpha));
          }
        }
      } else {
        const int64_t h0 = int64_t(d.blk) * kTileM + mrow, h1 = h0 + kHalfM;
        float y0 = v0, y1 = v1;
        if (a.b2) y0 = __fadd_rn(y0, __ldg(a.b2 + d.e * a.H + h0));
        ybuf[row * a.H + h0] = __float2bfloat16_rn(y0);
        if (h1 < a.H) {
          if (a.b2) y1 = __fadd_rn(y1, __ldg(a.b2 + d.e * a.H + h1));
          ybuf[row * a.H + h1] = __float2bfloat16_rn(y1);
        }
      }
    }
  }
}

// Releases this CTA's stores (all threads) and increments *counter once: a barrier, then one
// release by thread 0 (ptx::red_add_release_gpu), so only that thread waits for the stores to
// land. Measured in a stream micro-benchmark shaped as qwen3-30b-a3b's FC1 at T = 1 (576 split
// tiles on 264 CTAs, H200; bench/results/2026-12-02_stream_micro_split_epilogue): publishing
// each split's partial with a __threadfence in every thread made the phase 18.8 us, with one
// thread's acq_rel atomic (arrive_last) 17.5 us, with an answerless release 16.6 us; without
// any publication it took 14.2 us.
__device__ __forceinline__ void signal(int* counter) {
  __syncthreads();
  if (threadIdx.x == 0) ptx::red_add_release_gpu(counter, 1);
}

// One of `arrivals` CTAs that publish into a shared result: releases this CTA's stores (as
// signal) and returns, to the whole CTA, whether it arrived last -- then the other arrivals'
// stores are visible to it (thread 0's acquire, then the barrier).
__device__ __forceinline__ bool arrive_last(Plan& pl, int* counter, int arrivals) {
  __syncthreads();
  if (threadIdx.x == 0) pl.flag = ptx::atom_add_acq_rel_gpu(counter, 1) == arrivals - 1;
  __syncthreads();
  return pl.flag != 0;
}

// Thread 0 waits for *p >= target; the whole CTA learns the outcome (Plan::abort).
// The bound is MegaArgs::wait_timeout_ns (0: kTimeoutNs). pl.abort is written only here, by thread
// 0 before a barrier, and read by the other threads after one: the work loops read it before the
// barrier that ends an item, never at their top (thread 0 may already be waiting in the next item).
__device__ bool cta_wait(Plan& pl, const int* p, int target, const MegaArgs& a) {
  if (threadIdx.x == 0) {
    if (!wait_geq(p, target, a.wait_timeout_ns > 0 ? a.wait_timeout_ns : kTimeoutNs)) {
      pl.abort = 1;
      atomicAdd(a.invalid_count, kTimeoutMark);
    }
    __threadfence();
  }
  __syncthreads();
  return pl.abort == 0;
}

// This thread's activation source rows of tile d (n as in SrcRows): x rows of the routed
// tokens for FC1, the unit's rows of the workspace `a` for FC2.
template <WeightFormat WF>
__device__ __forceinline__ void source_rows(const Item& d, const Plan& pl, const MegaArgs& a, const MegaWorkspace& ws,
                                            SrcRows<WF>& src) {
  constexpr bool kFp8 = Fmt<WF>::kFp8;
  const bool fc1 = d.kind == kFC1;
  src.base = static_cast<const uint8_t*>(kFp8 ? (fc1 ? ws.xq : ws.aq) : (fc1 ? a.x : ws.a));
  const int ld = int(kFp8 ? fp8_row_bytes(fc1 ? a.H : a.I) : (fc1 ? a.ldx : a.I));
#pragma unroll
  for (int q = 0; q < Step<WF>::kActQ; ++q) {
    const int n = threadIdx.x / Step<WF>::kActChunks + Step<WF>::kActRows * q;
    src.off[q] = -1;
    if (n < d.n) {
      const int r = d.row0 + n;
      src.off[q] = (fc1 ? pl.row_route[r] / int(a.K) : r) * ld;
    }
  }
}

// What a GEMM tile's activations wait for: FC2 for its unit's `a` rows (unit_done[u] == every
// FC1 tile of the unit, fp8: every quantized 128-column block), fp8 FC1 for the quantized
// x (counters[2] == QX); bf16 / W4A16 FC1 reads x, always ready (p null).
// has_dep says whether there is one; dep_of (only then) what it is -- computed where it is waited
// for, so that no pointer stays live across the issue loops (W4A16's register budget).
struct Dep {
  const int* p;
  int target;
};
template <WeightFormat WF>
__device__ __forceinline__ bool has_dep(const Item& d) {
  return d.kind == kFC2 || (Fmt<WF>::kFp8 && d.kind == kFC1);
}
template <WeightFormat WF>
__device__ __forceinline__ Dep dep_of(const Item& d, const MegaWorkspace& ws, const Phases& ph) {
  if (d.kind == kFC2) return {ws.unit_done + d.u, Fmt<WF>::kFp8 ? ph.IB : ph.nb1};
  return {reinterpret_cast<const int*>(ws.counters + 2), ph.QX};  // fp8 FC1
}

// Thread 0: may tile nx's activations be loaded now (acquire)?
template <WeightFormat WF>
__device__ __forceinline__ int next_ready(const Item& nx, const MegaWorkspace& ws, const Phases& ph) {
  if (nx.kind != kFC1 && nx.kind != kFC2) return 0;
  if (!has_dep<WF>(nx)) return 1;
  const Dep dep = dep_of<WF>(nx, ws, ph);
  if (ld_acquire(dep.p) >= dep.target) {
    __threadfence();  // as cta_wait: the CTA's loads after the barrier see the released rows
    return 1;
  }
  return 0;
}

// fp8, after an FC1 tile's epilogue: the tiles that write one 128-column block of the unit's `a`
// (gated: blocks 2m and 2m + 1 of 64 columns; relu2: one tile of 128) count their arrivals; the
// last one quantizes the block (quantize_block_1x128) and increments unit_done[u], which FC2
// waits on until all ceil(I/128) blocks are in.
__device__ void quantize_a_block(Ctx& cx, const Item& d) {
  const MegaArgs& a = cx.p->a;
  const MegaWorkspace& ws = cx.p->ws;
  Plan& pl = *cx.pl;
  const Phases& ph = *cx.ph;
  const bool gated = a.activation != Activation::kReLU2;
  const int m = gated ? d.blk / 2 : d.blk;
  const int writers = gated ? min(2, ph.nb1 - 2 * m) : 1;
  if (!arrive_last(pl, ws.ablock_arrive + d.u * ph.IB + m, writers)) return;
  quantize_block_1x128(static_cast<const __nv_bfloat16*>(ws.a) + int64_t(d.row0) * a.I, a.I, d.n, int64_t(m) * 128,
                       a.I, static_cast<uint8_t*>(ws.aq) + int64_t(d.row0) * fp8_row_bytes(a.I));
  signal(ws.unit_done + d.u);
}

// fp8: work item blk of the first QX: x's columns [128 blk, 128 blk + 128) of every token, into
// xq; counters[2] counts the items done (fp8 FC1 tiles wait for QX). They need no route plan, so
// a CTA runs the ones it claims before it builds the plan (see the kernel).
__device__ void quantize_x_item(const Params& p, int blk) {
  quantize_block_1x128(static_cast<const __nv_bfloat16*>(p.a.x), p.a.ldx, int(p.a.T), int64_t(blk) * 128, p.a.H,
                       static_cast<uint8_t*>(p.ws.xq));
  signal(reinterpret_cast<int*>(p.ws.counters + 2));
}

// One FC1 or FC2 tile (the NT-token variant), including the next tile's prefetch: the next
// tile's weights always (they depend on nothing), its activations with them when they are
// ready, so that tile starts without draining the ring.
template <WeightFormat WF, int NT>
__device__ void gemm_tile(Ctx& cx, const Item& d, int claim, int slot) {
  const MegaArgs& a = cx.p->a;
  const MegaWorkspace& ws = cx.p->ws;
  Plan& pl = *cx.pl;
  const int tid = threadIdx.x;
  const int P = cx.stages - 1;  // steps in flight
  constexpr int npad = NT * 8;
  // The next item (see "claim" in the kernel): thread 0 publishes its claim in pl.item[slot], and
  // whether that tile's activations may be loaded now, just before a barrier; after it every
  // thread adopts it.
  // That happens before the first step of the next tile is issued: at the start when this tile
  // has at most P steps, else at iteration d.nk - P, so the claim's atomic has this tile's first
  // steps to come back. Its readiness is decided there and never changes afterwards.
  Item nx{};
  bool nx_gemm = false;
  int nx_npad = 0, nx_ready = 0;
  SrcRows<WF> nx_rows;
  auto publish_next = [&]() {  // thread 0, before a barrier
    pl.item[slot] = claim;
    pl.nx_ready = a.early_acts ? next_ready<WF>(decode<WF>(claim, *cx.ph, pl, a), ws, *cx.ph) : 0;
  };
  auto adopt_next = [&]() {  // every thread, after that barrier
    nx = decode<WF>(pl.item[slot], *cx.ph, pl, a);
    nx_gemm = nx.kind == kFC1 || nx.kind == kFC2;
    nx_npad = nx_gemm ? npad_of(nx.n) : 0;
    nx_ready = pl.nx_ready;
    if (nx_gemm) source_rows(nx, pl, a, ws, nx_rows);
  };
  // The iteration that issues the next tile's first step (if > 0). fp8 publishes at the start:
  // its tile holds the step's scales in registers too, and the later publication cost it 8 bytes
  // more spill and 2.5% (H200, --tactic mega, T = 1..32, four presets).
  const int j_next = Fmt<WF>::kFp8 ? 0 : d.nk - P;
  if (j_next <= 0) {
    if (tid == 0) publish_next();
    __syncthreads();
    adopt_next();
  }
  int issued_next = 0;
  // Step k of the relative sequence (k >= d.nk: the next tile's step k - d.nk), one group.
  auto issue_rel = [&](int k, bool with_acts, const SrcRows<WF>& xrow) {
    // Real issues are contiguous: step k of this tile is global step gstep + k == gissue.
    const uint32_t base = cx.addr(cx.islot), bar = cx.bar(cx.islot);
    if (k < d.nk) {
      issue_weights<WF>(*cx.p, base, bar, cx.wsc(cx.islot), d, k);
      if (with_acts) issue_acts<WF>(base, cx.xs(cx.islot), d, k, npad, xrow);
      cx.issued();
    } else if (nx_gemm && k - d.nk < nx.nk) {
      issue_weights<WF>(*cx.p, base, bar, cx.wsc(cx.islot), nx, k - d.nk);
      if (nx_ready) issue_acts<WF>(base, cx.xs(cx.islot), nx, k - d.nk, nx_npad, nx_rows);
      cx.issued();
      ++issued_next;
    }
    ptx::cp_async_commit();
  };
  // d's activations are ready now for FC1, and for FC2 when the previous tile saw its unit done
  // (it then issued them with the weights of the steps already in flight).
  const bool waits = has_dep<WF>(d);
  const bool acts_early = (!waits && a.early_acts) || (cx.pre > 0 && cx.pre_acts == cx.pre);
  SrcRows<WF> xrow;
  if (acts_early) {
    source_rows(d, pl, a, ws, xrow);
    for (int k = cx.pre; k < P; ++k) issue_rel(k, true, xrow);
  } else {
    // Weights first (in flight during the wait), then the activations of the steps in flight
    // as one more group: the first step waits for every group (the ring drains once).
    for (int k = cx.pre; k < P; ++k) issue_rel(k, false, xrow);  // weights only
    if (waits) {
      const Dep dep = dep_of<WF>(d, ws, *cx.ph);
      if (!cta_wait(pl, dep.p, dep.target, a)) return;
    }
    source_rows(d, pl, a, ws, xrow);
    for (int k = 0; k < min(d.nk, P); ++k) {
      const int slot = cx.slot_after(cx.cslot, k);
      issue_acts<WF>(cx.addr(slot), cx.xs(slot), d, k, npad, xrow);
    }
    ptx::cp_async_commit();
  }

  float acc[NT][4];
#pragma unroll
  for (int nt = 0; nt < NT; ++nt)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[nt][j] = 0.0f;
  for (int j = 0; j < d.nk; ++j) {
    if (j == 0 && !acts_early)
      ptx::cp_async_wait<0>();
    else
      cp_async_wait_upto(P - 1);
    ptx::mbar_wait(cx.bar(cx.cslot), cx.cphase, kTimeoutNs);  // this step's weights
    if (j == 0 && tid == 0) pl.t_first = global_timer();
    // j_next > 0: pl.nx_ready was last read before the barrier that ended the previous item.
    const bool resolve = j_next > 0 && j == j_next;
    if (resolve && tid == 0) publish_next();
    __syncthreads();  // stage j visible to all; stage j - 1 free for step j + P
    if (resolve) adopt_next();
    issue_rel(j + P, true, xrow);
    if constexpr (Fmt<WF>::kPacked)
      compute_step_fp4<WF, NT>(cx.addr(cx.cslot), acc);
    else if constexpr (Fmt<WF>::kFp8)
      compute_step_fp8<NT>(cx.addr(cx.cslot), cx.xs(cx.cslot), cx.wsc(cx.cslot), acc);
    else
      compute_step_bf16<NT>(cx.addr(cx.cslot), acc);
    cx.consumed();
  }
  cx.pre = issued_next;
  cx.pre_acts = nx_ready ? issued_next : 0;
  const float* alpha = d.kind == kFC1 ? a.alpha13 : a.alpha2;
  const float al = alpha ? __ldg(alpha + d.e) : 1.0f;

  if (d.S > 1) {
    // Partial to slot (tl, s), fragment order: nt-major float4 per thread (coalesced).
    float* part = d.kind == kFC1 ? ws.part1 : ws.part2;
    int* arrive = d.kind == kFC1 ? ws.arrive1 : ws.arrive2;
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
      __stcg(reinterpret_cast<float4*>(part + (int64_t(d.tl) * d.S + d.s) * kPartialFloats) + nt * kThreads + tid,
             make_float4(acc[nt][0], acc[nt][1], acc[nt][2], acc[nt][3]));
    if (!arrive_last(pl, arrive + d.tl, d.S)) return;  // another split finishes this tile
    float sum[NT][4];
    for (int s = 0; s < d.S; ++s) {
#pragma unroll
      for (int nt = 0; nt < NT; ++nt) {
        float v[4] = {acc[nt][0], acc[nt][1], acc[nt][2], acc[nt][3]};
        if (s != d.s) {
          const float4 w = __ldcg(reinterpret_cast<const float4*>(part + (int64_t(d.tl) * d.S + s) * kPartialFloats) +
                                  nt * kThreads + tid);
          v[0] = w.x;
          v[1] = w.y;
          v[2] = w.z;
          v[3] = w.w;
        }
#pragma unroll
        for (int q = 0; q < 4; ++q) sum[nt][q] = s == 0 ? v[q] : __fadd_rn(sum[nt][q], v[q]);
      }
    }
    epilogue<NT>(d, a, ws, sum, al);
  } else {
    epilogue<NT>(d, a, ws, acc, al);
  }
  if constexpr (Fmt<WF>::kFp8) {
    if (d.kind == kFC1) {
      quantize_a_block(cx, d);
      return;
    }
  }
  signal(d.kind == kFC1 ? ws.unit_done + d.u : ws.hblock_done + d.blk);
}

__device__ void combine_tile(Ctx& cx, const Item& d) {
  const MegaArgs& a = cx.p->a;
  const MegaWorkspace& ws = cx.p->ws;
  Plan& pl = *cx.pl;
  if (!cta_wait(pl, ws.hblock_done + d.blk, pl.units, a)) return;
  const int tid = threadIdx.x;
  const int v = tid % kCombineThreadsPerToken;
  const int64_t col = int64_t(d.blk) * kCombineCols + v * kCombineVec;
  if (col >= a.H) return;
  const int K = int(a.K);
  const uint16_t* y = static_cast<const uint16_t*>(ws.y);
  __nv_bfloat16* out = static_cast<__nv_bfloat16*>(a.out);
  for (int t = tid / kCombineThreadsPerToken; t < int(a.T); t += kThreads / kCombineThreadsPerToken) {
    float acc[kCombineVec];
#pragma unroll
    for (int j = 0; j < kCombineVec; ++j) acc[j] = 0.0f;
    for (int k0 = 0; k0 < K; k0 += kCombineChunk) {
      int row[kCombineChunk];
      float w[kCombineChunk];
      uint4 raw[kCombineChunk];
#pragma unroll
      for (int q = 0; q < kCombineChunk; ++q) {
        const int k = k0 + q;
        row[q] = k < K ? int(pl.route_row[t * K + k]) : -1;
        w[q] = k < K ? __ldg(a.topk_weights + int64_t(t) * K + k) : 0.0f;
        if (row[q] >= 0) raw[q] = __ldcg(reinterpret_cast<const uint4*>(y + int64_t(row[q]) * a.H + col));
      }
#pragma unroll
      for (int q = 0; q < kCombineChunk; ++q) {
        if (row[q] < 0) continue;
        vec::accumulate_weighted_bf16x8(acc, raw[q], w[q]);
      }
    }
    vec::store_bf16x8(out + int64_t(t) * a.H + col, acc);
  }
}

// ---- expert parallelism inside the kernel (MegaEp in mega.h) -----------------------------
// Out of line: they run once or twice per CTA and must not weigh on the GEMM tiles' registers
// (arguments by value or in shared / parameter space: a reference to the loop's Ctx or Item
// moved them to the stack, 150-480 bytes of spill in every format; a call inside the GEMM loop
// still cost 12-130 bytes, so the return and combine tiles run after it, in ep_tail).

// Every CTA before its route plan: this forward's epoch; CTA d < R dispatches this rank's tokens
// to owner d (dispatch_to_owner, scratch in the plan's arrays, rebuilt by build_plan after); then
// every CTA waits for all sources' dispatch flags and records how many rows each sent; pull: the
// CTAs copy the rows from the sources' send windows into the receive buffer and meet at a grid
// barrier (counters[3]) before any plan reads them.
__device__ __noinline__ void ep_prologue(const Params& p, Plan& pl) {
  const MegaEp& e = p.a.ep;
  const ep::ExchangeParams& xp = e.xp;
  const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
  // Advanced by the last CTA of this launch, after every CTA has read it here.
  const unsigned long long epoch = *static_cast<volatile unsigned long long*>(xp.epoch) + 1;
  if (int(blockIdx.x) < xp.R)
    ep::dev::dispatch_to_owner(xp, e.push, e.ids, e.ids_i64, static_cast<const uint4*>(e.x), e.ldx / 8, int(e.T),
                               int(blockIdx.x), epoch, pl.route_e, pl.route_rank, pl.row_route, &pl.units);
  const bool ok = ep::dev::wait_all(xp, xp.L.dispatch_flags, epoch, ep::kPhaseDispatch);
  if (tid < xp.R) pl.ep_rows[tid] = ok ? ep::dev::received_rows(xp, e.push, tid) : 0;
  if (tid == 0) pl.epoch = epoch;
  __syncthreads();
  if (e.push) return;
  const int64_t gwarp = int64_t(blockIdx.x) * kWarps + warp, nwarps = int64_t(gridDim.x) * kWarps;
  for (int s = 0; s < xp.R; ++s) ep::dev::pull_rows(xp, s, pl.ep_rows[s], gwarp, nwarps, lane);
  signal(reinterpret_cast<int*>(p.ws.counters + 3));
  cta_wait(pl, reinterpret_cast<const int*>(p.ws.counters + 3), int(gridDim.x), p.a);
}

// EP: whether route i of the receive buffer is real (its row arrived this forward).
__device__ __forceinline__ bool arrived(const Plan& pl, const MegaArgs& a, int i) {
  if (!a.ep.on) return true;
  if (a.ep.skip_experts) return false;
  const int row = i / int(a.K), cap = int(a.ep.xp.cap), s = row / cap;
  return row - s * cap < pl.ep_rows[s];
}

// EP return tile: once FC2's tiles of 128-row block blk are done, y's columns [128 blk, +128) of
// every route go where its source reads them (route_y_dst: the source's return rows over NVLink,
// or this rank's y_ret); the tile fences system-wide and releases the epoch into every source's
// return flag of block blk (the block is kReturnBlockCols wide), and the last return tile into
// every source's whole return flag too (what the exchange kernels' combine waits for).
__device__ __forceinline__ void return_tile(const Params& p, Plan& pl, int blk, int blocks) {
  const MegaArgs& a = p.a;
  const MegaWorkspace& ws = p.ws;
  if (!cta_wait(pl, ws.hblock_done + blk, pl.units, a)) return;
  const int tid = threadIdx.x;
  if (a.trace && tid == 0) pl.t_first = global_timer();
  const int64_t col = int64_t(blk) * kCombineCols + (tid % kCombineThreadsPerToken) * kCombineVec;
  const int routes = int(a.T * a.K), K = int(a.K);
  const uint16_t* y = static_cast<const uint16_t*>(ws.y);
  if (col < a.H)
    for (int i = tid / kCombineThreadsPerToken; i < routes; i += kThreads / kCombineThreadsPerToken) {
      const int row = pl.route_row[i];
      if (row < 0) continue;
      const uint4 v = __ldcg(reinterpret_cast<const uint4*>(y + int64_t(row) * a.H + col));
      ep::dev::route_y_dst(a.ep.xp, a.ep.push, i / K, i % K)[col / kCombineVec] = v;
    }
  __threadfence_system();
  __syncthreads();
  ep::dev::return_block_signal(a.ep.xp, blk, pl.epoch);
  if (tid == 0 && atomicAdd(ws.counters + 4, 1u) == unsigned(blocks) - 1) {
    __threadfence_system();
    ep::dev::return_signal(a.ep.xp, pl.epoch);
  }
}

// EP combine tile: columns [128 blk, +128) of this rank's tokens, once every owner's return flag
// of that block (or its whole return flag: an owner running the exchange kernels) holds the
// epoch (the exchange's combine_one: fixed k order; NaN when the exchange failed).
__device__ __forceinline__ void ep_combine_tile(const Params& p, Plan& pl, int blk) {
  const MegaEp& e = p.a.ep;
  const bool ok = ep::dev::wait_all(e.xp, e.xp.L.return_flags, pl.epoch, ep::kPhaseReturn, blk);
  const int tid = threadIdx.x;
  if (p.a.trace && tid == 0) pl.t_first = global_timer();
  const int64_t v = int64_t(blk) * kCombineThreadsPerToken + tid % kCombineThreadsPerToken;
  if (v * kCombineVec >= e.xp.H) return;
  for (int64_t t = tid / kCombineThreadsPerToken; t < e.T; t += kThreads / kCombineThreadsPerToken)
    ep::dev::combine_one(e.xp, e.push, ok, e.topk_weights, t, v, static_cast<__nv_bfloat16*>(e.out));
}

// EP: items [first, first + nb2) are the return tiles, the next nb2 the combine tiles; the GEMM
// loop hands over at the first of them (the ring is drained by then: a tile prefetches only GEMM
// tiles) with `cur` claimed. Claims the rest like the loop does. `rec`: the trace's next item
// record or null (MegaArgs::trace).
__device__ __noinline__ void ep_tail(const Params& p, Plan& pl, int cur, int first, int nb2, unsigned long long* rec,
                                     int recs_left, bool aborted) {
  while (cur < first + 2 * nb2 && !aborted) {
    const int blk = cur - first;
    if (rec && threadIdx.x == 0) {
      rec[0] = (static_cast<unsigned long long>(cur) << 8) | unsigned(blk < nb2 ? kReturn : kCombine);
      rec[1] = global_timer();
      pl.t_first = 0;
    }
    if (blk < nb2)
      return_tile(p, pl, blk, nb2);
    else
      ep_combine_tile(p, pl, blk - nb2);
    if (rec && threadIdx.x == 0) {
      rec[2] = pl.t_first;
      rec[3] = global_timer();
    }
    rec = rec && --recs_left > 0 ? rec + 4 : nullptr;
    aborted = pl.abort != 0;  // before the barrier (see cta_wait)
    __syncthreads();
    if (threadIdx.x == 0) pl.item[0] = int(atomicAdd(p.ws.counters, 1u));
    __syncthreads();
    cur = pl.item[0];
  }
}

// Builds the plan in shared memory (all threads; ends with a barrier).
template <typename IdT>
__device__ void build_plan(Plan& pl, const MegaArgs& a) {
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int routes = int(a.T * a.K), EL = int(a.EL);
  const IdT* ids = static_cast<const IdT*>(a.ids);
  if (tid == 0) {
    pl.invalid = 0;
    pl.max_n = 0;
  }
  for (int e = tid; e < EL; e += kThreads) pl.cnt[e] = 0;
  __syncthreads();
  int invalid = 0;
  for (int i = tid; i < routes; i += kThreads) {
    const int64_t v = arrived(pl, a, i) ? int64_t(__ldcg(ids + i)) : -1;  // .cg: EP rows came from peers
    int e = -1;
    if (v != -1) {
      if (v < 0 || v >= a.E)
        ++invalid;
      else if (v - a.first_local >= 0 && v - a.first_local < a.EL)
        e = int(v - a.first_local);
    }
    pl.route_e[i] = int16_t(e);
  }
  if (invalid) atomicAdd(&pl.invalid, invalid);
  __syncthreads();
  if (warp == 0) {
    // Ranks, stable by route index: 32 routes at a time, equal experts ranked by lane.
    const unsigned lower = (1u << lane) - 1u;
    for (int base = 0; base < routes; base += 32) {
      const int i = base + lane;
      const int e = i < routes ? int(pl.route_e[i]) : -2;
      const unsigned peers = __match_any_sync(kFull, e);
      int rank = -1;
      if (e >= 0) rank = pl.cnt[e] + __popc(peers & lower);
      __syncwarp();
      if (e >= 0 && (peers & lower) == 0) pl.cnt[e] += __popc(peers);
      __syncwarp();
      if (i < routes) pl.route_rank[i] = int16_t(rank);
    }
    // Offsets and units: lane l owns experts [l*seg, (l+1)*seg).
    const int seg = (EL + 31) / 32, e_begin = min(EL, lane * seg), e_end = min(EL, e_begin + seg);
    int rows = 0, units = 0;
    for (int e = e_begin; e < e_end; ++e) {
      rows += pl.cnt[e];
      units += (pl.cnt[e] + kMaxN - 1) / kMaxN;
    }
    int rows_incl = rows, units_incl = units;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const int r = __shfl_up_sync(kFull, rows_incl, o), u = __shfl_up_sync(kFull, units_incl, o);
      if (lane >= o) {
        rows_incl += r;
        units_incl += u;
      }
    }
    int row = rows_incl - rows, unit = units_incl - units;
    for (int e = e_begin; e < e_end; ++e) {
      const int n = pl.cnt[e];
      for (int c = 0; c < n; c += kMaxN) {
        pl.unit_e[unit] = int16_t(e);
        pl.unit_row0[unit] = int16_t(row + c);
        pl.unit_n[unit] = int16_t(min(kMaxN, n - c));
        atomicMax(&pl.max_n, min(kMaxN, n - c));
        ++unit;
      }
      pl.cnt[e] = row;  // from here on: the expert's first row
      row += n;
    }
    if (lane == 31) pl.units = units_incl;
  }
  __syncthreads();
  for (int i = tid; i < routes; i += kThreads) {
    const int e = pl.route_e[i];
    int r = -1;
    if (e >= 0) {
      r = pl.cnt[e] + pl.route_rank[i];
      pl.row_route[r] = int16_t(i);
    }
    pl.route_row[i] = int16_t(r);
  }
  if (tid == 0 && blockIdx.x == 0 && pl.invalid) atomicAdd(a.invalid_count, (unsigned long long)pl.invalid);
  __syncthreads();
}

template <WeightFormat WF>
__global__ void __launch_bounds__(kThreads, Fmt<WF>::kMinBlocks) mega_kernel(const __grid_constant__ Params p) {
  using F = Fmt<WF>;
  extern __shared__ __align__(128) uint8_t smem_dyn[];
  __shared__ Plan pl;
  __shared__ uint64_t full_bar[kMaxStages];
  const MegaArgs& a = p.a;
  const MegaWorkspace& ws = p.ws;
  const int tid = threadIdx.x;
  if (a.trace && tid == 0) a.trace[size_t(blockIdx.x) * kTraceWords] = global_timer();
  // The first claim does not depend on the plan: its latency overlaps the plan's (the result stays
  // in a register until the plan is built; a store to shared memory here would wait for it).
  // Without x-quantization items (fp8 claims those one by one below) and without EP, the
  // claim-ahead of the first iteration is made here too: two claims, so the lower is processed first and no CTA waits on
  // an item that is not running or done. Measured (H200, qwen3-30b-a3b T = 1, MEGAMOE_MEGA_TRACE):
  // after the plan (2.75 us) the first item's claim-ahead came back only at 6.4 us, every CTA's
  // atomic on the one counter at the same moment.
  int first = 0, second = -1;
  if (tid == 0) {
    first = int(atomicAdd(ws.counters, 1u));
    // Not with EP: items past the GEMMs are its return / combine tiles, which ep_tail runs from
    // the loop's last claim; a pre-claimed one of a CTA whose loop never ran would be lost.
    if constexpr (!F::kFp8)
      if (!a.ep.on) second = int(atomicAdd(ws.counters, 1u));
    for (int i = 0; i < kMaxStages; ++i) ptx::mbar_init(smem_u32(&full_bar[i]), 1);
    ptx::mbar_fence_init();
    ptx::prefetch_tensormap(&p.tm13);
    ptx::prefetch_tensormap(&p.tm2);
    if constexpr (F::kPacked) {
      ptx::prefetch_tensormap(&p.ts13);
      ptx::prefetch_tensormap(&p.ts2);
    }
  }
  if (tid == 0) pl.abort = 0;
  if (a.ep.on) {
    ep_prologue(p, pl);  // ends with a barrier
    if (a.trace && tid == 0) a.trace[size_t(blockIdx.x) * kTraceWords + 2] = global_timer();
  }
  if constexpr (F::kFp8) {
    // The x quantization items come first and need no plan: run the ones this CTA claims now,
    // so x is quantized while the plans are built (FC1 tiles wait for them).
    const int qx = blocks128(a.H);  // Phases::QX
    if (tid == 0) pl.item[0] = first;
    __syncthreads();
    while (pl.item[0] < qx) {
      quantize_x_item(p, pl.item[0]);  // ends with a barrier
      if (tid == 0) pl.item[0] = int(atomicAdd(ws.counters, 1u));
      __syncthreads();
    }
    if (tid == 0) first = pl.item[0];
  }
  if (a.ids_i64)
    build_plan<int64_t>(pl, a);
  else
    build_plan<int32_t>(pl, a);  // ends with a barrier: the mbarriers are visible
  if (tid == 0) pl.item[0] = first;
  unsigned long long* trace = a.trace ? a.trace + size_t(blockIdx.x) * kTraceWords : nullptr;
  if (trace && tid == 0) trace[1] = global_timer();
  int traced = 0;
  const Phases ph = make_phases<WF>(a, pl.units, ws.slots);
  const int stage_bytes = F::kWBytes + npad_of(pl.max_n) * kRowBytes * F::kActParts;
  const int fit = min(kMaxStages, F::kRingBytes / stage_bytes);
  const uint32_t ring = (smem_u32(smem_dyn) + F::kAuxBytes + 1023u) & ~1023u;  // kRingAlign
  Ctx cx{ring, smem_u32(&full_bar[0]), a.stages > 0 ? max(3, min(fit, a.stages)) : fit, stage_bytes,
         smem_u32(smem_dyn), &pl, &p, &ph,
         0u, 0u, 0, 0, 0u, 0, 0};
  // pl.abort, read before a barrier (see cta_wait): here the EP prologue's wait, then before each
  // item's last barrier.
  bool aborted = pl.abort != 0;
  __syncthreads();  // pl.item[0]
  int cur = pl.item[0];
  int slot = 1;  // where this iteration publishes the next item (see the claim below)
  while (cur < ph.total && !aborted) {
    // Claim the next item ahead (the first iteration's was claimed at entry). The atomic's answer
    // stays in thread 0's register until gemm_tile publishes it, so the current tile's first
    // steps run while it comes back (every item used to start with that round trip and a
    // barrier). The slots alternate: pl.item[slot ^ 1] holds `cur`, read by every thread after
    // the previous iteration's last barrier, and the publication may come before this
    // iteration's first barrier.
    int claim = -1;
    if (tid == 0) {
      claim = second >= 0 ? second : int(atomicAdd(ws.counters, 1u));
      second = -1;
    }
    const Item d = decode<WF>(cur, ph, pl, a);
    unsigned long long* rec = trace && traced < kTraceItems ? trace + 4 + 4 * traced++ : nullptr;
    if (rec && tid == 0) {
      rec[0] = (static_cast<unsigned long long>(cur) << 8) | unsigned(d.kind);
      rec[1] = global_timer();
      pl.t_first = 0;
    }
    if (d.kind == kCombine) {
      if (tid == 0) pl.item[slot] = claim;  // read after the iteration's last barrier
      combine_tile(cx, d);
    } else {
      static_assert(kMaxN == 16, "units of at most 16 rows: the NT = 1 and 2 tiles");
      if (d.n <= 8)
        gemm_tile<WF, 1>(cx, d, claim, slot);
      else
        gemm_tile<WF, 2>(cx, d, claim, slot);
    }
    if (rec && tid == 0) {
      rec[2] = pl.t_first;
      rec[3] = global_timer();
    }
    aborted = pl.abort != 0;
    __syncthreads();  // pl.item[slot] is published; pl.flag is rewritten next iteration
    cur = pl.item[slot];
    slot ^= 1;
  }
  if (a.ep.on) {
    unsigned long long* rec = trace && traced < kTraceItems ? trace + 4 + 4 * traced : nullptr;
    ep_tail(p, pl, cur, ph.total, ph.nb2, rec, kTraceItems - traced, aborted);
    if (trace && tid == 0) trace[3] = global_timer();
    // A dependency of this launch timed out in this CTA (cta_wait): the layer's check_errors says so.
    if (pl.abort && tid == 0) ep::dev::record_error(a.ep.xp, ep::kErrTimeout, ep::kPhaseExperts, a.ep.xp.me);
  }
  ptx::cp_async_wait<0>();
  // Weights still in flight (only after an abort: every issued step is otherwise consumed)
  // must land before the CTA's shared memory is released.
  if (tid == 0)
    while (cx.gstep != cx.gissue) {
      ptx::mbar_wait(cx.bar(cx.cslot), cx.cphase, kTimeoutNs);
      cx.consumed();
    }
  __syncthreads();
  if (tid == 0) {
    __threadfence();
    const unsigned prev = atomicAdd(ws.counters + 1, 1u);
    pl.flag = prev == gridDim.x - 1;
  }
  __syncthreads();
  if (!pl.flag) return;
  // The last CTA: every other CTA has left, so no counter is read again in this launch.
  __threadfence();
  for (int i = tid; i < ws.slots; i += kThreads) {
    ws.arrive1[i] = 0;
    ws.arrive2[i] = 0;
  }
  for (int i = tid; i < int(kMaxRoutes); i += kThreads) ws.unit_done[i] = 0;
  for (int i = tid; i < ws.hblocks; i += kThreads) ws.hblock_done[i] = 0;
  if constexpr (F::kFp8)
    for (int i = tid; i < pl.units * ph.IB; i += kThreads) ws.ablock_arrive[i] = 0;
  if (tid == 0) {
    ws.counters[0] = 0u;
    ws.counters[1] = 0u;
    ws.counters[2] = 0u;
    ws.counters[3] = 0u;
    ws.counters[4] = 0u;
    if (a.ep.on) *a.ep.xp.epoch = pl.epoch;  // every CTA read the previous value at entry
  }
}

// The entry points of one format (mega_params.h), for the instantiating translation unit.
template <WeightFormat WF>
int blocks_per_sm_impl() {
  cu::check("mega", cudaFuncSetAttribute(mega_kernel<WF>, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn_smem_bytes<WF>()),
            "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  int per_sm = 0;
  cu::check("mega", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mega_kernel<WF>, kThreads, dyn_smem_bytes<WF>()),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  return per_sm;
}

template <WeightFormat WF>
void launch_impl(const Params& p, int grid, cudaStream_t stream) {
  mega_kernel<WF><<<dim3(unsigned(grid)), dim3(kThreads), dyn_smem_bytes<WF>(), stream>>>(p);
}

}  // namespace

}  // namespace megamoe::sm90::mega

// The entry points of format WF (mega_params.h), defined once in the translation unit that
// instantiates it (mega_bf16.cu, mega_w4a16.cu).
#define MEGAMOE_MEGA_DEFINE_ENTRY_POINTS(WF)                                                   \
  template <>                                                                                   \
  int megamoe::sm90::mega::kernel_blocks_per_sm<WF>() {                                         \
    return blocks_per_sm_impl<WF>();                                                            \
  }                                                                                             \
  template <>                                                                                   \
  void megamoe::sm90::mega::launch_kernel<WF>(const Params& p, int grid, cudaStream_t stream) { \
    launch_impl<WF>(p, grid, stream);                                                           \
  }
