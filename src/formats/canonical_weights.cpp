#include "formats/canonical_weights.h"

#include <cstring>
#include <string>

#include "formats/codecs.h"
#include "formats/quantize.h"
#include "megamoe/errors.h"

namespace megamoe::formats {

namespace {
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// Bytes of one [N, K] weight matrix and of its scales, per recipe.
struct MatrixBytes { size_t codes, scales; };
MatrixBytes matrix_bytes(Recipe r, int64_t N, int64_t K) {
  switch (r) {
    case Recipe::kBF16: return {size_t(N * K * 2), 0};
    case Recipe::kFP8Block: return {size_t(N * K), size_t(cdiv(N, 128) * cdiv(K, 128) * 4)};
    case Recipe::kMXFP8: return {size_t(N * K), size_t(N * (K / 32))};
    case Recipe::kW4A16MXFP4: case Recipe::kW4A8MXFP4: return {size_t(N * K / 2), size_t(N * (K / 32))};
    case Recipe::kW4A16NVFP4: case Recipe::kNVFP4: return {size_t(N * K / 2), size_t(N * (K / 16))};
  }
  return {0, 0};
}

// Quantizes one [N, K] float matrix into codes/scales at the given byte offsets.
void quantize_matrix(Recipe r, const float* src, int64_t N, int64_t K, uint8_t* codes, uint8_t* scales,
                     float* global) {
  switch (r) {
    case Recipe::kBF16: {
      auto* dst = reinterpret_cast<uint16_t*>(codes);
      for (int64_t i = 0; i < N * K; ++i) dst[i] = float_to_bf16_bits(src[i]);
      break;
    }
    case Recipe::kFP8Block:
      quantize_fp8_block_weight(src, N, K, codes, reinterpret_cast<float*>(scales));
      break;
    case Recipe::kMXFP8:
      quantize_mx(src, N, K, K, MxElem::kE4M3, codes, scales);
      break;
    case Recipe::kW4A16MXFP4: case Recipe::kW4A8MXFP4:
      quantize_mx(src, N, K, K, MxElem::kE2M1, codes, scales);
      break;
    case Recipe::kW4A16NVFP4: case Recipe::kNVFP4:
      *global = nvfp4_global_scale(src, N * K);
      quantize_nvfp4(src, N, K, K, *global, codes, scales);
      break;
  }
}

TensorView view3(const std::vector<uint8_t>& buf, DType dt, int64_t E, int64_t N, int64_t K) {
  return TensorView::contiguous(buf.data(), dt, {E, N, K});
}
}  // namespace

size_t canonical_weight_bytes(const MoeConfig& c) {
  const int64_t E = c.local_experts(), H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows();
  const auto a = matrix_bytes(c.recipe, N13, H), b = matrix_bytes(c.recipe, H, I);
  size_t bytes = size_t(E) * (a.codes + a.scales + b.codes + b.scales + 8);
  if (c.has_bias) bytes += size_t(E * (N13 + H) * 4);
  return bytes;
}

CanonicalWeights make_canonical_weights(const MoeConfig& c, const ExpertSource& source, size_t max_bytes) {
  const size_t need = canonical_weight_bytes(c);
  if (need > max_bytes)
    throw OutOfMemory("canonical " + std::string(recipe_name(c.recipe)) + " weights need " +
                      std::to_string(need >> 20) + " MiB, more than the " + std::to_string(max_bytes >> 20) +
                      " MiB allowed on this host");
  const int64_t E = c.local_experts(), H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows();
  const auto a = matrix_bytes(c.recipe, N13, H), b = matrix_bytes(c.recipe, H, I);
  CanonicalWeights w;
  w.w13.resize(size_t(E) * a.codes);
  w.w2.resize(size_t(E) * b.codes);
  w.w13_scale.resize(size_t(E) * a.scales);
  w.w2_scale.resize(size_t(E) * b.scales);
  const bool nv = c.recipe == Recipe::kW4A16NVFP4 || c.recipe == Recipe::kNVFP4;
  if (nv) { w.w13_global.resize(size_t(E)); w.w2_global.resize(size_t(E)); }
  if (c.has_bias) { w.b13.resize(size_t(E * N13)); w.b2.resize(size_t(E * H)); }
  std::vector<float> w13, w2, b13, b2;
  for (int64_t e = 0; e < E; ++e) {
    source(e, w13, w2, b13, b2);
    float g13 = 1.0f, g2 = 1.0f;
    quantize_matrix(c.recipe, w13.data(), N13, H, w.w13.data() + e * a.codes, w.w13_scale.data() + e * a.scales, &g13);
    quantize_matrix(c.recipe, w2.data(), H, I, w.w2.data() + e * b.codes, w.w2_scale.data() + e * b.scales, &g2);
    if (nv) { w.w13_global[size_t(e)] = g13; w.w2_global[size_t(e)] = g2; }
    if (c.has_bias) {
      std::memcpy(w.b13.data() + e * N13, b13.data(), size_t(N13) * 4);
      std::memcpy(w.b2.data() + e * H, b2.data(), size_t(H) * 4);
    }
  }
  return w;
}

MoeWeights CanonicalWeights::view(const MoeConfig& c) const {
  const int64_t E = c.local_experts(), H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows();
  MoeWeights m;
  switch (c.recipe) {
    case Recipe::kBF16:
      m.w13 = view3(w13, DType::kBF16, E, N13, H);
      m.w2 = view3(w2, DType::kBF16, E, H, I);
      break;
    case Recipe::kFP8Block:
      m.w13 = view3(w13, DType::kE4M3, E, N13, H);
      m.w2 = view3(w2, DType::kE4M3, E, H, I);
      m.w13_scale = view3(w13_scale, DType::kF32, E, cdiv(N13, 128), cdiv(H, 128));
      m.w2_scale = view3(w2_scale, DType::kF32, E, cdiv(H, 128), cdiv(I, 128));
      break;
    case Recipe::kMXFP8:
      m.w13 = view3(w13, DType::kE4M3, E, N13, H);
      m.w2 = view3(w2, DType::kE4M3, E, H, I);
      m.w13_scale = view3(w13_scale, DType::kE8M0, E, N13, H / 32);
      m.w2_scale = view3(w2_scale, DType::kE8M0, E, H, I / 32);
      break;
    case Recipe::kW4A16MXFP4: case Recipe::kW4A8MXFP4:
      m.w13 = view3(w13, DType::kU8, E, N13, H / 2);
      m.w2 = view3(w2, DType::kU8, E, H, I / 2);
      m.w13_scale = view3(w13_scale, DType::kE8M0, E, N13, H / 32);
      m.w2_scale = view3(w2_scale, DType::kE8M0, E, H, I / 32);
      break;
    case Recipe::kW4A16NVFP4: case Recipe::kNVFP4:
      m.w13 = view3(w13, DType::kU8, E, N13, H / 2);
      m.w2 = view3(w2, DType::kU8, E, H, I / 2);
      m.w13_scale = view3(w13_scale, DType::kE4M3, E, N13, H / 16);
      m.w2_scale = view3(w2_scale, DType::kE4M3, E, H, I / 16);
      m.w13_global_scale = TensorView::contiguous(w13_global.data(), DType::kF32, {E});
      m.w2_global_scale = TensorView::contiguous(w2_global.data(), DType::kF32, {E});
      break;
  }
  if (c.has_bias) {
    m.b13 = TensorView::contiguous(b13.data(), DType::kF32, {E, N13});
    m.b2 = TensorView::contiguous(b2.data(), DType::kF32, {E, H});
  }
  m.fc1_input_global_scale = fc1_input_global_scale;
  m.fc2_input_global_scale = fc2_input_global_scale;
  return m;
}

size_t CanonicalWeights::bytes() const {
  return w13.size() + w2.size() + w13_scale.size() + w2_scale.size() +
         4 * (w13_global.size() + w2_global.size() + b13.size() + b2.size());
}

}  // namespace megamoe::formats
