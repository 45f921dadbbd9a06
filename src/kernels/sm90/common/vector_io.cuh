// Vectorised read-only loads shared by the pointwise MoE kernels (activation, combine, their fp8
// variants): fp32 runs read with 16-byte __ldg accesses. Device code only; the pointers must be
// 16-byte aligned (the callers check or guarantee it).
#pragma once
#include <cuda_runtime.h>

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

}  // namespace megamoe::vec
