// Weight providers of the CPU reference: canonical weights copied from the caller (kept in
// their compact quantized form, dequantized one expert at a time on load) and synthetic
// weights regenerated per expert on demand (full-size presets never fit in host memory
// as floats).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>

#include "core/synthetic.h"
#include "core/validate.h"
#include "formats/codecs.h"
#include "formats/quantize.h"
#include "megamoe/errors.h"
#include "reference/reference.h"

namespace megamoe::reference {
namespace {

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool is_nvfp4(Recipe r) { return r == Recipe::kW4A16NVFP4 || r == Recipe::kNVFP4; }
bool is_mxfp4(Recipe r) { return r == Recipe::kW4A16MXFP4 || r == Recipe::kW4A8MXFP4; }
bool is_fp4(Recipe r) { return is_nvfp4(r) || is_mxfp4(r); }

// Bytes of one expert's codes and scales for an [N, K] weight of the recipe.
int64_t code_bytes(Recipe r, int64_t N, int64_t K) {
  if (r == Recipe::kBF16) return N * K * 2;
  if (is_fp4(r)) return N * K / 2;
  return N * K;  // e4m3
}
int64_t scale_bytes(Recipe r, int64_t N, int64_t K) {
  switch (r) {
    case Recipe::kBF16: return 0;
    case Recipe::kFP8Block: return cdiv(N, formats::kFp8BlockSize) * cdiv(K, formats::kFp8BlockSize) * 4;
    case Recipe::kMXFP8: case Recipe::kW4A16MXFP4: case Recipe::kW4A8MXFP4: return N * (K / formats::kMxBlockSize);
    case Recipe::kW4A16NVFP4: case Recipe::kNVFP4: return N * (K / formats::kNvfp4BlockSize);
  }
  return 0;
}

// Dequantizes one expert's [N, K] weight from its canonical codes/scales (alpha excluded).
void dequantize_weight(Recipe r, const uint8_t* codes, const uint8_t* scales, int64_t N, int64_t K,
                       float* dst) {
  switch (r) {
    case Recipe::kBF16: {
      const uint16_t* p = reinterpret_cast<const uint16_t*>(codes);
      for (int64_t i = 0; i < N * K; ++i) dst[i] = formats::bf16_bits_to_float(p[i]);
      return;
    }
    case Recipe::kFP8Block:
      formats::dequantize_fp8_block_weight(codes, reinterpret_cast<const float*>(scales), N, K, dst);
      return;
    case Recipe::kMXFP8:
      formats::dequantize_mx(codes, scales, N, K, formats::MxElem::kE4M3, dst);
      return;
    case Recipe::kW4A16MXFP4:
    case Recipe::kW4A8MXFP4:
      formats::dequantize_mx(codes, scales, N, K, formats::MxElem::kE2M1, dst);
      return;
    case Recipe::kW4A16NVFP4:
    case Recipe::kNVFP4:
      formats::dequantize_nvfp4(codes, scales, 1.0f, N, K, dst);
      return;
  }
}

// Quantize -> dequantize a bf16-valued [N, K] weight in place, 128 rows at a time (the
// fp8 block height; MX and NVFP4 scale per row, and the nvfp4 global scale is taken over
// the whole tensor first), so the result equals quantize_weight + dequantize_weight.
float roundtrip_weight_inplace(Recipe r, float* w, int64_t N, int64_t K) {
  if (r == Recipe::kBF16) return 1.0f;
  float global = 1.0f;
  if (is_nvfp4(r)) global = formats::nvfp4_global_scale(w, N * K);
  constexpr int64_t kRows = formats::kFp8BlockSize;
  std::vector<uint8_t> codes(size_t(code_bytes(r, std::min(N, kRows), K)));
  std::vector<uint8_t> scales(size_t(scale_bytes(r, std::min(N, kRows), K)));
  for (int64_t r0 = 0; r0 < N; r0 += kRows) {
    const int64_t rows = std::min(kRows, N - r0);
    float* p = w + r0 * K;
    switch (r) {
      case Recipe::kBF16: break;
      case Recipe::kFP8Block:
        formats::quantize_fp8_block_weight(p, rows, K, codes.data(), reinterpret_cast<float*>(scales.data()), false);
        break;
      case Recipe::kMXFP8:
        formats::quantize_mx(p, rows, K, K, formats::MxElem::kE4M3, codes.data(), scales.data());
        break;
      case Recipe::kW4A16MXFP4: case Recipe::kW4A8MXFP4:
        formats::quantize_mx(p, rows, K, K, formats::MxElem::kE2M1, codes.data(), scales.data());
        break;
      case Recipe::kW4A16NVFP4: case Recipe::kNVFP4:
        formats::quantize_nvfp4(p, rows, K, K, global, codes.data(), scales.data());
        break;
    }
    dequantize_weight(r, codes.data(), scales.data(), rows, K, p);
  }
  return global;
}

void bias_to_float(const TensorView& b, int64_t e, int64_t n, float* dst) {
  if (b.dtype == DType::kF32) {
    std::memcpy(dst, b.ptr<const float>() + e * n, size_t(n) * sizeof(float));
  } else {
    const uint16_t* p = b.ptr<const uint16_t>() + e * n;
    for (int64_t i = 0; i < n; ++i) dst[i] = formats::bf16_bits_to_float(p[i]);
  }
}

// ---- canonical weights, copied -------------------------------------------------------
class CanonicalProvider final : public WeightProvider {
 public:
  CanonicalProvider(const MoeConfig& c, const MoeWeights& w) : c_(c) {
    const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
    const Recipe r = c.recipe;
    fc1_.init(r, E, N13, H, w.w13, w.w13_scale, w.w13_global_scale, c.has_bias ? &w.b13 : nullptr);
    fc2_.init(r, E, H, I, w.w2, w.w2_scale, w.w2_global_scale, c.has_bias ? &w.b2 : nullptr);
    if (r == Recipe::kNVFP4) {
      in1_ = w.fc1_input_global_scale;
      in2_ = w.fc2_input_global_scale;
    }
  }

