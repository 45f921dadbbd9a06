// The MX / NVFP4 quantizers' kernels and launchers, generic over the source of the values:
// quantize_fp4.cu instantiates them for tensors in memory (PtrSource), synthetic/synthetic_fill.cu
// for the synthetic layer's weights generated on the fly. Rules: see quantize_fp4.cu.
//
// quant_kernel: kThreads = 256 threads a CTA, one role (load, reduce, encode, store), no shared
//   memory, no pipeline: thread g takes kGroup = 8 consecutive elements (a 16-byte bf16 load, a
//   32-bit packed-e2m1 or 64-bit e4m3 store); the kLanes = block / 8 neighbouring lanes of one scale
//   block share its amax by warp shuffles.
// finite_amax_kernel: 256 threads a CTA, grid-stride over one batch entry, one amax word per warp
//   in static shared memory, one atomicMax per CTA.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"
#include "megamoe/tensor.h"

namespace megamoe::sm90::fp4 {

using fp8::abs_bits;
using fp8::e4m3_encode_sat;
using fp8::kInfBits;

constexpr int kGroup = 8;       // elements per thread (a 16-byte bf16 load, a 32-bit packed-e2m1 store)
constexpr int kThreads = 256;
constexpr int kMxBlock = 32;    // OCP MX: one e8m0 scale per 32 elements along K
constexpr int kNvBlock = 16;    // NVFP4: one e4m3 scale per 16 elements along K
constexpr uint8_t kE4M3NaN = 0x7F;
constexpr uint8_t kE8M0NaN = 0xFF;
constexpr uint32_t kE2M1NaNWord = 0x77777777u;  // 8 e2m1 codes 0x7 (e2m1's encoding of NaN)
constexpr float kE2M1Max = 6.0f;
constexpr float kNvfp4GlobalDivisor = 448.0f * 6.0f;  // e4m3 max * e2m1 max = 2688, exact in fp32
static_assert(kThreads % 32 == 0 && 32 % (kMxBlock / kGroup) == 0 && 32 % (kNvBlock / kGroup) == 0,
              "a scale block's lanes sit inside one warp");
static_assert(kGroup * 2 == 16, "one thread's bf16 group is one 16-byte vector load");
// Static shared memory of finite_amax_kernel: one word per warp.
static_assert((kThreads / 32) * sizeof(uint32_t) <= 1024, "finite_amax_kernel's shared-memory budget");

// The global-amax reduction's target grid: enough CTAs to fill the device (8 resident 256-thread
// CTAs per SM) twice over; it grid-strides beyond.
constexpr int kAmaxCtasPerSm = 16;
inline int64_t amax_target_ctas() { return int64_t(cu::current_sm_count()) * kAmaxCtasPerSm; }

enum class Fmt { kMxE2M1, kMxE4M3, kNvfp4 };

// ---- device twins of the codecs --------------------------------------------------------------

// formats::detail::e2m1_encode: small_float_magnitude<1, 1> (1 mantissa bit, bias 1), saturating to
// 6, NaN -> 0x7, sign in bit 3.
__device__ __forceinline__ uint32_t e2m1_encode(float x) {
  constexpr uint32_t kMinNormalBits = 127u << 23;  // 1.0, e2m1's smallest normal
  constexpr uint32_t kMagicBits = 149u << 23;      // 2^22, whose ulp 0.5 is e2m1's subnormal step
  constexpr uint32_t kDrop = 22;                   // float32 mantissa bits beyond e2m1's one
  const uint32_t u = __float_as_uint(x);
  const uint32_t a = u & fp8::kAbsMask;
  const uint32_t sign = (u >> 28) & 0x8u;
  const uint32_t aa = a < kInfBits ? a : kInfBits;
  const uint32_t normal = (aa - (126u << 23) + ((1u << (kDrop - 1)) - 1u) + ((aa >> kDrop) & 1u)) >> kDrop;
  const bool small = aa < kMinNormalBits;
  const uint32_t sub = __float_as_uint(__fadd_rn(__uint_as_float(small ? aa : 0u), __uint_as_float(kMagicBits))) - kMagicBits;
  uint32_t m = small ? sub : normal;
  m = m > 7u ? 7u : m;
  return a > kInfBits ? 0x7u : (sign | m);
}

// formats::e4m3_to_float for a non-negative finite code (0x00..0x7E), exactly.
__device__ __forceinline__ float e4m3_decode_pos(uint32_t c) {
  const uint32_t e = c >> 3, m = c & 7u;
  // Subnormals are m * 2^-9 (exact); normals (1 + m/8) * 2^(e-7): rebias 7 -> 127.
  return e == 0 ? __fmul_rn(float(m), 0.001953125f) : __uint_as_float(((e + 120u) << 23) | (m << 20));
}

// formats::mx_scale_code from the block's amax bits: 255 for a poisoned block, 0 for an all-zero
// block, else max(clamp(floor(log2 amax), -127) + 127 - emax, 0).
__device__ __forceinline__ uint32_t mx_scale_code(uint32_t am, int emax) {
  if (am >= kInfBits) return kE8M0NaN;
  if (am == 0) return 0;
  const int fl = (am >> 23) != 0 ? int(am >> 23) - 127 : (31 - __clz(int(am))) - 149;  // subnormal: m * 2^-149
  const int f = max(fl, -127) + 127;
  return uint32_t(max(f - emax, 0));
}

// ---- sources: load8 fills v with the 8 elements of group g (flat elements 8g .. 8g+7) ---------

template <class T>
struct PtrSource {
  const T* p;
  bool vec;  // 16-byte aligned base: group g's elements may be loaded at once
  __device__ __forceinline__ void load8(int64_t g, float (&v)[kGroup]) const {
    const T* q = p + g * kGroup;
    if constexpr (sizeof(T) == 2) {
      if (vec) {
        const uint4 w = *reinterpret_cast<const uint4*>(q);
        const uint32_t ws[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          v[2 * j] = __uint_as_float(ws[j] << 16);
          v[2 * j + 1] = __uint_as_float(ws[j] & 0xFFFF0000u);
        }
      } else {
#pragma unroll
        for (int j = 0; j < kGroup; ++j) v[j] = __uint_as_float(uint32_t(q[j]) << 16);
      }
    } else {
      if (vec) {
        const float4 a = *reinterpret_cast<const float4*>(q), b = *reinterpret_cast<const float4*>(q + 4);
        v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
        v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
      } else {
#pragma unroll
        for (int j = 0; j < kGroup; ++j) v[j] = q[j];
      }
    }
  }
};

// ---- kernels ---------------------------------------------------------------------------------

template <Fmt F>
constexpr int block_of() { return F == Fmt::kNvfp4 ? kNvBlock : kMxBlock; }

// One thread per group of 8; `groups` = batch * N * K / 8, `groups_per_batch` = N * K / 8 (NVFP4's
// global scale index).
template <class Src, Fmt F>
__global__ void __launch_bounds__(kThreads) quant_kernel(Src src, int64_t groups, int64_t groups_per_batch,
                                                         const float* __restrict__ global,
                                                         uint8_t* __restrict__ codes, uint8_t* __restrict__ scales,
                                                         bool vec_store) {
  constexpr int kLanes = block_of<F>() / kGroup;  // 4 or 2 consecutive lanes per scale block
  const int64_t g = int64_t(blockIdx.x) * kThreads + threadIdx.x;
  const bool valid = g < groups;
  float v[kGroup];
  if (valid) {
    src.load8(g, v);
  } else {
#pragma unroll
    for (int j = 0; j < kGroup; ++j) v[j] = 0.0f;
  }
  uint32_t am = 0;
#pragma unroll
  for (int j = 0; j < kGroup; ++j) am = max(am, abs_bits(v[j]));
  // Every lane of the warp takes part (the tail's invalid lanes too, with am = 0): a block's lanes
  // are kLanes-aligned within the warp, as kLanes divides 32 and groups is a multiple of kLanes.
#pragma unroll
  for (int o = 1; o < kLanes; o <<= 1) am = max(am, __shfl_xor_sync(0xFFFFFFFFu, am, o));
  if (!valid) return;
  bool poisoned = am >= kInfBits;
  uint32_t sc;
  uint32_t lo = 0, hi = 0;  // codes: e2m1 packed in lo (element j in bits 4j..4j+3); e4m3 bytes in lo, hi
  if constexpr (F == Fmt::kNvfp4) {
    const float gs = global[g / groups_per_batch];
    const uint32_t gb = __float_as_uint(gs);
    poisoned = poisoned || !(gb > 0u && gb < kInfBits);  // as unsigned: rejects -x, 0, inf, NaN
    if (poisoned) {
      sc = kE4M3NaN;
      lo = kE2M1NaNWord;
    } else {
      sc = e4m3_encode_sat(__fdiv_rn(__fdiv_rn(__uint_as_float(am), kE2M1Max), gs));
      const float s = __fmul_rn(e4m3_decode_pos(sc), gs);
      if (s != 0.0f) {
#pragma unroll
        for (int j = 0; j < kGroup; ++j) lo |= e2m1_encode(__fdiv_rn(v[j], s)) << (4 * j);
      }
    }
  } else {
    constexpr int kEmax = F == Fmt::kMxE2M1 ? 2 : 8;  // largest exponent of e2m1 (6 = 1.5*2^2) / e4m3 (448 = 1.75*2^8)
    sc = mx_scale_code(am, kEmax);
    // 2^-(sc-127) = 2^(127-sc): sc <= 252 for a finite amax, so a normal float, and x * 2^-e equals
    // the correctly rounded x / 2^e. (A poisoned block's 255 is clamped only to keep the unused
    // value defined.)
    const float inv = __uint_as_float((254u - min(sc, 253u)) << 23);
    if constexpr (F == Fmt::kMxE2M1) {
      if (poisoned) {
        lo = kE2M1NaNWord;
      } else {
#pragma unroll
        for (int j = 0; j < kGroup; ++j) lo |= e2m1_encode(__fmul_rn(v[j], inv)) << (4 * j);
      }
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        lo |= uint32_t(poisoned ? kE4M3NaN : e4m3_encode_sat(__fmul_rn(v[j], inv))) << (8 * j);
        hi |= uint32_t(poisoned ? kE4M3NaN : e4m3_encode_sat(__fmul_rn(v[j + 4], inv))) << (8 * j);
      }
    }
  }
  if (g % kLanes == 0) scales[g / kLanes] = uint8_t(sc);
  if constexpr (F == Fmt::kMxE4M3) {
    uint8_t* dst = codes + g * kGroup;
    if (vec_store) {
      *reinterpret_cast<uint2*>(dst) = make_uint2(lo, hi);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        dst[j] = uint8_t(lo >> (8 * j));
        dst[j + 4] = uint8_t(hi >> (8 * j));
      }
    }
  } else {
    uint8_t* dst = codes + g * (kGroup / 2);
    if (vec_store) {
      *reinterpret_cast<uint32_t*>(dst) = lo;
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) dst[j] = uint8_t(lo >> (8 * j));
    }
  }
}

