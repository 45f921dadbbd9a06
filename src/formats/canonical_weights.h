// Owning canonical weights for any recipe, made by quantizing float (bf16-valued) expert
// weights with the recipe's CPU quantizer. Used by the CLI, tests and Python helpers to
// build MoeWeights (include/megamoe/weights.h) for a recipe from bf16 master weights.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "megamoe/config.h"
#include "megamoe/weights.h"

namespace megamoe::formats {

struct CanonicalWeights {
  std::vector<uint8_t> w13, w2;          // bf16 bits / e4m3 codes / packed e2m1, per recipe
  std::vector<uint8_t> w13_scale, w2_scale;  // f32 (fp8_block), e8m0 or e4m3 codes
  std::vector<float> w13_global, w2_global;  // nvfp4 recipes
  std::vector<float> b13, b2;            // fp32 biases when config.has_bias
  float fc1_input_global_scale = 1.0f, fc2_input_global_scale = 1.0f;
  MoeWeights view(const MoeConfig& config) const;  // host TensorViews over the buffers
  size_t bytes() const;
};

// One local expert's bf16-valued float weights: w13 [N13*H], w2 [H*I], b13 [N13], b2 [H]
// (biases only when config.has_bias).
using ExpertSource = std::function<void(int64_t local_expert, std::vector<float>& w13,
                                        std::vector<float>& w2, std::vector<float>& b13,
                                        std::vector<float>& b2)>;

// Quantizes every local expert with config.recipe's quantizer. Throws OutOfMemory (naming
// the size) when the result would exceed `max_bytes`.
CanonicalWeights make_canonical_weights(const MoeConfig& config, const ExpertSource& source,
                                        size_t max_bytes);
// Bytes make_canonical_weights would allocate for this config.
size_t canonical_weight_bytes(const MoeConfig& config);

}  // namespace megamoe::formats
