// W4A16 grouped GEMM, small tactic (grouped_gemm_w4a16.h): swap-AB mma.sync, built to stream
// packed weights at HBM speed when experts have a handful of rows. Two forms of one CTA: the TMA
// form (w4a16_small_tma_kernel, the default since session 38: one thread's TMA copies of four or
// eight K steps a stage, two CTAs per SM; below) and the cp.async form (w4a16_small_kernel, every thread
// copies; MEGAMOE_W4A16_SMALL_TMA=0). What follows describes the cp.async form; both share the
// grid, the sub-step's decode and MMAs (small_substep_codes) and the epilogue (small_store); the
// TMA form reads its warps' weight rows in another order (see there) and, running K whole, can
// apply FC1's activation in its epilogue instead (small_act_store: gated tiles of 64 gate rows and
// their 64 up rows).
//
// Grid (ceil(N/128), min(G, rows bound)): blockIdx.y is the rank of an expert among those with
// rows (nth_active_expert), so no CTA is launched for the ~97% of experts idle at decode sizes.
// One CTA owns 128 weight rows of one expert: 8 warps, each 16 weight rows x BT tokens (BT / 8
// n8 tiles; those past the pass's rows are skipped). Outer loop over the expert's rows in passes
// of BT = 16 or 32 tokens (launch_small picks by the mean rows per expert: every pass re-streams
// and re-decodes the weight tile, and 16-token passes made deepseek-v3 T = 512, 16 rows per
// expert on average, run at 34% of the packed floor), inner K loop in stages of 128 (two
// 64-wide sub-steps: one barrier per 8 KB of weights). When the grid would give an SM fewer
// than two CTAs (decode: 8 experts x 32 tiles of FC1 on 132 SMs) K is split in two
// (gridDim.z = 2, fp32 atomic adds into a zeroed D): twice the warps to hide latency with.
//
// Shared memory (per CTA): kStages stages of {packed weights 2 x (128 x 32 B) = 8 KB,
// activations 2 x (BT x 64 bf16) = 4 / 8 KB with 16-byte chunks XOR-swizzled by (row & 7),
// scale tiles 2 x 256 / 512 B}. kStages = 4 keeps 3 x 8 KB of weights in flight per CTA (~72 KB
// per SM at three CTAs: 50-68 KB of shared memory and 69-79 registers each), what HBM latency x
// bandwidth needs (H200, 16-token passes: 5 stages measured 0.98-1.02x, 6 stages -- two CTAs per
// SM -- 0.93-1.01x). Weight copies prefetch 128 bytes into L2 (cp_async_weights16).
//
// At decode sizes the kernel is bound by instruction issue, not by HBM: per 64-wide sub-step a
// thread decodes 16 bf16 pairs (decode_step: ~2.25 ALU instructions per pair, one HMUL2 with
// the block's factor, one PRMT + IMAD per factor) for at most 8 tokens of MMA work, so
// everything else in the loop is kept to the minimum (pointers advanced, fragment offsets
// precomputed, the activation B fragments of two k16 blocks per ldmatrix.x4: against two LDS
// per k16 block and n8 tile, 10-20% faster from T = 64 on).
// Epilogue: D = alpha[g] * acc (fp32), rows and columns bounds-checked.
#include <algorithm>
#include <string>
#include <type_traits>

#include <cuda.h>

#include "core/env_int.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/common/tma_ring.cuh"
#include "kernels/sm90/gemm/grouped_gemm_w4a16_common.cuh"
#include "kernels/sm90/moe/activation_math.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {
namespace {

using namespace w4a16;

constexpr int kStages = 4, kSub = 2;
constexpr int kWBytes = kBN * kBK / 2;  // 4096 per sub-step

// BT tokens per pass (16 or 32, launch_small picks): every pass re-streams and re-decodes the
// weight tile, so experts with more than 16 rows want 32-token passes, while at T = 1 the
// 16-token tile was ~5% faster (fewer activation copies and n8-tile checks per sub-step).
template <Fp4Scale F, int BT>
struct SmallCfg {
  static constexpr int kBT = BT, kNT = BT / 8;
  static constexpr int kXBytes = BT * kBK * 2;              // 2048 / 4096 per sub-step
  static constexpr int kSBytes = ScaleCfg<F>::kTileBytes;  // per sub-step
  static constexpr int kWOff = 0, kXOff = kSub * kWBytes, kSOff = kXOff + kSub * kXBytes;
  static constexpr int kStage = kSOff + kSub * kSBytes;
  static constexpr int kSmem = kStages * kStage;
  // Budget: 4 stages of 12.5-13 (BT 16) / 16.5-17 KB (BT 32) = 50-68 KB: three CTAs per SM
  // (69-79 registers).
  static_assert(kSmem <= kMaxDynamicSmem, "small tactic: shared-memory budget");
  static_assert(kSBytes / kChunkBytes <= kThreads, "scale tile: at most one chunk per thread");
  // Load roles (see the kernel): weights one chunk per thread, activations one chunk for each of
  // the first BT * 8 threads; warps: 8, each 16 weight rows x BT tokens (kNT n8 tiles).
  static_assert(BT * (kSmemRowBytes / kChunkBytes) <= kThreads, "activation tile: one chunk per thread");
  static_assert(kXBytes == BT * kSmemRowBytes, "stage sizes");
};
static_assert(kStages >= 2, "the cp.async ring needs a stage in flight while one is read");
static_assert(kWBytes == kBN * kPackedRowBytes, "stage sizes");

// A thread's shared-memory offsets inside one 64-wide sub-step's tiles (constant over the K loop):
// its two weight rows' fragment bytes (tile rows ra and rb, which hold the warp's A rows gq and
// gq + 8) in the weight tile [128 rows x 32 B] (the cp.async form's layout; the TMA form addresses
// its codes itself), their factor bytes in the scale tile [128 rows x kPerRow B], and the
// ldmatrix rows of the activation B fragments in the 128-byte-swizzled activation tile [rows x
// 128 B]: lane l gives row l % 8 of matrix l / 8, i.e. token row l % 8 of an n8 tile and chunk
// 4 h + l / 8 of the row (k16 blocks 2 h and 2 h + 1: b0, b1, b0, b1), its 16-byte chunks XOR-ed
// with (row & 7) -- TMA's 128-byte swizzle, which the cp.async form writes by hand.
struct SmallFrag {
  uint32_t wa, wb, sa, sb, xl[2];
};
template <Fp4Scale F>
__device__ __forceinline__ SmallFrag small_frag(int ra, int rb, int lane) {
  constexpr int kPerRow = ScaleCfg<F>::kPerRow;
  const int tig = lane & 3;
  SmallFrag f;
  f.wa = uint32_t(ra * kPackedRowBytes + tig * 8);
  f.wb = uint32_t(rb * kPackedRowBytes + tig * 8);
  f.sa = uint32_t(ra * kPerRow);
  f.sb = uint32_t(rb * kPerRow);
  const int lrow = lane & 7, lmat = lane >> 3;
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    f.xl[h] = uint32_t(lrow * kSmemRowBytes + (((4 * h + lmat) ^ lrow) * kChunkBytes));
    asm volatile("mov.b32 %0, %0;" : "+r"(f.xl[h]));  // kept, not recomputed per use
  }
  return f;
}