// amax[b] = max(amax[b], max over batch entry b's finite |x| bits); CTA c of entry b covers the
// groups c, c + ctas_per_batch, .. (in units of kThreads groups).
template <class Src>
__global__ void __launch_bounds__(kThreads) finite_amax_kernel(Src src, int64_t groups_per_batch,
                                                               int64_t ctas_per_batch, uint32_t* amax) {
  const int64_t b = blockIdx.x / ctas_per_batch, chunk = blockIdx.x - b * ctas_per_batch;
  uint32_t m = 0;
  for (int64_t i = chunk * kThreads + threadIdx.x; i < groups_per_batch; i += ctas_per_batch * kThreads) {
    float v[kGroup];
    src.load8(b * groups_per_batch + i, v);
#pragma unroll
    for (int j = 0; j < kGroup; ++j) {
      const uint32_t a = abs_bits(v[j]);
      m = max(m, a < kInfBits ? a : 0u);  // NaN/inf do not count (formats::nvfp4_global_scale)
    }
  }
  m = fp8::warp_max(m);
  __shared__ uint32_t warp_m[kThreads / 32];
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  if (lane == 0) warp_m[warp] = m;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < kThreads / 32; ++w) m = max(m, warp_m[w]);
    m = max(m, warp_m[0]);
    if (m != 0) atomicMax(amax + b, m);
  }
}

