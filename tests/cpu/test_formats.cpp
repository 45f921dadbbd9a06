// Tests of src/formats: bit-exact codecs (bf16, e4m3fn, e8m0fnu, e2m1) and the recipe
// quantizers (fp8_block 128x128 / 1x128, MX e8m0 per 32, NVFP4 e4m3 per 16 + global).
// The oracles here are written independently of the implementation: value tables from the
// format definitions, nearest-value search in double precision with explicit tie rules.
// tests/python/test_formats_mldtypes.py checks the same codecs against ml_dtypes.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "formats/codecs.h"
#include "formats/quantize.h"
#include "formats/scale_division.h"
#include "megamoe/errors.h"

namespace fm = megamoe::formats;

namespace {

uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }
float from_bits(uint32_t u) { return std::bit_cast<float>(u); }
const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// ---- independent value tables, straight from the format definitions -----------------------
// e4m3fn magnitude codes 0..0x7E: exponent field e (bias 7), mantissa m (3 bits).
double e4m3_ref_value(int mag) {
  const int e = mag >> 3, m = mag & 7;
  return e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1.0 + m / 8.0, e - 7);
}
// e2m1 magnitude codes 0..7.
double e2m1_ref_value(int mag) {
  static const double v[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  return v[mag];
}

// Nearest magnitude code for |x| among `count` ascending values, ties to the even code;
// a code == count means "rounded past the max" (the virtual next value `beyond`).
int nearest_code(double ax, int count, double (*value)(int), double beyond) {
  // binary search would do, but the tables are tiny: linear scan.
  for (int c = 0; c < count; ++c) {
    const double lo = value(c);
    const double hi = c + 1 < count ? value(c + 1) : beyond;
    if (ax < lo) return c;  // only for c == 0 (ax >= 0)
    if (ax <= hi) {
      const double dl = ax - lo, dh = hi - ax;
      if (dl < dh) return c;
      if (dh < dl) return c + 1;
      return (c % 2 == 0) ? c : c + 1;
    }
  }
  return count;
}

uint8_t e4m3_oracle(float x, bool saturate) {
  if (std::isnan(x)) return std::signbit(x) ? 0xFF : 0x7F;
  const uint8_t sign = std::signbit(x) ? 0x80 : 0;
  if (std::isinf(x)) return sign | (saturate ? 0x7E : 0x7F);
  int c = nearest_code(std::fabs(double(x)), 0x7F, e4m3_ref_value, 480.0);
  if (c == 0x7F) c = saturate ? 0x7E : 0x7F;
  return uint8_t(sign | c);
}

uint8_t e2m1_oracle(float x) {
  if (std::isnan(x)) return 0x7;
  const uint8_t sign = std::signbit(x) ? 0x8 : 0;
  if (std::isinf(x)) return sign | 0x7;
  const int c = nearest_code(std::fabs(double(x)), 8, e2m1_ref_value, 8.0);
  return uint8_t(sign | std::min(c, 7));
}

// bf16: the two candidates are the truncation and the next code; nearest, ties to even.
uint16_t bf16_oracle(float x) {
  if (std::isnan(x)) return std::signbit(x) ? 0xFFC0 : 0x7FC0;
  const uint32_t u = bits(x);
  const uint16_t lo = uint16_t(u >> 16);
  if ((u & 0xFFFF) == 0) return lo;
  const uint16_t hi = uint16_t(lo + 1);
  const double vx = x, vlo = from_bits(uint32_t(lo) << 16);
  // the next code may be inf (0x7F80/0xFF80): its "value" for rounding is 2^128.
  const double vhi = (hi & 0x7FFF) == 0x7F80 ? std::copysign(std::ldexp(1.0, 128), vx)
                                             : double(from_bits(uint32_t(hi) << 16));
  const double dl = std::fabs(vx - vlo), dh = std::fabs(vhi - vx);
  if (dl < dh) return lo;
  if (dh < dl) return hi;
  return (lo & 1) ? hi : lo;
}

std::vector<float> random_floats(uint64_t seed, size_t n, float lo_exp, float hi_exp) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
  std::uniform_real_distribution<float> ex(lo_exp, hi_exp);
  std::vector<float> v(n);
  for (auto& x : v) x = std::ldexp(mant(g), int(std::floor(ex(g))));
  return v;
}

std::vector<uint32_t> random_bits(uint64_t seed, size_t n) {
  std::mt19937_64 g(seed);
  std::vector<uint32_t> v(n);
  for (auto& u : v) u = uint32_t(g());
  return v;
}

// Error bound of e2m1 rounding (saturating) for y = |x| / scale.
double e2m1_abs_err_bound(double y) {
  if (y > 6.0) return y - 6.0;
  if (y <= 2.0) return 0.25;
  if (y <= 4.0) return 0.5;
  return 1.0;
}
// Error bound of e4m3 rounding (saturating) for y = |x| / scale.
double e4m3_abs_err_bound(double y) {
  if (y > 448.0) return y - 448.0;
  if (y < 0.015625) return std::ldexp(1.0, -10);  // half the subnormal step 2^-9
  return std::ldexp(1.0, int(std::floor(std::log2(y))) - 4);  // half an ulp: 2^(e-3)/2
}

// ---- compile-time checks of the inline encoders -----------------------------------------
static_assert(fm::detail::e2m1_encode(0.75f) == 2 && fm::detail::e2m1_encode(5.0f) == 6);
static_assert(fm::detail::e2m1_encode(-1.75f) == 0xC && fm::detail::e2m1_encode(1e30f) == 7);
static_assert(fm::detail::e4m3_encode(448.0f, false) == 0x7E);
static_assert(fm::detail::e4m3_encode(464.0f, false) == 0x7E);
static_assert(fm::detail::e4m3_encode(-500.0f, true) == 0xFE);
static_assert(fm::detail::e4m3_encode(-500.0f, false) == 0xFF);
static_assert(fm::detail::bf16_encode(1.0f) == 0x3F80);
static_assert(fm::detail::e8m0_encode(1.5f) == 128 && fm::detail::e8m0_encode(1.4999f) == 127);

}  // namespace

// =========================================================================================
// bf16
// =========================================================================================

TEST(FormatCodecBf16, DecodeIsTheUpperHalf) {
  for (uint32_t c = 0; c < 65536; ++c) {
    const float v = fm::bf16_bits_to_float(uint16_t(c));
    ASSERT_EQ(bits(v), c << 16) << std::hex << c;
  }
}

TEST(FormatCodecBf16, EveryCodeRoundTrips) {
  for (uint32_t c = 0; c < 65536; ++c) {
    const float v = fm::bf16_bits_to_float(uint16_t(c));
    const uint16_t back = fm::float_to_bf16_bits(v);
    if (std::isnan(v)) {
      ASSERT_EQ(back, (c & 0x8000) ? 0xFFC0 : 0x7FC0) << std::hex << c;
    } else {
      ASSERT_EQ(back, c) << std::hex << c;
    }
  }
}

