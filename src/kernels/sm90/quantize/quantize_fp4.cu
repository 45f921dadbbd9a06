// GPU MX / NVFP4 quantizers (see quantize_fp4.h).
//   quantize: one thread per 8 consecutive elements of a row (16 bytes of bf16 in, one 32-bit
//             word of packed e2m1 or 8 e4m3 codes out); the 4 (MX, 32-element blocks) or 2
//             (NVFP4, 16-element blocks) neighbouring lanes of one scale block share its amax by
//             warp shuffles, the first of them writes the scale code. K is a multiple of the block,
//             so blocks never straddle rows and the tensor is treated as a flat run of groups.
//   NVFP4 global scale: a grid-stride max over each batch entry's finite |x| bits, one atomicMax
//             per CTA into the output array (zeroed first), then a tiny kernel turning the amax
//             bits into amax / 2688 (or 1).
// Device twins of the CPU rules live here; they follow formats::detail's branch-free encoders
// (codecs.h uses std::bit_cast, which the C++17 CUDA build does not have) and use __fdiv_rn /
// __fmul_rn so nvcc neither contracts nor approximates.
#include "kernels/sm90/quantize/quantize_fp4.h"

#include <cuda_bf16.h>

#include <algorithm>
#include <string>

#include "core/synthetic.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

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
// Enough CTAs to fill an H100/H200 (132 SMs, 8 resident 256-thread CTAs each) twice over; the
// global-amax reduction grid-strides beyond.
constexpr int64_t kAmaxTargetCtas = 132 * 16;

enum class Fmt { kMxE2M1, kMxE4M3, kNvfp4 };