// global[b] (holding amax bits) -> amax / 2688, or 1 when that is 0.
static __global__ void nvfp4_global_finish_kernel(float* global, int64_t batch) {
  const int64_t b = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float g = __fdiv_rn(__uint_as_float(reinterpret_cast<const uint32_t*>(global)[b]), kNvfp4GlobalDivisor);
  global[b] = g == 0.0f ? 1.0f : g;
}

// ---- host launchers --------------------------------------------------------------------------

template <Fmt F, class Src>
inline void launch_quant(const Src& src, int64_t batch, int64_t N, int64_t K, const float* global, uint8_t* codes,
                  uint8_t* scales, cudaStream_t stream) {
  const int64_t groups = batch * N * K / kGroup;
  if (groups == 0) return;
  const int64_t blocks = cu::ceil_div<int64_t>(groups, kThreads);
  if (blocks > int64_t(INT32_MAX)) throw_invalid("batch * N * K", "< 2^42 elements", std::to_string(batch * N * K));
  const bool vec_store = cu::aligned(codes, F == Fmt::kMxE4M3 ? 8 : 4);
  quant_kernel<Src, F><<<unsigned(blocks), kThreads, 0, stream>>>(src, groups, N * K / kGroup, global, codes, scales,
                                                                  vec_store);
  cu::check_launch("quantize_fp4", F == Fmt::kNvfp4 ? "nvfp4 quantize kernel launch" : "mx quantize kernel launch");
}