// One 64-wide K sub-step of a warp: decode its 16 weight rows (w: the sub-step's weight tile, s:
// its scale tile) and run the MMAs of the NTA active n8 token tiles (x: shared address of the
// activation tile). Each tile's MMAs form a dependent chain on its accumulator; with one tile
// the k16 blocks 2h and 2h + 1 go to two accumulators (acc and acc_hi, summed after the K loop)
// so two chains interleave.
// small_substep_codes: the same with the warp's two weight rows' fragment bytes already loaded (the
// TMA form's weight tile has its own layout).
template <Fp4Scale F, int NTA, int NT>
__device__ __forceinline__ void small_substep_codes(uint2 wa, uint2 wb, const uint8_t* s, uint32_t x, const SmallFrag& f,
                                                    float (&acc)[NT][4], float (&acc_hi)[4]) {
  constexpr int kPerRow = ScaleCfg<F>::kPerRow;
  uint32_t ca, cb;
  if constexpr (kPerRow == 2) {
    ca = *reinterpret_cast<const uint16_t*>(s + f.sa);
    cb = *reinterpret_cast<const uint16_t*>(s + f.sb);
  } else {
    ca = *reinterpret_cast<const uint32_t*>(s + f.sa);
    cb = *reinterpret_cast<const uint32_t*>(s + f.sb);
  }
  uint32_t af[4][4];
  decode_step<F>(wa, wb, ca, cb, af);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    uint32_t b[NTA][4];  // per tile: b0, b1 of k16 block 2 h, then of block 2 h + 1
#pragma unroll
    for (int j = 0; j < NTA; ++j)
      ptx::ldmatrix_x4(x + uint32_t(j * 8 * kSmemRowBytes) + f.xl[h], b[j][0], b[j][1], b[j][2], b[j][3]);
#pragma unroll
    for (int j = 0; j < NTA; ++j) ptx::mma_m16n8k16_bf16(acc[j], af[2 * h], b[j][0], b[j][1]);
    if constexpr (NTA == 1) {
      ptx::mma_m16n8k16_bf16(acc_hi, af[2 * h + 1], b[0][2], b[0][3]);
    } else {
#pragma unroll
      for (int j = 0; j < NTA; ++j) ptx::mma_m16n8k16_bf16(acc[j], af[2 * h + 1], b[j][2], b[j][3]);
    }
  }
}

template <Fp4Scale F, int NTA, int NT>
__device__ __forceinline__ void small_substep(const uint8_t* w, const uint8_t* s, uint32_t x, const SmallFrag& f,
                                              float (&acc)[NT][4], float (&acc_hi)[4]) {
  small_substep_codes<F, NTA>(*reinterpret_cast<const uint2*>(w + f.wa), *reinterpret_cast<const uint2*>(w + f.wb), s,
                              x, f, acc, acc_hi);
}

// Epilogue of a pass: D[t0 + col, n] = alpha * acc for the pass's token columns and the warp's 16
// weight rows from n_warp (bounds-checked), added atomically onto the zeroed D when K is split.
// The accumulator rows gq and gq + 8 hold weight rows n_warp + ra and n_warp + rb.
template <int NT>
__device__ __forceinline__ void small_store(float* __restrict__ D, const float (&acc)[NT][4], float al, bool split,
                                            int t0, int rows_here, int n_warp, int ra, int rb, int N, int lane) {
  const int tig = lane & 3;
#pragma unroll
  for (int j = 0; j < NT; ++j) {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      const int col = j * 8 + 2 * tig + (q & 1);
      const int n = n_warp + ((q >> 1) ? rb : ra);
      if (col < rows_here && n < N) {
        float* d = D + size_t(t0 + col) * size_t(N) + n;
        if (split) atomicAdd(d, al * acc[j][q]);
        else *d = al * acc[j][q];
      }
    }
  }
}

// What the TMA form writes (SmallOut::mode): fp32 D (alpha * acc, added atomically when K is split),
// or FC1 with its activation in the epilogue, K whole: bf16 a [rows, I] from a gated W13 (kGated)
// or from relu2's I rows (kReLU2). a = bf16(act(h[gate j] + b13[gate j], h[up j] + b13[up j])) with
// h = alpha * acc rounded once: the float operations of fp32 D followed by launch_activation, bit
// for bit (no FP32 h in HBM and no activation kernel, ~1.5-4 us of a decode layer).
enum class SmallMode : int { kD32 = 0, kGated = 1, kReLU2 = 2 };
struct SmallOut {
  float* D;                  // kD32: [rows, N] fp32
  __nv_bfloat16* a;          // kGated / kReLU2: [rows, I] bf16 (I = N / 2 gated, N relu2)
  const float* b13;          // [G, N] fp32, canonical rows (gate 0..I-1, up I..2I-1), or null
  float limit, act_alpha;    // ActEpilogueArgs
  Activation act;
  SmallMode mode;
};

