// The activations of docs/DESIGN.md section 1 as device functions, shared by every kernel that
// applies them (activation.cu, activation_fp8.cu). Formulas and NaN behaviour mirror the CPU
// reference (src/reference/reference.cpp): the clamps are written as the std::min /
// std::clamp comparisons so a NaN passes through exactly as it does on the host.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "megamoe/config.h"

namespace megamoe::sm90::act {

__device__ __forceinline__ float min_nan(float g, float L) { return (L < g) ? L : g; }  // std::min(g, L)
__device__ __forceinline__ float clamp_nan(float u, float L) {                          // std::clamp(u,-L,L)
  return (u < -L) ? -L : ((L < u) ? L : u);
}

// act(g, u) for gated activations; relu2 ignores u. `limit` is +inf for no clamp.
template <Activation kAct>
__device__ __forceinline__ float act_fn(float g, float u, float limit, float alpha) {
  if constexpr (kAct == Activation::kSwiGLU) {
    g = min_nan(g, limit);
    u = clamp_nan(u, limit);
    return (g / (1.0f + expf(-g))) * u;
  } else if constexpr (kAct == Activation::kSwiGLUOAI) {
    g = min_nan(g, limit);
    u = clamp_nan(u, limit);
    return (g / (1.0f + expf(-alpha * g))) * (u + 1.0f);
  } else if constexpr (kAct == Activation::kGeGLU) {
    const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
    const float inner = k0 * (g + 0.044715f * g * g * g);
    return 0.5f * g * (1.0f + tanhf(inner)) * u;
  } else {  // relu2 (u unused)
    const float r = (g < 0.0f) ? 0.0f : g;
    return r * r;
  }
}

// a = bf16(act(g, u)) as a float: FC2's input before the fp8_block quantization. One definition
// for the activation-quantize kernel and the fp8 FC1 epilogue, whose codes must agree bit for bit.
template <Activation kAct>
__device__ __forceinline__ float act_bf16(float g, float u, float limit, float alpha) {
  return __bfloat162float(__float2bfloat16_rn(act_fn<kAct>(g, u, limit, alpha)));
}

}  // namespace megamoe::sm90::act
