// Test helpers for the CPU reference suites: random problems, canonical weights made with
// the formats quantizers, and an independent float64 per-token MoE loop (its own
// activation formulas, its own loops) to check the reference against.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "common/test_seed.h"
#include "formats/canonical_weights.h"
#include "formats/codecs.h"
#include "formats/quantize.h"
#include "megamoe/megamoe.h"
#include "reference/reference.h"

namespace megamoe::reftest {

// Fresh data every run (common/test_seed.h); a failure prints the base seed to replay it.
using testseed::base_seed;
using testseed::case_seed;
#define REFTEST_TRACE_SEED() MEGAMOE_TRACE_SEED()

inline float bf16(float v) { return formats::round_to_bf16(v); }

// A forward problem on one rank: x [T,H] bf16, ids [T,K] int32, weights [T,K] f32, out [T,H].
struct Problem {
  int64_t T = 0, H = 0, K = 0;
  std::vector<uint16_t> x;
  std::vector<int32_t> ids;
  std::vector<float> w;
  std::vector<uint16_t> out;

  void resize(int64_t t, int64_t h, int64_t k) {
    T = t; H = h; K = k;
    x.assign(size_t(T * H), 0);
    ids.assign(size_t(T * K), -1);
    w.assign(size_t(T * K), 0.0f);
    poison();
  }
  void poison() { out.assign(size_t(T * H), 0x7FC1); }  // a NaN pattern: every element must be written
  TensorView xv() const { return TensorView::contiguous(x.data(), DType::kBF16, {T, H}); }
  TensorView idv() const { return TensorView::contiguous(ids.data(), DType::kI32, {T, K}); }
  TensorView wv() const { return TensorView::contiguous(w.data(), DType::kF32, {T, K}); }
  TensorView outv() const { return TensorView::contiguous(out.data(), DType::kBF16, {T, H}); }
  float out_at(int64_t t, int64_t h) const { return formats::bf16_bits_to_float(out[size_t(t * H + h)]); }
};

// Fills x with bf16 values in [-x_scale, x_scale), ids with K distinct experts drawn from
// `pool` (all experts when empty), weights positive and normalised.
inline void random_problem(Problem& p, int64_t T, int64_t H, int64_t K, int64_t E, uint64_t seed,
                           float x_scale = 2.0f, std::vector<int32_t> pool = {}) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> ux(-x_scale, x_scale), uw(0.05f, 1.0f);
  p.resize(T, H, K);
  for (auto& v : p.x) v = formats::float_to_bf16_bits(ux(rng));
  if (pool.empty())
    for (int32_t e = 0; e < E; ++e) pool.push_back(e);
  for (int64_t t = 0; t < T; ++t) {
    std::vector<int32_t> cand = pool;
    std::shuffle(cand.begin(), cand.end(), rng);
    float sum = 0;
    for (int64_t k = 0; k < K; ++k) {
      p.ids[size_t(t * K + k)] = cand[size_t(k) % cand.size()];
      p.w[size_t(t * K + k)] = uw(rng);
      sum += p.w[size_t(t * K + k)];
    }
    for (int64_t k = 0; k < K; ++k) p.w[size_t(t * K + k)] /= sum;
  }
}

// Random bf16-valued master weights, quantized into the config's canonical format.
inline formats::CanonicalWeights random_canonical(const MoeConfig& c, uint64_t seed, float w_gain = 2.0f) {
  const int64_t N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
  auto source = [&](int64_t le, std::vector<float>& w13, std::vector<float>& w2, std::vector<float>& b13,
                    std::vector<float>& b2) {
    // Seeded by the global expert: replicas of an expert on several ranks get the same weights.
    std::mt19937_64 rng(seed * 7919 + uint64_t(c.global_expert(le)));
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    const float s13 = w_gain / std::sqrt(float(H)), s2 = w_gain / std::sqrt(float(I));
    w13.resize(size_t(N13 * H));
    w2.resize(size_t(H * I));
    for (auto& v : w13) v = bf16(u(rng) * s13);
    for (auto& v : w2) v = bf16(u(rng) * s2);
    b13.clear();
    b2.clear();
    if (c.has_bias) {
      b13.resize(size_t(N13));
      b2.resize(size_t(H));
      for (auto& v : b13) v = bf16(u(rng) * 0.5f);
      for (auto& v : b2) v = bf16(u(rng) * 0.5f);
    }
  };
  return formats::make_canonical_weights(c, source, size_t(2) << 30);
}

// ---- the independent float64 loop ---------------------------------------------------
struct F64Expert {
  std::vector<double> w13, w2, b13, b2;  // dequantized with the global scale folded in
};