void check_launch(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw CudaError(std::string(what) + ": " + cudaGetErrorString(e));
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
bool aligned(const void* p, size_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

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

// The synthetic bf16 master weights (core/synthetic.h): flat element i of the [E_local * N, K]
// tensor is bf16(uniform(seed, stream, base + i, scale)).
struct SyntheticSource {
  uint64_t seed, stream, base;
  float scale;
  __device__ __forceinline__ void load8(int64_t g, float (&v)[kGroup]) const {
#pragma unroll
    for (int j = 0; j < kGroup; ++j)
      v[j] = __bfloat162float(
          __float2bfloat16_rn(synthetic::uniform(seed, stream, base + uint64_t(g * kGroup + j), scale)));
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
__global__ void nvfp4_global_finish_kernel(float* global, int64_t batch) {
  const int64_t b = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= batch) return;
  const float g = __fdiv_rn(__uint_as_float(reinterpret_cast<const uint32_t*>(global)[b]), kNvfp4GlobalDivisor);
  global[b] = g == 0.0f ? 1.0f : g;
}

__global__ void bias_fill_kernel(float* dst, int64_t n, uint64_t seed, uint64_t stream, uint64_t base) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = __bfloat162float(
        __float2bfloat16_rn(synthetic::uniform(seed, stream, base + uint64_t(i), synthetic::kBiasScale)));
}

// ---- host launchers --------------------------------------------------------------------------

template <Fmt F, class Src>
void launch_quant(const Src& src, int64_t batch, int64_t N, int64_t K, const float* global, uint8_t* codes,
                  uint8_t* scales, cudaStream_t stream) {
  const int64_t groups = batch * N * K / kGroup;
  if (groups == 0) return;
  const int64_t blocks = cdiv(groups, kThreads);
  if (blocks > int64_t(INT32_MAX)) throw_invalid("batch * N * K", "< 2^42 elements", std::to_string(batch * N * K));
  const bool vec_store = aligned(codes, F == Fmt::kMxE4M3 ? 8 : 4);
  quant_kernel<Src, F><<<unsigned(blocks), kThreads, 0, stream>>>(src, groups, N * K / kGroup, global, codes, scales,
                                                                  vec_store);
  check_launch(F == Fmt::kNvfp4 ? "nvfp4 quantize kernel launch" : "mx quantize kernel launch");
}

template <class Src>
void launch_global(const Src& src, int64_t batch, int64_t N, int64_t K, float* global, cudaStream_t stream) {
  if (batch == 0) return;
  if (batch > int64_t(INT32_MAX)) throw_invalid("batch", "< 2^31", std::to_string(batch));
  const int64_t gpb = N * K / kGroup;
  // The array starts as amax bits 0 (the max of no elements), so an empty entry ends up at 1.
  const cudaError_t e = cudaMemsetAsync(global, 0, size_t(batch) * sizeof(float), stream);
  if (e != cudaSuccess) throw CudaError(std::string("nvfp4 global scale: cudaMemsetAsync: ") + cudaGetErrorString(e));
  if (gpb > 0) {
    const int64_t cpb = std::max<int64_t>(1, std::min(cdiv(gpb, kThreads), cdiv(kAmaxTargetCtas, batch)));
    if (batch * cpb > int64_t(INT32_MAX)) throw_invalid("batch", "< 2^31", std::to_string(batch));
    finite_amax_kernel<<<unsigned(batch * cpb), kThreads, 0, stream>>>(src, gpb, cpb,
                                                                         reinterpret_cast<uint32_t*>(global));
    check_launch("nvfp4 global amax kernel launch");
  }
  nvfp4_global_finish_kernel<<<unsigned(cdiv(batch, kThreads)), kThreads, 0, stream>>>(global, batch);
  check_launch("nvfp4 global scale kernel launch");
}

void check_args(const char* fn, DType d, int64_t batch, int64_t N, int64_t K, int64_t block) {
  if (d != DType::kBF16 && d != DType::kF32)
    throw_invalid(std::string(fn) + ": src_dtype", "bf16 or float32", dtype_name(d));
  if (batch < 0 || N < 0 || K < 0)
    throw_invalid(std::string(fn) + ": batch, N, K", ">= 0",
                  std::to_string(batch) + ", " + std::to_string(N) + ", " + std::to_string(K));
  if (K % block != 0)
    throw_invalid(std::string(fn) + ": K", "a multiple of " + std::to_string(block), std::to_string(K));
}

void check_ptr(const char* fn, const char* name, const void* p) {
  if (p == nullptr) throw_invalid(std::string(fn) + ": " + name, "a device pointer", "null");
}

// Calls f(source) with the typed pointer source over a [.., K] tensor.
template <class F>
void with_source(const void* src, DType d, F&& f) {
  if (d == DType::kBF16) {
    f(PtrSource<uint16_t>{static_cast<const uint16_t*>(src), aligned(src, 16)});
  } else {
    f(PtrSource<float>{static_cast<const float*>(src), aligned(src, 16)});
  }
}

template <Fmt F>
void quantize_mx_gpu(const char* fn, const void* src, DType d, int64_t batch, int64_t N, int64_t K, uint8_t* codes,
                     uint8_t* scales, cudaStream_t stream) {
  check_args(fn, d, batch, N, K, kMxBlock);
  if (batch * N * K == 0) return;
  check_ptr(fn, "src", src);
  check_ptr(fn, "codes", codes);
  check_ptr(fn, "scales", scales);
  with_source(src, d, [&](const auto& s) { launch_quant<F>(s, batch, N, K, nullptr, codes, scales, stream); });
}

}  // namespace

void quantize_mx_e2m1_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, uint8_t* codes,
                          uint8_t* scales, cudaStream_t stream) {
  quantize_mx_gpu<Fmt::kMxE2M1>("quantize_mx_e2m1_gpu", src, src_dtype, batch, N, K, codes, scales, stream);
}

void quantize_mx_e4m3_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, uint8_t* codes,
                          uint8_t* scales, cudaStream_t stream) {
  quantize_mx_gpu<Fmt::kMxE4M3>("quantize_mx_e4m3_gpu", src, src_dtype, batch, N, K, codes, scales, stream);
}

void nvfp4_global_scale_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, float* global,
                            cudaStream_t stream) {
  constexpr const char* fn = "nvfp4_global_scale_gpu";
  check_args(fn, src_dtype, batch, N, K, kNvBlock);
  if (batch == 0) return;
  check_ptr(fn, "global", global);
  if (N * K > 0) check_ptr(fn, "src", src);
  with_source(src, src_dtype, [&](const auto& s) { launch_global(s, batch, N, K, global, stream); });
}