// The activation epilogue of a pass (modes kGated / kReLU2). Accumulator rows gq / gq + 8 hold
// weight rows row0 + ra / row0 + rb: gated, ra is gate row j = row0 + ra of the CTA's 64 outputs
// and rb = ra + 64 its up row I + j; relu2, two outputs row0 + ra and row0 + rb of its 128.
template <int NT>
__device__ __forceinline__ void small_act_store(const SmallOut& o, const float (&acc)[NT][4], float al, int g,
                                                int t0, int rows_here, int row0, int ra, int rb, int N, int lane) {
  const int tig = lane & 3;
  const bool gated = o.mode == SmallMode::kGated;
  const int I = gated ? N / 2 : N;
  const float* bias = o.b13 ? o.b13 + size_t(g) * size_t(N) : nullptr;
#pragma unroll
  for (int j = 0; j < NT; ++j) {
#pragma unroll
    for (int q = 0; q < 2; ++q) {
      const int col = j * 8 + 2 * tig + q;
      if (col >= rows_here) continue;
      __nv_bfloat16* out = o.a + size_t(t0 + col) * size_t(I);
      float ha = __fmul_rn(al, acc[j][q]), hb = __fmul_rn(al, acc[j][q + 2]);
      if (gated) {
        const int jg = row0 + ra;
        if (jg >= I) continue;
        if (bias) {
          ha = __fadd_rn(ha, __ldg(bias + jg));
          hb = __fadd_rn(hb, __ldg(bias + I + jg));
        }
        out[jg] = __float2bfloat16_rn(act::act_apply(o.act, ha, hb, o.limit, o.act_alpha));
      } else {
        const int na = row0 + ra, nb = row0 + rb;
        if (na < I)
          out[na] = __float2bfloat16_rn(act::act_fn<Activation::kReLU2>(bias ? __fadd_rn(ha, __ldg(bias + na)) : ha,
                                                                        0.0f, o.limit, o.act_alpha));
        if (nb < I)
          out[nb] = __float2bfloat16_rn(act::act_fn<Activation::kReLU2>(bias ? __fadd_rn(hb, __ldg(bias + nb)) : hb,
                                                                        0.0f, o.limit, o.act_alpha));
      }
    }
  }
}

template <Fp4Scale F, int BT>
__global__ void __launch_bounds__(kThreads, 3) w4a16_small_kernel(const __nv_bfloat16* __restrict__ A,
                                                               const uint8_t* __restrict__ W,
                                                               const uint8_t* __restrict__ S,
                                                               const float* __restrict__ alpha,
                                                               const int32_t* __restrict__ offsets,
                                                               float* __restrict__ D, int N, int K, int G) {
  using C = SmallCfg<F, BT>;
  constexpr int kBT = C::kBT, kNT = C::kNT, kXBytes = C::kXBytes;
  constexpr int kPerRow = ScaleCfg<F>::kPerRow;
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ int scratch[9];
  const int tid = threadIdx.x;
  pdl_wait_then_release();
  const int g = nth_active_expert(offsets, G, blockIdx.y, scratch);
  if (g < 0) return;
  const int n0 = blockIdx.x * kBN;
  const int lo = __ldg(offsets + g), hi = __ldg(offsets + g + 1);

  const int KT = K / kBK;                     // 64-wide sub-steps
  const int KS_all = (KT + kSub - 1) / kSub;  // stages of 128 (a last half stage is zero-filled)
  // Split K (gridDim.z = 1 or 2): this CTA runs stages [ks0, ks0 + KS) and adds its partial sum
  // into D, which the launcher zeroed. Two addends onto 0 give the same bits in either order.
  const bool split = gridDim.z > 1;
  const int ks0 = split ? int(blockIdx.z) * ((KS_all + 1) / 2) : 0;
  const int KS = split ? min(KS_all - ks0, (KS_all + 1) / 2) : KS_all;
  const int warp = tid >> 5, lane = tid & 31;
  const int wr = warp * 16;
  const size_t wrow = size_t(K) / 2;
  const float al = alpha ? __ldg(alpha + g) : 1.0f;

  // Load roles per sub-step: weights one 16-byte chunk per thread (row tid/2, half tid%2);
  // activations one chunk for the first 128 threads (row tid/8, chunk tid%8); scales the
  // first kSBytes/16 threads. Sources advance by one sub-step per copy.
  const int w_row = tid >> 1, w_half = tid & 1;
  const bool w_ok = n0 + w_row < N;
  const uint8_t* w_src0 =
      W + (size_t(g) * size_t(N) + size_t(w_ok ? n0 + w_row : 0)) * wrow + w_half * kChunkBytes + size_t(ks0) * kSub * kPackedRowBytes;
  const uint32_t w_dst = uint32_t(C::kWOff + w_row * kPackedRowBytes + w_half * kChunkBytes);
  constexpr int kSChunks = C::kSBytes / kChunkBytes;
  const bool s_thr = tid < kSChunks;
  const bool s_ok = s_thr && (n0 + tid * (kChunkBytes / kPerRow) < N);
  const size_t s_step = size_t(N) * kPerRow;  // bytes of one sub-step's scale tile row block
  const uint8_t* s_src0 = S + (size_t(g) * size_t(KT) + size_t(ks0) * kSub) * s_step +
                          (s_ok ? size_t(n0) * kPerRow + tid * kChunkBytes : 0);
  const uint32_t s_dst = uint32_t(C::kSOff + tid * kChunkBytes);
  const bool x_thr = tid < kBT * 8;
  const int x_row = (tid >> 3) % kBT, x_c = tid & 7;
  const uint32_t x_dst = uint32_t(C::kXOff + x_row * kSmemRowBytes + ((x_c ^ (x_row & 7)) * kChunkBytes));
  const uint32_t sbase = uint32_t(__cvta_generic_to_shared(smem));

  const SmallFrag frag = small_frag<F>(wr + (lane >> 2), wr + (lane >> 2) + 8, lane);
  for (int t0 = lo; t0 < hi; t0 += kBT) {
    const int rows_here = min(kBT, hi - t0);
    const bool x_ok = x_thr && x_row < rows_here;
    // Running sources: each load_stage call copies the next stage (the calls come in K order).
    const uint8_t* w_src = w_src0;
    const uint8_t* s_src = s_src0;
    const __nv_bfloat16* x_src = A + size_t(x_ok ? t0 + x_row : lo) * size_t(K) + x_c * 8 + size_t(ks0) * kSub * kBK;
    int next_kt = ks0 * kSub;
    auto load_stage = [&](int slot) {
      const uint32_t st = sbase + uint32_t(slot * C::kStage);
      if (next_kt + kSub <= KT) {
        // Every stage but possibly the last: the predicates are the loop's invariants and the
        // sources advance once per stage (constant offsets inside it).
#pragma unroll
        for (int u = 0; u < kSub; ++u) {
          cp_async_weights16(st + w_dst + u * kWBytes, w_src + u * kPackedRowBytes, w_ok);
          if (x_thr) cp_async16(st + x_dst + u * kXBytes, x_src + u * kBK, x_ok);
          if (s_thr) cp_async16(st + s_dst + u * C::kSBytes, s_src + u * s_step, s_ok);
        }
        w_src += kSub * kPackedRowBytes;
        x_src += kSub * kBK;
        s_src += kSub * s_step;
      } else {
#pragma unroll
        for (int u = 0; u < kSub; ++u) {
          const bool in = next_kt + u < KT;  // a zero-filled half stage past K adds exact zeros
          cp_async_weights16(st + w_dst + u * kWBytes, w_src, w_ok && in);
          if (x_thr) cp_async16(st + x_dst + u * kXBytes, x_src, x_ok && in);
          if (s_thr) cp_async16(st + s_dst + u * C::kSBytes, s_src, s_ok && in);
          if (in) {
            w_src += kPackedRowBytes;
            x_src += kBK;
            s_src += s_step;
          }
        }
      }
      next_kt += kSub;
    };

    float acc[kNT][4];
#pragma unroll
    for (int j = 0; j < kNT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) acc[j][q] = 0.0f;

#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < KS) load_stage(s);
      cp_async_commit();
    }
    // The K loop for a pass with NTA active n8 tiles (ceil(rows_here / 8), a compile-time count):
    // no per-tile branch inside, and the MMAs of a k16 block go to the NTA accumulators back to
    // back. Each tile's MMAs form a dependent chain on its accumulator (SASS of the branchy
    // version: a NOP after every HMMA, 32 a stage at BT = 32); with one tile, the k16 blocks
    // 2h and 2h + 1 go to two accumulators (acc and acc_hi, summed after the loop) so two
    // chains interleave.
    auto k_loop = [&](auto nta_c) {
      constexpr int NTA = decltype(nta_c)::value;
      constexpr bool kSplitAcc = NTA == 1;
      float acc_hi[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int ks = 0; ks < KS; ++ks) {
        cp_async_wait<kStages - 2>();
        __syncthreads();
        {
          const int nk = ks + kStages - 1;
          if (nk < KS) load_stage(nk % kStages);
          cp_async_commit();
        }
        const uint8_t* st = smem + (ks % kStages) * C::kStage;
        const uint32_t xst = sbase + uint32_t((ks % kStages) * C::kStage + C::kXOff);
#pragma unroll
        for (int u = 0; u < kSub; ++u)
          small_substep<F, NTA>(st + C::kWOff + u * kWBytes, st + C::kSOff + u * C::kSBytes, xst + uint32_t(u * kXBytes),
                                frag, acc, acc_hi);
      }
      if constexpr (kSplitAcc) {
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[0][q] += acc_hi[q];
      }
    };
    const int nta = (rows_here + 7) / 8;  // 1 .. kNT
    with_active_tiles<kNT>(nta, k_loop);
    cp_async_wait<0>();
    __syncthreads();  // every warp is done with the stages before the next pass refills them

    small_store(D, acc, al, split, t0, rows_here, n0 + wr, lane >> 2, (lane >> 2) + 8, N, lane);
  }
}

