// Grouped W4A16 GEMM (see grouped_gemm_w4a16.h): swap-AB mma.sync kernel.
//
// Grid (ceil(N/128), G): one CTA owns 128 weight rows (the MMA's M) of one expert; blocks of
// experts without rows exit at once. 8 warps, each 16 weight rows x 32 tokens (4 n8 tiles).
// Outer loop over the expert's token rows in chunks of 32, inner K loop in steps of 64 with a
// 4-stage cp.async pipeline of {packed weight tile 128 x 32 B, activation tile 32 x 64 bf16,
// scale tile}. (For experts with more than 32 rows the weight tile is re-streamed, from L2, once
// per 32-row chunk: fine at decode-like T; a large-T tactic would keep more tokens per CTA.)
//
// Decode: each thread reads 8 packed bytes (16 consecutive K) of its rows g and g+8 and turns
// each byte into a bf16x2 through a 256-entry shared-memory table (exact e2m1 pairs), then one
// bf16x2 multiply by the block scale (exact: e2m1 has 2 significant bits, the scale 1 (e8m0) or
// 4 (e4m3), bf16 has 8). The 16 K values a thread owns are mapped onto the MMA's k slots by a
// permutation (k slot 2t+{0,1} <-> K 16t+4s+{0,1}, slot 2t+8+{0,1} <-> 16t+4s+{2,3} for the
// s-th MMA of the step); the activation fragments use the same permutation, so the product is
// the same dot product (summed in another order). Activation rows live in shared memory with
// their 16-byte chunks XOR-swizzled by (row & 7): conflict-free 16-byte loads.
// Epilogue: D = alpha[g] * acc (fp32), rows and columns bounds-checked.
#include "kernels/sm90/grouped_gemm_w4a16.h"

#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/moe_kernels.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

constexpr int kBN = 128, kBK = 64, kBT = 32, kNT = kBT / 8, kStages = 4, kThreads = 256;
constexpr int kWBytes = kBN * kBK / 2;  // 4096
constexpr int kXBytes = kBT * kBK * 2;  // 4096
constexpr int kLutBytes = 1024;

template <Fp4Scale F>
struct Cfg {
  static constexpr int kSPB = F == Fp4Scale::kMxfp4 ? 2 : 4;  // scale bytes per row per K step
  static constexpr int kSBytes = kBN * kSPB;
  static constexpr int kStage = kWBytes + kXBytes + kSBytes;
  static constexpr int kSmem = kLutBytes + kStages * kStage;
};