TEST(FormatCodecBf16, RoundToNearestEvenTies) {
  // 1.0 + half a bf16 ulp (2^-8) is a tie between 0x3F80 (even) and 0x3F81.
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x3F808000)), 0x3F80);
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x3F818000)), 0x3F82);  // odd below: up
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x3F808001)), 0x3F81);  // just above the tie
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x3F807FFF)), 0x3F80);  // just below
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0xBF808000)), 0xBF80);  // negative tie
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0xBF818000)), 0xBF82);
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x00008000)), 0x0000);  // subnormal tie
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x00018000)), 0x0002);
  EXPECT_EQ(fm::round_to_bf16(1.00390625f), 1.0f);                    // 1 + 2^-8
  EXPECT_EQ(fm::round_to_bf16(1.01171875f), 1.015625f);              // 1 + 3*2^-8
  // Every midpoint between consecutive finite bf16 values goes to the even code.
  for (uint32_t c = 0; c < 0x7F7F; c += 7) {
    const uint32_t mid = (c << 16) | 0x8000;
    ASSERT_EQ(fm::float_to_bf16_bits(from_bits(mid)), (c & 1) ? c + 1 : c) << std::hex << c;
    ASSERT_EQ(fm::float_to_bf16_bits(from_bits(mid | 0x80000000u)),
              ((c & 1) ? c + 1 : c) | 0x8000)
        << std::hex << c;
  }
}

TEST(FormatCodecBf16, OverflowInfAndNaN) {
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x7F7FFFFF)), 0x7F80);  // FLT_MAX -> inf
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x7F7F7FFF)), 0x7F7F);  // stays the bf16 max
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x7F7F8000)), 0x7F80);  // tie, odd below: inf
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0xFF7FFFFF)), 0xFF80);
  EXPECT_EQ(fm::float_to_bf16_bits(kInf), 0x7F80);
  EXPECT_EQ(fm::float_to_bf16_bits(-kInf), 0xFF80);
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x7F800001)), 0x7FC0);  // sNaN -> canonical qNaN
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0x7FFFFFFF)), 0x7FC0);
  EXPECT_EQ(fm::float_to_bf16_bits(from_bits(0xFFC00001)), 0xFFC0);  // sign kept
  EXPECT_EQ(fm::float_to_bf16_bits(-0.0f), 0x8000);
  EXPECT_TRUE(std::isnan(fm::round_to_bf16(kNaN)));
}

TEST(FormatCodecBf16, RandomBitPatternsMatchOracle) {
  for (uint32_t u : random_bits(101, 400000)) {
    ASSERT_EQ(fm::float_to_bf16_bits(from_bits(u)), bf16_oracle(from_bits(u))) << std::hex << u;
  }
  for (float x : random_floats(102, 200000, -40, 40)) {
    ASSERT_EQ(fm::float_to_bf16_bits(x), bf16_oracle(x)) << x;
  }
}

// =========================================================================================
// e4m3fn
// =========================================================================================

TEST(FormatCodecE4m3, DecodeEveryCode) {
  for (int c = 0; c < 256; ++c) {
    const float v = fm::e4m3_to_float(uint8_t(c));
    const int mag = c & 0x7F;
    if (mag == 0x7F) {
      EXPECT_TRUE(std::isnan(v)) << c;
      EXPECT_EQ(std::signbit(v), c >= 0x80) << c;
      continue;
    }
    const double expect = (c & 0x80 ? -1.0 : 1.0) * e4m3_ref_value(mag);
    EXPECT_EQ(double(v), expect) << c;
    EXPECT_EQ(std::signbit(v), c >= 0x80) << c;  // 0x80 is -0.0
  }
  EXPECT_EQ(fm::e4m3_to_float(0x7E), 448.0f);
  EXPECT_EQ(fm::e4m3_to_float(0xFE), -448.0f);
  EXPECT_EQ(fm::e4m3_to_float(0x01), 0x1p-9f);
  EXPECT_EQ(fm::e4m3_to_float(0x07), 7 * 0x1p-9f);
  EXPECT_EQ(fm::e4m3_to_float(0x08), 0x1p-6f);
  EXPECT_EQ(fm::e4m3_to_float(0x38), 1.0f);
  EXPECT_EQ(fm::e4m3_to_float(0x3F), 1.875f);
}

TEST(FormatCodecE4m3, EveryCodeRoundTrips) {
  for (int c = 0; c < 256; ++c) {
    if ((c & 0x7F) == 0x7F) continue;
    const float v = fm::e4m3_to_float(uint8_t(c));
    EXPECT_EQ(fm::float_to_e4m3(v, true), c) << c;
    EXPECT_EQ(fm::float_to_e4m3(v, false), c) << c;
  }
}

TEST(FormatCodecE4m3, MidpointsRoundToEven) {
  for (int c = 0; c < 0x7E; ++c) {
    const float lo = fm::e4m3_to_float(uint8_t(c)), hi = fm::e4m3_to_float(uint8_t(c + 1));
    const float mid = (lo + hi) * 0.5f;  // exact in float32
    ASSERT_EQ(double(mid), (e4m3_ref_value(c) + e4m3_ref_value(c + 1)) / 2);
    const int even = (c % 2 == 0) ? c : c + 1;
    for (bool sat : {true, false}) {
      EXPECT_EQ(fm::float_to_e4m3(mid, sat), even) << c;
      EXPECT_EQ(fm::float_to_e4m3(-mid, sat), 0x80 | even) << c;
      EXPECT_EQ(fm::float_to_e4m3(std::nextafter(mid, 0.0f), sat), c) << c;
      EXPECT_EQ(fm::float_to_e4m3(std::nextafter(mid, 1e9f), sat), c + 1) << c;
    }
  }
  // Named cases: half the smallest subnormal ties to 0; 1 + 1/16 ties to 1.0; 1 + 3/16 -> 1.25.
  EXPECT_EQ(fm::float_to_e4m3(0x1p-10f), 0x00);
  EXPECT_EQ(fm::float_to_e4m3(3 * 0x1p-10f), 0x02);
  EXPECT_EQ(fm::float_to_e4m3(1.0625f), 0x38);
  EXPECT_EQ(fm::float_to_e4m3(1.1875f), 0x3A);
  EXPECT_EQ(fm::float_to_e4m3(0x1.1p-6f), 0x08);  // 1.0625*2^-6: tie of 0x08 / 0x09 -> 0x08
  EXPECT_EQ(fm::float_to_e4m3(0x1.3p-6f), 0x0A);  // 1.1875*2^-6: tie of 0x09 / 0x0A -> 0x0A
  EXPECT_EQ(fm::float_to_e4m3(from_bits(1)), 0x00);  // float32 subnormals -> 0
}

TEST(FormatCodecE4m3, SaturationAndNaN) {
  // 464 is the tie between 448 (0x7E, even) and the missing 480: it stays 448 in both modes.
  EXPECT_EQ(fm::float_to_e4m3(464.0f, false), 0x7E);
  EXPECT_EQ(fm::float_to_e4m3(464.0f, true), 0x7E);
  EXPECT_EQ(fm::float_to_e4m3(std::nextafter(464.0f, 1e9f), false), 0x7F);
  EXPECT_EQ(fm::float_to_e4m3(std::nextafter(464.0f, 1e9f), true), 0x7E);
  EXPECT_EQ(fm::float_to_e4m3(-1e30f, false), 0xFF);
  EXPECT_EQ(fm::float_to_e4m3(-1e30f, true), 0xFE);
  EXPECT_EQ(fm::float_to_e4m3(kInf, false), 0x7F);
  EXPECT_EQ(fm::float_to_e4m3(kInf, true), 0x7E);
  EXPECT_EQ(fm::float_to_e4m3(-kInf, true), 0xFE);
  EXPECT_EQ(fm::float_to_e4m3(kNaN, true), 0x7F);
  EXPECT_EQ(fm::float_to_e4m3(kNaN, false), 0x7F);
  EXPECT_EQ(fm::float_to_e4m3(-kNaN, true), 0xFF);
  EXPECT_EQ(fm::float_to_e4m3(from_bits(0x7F800001), true), 0x7F);
  EXPECT_EQ(fm::float_to_e4m3(-0.0f), 0x80);
}