template <Fp4Scale F, int BT>
cudaError_t launch_small(const W4A16GemmArgs& a, int grid_y, int splits, cudaStream_t stream) {
  using C = SmallCfg<F, BT>;
  auto kernel = w4a16_small_kernel<F, BT>;
  // Per launch: the attribute belongs to the current device's context (cheap host call).
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmem);
  if (attr != cudaSuccess) return attr;
  const dim3 grid(unsigned((a.N + kBN - 1) / kBN), unsigned(grid_y), unsigned(splits));
  kernel<<<grid, kThreads, C::kSmem, stream>>>(static_cast<const __nv_bfloat16*>(a.A), a.W, a.scales,
                                                         a.alpha, a.offsets, a.D, int(a.N), int(a.K), a.num_groups);
  return cudaGetLastError();
}

// ---- The TMA form (MEGAMOE_W4A16_SMALL_TMA=1) ------------------------------------------------
// The same CTA (128 weight rows of one expert, 8 warps of 16 rows, passes of BT tokens, K split in
// gridDim.z parts) and the same per-warp sub-step, fed by the copy engine instead of every thread's
// cp.async. One issuing thread's stream rate follows its TMA instructions, not its bytes
// (docs/BENCHMARKS.md, 2026-12-03 stream micro-benchmarks), so a stage is few, large copies: S = 4
// or 8 64-wide K steps (256 / 512 K) in one or two boxes per operand, through tensor maps that walk
// the existing layouts in the order shared memory wants them:
//   codes       {128 B, 128 rows, 1 expert} of [G][N][K/2] per 4 K steps, 128-byte swizzle:
//               [quad][row][128 B], 16 KB a box, S / 4 boxes (rows past N, bytes past K/2 arrive as
//               zeros). A box row of 128 bytes, not 32 (one K step a box row): TMA streams short box
//               rows slowly (at T = 1 the 32-byte form read 2.2-2.6 TB/s, ncu, session 41);
//   activations {64 K, BT rows, S K steps} of [rows][K], 128-byte swizzle: [step][row][128 B];
//   scales      {128 rows' factor bytes, S K steps} of the scale tiles [G * K/64][N * kPerRow].
// S = 8 for 16-token passes whose K part holds at least 32 steps (launch_w4a16_small), else 4.
// The swizzle XORs a row's 16-byte chunks with (row & 7), so a warp reads its 16 weight rows in an
// order where the 8-byte loads of each half-warp fall on distinct banks: A row gq is tile row
// 16 w + 2 gq and A row gq + 8 is 16 w + 2 gq + 1 (rows gq = 0..3 of a half-warp: XOR 0, 2, 4, 6,
// which spreads a step's two chunks over all eight); the epilogue writes the rows back in that order.
// No CTA-wide barrier in the K loop: each thread waits for its stage's `full` barrier and, when
// done with it, arrives on the stage's `empty` barrier (every thread: racecheck does not carry
// __syncwarp's ordering over to another lane's arrival). Thread 0 refills a slot kAhead stages
// ahead of its own warp. Two CTAs per SM (a stage is 25-34 KB at S = 4, ~50 KB at S = 8), each its
// own issuer.
// Early weights (W4A16GemmArgs::pdl, K whole): a programmatic dependent launch whose thread 0 arms
// the first pass's first kAhead stages and requests their codes and scales before griddepcontrol.wait,
// their token tiles after it; FC1's weight stream then starts under permute, FC2's under FC1's tail.
// Measured on an H100 (session 63, `auto` T = 1..64, four presets, mxfp4 and nvfp4, two rounds):
// 1.024x over 56 cells, deepseek-v3 T = 1 1.06-1.07x, qwen3-30b-a3b T = 1 / 2 1.07-1.09x; 10 cells
// 0.983-0.999x (qwen3-30b-a3b T = 16..64, gpt-oss-120b nvfp4 T = 1 / 2). On a second H100 1.010x, with
// qwen3-30b-a3b T = 16..64 (FC1 in 3-4 waves) at 0.975-0.984x. Every slot of the ring before the wait,
// instead of the kAhead stages, was slower (0.991x; bench/results/2026-12-06_session63/).
template <Fp4Scale F, int BT, int S, int kCtas = 2>
struct SmallTmaCfg {
  static constexpr int kSteps = S;  // 64-wide K steps per stage
  static constexpr int kXBytes = BT * kSmemRowBytes;         // one step's activation tile
  static constexpr int kSBytes = ScaleCfg<F>::kTileBytes;     // one step's scale tile
  static constexpr int kXOff = 0, kWOff = kSteps * kXBytes, kSOff = kWOff + kSteps * kWBytes;
  static constexpr int kStage = (kSOff + kSteps * kSBytes + 1023) / 1024 * 1024;
  // kCtas CTAs per SM: 228 KB per SM, 1 KB reserved per CTA, 1 KB of alignment slack each.
  // Two: S = 4, BT 16: 4 stages of 25-26 KB, BT 32: 3 of 33-34 KB; S = 8, BT 16: 2 of ~50 KB (one
  // stage in flight while one is read). One (the deep ring, W4A16GemmArgs::small_deep): S = 8, BT 16:
  // 4 of ~50 KB, three in flight.
  static constexpr int kStages = (228 * 1024 / kCtas - 2048) / kStage;
  static constexpr int kAhead = kStages - 1;
  static constexpr int kSmem = kStages * kStage + 1024;
  static_assert(kStages >= 2, "small TMA tactic: one stage in flight while one is read");
  static_assert(kSmem <= kMaxDynamicSmem, "small TMA tactic: shared-memory budget");
};