  void load(int64_t le, ExpertWeightsF32* out) const override {
    if (le < 0 || le >= c_.local_experts())
      throw_invalid("local_expert", "a value in [0, " + std::to_string(c_.local_experts()) + ")",
                    std::to_string(le));
    out->alpha13 = fc1_.load(c_.recipe, le, &out->w13, &out->b13);
    out->alpha2 = fc2_.load(c_.recipe, le, &out->w2, &out->b2);
  }
  float fc1_input_global_scale() const override { return in1_; }
  float fc2_input_global_scale() const override { return in2_; }
  size_t bytes() const override { return fc1_.bytes() + fc2_.bytes(); }

 private:
  struct Fc {
    int64_t N = 0, K = 0, cb = 0, sb = 0;
    std::vector<uint8_t> codes, scales;
    std::vector<float> global, bias;

    void init(Recipe r, int64_t E, int64_t n, int64_t k, const TensorView& w, const TensorView& s,
              const TensorView& g, const TensorView* b) {
      N = n;
      K = k;
      cb = code_bytes(r, N, K);
      sb = scale_bytes(r, N, K);
      codes.resize(size_t(E * cb));
      if (E * cb > 0) std::memcpy(codes.data(), w.data, codes.size());
      scales.resize(size_t(E * sb));
      if (E * sb > 0) std::memcpy(scales.data(), s.data, scales.size());
      if (is_nvfp4(r)) global.assign(g.ptr<const float>(), g.ptr<const float>() + E);
      if (b) {
        bias.resize(size_t(E * N));
        for (int64_t e = 0; e < E; ++e) bias_to_float(*b, e, N, bias.data() + e * N);
      }
    }
    float load(Recipe r, int64_t e, std::vector<float>* w, std::vector<float>* b) const {
      w->resize(size_t(N * K));
      dequantize_weight(r, codes.data() + e * cb, scales.data() + e * sb, N, K, w->data());
      if (bias.empty()) {
        b->clear();
      } else {
        b->assign(bias.begin() + e * N, bias.begin() + (e + 1) * N);
      }
      return global.empty() ? 1.0f : global[size_t(e)];
    }
    size_t bytes() const {
      return codes.size() + scales.size() + (global.size() + bias.size()) * sizeof(float);
    }
  };

  MoeConfig c_;
  Fc fc1_, fc2_;
  float in1_ = 1.0f, in2_ = 1.0f;
};

// ---- synthetic weights, regenerated per expert ---------------------------------------
class SyntheticProvider final : public WeightProvider {
 public:
  SyntheticProvider(const MoeConfig& c, uint64_t seed) : c_(c), seed_(seed) {}

