// The Mega kernel, bf16 recipe, decode sizes (see mega_bf16.h). One persistent launch:
//
//   route plan      every CTA builds the plan of the (<= kMaxRoutes) routes in its own shared
//                   memory: per local expert counts and offsets, rows stable by route index
//                   i = t*K + k, route -> row and row -> route maps, and the list of "units".
//                   A unit is one chunk of <= kMaxN = 64 consecutive rows of one expert (an
//                   expert with 130 rows has 3 units), so a tile never holds more than 64 tokens
//                   and experts without rows cost nothing. Invalid ids (not -1, not in [0, E))
//                   are "no route"; CTA 0 adds their count to the route plan's invalid-id word,
//                   the counter the split path uses (invalid_id_count() reads it).
//   work items      one monotonically increasing counter hands out, in this order:
//                   FC1 tiles (unit u, 64 gate rows + the matching 64 up rows, K-split s),
//                   FC2 tiles (unit u, 128 rows of H, K-split s), combine tiles (128 columns of
//                   out, all tokens). Item = ((u * blocks) + block) * splits + split.
//   FC1 tile        swap-AB: weight rows are the MMA's M (128 = 2 halves of 64 rows: gated
//                   activations read W13 rows [64b, 64b+64) and [I+64b, I+64b+64) -- canonical
//                   W13, no re-layout; relu2 reads 128 consecutive rows), the unit's tokens are N
//                   (8, 16, 32 or 64: the NT template), K = H streamed in steps of kBK = 64.
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
//   split-K         when a phase has fewer than 2 x grid tiles, each tile's K range is cut into
//                   S splits (at most kMaxSplits, each >= kMinSplitSteps steps), so every SM
//                   streams weights from the start. Each split stores its fp32 accumulators to a
//                   partial slot (fragment order), fences and increments the tile's arrival
//                   counter; the last arriver sums the S partials in split order 0..S-1 (its own
//                   from registers, the others from L2) -- deterministic, no float atomics -- and
//                   runs the epilogue. With S = 1 the tile runs the epilogue directly.
//   pipeline        a ring of kStages shared-memory stages, each one step: 128 weight rows x 128
//                   bytes (16 KiB) + up to 64 activation rows x 128 bytes (8 KiB), filled by
//                   cp.async 16 B (all 256 threads, .cg: L2 only, so data written by other SMs
//                   in this launch is read coherently), 128-byte rows XOR-swizzled by 16-byte
//                   chunk (chunk ^ (row & 7)) so ldmatrix is conflict-free. One commit group per
//                   step, kStages - 1 steps in flight. The weight stream does not stop at tile
//                   boundaries: a CTA claims its next item when it starts the current one, and
//                   the current tile's last kStages - 1 iterations already load the next tile's
//                   weights (weights never depend on other tiles). A tile's activations are
//                   loaded only after its dependency wait, in one group for its first
//                   kStages - 1 steps; its first step therefore waits for all groups in flight.
//   dependencies    FC2 tiles wait on FC1 tiles of their unit, combine tiles on FC2 tiles; every
//                   waited-on item has a lower number, so it was claimed earlier by a running
//                   CTA, and a CTA finishes its current item before it waits for its next one:
//                   the lowest unfinished item is always running with its dependencies done, so
//                   the grid cannot deadlock -- even when not all CTAs are co-resident (another
//                   kernel on another stream), which only delays. The grid is the co-resident
//                   capacity anyway (persistent_grid()). Waits spin on ld.acquire.gpu with
//                   __nanosleep backoff and give up after kTimeoutNs (global timer): the CTA adds
//                   kTimeoutMark to the invalid-id word, stops claiming work and exits, so a lost
//                   dependency becomes an error report instead of a hung GPU.
//   counter reset   every CTA increments counters[1] when it leaves; the last one (it sees
//                   gridDim.x - 1) zeroes the work counter, the arrival and done counters and
//                   counters[1], so the next launch (a graph replay included) starts from zero
//                   without host work.
//
// Budget (static_asserts below): 256 threads (8 warps, every warp loads, computes and runs the
// epilogue: no warp specialisation in this first version), one CTA per SM (launch bounds).
// Dynamic shared memory: the ring, kStages * 24 KiB = 144 KiB; static: the plan (~9.3 KiB).
// Registers: at most 32 fp32 accumulators (NT = 8) plus fragments; -Xptxas -v must show no spill.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <string>