void quantize_nvfp4_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, const float* global,
                        uint8_t* codes, uint8_t* scales, cudaStream_t stream) {
  constexpr const char* fn = "quantize_nvfp4_gpu";
  check_args(fn, src_dtype, batch, N, K, kNvBlock);
  if (batch * N * K == 0) return;
  check_ptr(fn, "src", src);
  check_ptr(fn, "global", global);
  check_ptr(fn, "codes", codes);
  check_ptr(fn, "scales", scales);
  with_source(src, src_dtype,
              [&](const auto& s) { launch_quant<Fmt::kNvfp4>(s, batch, N, K, global, codes, scales, stream); });
}

void fill_synthetic_layer_fp4(const MoeConfig& c, uint64_t seed, uint8_t* w13, uint8_t* w13_scale, uint8_t* w2,
                              uint8_t* w2_scale, float* w13_global, float* w2_global, float* b13, float* b2,
                              cudaStream_t stream) {
  constexpr const char* fn = "fill_synthetic_layer_fp4";
  const bool mx = c.recipe == Recipe::kW4A16MXFP4 || c.recipe == Recipe::kW4A8MXFP4;
  const bool nv = c.recipe == Recipe::kW4A16NVFP4 || c.recipe == Recipe::kNVFP4;
  if (!mx && !nv)
    throw_invalid(std::string(fn) + ": config.recipe", "w4a16_mxfp4, w4a8_mxfp4, w4a16_nvfp4 or nvfp4",
                  recipe_name(c.recipe));
  const int64_t E = c.local_experts(), e0 = c.first_local_expert(), H = c.hidden_size, I = c.intermediate_size,
                N13 = c.fc1_rows();
  const int64_t block = mx ? kMxBlock : kNvBlock;
  for (const auto& [name, k] : {std::pair<const char*, int64_t>{"config.hidden_size", H}, {"config.intermediate_size", I}})
    if (k <= 0 || k % block != 0)
      throw_invalid(std::string(fn) + ": " + name, "a positive multiple of " + std::to_string(block) + " for " +
                    recipe_name(c.recipe), std::to_string(k));
  if (E <= 0) return;
  check_ptr(fn, "w13", w13);
  check_ptr(fn, "w13_scale", w13_scale);
  check_ptr(fn, "w2", w2);
  check_ptr(fn, "w2_scale", w2_scale);
  // Local expert l is global expert e0 + l and the tensors are contiguous in the expert index, so
  // the flat index of local element i is the global index of expert e0's first element plus i.
  const SyntheticSource s13{seed, synthetic::kW13, synthetic::w13_index(e0, 0, 0, N13, H), synthetic::weight_scale(H)};
  const SyntheticSource s2{seed, synthetic::kW2, synthetic::w2_index(e0, 0, 0, H, I), synthetic::weight_scale(I)};
  if (mx) {
    launch_quant<Fmt::kMxE2M1>(s13, E, N13, H, nullptr, w13, w13_scale, stream);
    launch_quant<Fmt::kMxE2M1>(s2, E, H, I, nullptr, w2, w2_scale, stream);
  } else {
    check_ptr(fn, "w13_global", w13_global);
    check_ptr(fn, "w2_global", w2_global);
    launch_global(s13, E, N13, H, w13_global, stream);
    launch_quant<Fmt::kNvfp4>(s13, E, N13, H, w13_global, w13, w13_scale, stream);
    launch_global(s2, E, H, I, w2_global, stream);
    launch_quant<Fmt::kNvfp4>(s2, E, H, I, w2_global, w2, w2_scale, stream);
  }
  if (c.has_bias && b13 && b2) {
    auto blocks = [](int64_t n) { return unsigned(std::min<int64_t>(cdiv(n, kThreads), kAmaxTargetCtas)); };
    bias_fill_kernel<<<blocks(E * N13), kThreads, 0, stream>>>(b13, E * N13, seed, synthetic::kB13, uint64_t(e0 * N13));
    bias_fill_kernel<<<blocks(E * H), kThreads, 0, stream>>>(b2, E * H, seed, synthetic::kB2, uint64_t(e0 * H));
    check_launch("fp4 synthetic bias fill");
  }
}

}  // namespace megamoe::sm90