// Dequantizes canonical weights with the formats dequantizers (nvfp4 global folded in).
inline std::vector<F64Expert> dequantize_for_test(const MoeConfig& c, const formats::CanonicalWeights& cw) {
  const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
  std::vector<F64Expert> out(static_cast<size_t>(E));
  auto deq = [&](const std::vector<uint8_t>& codes, const std::vector<uint8_t>& scales,
                 const std::vector<float>& globals, int64_t e, int64_t N, int64_t K, std::vector<double>& dst) {
    std::vector<float> f(static_cast<size_t>(N * K));
    const size_t cpe = codes.size() / size_t(E), spe = scales.size() / size_t(E);
    const uint8_t* cp = codes.data() + size_t(e) * cpe;
    const uint8_t* sp = scales.empty() ? nullptr : scales.data() + size_t(e) * spe;
    switch (c.recipe) {
      case Recipe::kBF16:
        for (int64_t i = 0; i < N * K; ++i) {
          uint16_t b;
          std::memcpy(&b, cp + 2 * i, 2);
          f[size_t(i)] = formats::bf16_bits_to_float(b);
        }
        break;
      case Recipe::kFP8Block:
        formats::dequantize_fp8_block_weight(cp, reinterpret_cast<const float*>(sp), N, K, f.data());
        break;
      case Recipe::kMXFP8:
        formats::dequantize_mx(cp, sp, N, K, formats::MxElem::kE4M3, f.data());
        break;
      case Recipe::kW4A16MXFP4:
      case Recipe::kW4A8MXFP4:
        formats::dequantize_mx(cp, sp, N, K, formats::MxElem::kE2M1, f.data());
        break;
      case Recipe::kW4A16NVFP4:
      case Recipe::kNVFP4:
        formats::dequantize_nvfp4(cp, sp, globals[size_t(e)], N, K, f.data());
        break;
    }
    dst.assign(f.begin(), f.end());
  };
  for (int64_t e = 0; e < E; ++e) {
    deq(cw.w13, cw.w13_scale, cw.w13_global, e, N13, H, out[size_t(e)].w13);
    deq(cw.w2, cw.w2_scale, cw.w2_global, e, H, I, out[size_t(e)].w2);
    if (c.has_bias) {
      out[size_t(e)].b13.assign(cw.b13.begin() + e * N13, cw.b13.begin() + (e + 1) * N13);
      out[size_t(e)].b2.assign(cw.b2.begin() + e * H, cw.b2.begin() + (e + 1) * H);
    }
  }
  return out;
}

// The contract's activation quantizers, called directly (not through the reference).
inline std::vector<double> quantize_act_for_test(Recipe r, const std::vector<float>& v, float nv_global) {
  const int64_t n = int64_t(v.size());
  std::vector<float> d(v.size());
  std::vector<uint8_t> codes(v.size()), s8(v.size());
  std::vector<float> s32(v.size());
  switch (r) {
    case Recipe::kBF16: case Recipe::kW4A16MXFP4: case Recipe::kW4A16NVFP4:
      d = v;
      break;
    case Recipe::kFP8Block:
      formats::quantize_fp8_act_1x128(v.data(), 1, n, n, codes.data(), s32.data());
      formats::dequantize_fp8_act_1x128(codes.data(), s32.data(), 1, n, d.data());
      break;
    case Recipe::kMXFP8: case Recipe::kW4A8MXFP4:
      formats::quantize_mx(v.data(), 1, n, n, formats::MxElem::kE4M3, codes.data(), s8.data());
      formats::dequantize_mx(codes.data(), s8.data(), 1, n, formats::MxElem::kE4M3, d.data());
      break;
    case Recipe::kNVFP4:
      formats::quantize_nvfp4(v.data(), 1, n, n, nv_global, codes.data(), s8.data());
      formats::dequantize_nvfp4(codes.data(), s8.data(), nv_global, 1, n, d.data());
      break;
  }
  return std::vector<double>(d.begin(), d.end());
}

struct F64Stats {
  int64_t clamped = 0;  // activations where a clamp changed g or u
};

inline double act64(const MoeConfig& c, double g, double u, F64Stats* st) {
  const double L = double(c.effective_limit());
  auto limit = [&] {
    const double g2 = std::min(g, L), u2 = std::max(-L, std::min(u, L));
    if (g2 != g || u2 != u) st->clamped++;
    g = g2;
    u = u2;
  };
  switch (c.activation) {
    case Activation::kSwiGLU:
      limit();
      return g / (1.0 + std::exp(-g)) * u;
    case Activation::kSwiGLUOAI: {
      limit();
      const double a = double(c.swiglu_alpha);
      return g * (1.0 / (1.0 + std::exp(-a * g))) * (u + 1.0);
    }
    case Activation::kGeGLU:
      return 0.5 * g * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (g + 0.044715 * g * g * g))) * u;
    case Activation::kReLU2: {
      const double r = g > 0 ? g : 0.0;
      return r * r;
    }
  }
  return 0;
}

