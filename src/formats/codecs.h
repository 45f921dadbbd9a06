// Bit-exact scalar codecs (CPU; the __host__ __device__ twins used by kernels must agree
// bit for bit). Rounding is round-to-nearest, ties to even (RNE), everywhere except the
// e8m0 cast and the e8m0 exponent helpers, whose rules are spelled out below. docs/FORMATS.md has the bit layouts, the
// value tables and the list of edges where we knowingly differ from ml_dtypes (only:
// NaN -> e2m1, and the saturating e4m3 mode, which ml_dtypes does not have).
//
// The encoders assume the default floating-point environment (round-to-nearest); they do
// not depend on denormals being kept or flushed.
#pragma once
#include <bit>
#include <cstdint>

namespace megamoe::formats {

// bfloat16: the upper 16 bits of an IEEE float. RNE on the dropped 16 bits (so values
// past the bf16 max round to +-inf exactly as IEEE says); +-inf stay +-inf; NaN ->
// canonical quiet NaN with the sign kept (0x7FC0 / 0xFFC0, payload dropped). Equal to
// ml_dtypes.bfloat16 for every float32 bit pattern. Decode is exact (bits << 16).
uint16_t float_to_bf16_bits(float x);
float bf16_bits_to_float(uint16_t bits);
inline float round_to_bf16(float x) { return bf16_bits_to_float(float_to_bf16_bits(x)); }

// float8_e4m3fn: 1 sign, 4 exponent (bias 7), 3 mantissa; subnormals (exponent 0) are
// m * 2^-9; no infinities; 0x7F/0xFF = NaN; max finite 448 (0x7E). Encoding rounds RNE
// first (464, the midpoint of 448 and the missing 480, is a tie and rounds to 448); a
// result beyond 448 (|x| > 464) and +-inf then become:
//   saturate = true : +-448 (0x7E / 0xFE)            (the recipes' quantizers use this)
//   saturate = false: NaN   (0x7F / 0xFF)            (== ml_dtypes.float8_e4m3fn casts)
// NaN -> 0x7F, sign kept (0xFF for negative NaN) in both modes. -0.0 -> 0x80.
// Decode gives the exact value; 0x7F/0xFF decode to a quiet NaN of that sign.
uint8_t float_to_e4m3(float x, bool saturate = true);
float e4m3_to_float(uint8_t code);

// float8_e8m0fnu: a power of two 2^(code-127), code 0..254; 255 = NaN. No sign, no zero.
// float_to_e8m0 is the plain cast, equal to ml_dtypes.float8_e8m0fnu for every float32
// bit pattern: for x > 0 it keeps x's biased exponent field and adds one when the dropped
// significand rounds up, i.e. RNE of the significand to an integer with the implicit bit
// as its last bit. For normal x that means "nearest power of two in linear terms, ties
// (1.5 * 2^e) up": [1, 1.5) -> 1, [1.5, 2) -> 2. For float32 subnormals (x < 2^-126) the same
// rule between 2^-127 and 2^-126: x < 1.5 * 2^-127 -> code 0, else code 1 (ml_dtypes >= 0.7;
// 0.5-0.6 gave code 1 from just above 2^-127). Overflow (x >= 1.5 * 2^127) -> 255 (NaN).
// NaN, +-inf, negative numbers and +-0 -> 255 (NaN).
// The quantizers do not use this cast; they use the two exponent helpers below.
uint8_t float_to_e8m0(float x);
// code 0 -> 2^-127 (a float32 subnormal), 1..254 -> 2^(code-127) exactly, 255 -> NaN.
float e8m0_to_float(uint8_t code);

// Exponent helpers for scale choice (exact integer arithmetic on the float's bits).
// For finite x > 0: code = clamp(floor(log2(x)), -127, 127) + 127 (resp. ceil(log2(x))).
// x == +-0 -> 0 (the smallest scale, 2^-127). NaN, +-inf, x < 0 -> 255 (NaN).
// e8m0_floor_log2(amax) - emax is the OCP MX shared exponent (see quantize.h);
// e8m0_ceil_log2 gives the power of two >= x used by the ue8m0 fp8_block scales.
uint8_t e8m0_floor_log2(float x);
uint8_t e8m0_ceil_log2(float x);

// e2m1 (FP4): 1 sign, 2 exponent (bias 1), 1 mantissa. Codes 0..7 are
// 0, 0.5, 1, 1.5, 2, 3, 4, 6; bit 3 is the sign (0x8 = -0). Encoding is RNE and
// saturating: |x| beyond 6 (incl. +-inf) -> +-6 (equal to ml_dtypes.float4_e2m1fn).
// NaN -> 0x7 (+6) whatever its sign: FP4 has no NaN. (ml_dtypes gives 0x8 for +NaN and
// 0x0 for -NaN; a documented, intentional difference. The MX/NVFP4 quantizers never rely
// on it: a block holding NaN gets a NaN scale.) Code in the low 4 bits; decode ignores
// the high 4 bits.
uint8_t float_to_e2m1(float x);
float e2m1_to_float(uint8_t code);

// Packed FP4: element 2j in the low nibble of byte j, element 2j+1 in the high nibble.
inline uint8_t pack_e2m1(uint8_t even, uint8_t odd) { return uint8_t((even & 0xF) | ((odd & 0xF) << 4)); }
inline uint8_t unpack_e2m1(uint8_t byte, int index) { return (index & 1) ? (byte >> 4) : (byte & 0xF); }

// ---- inline, branch-free twins of the encoders (for hot loops; identical results) -----
// The public functions above call these. They vectorize well; the quantizers use them.
namespace detail {

constexpr uint32_t f2u(float x) { return std::bit_cast<uint32_t>(x); }
constexpr float u2f(uint32_t u) { return std::bit_cast<float>(u); }
// c ? a : b as bit arithmetic (keeps the hot loops free of branches, so they vectorize).
constexpr uint32_t sel(bool c, uint32_t a, uint32_t b) { return b ^ ((a ^ b) & (0u - uint32_t(c))); }

constexpr uint16_t bf16_encode(float x) {
  const uint32_t u = f2u(x);
  const uint32_t rounded = (u + 0x7FFFu + ((u >> 16) & 1u)) >> 16;
  const uint32_t nan = ((u >> 16) & 0x8000u) | 0x7FC0u;
  return uint16_t(sel((u & 0x7FFFFFFFu) > 0x7F800000u, nan, rounded));
}

// Shared by e4m3 and e2m1: magnitude code of |x| (bits a <= inf, no sign) for a format
// with M mantissa bits and exponent bias B. Values below the smallest normal 2^(1-B) are
// rounded on the subnormal grid by adding the float32 2^(1-B-M+23), whose ulp is the
// subnormal step 2^(1-B-M): the FPU does the RNE, and the code is the difference of the
// bit patterns. Larger values rebias the exponent and round the dropped 23-M mantissa
// bits to nearest even; the carry may bump the exponent (and may pass the format max:
// the callers clamp).
template <int M, int B>
constexpr uint32_t small_float_magnitude(uint32_t a) {
  constexpr uint32_t kMinNormalBits = uint32_t(127 + 1 - B) << 23;
  constexpr uint32_t kMagicBits = uint32_t(127 + (1 - B - M) + 23) << 23;
  constexpr uint32_t kDrop = 23 - M;
  const uint32_t normal =
      (a - (uint32_t(127 - B) << 23) + ((1u << (kDrop - 1)) - 1u) + ((a >> kDrop) & 1u)) >> kDrop;
  const bool small = a < kMinNormalBits;
  const uint32_t sub = f2u(u2f(sel(small, a, 0u)) + u2f(kMagicBits)) - kMagicBits;
  return sel(small, sub, normal);
}

constexpr uint8_t e4m3_encode(float x, bool saturate) {
  const uint32_t u = f2u(x);
  const uint32_t a = u & 0x7FFFFFFFu;
  const uint32_t sign = (u >> 24) & 0x80u;
  uint32_t m = small_float_magnitude<3, 7>(a < 0x7F800000u ? a : 0x7F800000u);
  m = sel(m > 0x7Eu, saturate ? 0x7Eu : 0x7Fu, m);
  m = sel(a > 0x7F800000u, 0x7Fu, m);
  return uint8_t(sign | m);
}

constexpr uint8_t e2m1_encode(float x) {
  const uint32_t u = f2u(x);
  const uint32_t a = u & 0x7FFFFFFFu;
  const uint32_t sign = (u >> 28) & 0x8u;
  uint32_t m = small_float_magnitude<1, 1>(a < 0x7F800000u ? a : 0x7F800000u);
  m = m > 7u ? 7u : m;
  return uint8_t(sel(a > 0x7F800000u, 0x7u, sign | m));
}

constexpr uint8_t e8m0_encode(float x) {
  const uint32_t u = f2u(x);
  const uint32_t e = u >> 23;  // sign bit included: negatives give e >= 256
  const uint32_t m = u & 0x7FFFFFu;
  // Normal x: ties (1.5 * 2^e) up. Subnormal x: the nearest of 2^-127 (code 0) and 2^-126, ties up.
  const uint32_t up = e != 0u ? uint32_t((m & 0x400000u) != 0u) : uint32_t(m >= 0x600000u);
  const uint32_t code = e + up;
  return uint8_t((u == 0u || e >= 255u || code > 255u) ? 255u : code);
}

}  // namespace detail
}  // namespace megamoe::formats
