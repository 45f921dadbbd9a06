#include "core/workload.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "core/synthetic.h"
#include "formats/codecs.h"
#include "megamoe/errors.h"

namespace megamoe::workload {

const std::vector<Preset>& presets() {
  static const std::vector<Preset> p = {
      {"tiny", 256, 128, 8, 2, Activation::kSwiGLU, false, "a small layer for smoke runs"},
      {"deepseek-v3", 7168, 2048, 256, 8, Activation::kSwiGLU, false, "DeepSeek-V3/R1 routed experts"},
      {"qwen3-30b-a3b", 2048, 768, 128, 8, Activation::kSwiGLU, false, "Qwen3-30B-A3B"},
      {"gpt-oss-120b", 2880, 2880, 128, 4, Activation::kSwiGLUOAI, true, "gpt-oss-120b (swiglu_oai, limit 7, biases)"},
      {"mixtral-8x7b", 4096, 14336, 8, 2, Activation::kSwiGLU, false, "Mixtral-8x7B"},
      {"kimi-k2", 7168, 2048, 384, 8, Activation::kSwiGLU, false, "Kimi-K2"},
      {"qwen3.5-397b", 4096, 1024, 512, 10, Activation::kSwiGLU, false, "Qwen3.5-397B-A17B"},
  };
  return p;
}

const Preset& find_preset(const std::string& name) {
  std::string all;
  for (const auto& p : presets()) {
    if (p.name == name) return p;
    all += all.empty() ? p.name : "|" + p.name;
  }
  throw_invalid("preset", "one of " + all, "'" + name + "'");
}

MoeConfig preset_config(const Preset& p) {
  MoeConfig c;
  c.num_experts = p.experts;
  c.top_k = p.top_k;
  c.hidden_size = p.hidden;
  c.intermediate_size = p.intermediate;
  c.activation = p.activation;
  c.has_bias = p.has_bias;
  return c;
}

Routing parse_routing(const std::string& name) {
  if (name == "uniform") return Routing::kUniform;
  if (name == "zipf") return Routing::kZipf;
  if (name == "one-hot-expert") return Routing::kOneHotExpert;
  if (name == "balanced") return Routing::kBalanced;
  throw_invalid("routing", "one of uniform|zipf|one-hot-expert|balanced", "'" + name + "'");
}

const char* routing_name(Routing r) {
  switch (r) {
    case Routing::kUniform: return "uniform";
    case Routing::kZipf: return "zipf";
    case Routing::kOneHotExpert: return "one-hot-expert";
    case Routing::kBalanced: return "balanced";
  }
  return "unknown";
}

namespace {
// Uniform in [0, 1) from the hash.
double unit(uint64_t seed, uint64_t stream, uint64_t index) {
  return double(synthetic::hash3(seed, stream, index) >> 11) * (1.0 / 9007199254740992.0);
}
}  // namespace

Routes make_routes(int64_t T, int64_t E, int64_t K, Routing routing, uint64_t seed) {
  if (K > E) throw_invalid("top_k", "at most num_experts=" + std::to_string(E), std::to_string(K));
  if (T < 0 || K < 1 || T > std::numeric_limits<int32_t>::max() / K)
    throw_invalid("tokens", "a count in [0, 2^31 / top_k) (routes are indexed with 32-bit integers)",
                  std::to_string(T));
  Routes r;
  r.ids.assign(size_t(T * K), -1);
  r.weights.assign(size_t(T * K), 0.0f);
  // Zipf: cumulative weights over a permuted expert order (popular experts spread out).
  std::vector<int32_t> perm(static_cast<size_t>(E));
  std::iota(perm.begin(), perm.end(), 0);
  for (int64_t i = E - 1; i > 0; --i)
    std::swap(perm[size_t(i)], perm[size_t(synthetic::hash3(seed, 11, uint64_t(i)) % uint64_t(i + 1))]);
  std::vector<double> cdf(static_cast<size_t>(E));
  double acc = 0;
  for (int64_t i = 0; i < E; ++i) cdf[size_t(i)] = (acc += 1.0 / std::pow(double(i + 1), 1.2));
  for (auto& v : cdf) v /= acc;

  std::vector<char> taken(static_cast<size_t>(E));
  for (int64_t t = 0; t < T; ++t) {
    std::fill(taken.begin(), taken.end(), 0);
    uint64_t draw = uint64_t(t) * 1000003ull;
    for (int64_t k = 0; k < K; ++k) {
      int32_t e = -1;
      if (routing == Routing::kOneHotExpert && k == 0) {
        e = 0;
      } else if (routing == Routing::kBalanced) {
        e = perm[size_t((t * K + k) % E)];  // K consecutive slots: distinct, as K <= E
      } else {
        // Rejection until a new expert comes up (K <= E, so this ends).
        for (;;) {
          const double u = unit(seed, synthetic::kRouterLogits, draw++);
          int64_t pick;
          if (routing == Routing::kZipf) {
            pick = perm[size_t(std::lower_bound(cdf.begin(), cdf.end(), u) - cdf.begin())];
            if (pick >= E) pick = perm[size_t(E - 1)];
          } else {
            pick = std::min<int64_t>(int64_t(u * double(E)), E - 1);
          }
          if (!taken[size_t(pick)]) { e = int32_t(pick); break; }
        }
      }
      taken[size_t(e)] = 1;
      r.ids[size_t(t * K + k)] = e;
    }
    // Softmax over K random logits in [-2, 2).
    float mx = -1e30f;
    std::vector<float> logit(static_cast<size_t>(K));
    for (int64_t k = 0; k < K; ++k) {
      logit[size_t(k)] = synthetic::uniform(seed, synthetic::kTopkWeights, uint64_t(t * K + k), 2.0f);
      mx = std::max(mx, logit[size_t(k)]);
    }
    float sum = 0;
    for (int64_t k = 0; k < K; ++k) sum += (logit[size_t(k)] = std::exp(logit[size_t(k)] - mx));
    for (int64_t k = 0; k < K; ++k) r.weights[size_t(t * K + k)] = logit[size_t(k)] / sum;
  }
  return r;
}

std::vector<uint16_t> make_x(int64_t T, int64_t H, uint64_t seed) {
  std::vector<uint16_t> x(size_t(T * H));
  for (int64_t i = 0; i < T * H; ++i)
    x[size_t(i)] = formats::float_to_bf16_bits(synthetic::uniform(seed, synthetic::kX, uint64_t(i), 1.0f));
  return x;
}

}  // namespace megamoe::workload
