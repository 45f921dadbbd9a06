// CPU quantizers / dequantizers; the rules are in quantize.h and docs/FORMATS.md.
// Scalar loops over the branch-free encoders of codecs.h, shaped so the compiler can
// vectorize them (amax as an integer max over |x|'s bits; one scale per block).
#include "formats/quantize.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "formats/codecs.h"
#include "megamoe/errors.h"

namespace megamoe::formats {
namespace {

using detail::f2u;
using detail::u2f;

constexpr uint32_t kAbsMask = 0x7FFFFFFFu;
constexpr uint32_t kInfBits = 0x7F800000u;  // |x| bits >= this: inf or NaN
constexpr uint32_t kQuietNaNBits = 0x7FC00000u;
constexpr uint8_t kE4M3NaN = 0x7F;
constexpr uint8_t kE2M1NaNPair = 0x77;  // two e2m1 codes 0x7 (the e2m1 encoding of NaN)

void require(bool ok, const char* fn, const char* what, const std::string& expected,
             const std::string& actual) {
  if (!ok) throw_invalid(std::string(fn) + ": " + what, expected, actual);
}

void check_dims(const char* fn, int64_t rows, int64_t K, int64_t ld, int64_t block) {
  if (rows >= 0 && K >= 0 && ld >= K && (block <= 1 || K % block == 0)) return;
  require(rows >= 0, fn, "rows", ">= 0", std::to_string(rows));
  require(K >= 0, fn, "K", ">= 0", std::to_string(K));
  require(ld >= K, fn, "ld", ">= K = " + std::to_string(K), std::to_string(ld));
  require(K % block == 0, fn, "K", "a multiple of " + std::to_string(block), std::to_string(K));
}

// max |x| as float32 bits: bits of non-negative floats order like the floats; any
// result >= kInfBits means the range holds an inf or a NaN.
inline uint32_t amax_bits(const float* x, int64_t n) {
  uint32_t m = 0;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, f2u(x[i]) & kAbsMask);
  return m;
}

// max |x| over the finite elements only.
inline uint32_t finite_amax_bits(const float* x, int64_t n) {
  uint32_t m = 0;
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t a = f2u(x[i]) & kAbsMask;
    m = std::max(m, a < kInfBits ? a : 0u);
  }
  return m;
}

inline void encode_e4m3_div(const float* x, int64_t n, float s, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = detail::e4m3_encode(x[i] / s, true);
}

inline void encode_e4m3_mul(const float* x, int64_t n, float r, uint8_t* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = detail::e4m3_encode(x[i] * r, true);
}

// n even, n <= 32; out gets n/2 bytes, element 2j in the low nibble. Two simple loops
// (encode, then pack) so the encode loop vectorizes.
inline void pack_e2m1_pairs(const uint8_t* t, int64_t n, uint8_t* out) {
  for (int64_t j = 0; j < n / 2; ++j) out[j] = uint8_t(t[2 * j] | (t[2 * j + 1] << 4));
}

inline void encode_e2m1_mul_packed(const float* x, int64_t n, float r, uint8_t* out) {
  uint8_t t[kMxBlockSize];
  for (int64_t i = 0; i < n; ++i) t[i] = detail::e2m1_encode(x[i] * r);
  pack_e2m1_pairs(t, n, out);
}

inline void encode_e2m1_div_packed(const float* x, int64_t n, float s, uint8_t* out) {
  uint8_t t[kMxBlockSize];
  for (int64_t i = 0; i < n; ++i) t[i] = detail::e2m1_encode(x[i] / s);
  pack_e2m1_pairs(t, n, out);
}

