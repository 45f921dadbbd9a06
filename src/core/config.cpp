#include "megamoe/config.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/validate.h"
#include "ep/placement.h"
#include "megamoe/errors.h"

namespace megamoe {

namespace {
struct ActName { Activation a; const char* name; };
constexpr ActName kActs[] = {{Activation::kSwiGLU, "swiglu"}, {Activation::kSwiGLUOAI, "swiglu_oai"},
                             {Activation::kGeGLU, "geglu"}, {Activation::kReLU2, "relu2"}};
struct RecipeName { Recipe r; const char* name; };
constexpr RecipeName kRecipes[] = {
    {Recipe::kBF16, "bf16"},           {Recipe::kFP8Block, "fp8_block"},
    {Recipe::kW4A16MXFP4, "w4a16_mxfp4"}, {Recipe::kW4A16NVFP4, "w4a16_nvfp4"},
    {Recipe::kMXFP8, "mxfp8"},         {Recipe::kW4A8MXFP4, "w4a8_mxfp4"},
    {Recipe::kNVFP4, "nvfp4"}};
}  // namespace

const char* activation_name(Activation a) {
  for (const auto& x : kActs) if (x.a == a) return x.name;
  return "unknown";
}
const char* recipe_name(Recipe r) {
  for (const auto& x : kRecipes) if (x.r == r) return x.name;
  return "unknown";
}

Activation parse_activation(const std::string& name) {
  std::string all;
  for (const auto& x : kActs) {
    if (name == x.name) return x.a;
    all += all.empty() ? x.name : std::string("|") + x.name;
  }
  throw_invalid("activation", "one of " + all, "'" + name + "'");
}

Recipe parse_recipe(const std::string& name) {
  std::string all;
  for (const auto& x : kRecipes) {
    if (name == x.name) return x.r;
    all += all.empty() ? x.name : std::string("|") + x.name;
  }
  throw_invalid("recipe", "one of " + all, "'" + name + "'");
}

float MoeConfig::effective_limit() const {
  if (swiglu_limit) return *swiglu_limit;
  if (activation == Activation::kSwiGLUOAI) return 7.0f;
  return std::numeric_limits<float>::infinity();
}

void validate_config(const MoeConfig& c) {
  // Sizes in [1, 2^31): the GPU kernels index rows and columns with 32-bit integers, and with
  // every size below 2^31 the products below are computed without overflow.
  constexpr int64_t kMaxSize = std::numeric_limits<int32_t>::max();
  auto positive = [](const char* name, int64_t v) {
    if (v <= 0 || v > kMaxSize) throw_invalid(name, "a positive integer below 2^31", std::to_string(v));
  };
  positive("num_experts", c.num_experts);
  positive("top_k", c.top_k);
  positive("hidden_size", c.hidden_size);
  positive("intermediate_size", c.intermediate_size);
  if (std::string(activation_name(c.activation)) == "unknown")
    throw_invalid("activation", "a known activation (swiglu|swiglu_oai|geglu|relu2)",
                  std::to_string(int(c.activation)));
  if (std::string(recipe_name(c.recipe)) == "unknown")
    throw_invalid("recipe", "a known recipe (bf16|fp8_block|w4a16_mxfp4|w4a16_nvfp4|mxfp8|w4a8_mxfp4|nvfp4)",
                  std::to_string(int(c.recipe)));
  // A layer's weights: E * 2I * H elements (FC1) must fit far inside int64 (bytes, strides).
  constexpr int64_t kMaxElements = int64_t(1) << 60;
  const int64_t per_expert = c.fc1_rows() * c.hidden_size;  // < 2^32 * 2^31
  if (per_expert > kMaxElements / c.num_experts)
    throw_invalid("num_experts * fc1 rows * hidden_size", "at most 2^60 weight elements",
                  std::to_string(c.num_experts) + " * " + std::to_string(c.fc1_rows()) + " * " +
                      std::to_string(c.hidden_size));
  if (c.ep_size <= 0) throw_invalid("ep_size", "a positive integer", std::to_string(c.ep_size));
  if (c.ep_rank < 0 || c.ep_rank >= c.ep_size)
    throw_invalid("ep_rank", "a value in [0, ep_size=" + std::to_string(c.ep_size) + ")",
                  std::to_string(c.ep_rank));
  if (c.expert_placement.empty()) {
    // Contiguous blocks [r*E/R, (r+1)*E/R): E must split evenly.
    if (c.num_experts % c.ep_size != 0)
      throw_invalid("num_experts", "a multiple of ep_size=" + std::to_string(c.ep_size),
                    std::to_string(c.num_experts));
  } else {
    // An explicit placement: one list per rank, every entry in [0, E), no expert twice on one
    // rank, no empty rank (throws naming expert_placement[r][i]).
    (void)ep::make_placement_tables(c);
  }
  check_ep_style(c.ep_style, "ep_style");
  if (!(c.ep_timeout_s > 0.0) || !std::isfinite(c.ep_timeout_s))
    throw_invalid("ep_timeout_s", "a positive finite number of seconds", std::to_string(c.ep_timeout_s));
  if (c.top_k > c.num_experts)
    throw_invalid("top_k", "at most num_experts=" + std::to_string(c.num_experts),
                  std::to_string(c.top_k));
  if (c.max_tokens < 0 || c.max_tokens > kMaxSize)
    throw_invalid("max_tokens", "a non-negative integer below 2^31", std::to_string(c.max_tokens));
  if (c.device < -1) throw_invalid("device", "-1 (CPU) or a CUDA device ordinal", std::to_string(c.device));
  if (c.num_threads < 0) throw_invalid("num_threads", "0 (all cores) or a positive count", std::to_string(c.num_threads));
  if (c.swiglu_limit && !(*c.swiglu_limit > 0.0f))
    throw_invalid("swiglu_limit", "a positive value (or none)", std::to_string(*c.swiglu_limit));
  if (c.swiglu_limit && c.activation != Activation::kSwiGLU && c.activation != Activation::kSwiGLUOAI)
    throw_invalid("swiglu_limit", std::string("unset for activation ") + activation_name(c.activation),
                  std::to_string(*c.swiglu_limit));
  if (!std::isfinite(c.swiglu_alpha))
    throw_invalid("swiglu_alpha", "a finite value", std::to_string(c.swiglu_alpha));
  // Block-scaled recipes need K (H for FC1, I for FC2) to be a multiple of the scale block.
  int64_t block = 0;
  switch (c.recipe) {
    case Recipe::kW4A16MXFP4: case Recipe::kMXFP8: case Recipe::kW4A8MXFP4: block = 32; break;
    case Recipe::kW4A16NVFP4: case Recipe::kNVFP4: block = 16; break;
    default: break;
  }
  if (block) {
    if (c.hidden_size % block != 0)
      throw_invalid("hidden_size", std::string("a multiple of ") + std::to_string(block) + " for recipe " +
                    recipe_name(c.recipe), std::to_string(c.hidden_size));
    if (c.intermediate_size % block != 0)
      throw_invalid("intermediate_size", std::string("a multiple of ") + std::to_string(block) +
                    " for recipe " + recipe_name(c.recipe), std::to_string(c.intermediate_size));
  }
}

}  // namespace megamoe