#include "core/workspace_carver.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/vector_io.cuh"
#include "kernels/sm90/mega/mega_bf16.h"
#include "kernels/sm90/moe/activation_math.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90::mega {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kBK = 64;                    // K elements per pipeline step
constexpr int kRowBytes = kBK * 2;         // one 128-byte smem row per weight / activation row
constexpr int kChunks = kRowBytes / 16;    // 16-byte chunks per row (cp.async, ldmatrix rows)
constexpr int kHalfM = 64;                 // weight rows per half tile
constexpr int kTileM = 2 * kHalfM;         // weight rows per tile (the MMA's M)
constexpr int kMaxN = 64;                  // tokens (rows of one unit) per tile (the MMA's N)
constexpr int kStages = 6;                 // ring depth: kStages - 1 steps in flight
constexpr int kPrologue = kStages - 1;
constexpr int kWBytes = kTileM * kRowBytes;  // 16 KiB of weights per step
constexpr int kXBytes = kMaxN * kRowBytes;   // 8 KiB of activations per step (at most)
constexpr int kStageBytes = kWBytes + kXBytes;
constexpr int kRingBytes = kStages * kStageBytes;
constexpr int kMaxSplits = 16;
constexpr int kMinSplitSteps = 4;          // a split streams at least 4 x 16 KiB of weights
constexpr int kSplitTarget = 2;            // split until a phase has >= 2 x grid tiles
constexpr int kPartialFloats = kThreads * (kMaxN / 8) * 4;  // one split's accumulators (32 KiB)
constexpr int kCombineCols = kTileM;       // columns of out per combine tile (= FC2 rows per tile)
constexpr int kCombineVec = 8;             // bf16 columns per thread (one 16-byte load / store)
constexpr int kCombineThreadsPerToken = kCombineCols / kCombineVec;
constexpr int kCombineChunk = 4;           // routes whose y loads are in flight together
constexpr unsigned long long kTimeoutNs = 1000ull * 1000ull * 1000ull;  // 1 s per wait

static_assert(kWarps * 16 == kTileM, "each warp owns one m16 slice of the tile");
static_assert(kTileM * kChunks == 4 * kThreads, "4 weight cp.async per thread per step");
static_assert(kMaxN * kChunks == 2 * kThreads, "at most 2 activation cp.async per thread per step");
static_assert(kChunks == 8, "the XOR swizzle (chunk ^ (row & 7)) needs 8 chunks per row");
static_assert(kStages >= 3, "ring: at least two steps in flight");
static_assert(kRingBytes <= 200 * 1024, "ring + plan must fit the 227 KiB a CTA may use");
static_assert(kCombineThreadsPerToken * kCombineVec == kCombineCols && kThreads % kCombineThreadsPerToken == 0,
              "combine: whole tokens per pass");
static_assert(kMaxRoutes <= 32767 && kMaxExperts <= 32767, "plan indices fit int16");
static_assert(kMaxRoutes % 32 == 0, "the rank loop walks 32 routes at a time");

constexpr unsigned kFull = 0xffffffffu;

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
  int units, invalid;
  int item[2];                     // [0] current item, [1] the next one (claimed ahead)
  int flag, abort;
};

struct Params {
  MegaArgs a;
  MegaWorkspace ws;
};

// One work item, decoded.
struct Item {
  int kind;  // kNone, kFC1, kFC2, kCombine
  int u, blk, s, S, tl, k0, nk;
  int e, row0, n;
  const __nv_bfloat16* wh[2];  // the two weight halves at k = 0
  int wvalid[2];               // valid rows of each half (64 or 0)
  int64_t ldw;                 // weight row stride (elements)
};
constexpr int kNone = 0, kFC1 = 1, kFC2 = 2, kCombine = 3;

// Phase geometry, the same in every CTA.
struct Phases {
  int nb1, S1, spl1, T1;  // FC1: blocks per unit, splits, steps per split, tiles x splits
  int nb2, S2, spl2, T2;
  int total;
};

