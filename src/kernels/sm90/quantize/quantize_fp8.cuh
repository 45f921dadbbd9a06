// Device twins of the fp8_block quantizer rules (src/formats/quantize.h, docs/FORMATS.md
// section 2), for kernels that quantize on the GPU. They reproduce the CPU quantizers bit
// for bit: the same integer amax over |x|'s bits, the same IEEE division for the scale (__fdiv_rn,
// no contraction), the elements' quotients x / s through the block's correctly rounded reciprocal
// (formats/scale_division.h: the IEEE quotient's codes, four operations a code instead of a
// division with its slow-path branch), and the branch-free saturating e4m3 encoder
// of formats::detail::e4m3_encode rewritten with CUDA intrinsics (codecs.h uses std::bit_cast,
// which the C++17 CUDA build does not have). tests/gpu/test_quantize_fp8.cpp checks every code and
// scale against the CPU quantizers.
#pragma once
#include <cstdint>

#include <cuda_runtime.h>

#include "formats/scale_division.h"

namespace megamoe::sm90::fp8 {

constexpr uint32_t kAbsMask = 0x7FFFFFFFu;
constexpr uint32_t kInfBits = 0x7F800000u;       // |x| bits >= this: inf or NaN
constexpr uint32_t kQuietNaNBits = 0x7FC00000u;
constexpr uint8_t kE4M3NaN = 0x7F;
constexpr float kE4M3Max = 448.0f;
constexpr int kBlock = 128;  // fp8_block: 128x128 weight blocks, 1x128 activation groups

__device__ __forceinline__ uint32_t sel(bool c, uint32_t a, uint32_t b) { return c ? a : b; }

// |x| bits (sign cleared): unsigned max over these is the block amax, and any result >= kInfBits
// flags a NaN/inf in the block (fmaxf would drop NaN).
__device__ __forceinline__ uint32_t abs_bits(float x) { return __float_as_uint(x) & kAbsMask; }

// formats::detail::small_float_magnitude<3, 7>: magnitude code of |x| (bits a <= inf).
__device__ __forceinline__ uint32_t e4m3_magnitude(uint32_t a) {
  constexpr uint32_t kMinNormalBits = uint32_t(127 + 1 - 7) << 23;      // 2^-6
  constexpr uint32_t kMagicBits = uint32_t(127 + (1 - 7 - 3) + 23) << 23;  // 2^14: ulp 2^-9
  constexpr uint32_t kDrop = 23 - 3;
  const uint32_t normal = (a - (uint32_t(127 - 7) << 23) + ((1u << (kDrop - 1)) - 1u) + ((a >> kDrop) & 1u)) >> kDrop;
  const bool small = a < kMinNormalBits;
  const uint32_t sub = __float_as_uint(__fadd_rn(__uint_as_float(small ? a : 0u), __uint_as_float(kMagicBits))) - kMagicBits;
  return sel(small, sub, normal);
}

// formats::detail::e4m3_encode(x, saturate = true).
__device__ __forceinline__ uint8_t e4m3_encode_sat(float x) {
  const uint32_t u = __float_as_uint(x);
  const uint32_t a = u & kAbsMask;
  const uint32_t sign = (u >> 24) & 0x80u;
  uint32_t m = e4m3_magnitude(a < kInfBits ? a : kInfBits);
  m = sel(m > 0x7Eu, 0x7Eu, m);
  m = sel(a > kInfBits, 0x7Fu, m);
  return uint8_t(sign | m);
}

// formats::e8m0_ceil_log2 for finite x > 0, decoded back to the float 2^ceil(log2 x), clamped to
// [2^-127, 2^127] (code 0 = 2^-127 is a float32 subnormal).
__device__ __forceinline__ float pow2_ceil(float x) {
  const uint32_t a = __float_as_uint(x) & kAbsMask;
  const int fl = (a >> 23) != 0 ? int(a >> 23) - 127 : (31 - __clz(int(a))) - 149;
  const bool pow2 = (a >> 23) != 0 ? (a & 0x7FFFFFu) == 0 : __popc(a) == 1;
  int e = fl + (pow2 ? 0 : 1);
  e = e < -127 ? -127 : (e > 127 ? 127 : e);
  return e == -127 ? __uint_as_float(0x00400000u) : __uint_as_float(uint32_t(e + 127) << 23);
}

// formats::fp8_block_scale from the block's amax bits: NaN for a poisoned block (amax bits >=
// kInfBits), amax / 448 (one IEEE division), 1 when that is 0, optionally rounded up to a power
// of two (ue8m0).
__device__ __forceinline__ float block_scale(uint32_t amax_bits, bool ue8m0) {
  if (amax_bits >= kInfBits) return __uint_as_float(kQuietNaNBits);
  float s = __fdiv_rn(__uint_as_float(amax_bits), kE4M3Max);
  if (s == 0.0f) return 1.0f;
  if (ue8m0) s = pow2_ceil(s);
  return s;
}

using formats::ScaleDivisor;
using formats::scale_divisor;   // made once per block (per thread)
using formats::scale_quotient;  // x / s per element: the IEEE quotient's e4m3 code

// code = e4m3(x / s, saturate) for a finite block; 0x7F for every element of a poisoned block.
__device__ __forceinline__ uint8_t encode(float x, const ScaleDivisor& d, bool poisoned) {
  return poisoned ? kE4M3NaN : e4m3_encode_sat(scale_quotient(x, d));
}

// Two (encode2) or four (encode4) codes packed little-endian (element 0 in the low byte). The quotients
// go through sm_89+'s cvt.rn.satfinite.e4m3x2.f32 (one instruction per two codes): round to
// nearest even, finite values past 448 and infinities saturate to +-448, the rule of
// e4m3_encode_sat. The two differ only for a NaN quotient (the hardware's is 0x7F whatever its
// sign), which a finite block cannot produce: s = amax / 448 > 0 and |x| <= amax, and a poisoned
// block takes the other branch. The emulation above costs ~20 integer instructions a code, and the
// activation-quantize kernel was bound by its instruction issue (H200, ncu).
__device__ __forceinline__ uint16_t cvt_e4m3x2(float q0, float q1) {
  uint16_t r;  // cvt packs its first operand into the high byte
  asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(r) : "f"(q1), "f"(q0));
  return r;
}
// The codes are converted whatever `poisoned` says and the NaN codes selected afterwards: an early
// return made each call a branch of its own, and unrolled callers (the fp8 FC1 epilogue) could not
// interleave the calls' dependent chains (a poisoned block's s is NaN: its conversions are harmless).
// kUnitM: the caller knows d.m == 1 (formats::scale_quotient_scaled; one multiply a code less).
template <bool kUnitM = false>
__device__ __forceinline__ uint16_t encode2(float v0, float v1, const ScaleDivisor& d, bool poisoned) {
  const uint16_t c = kUnitM ? cvt_e4m3x2(formats::scale_quotient_scaled(v0, d), formats::scale_quotient_scaled(v1, d))
                            : cvt_e4m3x2(scale_quotient(v0, d), scale_quotient(v1, d));
  return poisoned ? uint16_t(0x7F7Fu) : c;
}
__device__ __forceinline__ uint32_t encode4(const float (&v)[4], const ScaleDivisor& d, bool poisoned) {
  const uint32_t c = uint32_t(cvt_e4m3x2(scale_quotient(v[0], d), scale_quotient(v[1], d))) |
                     (uint32_t(cvt_e4m3x2(scale_quotient(v[2], d), scale_quotient(v[3], d))) << 16);
  return poisoned ? 0x7F7F7F7Fu : c;
}

