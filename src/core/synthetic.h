// Deterministic synthetic data, identical on host and device: a counter-based hash of
// (seed, stream, index) mapped to a uniform value. Used by the CLI, tests and benchmarks
// to make weights and inputs without storing them (full-size presets do not fit in host
// memory, so the CPU reference regenerates one expert at a time).
#pragma once
#include <cmath>
#include <cstdint>

#include "core/host_device.h"

namespace megamoe::synthetic {

// splitmix64 finaliser: a bijective 64-bit mix (Steele et al.).
MEGAMOE_HD uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

MEGAMOE_HD uint64_t hash3(uint64_t seed, uint64_t stream, uint64_t index) {
  return mix64(mix64(seed ^ mix64(stream)) + index);
}

// Uniform in [-scale, scale): 24 random bits, every step exact in fp32, so host and device
// produce the same float bit for bit.
MEGAMOE_HD float uniform(uint64_t seed, uint64_t stream, uint64_t index, float scale) {
  const uint32_t bits = uint32_t(hash3(seed, stream, index) >> 40);  // 24 bits
  const float u = float(bits) * (1.0f / 16777216.0f);               // [0, 1), exact
  return (2.0f * u - 1.0f) * scale;
}

// Stream ids, so each tensor of a layer draws independent values.
enum Stream : uint64_t {
  kX = 1, kW13 = 2, kW2 = 3, kB13 = 4, kB2 = 5, kRouterLogits = 6, kTopkWeights = 7,
};

}  // namespace megamoe::synthetic

namespace megamoe::synthetic {
// The synthetic layer (presets, benchmarks): bf16 master weights, by *global* expert id e.
//   w13[e][n][k] = bf16(uniform(seed, kW13, (e*N13 + n)*H + k, 1/sqrt(H)))
//   w2 [e][h][i] = bf16(uniform(seed, kW2,  (e*H + h)*I + i,   1/sqrt(I)))
//   b13[e][n]    = bf16(uniform(seed, kB13, e*N13 + n, 0.1)),  b2[e][h] likewise with kB2
// The host (reference::synthetic_expert_bf16) and the device fill kernels follow this
// exactly, so a GPU layer and the CPU oracle see the same weights without a host copy.
// Weight value scale for a reduction length: 1/sqrt(fan_in), IEEE-rounded sqrt and divide
// on host and device alike (nvcc's defaults; never build this with fast-math).
MEGAMOE_HD float weight_scale(int64_t fan_in) { return 1.0f / sqrtf(float(fan_in)); }
constexpr float kBiasScale = 0.1f;

MEGAMOE_HD uint64_t w13_index(int64_t e, int64_t n, int64_t k, int64_t N13, int64_t H) {
  return uint64_t((e * N13 + n) * H + k);
}
MEGAMOE_HD uint64_t w2_index(int64_t e, int64_t h, int64_t i, int64_t H, int64_t I) {
  return uint64_t((e * H + h) * I + i);
}
}  // namespace megamoe::synthetic