__device__ __forceinline__ uint32_t smem_u32(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

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

// Thread 0: waits until *p >= target; false after kTimeoutNs.
__device__ bool wait_geq(const int* p, int target) {
  if (ld_acquire(p) >= target) return true;
  const unsigned long long t0 = global_timer();
  unsigned ns = 32;
  for (;;) {
    __nanosleep(ns);
    if (ns < 128) ns *= 2;
    if (ld_acquire(p) >= target) return true;
    if (global_timer() - t0 > kTimeoutNs) return false;
  }
}

__device__ __forceinline__ float act_apply(Activation act, float g, float u, float limit, float alpha) {
  switch (act) {
    case Activation::kSwiGLU: return act::act_fn<Activation::kSwiGLU>(g, u, limit, alpha);
    case Activation::kSwiGLUOAI: return act::act_fn<Activation::kSwiGLUOAI>(g, u, limit, alpha);
    case Activation::kGeGLU: return act::act_fn<Activation::kGeGLU>(g, u, limit, alpha);
    default: return act::act_fn<Activation::kReLU2>(g, u, limit, alpha);
  }
}

// S splits of nk_total steps for `tiles` tiles (see "split-K" above); tiles * S <= slots.
__device__ void choose_splits(int tiles, int nk_total, int grid, int slots, int& S, int& spl) {
  S = 1;
  if (tiles > 0 && tiles < kSplitTarget * grid) {
    S = (kSplitTarget * grid + tiles - 1) / tiles;
    S = min(S, kMaxSplits);
    S = min(S, max(1, nk_total / kMinSplitSteps));
    while (S > 1 && tiles * S > slots) --S;
  }
  spl = (nk_total + S - 1) / S;
  S = (nk_total + spl - 1) / spl;
}

__device__ Phases make_phases(const MegaArgs& a, int units, int slots) {
  Phases p;
  const bool gated = a.activation != Activation::kReLU2;
  p.nb1 = gated ? int(a.I / kHalfM) : int((a.I + kTileM - 1) / kTileM);
  choose_splits(units * p.nb1, int(a.H / kBK), int(gridDim.x), slots, p.S1, p.spl1);
  p.T1 = units * p.nb1 * p.S1;
  p.nb2 = int((a.H + kTileM - 1) / kTileM);
  choose_splits(units * p.nb2, int(a.I / kBK), int(gridDim.x), slots, p.S2, p.spl2);
  p.T2 = units * p.nb2 * p.S2;
  p.total = p.T1 + p.T2 + p.nb2;  // combine: one tile per 128 columns, as FC2's row blocks
  return p;
}

__device__ Item decode(int item, const Phases& ph, const Plan& pl, const MegaArgs& a) {
  Item d{};
  d.kind = kNone;
  if (item < 0 || item >= ph.total) return d;
  if (item >= ph.T1 + ph.T2) {
    d.kind = kCombine;
    d.blk = item - ph.T1 - ph.T2;
    return d;
  }
  const bool fc1 = item < ph.T1;
  const int local = fc1 ? item : item - ph.T1;
  const int S = fc1 ? ph.S1 : ph.S2, nb = fc1 ? ph.nb1 : ph.nb2, spl = fc1 ? ph.spl1 : ph.spl2;
  const int nk_total = int((fc1 ? a.H : a.I) / kBK);
  d.kind = fc1 ? kFC1 : kFC2;
  d.S = S;
  d.s = local % S;
  d.tl = local / S;
  d.blk = d.tl % nb;
  d.u = d.tl / nb;
  d.k0 = d.s * spl;
  d.nk = min(spl, nk_total - d.k0);
  d.e = pl.unit_e[d.u];
  d.row0 = pl.unit_row0[d.u];
  d.n = pl.unit_n[d.u];
  const __nv_bfloat16* w13 = static_cast<const __nv_bfloat16*>(a.w13);
  const __nv_bfloat16* w2 = static_cast<const __nv_bfloat16*>(a.w2);
  if (fc1) {
    const bool gated = a.activation != Activation::kReLU2;
    const int64_t N13 = gated ? 2 * a.I : a.I;
    const __nv_bfloat16* we = w13 + int64_t(d.e) * N13 * a.H;
    d.ldw = a.H;
    if (gated) {
      d.wh[0] = we + int64_t(d.blk) * kHalfM * a.H;
      d.wh[1] = we + (a.I + int64_t(d.blk) * kHalfM) * a.H;
      d.wvalid[0] = d.wvalid[1] = kHalfM;
    } else {
      const int64_t r0 = int64_t(d.blk) * kTileM;
      d.wh[0] = we + r0 * a.H;
      d.wh[1] = we + (r0 + kHalfM) * a.H;
      d.wvalid[0] = kHalfM;
      d.wvalid[1] = r0 + kHalfM < a.I ? kHalfM : 0;
    }
  } else {
    const __nv_bfloat16* we = w2 + int64_t(d.e) * a.H * a.I;
    const int64_t r0 = int64_t(d.blk) * kTileM;
    d.ldw = a.I;
    d.wh[0] = we + r0 * a.I;
    d.wh[1] = we + (r0 + kHalfM) * a.I;
    d.wvalid[0] = kHalfM;
    d.wvalid[1] = r0 + kHalfM < a.H ? kHalfM : 0;
  }
  return d;
}

// Weights of step `step` of tile d into ring stage `stage`: 4 cp.async per thread.
__device__ __forceinline__ void issue_weights(uint8_t* ring, int stage, const Item& d, int step) {
  const int tid = threadIdx.x, c = tid & (kChunks - 1);
  const uint32_t base = smem_u32(ring + stage * kStageBytes);
  const int64_t kk = int64_t(d.k0 + step) * kBK + c * 8;
#pragma unroll
  for (int q = 0; q < 4; ++q) {
    const int h = q >> 1, rr = (tid >> 3) + 32 * (q & 1), r = h * kHalfM + rr;  // h: compile-time
    const bool valid = rr < d.wvalid[h];
    const __nv_bfloat16* src = valid ? d.wh[h] + int64_t(rr) * d.ldw + kk : d.wh[0];
    ptx::cp_async16(base + r * kRowBytes + ((c ^ (r & 7)) << 4), src, valid);
  }
}

// Activations of step `step` into ring stage `stage`: rows n < npad of the unit (rows >= d.n are
// zero-filled); xrow[q] is this thread's source row for n = (tid >> 3) + 32 q (null: none).
__device__ __forceinline__ void issue_acts(uint8_t* ring, int stage, const Item& d, int step, int npad,
                                           const __nv_bfloat16* const (&xrow)[2]) {
  const int tid = threadIdx.x, c = tid & (kChunks - 1);
  const uint32_t base = smem_u32(ring + stage * kStageBytes + kWBytes);
  const int64_t kk = int64_t(d.k0 + step) * kBK + c * 8;
#pragma unroll
  for (int q = 0; q < 2; ++q) {
    const int n = (tid >> 3) + 32 * q;
    if (n >= npad) continue;
    const bool valid = xrow[q] != nullptr;
    const __nv_bfloat16* src = valid ? xrow[q] + kk : d.wh[0];
    ptx::cp_async16(base + n * kRowBytes + ((c ^ (n & 7)) << 4), src, valid);
  }
}

// One step: acc[NT][4] += W_stage (128 x 64) . X_stage (NT*8 x 64)^T for this warp's m16 slice.
template <int NT>
__device__ __forceinline__ void compute_step(const uint8_t* ring, int stage, float (&acc)[NT][4]) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const uint32_t wbase = smem_u32(ring + stage * kStageBytes);
  const uint32_t xbase = wbase + kWBytes;
  // A rows of this lane's ldmatrix address: matrix m = lane >> 3; m & 1 picks the half.
  const int arow = ((lane >> 3) & 1) * kHalfM + 8 * warp + (lane & 7);
  const uint32_t a_addr = wbase + arow * kRowBytes;
#pragma unroll
  for (int kp = 0; kp < kBK / 32; ++kp) {  // 32 K elements: two k16 MMAs
    uint32_t af[2][4];
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int chunk = (2 * kp + h) * 2 + (lane >> 4);
      ptx::ldmatrix_x4(a_addr + ((chunk ^ (lane & 7)) << 4), af[h][0], af[h][1], af[h][2], af[h][3]);
    }
#pragma unroll
    for (int nt = 0; nt < NT; ++nt) {
      const int n = nt * 8 + (lane & 7);
      const int chunk = 4 * kp + (lane >> 3);
      uint32_t b0, b1, b2, b3;
      ptx::ldmatrix_x4(xbase + n * kRowBytes + ((chunk ^ (n & 7)) << 4), b0, b1, b2, b3);
      ptx::mma_m16n8k16_bf16(acc[nt], af[0], b0, b1);
      ptx::mma_m16n8k16_bf16(acc[nt], af[1], b2, b3);
    }
  }
}