// Unsigned max over the 32 lanes of a full warp.
__device__ __forceinline__ uint32_t warp_max(uint32_t v) { return __reduce_max_sync(0xFFFFFFFFu, v); }

// The scale of one 1x128 activation group held by a full warp, lane l its columns 4l..4l+3 (0 for
// columns past the row's end, which leaves the amax unchanged); warp-collective, so all 32 lanes
// call it converged. block_scale of the unsigned max of |v|'s bits over the warp; `poisoned` when
// that amax is Inf or NaN (the group's codes are then all NaN, encode / encode4).
__device__ __forceinline__ float warp_group_scale(const float (&v)[4], bool ue8m0, bool& poisoned) {
  uint32_t am = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) am = max(am, abs_bits(v[j]));
  am = warp_max(am);
  poisoned = am >= kInfBits;
  return block_scale(am, ue8m0);
}

// The activation-scale layout the grouped FP8 GEMM reads (CUTLASS's Sm90 blockwise scales are
// MN-major): the rows of local expert e, [lo, hi) = [offsets[e], offsets[e+1]), own the slice
// [lo * KB, hi * KB) of the scale buffer, in which the scale of (row, k-block kb) sits at
// kb * (hi - lo) + (row - lo). (A column-major [KB, rows_e] matrix per expert.)
__device__ __forceinline__ int64_t act_scale_index(int64_t row, int64_t kb, int64_t KB, int64_t lo, int64_t hi) {
  return lo * KB + kb * (hi - lo) + (row - lo);
}

}  // namespace megamoe::sm90::fp8