// What the kernel writes is a run-time mode (SmallOut::mode): fp32 D, or FC1's activation (K whole).
// A/B (session 42): the mode costs the fp32-D GEMMs 1.2-1.6% against the kernel without it, the
// epilogue gains FC1 more; the prepared two-kernel form (bench/results/2026-12-04_w4a16_small_act_epilogue/
// two_kernels.patch) keeps the fp32-D kernel's machine code.
template <Fp4Scale F, int BT, int S, int kCtas>
__global__ void __launch_bounds__(kThreads, kCtas)
    w4a16_small_tma_kernel(const __grid_constant__ CUtensorMap tm_x, const __grid_constant__ CUtensorMap tm_w,
                           const __grid_constant__ CUtensorMap tm_s, const float* __restrict__ alpha,
                           const int32_t* __restrict__ offsets, SmallOut out, int N, int K, int G,
                           bool early) {
  using C = SmallTmaCfg<F, BT, S, kCtas>;
  constexpr int kNT = BT / 8, kStages = C::kStages, kAhead = C::kAhead, kSteps = C::kSteps;
  extern __shared__ uint8_t smem_raw[];
  __shared__ __align__(8) uint64_t full_bar[kStages], empty_bar[kStages];
  TmaRing<kStages, kThreads> ring{full_bar, empty_bar};
  __shared__ int scratch[9];
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const uint32_t raw = ptx::smem_u32(smem_raw);
  const uint32_t sbase = (raw + 1023u) & ~1023u;
  const uint8_t* smem = smem_raw + (sbase - raw);
  if (tid == 0) {
    ring.init();
    ptx::prefetch_tensormap(&tm_x);
    ptx::prefetch_tensormap(&tm_w);
    ptx::prefetch_tensormap(&tm_s);
  }
  // early (a PDL launch, W4A16GemmArgs::pdl): the route plan, weights and scales were complete before
  // the previous kernel passed its own wait, so only the activations wait for it (below).
  if (!early) pdl_wait_then_release();
  const int g = nth_active_expert(offsets, G, blockIdx.y, scratch);  // its barriers publish the inits
  if (g < 0) return;
  // The CTA's weight rows: 128 from row0 (fp32 D, relu2), or gated 64 gate rows from row0 and their
  // 64 up rows from I + row0 (the codes and scale maps' second "half" coordinate; tile rows 64..127).
  const bool gated = out.mode == SmallMode::kGated;
  const int row0 = blockIdx.x * (gated ? kBN / 2 : kBN);
  const int lo = __ldg(offsets + g), hi = __ldg(offsets + g + 1);
  const int KT = K / kBK;
  const int KS_all = (KT + kSteps - 1) / kSteps;  // stages of 256 K
  const bool split = gridDim.z > 1;
  const int ks0 = split ? int(blockIdx.z) * ((KS_all + 1) / 2) : 0;
  const int KS = split ? min(KS_all - ks0, (KS_all + 1) / 2) : KS_all;
  const float al = alpha ? __ldg(alpha + g) : 1.0f;
  // Tile rows of the warp's A rows gq / gq + 8 (their scale offsets in frag), and their weight bytes
  // of quad step 0: step u of a quad is at that offset XOR (u << 5) (chunk 2u + tig / 2, XOR (row & 7)).
  // Gated, a warp's A rows are gate rows 8w + 2 (gq % 4) + gq / 4 and their up rows 64 further (the
  // pair one thread's epilogue needs); each half-warp's rows still cover (row & 7) = 0, 2, 4, 6 or
  // 1, 3, 5, 7, so its 8-byte loads still fall on distinct banks.
  const int gq = lane >> 2, tig = lane & 3;
  const int ra = gated ? warp * 8 + 2 * (gq & 3) + (gq >> 2) : warp * 16 + 2 * gq;
  const int rb = gated ? ra + kBN / 2 : ra + 1;
  const SmallFrag frag = small_frag<F>(ra, rb, lane);
  const uint32_t wq_a = uint32_t(ra * 128 + ((((tig >> 1) ^ (ra & 7))) << 4) + (tig & 1) * 8);
  const uint32_t wq_b = uint32_t(rb * 128 + ((((tig >> 1) ^ (rb & 7))) << 4) + (tig & 1) * 8);
  constexpr int kQuadBytes = kBN * 128;  // one codes box: 4 K steps of 128 rows
  static_assert(kSteps % 4 == 0 && C::kWOff % 1024 == 0 && C::kStage % 1024 == 0, "swizzled codes boxes: 1 KB aligned");
  constexpr uint32_t kTx = uint32_t(kSteps * (C::kXBytes + kWBytes + C::kSBytes));  // full boxes, zero fill included

  // A stage's copies: the token tile (load_x) and the codes and scales (load_w), on the slot's full
  // barrier armed once with all their bytes.
  auto load_x = [&](int slot, uint32_t bar, int ks, int t0) {
    ptx::tma_load_3d(sbase + uint32_t(slot * C::kStage) + C::kXOff, &tm_x, bar, 0, t0, (ks0 + ks) * kSteps);
  };
  auto load_w = [&](int slot, uint32_t bar, int ks) {
    const int kt = (ks0 + ks) * kSteps;
    const uint32_t st = sbase + uint32_t(slot * C::kStage);
    // Gated maps have the extra "half" coordinate (launch_small_tma); the others keep the 3-D / 2-D form.
#pragma unroll
    for (int q = 0; q < kSteps / 4; ++q) {
      const uint32_t dst = st + C::kWOff + uint32_t(q * kQuadBytes);
      const int kb = (kt + 4 * q) * kPackedRowBytes;
      if (gated) ptx::tma_load_4d(dst, &tm_w, bar, kb, row0, 0, g);
      else ptx::tma_load_3d(dst, &tm_w, bar, kb, row0, g);
    }
    const int sc = row0 * ScaleCfg<F>::kPerRow / 4;
    if (gated) ptx::tma_load_3d(st + C::kSOff, &tm_s, bar, sc, 0, g * KT + kt);
    else ptx::tma_load_2d(st + C::kSOff, &tm_s, bar, sc, g * KT + kt);
  };
  // Thread 0's copies of stage ks of the pass at token t0 into the next slot (`issued` counts every
  // stage this CTA has loaded; its slot's previous use must have been released by every thread).
  uint32_t issued = 0;
  auto load_stage = [&](int ks, int t0) {
    const int slot = ring.acquire(issued);
    const uint32_t bar = ring.arm(slot, kTx);
    load_x(slot, bar, ks, t0);
    load_w(slot, bar, ks);
    ++issued;
  };
  // early: the first pass's first stages get their codes and scales before the wait for the previous
  // kernel (the CTA's weight stream starts while that kernel finishes), their token tiles after it.
  int preloaded = 0;
  if (early) {
    if (tid == 0) {
      preloaded = min(kAhead, KS);
      for (int ks = 0; ks < preloaded; ++ks) {
        const int slot = ring.acquire(issued++);  // a fresh slot: no wait
        load_w(slot, ring.arm(slot, kTx), ks);
      }
    }
    pdl_wait_then_release();
    if (tid == 0)
      for (int ks = 0; ks < preloaded; ++ks) load_x(ks, ptx::smem_u32(&ring.full[ks]), ks, lo);  // slot ks
  }

  uint32_t used = 0;  // stages this CTA's threads have consumed (the same count in every thread)
  for (int t0 = lo; t0 < hi; t0 += BT) {
    const int rows_here = min(BT, hi - t0);
    if (tid == 0)
      for (int ks = preloaded; ks < min(kAhead, KS); ++ks) load_stage(ks, t0);
    preloaded = 0;
    float acc[kNT][4];
#pragma unroll
    for (int j = 0; j < kNT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) acc[j][q] = 0.0f;
    auto k_loop = [&](auto nta_c) {
      constexpr int NTA = decltype(nta_c)::value;
      float acc_hi[4] = {0.0f, 0.0f, 0.0f, 0.0f};
      for (int ks = 0; ks < KS; ++ks, ++used) {
        if (tid == 0 && ks + kAhead < KS) load_stage(ks + kAhead, t0);
        const int slot = ring.wait_full(used);
        const uint8_t* st = smem + slot * C::kStage;
        const uint32_t xst = sbase + uint32_t(slot * C::kStage + C::kXOff);
        const int steps_here = min(kSteps, KT - (ks0 + ks) * kSteps);  // the last stage may hold fewer
        auto step = [&](int u) {
          const uint8_t* wq = st + C::kWOff + (u >> 2) * kQuadBytes;
          const uint32_t sw = uint32_t(u & 3) << 5;
          small_substep_codes<F, NTA>(*reinterpret_cast<const uint2*>(wq + (wq_a ^ sw)),
                                      *reinterpret_cast<const uint2*>(wq + (wq_b ^ sw)), st + C::kSOff + u * C::kSBytes,
                                      xst + uint32_t(u * C::kXBytes), frag, acc, acc_hi);
        };
        if (steps_here == kSteps) {
#pragma unroll
          for (int u = 0; u < kSteps; ++u) step(u);
        } else {
          for (int u = 0; u < steps_here; ++u) step(u);
        }
        ring.release(slot);
      }
      if constexpr (NTA == 1) {
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[0][q] += acc_hi[q];
      }
    };
    const int nta = (rows_here + 7) / 8;
    with_active_tiles<kNT>(nta, k_loop);
    if (out.mode == SmallMode::kD32) small_store(out.D, acc, al, split, t0, rows_here, row0, ra, rb, N, lane);
    else small_act_store(out, acc, al, g, t0, rows_here, row0, ra, rb, N, lane);
  }
}