TEST(FormatCodecE4m3, RandomValuesMatchOracle) {
  for (float x : random_floats(201, 300000, -14, 11)) {
    ASSERT_EQ(fm::float_to_e4m3(x, true), e4m3_oracle(x, true)) << x;
    ASSERT_EQ(fm::float_to_e4m3(x, false), e4m3_oracle(x, false)) << x;
  }
  for (uint32_t u : random_bits(202, 300000)) {
    const float x = from_bits(u);
    ASSERT_EQ(fm::float_to_e4m3(x, true), e4m3_oracle(x, true)) << std::hex << u;
    ASSERT_EQ(fm::float_to_e4m3(x, false), e4m3_oracle(x, false)) << std::hex << u;
  }
}

// =========================================================================================
// e8m0fnu
// =========================================================================================

TEST(FormatCodecE8m0, DecodeEveryCode) {
  for (int c = 0; c < 255; ++c) {
    EXPECT_EQ(double(fm::e8m0_to_float(uint8_t(c))), std::ldexp(1.0, c - 127)) << c;
  }
  EXPECT_TRUE(std::isnan(fm::e8m0_to_float(255)));
  EXPECT_EQ(bits(fm::e8m0_to_float(0)), 0x00400000u);  // 2^-127 is a float32 subnormal
  EXPECT_EQ(fm::e8m0_to_float(127), 1.0f);
}

TEST(FormatCodecE8m0, EveryCodeRoundTrips) {
  for (int c = 0; c < 255; ++c) {
    const float v = fm::e8m0_to_float(uint8_t(c));
    EXPECT_EQ(fm::float_to_e8m0(v), c) << c;
    EXPECT_EQ(fm::e8m0_floor_log2(v), c) << c;
    EXPECT_EQ(fm::e8m0_ceil_log2(v), c) << c;
  }
}

TEST(FormatCodecE8m0, CastRoundsToNearestPowerOfTwoTiesUp) {
  // Linear-domain nearest: [1, 1.5) -> 1, [1.5, 2) -> 2; the tie 1.5 * 2^e goes up.
  for (int e = -126; e <= 126; ++e) {
    const float p = std::ldexp(1.0f, e);
    ASSERT_EQ(fm::float_to_e8m0(1.5f * p), e + 128) << e;
    ASSERT_EQ(fm::float_to_e8m0(std::nextafter(1.5f * p, 0.0f)), e + 127) << e;
    ASSERT_EQ(fm::float_to_e8m0(1.25f * p), e + 127) << e;
    ASSERT_EQ(fm::float_to_e8m0(1.75f * p), e + 128) << e;
    ASSERT_EQ(fm::float_to_e8m0(std::nextafter(2.0f * p, 0.0f)), e + 128) << e;
  }
  EXPECT_EQ(fm::float_to_e8m0(1.41421356f), 127);  // not the log2 midpoint
  EXPECT_EQ(fm::float_to_e8m0(3.0f), 129);
  EXPECT_EQ(fm::float_to_e8m0(0.75f), 127);
  // float32 subnormals: <= 2^-127 -> code 0, above -> code 1.
  EXPECT_EQ(fm::float_to_e8m0(from_bits(1)), 0);
  EXPECT_EQ(fm::float_to_e8m0(from_bits(0x00400000)), 0);
  EXPECT_EQ(fm::float_to_e8m0(from_bits(0x00400001)), 0);  // subnormals: nearest of 2^-127, 2^-126
  EXPECT_EQ(fm::float_to_e8m0(from_bits(0x005FFFFF)), 0);
  EXPECT_EQ(fm::float_to_e8m0(from_bits(0x00600000)), 1);  // 1.5 * 2^-127: ties up
  EXPECT_EQ(fm::float_to_e8m0(from_bits(0x007FFFFF)), 1);
  // Overflow and specials -> NaN (255).
  EXPECT_EQ(fm::float_to_e8m0(0x1p127f), 254);
  EXPECT_EQ(fm::float_to_e8m0(0x1.8p127f), 255);
  EXPECT_EQ(fm::float_to_e8m0(std::nextafter(0x1.8p127f, 0.0f)), 254);
  for (float x : {0.0f, -0.0f, -1.0f, -0x1p-140f, kInf, -kInf, kNaN}) {
    EXPECT_EQ(fm::float_to_e8m0(x), 255) << x;
  }
}

TEST(FormatCodecE8m0, FloorAndCeilLog2Helpers) {
  EXPECT_EQ(fm::e8m0_floor_log2(1.0f), 127);
  EXPECT_EQ(fm::e8m0_floor_log2(1.999f), 127);
  EXPECT_EQ(fm::e8m0_floor_log2(0.5f), 126);
  EXPECT_EQ(fm::e8m0_ceil_log2(1.0f), 127);
  EXPECT_EQ(fm::e8m0_ceil_log2(1.0001f), 128);
  EXPECT_EQ(fm::e8m0_ceil_log2(0.75f), 127);
  EXPECT_EQ(fm::e8m0_floor_log2(std::numeric_limits<float>::max()), 254);
  EXPECT_EQ(fm::e8m0_ceil_log2(std::numeric_limits<float>::max()), 254);  // clamped at 2^127
  EXPECT_EQ(fm::e8m0_floor_log2(from_bits(1)), 0);   // 2^-149 clamps to 2^-127
  EXPECT_EQ(fm::e8m0_ceil_log2(from_bits(1)), 0);
  EXPECT_EQ(fm::e8m0_ceil_log2(from_bits(0x00400001)), 1);  // just above 2^-127
  EXPECT_EQ(fm::e8m0_floor_log2(from_bits(0x00400001)), 0);
  EXPECT_EQ(fm::e8m0_floor_log2(0.0f), 0);
  EXPECT_EQ(fm::e8m0_ceil_log2(-0.0f), 0);
  for (float x : {-1.0f, kInf, -kInf, kNaN}) {
    EXPECT_EQ(fm::e8m0_floor_log2(x), 255) << x;
    EXPECT_EQ(fm::e8m0_ceil_log2(x), 255) << x;
  }
  for (float x : random_floats(301, 100000, -149, 128)) {
    const float a = std::fabs(x);
    if (a == 0.0f) continue;
    int e = std::ilogb(a);  // floor(log2), exact (subnormals included)
    const int fl = std::clamp(e, -127, 127) + 127;
    const int ce = std::clamp(std::ldexp(1.0f, e) == a ? e : e + 1, -127, 127) + 127;
    ASSERT_EQ(fm::e8m0_floor_log2(a), fl) << a;
    ASSERT_EQ(fm::e8m0_ceil_log2(a), ce) << a;
  }
}

// =========================================================================================
// e2m1
// =========================================================================================

TEST(FormatCodecE2m1, DecodeEveryCode) {
  const float expect[16] = {0.0f,  0.5f,  1.0f,  1.5f,  2.0f,  3.0f,  4.0f,  6.0f,
                            -0.0f, -0.5f, -1.0f, -1.5f, -2.0f, -3.0f, -4.0f, -6.0f};
  for (int c = 0; c < 16; ++c) {
    EXPECT_EQ(fm::e2m1_to_float(uint8_t(c)), expect[c]) << c;
    EXPECT_EQ(std::signbit(fm::e2m1_to_float(uint8_t(c))), c >= 8) << c;
    EXPECT_EQ(fm::e2m1_to_float(uint8_t(c | 0xA0)), expect[c]) << c;  // high nibble ignored
  }
}