template <class Src>
inline void launch_global(const Src& src, int64_t batch, int64_t N, int64_t K, float* global, cudaStream_t stream) {
  if (batch == 0) return;
  if (batch > int64_t(INT32_MAX)) throw_invalid("batch", "< 2^31", std::to_string(batch));
  const int64_t gpb = N * K / kGroup;
  // The array starts as amax bits 0 (the max of no elements), so an empty entry ends up at 1.
  cu::check("quantize_fp4", cudaMemsetAsync(global, 0, size_t(batch) * sizeof(float), stream),
            "nvfp4 global scale: cudaMemsetAsync");
  if (gpb > 0) {
    const int64_t cpb = std::max<int64_t>(1, std::min(cu::ceil_div<int64_t>(gpb, kThreads), cu::ceil_div<int64_t>(amax_target_ctas(), batch)));
    if (batch * cpb > int64_t(INT32_MAX)) throw_invalid("batch", "< 2^31", std::to_string(batch));
    finite_amax_kernel<<<unsigned(batch * cpb), kThreads, 0, stream>>>(src, gpb, cpb,
                                                                         reinterpret_cast<uint32_t*>(global));
    cu::check_launch("quantize_fp4", "nvfp4 global amax kernel launch");
  }
  nvfp4_global_finish_kernel<<<unsigned(cu::ceil_div<int64_t>(batch, kThreads)), kThreads, 0, stream>>>(global, batch);
  cu::check_launch("quantize_fp4", "nvfp4 global scale kernel launch");
}

inline void check_args(const char* fn, DType d, int64_t batch, int64_t N, int64_t K, int64_t block) {
  if (d != DType::kBF16 && d != DType::kF32)
    throw_invalid(std::string(fn) + ": src_dtype", "bf16 or float32", dtype_name(d));
  if (batch < 0 || N < 0 || K < 0)
    throw_invalid(std::string(fn) + ": batch, N, K", ">= 0",
                  std::to_string(batch) + ", " + std::to_string(N) + ", " + std::to_string(K));
  if (K % block != 0)
    throw_invalid(std::string(fn) + ": K", "a multiple of " + std::to_string(block), std::to_string(K));
}

inline void check_ptr(const char* fn, const char* name, const void* p) {
  if (p == nullptr) throw_invalid(std::string(fn) + ": " + name, "a device pointer", "null");
}

}  // namespace megamoe::sm90::fp4
