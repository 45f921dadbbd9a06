// W4A16 grouped GEMM, large tactic (grouped_gemm_w4a16.h): wgmma with the decoded weights as
// the register A operand (swap-AB: weight rows are M, tokens are N), for experts with many rows.
//
// Grid (ceil(N/128), min(G, rows bound)) as the small tactic (blockIdx.y = rank of an expert
// with rows). CTA = 2 warpgroups = 8 warps; warpgroup w owns weight rows 64w..64w+63 of the CTA's
// 128, each warp 16 of them (the A fragment rows of wgmma m64nNk16). Tokens go in passes of up to
// BT = 64 or 128 (launch_w4a16_large picks BT by the mean rows per expert); the weight tile is
// re-streamed (from L2) and re-decoded per pass, which costs one decode per pass. Each pass runs
// wgmma with the narrowest N of 16, 32, 64 (, 128) that holds its rows (N / 2 fp32 accumulators
// per thread), so the few rows of a decode-sized expert or of an expert's last pass cost no MMAs
// on padding.
//
// Shared memory, per stage (kStages = 5, each 1024-byte aligned; 13 KB at BT = 64, 21 KB at 128):
//   [0, BT * 128)   activations BT tokens x 64 bf16, K-major, 128-byte swizzle (16-byte chunk
//                   c of row r at r*128 + (c ^ (r & 7))*16): the canonical SW128 K-major layout
//                   a wgmma descriptor reads (8-row groups 1024 bytes apart = SBO)
//   [+0, +4096)     packed weights 128 rows x 32 bytes (fragment order)
//   [+4096, ...)    scale tile of the step (256 / 512 bytes)
// BT = 128: 5 stages = 106 KB with the alignment slack, two CTAs per SM (128 registers per thread
// at most); BT = 64: 66 KB, three CTAs per SM (85 registers at most): one CTA's decode overlaps the
// others' MMAs. Four stages of weights in flight per CTA: at a few rows per expert a step is
// 4 KB of weights, and 3 CTAs x 4 x 4 KB = 48 KB per SM is about what the HBM latency x the SM's
// share of the bandwidth needs (~36 GB/s x ~1.3 us).
// Step: wait for the stage (cp.async groups + __syncthreads), refill the slot the previous step
// used, decode the warp's A fragments for the 4 k16 blocks, 4 wgmma (one per k16 block, the B
// descriptor advanced 32 bytes along K), commit, wait: the next decode overwrites A. The copy
// addresses of a pass are computed once and kept in registers (opaque()), so a step only adds its
// K offset: ~120-130 SASS instructions per step instead of 150-237. Measured (H200, forced
// split_large, four presets, T = 16..4096, docs/BENCHMARKS.md 2026-12-02): this loop with 5 stages
// 1.01-1.17x faster than the 4-stage loop that recomputed them (geomean 1.055x); 5 stages alone 0.99x.
// Epilogue: D = alpha[g] * acc (fp32, or rounded to bf16 for FC2's y), rows and columns
// bounds-checked; or FC1's activation (LargeOut::kAct, act_out): the CTA's 128 weight rows are two
// halves of 64 (gated: gate rows j0.. of canonical W13 and the matching up rows I + j0..; relu2:
// rows n0.. and n0 + 64..), loaded so that warp w's A rows 16w + gq and 16w + gq + 8 are row 8w + gq
// of half 0 and of half 1: a thread's accumulators q < 2 and q >= 2 are h[gate j] and h[up j] of the
// same tokens, and a = bf16(act(alpha * acc + b13)) is written from registers -- the float operations
// of fp32 D followed by launch_activation, bit for bit, without h's fp32 round trip through HBM.
#include <algorithm>
#include <string>
#include <type_traits>

