// The W4A16 register decode's bit contract (src/kernels/sm90/gemm/w4a16_bits.h), on the host:
// the prepared bits decode to e2m1 * 2^-126 for every code in every position, the factor bytes
// give the multipliers they promise, and every product the kernels form is a bf16 value (so the
// GPU's HMUL2 rounds nothing). The GPU side of the same contract: W4A16.DecodeIsExact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "formats/codecs.h"
#include "kernels/sm90/gemm/w4a16_bits.h"

namespace megamoe {
namespace {

using namespace sm90::w4a16;

// The bf16 bits a decoded e2m1 code must have: the sign at bit 15, exponent and mantissa at 8..6.
uint32_t want_half(uint32_t code) { return ((code & 8u) << 12) | ((code & 7u) << 6); }

TEST(W4A16Bits, PlacedPairsDecodeToE2m1Times2PowMinus126) {
  std::mt19937 rng(1);
  for (int j = 0; j < 4; ++j)
    for (uint32_t b = 0; b < 256; ++b) {
      const uint32_t word = (rng() & ~(0xFFu << (8 * j))) | (b << (8 * j));
      uint32_t p[4];
      decode_pairs(place_pair_bits(word), p[0], p[1], p[2], p[3]);
      for (int q = 0; q < 4; ++q) {
        const uint32_t byte = (word >> (8 * q)) & 0xFFu;
        ASSERT_EQ(p[q], want_half(byte & 15u) | (want_half(byte >> 4) << 16)) << "pair " << q << " byte " << byte;
      }
      // The bits are exactly e2m1 * 2^-126 (subnormals included).
      const float lo = formats::bf16_bits_to_float(uint16_t(p[j] & 0xFFFFu));
      ASSERT_EQ(lo, std::ldexp(formats::e2m1_to_float(uint8_t(b & 15u)), -126)) << "byte " << b;
    }
}

TEST(W4A16Bits, PlacementIsAPermutationOfTheWord) {
  uint32_t seen = 0;
  for (int i = 0; i < 32; ++i) {
    const uint32_t placed = place_pair_bits(1u << i);
    ASSERT_EQ(__builtin_popcount(placed), 1) << "bit " << i;
    ASSERT_EQ(seen & placed, 0u) << "bit " << i << " collides";
    seen |= placed;
  }
  EXPECT_EQ(seen, 0xFFFFFFFFu);
}

TEST(W4A16Bits, FactorBytesGiveTheirMultipliers) {
  for (uint32_t b = 0; b <= kMxMaxFactorByte; ++b) {  // mxfp4: 2^(b - 1)
    const uint32_t f = factor_bits(false, b);
    ASSERT_EQ(f >> 16, f & 0xFFFFu);
    ASSERT_EQ(formats::bf16_bits_to_float(uint16_t(f)), std::ldexp(1.0f, int(b) - 1)) << b;
  }
  for (int c = 1; c < 0x7F; ++c) {  // nvfp4: |e4m3| * 2^117 for every nonzero finite magnitude
    const uint8_t b = nvfp4_factor_byte(uint8_t(c));
    ASSERT_LE(b, kNvMaxFactorByte);
    const uint32_t f = factor_bits(true, b);
    ASSERT_EQ(f >> 16, f & 0xFFFFu);
    ASSERT_EQ(formats::bf16_bits_to_float(uint16_t(f)), std::ldexp(formats::e4m3_to_float(uint8_t(c)), 117)) << c;
  }
  EXPECT_TRUE(std::isinf(formats::bf16_bits_to_float(uint16_t(factor_bits(false, kInfFactorMx)))));
  EXPECT_TRUE(std::isinf(formats::bf16_bits_to_float(uint16_t(factor_bits(true, kInfFactorNv)))));
}

// decoded pair x multiplier, for every code and every finite factor byte: a bf16 value equal to
// e2m1 * scale (mxfp4: scale 2^(b - 127); nvfp4: |e4m3| * 2^-9).
TEST(W4A16Bits, EveryProductIsABf16Value) {
  auto is_bf16 = [](float v) { return formats::bf16_bits_to_float(formats::float_to_bf16_bits(v)) == v; };
  for (uint32_t code = 0; code < 16; ++code) {
    const float w = formats::bf16_bits_to_float(uint16_t(want_half(code)));
    for (uint32_t b = 0; b <= kMxMaxFactorByte; ++b) {
      const float prod = w * formats::bf16_bits_to_float(uint16_t(factor_bits(false, b)));
      ASSERT_TRUE(is_bf16(prod)) << code << " " << b;
      ASSERT_EQ(prod, formats::e2m1_to_float(uint8_t(code)) * std::ldexp(1.0f, int(b) - 127)) << code << " " << b;
    }
    for (int c = 1; c < 0x7F; ++c) {
      const float prod = w * formats::bf16_bits_to_float(uint16_t(factor_bits(true, nvfp4_factor_byte(uint8_t(c)))));
      ASSERT_TRUE(is_bf16(prod)) << code << " " << c;
      ASSERT_EQ(prod, std::ldexp(formats::e2m1_to_float(uint8_t(code)) * formats::e4m3_to_float(uint8_t(c)), -9))
          << code << " " << c;
    }
  }
}

}  // namespace
}  // namespace megamoe
