// W4A16 grouped GEMM, small tactic (grouped_gemm_w4a16.h): swap-AB mma.sync, built to stream
// packed weights at HBM speed when experts have a handful of rows.
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

#include "core/env_int.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16_common.cuh"
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
  const int warp = tid >> 5, lane = tid & 31, gq = lane >> 2, tig = lane & 3;
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

  // Per-thread shared offsets inside a stage (constant over the loop): the two weight rows'
  // fragment bytes, the two rows' scale codes, and the ldmatrix row of the activation B
  // fragments: lane l gives row l % 8 of matrix l / 8, i.e. token row l % 8 of an n8 tile and
  // chunk 4 h + l / 8 of the swizzled row (k16 blocks 2 h and 2 h + 1: b0, b1, b0, b1).
  const uint32_t wa_off = uint32_t(C::kWOff + (wr + gq) * kPackedRowBytes + tig * 8), wb_off = wa_off + 8 * kPackedRowBytes;
  const uint32_t sa_off = uint32_t(C::kSOff + (wr + gq) * kPerRow), sb_off = sa_off + 8 * kPerRow;
  const int lrow = lane & 7, lmat = lane >> 3;
  uint32_t xl_off[2];
#pragma unroll
  for (int h = 0; h < 2; ++h) xl_off[h] = uint32_t(C::kXOff + lrow * kSmemRowBytes + (((4 * h + lmat) ^ lrow) * kChunkBytes));
#pragma unroll
  for (int h = 0; h < 2; ++h) asm volatile("mov.b32 %0, %0;" : "+r"(xl_off[h]));  // kept, not recomputed per use

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
#pragma unroll
        for (int u = 0; u < kSub; ++u) {
          const uint8_t* su = st + u * kWBytes;  // weights of sub-step u
          const uint2 wa = *reinterpret_cast<const uint2*>(su + wa_off);
          const uint2 wb = *reinterpret_cast<const uint2*>(su + wb_off);
          const uint8_t* ss = st + u * C::kSBytes;
          uint32_t ca, cb;
          if constexpr (kPerRow == 2) {
            ca = *reinterpret_cast<const uint16_t*>(ss + sa_off);
            cb = *reinterpret_cast<const uint16_t*>(ss + sb_off);
          } else {
            ca = *reinterpret_cast<const uint32_t*>(ss + sa_off);
            cb = *reinterpret_cast<const uint32_t*>(ss + sb_off);
          }
          uint32_t af[4][4];
          decode_step<F>(wa, wb, ca, cb, af);
          const uint32_t xu = sbase + uint32_t((ks % kStages) * C::kStage + u * kXBytes);
#pragma unroll
          for (int h = 0; h < 2; ++h) {
            uint32_t b[NTA][4];  // per tile: b0, b1 of k16 block 2 h, then of block 2 h + 1
#pragma unroll
            for (int j = 0; j < NTA; ++j)
              ptx::ldmatrix_x4(xu + uint32_t(j * 8 * kSmemRowBytes) + xl_off[h], b[j][0], b[j][1], b[j][2], b[j][3]);
#pragma unroll
            for (int j = 0; j < NTA; ++j) ptx::mma_m16n8k16_bf16(acc[j], af[2 * h], b[j][0], b[j][1]);
            if constexpr (kSplitAcc) {
              ptx::mma_m16n8k16_bf16(acc_hi, af[2 * h + 1], b[0][2], b[0][3]);
            } else {
#pragma unroll
              for (int j = 0; j < NTA; ++j) ptx::mma_m16n8k16_bf16(acc[j], af[2 * h + 1], b[j][2], b[j][3]);
            }
          }
        }
      }
      if constexpr (kSplitAcc) {
#pragma unroll
        for (int q = 0; q < 4; ++q) acc[0][q] += acc_hi[q];
      }
    };
    const int nta = (rows_here + 7) / 8;  // 1 .. kNT
    if constexpr (kNT == 2) {
      if (nta == 1) k_loop(std::integral_constant<int, 1>{});
      else k_loop(std::integral_constant<int, 2>{});
    } else {
      static_assert(kNT == 4, "BT = 16 or 32");
      switch (nta) {
        case 1: k_loop(std::integral_constant<int, 1>{}); break;
        case 2: k_loop(std::integral_constant<int, 2>{}); break;
        case 3: k_loop(std::integral_constant<int, 3>{}); break;
        default: k_loop(std::integral_constant<int, 4>{}); break;
      }
    }
    cp_async_wait<0>();
    __syncthreads();  // every warp is done with the stages before the next pass refills them

#pragma unroll
    for (int j = 0; j < kNT; ++j) {
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int col = j * 8 + 2 * tig + (q & 1);
        const int n = n0 + wr + gq + (q >> 1) * 8;
        if (col < rows_here && n < N) {
          float* d = D + size_t(t0 + col) * size_t(N) + n;
          if (split) atomicAdd(d, al * acc[j][q]);
          else *d = al * acc[j][q];
        }
      }
    }
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

}  // namespace

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
  if (fmt == Fp4Scale::kMxfp4)
    return wide ? launch_small<Fp4Scale::kMxfp4, 32>(a, grid_y, splits, stream)
                : launch_small<Fp4Scale::kMxfp4, 16>(a, grid_y, splits, stream);
  return wide ? launch_small<Fp4Scale::kNvfp4, 32>(a, grid_y, splits, stream)
              : launch_small<Fp4Scale::kNvfp4, 16>(a, grid_y, splits, stream);
}

}  // namespace megamoe::sm90