__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool valid) {
  const int n = valid ? 16 : 0;  // 0: zero-fill, nothing read
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(n) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

__device__ __forceinline__ void mma_bf16(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// bf16 bits of the e2m1 code c (0..15).
__device__ __forceinline__ uint32_t e2m1_bf16_bits(uint32_t c) {
  const uint32_t m = c & 7;
  const uint32_t mag = m == 0 ? 0u : (m == 1 ? 0x3F00u : (0x3F00u + (m << 6)));
  // m>=2: exponent (m>>1)-1, mantissa bit m&1: bits = ((m>>1)+126)<<7 | (m&1)<<6 = 0x3F00 + (m<<6)
  return mag | ((c & 8) << 12);
}

// The block scale as a bf16 pair (both halves equal).
template <Fp4Scale F>
__device__ __forceinline__ __nv_bfloat162 scale_bf16x2(uint32_t code) {
  uint32_t bits;
  if constexpr (F == Fp4Scale::kMxfp4) {
    // e8m0: 2^(code-127); 0 -> 2^-127 (a bf16 subnormal), 255 -> NaN.
    bits = code == 0 ? 0x0040u : (code == 255 ? 0x7FC0u : (code << 7));
  } else {
    __nv_fp8_e4m3 v;
    v.__x = static_cast<__nv_fp8_storage_t>(code);
    const __nv_bfloat16 b = __float2bfloat16_rn(static_cast<float>(v));  // exact
    bits = __bfloat16_as_ushort(b);
  }
  bits |= bits << 16;
  return *reinterpret_cast<const __nv_bfloat162*>(&bits);
}

__device__ __forceinline__ uint32_t decode_pair(const uint32_t* lut, uint32_t byte, __nv_bfloat162 s) {
  const uint32_t v = lut[byte];
  const __nv_bfloat162 r = __hmul2(*reinterpret_cast<const __nv_bfloat162*>(&v), s);
  return *reinterpret_cast<const uint32_t*>(&r);
}

template <Fp4Scale F>
__global__ void __launch_bounds__(kThreads) w4a16_grouped_kernel(const __nv_bfloat16* __restrict__ A,
                                                                 const uint8_t* __restrict__ W,
                                                                 const uint8_t* __restrict__ S,
                                                                 const float* __restrict__ alpha,
                                                                 const int32_t* __restrict__ offsets,
                                                                 float* __restrict__ D, int N, int K) {
  using C = Cfg<F>;
  pdl_wait_then_release();
  const int g = blockIdx.y;
  const int n0 = blockIdx.x * kBN;
  const int lo = __ldg(offsets + g), hi = __ldg(offsets + g + 1);
  if (lo >= hi) return;

  extern __shared__ __align__(128) uint8_t smem[];
  uint32_t* lut = reinterpret_cast<uint32_t*>(smem);
  const int tid = threadIdx.x;
  lut[tid] = e2m1_bf16_bits(uint32_t(tid) & 15) | (e2m1_bf16_bits(uint32_t(tid) >> 4) << 16);
  __syncthreads();

  const int KT = K / kBK;
  const int warp = tid >> 5, lane = tid & 31, gq = lane >> 2, tig = lane & 3;
  const int wr = warp * 16;
  const size_t wrow = size_t(K) / 2;
  const uint8_t* Wg = W + size_t(g) * size_t(N) * wrow;
  const uint8_t* Sg = S + size_t(g) * size_t(KT) * size_t(N) * C::kSPB;
  const float al = alpha ? __ldg(alpha + g) : 1.0f;

  // Load roles: weights one 16-byte chunk per thread (row tid/2, half tid%2), activations one
  // chunk per thread (row tid/8, chunk tid%8), scales the first kSBytes/16 threads.
  const int w_row = tid >> 1, w_half = tid & 1;
  const bool w_ok = n0 + w_row < N;
  const uint8_t* w_src = Wg + size_t(w_ok ? n0 + w_row : 0) * wrow + w_half * 16;
  const uint32_t w_dst = uint32_t(w_row * 32 + w_half * 16);
  constexpr int kSChunks = C::kSBytes / 16;
  const bool s_thr = tid < kSChunks;
  const bool s_ok = s_thr && (n0 + tid * (16 / C::kSPB) < N);
  const int x_row = tid >> 3, x_c = tid & 7;
  const uint32_t x_dst = uint32_t(x_row * 128 + ((x_c ^ (x_row & 7)) * 16));
  const uint32_t sbase = uint32_t(__cvta_generic_to_shared(smem + kLutBytes));
  const uint8_t* stage_base = smem + kLutBytes;

  for (int t0 = lo; t0 < hi; t0 += kBT) {
    const int rows_here = min(kBT, hi - t0);
    const bool x_ok = x_row < rows_here;
    const __nv_bfloat16* x_src = A + size_t(x_ok ? t0 + x_row : lo) * size_t(K) + x_c * 8;
    auto load_stage = [&](int kt, int slot) {
      const uint32_t st = sbase + uint32_t(slot * C::kStage);
      cp_async16(st + w_dst, w_src + size_t(kt) * 32, w_ok);
      cp_async16(st + kWBytes + x_dst, x_src + size_t(kt) * kBK, x_ok);
      if (s_thr) {
        const uint8_t* src = s_ok ? Sg + (size_t(kt) * size_t(N) + size_t(n0)) * C::kSPB + tid * 16 : Sg;
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
      uint32_t ca, cb;
      if constexpr (F == Fp4Scale::kMxfp4) {
        ca = ss[(wr + gq) * 2 + (tig >> 1)];
        cb = ss[(wr + gq + 8) * 2 + (tig >> 1)];
      } else {
        ca = ss[(wr + gq) * 4 + tig];
        cb = ss[(wr + gq + 8) * 4 + tig];
      }
      const __nv_bfloat162 sa = scale_bf16x2<F>(ca), sb = scale_bf16x2<F>(cb);
      uint32_t af[4][4];
#pragma unroll
      for (int s = 0; s < 4; ++s) {
        const uint32_t xa = s < 2 ? wa.x : wa.y, xb = s < 2 ? wb.x : wb.y;
        const int sh = (s & 1) * 16;
        af[s][0] = decode_pair(lut, (xa >> sh) & 0xFF, sa);
        af[s][1] = decode_pair(lut, (xb >> sh) & 0xFF, sb);
        af[s][2] = decode_pair(lut, (xa >> (sh + 8)) & 0xFF, sa);
        af[s][3] = decode_pair(lut, (xb >> (sh + 8)) & 0xFF, sb);
      }
      const uint8_t* xs = st + kWBytes;
#pragma unroll
      for (int j = 0; j < kNT; ++j) {
        if (j * 8 < rows_here) {  // warp-uniform
          const int r = j * 8 + gq;
          const uint4 x0 = *reinterpret_cast<const uint4*>(xs + r * 128 + (((2 * tig) ^ gq) * 16));
          const uint4 x1 = *reinterpret_cast<const uint4*>(xs + r * 128 + (((2 * tig + 1) ^ gq) * 16));
          mma_bf16(acc[j], af[0], x0.x, x0.y);
          mma_bf16(acc[j], af[1], x0.z, x0.w);
          mma_bf16(acc[j], af[2], x1.x, x1.y);
          mma_bf16(acc[j], af[3], x1.z, x1.w);
        }
      }
    }
    cp_async_wait<0>();
    __syncthreads();  // every warp is done with the stages before the next chunk refills them

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
cudaError_t launch_fmt(const W4A16GemmArgs& a, cudaStream_t stream) {
  const dim3 grid(unsigned((a.N + kBN - 1) / kBN), unsigned(a.num_groups));
  w4a16_grouped_kernel<F><<<grid, kThreads, Cfg<F>::kSmem, stream>>>(
      static_cast<const __nv_bfloat16*>(a.A), a.W, a.scales, a.alpha, a.offsets, a.D, int(a.N), int(a.K));
  return cudaGetLastError();
}

}  // namespace

void launch_grouped_gemm_w4a16(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t total_rows_upper_bound,
                               cudaStream_t stream) {
  if (total_rows_upper_bound <= 0 || a.num_groups <= 0) return;
  if (a.K % 64 != 0 || a.K <= 0) throw_invalid("K", "a positive multiple of 64 (w4a16 GEMM)", std::to_string(a.K));
  if (a.N % 64 != 0 || a.N <= 0) throw_invalid("N", "a positive multiple of 64 (w4a16 GEMM)", std::to_string(a.N));
  if (a.num_groups > 65535) throw_invalid("num_groups", "at most 65535 (w4a16 GEMM)", std::to_string(a.num_groups));
  const cudaError_t e = fmt == Fp4Scale::kMxfp4 ? launch_fmt<Fp4Scale::kMxfp4>(a, stream)
                                                : launch_fmt<Fp4Scale::kNvfp4>(a, stream);
  if (e != cudaSuccess) throw CudaError(std::string("w4a16 grouped GEMM launch: ") + cudaGetErrorString(e));
}

void w4a16_scale_tiles(const uint8_t* canonical, int64_t G, int64_t N, int64_t K, Fp4Scale fmt,
                       std::vector<uint8_t>& tiles) {
  const int64_t spb = fp4_scales_per64(fmt), per_row = K / fp4_scale_block(fmt), KT = K / 64;
  tiles.assign(size_t(G * N * per_row), 0);
  for (int64_t g = 0; g < G; ++g)
    for (int64_t n = 0; n < N; ++n) {
      const uint8_t* src = canonical + (g * N + n) * per_row;
      for (int64_t kt = 0; kt < KT; ++kt)
        for (int64_t j = 0; j < spb; ++j) tiles[size_t(((g * KT + kt) * N + n) * spb + j)] = src[kt * spb + j];
    }
}

}  // namespace megamoe::sm90
