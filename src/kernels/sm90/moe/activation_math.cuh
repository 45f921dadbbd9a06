// The activations of docs/DESIGN.md section 1 as device functions, shared by every kernel that
// applies them (activation.cu, activation_fp8.cu, the FC1 epilogues, the Mega kernel). Formulas
// and NaN behaviour mirror the CPU reference (src/reference/reference.cpp): the clamps are written
// as the std::min / std::clamp comparisons so a NaN passes through exactly as it does on the host;
// the sigmoid is evaluated without a division or libm (times_sigmoid), within a few ulp of it
// (docs/FORMATS.md, GPU test SplitKernels.ActivationSigmoidWholeRange).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>

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
__device__ __forceinline__ float max_nan(float a, float b) {
  float r;
  asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
__device__ __forceinline__ float clamp_nan(float u, float L) { return max_nan(min_nan(u, L), -L); }

// g * sigmoid(z) = g / (1 + e^-z), the reference's formula, in ~9 instructions without an IEEE
// division or libm's expf. The FC1 epilogues run this on every element of their tiles: in the fp8
// WidePaired one the activation was ~22 of ~30 instructions an element, expf's range reduction 8
// of them and a Newton step on the reciprocal 2 (session 61). With t = e^-|z| in (0, 1]:
//   - t = h * h, h = 2^(-|z| log2(e) / 2) by ex2.approx.ftz (<= 2 ulp): the halved exponent stays
//     above -126 (where .ftz would flush h) for |z| <= 174, and the square keeps t's subnormals
//     (fp32 multiplies do not flush here) down to z = -103, below which the exact t rounds to 0.
//     Error: <= 4.5 ulp, plus a relative |z| 2^-23 (about |z| ulp) from rounding the exponent
//     -|z| log2(e) / 2 to fp32: <= ~10 ulp for |z| <= 5, where nearly every gate lies; where it
//     grows, z < 0, g e^-|z| is small against the rest of its 1x128 group or output row.
//   - 1 / (1 + t): the hardware reciprocal (rcp.approx, <= 1 ulp) of d in [1, 2];
//   - sigmoid(z) = 1 / (1 + t) for z >= 0, t / (1 + t) for z < 0.
// a = bf16(g sigmoid(z)) is the correct rounding of the exact value for all but ~1e-4 of the
// gates (GPU test SplitKernels.ActivationSigmoidWholeRange; docs/FORMATS.md "act"). Special values
// as the reference's: z = -inf gives t = 0 and g * 0 (NaN for g = -inf, as -inf / inf), a NaN z
// gives NaN (h, t, d and r are NaN), large |z| no overflow (t underflows towards 0 instead of e^-z
// overflowing to inf).
__device__ __forceinline__ float times_sigmoid(float g, float z) {
  constexpr float kHalfLog2e = 0.72134752044448170f;  // log2(e) / 2
  float h, r;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(h) : "f"(-fabsf(z) * kHalfLog2e));
  const float t = h * h;
  const float d = 1.0f + t;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(d));  // d in [1, 2] or NaN: never subnormal
  return g * (z >= 0.0f ? r : t * r);
}

// act(g, u) for gated activations; relu2 ignores u. `limit` is +inf for no clamp; kClamp = false
// skips the clamps, for callers that tested limit == +inf once per tile (the clamps are then the
// identity, NaN included: 3 instructions an element less).
template <Activation kAct, bool kClamp = true>
__device__ __forceinline__ float act_fn(float g, float u, float limit, float alpha) {
  if constexpr (kAct == Activation::kSwiGLU) {
    if constexpr (kClamp) {
      g = min_nan(g, limit);
      u = clamp_nan(u, limit);
    }
    return times_sigmoid(g, g) * u;
  } else if constexpr (kAct == Activation::kSwiGLUOAI) {
    if constexpr (kClamp) {
      g = min_nan(g, limit);
      u = clamp_nan(u, limit);
    }
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

// Whether a clamp `limit` is none (+inf): act_fn<kAct, false> is then act_fn<kAct>.
__device__ __forceinline__ bool no_clamp(float limit) { return __float_as_uint(limit) == 0x7F800000u; }

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
template <Activation kAct, bool kClamp = true>
__device__ __forceinline__ float act_bf16(float g, float u, float limit, float alpha) {
  return __bfloat162float(__float2bfloat16_rn(act_fn<kAct, kClamp>(g, u, limit, alpha)));
}

// act_bf16 of two elements: the same bf16 values, rounded as one pair (one F2FP instead of two
// F2F) and widened by a shift and a mask (the fp8 FC1 epilogue: 3 instructions a pair, not 4).
template <Activation kAct, bool kClamp = true>
__device__ __forceinline__ void act_bf16x2(float g0, float u0, float g1, float u1, float limit, float alpha,
                                           float& a0, float& a1) {
  const __nv_bfloat162 v = __floats2bfloat162_rn(act_fn<kAct, kClamp>(g0, u0, limit, alpha),
                                                 act_fn<kAct, kClamp>(g1, u1, limit, alpha));
  const uint32_t bits = *reinterpret_cast<const uint32_t*>(&v);
  a0 = __uint_as_float(bits << 16);
  a1 = __uint_as_float(bits & 0xFFFF0000u);
}

}  // namespace megamoe::sm90::act
