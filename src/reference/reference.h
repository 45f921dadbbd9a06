// The CPU reference MoE: the oracle every backend is tested against (docs/DESIGN.md section 1).
// It works one expert at a time through a WeightProvider, so a full-size layer whose
// weights do not fit in host memory can still be evaluated (weights regenerated on demand).
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "formats/canonical_weights.h"
#include "megamoe/config.h"
#include "megamoe/tensor.h"
#include "megamoe/weights.h"

namespace megamoe::reference {

// One expert's weights, dequantized to float exactly as the recipe defines them.
struct ExpertWeightsF32 {
  std::vector<float> w13;  // [N13, H]
  std::vector<float> w2;   // [H, I]
  std::vector<float> b13;  // [N13] or empty
  std::vector<float> b2;   // [H] or empty
  float alpha13 = 1.0f;    // per-expert global scale applied after FC1 accumulation (nvfp4)
  float alpha2 = 1.0f;
};

// Gives a local expert's dequantized weights. Must be thread-safe (const, no shared state).
class WeightProvider {
 public:
  virtual ~WeightProvider() = default;
  virtual void load(int64_t local_expert, ExpertWeightsF32* out) const = 0;
  // Quantized-activation recipes: the nvfp4 activation global scales (1 otherwise).
  virtual float fc1_input_global_scale() const { return 1.0f; }
  virtual float fc2_input_global_scale() const { return 1.0f; }
  // Host bytes this provider holds (0 for providers that regenerate weights on demand).
  virtual size_t bytes() const { return 0; }
};

// Copies validated canonical weights (host memory) into an owning provider.
std::unique_ptr<WeightProvider> copy_canonical_weights(const MoeConfig& config,
                                                       const MoeWeights& weights);

// The nvfp4 (W4A4) activation global scale synthetic weights use for both FC1 and FC2
// inputs: block scales cover |x| up to 448*6/64 = 42 and stay normal e4m3 down to
// block amax ~ 0.0015.
constexpr float kSyntheticNvfp4InputGlobalScale = 1.0f / 64.0f;

// Synthetic weights for presets and benchmarks: bf16 values drawn with
// synthetic::uniform(seed, stream, index) (w13 scale 1/sqrt(H), w2 scale 1/sqrt(I), biases
// 0.1), then quantized with the recipe's quantizer and dequantized. Generated per expert on
// demand; nothing is stored. The expert index in the stream is the *global* expert id: local
// slot le holds config.global_expert(le) (the placement, or the contiguous block), so an EP
// rank's provider sees the same weights as the unsharded layer and replicas of an expert on
// several ranks are identical.
std::unique_ptr<WeightProvider> synthetic_weights(const MoeConfig& config, uint64_t seed);
// The canonical bf16 weights of one global expert that synthetic_weights starts from
// (w13 [N13,H], w2 [H,I], b13, b2 as floats holding bf16 values). Exactly (g = global
// expert, N13 = config.fc1_rows(), bf16() = formats::round_to_bf16, u = synthetic::uniform):
//   w13[n][h] = bf16(u(seed, kW13, (g*N13 + n)*H + h, 1.0f/std::sqrt(float(H))))
//   w2[n][i]  = bf16(u(seed, kW2,  (g*H + n)*I + i,   1.0f/std::sqrt(float(I))))
//   b13[n]    = bf16(u(seed, kB13, g*N13 + n, 0.1f)),  b2[n] = bf16(u(seed, kB2, g*H + n, 0.1f))
// (biases only when config.has_bias; alpha13 = alpha2 = 1). The index is the flat index
// into the global canonical [E, N, K] tensor, so a device generator can reproduce it.
// Quantization (synthetic_weights, synthetic_canonical_weights): fp8_block with
// ue8m0 = false; MX with MxElem per recipe; nvfp4 with global = nvfp4_global_scale() over
// that expert's whole w13 (resp. w2), which becomes alpha13 (alpha2).
void synthetic_expert_bf16(const MoeConfig& config, uint64_t seed, int64_t global_expert,
                           ExpertWeightsF32* out);

// The canonical weights of this rank's experts (config.ep_rank; slot le = global expert
// config.global_expert(le)) that synthetic_weights describes, built with
// formats::make_canonical_weights from synthetic_expert_bf16 (nvfp4: activation globals =
// kSyntheticNvfp4InputGlobalScale).
// copy_canonical_weights(config, w.view(config)) loads bit for bit what
// synthetic_weights(config, seed) loads. Throws OutOfMemory above `max_bytes`.
formats::CanonicalWeights synthetic_canonical_weights(const MoeConfig& config, uint64_t seed,
                                                      size_t max_bytes = size_t(4) << 30);

// The recipe's activation quantize->dequantize round trip for one row of n values that
// are already bf16 (docs/DESIGN.md section 1): identity for bf16 and the W4A16 recipes; fp8_block:
// e4m3 with an fp32 scale per 128 columns (quantize_fp8_act_1x128); mxfp8 / w4a8_mxfp4:
// MX e4m3 per 32; nvfp4: quantize_nvfp4 with `nvfp4_global_scale`, dequantized with it.
// src and dst may alias.
void activation_roundtrip(Recipe recipe, const float* src, int64_t n, float nvfp4_global_scale,
                          float* dst);

// out[t] = bf16(sum_k w[t,k] * y[t,k]) per docs/DESIGN.md section 1, for the routes whose
// expert this rank holds (config.ep_rank's list in config.expert_placement, or its contiguous
// block when the placement is empty; `weights` is indexed by local slot, and a route to
// global expert e uses the slot where e sits on this rank). Routes to experts this rank does
// not hold contribute nothing; with ep_size == 1 that is none. With replicas (an expert on
// several ranks) every holder computes all of that expert's routes here, so summing the
// ranks' outputs is not the EP result: moe_forward_ep_simulated is.
// x [T,H] bf16 (row stride >= H), ids [T,K] i32/i64, topk_weights [T,K] f32, out [T,H] bf16,
// all host memory. Invalid ids (not -1, not in [0,E)) throw InvalidArgument before any work.
// Bitwise deterministic for any num_threads (0 = all cores). Numerics: FP32 dot products
// with 8 partial sums in a fixed order and a fixed reduction tree; activations in float;
// a, y and out rounded to bf16 (RNE) exactly where docs/DESIGN.md section 1 says. Memory: at most
// min(threads, 6 GiB / expert bytes) experts are held as float at once.
void moe_forward(const MoeConfig& config, const WeightProvider& weights, const TensorView& x,
                 const TensorView& topk_ids, const TensorView& topk_weights, const TensorView& out,
                 int num_threads = 0);

// Expert parallelism simulated in memory: ranks[r] holds rank r's tokens and the provider of
// the experts rank r holds, in its local slot order (config.ep_size = R, config.expert_placement
// as for the layer; config.ep_rank is ignored). Dispatch sends each valid route (source rank s,
// source-local token t, global expert e) to the rank and local slot ep::ep_route_target picks
// (src/ep/placement.h: the replica on s if there is one, else replica (t + s) mod n of the n
// holders in ascending rank order), exactly where the GPU exchange sends it. A token's bf16 x
// row is sent once to each rank that receives any of its routes; that rank runs each route's
// expert on it, the bf16 y row returns to the source rank, which combines in k order.
// Routes (id in [0, E)) to an expert that no rank holds go nowhere and contribute nothing
// (as if their id were -1); they are counted in stats. With every expert held (any placement,
// any replicas) the result equals R = 1 bit for bit; with some experts unheld it equals R = 1
// run with those routes' ids set to -1.
struct EpRankIO {
  const WeightProvider* weights = nullptr;
  TensorView x, topk_ids, topk_weights, out;
};
// What the simulated exchange did (filled when the pointer is given, after validation).
struct EpSimulationStats {
  int64_t unrouted = 0;                   // valid routes whose expert has no holder (all ranks)
  std::vector<int64_t> unrouted_by_rank;  // [R]: those routes, per source rank
  std::vector<int64_t> routes;            // [R*R]: routes[s*R + d] sent from source s to rank d
  std::vector<int64_t> rows;              // [R*R]: x rows (tokens) sent from s to d (s == d included)
};
void moe_forward_ep_simulated(const MoeConfig& config, const std::vector<EpRankIO>& ranks,
                              int num_threads = 0, EpSimulationStats* stats = nullptr);

// The activation moe_forward applies to one output of FC1 (before a's bf16 rounding): gated
// activations act(g, u) on gate g and up u (the clamps by `limit`, swiglu_oai's slope `alpha`);
// relu2 relu(g)^2 (u unused). For tests that check one stage against the reference's arithmetic.
float activation_value(Activation act, float g, float u, float limit, float alpha);

}  // namespace megamoe::reference
