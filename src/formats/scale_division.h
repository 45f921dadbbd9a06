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
// (both exact: x / s is unchanged). The remainder is formed negated, y s - x, and subtracted
// (y - r (y s - x)): that is the same value, and where the quotient is zero (x = +-0, or an
// underflowing x / s) its sign is x's, as copysign(y + rem r, x) made it with one more instruction
// (y + rem r rounds -0 + +0 to +0; the two forms agree bit for bit on 1.7e8 random (x, s) of the
// scope below, session 61).
//
// Scope, checked on the host over every exponent of s (tests/cpu/test_formats.cpp,
// ScaleDivision.*): for s in (0, FLT_MAX / 448] (every scale amax / 448 of a finite block) and
// finite x with |x| <= 448 s (the block's elements), the result is RN(x / s) bit for bit, except
// where both are below 2^-11 in magnitude with the same sign (a tiny x's remainder underflows).
// e4m3 rounds both to the same signed zero (its smallest subnormal is 2^-9), so the codes are those
// of the IEEE division. (A NaN x gives a NaN, whose sign may differ from x's: the quantizers never
// divide one, a NaN poisons its block first.)
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

// scale_quotient for x already multiplied by d.m (x itself where d.m is 1: every scale >= 2^-80,
// which a caller may test once per block and save the multiply per element).
MEGAMOE_HD float scale_quotient_scaled(float xm, const ScaleDivisor& d) {
  const float y = xm * d.r;
  const float neg_rem = fmaf(y, d.s, -xm);  // exact: y is within an ulp of x / s
  return fmaf(-neg_rem, d.r, y);
}

// RN(x / s) for the s of d, within the scope above.
MEGAMOE_HD float scale_quotient(float x, const ScaleDivisor& d) { return scale_quotient_scaled(x * d.m, d); }

}  // namespace megamoe::formats
