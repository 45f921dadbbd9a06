// x / s by the reciprocal of s: four fp32 operations in place of an IEEE division, for the
// quantizers that divide every element of a block by the block's one scale (the fp8_block
// activation and weight quantizers on the GPU, kernels/sm90/quantize/quantize_fp8.cuh). An IEEE
// division is ~10 instructions with a branch to a slow path at every call site; the fused FC1
// epilogue quantizes every element of its tile.
//
// With r = RN(1/s) (correctly rounded, computed once per block), y = RN(x r) is within an ulp of
// x / s, the remainder x - y s is exact in one FMA, and RN(y + r (x - y s)) = RN(x / s):
// Markstein's theorem (Muller et al., Handbook of Floating-Point Arithmetic, division by
// Newton-Raphson iteration), which holds while nothing underflows. A scale below 2^-80 (tiny and
// subnormal scales, whose reciprocal may overflow) is first multiplied by 2^100, and x with it
// (both exact: x / s is unchanged). The sign is copied from x, because y + rem r rounds to +0 where
// x / s is -0.
//
// Scope, checked on the host over every exponent of s (tests/cpu/test_formats.cpp,
// ScaleDivision.*): for s in (0, FLT_MAX / 448] (every scale amax / 448 of a finite block) and
// finite x with |x| <= 448 s (the block's elements), the result is RN(x / s) bit for bit, except
// where both are below 2^-11 in magnitude with the same sign (a tiny x's remainder underflows).
// e4m3 rounds both to the same signed zero (its smallest subnormal is 2^-9), so the codes are those
// of the IEEE division.
#pragma once

#include <cmath>

#include "core/host_device.h"

namespace megamoe::formats {

struct ScaleDivisor {
  float s;  // the scale, times m
  float r;  // RN(1 / s)
  float m;  // 1, or 2^100 for a scale below 2^-80
};

MEGAMOE_HD ScaleDivisor scale_divisor(float s) {
  const float m = s < 0x1p-80f ? 0x1p100f : 1.0f;
  const float sm = s * m;
  return {sm, 1.0f / sm, m};
}

// RN(x / s) for the s of d, within the scope above.
MEGAMOE_HD float scale_quotient(float x, const ScaleDivisor& d) {
  const float xm = x * d.m;
  const float y = xm * d.r;
  const float rem = fmaf(-y, d.s, xm);  // exact: y is within an ulp of x / s
  return copysignf(fmaf(rem, d.r, y), x);
}

}  // namespace megamoe::formats
