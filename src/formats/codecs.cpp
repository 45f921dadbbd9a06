// Bit-exact scalar codecs; the encoders live inline in codecs.h (detail::), the decoders
// are exact table look-ups built at compile time from the bit layouts.
#include "formats/codecs.h"

#include <array>
#include <bit>
#include <cstdint>

namespace megamoe::formats {
namespace {

constexpr uint32_t kQuietNaNBits = 0x7FC00000u;

// 2^e as float32 bits for e in [-149, 127] (subnormals included).
constexpr uint32_t pow2_bits(int e) {
  return e >= -126 ? uint32_t(e + 127) << 23 : (1u << (e + 149));
}

// Exact value of a small float (sign bit, E exponent bits with bias B, M mantissa bits).
// Codes whose exponent field is all ones and mantissa all ones are NaN when nan_all_ones.
template <int E, int M, int B>
constexpr float decode_small(uint32_t code, bool nan_all_ones) {
  const uint32_t mag = code & ((1u << (E + M)) - 1u);
  const bool negative = (code >> (E + M)) & 1u;
  const uint32_t exp = mag >> M;
  const uint32_t man = mag & ((1u << M) - 1u);
  if (nan_all_ones && mag == (1u << (E + M)) - 1u) {
    return std::bit_cast<float>(kQuietNaNBits | (negative ? 0x80000000u : 0u));
  }
  // value = (exp ? 2^M + man : man) * 2^((exp ? exp : 1) - B - M); exact in float32.
  const uint32_t significand = exp ? ((1u << M) | man) : man;
  const int scale = (exp ? int(exp) : 1) - B - M;
  const float v = float(significand) * std::bit_cast<float>(pow2_bits(scale));
  return negative ? -v : v;
}

constexpr std::array<float, 256> make_e4m3_table() {
  std::array<float, 256> t{};
  for (uint32_t c = 0; c < 256; ++c) t[c] = decode_small<4, 3, 7>(c, true);
  return t;
}
constexpr std::array<float, 16> make_e2m1_table() {
  std::array<float, 16> t{};
  for (uint32_t c = 0; c < 16; ++c) t[c] = decode_small<2, 1, 1>(c, false);
  return t;
}
constexpr std::array<float, 256> make_e8m0_table() {
  std::array<float, 256> t{};
  for (int c = 0; c < 255; ++c) t[c] = std::bit_cast<float>(pow2_bits(c - 127));
  t[255] = std::bit_cast<float>(kQuietNaNBits);
  return t;
}

constexpr std::array<float, 256> kE4M3Table = make_e4m3_table();
constexpr std::array<float, 16> kE2M1Table = make_e2m1_table();
constexpr std::array<float, 256> kE8M0Table = make_e8m0_table();

static_assert(kE4M3Table[0x7E] == 448.0f && kE4M3Table[0x01] == 0.001953125f &&
              kE4M3Table[0x08] == 0.015625f && kE4M3Table[0xB8] == -1.0f);
static_assert(kE2M1Table[7] == 6.0f && kE2M1Table[1] == 0.5f && kE2M1Table[0xD] == -3.0f);
static_assert(kE8M0Table[127] == 1.0f && kE8M0Table[254] == 0x1p127f);

// floor(log2(x)) for finite x > 0 given its bits (subnormals included).
constexpr int floor_log2_bits(uint32_t a) {
  const int e = int(a >> 23);
  return e != 0 ? e - 127 : (31 - std::countl_zero(a)) - 149;
}

}  // namespace

uint16_t float_to_bf16_bits(float x) { return detail::bf16_encode(x); }
float bf16_bits_to_float(uint16_t bits) { return std::bit_cast<float>(uint32_t(bits) << 16); }

uint8_t float_to_e4m3(float x, bool saturate) { return detail::e4m3_encode(x, saturate); }
float e4m3_to_float(uint8_t code) { return kE4M3Table[code]; }

uint8_t float_to_e8m0(float x) { return detail::e8m0_encode(x); }
float e8m0_to_float(uint8_t code) { return kE8M0Table[code]; }

uint8_t e8m0_floor_log2(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  const uint32_t a = u & 0x7FFFFFFFu;
  if (a == 0) return 0;                              // +-0
  if ((u >> 31) != 0 || a >= 0x7F800000u) return 255;  // negative, inf, NaN
  int e = floor_log2_bits(a);
  e = e < -127 ? -127 : e;  // e <= 127 always for finite floats
  return uint8_t(e + 127);
}

uint8_t e8m0_ceil_log2(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  const uint32_t a = u & 0x7FFFFFFFu;
  if (a == 0) return 0;
  if ((u >> 31) != 0 || a >= 0x7F800000u) return 255;
  int e = floor_log2_bits(a);
  // x is a power of two exactly when only its leading significant bit is set.
  const bool pow2 = (a >> 23) != 0 ? (a & 0x7FFFFFu) == 0 : std::has_single_bit(a);
  e += pow2 ? 0 : 1;
  e = e < -127 ? -127 : (e > 127 ? 127 : e);
  return uint8_t(e + 127);
}

uint8_t float_to_e2m1(float x) { return detail::e2m1_encode(x); }
float e2m1_to_float(uint8_t code) { return kE2M1Table[code & 0xF]; }

}  // namespace megamoe::formats