TEST(FormatCodecE2m1, EveryCodeRoundTrips) {
  for (int c = 0; c < 16; ++c) EXPECT_EQ(fm::float_to_e2m1(fm::e2m1_to_float(uint8_t(c))), c) << c;
}

TEST(FormatCodecE2m1, MidpointsRoundToEven) {
  // tie value, code of the lower neighbour; the tie goes to the even one of (lo, lo + 1)
  const std::pair<float, int> ties[] = {{0.25f, 0}, {0.75f, 1}, {1.25f, 2}, {1.75f, 3},
                                        {2.5f, 4},  {3.5f, 5},  {5.0f, 6}};
  const int expect_tie[] = {0, 2, 2, 4, 4, 6, 6};
  int i = 0;
  for (auto [x, lo] : ties) {
    ASSERT_EQ(double(x), (e2m1_ref_value(lo) + e2m1_ref_value(lo + 1)) / 2);
    EXPECT_EQ(fm::float_to_e2m1(x), expect_tie[i]) << x;
    EXPECT_EQ(fm::float_to_e2m1(-x), expect_tie[i] | 8) << x;
    EXPECT_EQ(fm::float_to_e2m1(std::nextafter(x, 0.0f)), lo) << x;
    EXPECT_EQ(fm::float_to_e2m1(std::nextafter(x, 100.0f)), lo + 1) << x;
    EXPECT_EQ(fm::float_to_e2m1(-std::nextafter(x, 100.0f)), (lo + 1) | 8) << x;
    ++i;
  }
}

TEST(FormatCodecE2m1, SaturationAndNaN) {
  EXPECT_EQ(fm::float_to_e2m1(6.0f), 0x7);
  EXPECT_EQ(fm::float_to_e2m1(6.5f), 0x7);
  EXPECT_EQ(fm::float_to_e2m1(7.0f), 0x7);
  EXPECT_EQ(fm::float_to_e2m1(1e30f), 0x7);
  EXPECT_EQ(fm::float_to_e2m1(-1e30f), 0xF);
  EXPECT_EQ(fm::float_to_e2m1(kInf), 0x7);
  EXPECT_EQ(fm::float_to_e2m1(-kInf), 0xF);
  EXPECT_EQ(fm::float_to_e2m1(kNaN), 0x7);   // documented: NaN -> +6
  EXPECT_EQ(fm::float_to_e2m1(-kNaN), 0x7);  // whatever its sign
  EXPECT_EQ(fm::float_to_e2m1(-0.0f), 0x8);
  EXPECT_EQ(fm::float_to_e2m1(-0.2f), 0x8);
  EXPECT_EQ(fm::float_to_e2m1(from_bits(1)), 0x0);
}

TEST(FormatCodecE2m1, RandomValuesMatchOracleAndPacking) {
  for (float x : random_floats(401, 300000, -4, 5)) {
    ASSERT_EQ(fm::float_to_e2m1(x), e2m1_oracle(x)) << x;
  }
  for (uint32_t u : random_bits(402, 300000)) {
    ASSERT_EQ(fm::float_to_e2m1(from_bits(u)), e2m1_oracle(from_bits(u))) << std::hex << u;
  }
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      const uint8_t p = fm::pack_e2m1(uint8_t(a), uint8_t(b));
      EXPECT_EQ(p, a + 16 * b);
      EXPECT_EQ(fm::unpack_e2m1(p, 0), a);
      EXPECT_EQ(fm::unpack_e2m1(p, 1), b);
      EXPECT_EQ(fm::unpack_e2m1(p, 6), a);
    }
  }
}

// =========================================================================================
// Quantizers
// =========================================================================================

namespace {

// A [rows, ld] matrix of bf16-valued floats whose magnitude changes per (row block, column
// block) by a random power of two in [lo_exp, hi_exp], so every block has its own scale.
// Columns K..ld-1 (padding) hold NaN: the quantizers must never read them.
std::vector<float> block_matrix(uint64_t seed, int64_t rows, int64_t K, int64_t ld, int64_t rb,
                                int64_t cb, int lo_exp, int hi_exp) {
  std::mt19937_64 g(seed);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  std::uniform_int_distribution<int> ed(lo_exp, hi_exp);
  const int64_t nrb = (rows + rb - 1) / rb, ncb = (K + cb - 1) / cb;
  std::vector<int> ex(size_t(nrb * ncb));
  for (auto& e : ex) e = ed(g);
  std::vector<float> m(size_t(rows * ld), kNaN);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t k = 0; k < K; ++k) {
      m[size_t(r * ld + k)] = fm::round_to_bf16(std::ldexp(nd(g), ex[size_t((r / rb) * ncb + k / cb)]));
    }
  }
  return m;
}

float block_amax(const std::vector<float>& m, int64_t ld, int64_t r0, int64_t r1, int64_t k0,
                 int64_t k1) {
  float a = 0.0f;
  for (int64_t r = r0; r < r1; ++r)
    for (int64_t k = k0; k < k1; ++k) a = std::max(a, std::fabs(m[size_t(r * ld + k)]));
  return a;
}

// Independent fp8_block scale rule.
float fp8_scale_oracle(float amax, bool ue8m0) {
  float s = amax / 448.0f;
  if (s == 0.0f) return 1.0f;
  if (ue8m0) {
    int e;
    const float f = std::frexp(s, &e);  // s = f * 2^e, f in [0.5, 1)
    s = (f == 0.5f) ? s : std::ldexp(1.0f, e);
  }
  return s;
}

// Checks every element of one fp8 block (rows r0..r1, columns k0..k1) against the rules.
void check_fp8_block(const std::vector<float>& x, int64_t ld, const std::vector<uint8_t>& codes,
                     int64_t code_ld, const std::vector<float>& deq, float s, bool ue8m0,
                     int64_t r0, int64_t r1, int64_t k0, int64_t k1) {
  const float amax = block_amax(x, ld, r0, r1, k0, k1);
  ASSERT_EQ(s, fp8_scale_oracle(amax, ue8m0)) << "block at " << r0 << "," << k0;
  if (ue8m0) {
    int e;
    ASSERT_EQ(std::frexp(s, &e), 0.5f);  // a power of two
  }
  bool saw_max = false;
  for (int64_t r = r0; r < r1; ++r) {
    for (int64_t k = k0; k < k1; ++k) {
      const float v = x[size_t(r * ld + k)];
      const uint8_t c = codes[size_t(r * code_ld + k)];
      ASSERT_EQ(c, e4m3_oracle(v / s, true)) << r << "," << k;
      ASSERT_NE(c & 0x7F, 0x7F);
      const float d = deq[size_t(r * code_ld + k)];
      ASSERT_EQ(d, fm::e4m3_to_float(c) * s);
      const double y = std::fabs(double(v)) / s;
      ASSERT_LE(std::fabs(double(d) - v), s * e4m3_abs_err_bound(y) * (1 + 1e-6) + std::fabs(v) * 0x1p-22)
          << r << "," << k << " x=" << v << " s=" << s;
      if (std::fabs(v) == amax && amax > 0) {
        saw_max = true;
        if (!ue8m0) {
          ASSERT_EQ(c & 0x7F, 0x7E) << "the block max must map to 448";
        } else {
          ASSERT_GE(c & 0x7F, 0x76);  // amax / s in [224, 448]
          ASSERT_LE(c & 0x7F, 0x7E);
        }
      }
    }
  }
  if (amax > 0) {
    ASSERT_TRUE(saw_max);
  }
}

}  // namespace

