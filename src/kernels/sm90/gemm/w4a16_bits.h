// The W4A16 register decode's bit contract, in one place the host and the device share: where
// w4a16_prepare_weights puts the e2m1 code bits of each 32-bit word of fragment-order bytes, how
// the kernels read a bf16 pair back (decode_pairs), and the factor bytes w4a16_prepare_scales
// writes for the block scales. Plain integer code (MEGAMOE_HD): the prepare kernel, the GEMM and
// Mega kernels (grouped_gemm_w4a16_common.cuh) and the CPU tests (tests/cpu/test_w4a16_bits.cpp)
// all include it.
//
// A fragment-order word holds four bf16 pairs (A-fragment registers j = 0..3: byte j, element
// 2i in the low nibble). Prepared, the pairs come back as
//   pair j = rotr(word, pair_rot(j)) & kPairMask                          j = 0, 1, 2
//   pair 3 = (rotr(word, 6) & kPair3MaskA) | (rotr(word, 14) & kPair3MaskB)
// kPairMask keeps, in each bf16 half, bit 15 (the e2m1 sign) and bits 8..6 (its two exponent bits
// and its mantissa bit): a bf16 with only those bits is exactly e2m1 * 2^-126 for every code
// (exponent 0 lands on bf16 subnormals, as e2m1's subnormal 0.5 should). No rotation tiles the
// word with that mask (checked exhaustively, 64-bit funnel windows included), so pair 3 takes its
// bits from two rotations: 9 ALU instructions per 4 pairs.
#pragma once
#include <cstdint>

#include "core/host_device.h"

// `#pragma unroll` for nvcc only (host compilers would warn about an unknown pragma).
#if defined(__CUDACC__)
#define MEGAMOE_W4A16_UNROLL _Pragma("unroll")
#else
#define MEGAMOE_W4A16_UNROLL
#endif

namespace megamoe::sm90::w4a16 {

constexpr uint32_t kPairMask = 0x81C081C0u;
constexpr uint32_t kPair3MaskB = 0x00400040u;               // bits 6 and 22 (mantissa): from rotr 14
constexpr uint32_t kPair3MaskA = kPairMask & ~kPair3MaskB;  // the other six: from rotr 6
constexpr int kPair3RotA = 6, kPair3RotB = 14;
MEGAMOE_HD constexpr int pair_rot(int j) { return j == 0 ? 0 : (j == 1 ? 4 : 10); }  // j < 3

MEGAMOE_HD uint32_t rotr32(uint32_t w, int s) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(w, w, s);  // SHF.R.W: one instruction
#else
  return s == 0 ? w : (w >> s) | (w << (32 - s));
#endif
}

MEGAMOE_HD void decode_pairs(uint32_t w, uint32_t& p0, uint32_t& p1, uint32_t& p2, uint32_t& p3) {
  p0 = w & kPairMask;
  p1 = rotr32(w, pair_rot(1)) & kPairMask;
  p2 = rotr32(w, pair_rot(2)) & kPairMask;
  p3 = (rotr32(w, kPair3RotA) & kPair3MaskA) | (rotr32(w, kPair3RotB) & kPair3MaskB);
}

// The bit of a prepared word that decode_pairs reads for bit p (of kPairMask) of pair j.
MEGAMOE_HD int prepared_bit(int j, int p) {
  const int rot = j < 3 ? pair_rot(j) : (((kPair3MaskB >> p) & 1u) ? kPair3RotB : kPair3RotA);
  return (p + rot) & 31;
}

// A fragment-order word -> its prepared bits: code bit b (0 mantissa, 1-2 exponent, 3 sign) of
// byte j's low / high nibble goes where decode_pairs reads bf16 bit 6, 7, 8 or 15 of pair j's
// low / high half.
MEGAMOE_HD uint32_t place_pair_bits(uint32_t word) {
  uint32_t placed = 0;
  MEGAMOE_W4A16_UNROLL
  for (int j = 0; j < 4; ++j)
    MEGAMOE_W4A16_UNROLL
    for (int h = 0; h < 2; ++h)
      MEGAMOE_W4A16_UNROLL
      for (int bit = 0; bit < 4; ++bit) {
        const uint32_t v = (word >> (8 * j + 4 * h + bit)) & 1u;
        const int pos = bit == 3 ? 15 : 6 + bit;
        placed |= v << prepared_bit(j, pos + 16 * h);
      }
  return placed;
}

// Factor bytes: one byte per block scale; the kernels form the bf16 multiplier of a decoded pair
// as byte * kMul + kAdd in each half (one PRMT puts the byte in both halves, one IMAD does the
// rest) and apply it with one HMUL2.
//   mxfp4: byte b = e8m0 code - k (k per expert, alpha = 2^k): bits (b + 126) << 7 = 2^(b - 1)
//   nvfp4: byte b = (exponent + 9) << 3 | 3 mantissa bits of |e4m3|: bits = |scale| * 2^117
//          (exponent field 235 + (b >> 3)); alpha = global scale * 2^9
//   a NaN scale: the byte whose bits are 0x7F80 (+inf; mxfp4 129, nvfp4 160) over codes zeroed
//          at preparation, so every product of the block is inf * 0 = NaN
// The products are exact: e2m1 * 2^(b-127) (b <= 128) and e2m1 * |e4m3| * 2^-9 (6 significant
// bits, above 2^-19) are bf16 values, and the multiply of a subnormal by a power of two or an
// e4m3 value rounds nothing.
constexpr uint32_t kMxMul = 128u, kMxAdd = (126u << 7) * 0x10001u;
constexpr uint32_t kNvMul = 16u, kNvAdd = (235u << 7) * 0x10001u;
constexpr uint8_t kMxMaxFactorByte = 128, kNvMaxFactorByte = 143;  // finite scales
constexpr uint8_t kInfFactorMx = 129, kInfFactorNv = 160;          // NaN scales

// bf16x2 bits of the multiplier of factor byte b (both halves).
MEGAMOE_HD uint32_t factor_bits(bool nvfp4, uint32_t b) {
  const uint32_t dup = b | (b << 16);
  return nvfp4 ? dup * kNvMul + kNvAdd : dup * kMxMul + kMxAdd;
}

// e4m3 code -> the nvfp4 factor byte of its magnitude: subnormal codes (m * 2^-9) normalised.
// Nonzero, non-NaN magnitudes only (zero and NaN scales are handled by the caller).
MEGAMOE_HD uint8_t nvfp4_factor_byte(uint8_t code) {
  const int e = (code >> 3) & 15, m = code & 7;
  if (e > 0) return uint8_t(((e - 7 + 9) << 3) | m);
  const int lead = m >= 4 ? 2 : (m >= 2 ? 1 : 0);  // m * 2^-9 = 1.xxx * 2^(lead - 9)
  return uint8_t((lead << 3) | ((m << (3 - lead)) & 7));
}

}  // namespace megamoe::sm90::w4a16