template <Fp4Scale F, int BT, int S = 4, int kCtas = 2>
cudaError_t launch_small_tma(const W4A16GemmArgs& a, int64_t rows_bound, int grid_y, int splits, bool early,
                             cudaStream_t stream) {
  using C = SmallTmaCfg<F, BT, S, kCtas>;
  constexpr int kPerRow = ScaleCfg<F>::kPerRow;
  auto kernel = w4a16_small_tma_kernel<F, BT, S, kCtas>;
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, C::kSmem);
  if (attr != cudaSuccess) return attr;
  const int64_t KT = a.K / kBK;
  // Activations [rows][K] bf16 as {64 K, rows, K / 64}: a box is kSteps K steps of BT rows, each step
  // a [BT x 128 B] tile (128-byte swizzle).
  const cuuint64_t xd[3] = {cuuint64_t(kBK), cuuint64_t(rows_bound), cuuint64_t(KT)};
  const cuuint64_t xs[2] = {cuuint64_t(a.K * 2), cuuint64_t(kBK * 2)};
  const cuuint32_t xb[3] = {cuuint32_t(kBK), cuuint32_t(BT), cuuint32_t(C::kSteps)};
  const CUtensorMap tx = cu::encode_tensor_map(a.A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, xd, xs, xb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "w4a16 small", "A");
  // The weight rows of an expert as {R rows, H halves}: R = N, H = 1 (a CTA's 128 rows from n0), or
  // gated R = I = N / 2, H = 2 (a CTA's 64 gate rows from j0 and the 64 up rows from I + j0, tile rows
  // 64..127; rows past I arrive as zeros in both halves).
  const bool gated = a.act_out && a.act.activation != Activation::kReLU2;
  const int64_t R = gated ? a.N / 2 : a.N, H = gated ? 2 : 1, box_rows = kBN / H;
  // Codes [G][N][K/2] bytes as {K/2, R, [H,] G}: a box is 128 bytes (4 K steps) of 128 rows (box_rows
  // of each half), 128-byte swizzle. The "half" dimension only when gated (rank 4, else 3).
  const cuuint64_t wd[4] = {cuuint64_t(a.K / 2), cuuint64_t(R), cuuint64_t(H), cuuint64_t(a.num_groups)};
  const cuuint64_t ws[3] = {cuuint64_t(a.K / 2), cuuint64_t(R * a.K / 2), cuuint64_t(a.N * a.K / 2)};
  const cuuint32_t wb[4] = {128u, cuuint32_t(box_rows), cuuint32_t(H), 1u};
  const cuuint64_t wd3[3] = {wd[0], wd[1], wd[3]};
  const cuuint64_t ws3[2] = {ws[0], ws[2]};
  const cuuint32_t wb3[3] = {wb[0], wb[1], wb[3]};
  const CUtensorMap tw =
      gated ? cu::encode_tensor_map(a.W, CU_TENSOR_MAP_DATA_TYPE_UINT8, 4, wd, ws, wb, CU_TENSOR_MAP_SWIZZLE_128B,
                                    "w4a16 small", "W")
            : cu::encode_tensor_map(a.W, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, wd3, ws3, wb3, CU_TENSOR_MAP_SWIZZLE_128B,
                                    "w4a16 small", "W");
  // Scale tiles [G * K/64][N * kPerRow] bytes as 32-bit words {R rows' words, [H,] G * K/64}: a box is
  // 128 rows' factor bytes (box_rows of each half) of kSteps steps (rows past R arrive as zeros).
  const cuuint64_t sd[3] = {cuuint64_t(R * kPerRow / 4), cuuint64_t(H), cuuint64_t(int64_t(a.num_groups) * KT)};
  const cuuint64_t ss[2] = {cuuint64_t(R * kPerRow), cuuint64_t(a.N * kPerRow)};
  const cuuint32_t sb[3] = {cuuint32_t(box_rows * kPerRow / 4), cuuint32_t(H), cuuint32_t(C::kSteps)};
  const cuuint64_t sd2[2] = {sd[0], sd[2]};
  const cuuint64_t ss2[1] = {ss[1]};
  const cuuint32_t sb2[2] = {sb[0], sb[2]};
  const CUtensorMap ts =
      gated ? cu::encode_tensor_map(a.scales, CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, sd, ss, sb, CU_TENSOR_MAP_SWIZZLE_NONE,
                                    "w4a16 small", "scales")
            : cu::encode_tensor_map(a.scales, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, sd2, ss2, sb2,
                                    CU_TENSOR_MAP_SWIZZLE_NONE, "w4a16 small", "scales");
  // K split over stages of kSteps steps: two parts only when each has at least one stage (never
  // with the activation epilogue: the caller checked splits == 1).
  const int parts = KT > C::kSteps ? splits : 1;
  const SmallOut out{a.D, static_cast<__nv_bfloat16*>(a.act_out), a.act.b13, a.act.limit, a.act.alpha,
                     a.act.activation, !a.act_out ? SmallMode::kD32 : gated ? SmallMode::kGated : SmallMode::kReLU2};
  const dim3 grid(unsigned((R + box_rows - 1) / box_rows), unsigned(grid_y), unsigned(parts));
  // early: a PDL launch whose codes and scales of the first stages go out before its wait.
  return cu::launch_kernel_pdl(kernel, grid, dim3(kThreads), size_t(C::kSmem), stream, early, tx, tw, ts, a.alpha,
                               a.offsets, out, int(a.N), int(a.K), a.num_groups, early);
}
}  // namespace