TEST(QuantFp8Block, ScaleRule) {
  EXPECT_EQ(fm::fp8_block_scale(0.0f, false), 1.0f);
  EXPECT_EQ(fm::fp8_block_scale(0.0f, true), 1.0f);
  EXPECT_EQ(fm::fp8_block_scale(448.0f, false), 1.0f);
  EXPECT_EQ(fm::fp8_block_scale(448.0f, true), 1.0f);
  EXPECT_EQ(fm::fp8_block_scale(3 * 448.0f, false), 3.0f);
  EXPECT_EQ(fm::fp8_block_scale(3 * 448.0f, true), 4.0f);
  EXPECT_EQ(fm::fp8_block_scale(1.0f, false), 1.0f / 448.0f);
  EXPECT_EQ(fm::fp8_block_scale(1.0f, true), 0x1p-8f);  // 1/448 -> 2^-8
  EXPECT_EQ(fm::fp8_block_scale(1e-44f, false), 1.0f);  // quotient underflows to 0
  EXPECT_TRUE(std::isnan(fm::fp8_block_scale(kNaN, false)));
  EXPECT_TRUE(std::isnan(fm::fp8_block_scale(kInf, true)));
}

TEST(QuantFp8Block, WeightScalesCodesAndErrorOnRandomData) {
  for (bool ue8m0 : {false, true}) {
    SCOPED_TRACE(ue8m0 ? "ue8m0" : "fp32 scales");
    const int64_t N = 300, K = 520;  // partial edge blocks in both dims
    const auto x = block_matrix(ue8m0 ? 11 : 12, N, K, K, 128, 128, -14, 14);
    const int64_t nrb = 3, nkb = 5;
    std::vector<uint8_t> codes(size_t(N * K), 0xAA);
    std::vector<float> scales(size_t(nrb * nkb), kNaN), deq(size_t(N * K), kNaN);
    fm::quantize_fp8_block_weight(x.data(), N, K, codes.data(), scales.data(), ue8m0);
    fm::dequantize_fp8_block_weight(codes.data(), scales.data(), N, K, deq.data());
    for (int64_t rb = 0; rb < nrb; ++rb) {
      for (int64_t kb = 0; kb < nkb; ++kb) {
        check_fp8_block(x, K, codes, K, deq, scales[size_t(rb * nkb + kb)], ue8m0, rb * 128,
                        std::min(N, rb * 128 + 128), kb * 128, std::min(K, kb * 128 + 128));
      }
    }
  }
}

TEST(QuantFp8Block, ActivationScalesCodesAndErrorOnRandomData) {
  for (bool ue8m0 : {false, true}) {
    SCOPED_TRACE(ue8m0 ? "ue8m0" : "fp32 scales");
    const int64_t M = 37, K = 300, ld = 320;  // NaN in the padding columns 300..319
    const auto x = block_matrix(ue8m0 ? 21 : 22, M, K, ld, 1, 128, -20, 20);
    const int64_t nkb = 3;
    std::vector<uint8_t> codes(size_t(M * K), 0xAA);
    std::vector<float> scales(size_t(M * nkb), kNaN), deq(size_t(M * K), kNaN);
    fm::quantize_fp8_act_1x128(x.data(), M, K, ld, codes.data(), scales.data(), ue8m0);
    fm::dequantize_fp8_act_1x128(codes.data(), scales.data(), M, K, deq.data());
    // check_fp8_block indexes x with ld and codes/deq with K.
    for (int64_t r = 0; r < M; ++r) {
      for (int64_t kb = 0; kb < nkb; ++kb) {
        check_fp8_block(x, ld, codes, K, deq, scales[size_t(r * nkb + kb)], ue8m0, r, r + 1,
                        kb * 128, std::min(K, kb * 128 + 128));
      }
    }
    double err = 0, ref = 0;
    for (int64_t r = 0; r < M; ++r)
      for (int64_t k = 0; k < K; ++k) {
        const double d = deq[size_t(r * K + k)] - x[size_t(r * ld + k)];
        err += d * d;
        ref += double(x[size_t(r * ld + k)]) * x[size_t(r * ld + k)];
      }
    EXPECT_LT(std::sqrt(err / ref), ue8m0 ? 0.06 : 0.04);  // e4m3: ~2-3% rel-L2 on Gaussians
    EXPECT_GT(std::sqrt(err / ref), 0.001);                 // and it did quantize
  }
}

TEST(QuantFp8Block, ZeroNaNInfAndTinyBlocks) {
  const int64_t N = 256, K = 512;  // 2 x 4 blocks
  auto x = block_matrix(31, N, K, K, 128, 128, -3, 3);
  auto clean = x;
  auto fill = [&](int64_t rb, int64_t kb, float v) {
    for (int64_t r = rb * 128; r < rb * 128 + 128; ++r)
      for (int64_t k = kb * 128; k < kb * 128 + 128; ++k) x[size_t(r * K + k)] = v;
  };
  fill(0, 1, 0.0f);
  x[size_t(5 * K + 130)] = -0.0f;                       // a negative zero in the zero block
  x[size_t(200 * K + 300)] = kNaN;                       // block (1, 2)
  x[size_t(130 * K + 5)] = -kInf;                        // block (1, 0)
  fill(0, 3, 1e-44f);                                    // amax/448 underflows: scale 1
  std::vector<uint8_t> codes(size_t(N * K));
  std::vector<float> scales(8), deq(size_t(N * K));
  fm::quantize_fp8_block_weight(x.data(), N, K, codes.data(), scales.data());
  fm::dequantize_fp8_block_weight(codes.data(), scales.data(), N, K, deq.data());
  std::vector<uint8_t> codes_c(size_t(N * K));
  std::vector<float> scales_c(8);
  fm::quantize_fp8_block_weight(clean.data(), N, K, codes_c.data(), scales_c.data());

  EXPECT_EQ(scales[1], 1.0f);
  EXPECT_EQ(scales[3], 1.0f);
  EXPECT_TRUE(std::isnan(scales[6]));
  EXPECT_TRUE(std::isnan(scales[4]));
  for (int64_t r = 0; r < N; ++r) {
    for (int64_t k = 0; k < K; ++k) {
      const int64_t b = (r / 128) * 4 + k / 128;
      const size_t i = size_t(r * K + k);
      if (b == 1) {
        ASSERT_EQ(codes[i], (r == 5 && k == 130) ? 0x80 : 0x00);
        ASSERT_EQ(deq[i], 0.0f);
      } else if (b == 3) {
        ASSERT_EQ(codes[i], 0x00);  // 1e-44 / 1 rounds to 0
        ASSERT_EQ(deq[i], 0.0f);
      } else if (b == 4 || b == 6) {
        ASSERT_EQ(codes[i], 0x7F) << "poisoned block: every code NaN";
        ASSERT_TRUE(std::isnan(deq[i]));
      } else {
        ASSERT_EQ(codes[i], codes_c[i]) << "other blocks unaffected";
        ASSERT_EQ(scales[size_t(b)], scales_c[size_t(b)]);
      }
    }
  }
  // A subnormal block scale still maps the max to 448.
  std::vector<float> tiny(128, 0.0f);
  tiny[7] = 1e-40f;
  tiny[9] = -0.5e-40f;
  std::vector<uint8_t> tc(128);
  float ts;
  fm::quantize_fp8_act_1x128(tiny.data(), 1, 128, 128, tc.data(), &ts);
  EXPECT_EQ(ts, 1e-40f / 448.0f);
  EXPECT_EQ(tc[7], 0x7E);
  EXPECT_EQ(tc[9], e4m3_oracle(-0.5e-40f / ts, true));
}

