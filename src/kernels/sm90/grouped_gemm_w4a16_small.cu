// W4A16 grouped GEMM, small tactic (grouped_gemm_w4a16.h): swap-AB mma.sync, built to stream
// packed weights at HBM speed when experts have a handful of rows.
//
// Grid (ceil(N/128), min(G, rows bound)): blockIdx.y is the rank of an expert among those with
// rows (nth_active_expert), so no CTA is launched for the ~97% of experts idle at decode sizes.
// One CTA owns 128 weight rows of one expert: 8 warps, each 16 weight rows x 16 tokens (two n8
// tiles). Outer loop over the expert's rows in passes of 16 tokens, inner K loop in steps of 64.
//
// Shared memory (per CTA): the byte -> bf16x2 table (16 KB, 16 interleaved copies: Lut) and
// kStages stages of {packed weights 128 x 32 B = 4 KB, activations 16 x 64 bf16 = 2 KB with
// 16-byte chunks XOR-swizzled by (row & 7), scale tile 256 / 512 B}. kStages = 8 keeps 7 x 4 KB
// of weights in flight per CTA (~56 KB per SM at two CTAs), what HBM latency x bandwidth needs.
//
// Per step each warp loads its two rows' 8 fragment-order bytes, decodes them (table + one
// exact bf16x2 multiply by the block scale), and runs 4 MMAs per n8 token tile whose B
// fragments are 4-byte loads from the swizzled activation rows (conflict-free).
// Epilogue: D = alpha[g] * acc (fp32), rows and columns bounds-checked.
#include <string>