// Decode tables, copied once from the codecs so the dequant loops inline the look-up.
struct DecodeTables {
  float e4m3[256];
  float e2m1[16];
  float e8m0[256];
  DecodeTables() {
    for (int c = 0; c < 256; ++c) e4m3[c] = e4m3_to_float(uint8_t(c));
    for (int c = 0; c < 16; ++c) e2m1[c] = e2m1_to_float(uint8_t(c));
    for (int c = 0; c < 256; ++c) e8m0[c] = e8m0_to_float(uint8_t(c));
  }
};
const DecodeTables& tables() {
  static const DecodeTables t;
  return t;
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

// ---- fp8_block ---------------------------------------------------------------------------

float fp8_block_scale(float amax, bool ue8m0) {
  if (!((f2u(amax) & kAbsMask) < kInfBits)) return u2f(kQuietNaNBits);
  float s = amax / kE4M3Max;
  if (s == 0.0f) return 1.0f;
  if (ue8m0) s = e8m0_to_float(e8m0_ceil_log2(s));
  return s;
}

void quantize_fp8_block_weight(const float* src, int64_t N, int64_t K, uint8_t* codes,
                               float* scales, bool ue8m0) {
  check_dims("quantize_fp8_block_weight", N, K, K, 1);
  constexpr int64_t B = kFp8BlockSize;
  const int64_t nkb = ceil_div(K, B);
  std::vector<uint32_t> am(size_t(nkb), 0);
  std::vector<float> sc(size_t(nkb), 0.0f);
  for (int64_t r0 = 0; r0 < N; r0 += B) {
    const int64_t r1 = std::min(N, r0 + B);
    std::fill(am.begin(), am.end(), 0u);
    for (int64_t r = r0; r < r1; ++r) {
      const float* row = src + r * K;
      for (int64_t kb = 0; kb < nkb; ++kb) {
        const int64_t k0 = kb * B, len = std::min(K - k0, B);
        am[size_t(kb)] = std::max(am[size_t(kb)], amax_bits(row + k0, len));
      }
    }
    float* srow = scales + (r0 / B) * nkb;
    for (int64_t kb = 0; kb < nkb; ++kb) {
      sc[size_t(kb)] = fp8_block_scale(u2f(am[size_t(kb)]), ue8m0);
      srow[kb] = sc[size_t(kb)];
    }
    for (int64_t r = r0; r < r1; ++r) {
      const float* row = src + r * K;
      uint8_t* crow = codes + r * K;
      for (int64_t kb = 0; kb < nkb; ++kb) {
        const int64_t k0 = kb * B, len = std::min(K - k0, B);
        if (am[size_t(kb)] >= kInfBits) {
          std::memset(crow + k0, kE4M3NaN, size_t(len));
        } else {
          encode_e4m3_div(row + k0, len, sc[size_t(kb)], crow + k0);
        }
      }
    }
  }
}

void dequantize_fp8_block_weight(const uint8_t* codes, const float* scales, int64_t N,
                                 int64_t K, float* dst) {
  check_dims("dequantize_fp8_block_weight", N, K, K, 1);
  constexpr int64_t B = kFp8BlockSize;
  const int64_t nkb = ceil_div(K, B);
  const float* t = tables().e4m3;
  for (int64_t r = 0; r < N; ++r) {
    const float* srow = scales + (r / B) * nkb;
    for (int64_t kb = 0; kb < nkb; ++kb) {
      const float s = srow[kb];
      for (int64_t k = kb * B; k < std::min(K, kb * B + B); ++k) dst[r * K + k] = t[codes[r * K + k]] * s;
    }
  }
}

void quantize_fp8_act_1x128(const float* src, int64_t M, int64_t K, int64_t ld, uint8_t* codes,
                            float* scales, bool ue8m0) {
  check_dims("quantize_fp8_act_1x128", M, K, ld, 1);
  constexpr int64_t B = kFp8BlockSize;
  const int64_t nkb = ceil_div(K, B);
  for (int64_t r = 0; r < M; ++r) {
    const float* row = src + r * ld;
    uint8_t* crow = codes + r * K;
    for (int64_t kb = 0; kb < nkb; ++kb) {
      const int64_t k0 = kb * B, len = std::min(K - k0, B);
      const uint32_t am = amax_bits(row + k0, len);
      const float s = fp8_block_scale(u2f(am), ue8m0);
      scales[r * nkb + kb] = s;
      if (am >= kInfBits) {
        std::memset(crow + k0, kE4M3NaN, size_t(len));
      } else {
        encode_e4m3_div(row + k0, len, s, crow + k0);
      }
    }
  }
}

void dequantize_fp8_act_1x128(const uint8_t* codes, const float* scales, int64_t M, int64_t K,
                              float* dst) {
  check_dims("dequantize_fp8_act_1x128", M, K, K, 1);
  constexpr int64_t B = kFp8BlockSize;
  const int64_t nkb = ceil_div(K, B);
  const float* t = tables().e4m3;
  for (int64_t r = 0; r < M; ++r) {
    for (int64_t kb = 0; kb < nkb; ++kb) {
      const float s = scales[r * nkb + kb];
      for (int64_t k = kb * B; k < std::min(K, kb * B + B); ++k) dst[r * K + k] = t[codes[r * K + k]] * s;
    }
  }
}

// ---- MX ----------------------------------------------------------------------------------

uint8_t mx_scale_code(float amax, MxElem elem) {
  const uint8_t f = e8m0_floor_log2(amax);  // clamp(floor(log2 amax), -127) + 127; 0 -> 0
  if (f == 255) return 255;
  if ((f2u(amax) & kAbsMask) == 0) return 0;
  const int emax = elem == MxElem::kE2M1 ? 2 : 8;
  return uint8_t(std::max(int(f) - emax, 0));
}

void quantize_mx(const float* src, int64_t M, int64_t K, int64_t ld, MxElem elem, uint8_t* codes,
                 uint8_t* scales) {
  check_dims("quantize_mx", M, K, ld, kMxBlockSize);
  constexpr int64_t B = kMxBlockSize;
  const int64_t nkb = K / B;
  const bool fp4 = elem == MxElem::kE2M1;
  const int64_t code_ld = fp4 ? K / 2 : K;
  for (int64_t r = 0; r < M; ++r) {
    const float* row = src + r * ld;
    uint8_t* crow = codes + r * code_ld;
    for (int64_t kb = 0; kb < nkb; ++kb) {
      const float* x = row + kb * B;
      const uint32_t am = amax_bits(x, B);
      uint8_t* c = crow + (fp4 ? kb * (B / 2) : kb * B);
      if (am >= kInfBits) {
        scales[r * nkb + kb] = 255;
        std::memset(c, fp4 ? kE2M1NaNPair : kE4M3NaN, size_t(fp4 ? B / 2 : B));
        continue;
      }
      const uint8_t code = mx_scale_code(u2f(am), elem);
      scales[r * nkb + kb] = code;
      // 2^-(code-127) = 2^(127-code); code <= 252 for finite amax, so this is a normal float
      // and x * 2^(127-code) equals x / 2^(code-127) exactly (both correctly rounded).
      const float inv = u2f(uint32_t(254 - code) << 23);
      if (fp4) {
        encode_e2m1_mul_packed(x, B, inv, c);
      } else {
        encode_e4m3_mul(x, B, inv, c);
      }
    }
  }
}

void dequantize_mx(const uint8_t* codes, const uint8_t* scales, int64_t M, int64_t K, MxElem elem,
                   float* dst) {
  check_dims("dequantize_mx", M, K, K, kMxBlockSize);
  constexpr int64_t B = kMxBlockSize;
  const int64_t nkb = K / B;
  const DecodeTables& t = tables();
  for (int64_t r = 0; r < M; ++r) {
    float* out = dst + r * K;
    for (int64_t kb = 0; kb < nkb; ++kb) {
      const float s = t.e8m0[scales[r * nkb + kb]];
      if (elem == MxElem::kE2M1) {
        const uint8_t* c = codes + r * (K / 2) + kb * (B / 2);
        for (int64_t j = 0; j < B / 2; ++j) {
          out[kb * B + 2 * j] = t.e2m1[c[j] & 0xF] * s;
          out[kb * B + 2 * j + 1] = t.e2m1[c[j] >> 4] * s;
        }
      } else {
        const uint8_t* c = codes + r * K + kb * B;
        for (int64_t i = 0; i < B; ++i) out[kb * B + i] = t.e4m3[c[i]] * s;
      }
    }
  }
}

// ---- NVFP4 -------------------------------------------------------------------------------

float nvfp4_global_scale(const float* src, int64_t n) {
  require(n >= 0, "nvfp4_global_scale", "n", ">= 0", std::to_string(n));
  const float amax = u2f(finite_amax_bits(src, n));
  const float g = amax / (kE4M3Max * kE2M1Max);
  return g == 0.0f ? 1.0f : g;
}

void quantize_nvfp4(const float* src, int64_t M, int64_t K, int64_t ld, float global_scale,
                    uint8_t* codes, uint8_t* scales) {
  check_dims("quantize_nvfp4", M, K, ld, kNvfp4BlockSize);
  const uint32_t gb = f2u(global_scale);
  require(gb > 0u && gb < kInfBits, "quantize_nvfp4", "global_scale", "finite and > 0",
          std::to_string(global_scale));
  constexpr int64_t B = kNvfp4BlockSize;
  const int64_t nkb = K / B;
  const DecodeTables& t = tables();
  for (int64_t r = 0; r < M; ++r) {
    const float* row = src + r * ld;
    uint8_t* crow = codes + r * (K / 2);
    for (int64_t kb = 0; kb < nkb; ++kb) {
      const float* x = row + kb * B;
      uint8_t* c = crow + kb * (B / 2);
      const uint32_t am = amax_bits(x, B);
      if (am >= kInfBits) {
        scales[r * nkb + kb] = kE4M3NaN;
        std::memset(c, kE2M1NaNPair, size_t(B / 2));
        continue;
      }
      const uint8_t sc = detail::e4m3_encode((u2f(am) / kE2M1Max) / global_scale, true);
      scales[r * nkb + kb] = sc;
      const float s = t.e4m3[sc] * global_scale;
      if (s == 0.0f) {
        std::memset(c, 0, size_t(B / 2));
      } else {
        encode_e2m1_div_packed(x, B, s, c);
      }
    }
  }
}

void dequantize_nvfp4(const uint8_t* codes, const uint8_t* scales, float global_scale, int64_t M,
                      int64_t K, float* dst) {
  check_dims("dequantize_nvfp4", M, K, K, kNvfp4BlockSize);
  constexpr int64_t B = kNvfp4BlockSize;
  const int64_t nkb = K / B;
  const DecodeTables& t = tables();
  for (int64_t r = 0; r < M; ++r) {
    float* out = dst + r * K;
    for (int64_t kb = 0; kb < nkb; ++kb) {
      const float s = t.e4m3[scales[r * nkb + kb]];
      const uint8_t* c = codes + r * (K / 2) + kb * (B / 2);
      for (int64_t j = 0; j < B / 2; ++j) {
        // (e2m1 * e4m3) is exact; then one rounding with the global scale.
        out[kb * B + 2 * j] = (t.e2m1[c[j] & 0xF] * s) * global_scale;
        out[kb * B + 2 * j + 1] = (t.e2m1[c[j] >> 4] * s) * global_scale;
      }
    }
  }
}

}  // namespace megamoe::formats