TEST(QuantFp8Block, InvalidArguments) {
  std::vector<float> x(256, 1.0f);
  std::vector<uint8_t> c(256);
  std::vector<float> s(4);
  EXPECT_THROW(fm::quantize_fp8_act_1x128(x.data(), 2, 128, 100, c.data(), s.data()),
               megamoe::InvalidArgument);
  EXPECT_THROW(fm::quantize_fp8_block_weight(x.data(), -1, 128, c.data(), s.data()),
               megamoe::InvalidArgument);
  EXPECT_NO_THROW(fm::quantize_fp8_block_weight(x.data(), 0, 128, c.data(), s.data()));
}

// ---- MX ------------------------------------------------------------------------------------

namespace {

uint8_t mx_scale_oracle(float amax, int emax) {
  if (amax == 0.0f) return 0;
  return uint8_t(std::clamp(std::ilogb(amax) - emax, -127, 127) + 127);
}

}  // namespace

TEST(QuantMx, ScaleRule) {
  using fm::MxElem;
  EXPECT_EQ(fm::mx_scale_code(6.0f, MxElem::kE2M1), 127);    // floor(log2 6) = 2 = emax
  EXPECT_EQ(fm::mx_scale_code(4.0f, MxElem::kE2M1), 127);
  EXPECT_EQ(fm::mx_scale_code(3.99f, MxElem::kE2M1), 126);
  EXPECT_EQ(fm::mx_scale_code(448.0f, MxElem::kE4M3), 127);  // floor(log2 448) = 8 = emax
  EXPECT_EQ(fm::mx_scale_code(1.0f, MxElem::kE4M3), 119);
  EXPECT_EQ(fm::mx_scale_code(0.0f, MxElem::kE4M3), 0);
  EXPECT_EQ(fm::mx_scale_code(0x1p-126f, MxElem::kE2M1), 0);  // clamped at 2^-127
  EXPECT_EQ(fm::mx_scale_code(0x1p-124f, MxElem::kE2M1), 1);
  EXPECT_EQ(fm::mx_scale_code(std::numeric_limits<float>::max(), MxElem::kE2M1), 252);
  EXPECT_EQ(fm::mx_scale_code(kNaN, MxElem::kE2M1), 255);
  EXPECT_EQ(fm::mx_scale_code(kInf, MxElem::kE4M3), 255);
}

TEST(QuantMx, ScalesCodesAndErrorOnRandomData) {
  for (auto elem : {fm::MxElem::kE2M1, fm::MxElem::kE4M3}) {
    const bool fp4 = elem == fm::MxElem::kE2M1;
    SCOPED_TRACE(fp4 ? "mxfp4" : "mxfp8");
    const int emax = fp4 ? 2 : 8;
    const int64_t M = 19, K = 320, ld = 352, nkb = K / 32;
    auto x = block_matrix(fp4 ? 41 : 42, M, K, ld, 1, 32, -30, 30);
    // one block deep in the float32 subnormal range: the exponent clamps to -127
    for (int64_t k = 64; k < 96; ++k) {
      x[size_t(3 * ld + k)] = std::ldexp(float((k * 37) % 64) - 31.5f, -140);
    }
    std::vector<uint8_t> codes(size_t(fp4 ? M * K / 2 : M * K), 0xAA), scales(size_t(M * nkb), 0xAA);
    std::vector<float> deq(size_t(M * K), kNaN);
    fm::quantize_mx(x.data(), M, K, ld, elem, codes.data(), scales.data());
    fm::dequantize_mx(codes.data(), scales.data(), M, K, elem, deq.data());
    int clamped_blocks = 0;
    for (int64_t r = 0; r < M; ++r) {
      for (int64_t kb = 0; kb < nkb; ++kb) {
        const float amax = block_amax(x, ld, r, r + 1, kb * 32, kb * 32 + 32);
        const uint8_t sc = scales[size_t(r * nkb + kb)];
        ASSERT_EQ(sc, mx_scale_oracle(amax, emax)) << r << "," << kb;
        const int e = int(sc) - 127;
        clamped_blocks += (std::ilogb(amax) - emax < -127);
        for (int64_t k = kb * 32; k < kb * 32 + 32; ++k) {
          const float v = x[size_t(r * ld + k)];
          const float y = float(std::ldexp(double(v), -e));  // exact, then one rounding
          const uint8_t c = fp4 ? fm::unpack_e2m1(codes[size_t(r * K / 2 + k / 2)], int(k & 1))
                                : codes[size_t(r * K + k)];
          ASSERT_EQ(c, fp4 ? e2m1_oracle(y) : e4m3_oracle(y, true)) << r << "," << k;
          const float ev = fp4 ? fm::e2m1_to_float(c) : fm::e4m3_to_float(c);
          const float d = deq[size_t(r * K + k)];
          ASSERT_EQ(double(d), std::ldexp(double(ev), e)) << "dequant is exact";
          const double ay = std::fabs(double(v)) / std::ldexp(1.0, e);
          const double bound = fp4 ? e2m1_abs_err_bound(ay) : e4m3_abs_err_bound(ay);
          ASSERT_LE(std::fabs(double(d) - v), std::ldexp(bound, e) * (1 + 1e-9)) << v;
          if (std::fabs(v) == amax && sc > 0) {
            // amax / 2^e is in [2^emax, 2^(emax+1)): the top of the format (clipping allowed)
            if (fp4) {
              ASSERT_TRUE(std::fabs(ev) == 4.0f || std::fabs(ev) == 6.0f) << ev;
            } else {
              ASSERT_GE(std::fabs(ev), 256.0f);
              ASSERT_LE(std::fabs(ev), 448.0f);
            }
          }
        }
      }
    }
    EXPECT_GE(clamped_blocks, 1);
  }
}

TEST(QuantMx, PackingOrderAndExactSmallExample) {
  // One row, one block: 0.5, 6, -3, 1.25 (tie -> 1.0), 7 (clips to 6), the rest 0.
  std::vector<float> x(32, 0.0f);
  x[0] = 0.5f;
  x[1] = 6.0f;
  x[2] = -3.0f;
  x[3] = 1.25f;
  x[4] = 7.0f;
  x[5] = -0.25f;  // tie -> -0
  std::vector<uint8_t> codes(16), scale(1);
  fm::quantize_mx(x.data(), 1, 32, 32, fm::MxElem::kE2M1, codes.data(), scale.data());
  EXPECT_EQ(scale[0], 127);  // amax 7: floor(log2 7) = 2 = emax -> 2^0
  EXPECT_EQ(codes[0], 0x71);  // element 0 (0.5 = 0x1) low, element 1 (6 = 0x7) high
  EXPECT_EQ(codes[1], 0x2D);  // -3 = 0xD low, 1.0 = 0x2 high
  EXPECT_EQ(codes[2], 0x87);  // 6 (clipped) low, -0 high
  for (int j = 3; j < 16; ++j) EXPECT_EQ(codes[size_t(j)], 0x00);
  std::vector<float> d(32);
  fm::dequantize_mx(codes.data(), scale.data(), 1, 32, fm::MxElem::kE2M1, d.data());
  EXPECT_EQ(d[0], 0.5f);
  EXPECT_EQ(d[1], 6.0f);
  EXPECT_EQ(d[2], -3.0f);
  EXPECT_EQ(d[3], 1.0f);
  EXPECT_EQ(d[4], 6.0f);
  EXPECT_TRUE(std::signbit(d[5]) && d[5] == 0.0f);

  // Same values times 2^-10: the scale moves, the codes do not.
  for (auto& v : x) v = std::ldexp(v, -10);
  std::vector<uint8_t> codes2(16), scale2(1);
  fm::quantize_mx(x.data(), 1, 32, 32, fm::MxElem::kE2M1, codes2.data(), scale2.data());
  EXPECT_EQ(scale2[0], 117);
  EXPECT_EQ(codes2, codes);

  // MXFP8: amax 500 -> floor(log2) = 8 -> scale 2^0; 500 saturates to 448, 1.0625 ties to 1.
  std::vector<float> y(32, 0.0f);
  y[0] = 500.0f;
  y[1] = 1.0625f;
  y[31] = -3.0f;
  std::vector<uint8_t> c8(32), s8(1);
  fm::quantize_mx(y.data(), 1, 32, 32, fm::MxElem::kE4M3, c8.data(), s8.data());
  EXPECT_EQ(s8[0], 127);
  EXPECT_EQ(c8[0], 0x7E);
  EXPECT_EQ(c8[1], 0x38);
  EXPECT_EQ(c8[31], 0xC4);  // -3 = -1.5 * 2^1: sign, exponent 8, mantissa 4
}

