// Model presets and synthetic workloads (tokens, routing, router weights) shared by the
// CLI (`megamoe run|bench|check`), the benchmarks and the tests. Everything is derived
// deterministically from a seed with synthetic::uniform, so host and device agree.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "megamoe/config.h"

namespace megamoe::workload {

struct Preset {
  std::string name;
  int64_t hidden, intermediate, experts, top_k;
  Activation activation;
  bool has_bias;
  std::string note;
};
const std::vector<Preset>& presets();
// Throws InvalidArgument naming the valid presets.
const Preset& find_preset(const std::string& name);
// A config for the preset (recipe bf16, backend auto, CPU) — callers adjust fields.
MoeConfig preset_config(const Preset& p);

enum class Routing : uint8_t { kUniform, kZipf, kOneHotExpert, kBalanced };
Routing parse_routing(const std::string& name);  // uniform|zipf|one-hot-expert|balanced
const char* routing_name(Routing r);

// K distinct experts per token (expert ids in [0, E)): uniform, Zipf(s = 1.2) over a
// seed-permuted expert order, every token's first choice on expert 0 (the rest uniform), or
// balanced: route k of token t on expert perm[(t K + k) mod E] (perm seed-permuted), so every
// expert gets floor or ceil of T K / E rows (the equal loads of GEMM benchmarks; with uniform
// routing the counts scatter, and the ragged last tile of each expert costs MMA work).
// Router weights: softmax of random logits over the chosen K, so each row sums to 1.
struct Routes {
  std::vector<int32_t> ids;      // [T, K]
  std::vector<float> weights;    // [T, K]
};
Routes make_routes(int64_t T, int64_t E, int64_t K, Routing routing, uint64_t seed);

// x [T, H] as bf16 bits: uniform in [-1, 1), rounded to bf16 (RNE).
std::vector<uint16_t> make_x(int64_t T, int64_t H, uint64_t seed);


}  // namespace megamoe::workload