#include "core/env_int.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16_common.cuh"
#include "kernels/sm90/gemm/wgmma.cuh"
#include "kernels/sm90/moe/activation_math.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {
namespace {

using namespace w4a16;

// The 64-token pass up to this mean of rows per expert, the 128-token pass above. Measured on the
// H200 (mxfp4, forced large tactic, every preset, one job, 2026-12-02, docs/BENCHMARKS.md): at a
// mean of 4 to 32 rows the 64-token pass takes 0.71-0.76x the 128-token pass's time (three CTAs
// per SM instead of two, and no MMAs on the padding of a mostly empty 128-token tile;
// deepseek-v3 T = 1024: 3.78 against 4.99 ms), at 64 rows 1.08-1.29x (an expert's Poisson(64)
// rows overflow one 64-token pass about half the time), at 128 and more 1.15-1.41x. Up to a
// mean of 48 an expert's rows rarely exceed one 64-token pass. (Measured before each pass ran
// its own MMA width; the switch was not re-measured after.)
constexpr int64_t kLargeNarrowMaxMeanRows = 48;

constexpr int kStages = 5;
constexpr int kWBytes = kBN * kBK / 2;   // 4096
constexpr int kSwizzleAtomBytes = 1024;  // SW128: 8 rows x 128 B; each stage starts on this boundary

template <int BT>
struct LargeCfg {
  static constexpr int kBT = BT;
  static constexpr int kXBytes = BT * kBK * 2;  // 8192 / 16384
  // X + W + the larger (nvfp4) scale tile, rounded up to 1024: 13 / 21 KB.
  static constexpr int kStageBytes =
      (kXBytes + kWBytes + ScaleCfg<Fp4Scale::kNvfp4>::kTileBytes + kSwizzleAtomBytes - 1) / kSwizzleAtomBytes *
      kSwizzleAtomBytes;
  static constexpr int kSmem = kSwizzleAtomBytes /* alignment slack */ + kStages * kStageBytes;
  // CTAs per SM (the __launch_bounds__ minimum): 2 at BT = 128 (2 x 106 KB), 3 at BT = 64 (3 x 66 KB).
  static constexpr int kMinBlocks = BT == 64 ? 3 : 2;
  static constexpr int kXChunksPerThread = BT * (kSmemRowBytes / kChunkBytes) / kThreads;  // 2 / 4
  static_assert(BT == 64 || BT == 128, "wgmma N = 64 or 128 (wgmma::mma_rs)");
  static_assert(ScaleCfg<Fp4Scale::kMxfp4>::kTileBytes <= ScaleCfg<Fp4Scale::kNvfp4>::kTileBytes, "stage sizes");
  // Each CTA also reserves 1 KB of the SM's 228 KB.
  static_assert(kMinBlocks * (kSmem + 1024) <= 228 * 1024 && kSmem <= kMaxDynamicSmem, "CTAs per SM");
  static_assert(kXChunksPerThread * kThreads == BT * (kSmemRowBytes / kChunkBytes),
                "activation tile: whole chunks per thread");
};
static_assert(kStages >= 2, "the cp.async ring needs a stage in flight while one is read");

// What the epilogue writes: fp32 D, bf16 D (the fp32 value alpha * acc rounded to nearest), or
// FC1's activation a (bf16 [rows, I]; the CTA's rows as two halves, see the top of the file).
enum class LargeOut : uint8_t { kF32, kBf16, kAct };

template <Fp4Scale F, LargeOut O, int BT>
__global__ void __launch_bounds__(kThreads, LargeCfg<BT>::kMinBlocks) w4a16_large_kernel(const __nv_bfloat16* __restrict__ A,
                                                                  const uint8_t* __restrict__ W,
                                                                  const uint8_t* __restrict__ S,
                                                                  const float* __restrict__ alpha,
                                                                  const int32_t* __restrict__ offsets,
                                                                  void* __restrict__ D, int N, int K, int G,
                                                                  const ActEpilogueArgs act) {
  using C = LargeCfg<BT>;
  constexpr int kBT = C::kBT, kXBytes = C::kXBytes, kStageBytes = C::kStageBytes;
  constexpr int kSBytes = ScaleCfg<F>::kTileBytes;
  extern __shared__ uint8_t smem_raw[];
  __shared__ int scratch[9];
  const uint32_t raw_addr = uint32_t(__cvta_generic_to_shared(smem_raw));
  uint8_t* smem = smem_raw + ((1024 - (raw_addr & 1023)) & 1023);  // stages 1024-byte aligned (swizzle atom)
  uint32_t sbase = uint32_t(__cvta_generic_to_shared(smem));
  // Without this the compiler recomputes the aligned base from the CTA's shared window (S2UR + 6
  // uniform instructions) at every use inside the K loop.
  opaque(sbase);
  const int tid = threadIdx.x;
  pdl_wait_then_release();
  const int g = nth_active_expert(offsets, G, blockIdx.y, scratch);
  if (g < 0) return;
  const int n0 = blockIdx.x * kBN;
  const int lo = __ldg(offsets + g), hi = __ldg(offsets + g + 1);
  // The weight rows of the CTA's two 64-row halves: rows n0.., n0 + 64.. (outputs D, and relu2's
  // a), or gate rows j0.. and up rows I + j0.. of canonical W13 (gated a, j0 = 64 blockIdx.x).
  constexpr bool kAct = O == LargeOut::kAct;
  const bool gated = kAct && act.activation != Activation::kReLU2;
  const int half0 = gated ? blockIdx.x * (kBN / 2) : n0;
  const int half1 = gated ? N / 2 + half0 : n0 + kBN / 2;
  auto weight_row = [&](int r) { return (r < kBN / 2 ? half0 : half1) + (r & (kBN / 2 - 1)); };

  const int KT = K / kBK;
  const int warp = tid >> 5, lane = tid & 31, gq = lane >> 2, tig = lane & 3;
  const int wr = warp * 16;
  const size_t wrow = size_t(K) / 2;
  const uint8_t* Wg = W + size_t(g) * size_t(N) * wrow;
  const uint8_t* Sg = S + size_t(g) * size_t(KT) * size_t(N) * ScaleCfg<F>::kPerRow;
  const float al = alpha ? __ldg(alpha + g) : 1.0f;

  // Load roles: activations kXChunksPerThread chunks per thread (chunk c = tid + 256 i: row c/8,
  // column chunk c%8), weights one chunk (row tid/2, half tid%2), scales the first kSBytes/16 threads.
  const int w_row = tid >> 1, w_half = tid & 1;
  const bool w_ok = weight_row(w_row) < N;
  const uint8_t* w_src = Wg + size_t(w_ok ? weight_row(w_row) : 0) * wrow + w_half * kChunkBytes;
  const uint32_t w_dst = uint32_t(kXBytes + w_row * kPackedRowBytes + w_half * kChunkBytes);
  constexpr int kSChunks = kSBytes / kChunkBytes;
  const bool s_thr = tid < kSChunks;
  // A chunk holds the codes of 8 (mxfp4) or 4 (nvfp4) consecutive rows of one half.
  const int s_row = weight_row(tid * (kChunkBytes / ScaleCfg<F>::kPerRow));
  static_assert((kBN / 2) % (kChunkBytes / ScaleCfg<F>::kPerRow) == 0, "a scale chunk stays inside a half");
  const bool s_ok = s_thr && s_row < N;
  const uint8_t* s_src = s_ok ? Sg + size_t(s_row) * ScaleCfg<F>::kPerRow : Sg;
  size_t s_step = s_ok ? size_t(N) * ScaleCfg<F>::kPerRow : 0;  // bytes per K step
  const uint32_t s_dst = uint32_t(kXBytes + kWBytes + tid * kChunkBytes);
  opaque(s_src);
  opaque(s_step);
  opaque(w_src);
  const int x_c = tid & 7, x_row0 = tid >> 3;  // rows x_row0 + 32 i
  // The shared-memory weight rows of the warp's A fragment rows wr + gq and wr + gq + 8.
  const int ra = kAct ? warp * 8 + gq : wr + gq, rb = kAct ? kBN / 2 + warp * 8 + gq : wr + gq + 8;

  for (int t0 = lo; t0 < hi; t0 += kBT) {
    const int rows_here = min(kBT, hi - t0);
    // One pass with wgmma N = NP (a compile-time constant): the narrowest of 16, 32, ..., BT that
    // holds the pass's rows, so a pass of a few rows runs no MMAs on a mostly empty token tile.
    auto pass = [&](auto np_const) {
      constexpr int NP = decltype(np_const)::value, kNTp = NP / 8;
      // Activation chunks this thread copies in this pass: rows x_row0 + 32 i, i < kXc, cover the
      // NP rows the pass's MMAs read (rows past the pass's rows are zero-filled; at NP = 16 so are
      // rows 16..31, which no MMA reads). Source at step 0 and destination inside a stage are kept,
      // so a step's copies only add the step's offset.
      constexpr int kXc = (NP + 31) / 32 < C::kXChunksPerThread ? (NP + 31) / 32 : C::kXChunksPerThread;
      const __nv_bfloat16* x_src[kXc];
      uint32_t x_dst[kXc];
      bool x_ok[kXc];
#pragma unroll
      for (int i = 0; i < kXc; ++i) {
        const int r = x_row0 + 32 * i;
        x_ok[i] = r < rows_here;
        x_src[i] = A + size_t(x_ok[i] ? t0 + r : lo) * size_t(K) + x_c * 8;
        x_dst[i] = uint32_t(r * kSmemRowBytes + ((x_c ^ (r & 7)) * kChunkBytes));
        opaque(x_src[i]);  // kept in registers: recomputing them cost ~10 instructions per step
        opaque(x_dst[i]);
      }
      auto load_stage = [&](int kt, int slot) {
        const uint32_t st = sbase + uint32_t(slot * kStageBytes);
#pragma unroll
        for (int i = 0; i < kXc; ++i) cp_async16(st + x_dst[i], x_src[i] + size_t(kt) * kBK, x_ok[i]);
        cp_async_weights16(st + w_dst, w_src + size_t(kt) * kPackedRowBytes, w_ok);
        if (s_thr) cp_async16(st + s_dst, s_src + size_t(kt) * s_step, s_ok);
      };

      float acc[NP / 2];
#pragma unroll
      for (int i = 0; i < NP / 2; ++i) acc[i] = 0.0f;

#pragma unroll
      for (int s = 0; s < kStages - 1; ++s) {
        if (s < KT) load_stage(s, s);
        cp_async_commit();
      }
      // Ring slots of step kt and of the step loaded now (kt + kStages - 1), counted mod kStages.
      int slot = 0, load_slot = kStages - 1;
      for (int kt = 0; kt < KT; ++kt) {
        cp_async_wait<kStages - 2>();
        __syncthreads();  // the stage is visible to all; every warp finished step kt-1 (wgmma waited)
        if (kt + kStages - 1 < KT) load_stage(kt + kStages - 1, load_slot);
        cp_async_commit();
        load_slot = load_slot == kStages - 1 ? 0 : load_slot + 1;
        const uint8_t* st = smem + slot * kStageBytes;
        const uint2 wa = *reinterpret_cast<const uint2*>(st + kXBytes + ra * kPackedRowBytes + tig * 8);
        const uint2 wb = *reinterpret_cast<const uint2*>(st + kXBytes + rb * kPackedRowBytes + tig * 8);
        const uint8_t* ss = st + kXBytes + kWBytes;
        uint32_t af[4][4];
        decode_step<F>(wa, wb, row_scale_codes<F>(ss, ra), row_scale_codes<F>(ss, rb), af);
        const uint64_t desc = wgmma::sw128_desc(sbase + uint32_t(slot * kStageBytes));
        wgmma::fence();
        wgmma::fence_acc(acc);
#pragma unroll
        for (int s = 0; s < 4; ++s) wgmma::mma_rs<NP>(acc, af[s], desc + uint64_t(2 * s));  // +32 bytes of K
        wgmma::commit();
        wgmma::wait<0>();
        wgmma::fence_acc(acc);
        slot = slot == kStages - 1 ? 0 : slot + 1;
      }
      cp_async_wait<0>();
      __syncthreads();  // every warp is done with the stages before the next pass refills them

      if constexpr (kAct) {
        // Accumulators q < 2: weight row na, q >= 2: nb (gated: h[gate j], h[up j]); tokens
        // 8 j + 2 tig + q % 2. h = alpha * acc rounded once (__fmul_rn: never an FMA with the
        // bias), + b13, the activation, one rounding to bf16.
        const int na = half0 + warp * 8 + gq, nb = half1 + warp * 8 + gq;
        const float ba = act.b13 && na < N ? __ldg(act.b13 + size_t(g) * N + na) : 0.0f;
        const float bb = act.b13 && nb < N ? __ldg(act.b13 + size_t(g) * N + nb) : 0.0f;
        const int I = gated ? N / 2 : N;  // a's columns
        __nv_bfloat16* out = static_cast<__nv_bfloat16*>(D);
#pragma unroll
        for (int j = 0; j < kNTp; ++j) {
#pragma unroll
          for (int q = 0; q < 2; ++q) {
            const int col = j * 8 + 2 * tig + q;
            if (col >= rows_here) continue;
            const size_t t = size_t(t0 + col);
            float ha = __fmul_rn(al, acc[4 * j + q]), hb = __fmul_rn(al, acc[4 * j + q + 2]);
            if (act.b13) {
              ha = __fadd_rn(ha, ba);
              hb = __fadd_rn(hb, bb);
            }
            // Gated: act::act_apply switches on the activation at run time (one instantiation serves
            // them all); relu2: both halves are outputs of their own.
            if (gated) {
              out[t * size_t(I) + size_t(na)] = __float2bfloat16_rn(act::act_apply(act.activation, ha, hb, act.limit, act.alpha));
            } else {
              if (na < N)
                out[t * size_t(I) + size_t(na)] =
                    __float2bfloat16_rn(act::act_fn<Activation::kReLU2>(ha, 0.0f, act.limit, act.alpha));
              if (nb < N)
                out[t * size_t(I) + size_t(nb)] =
                    __float2bfloat16_rn(act::act_fn<Activation::kReLU2>(hb, 0.0f, act.limit, act.alpha));
            }
          }
        }
      } else {
#pragma unroll
        for (int j = 0; j < kNTp; ++j) {
#pragma unroll
          for (int q = 0; q < 4; ++q) {
            const int col = j * 8 + 2 * tig + (q & 1);
            const int n = n0 + wr + gq + (q >> 1) * 8;
            if (col >= rows_here || n >= N) continue;
            const size_t i = size_t(t0 + col) * size_t(N) + n;
            if constexpr (O == LargeOut::kBf16)
              static_cast<__nv_bfloat16*>(D)[i] = __float2bfloat16_rn(al * acc[4 * j + q]);
            else
              static_cast<float*>(D)[i] = al * acc[4 * j + q];
          }
        }
      }
    };
    if (rows_here <= 16) {
      pass(std::integral_constant<int, 16>());
    } else if (rows_here <= 32) {
      pass(std::integral_constant<int, 32>());
    } else if constexpr (kBT == 64) {
      pass(std::integral_constant<int, 64>());
    } else if (rows_here <= 64) {
      pass(std::integral_constant<int, 64>());
    } else {
      pass(std::integral_constant<int, 128>());
    }
  }
}

template <Fp4Scale F, LargeOut O, int BT>
cudaError_t launch_large(const W4A16GemmArgs& a, int grid_y, cudaStream_t stream) {
  auto kernel = w4a16_large_kernel<F, O, BT>;
  constexpr int kSmem = LargeCfg<BT>::kSmem;
  // Per launch: the attribute belongs to the current device's context (cheap host call).
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem);
  if (attr != cudaSuccess) return attr;
  const dim3 grid(unsigned((a.N + kBN - 1) / kBN), unsigned(grid_y));
  kernel<<<grid, kThreads, kSmem, stream>>>(static_cast<const __nv_bfloat16*>(a.A), a.W, a.scales, a.alpha,
                                            a.offsets,
                                            O == LargeOut::kAct    ? a.act_out
                                            : O == LargeOut::kBf16 ? a.D16
                                                                   : static_cast<void*>(a.D),
                                            int(a.N), int(a.K), a.num_groups, a.act);
  return cudaGetLastError();
}