TEST(QuantMx, ZeroNaNInfBlocks) {
  for (auto elem : {fm::MxElem::kE2M1, fm::MxElem::kE4M3}) {
    const bool fp4 = elem == fm::MxElem::kE2M1;
    const int64_t M = 2, K = 128;
    auto x = block_matrix(51, M, K, K, 1, 32, -2, 2);
    for (int64_t k = 32; k < 64; ++k) x[size_t(k)] = 0.0f;  // row 0 block 1: zeros
    x[size_t(K + 70)] = kNaN;                                 // row 1 block 2
    x[size_t(K + 100)] = kInf;                                // row 1 block 3
    std::vector<uint8_t> codes(size_t(fp4 ? M * K / 2 : M * K)), scales(8);
    std::vector<float> deq(size_t(M * K));
    fm::quantize_mx(x.data(), M, K, K, elem, codes.data(), scales.data());
    fm::dequantize_mx(codes.data(), scales.data(), M, K, elem, deq.data());
    EXPECT_EQ(scales[1], 0);
    EXPECT_EQ(scales[6], 255);
    EXPECT_EQ(scales[7], 255);
    for (int64_t k = 0; k < K; ++k) {
      const uint8_t c0 = fp4 ? fm::unpack_e2m1(codes[size_t(k / 2)], int(k & 1)) : codes[size_t(k)];
      const uint8_t c1 = fp4 ? fm::unpack_e2m1(codes[size_t(K / 2 + k / 2)], int(k & 1))
                             : codes[size_t(K + k)];
      if (k >= 32 && k < 64) {
        EXPECT_EQ(c0, 0);
        EXPECT_EQ(deq[size_t(k)], 0.0f);
      }
      if (k >= 64) {
        EXPECT_EQ(c1, fp4 ? 0x7 : 0x7F) << k;
        EXPECT_TRUE(std::isnan(deq[size_t(K + k)])) << k;
      } else {
        EXPECT_FALSE(std::isnan(deq[size_t(K + k)])) << k;
      }
    }
  }
}

TEST(QuantMx, InvalidArguments) {
  std::vector<float> x(96, 1.0f);
  std::vector<uint8_t> c(96), s(3);
  EXPECT_THROW(fm::quantize_mx(x.data(), 1, 48, 48, fm::MxElem::kE2M1, c.data(), s.data()),
               megamoe::InvalidArgument);
  EXPECT_THROW(fm::quantize_mx(x.data(), 2, 64, 32, fm::MxElem::kE4M3, c.data(), s.data()),
               megamoe::InvalidArgument);
  std::vector<float> d(96);
  EXPECT_THROW(fm::dequantize_mx(c.data(), s.data(), 1, 40, fm::MxElem::kE4M3, d.data()),
               megamoe::InvalidArgument);
  try {
    fm::quantize_mx(x.data(), 1, 48, 48, fm::MxElem::kE2M1, c.data(), s.data());
    FAIL() << "no throw";
  } catch (const megamoe::InvalidArgument& e) {  // the message names argument, expected, got
    EXPECT_EQ(e.argument(), "quantize_mx: K");
    EXPECT_EQ(e.expected(), "a multiple of 32");
    EXPECT_EQ(e.actual(), "48");
  }
}

// ---- NVFP4 ---------------------------------------------------------------------------------

TEST(QuantNvfp4, GlobalScale) {
  auto x = random_floats(61, 10000, -8, 8);
  float amax = 0;
  for (float v : x) amax = std::max(amax, std::fabs(v));
  EXPECT_EQ(fm::nvfp4_global_scale(x.data(), int64_t(x.size())), amax / 2688.0f);
  x[17] = kNaN;  // non-finite elements are skipped
  x[99] = -kInf;
  EXPECT_EQ(fm::nvfp4_global_scale(x.data(), int64_t(x.size())), amax / 2688.0f);
  std::vector<float> z(64, 0.0f);
  EXPECT_EQ(fm::nvfp4_global_scale(z.data(), 64), 1.0f);
  EXPECT_EQ(fm::nvfp4_global_scale(z.data(), 0), 1.0f);
}

TEST(QuantNvfp4, ScalesCodesAndErrorOnRandomData) {
  const int64_t M = 13, K = 256, ld = 272, nkb = K / 16;
  auto x = block_matrix(71, M, K, ld, 1, 16, -9, 6);
  std::vector<float> contig(size_t(M * K));
  for (int64_t r = 0; r < M; ++r)
    for (int64_t k = 0; k < K; ++k) contig[size_t(r * K + k)] = x[size_t(r * ld + k)];
  const float g = fm::nvfp4_global_scale(contig.data(), M * K);
  const float tensor_amax = block_amax(contig, K, 0, M, 0, K);
  ASSERT_EQ(g, tensor_amax / 2688.0f);
  std::vector<uint8_t> codes(size_t(M * K / 2), 0xAA), scales(size_t(M * nkb), 0xAA);
  std::vector<float> deq(size_t(M * K), kNaN), deq1(size_t(M * K), kNaN);
  fm::quantize_nvfp4(x.data(), M, K, ld, g, codes.data(), scales.data());
  fm::dequantize_nvfp4(codes.data(), scales.data(), g, M, K, deq.data());
  fm::dequantize_nvfp4(codes.data(), scales.data(), 1.0f, M, K, deq1.data());
  int zero_scale_blocks = 0, global_max_blocks = 0;
  for (int64_t r = 0; r < M; ++r) {
    for (int64_t kb = 0; kb < nkb; ++kb) {
      const float amax = block_amax(x, ld, r, r + 1, kb * 16, kb * 16 + 16);
      const uint8_t sc = scales[size_t(r * nkb + kb)];
      ASSERT_EQ(sc, e4m3_oracle((amax / 6.0f) / g, true)) << r << "," << kb;
      if (amax == tensor_amax) {
        ASSERT_EQ(sc, 0x7E) << "the tensor max block gets scale 448";
        ++global_max_blocks;
      }
      const float s = fm::e4m3_to_float(sc) * g;
      zero_scale_blocks += (s == 0.0f);
      for (int64_t k = kb * 16; k < kb * 16 + 16; ++k) {
        const float v = x[size_t(r * ld + k)];
        const uint8_t c = fm::unpack_e2m1(codes[size_t(r * K / 2 + k / 2)], int(k & 1));
        ASSERT_EQ(c, s == 0.0f ? 0 : e2m1_oracle(v / s)) << r << "," << k;
        const float ev = fm::e2m1_to_float(c);
        ASSERT_EQ(deq[size_t(r * K + k)], (ev * fm::e4m3_to_float(sc)) * g);
        ASSERT_EQ(deq1[size_t(r * K + k)], ev * fm::e4m3_to_float(sc));
        if (s > 0) {
          const double ay = std::fabs(double(v)) / s;
          ASSERT_LE(std::fabs(double(deq[size_t(r * K + k)]) - v),
                    s * e2m1_abs_err_bound(ay) * (1 + 1e-6) + std::fabs(v) * 0x1p-22)
              << v;
          // A normal e4m3 scale is within 1/16 of amax/6: the block max lands on 6.
          if (std::fabs(v) == amax && sc >= 0x08 && sc < 0x7E) {
            ASSERT_EQ(c & 7, 7) << v;
          }
        } else {
          ASSERT_LE(std::fabs(v), g * 0x1p-10f * 6.0f);  // the block was below the scale grid
        }
      }
    }
  }
  EXPECT_GE(global_max_blocks, 1);
}