// The TMA form unless MEGAMOE_W4A16_SMALL_TMA=0 (an A/B knob, read once; then the cp.async
// form). Measured on the H200
// (forced split_small, T = 1..128, four presets, mxfp4 and nvfp4, best of two,
// bench/results/2026-12-04_w4a16_small_tma/run3/): geomean 1.027x over the cp.async form,
// mixtral-8x7b 1.02-1.16x, gpt-oss-120b T = 1 / 2 0.95-0.97x (there the re-tuned table picks k1).
static int small_tma_knob() {
  static const int tma = int(env_int("MEGAMOE_W4A16_SMALL_TMA", 1));
  return tma;
}
bool w4a16_small_tma_form() { return small_tma_knob() != 0; }

// W4A16GemmArgs::pdl on the TMA form with K whole, unless MEGAMOE_W4A16_SMALL_EARLY=0 (an A/B knob,
// read once: then a plain launch that waits for the previous kernel before its first copy).
static bool small_early(const W4A16GemmArgs& a, int splits, int tma) {
  static const bool knob = env_int("MEGAMOE_W4A16_SMALL_EARLY", 1) != 0;
  return knob && a.pdl && splits == 1 && tma != 0;
}

// The deep ring (W4A16GemmArgs::small_deep; the 8-step TMA form with 16-token passes): one CTA per SM
// with four ~50 KB stages, three in flight, instead of two CTAs with one in flight each. At decode
// sizes a grid of fewer CTAs than SMs (gpt-oss-120b T = 1: FC2's 92) runs one CTA per SM anyway, so
// each SM has only one stage of weights in flight and its warps wait on the ring (ncu, session 69:
// `long_scoreboard` on the stage's barrier 33-37% of warp cycles, DRAM 35-47% busy).
// 1: where the grid (128-row tiles x experts x `parts`, the launch's K parts) fits one CTA per SM;
// 2: always. Measured on an H100 (session 72, `auto` against the deep ring on every GEMM that fits, T = 1 / 2,
// four presets, mxfp4 and nvfp4): gpt-oss-120b T = 1 1.07x (FC2's 92 CTAs), qwen3-30b-a3b T = 1
// 0.92-0.94x (FC1's 96 CTAs; FC1 itself 12.1 -> 14.7 us in the timeline, not understood),
// mixtral-8x7b T = 1 0.99x (FC2's 64), elsewhere it does not apply. So it is FC2's alone, and a
// tactic (split_small_deep) that the shipped table picks where `megamoe tune` timed it fastest.
static bool small_deep_ring(const W4A16GemmArgs& a, int grid_y, int64_t parts) {
  if (a.small_deep == 0) return false;
  if (a.small_deep == 2) return true;
  const int64_t tiles = (int64_t(a.N) + kBN - 1) / kBN;  // gated: ceil(I / 64) = ceil(N / 128) too
  return tiles * grid_y * parts <= int64_t(cu::current_sm_count());
}