#include "kernels/sm90/grouped_gemm_w4a16_common.cuh"
#include "kernels/sm90/moe_kernels.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {
namespace {

using namespace w4a16;

constexpr int kBT = 16, kNT = kBT / 8, kStages = 8;
constexpr int kWBytes = kBN * kBK / 2;  // 4096
constexpr int kXBytes = kBT * kBK * 2;  // 2048

template <Fp4Scale F>
struct SmallCfg {
  static constexpr int kSBytes = ScaleCfg<F>::kTileBytes;
  static constexpr int kStage = kWBytes + kXBytes + kSBytes;
  static constexpr int kSmem = kLutBytes + kStages * kStage;
};

__device__ __forceinline__ void mma_bf16(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

template <Fp4Scale F>
__global__ void __launch_bounds__(kThreads) w4a16_small_kernel(const __nv_bfloat16* __restrict__ A,
                                                               const uint8_t* __restrict__ W,
                                                               const uint8_t* __restrict__ S,
                                                               const float* __restrict__ alpha,
                                                               const int32_t* __restrict__ offsets,
                                                               float* __restrict__ D, int N, int K, int G) {
  using C = SmallCfg<F>;
  extern __shared__ __align__(128) uint8_t smem[];
  __shared__ int scratch[9];
  uint32_t* lut_words = reinterpret_cast<uint32_t*>(smem);
  const int tid = threadIdx.x;
  Lut::fill(lut_words, tid, kThreads);  // before the PDL wait (a no-op unless launched with PDL)
  pdl_wait_then_release();
  const int g = nth_active_expert(offsets, G, blockIdx.y, scratch);  // its __syncthreads cover the table
  if (g < 0) return;
  const int n0 = blockIdx.x * kBN;
  const int lo = __ldg(offsets + g), hi = __ldg(offsets + g + 1);

  const int KT = K / kBK;
  const int warp = tid >> 5, lane = tid & 31, gq = lane >> 2, tig = lane & 3;
  const int wr = warp * 16;
  const Lut lut{lut_words + (lane % kLutCopies)};
  const size_t wrow = size_t(K) / 2;
  const uint8_t* Wg = W + size_t(g) * size_t(N) * wrow;
  const uint8_t* Sg = S + size_t(g) * size_t(KT) * size_t(N) * ScaleCfg<F>::kPerRow;
  const float al = alpha ? __ldg(alpha + g) : 1.0f;

  // Load roles: weights one 16-byte chunk per thread (row tid/2, half tid%2); activations one
  // chunk for the first 128 threads (row tid/8, chunk tid%8); scales the first kSBytes/16.
  const int w_row = tid >> 1, w_half = tid & 1;
  const bool w_ok = n0 + w_row < N;
  const uint8_t* w_src = Wg + size_t(w_ok ? n0 + w_row : 0) * wrow + w_half * 16;
  const uint32_t w_dst = uint32_t(w_row * 32 + w_half * 16);
  constexpr int kSChunks = C::kSBytes / 16;
  const bool s_thr = tid < kSChunks;
  const bool s_ok = s_thr && (n0 + tid * (16 / ScaleCfg<F>::kPerRow) < N);
  const bool x_thr = tid < kBT * 8;
  const int x_row = (tid >> 3) % kBT, x_c = tid & 7;
  const uint32_t x_dst = uint32_t(x_row * 128 + ((x_c ^ (x_row & 7)) * 16));
  const uint32_t sbase = uint32_t(__cvta_generic_to_shared(smem + kLutBytes));
  const uint8_t* stage_base = smem + kLutBytes;

  for (int t0 = lo; t0 < hi; t0 += kBT) {
    const int rows_here = min(kBT, hi - t0);
    const bool x_ok = x_thr && x_row < rows_here;
    const __nv_bfloat16* x_src = A + size_t(x_ok ? t0 + x_row : lo) * size_t(K) + x_c * 8;
    auto load_stage = [&](int kt, int slot) {
      const uint32_t st = sbase + uint32_t(slot * C::kStage);
      cp_async16(st + w_dst, w_src + size_t(kt) * 32, w_ok);
      if (x_thr) cp_async16(st + kWBytes + x_dst, x_src + size_t(kt) * kBK, x_ok);
      if (s_thr) {
        const uint8_t* src =
            s_ok ? Sg + (size_t(kt) * size_t(N) + size_t(n0)) * ScaleCfg<F>::kPerRow + tid * 16 : Sg;
        cp_async16(st + kWBytes + kXBytes + tid * 16, src, s_ok);
      }
    };

    float acc[kNT][4];
#pragma unroll
    for (int j = 0; j < kNT; ++j)
#pragma unroll
      for (int q = 0; q < 4; ++q) acc[j][q] = 0.0f;

#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < KT) load_stage(s, s);
      cp_async_commit();
    }
    for (int kt = 0; kt < KT; ++kt) {
      cp_async_wait<kStages - 2>();
      __syncthreads();
      {
        const int nk = kt + kStages - 1;
        if (nk < KT) load_stage(nk, nk % kStages);
        cp_async_commit();
      }
      const uint8_t* st = stage_base + (kt % kStages) * C::kStage;
      const uint2 wa = *reinterpret_cast<const uint2*>(st + (wr + gq) * 32 + tig * 8);
      const uint2 wb = *reinterpret_cast<const uint2*>(st + (wr + gq + 8) * 32 + tig * 8);
      const uint8_t* ss = st + kWBytes + kXBytes;
      uint32_t af[4][4];
      decode_step<F>(lut, wa, wb, row_scale_codes<F>(ss, wr + gq), row_scale_codes<F>(ss, wr + gq + 8), af);
      const uint8_t* xs = st + kWBytes;
#pragma unroll
      for (int j = 0; j < kNT; ++j) {
        if (j * 8 < rows_here) {  // warp-uniform
          const uint8_t* xr = xs + (j * 8 + gq) * 128 + tig * 4;  // (row & 7) == gq
#pragma unroll
          for (int s = 0; s < 4; ++s) {
            const uint32_t b0 = *reinterpret_cast<const uint32_t*>(xr + (((2 * s) ^ gq) * 16));
            const uint32_t b1 = *reinterpret_cast<const uint32_t*>(xr + (((2 * s + 1) ^ gq) * 16));
            mma_bf16(acc[j], af[s], b0, b1);
          }
        }
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
        if (col < rows_here && n < N) D[size_t(t0 + col) * size_t(N) + n] = al * acc[j][q];
      }
    }
  }
}

template <Fp4Scale F>
cudaError_t launch_small(const W4A16GemmArgs& a, int grid_y, cudaStream_t stream) {
  auto kernel = w4a16_small_kernel<F>;
  // Per launch: the attribute belongs to the current device's context (cheap host call).
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SmallCfg<F>::kSmem);
  if (attr != cudaSuccess) return attr;
  const dim3 grid(unsigned((a.N + kBN - 1) / kBN), unsigned(grid_y));
  kernel<<<grid, kThreads, SmallCfg<F>::kSmem, stream>>>(static_cast<const __nv_bfloat16*>(a.A), a.W, a.scales,
                                                         a.alpha, a.offsets, a.D, int(a.N), int(a.K), a.num_groups);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_w4a16_small(const W4A16GemmArgs& a, Fp4Scale fmt, int grid_y, cudaStream_t stream) {
  return fmt == Fp4Scale::kMxfp4 ? launch_small<Fp4Scale::kMxfp4>(a, grid_y, stream)
                                 : launch_small<Fp4Scale::kNvfp4>(a, grid_y, stream);
}

}  // namespace megamoe::sm90