TEST(QuantNvfp4, ZeroNaNTinyBlocksAndPacking) {
  const int64_t K = 64;
  std::vector<float> x(K, 0.0f);
  // block 0: exact small example with g = 1: amax 6 -> scale e4m3(1) = 0x38
  const float b0[16] = {0.5f, 6.0f, -3.0f, 1.25f, 0.25f, -5.0f, 2.5f, 1.75f};
  for (int i = 0; i < 16; ++i) x[size_t(i)] = b0[i];
  // block 1 zeros; block 2 NaN; block 3 tiny (scale rounds to 0)
  x[40] = kNaN;
  x[50] = 1e-6f;
  std::vector<uint8_t> codes(K / 2), scales(4);
  fm::quantize_nvfp4(x.data(), 1, K, K, 1.0f, codes.data(), scales.data());
  EXPECT_EQ(scales[0], 0x38);
  EXPECT_EQ(codes[0], 0x71);  // 0.5 low, 6 high
  EXPECT_EQ(codes[1], 0x2D);  // -3 low, 1.25 -> 1.0 high
  EXPECT_EQ(codes[2], 0xE0);  // 0.25 -> 0 low, -5 -> -4 (0xE) high
  EXPECT_EQ(codes[3], 0x44);  // 2.5 -> 2, 1.75 -> 2
  EXPECT_EQ(scales[1], 0x00);
  EXPECT_EQ(scales[2], 0x7F);
  EXPECT_EQ(scales[3], 0x00);
  for (int j = 8; j < 16; ++j) EXPECT_EQ(codes[size_t(j)], 0x00);
  for (int j = 16; j < 24; ++j) EXPECT_EQ(codes[size_t(j)], 0x77);
  for (int j = 24; j < 32; ++j) EXPECT_EQ(codes[size_t(j)], 0x00);
  std::vector<float> d(K);
  fm::dequantize_nvfp4(codes.data(), scales.data(), 1.0f, 1, K, d.data());
  EXPECT_EQ(d[1], 6.0f);
  EXPECT_EQ(d[5], -4.0f);
  for (int k = 32; k < 48; ++k) EXPECT_TRUE(std::isnan(d[size_t(k)]));
  for (int k = 48; k < 64; ++k) EXPECT_EQ(d[size_t(k)], 0.0f);
}

TEST(QuantNvfp4, InvalidArguments) {
  std::vector<float> x(64, 1.0f);
  std::vector<uint8_t> c(32), s(4);
  for (float g : {0.0f, -1.0f, kNaN, kInf}) {
    EXPECT_THROW(fm::quantize_nvfp4(x.data(), 1, 64, 64, g, c.data(), s.data()),
                 megamoe::InvalidArgument);
  }
  EXPECT_THROW(fm::quantize_nvfp4(x.data(), 1, 24, 24, 1.0f, c.data(), s.data()),
               megamoe::InvalidArgument);
}

// formats/scale_division.h: the quantizers' x / s through the block's reciprocal equals the IEEE
// quotient over every exponent of s in its scope (2^-149 .. FLT_MAX / 448, random significands, with the
// significand extremes), for x spread over |x| <= 448 s, x of any magnitude down to subnormals,
// x next to e4m3 rounding midpoints times s (the quotients where one ulp changes a code), and
// signed zeros; the only differences allowed are both results below 2^-11 with the same sign (the
// same e4m3 code, a signed zero). The GPU runs the same code (Fp8Quant.* check its codes).
TEST(ScaleDivision, ReciprocalQuotientEqualsIeeeDivision) {
  std::mt19937_64 rng(0x5CA1EDu);
  int64_t n = 0, tiny_only = 0;
  for (int e = -149; e <= 119; ++e) {
    for (int k = 0; k < 3000; ++k) {
      const uint32_t sig = k == 0 ? 0u : (k == 1 ? 0x7FFFFFu : uint32_t(rng()) & 0x7FFFFFu);
      // e < -126: subnormal scales (significand bits only, the exponent's weight at bit e + 149)
      const float s = e >= -126 ? std::bit_cast<float>((uint32_t(e + 127) << 23) | sig)
                                : std::bit_cast<float>((sig | 0x800000u) >> (-126 - e));
      if (!(s > 0.0f) || s > std::numeric_limits<float>::max() / 448.0f) continue;  // a block's amax / 448
      const fm::ScaleDivisor d = fm::scale_divisor(s);
      for (int j = 0; j < 8; ++j) {
        const uint64_t v = rng();
        float x;
        if (j < 3) {
          x = s * 448.0f * (float(v >> 40) / float(1 << 24));
        } else if (j == 3) {
          x = std::bit_cast<float>(uint32_t(v >> 33));  // any magnitude below 2^0..2^127
          if (!(std::fabs(x) <= 448.0f * s)) x = std::ldexp(x, -160);  // into range (down to 0)
        } else if (j < 7) {  // next to a midpoint of e4m3 codes, times s, +-3 ulps
          const float mid = std::ldexp(1.0f + float((v >> 8) % 16) / 16.0f + 1.0f / 32.0f, int(v % 19) - 10);
          x = std::bit_cast<float>(std::bit_cast<uint32_t>(mid * s) + uint32_t(int((v >> 20) % 7) - 3));
          if (!(std::fabs(x) <= 448.0f * s)) x = 448.0f * s;
        } else {
          x = 0.0f;
        }
        if (v & 4) x = -x;
        const float q = fm::scale_quotient(x, d), want = x / s;
        ++n;
        if (std::isnan(x)) {  // (j == 3's bits may be a NaN: outside the scope; a NaN, of either sign)
          ASSERT_TRUE(std::isnan(q)) << "x NaN: " << q;
          continue;
        }
        if (std::bit_cast<uint32_t>(q) == std::bit_cast<uint32_t>(want)) continue;
        const bool tiny = std::fabs(q) < 0x1p-11f && std::fabs(want) < 0x1p-11f && std::signbit(q) == std::signbit(want);
        tiny_only += tiny;
        ASSERT_TRUE(tiny) << "s " << std::hexfloat << s << " x " << x << ": " << q << ", IEEE " << want;
      }
    }
  }
  EXPECT_GT(n, 6000000);
  EXPECT_LT(tiny_only, n / 1000);  // rare: x at most ~2^-91 against a scale of 2^-80 or more
}
