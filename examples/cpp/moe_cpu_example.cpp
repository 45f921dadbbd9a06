// The smallest complete megamoe program: one bf16 MoE layer (SwiGLU) on the CPU reference
// backend (device = -1), random inputs, checked against a plain float computation written out
// here (not megamoe's own reference), so it also shows the weight layout. Exits non-zero when
// the output is not finite, is all zero, or differs from the float result by rel-L2 > 1e-2 (the
// library rounds to bf16 where the float loop does not: the difference is ~1e-3).
#include <megamoe/megamoe.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

// bf16 <-> float (round to nearest even; no NaNs arise here).
uint16_t to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}
float from_bf16(uint16_t b) {
  const uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

int main() {
  using megamoe::DType;
  using megamoe::TensorView;
  constexpr int64_t E = 8, K = 2, H = 128, I = 64, T = 24;
  std::string backends;
  for (const auto& name : megamoe::registered_backends()) backends += (backends.empty() ? "" : ", ") + name;
  std::printf("megamoe %s, registered backends: %s\n", MEGAMOE_VERSION_STRING, backends.c_str());

  // Random bf16 activations and weights (never zeros), distinct experts per token, positive
  // routing weights summing to 1.
  std::mt19937 rng(2024);
  std::normal_distribution<float> normal(0.f, 1.f);
  auto random_bf16 = [&](size_t n, float scale) {
    std::vector<uint16_t> v(n);
    for (auto& e : v) e = to_bf16(scale * normal(rng));
    return v;
  };
  const std::vector<uint16_t> x = random_bf16(size_t(T * H), 1.f);
  const std::vector<uint16_t> w13 = random_bf16(size_t(E * 2 * I * H), 1.f / std::sqrt(float(H)));  // [E, 2I, H]
  const std::vector<uint16_t> w2 = random_bf16(size_t(E * H * I), 1.f / std::sqrt(float(I)));       // [E, H, I]
  std::vector<int32_t> ids(size_t(T * K));
  std::vector<float> wts(size_t(T * K));
  std::vector<int32_t> experts(E);
  std::iota(experts.begin(), experts.end(), 0);
  std::uniform_real_distribution<float> uniform(0.1f, 1.f);
  for (int64_t t = 0; t < T; ++t) {
    std::shuffle(experts.begin(), experts.end(), rng);
    float sum = 0.f;
    for (int64_t k = 0; k < K; ++k) sum += wts[size_t(t * K + k)] = uniform(rng);
    for (int64_t k = 0; k < K; ++k) {
      ids[size_t(t * K + k)] = experts[size_t(k)];
      wts[size_t(t * K + k)] /= sum;
    }
  }
  std::vector<uint16_t> out(size_t(T * H));

  try {
    megamoe::MoeConfig cfg;
    cfg.num_experts = E;
    cfg.top_k = K;
    cfg.hidden_size = H;
    cfg.intermediate_size = I;
    cfg.recipe = megamoe::Recipe::kBF16;
    cfg.activation = megamoe::Activation::kSwiGLU;
    cfg.device = -1;  // the CPU reference backend: runs anywhere
    cfg.max_tokens = T;
    megamoe::MoeLayer layer(cfg);

    megamoe::MoeWeights weights;
    weights.w13 = TensorView::contiguous(w13.data(), DType::kBF16, {E, 2 * I, H});  // gate rows, then up rows
    weights.w2 = TensorView::contiguous(w2.data(), DType::kBF16, {E, H, I});
    layer.prepare_weights(weights);

    const TensorView xv = TensorView::contiguous(x.data(), DType::kBF16, {T, H});
    const TensorView iv = TensorView::contiguous(ids.data(), DType::kI32, {T, K});
    const TensorView wv = TensorView::contiguous(wts.data(), DType::kF32, {T, K});
    const TensorView ov = TensorView::contiguous(out.data(), DType::kBF16, {T, H});
    layer.forward(xv, iv, wv, ov);  // stream: nullptr (a cudaStream_t; unused on the CPU)
    std::printf("backend %s\n", layer.backend_name().c_str());

    // Errors are typed: a float32 x is a dtype error (megamoe::InvalidDtype).
    bool typed = false;
    try {
      layer.forward(TensorView::contiguous(wts.data(), DType::kF32, {T, K}), iv, wv, ov);
    } catch (const megamoe::InvalidDtype& e) {
      typed = true;
      std::printf("expected error: %s\n", e.what());
    }
    if (!typed) {
      std::fprintf(stderr, "FAIL: a float32 x did not throw megamoe::InvalidDtype\n");
      return 1;
    }
  } catch (const megamoe::Error& e) {
    std::fprintf(stderr, "FAIL: %s\n", e.what());
    return 1;
  }

  // out[t] = sum_k wts[t,k] * W2[e] (silu(g) * u), g|u = W13[e] x[t], e = ids[t,k], in float.
  double err2 = 0, ref2 = 0, out2 = 0;
  bool finite = true;
  std::vector<float> a(I), y(H);
  for (int64_t t = 0; t < T; ++t) {
    std::fill(y.begin(), y.end(), 0.f);
    for (int64_t k = 0; k < K; ++k) {
      const int64_t e = ids[size_t(t * K + k)];
      for (int64_t j = 0; j < I; ++j) {
        float g = 0.f, u = 0.f;
        for (int64_t h = 0; h < H; ++h) {
          const float xh = from_bf16(x[size_t(t * H + h)]);
          g += from_bf16(w13[size_t((e * 2 * I + j) * H + h)]) * xh;
          u += from_bf16(w13[size_t((e * 2 * I + I + j) * H + h)]) * xh;
        }
        a[size_t(j)] = g / (1.f + std::exp(-g)) * u;
      }
      for (int64_t h = 0; h < H; ++h) {
        float acc = 0.f;
        for (int64_t j = 0; j < I; ++j) acc += from_bf16(w2[size_t((e * H + h) * I + j)]) * a[size_t(j)];
        y[size_t(h)] += wts[size_t(t * K + k)] * acc;
      }
    }
    for (int64_t h = 0; h < H; ++h) {
      const double o = from_bf16(out[size_t(t * H + h)]), r = y[size_t(h)];
      finite = finite && std::isfinite(o);
      err2 += (o - r) * (o - r);
      ref2 += r * r;
      out2 += o * o;
    }
  }
  const double rel_l2 = std::sqrt(err2 / ref2);
  std::printf("T=%lld E=%lld K=%lld H=%lld I=%lld: rel-L2 vs float loop %.3e\n", (long long)T, (long long)E,
              (long long)K, (long long)H, (long long)I, rel_l2);
  if (!finite || out2 == 0 || !(rel_l2 <= 1e-2)) {
    std::fprintf(stderr, "FAIL: finite=%d |out|^2=%g rel-L2=%g (limit 1e-2)\n", int(finite), out2, rel_l2);
    return 1;
  }
  std::printf("OK\n");
  return 0;
}
