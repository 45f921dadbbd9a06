// Layer configuration: model shape, expert parallelism, activation, recipe, backend.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace megamoe {

class EpGroup;  // megamoe/ep.h

// Activation applied to FC1's output h (gate g = h[0:I], up u = h[I:2I]); see docs/DESIGN.md section 1.
enum class Activation : uint8_t {
  kSwiGLU,     // silu(g) * u, with an optional clamp `limit`
  kSwiGLUOAI,  // gpt-oss: g*sigmoid(alpha*g)*(u+1) after clamping, alpha 1.702, limit 7 by default
  kGeGLU,      // gelu_tanh(g) * u
  kReLU2,      // relu(h)^2, not gated: FC1 has I rows
};

// Weight/activation formats ("recipes"), docs/DESIGN.md section 2.
enum class Recipe : uint8_t {
  kBF16,        // bf16 x bf16
  kFP8Block,    // e4m3 weights with fp32 128x128 block scales, e4m3 activations with 1x128 scales
  kW4A16MXFP4,  // e2m1 weights with e8m0 per 32, bf16 activations
  kW4A16NVFP4,  // e2m1 weights with e4m3 per 16 and fp32 per-expert global, bf16 activations
  kMXFP8,       // e4m3 weights and activations with e8m0 per 32
  kW4A8MXFP4,   // e2m1 weights (e8m0/32) x e4m3 activations (e8m0/32)
  kNVFP4,       // e2m1 weights and activations, e4m3 per 16 + fp32 global
};

const char* activation_name(Activation a);
const char* recipe_name(Recipe r);
// Parse the names above ("swiglu", "swiglu_oai", "geglu", "relu2"; "bf16", "fp8_block",
// "w4a16_mxfp4", "w4a16_nvfp4", "mxfp8", "w4a8_mxfp4", "nvfp4"); throws InvalidArgument.
Activation parse_activation(const std::string& name);
Recipe parse_recipe(const std::string& name);

struct MoeConfig {
  int64_t num_experts = 0;        // E: experts in the whole model
  int64_t top_k = 0;              // K
  int64_t hidden_size = 0;        // H
  int64_t intermediate_size = 0;  // I (per expert)
  int ep_rank = 0;                // this rank, in [0, ep_size)
  int ep_size = 1;                // R: ranks; rank r owns experts [r*E/R, (r+1)*E/R) by default
  // Expert parallelism on GPUs (docs/EP.md): the communicator; ep_size and ep_rank are taken
  // from it (MoeLayer overwrites them). Not needed by the CPU reference's EP simulation.
  std::shared_ptr<EpGroup> ep_group;
  // Placement: expert_placement[r] lists the global experts rank r holds, in local slot order
  // (its weights' first dimension). Empty: contiguous blocks [r*E/R, (r+1)*E/R). An expert may
  // sit on several ranks (replicas of hot experts): a route goes to the replica on its source
  // rank when there is one, else to replica (t + source rank) mod n of the n holders in
  // ascending rank order (ep_replica_index). An expert on no rank is "no route" (counted).
  std::vector<std::vector<int32_t>> expert_placement;
  std::string ep_style = "auto";  // token exchange: "push", "pull" or "auto" (docs/EP.md)
  double ep_timeout_s = 5.0;      // a peer dependency not met within this raises CommError
  Activation activation = Activation::kSwiGLU;
  std::optional<float> swiglu_limit;  // clamp L; swiglu_oai defaults to 7.0, swiglu to none
  float swiglu_alpha = 1.702f;        // swiglu_oai's sigmoid slope
  Recipe recipe = Recipe::kBF16;
  bool has_bias = false;              // b13 [E_local, N13] and b2 [E_local, H] are given
  std::string backend = "auto";      // a registered backend name, or "auto"
  int64_t max_tokens = 8192;         // capacity: forward accepts T <= max_tokens
  int device = -1;                   // CUDA device ordinal; -1 = CPU (the reference backend)
  int num_threads = 0;               // CPU backends: 0 = all cores
  // Tactic cache written by `megamoe tune` (docs/TUNING.md): "" = the default location
  // ($MEGAMOE_TACTIC_CACHE, else $XDG_CACHE_HOME or ~/.cache /megamoe/tactics.json), "off" = no
  // cache and no shipped defaults (each backend's heuristic), else a file path. Read once, when
  // the layer is created; a missing file is fine, a corrupt or stale one is ignored with a warning.
  std::string tactic_cache;

  // Experts held by this rank (the first dimension of its weights).
  int64_t local_experts() const {
    if (!expert_placement.empty())
      return ep_rank >= 0 && size_t(ep_rank) < expert_placement.size() ? int64_t(expert_placement[size_t(ep_rank)].size()) : 0;
    return ep_size > 0 ? num_experts / ep_size : 0;
  }
  // The global expert in this rank's local slot `slot` (placement, or the contiguous block).
  int64_t global_expert(int64_t slot) const {
    if (!expert_placement.empty()) return expert_placement[size_t(ep_rank)][size_t(slot)];
    return first_local_expert() + slot;
  }
  // Contiguous placement only: this rank's first expert.
  int64_t first_local_expert() const { return ep_rank * (ep_size > 0 ? num_experts / ep_size : 0); }
  bool contiguous_placement() const { return expert_placement.empty(); }
  // FC1 output rows per expert: 2I for gated activations, I for relu2.
  int64_t fc1_rows() const { return activation == Activation::kReLU2 ? intermediate_size : 2 * intermediate_size; }
  float effective_limit() const;  // +inf when there is no clamp
};

// Checks the configuration itself (sizes in [1, 2^31), max_tokens in [0, 2^31), E * N13 * H <= 2^60,
// known activation and recipe, E % R, K <= E, ...); throws InvalidArgument.
void validate_config(const MoeConfig& config);

}  // namespace megamoe