struct Ctx {
  uint8_t* ring;
  Plan* pl;
  const Params* p;
  const Phases* ph;
  uint32_t gstep;  // global step index of the current tile's first step (ring stage = gstep % kStages)
  int pre;         // steps of the current tile whose weights are already in flight
};

// Epilogue of one FC1/FC2 tile with the final accumulators (split sum already done).
template <int NT>
__device__ __forceinline__ void epilogue(const Item& d, const MegaArgs& a, const MegaWorkspace& ws,
                                         const float (&acc)[NT][4]) {
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
      const float v0 = acc[nt][jn], v1 = acc[nt][2 + jn];  // half-0 and half-1 row mrow
      if (d.kind == kFC1) {
        if (gated) {
          const int64_t j = int64_t(d.blk) * kHalfM + mrow;
          float gv = v0, uv = v1;
          if (a.b13) {
            gv = __fadd_rn(gv, __ldg(a.b13 + d.e * N13 + j));
            uv = __fadd_rn(uv, __ldg(a.b13 + d.e * N13 + a.I + j));
          }
          abuf[row * a.I + j] = __float2bfloat16_rn(act_apply(a.activation, gv, uv, a.limit, a.alpha));
        } else {
          const int64_t j0 = int64_t(d.blk) * kTileM + mrow, j1 = j0 + kHalfM;
          float h0 = v0, h1 = v1;
          if (a.b13) h0 = __fadd_rn(h0, __ldg(a.b13 + d.e * N13 + j0));
          abuf[row * a.I + j0] = __float2bfloat16_rn(act_apply(a.activation, h0, 0.0f, a.limit, a.alpha));
          if (j1 < a.I) {
            if (a.b13) h1 = __fadd_rn(h1, __ldg(a.b13 + d.e * N13 + j1));
            abuf[row * a.I + j1] = __float2bfloat16_rn(act_apply(a.activation, h1, 0.0f, a.limit, a.alpha));
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

// Releases this CTA's stores (all threads) and increments *counter once.
__device__ __forceinline__ void signal(int* counter) {
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd(counter, 1);
}

// Thread 0 waits for *p >= target; the whole CTA learns the outcome (Plan::abort).
__device__ bool cta_wait(Plan& pl, const int* p, int target, unsigned long long* error_word) {
  if (threadIdx.x == 0) {
    if (!wait_geq(p, target)) {
      pl.abort = 1;
      atomicAdd(error_word, kTimeoutMark);
    }
    __threadfence();
  }
  __syncthreads();
  return pl.abort == 0;
}

// One FC1 or FC2 tile (the NT-token variant), including the next tile's weight prefetch.
template <int NT>
__device__ void gemm_tile(Ctx& cx, const Item& d, const Item& nx) {
  const MegaArgs& a = cx.p->a;
  const MegaWorkspace& ws = cx.p->ws;
  Plan& pl = *cx.pl;
  const int tid = threadIdx.x;
  constexpr int npad = NT * 8;
  const bool nx_gemm = nx.kind == kFC1 || nx.kind == kFC2;
  int issued_next = 0;
  // Weights of relative step k (k >= this tile's steps: the next tile's step k - d.nk), one group.
  auto issue_rel = [&](int k, bool with_acts, const __nv_bfloat16* const (&xrow)[2]) {
    const int stage = int((cx.gstep + uint32_t(k)) % kStages);
    if (k < d.nk) {
      issue_weights(cx.ring, stage, d, k);
      if (with_acts) issue_acts(cx.ring, stage, d, k, npad, xrow);
    } else if (nx_gemm && k - d.nk < nx.nk) {
      issue_weights(cx.ring, stage, nx, k - d.nk);
      ++issued_next;
    }
    ptx::cp_async_commit();
  };
  const __nv_bfloat16* no_rows[2] = {nullptr, nullptr};
  for (int k = cx.pre; k < kPrologue; ++k) issue_rel(k, false, no_rows);
  if (d.kind == kFC2 && !cta_wait(pl, ws.unit_done + d.u, cx.ph->nb1, a.invalid_count)) return;
  // This thread's activation source rows (n = (tid >> 3) + 32 q).
  const __nv_bfloat16* xrow[2];
#pragma unroll
  for (int q = 0; q < 2; ++q) {
    const int n = (tid >> 3) + 32 * q;
    xrow[q] = nullptr;
    if (n < d.n) {
      const int r = d.row0 + n;
      if (d.kind == kFC1) {
        const int t = pl.row_route[r] / int(a.K);
        xrow[q] = static_cast<const __nv_bfloat16*>(a.x) + int64_t(t) * a.ldx;
      } else {
        xrow[q] = static_cast<const __nv_bfloat16*>(ws.a) + int64_t(r) * a.I;
      }
    }
  }
  for (int k = 0; k < min(d.nk, kPrologue); ++k)
    issue_acts(cx.ring, int((cx.gstep + uint32_t(k)) % kStages), d, k, npad, xrow);
  ptx::cp_async_commit();

  float acc[NT][4];
#pragma unroll
  for (int nt = 0; nt < NT; ++nt)
#pragma unroll
    for (int j = 0; j < 4; ++j) acc[nt][j] = 0.0f;
  for (int j = 0; j < d.nk; ++j) {
    if (j == 0)
      ptx::cp_async_wait<0>();
    else
      ptx::cp_async_wait<kPrologue - 1>();
    __syncthreads();  // stage j visible to all; stage j - 1 free for step j + kPrologue
    issue_rel(j + kPrologue, true, xrow);
    compute_step<NT>(cx.ring, int((cx.gstep + uint32_t(j)) % kStages), acc);
  }
  cx.gstep += uint32_t(d.nk);
  cx.pre = issued_next;

  if (d.S > 1) {
    // Partial to slot (tl, s), fragment order: nt-major float4 per thread (coalesced).
    float* part = d.kind == kFC1 ? ws.part1 : ws.part2;
    int* arrive = d.kind == kFC1 ? ws.arrive1 : ws.arrive2;
#pragma unroll
    for (int nt = 0; nt < NT; ++nt)
      __stcg(reinterpret_cast<float4*>(part + (int64_t(d.tl) * d.S + d.s) * kPartialFloats) + nt * kThreads + tid,
             make_float4(acc[nt][0], acc[nt][1], acc[nt][2], acc[nt][3]));
    __threadfence();
    __syncthreads();
    if (tid == 0) {
      const int old = atomicAdd(arrive + d.tl, 1);
      __threadfence();
      pl.flag = old == d.S - 1;
    }
    __syncthreads();
    if (!pl.flag) return;  // another split finishes this tile
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
    epilogue<NT>(d, a, ws, sum);
  } else {
    epilogue<NT>(d, a, ws, acc);
  }
  signal(d.kind == kFC1 ? ws.unit_done + d.u : ws.hblock_done + d.blk);
}

__device__ void combine_tile(Ctx& cx, const Item& d) {
  const MegaArgs& a = cx.p->a;
  const MegaWorkspace& ws = cx.p->ws;
  Plan& pl = *cx.pl;
  if (!cta_wait(pl, ws.hblock_done + d.blk, pl.units, a.invalid_count)) return;
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

// Builds the plan in shared memory (all threads; ends with a barrier).
template <typename IdT>
__device__ void build_plan(Plan& pl, const MegaArgs& a) {
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int routes = int(a.T * a.K), EL = int(a.EL);
  const IdT* ids = static_cast<const IdT*>(a.ids);
  if (tid == 0) {
    pl.invalid = 0;
    pl.abort = 0;
  }
  for (int e = tid; e < EL; e += kThreads) pl.cnt[e] = 0;
  __syncthreads();
  int invalid = 0;
  for (int i = tid; i < routes; i += kThreads) {
    const int64_t v = int64_t(ids[i]);
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

__global__ void __launch_bounds__(kThreads, 1) mega_bf16_kernel(const __grid_constant__ Params p) {
  extern __shared__ __align__(128) uint8_t ring[];
  __shared__ Plan pl;
  const MegaArgs& a = p.a;
  const MegaWorkspace& ws = p.ws;
  const int tid = threadIdx.x;
  // The first claim does not depend on the plan: its latency overlaps the plan's.
  if (tid == 0) pl.item[0] = int(atomicAdd(ws.counters, 1u));
  if (a.ids_i64)
    build_plan<int64_t>(pl, a);
  else
    build_plan<int32_t>(pl, a);  // ends with a barrier: pl.item[0] is visible
  const Phases ph = make_phases(a, pl.units, ws.slots);
  Ctx cx{ring, &pl, &p, &ph, 0u, 0};
  int cur = pl.item[0];
  while (cur < ph.total && pl.abort == 0) {
    if (tid == 0) pl.item[1] = int(atomicAdd(ws.counters, 1u));  // claim the next item ahead
    __syncthreads();
    const int next = pl.item[1];
    const Item d = decode(cur, ph, pl, a);
    const Item nx = decode(next, ph, pl, a);
    if (d.kind == kCombine) {
      combine_tile(cx, d);
    } else {
      const int n = d.n;
      if (n <= 8)
        gemm_tile<1>(cx, d, nx);
      else if (n <= 16)
        gemm_tile<2>(cx, d, nx);
      else if (n <= 32)
        gemm_tile<4>(cx, d, nx);
      else
        gemm_tile<8>(cx, d, nx);
    }
    __syncthreads();  // pl.item[1] and pl.flag are rewritten next iteration
    cur = next;
  }
  ptx::cp_async_wait<0>();
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
  if (tid == 0) {
    ws.counters[0] = 0u;
    ws.counters[1] = 0u;
  }
}

}  // namespace

int partial_slots(int grid) { return 2 * kSplitTarget * grid; }  // tiles * S < 2 * kSplitTarget * grid

namespace {
// The one layout of the workspace: sizes it when the carver only counts, else points into it.
MegaWorkspace lay_out(WorkspaceCarver& w, int64_t H, int64_t I, int slots) {
  MegaWorkspace ws;
  ws.slots = slots;
  ws.hblocks = int((H + kTileM - 1) / kTileM);
  ws.a = w.take(2 * size_t(kMaxRoutes) * I);
  ws.y = w.take(2 * size_t(kMaxRoutes) * H);
  ws.part1 = w.take<float>(sizeof(float) * size_t(slots) * kPartialFloats);
  ws.part2 = w.take<float>(sizeof(float) * size_t(slots) * kPartialFloats);
  ws.arrive1 = w.take<int>(sizeof(int) * size_t(slots));
  ws.arrive2 = w.take<int>(sizeof(int) * size_t(slots));
  ws.unit_done = w.take<int>(sizeof(int) * size_t(kMaxRoutes));
  ws.hblock_done = w.take<int>(sizeof(int) * size_t(ws.hblocks));
  ws.counters = w.take<unsigned>(2 * sizeof(unsigned));
  return ws;
}
}  // namespace

size_t workspace_bytes(int64_t H, int64_t I, int slots) {
  WorkspaceCarver count;
  lay_out(count, H, I, slots);
  return count.bytes();
}

MegaWorkspace carve_workspace(void* base, int64_t H, int64_t I, int slots) {
  WorkspaceCarver w(base);
  return lay_out(w, H, I, slots);
}

int persistent_grid() {
  cu::check("mega_bf16",
            cudaFuncSetAttribute(mega_bf16_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kRingBytes),
            "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  int per_sm = 0;
  cu::check("mega_bf16", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mega_bf16_kernel, kThreads, kRingBytes),
            "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (per_sm < 1) throw CudaError("mega_bf16: the kernel cannot be resident on this device (occupancy 0)");
  return per_sm * cu::current_sm_count();
}

void launch(const MegaArgs& args, const MegaWorkspace& ws, int grid, cudaStream_t stream) {
  if (args.T <= 0) return;
  if (args.T * args.K > kMaxRoutes)
    throw_invalid("T * top_k", "at most " + std::to_string(kMaxRoutes) + " (mega kernel)", std::to_string(args.T * args.K));
  if (args.EL < 1 || args.EL > kMaxExperts)
    throw_invalid("local experts", "in [1, " + std::to_string(kMaxExperts) + "] (mega kernel)", std::to_string(args.EL));
  if (args.H % kBK != 0 || args.I % kBK != 0)
    throw_invalid("hidden_size / intermediate_size", "multiples of 64 (mega kernel)",
                  std::to_string(args.H) + " / " + std::to_string(args.I));
  if (!cu::aligned(args.x, 16) || args.ldx % 8 != 0)
    throw_invalid("x", "16-byte aligned rows (mega kernel)", "misaligned");
  if (!cu::aligned(args.out, 16)) throw_invalid("out", "a 16-byte aligned pointer (mega kernel)", "misaligned");
  if (grid < 1 || partial_slots(grid) > ws.slots)
    throw_invalid("grid", "in [1, slots / 4] (mega kernel)", std::to_string(grid));
  Params p{args, ws};
  mega_bf16_kernel<<<dim3(unsigned(grid)), dim3(kThreads), kRingBytes, stream>>>(p);
  cu::check_launch("mega_bf16", "mega kernel launch");
}

}  // namespace megamoe::sm90::mega
