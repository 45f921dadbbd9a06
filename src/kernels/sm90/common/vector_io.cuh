// Vectorised loads and the combine's arithmetic shared by the pointwise MoE kernels (activation,
// combine, their fp8 variants, the mega kernel's combine, the expert-parallel combine): fp32 runs
// read with 16-byte __ldg accesses, bf16x8 vectors accumulated and stored. Device code only; the
// pointers must be 16-byte aligned (the callers check or guarantee it).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace megamoe::vec {

constexpr int kBytesPerVectorLoad = 16;  // one float4 / uint4 access
constexpr int kFloatsPerVectorLoad = kBytesPerVectorLoad / int(sizeof(float));  // 4

// v[0..3] = p[0..3]: one 16-byte load.
__device__ __forceinline__ void ldg_f32x4(const float* p, float (&v)[4]) {
  const float4 a = __ldg(reinterpret_cast<const float4*>(p));
  v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
}

// v[0..7] = p[0..7]: two 16-byte loads.
__device__ __forceinline__ void ldg_f32x8(const float* p, float (&v)[8]) {
  const float4 a = __ldg(reinterpret_cast<const float4*>(p));
  const float4 b = __ldg(reinterpret_cast<const float4*>(p + 4));
  v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w;
  v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
}

// acc[j] += w * float(bf16 j of raw) for the 8 bf16 of one 16-byte vector, the product and the
// sum each rounded (no FMA contraction): the combine's step, equal bit for bit to the CPU
// reference's `acc += w * y` in FP32.
__device__ __forceinline__ void accumulate_weighted_bf16x8(float (&acc)[8], const uint4& raw, float w) {
  const uint32_t words[4] = {raw.x, raw.y, raw.z, raw.w};
#pragma unroll
  for (int j = 0; j < 8; ++j) {
    const uint32_t bits = (j & 1) ? (words[j >> 1] & 0xFFFF0000u) : (words[j >> 1] << 16);
    acc[j] = __fadd_rn(acc[j], __fmul_rn(w, __uint_as_float(bits)));
  }
}

// p[0..7] = bf16(v[0..7]) (round to nearest even): one 16-byte store.
__device__ __forceinline__ void store_bf16x8(void* p, const float (&v)[8]) {
  alignas(16) __nv_bfloat16 o[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) o[j] = __float2bfloat16_rn(v[j]);
  *reinterpret_cast<uint4*>(p) = *reinterpret_cast<const uint4*>(o);
}

}  // namespace megamoe::vec