cudaError_t launch_w4a16_small(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y, int splits,
                               cudaStream_t stream) {
  // Tokens per pass: 16 up to a mean of 8 rows per expert, 32 above (measured, H200, mxfp4: at
  // mean 8 the two tiles are within 3%, at mean 16 the 32-token one is 1.2x faster --
  // deepseek-v3 T = 512 3.43 against 4.14 ms; a 64-token tile was slower than 32 up to mean 16
  // (deepseek-v3 T = 512: 3.75 against 2.96 ms) and no faster at 32, so there is none).
  // MEGAMOE_W4A16_SMALL_TOKENS=16 or 32 forces one (an A/B knob, read once).
  static const int forced = int(env_int("MEGAMOE_W4A16_SMALL_TOKENS", 0));
  const int64_t mean = rows_bound / std::max<int64_t>(1, a.num_groups);
  const bool wide = forced == 32 || (forced != 16 && mean > 8);
  const int tma = small_tma_knob();
  if (a.act_out && (tma == 0 || splits != 1)) return cudaErrorInvalidValue;  // checked by the caller
  const bool early = small_early(a, splits, tma);
  // 16-token passes copy 8 K steps at a time (256 bytes of each code row, two stages of ~50 KB)
  // where each K part holds at least 32 steps (four stages of 8), else 4. Measured on the H200
  // (bench/results/2026-12-04_w4a16_small_8steps_and_bf16_row/run2/, T = 1..16, four presets, forced
  // split_small mxfp4 and `auto` mxfp4 / nvfp4, best of two): 1.015x over 4 steps everywhere
  // (deepseek-v3 / mixtral-8x7b / gpt-oss-120b T = 1 1.02-1.05x); 8 steps everywhere lost
  // qwen3-30b-a3b T = 1 / 2 (FC2's K = 768: 12 steps) by 2-3%. MEGAMOE_W4A16_SMALL_TMA=2: 4 steps
  // always (session 38's form; an A/B knob).
  // The 8-step form's K parts (launch_small_tma: `splits` where K holds more than one stage).
  const int64_t parts_8 = a.K / kBK > 8 ? splits : 1;
  if (tma == 1 && !wide && (a.K / kBK) / parts_8 >= 32) {
    if (small_deep_ring(a, grid_y, parts_8)) {
      if (fmt == Fp4Scale::kMxfp4)
        return launch_small_tma<Fp4Scale::kMxfp4, 16, 8, 1>(a, rows_bound, grid_y, splits, early, stream);
      return launch_small_tma<Fp4Scale::kNvfp4, 16, 8, 1>(a, rows_bound, grid_y, splits, early, stream);
    }
    if (fmt == Fp4Scale::kMxfp4)
      return launch_small_tma<Fp4Scale::kMxfp4, 16, 8>(a, rows_bound, grid_y, splits, early, stream);
    return launch_small_tma<Fp4Scale::kNvfp4, 16, 8>(a, rows_bound, grid_y, splits, early, stream);
  }
  if (tma != 0) {
    if (fmt == Fp4Scale::kMxfp4)
      return wide ? launch_small_tma<Fp4Scale::kMxfp4, 32>(a, rows_bound, grid_y, splits, early, stream)
                  : launch_small_tma<Fp4Scale::kMxfp4, 16>(a, rows_bound, grid_y, splits, early, stream);
    return wide ? launch_small_tma<Fp4Scale::kNvfp4, 32>(a, rows_bound, grid_y, splits, early, stream)
                : launch_small_tma<Fp4Scale::kNvfp4, 16>(a, rows_bound, grid_y, splits, early, stream);
  }
  if (fmt == Fp4Scale::kMxfp4)
    return wide ? launch_small<Fp4Scale::kMxfp4, 32>(a, grid_y, splits, stream)
                : launch_small<Fp4Scale::kMxfp4, 16>(a, grid_y, splits, stream);
  return wide ? launch_small<Fp4Scale::kNvfp4, 32>(a, grid_y, splits, stream)
              : launch_small<Fp4Scale::kNvfp4, 16>(a, grid_y, splits, stream);
}

}  // namespace megamoe::sm90