  void load(int64_t le, ExpertWeightsF32* out) const override {
    if (le < 0 || le >= c_.local_experts())
      throw_invalid("local_expert", "a value in [0, " + std::to_string(c_.local_experts()) + ")",
                    std::to_string(le));
    synthetic_expert_bf16(c_, seed_, c_.global_expert(le), out);
    const int64_t N13 = c_.fc1_rows(), H = c_.hidden_size, I = c_.intermediate_size;
    out->alpha13 = roundtrip_weight_inplace(c_.recipe, out->w13.data(), N13, H);
    out->alpha2 = roundtrip_weight_inplace(c_.recipe, out->w2.data(), H, I);
  }
  float fc1_input_global_scale() const override {
    return c_.recipe == Recipe::kNVFP4 ? kSyntheticNvfp4InputGlobalScale : 1.0f;
  }
  float fc2_input_global_scale() const override { return fc1_input_global_scale(); }

 private:
  MoeConfig c_;
  uint64_t seed_;
};

void fill_uniform_bf16(uint64_t seed, uint64_t stream, uint64_t base, int64_t n, float scale, float* dst) {
  for (int64_t i = 0; i < n; ++i)
    dst[i] = formats::round_to_bf16(synthetic::uniform(seed, stream, base + uint64_t(i), scale));
}

}  // namespace

std::unique_ptr<WeightProvider> copy_canonical_weights(const MoeConfig& config, const MoeWeights& weights) {
  validate_config(config);
  validate_weights(config, weights, {Device::cpu()});
  return std::make_unique<CanonicalProvider>(config, weights);
}

std::unique_ptr<WeightProvider> synthetic_weights(const MoeConfig& config, uint64_t seed) {
  validate_config(config);
  return std::make_unique<SyntheticProvider>(config, seed);
}

void synthetic_expert_bf16(const MoeConfig& c, uint64_t seed, int64_t g, ExpertWeightsF32* out) {
  if (g < 0 || g >= c.num_experts)
    throw_invalid("global_expert", "a value in [0, " + std::to_string(c.num_experts) + ")", std::to_string(g));
  const int64_t N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
  const uint64_t ug = uint64_t(g);
  out->w13.resize(size_t(N13 * H));
  out->w2.resize(size_t(H * I));
  fill_uniform_bf16(seed, synthetic::kW13, ug * uint64_t(N13 * H), N13 * H, 1.0f / std::sqrt(float(H)),
                    out->w13.data());
  fill_uniform_bf16(seed, synthetic::kW2, ug * uint64_t(H * I), H * I, 1.0f / std::sqrt(float(I)),
                    out->w2.data());
  if (c.has_bias) {
    out->b13.resize(size_t(N13));
    out->b2.resize(size_t(H));
    fill_uniform_bf16(seed, synthetic::kB13, ug * uint64_t(N13), N13, 0.1f, out->b13.data());
    fill_uniform_bf16(seed, synthetic::kB2, ug * uint64_t(H), H, 0.1f, out->b2.data());
  } else {
    out->b13.clear();
    out->b2.clear();
  }
  out->alpha13 = 1.0f;
  out->alpha2 = 1.0f;
}

formats::CanonicalWeights synthetic_canonical_weights(const MoeConfig& c, uint64_t seed, size_t max_bytes) {
  validate_config(c);
  auto source = [&](int64_t le, std::vector<float>& w13, std::vector<float>& w2, std::vector<float>& b13,
                    std::vector<float>& b2) {
    ExpertWeightsF32 e;
    synthetic_expert_bf16(c, seed, c.global_expert(le), &e);
    w13 = std::move(e.w13);
    w2 = std::move(e.w2);
    b13 = std::move(e.b13);
    b2 = std::move(e.b2);
  };
  formats::CanonicalWeights w = formats::make_canonical_weights(c, source, max_bytes);
  if (c.recipe == Recipe::kNVFP4) {
    w.fc1_input_global_scale = kSyntheticNvfp4InputGlobalScale;
    w.fc2_input_global_scale = kSyntheticNvfp4InputGlobalScale;
  }
  return w;
}

}  // namespace megamoe::reference
