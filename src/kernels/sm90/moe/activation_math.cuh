// The activations of docs/DESIGN.md section 1 as device functions, shared by every kernel that
// applies them (activation.cu, activation_fp8.cu, the FC1 epilogues, the Mega kernel). Formulas
// and NaN behaviour mirror the CPU reference (src/reference/reference.cpp): the clamps are written
// as the std::min / std::clamp comparisons so a NaN passes through exactly as it does on the host;
// the sigmoid is evaluated without a division (times_sigmoid), within an ulp or two of it
// (docs/FORMATS.md, GPU test SplitKernels.ActivationSigmoidWholeRange).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include "megamoe/config.h"

namespace megamoe::sm90::act {

// std::min(g, L) and std::clamp(u, -L, L) for a limit L > 0 (MoeConfig refuses a NaN or a
// non-positive one). min.NaN / max.NaN return a NaN for a NaN operand, as the comparisons do for a
// NaN g or u (its payload may differ; outputs are compared with the reference as NaN, not by bits),
// in one instruction each where a comparison and a select took two: the FC1 epilogues run them on
// every element (fp8 WidePaired: 3 of ~34 instructions an element).
__device__ __forceinline__ float min_nan(float g, float L) {
  float r;
  asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(g), "f"(L));
  return r;
}
__device__ __forceinline__ float clamp_nan(float u, float L) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(min_nan(u, L)), "f"(-L));
  return r;
}

// g * sigmoid(z) = g / (1 + e^-z), the reference's formula, without an IEEE division. A division
// is ~10 instructions plus a branch to a slow path at every call site, and the FC1 epilogues call
// this for every element of their tile (the fp8 fused FC1 at T = 128 ran 1.07-1.20x faster with no
// activation math at all). With t = e^-|z| in (0, 1] the denominator 1 + t lies in [1, 2], where
// the hardware reciprocal (rcp.approx, <= 1 ulp) refined by one Newton step is within an ulp of
// 1 / (1 + t); for z < 0, sigmoid(z) = t / (1 + t). The result differs from the division in the
// last fp32 bits only (docs/FORMATS.md), and keeps its special values: z = -inf gives t = 0 and
// g * 0 (NaN for g = -inf, as -inf / inf), a NaN z gives NaN (t, d and r are NaN), large |z| has no
// overflow (t underflows towards 0 instead of e^-z overflowing to inf).
__device__ __forceinline__ float times_sigmoid(float g, float z) {
  const float t = expf(-fabsf(z));
  const float d = 1.0f + t;
  float r;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));  // d in [1, 2] or NaN: never subnormal
  r = fmaf(fmaf(-d, r, 1.0f), r, r);                    // one Newton step: e = 1 - d r, r += r e
  return g * (z >= 0.0f ? r : t * r);
}

// act(g, u) for gated activations; relu2 ignores u. `limit` is +inf for no clamp.
template <Activation kAct>
__device__ __forceinline__ float act_fn(float g, float u, float limit, float alpha) {
  if constexpr (kAct == Activation::kSwiGLU) {
    g = min_nan(g, limit);
    u = clamp_nan(u, limit);
    return times_sigmoid(g, g) * u;
  } else if constexpr (kAct == Activation::kSwiGLUOAI) {
    g = min_nan(g, limit);
    u = clamp_nan(u, limit);
    return times_sigmoid(g, alpha * g) * (u + 1.0f);
  } else if constexpr (kAct == Activation::kGeGLU) {
    const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
    const float inner = k0 * (g + 0.044715f * g * g * g);
    return 0.5f * g * (1.0f + tanhf(inner)) * u;
  } else {  // relu2 (u unused)
    const float r = (g < 0.0f) ? 0.0f : g;
    return r * r;
  }
}

// act_fn with the activation chosen at run time (one switch per call: for kernels whose epilogue
// is a small part of their work, so that one instantiation serves every activation).
__device__ __forceinline__ float act_apply(Activation act, float g, float u, float limit, float alpha) {
  switch (act) {
    case Activation::kSwiGLU: return act_fn<Activation::kSwiGLU>(g, u, limit, alpha);
    case Activation::kSwiGLUOAI: return act_fn<Activation::kSwiGLUOAI>(g, u, limit, alpha);
    case Activation::kGeGLU: return act_fn<Activation::kGeGLU>(g, u, limit, alpha);
    default: return act_fn<Activation::kReLU2>(g, u, limit, alpha);
  }
}

// a = bf16(act(g, u)) as a float: FC2's input before the fp8_block quantization. One definition
// for the activation-quantize kernel and the fp8 FC1 epilogue, whose codes must agree bit for bit.
template <Activation kAct>
__device__ __forceinline__ float act_bf16(float g, float u, float limit, float alpha) {
  return __bfloat162float(__float2bfloat16_rn(act_fn<kAct>(g, u, limit, alpha)));
}

}  // namespace megamoe::sm90::act