// out64[t] per docs/DESIGN.md section 1, float64 sums, for routes to the experts this rank
// holds (W indexed by local slot).
inline std::vector<double> f64_forward(const MoeConfig& c, const std::vector<F64Expert>& W, const Problem& p,
                                       float fc1_global, float fc2_global, F64Stats* st = nullptr) {
  F64Stats dummy;
  if (!st) st = &dummy;
  const int64_t H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows(), K = c.top_k;
  const bool gated = c.activation != Activation::kReLU2;
  // This rank's local slot of each global expert (the placement, or the contiguous block).
  std::vector<int64_t> slot_of(static_cast<size_t>(c.num_experts), -1);
  for (int64_t le = 0; le < c.local_experts(); ++le) slot_of[size_t(c.global_expert(le))] = le;
  std::vector<double> out(static_cast<size_t>(p.T * H), 0.0);
  std::vector<float> xrow(static_cast<size_t>(H)), arow(static_cast<size_t>(I));
  std::vector<double> h(static_cast<size_t>(N13));
  for (int64_t t = 0; t < p.T; ++t) {
    for (int64_t i = 0; i < H; ++i) xrow[size_t(i)] = formats::bf16_bits_to_float(p.x[size_t(t * H + i)]);
    const std::vector<double> xq = quantize_act_for_test(c.recipe, xrow, fc1_global);
    for (int64_t k = 0; k < K; ++k) {
      const int64_t id = p.ids[size_t(t * K + k)];
      if (id < 0 || slot_of[size_t(id)] < 0) continue;
      const F64Expert& e = W[size_t(slot_of[size_t(id)])];
      for (int64_t n = 0; n < N13; ++n) {
        double s = 0;
        for (int64_t i = 0; i < H; ++i) s += xq[size_t(i)] * e.w13[size_t(n * H + i)];
        h[size_t(n)] = s + (e.b13.empty() ? 0.0 : e.b13[size_t(n)]);
      }
      for (int64_t i = 0; i < I; ++i) {
        const double a = gated ? act64(c, h[size_t(i)], h[size_t(I + i)], st) : act64(c, h[size_t(i)], 0, st);
        arow[size_t(i)] = bf16(float(a));
      }
      const std::vector<double> aq = quantize_act_for_test(c.recipe, arow, fc2_global);
      const double wk = p.w[size_t(t * K + k)];
      for (int64_t n = 0; n < H; ++n) {
        double s = 0;
        for (int64_t i = 0; i < I; ++i) s += aq[size_t(i)] * e.w2[size_t(n * I + i)];
        const double y = double(bf16(float(s + (e.b2.empty() ? 0.0 : e.b2[size_t(n)]))));
        out[size_t(t * H + n)] += wk * y;
      }
    }
  }
  return out;
}

// ||out - ref|| / ||ref||; NaN (or a NaN anywhere in out) gives NaN, which fails every `<`.
inline double rel_l2(const Problem& p, const std::vector<double>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    const double o = formats::bf16_bits_to_float(p.out[i]);
    if (std::isnan(o)) return std::numeric_limits<double>::quiet_NaN();
    num += (o - ref[i]) * (o - ref[i]);
    den += ref[i] * ref[i];
  }
  return den > 0 ? std::sqrt(num / den) : (num > 0 ? std::numeric_limits<double>::infinity() : 0.0);
}

inline double norm2(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

inline bool bitwise_equal(const std::vector<uint16_t>& a, const std::vector<uint16_t>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(uint16_t)) == 0;
}

inline MoeConfig make_config(int64_t E, int64_t K, int64_t H, int64_t I, Recipe r = Recipe::kBF16,
                             Activation a = Activation::kSwiGLU, bool bias = false) {
  MoeConfig c;
  c.num_experts = E;
  c.top_k = K;
  c.hidden_size = H;
  c.intermediate_size = I;
  c.recipe = r;
  c.activation = a;
  c.has_bias = bias;
  c.device = -1;
  c.backend = "cpu_reference";
  return c;
}

// Runs the reference and the float64 loop on one problem; returns rel-L2 (also checks that
// every output element was written and the output is not trivially zero). ref_out: the float64
// loop's output, when the caller wants more than the one number.
inline double check_against_f64(const MoeConfig& c, const formats::CanonicalWeights& cw, Problem& p,
                                int threads = 0, F64Stats* st = nullptr, std::vector<double>* ref_out = nullptr) {
  auto provider = reference::copy_canonical_weights(c, cw.view(c));
  p.poison();
  reference::moe_forward(c, *provider, p.xv(), p.idv(), p.wv(), p.outv(), threads);
  for (uint16_t v : p.out) EXPECT_NE(v, 0x7FC1) << "an output element was not written";
  const auto ref = f64_forward(c, dequantize_for_test(c, cw), p, cw.fc1_input_global_scale,
                               cw.fc2_input_global_scale, st);
  if (ref_out) *ref_out = ref;
  return rel_l2(p, ref);
}

// Per token (row of H outputs): ||out - ref|| / ||ref||, sorted ascending (tokens whose reference
// row is zero are left out).
inline std::vector<double> token_rel_l2_sorted(const Problem& p, const std::vector<double>& ref) {
  std::vector<double> r;
  for (int64_t t = 0; t < p.T; ++t) {
    double num = 0, den = 0;
    for (int64_t i = 0; i < p.H; ++i) {
      const size_t k = size_t(t * p.H + i);
      const double o = formats::bf16_bits_to_float(p.out[k]);
      num += (o - ref[k]) * (o - ref[k]);
      den += ref[k] * ref[k];
    }
    if (den > 0) r.push_back(std::sqrt(num / den));
  }
  std::sort(r.begin(), r.end());
  return r;
}

}  // namespace megamoe::reftest