template <LargeOut O, int BT>
cudaError_t launch_large_fmt(const W4A16GemmArgs& a, Fp4Scale fmt, int grid_y, cudaStream_t stream) {
  return fmt == Fp4Scale::kMxfp4 ? launch_large<Fp4Scale::kMxfp4, O, BT>(a, grid_y, stream)
                                 : launch_large<Fp4Scale::kNvfp4, O, BT>(a, grid_y, stream);
}

template <int BT>
cudaError_t launch_large_bt(const W4A16GemmArgs& a, Fp4Scale fmt, int grid_y, cudaStream_t stream) {
  if (a.act_out) return launch_large_fmt<LargeOut::kAct, BT>(a, fmt, grid_y, stream);
  if (a.D16) return launch_large_fmt<LargeOut::kBf16, BT>(a, fmt, grid_y, stream);
  return launch_large_fmt<LargeOut::kF32, BT>(a, fmt, grid_y, stream);
}

}  // namespace

cudaError_t launch_w4a16_large(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y,
                               cudaStream_t stream) {
  // Tokens per pass: 64 up to a mean of kLargeNarrowMaxMeanRows rows per expert, 128 above.
  // MEGAMOE_W4A16_LARGE_TOKENS=64 or 128 forces one (an A/B knob, read once).
  static const int forced = int(env_int("MEGAMOE_W4A16_LARGE_TOKENS", 0));
  const int64_t mean = rows_bound / std::max<int64_t>(1, a.num_groups);
  const bool narrow = forced == 64 || (forced != 128 && mean <= kLargeNarrowMaxMeanRows);
  return narrow ? launch_large_bt<64>(a, fmt, grid_y, stream) : launch_large_bt<128>(a, fmt, grid_y, stream);
}

}  // namespace megamoe::sm90
