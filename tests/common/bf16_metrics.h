// How far a bf16 output is from its reference, shared by the CPU and GPU test suites.
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "formats/codecs.h"

namespace megamoe::testutil {

// ||out - ref|| / ||ref|| over bf16 bit patterns, in double; 0 when both are all zero, +inf when
// only the reference is; NaN when either holds a NaN.
inline double rel_l2(const std::vector<uint16_t>& out, const std::vector<uint16_t>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const double a = formats::bf16_bits_to_float(out[i]), b = formats::bf16_bits_to_float(ref[i]);
    num += (a - b) * (a - b);
    den += b * b;
  }
  if (den == 0) return num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  return std::sqrt(num / den);
}

inline int64_t count_nan(const std::vector<uint16_t>& v) {
  int64_t n = 0;
  for (uint16_t b : v) n += std::isnan(formats::bf16_bits_to_float(b)) ? 1 : 0;
  return n;
}

}  // namespace megamoe::testutil
