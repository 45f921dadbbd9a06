// MoeLayer: one Mixture-of-Experts block (route -> FC1 + act -> FC2 -> combine).
//
//   megamoe::MoeConfig cfg; cfg.num_experts = 128; cfg.top_k = 8; ...
//   megamoe::MoeLayer layer(cfg);            // picks/creates the backend, sizes workspace
//   layer.prepare_weights(weights);          // canonical -> backend layout, once
//   layer.forward(x, topk_ids, topk_weights, out, stream);
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "megamoe/config.h"
#include "megamoe/stream.h"
#include "megamoe/tensor.h"
#include "megamoe/weights.h"

namespace megamoe {

class Backend;

class MoeLayer {
 public:
  // Validates the config and creates the backend (config.backend or "auto"). Throws
  // InvalidArgument for a bad config and Unsupported when no backend can run it.
  explicit MoeLayer(const MoeConfig& config);
  ~MoeLayer();
  MoeLayer(MoeLayer&&) noexcept;
  MoeLayer& operator=(MoeLayer&&) noexcept;

  // Takes canonical weights (include/megamoe/weights.h) on the host or on the layer's
  // device and stores them in the backend's layout. Validates every tensor first. On a GPU
  // backend the copies and preparation kernels run on `stream` (nullptr: the legacy default
  // stream, ordered after work on blocking streams), so they follow the caller's pending
  // writes to device-resident weights; the call then synchronises `stream` (only) and returns
  // with the weights in place: the caller may free or overwrite its tensors at once.
  void prepare_weights(const MoeWeights& weights, cudaStream_t stream = nullptr);

  // x [T,H] bf16 (row stride >= H), topk_ids [T,K] int32/int64, topk_weights [T,K] f32,
  // out [T,H] bf16 (written, never read). T <= config.max_tokens. On a GPU backend the
  // call is asynchronous on `stream` (nullptr = the legacy default stream), allocates
  // nothing and never synchronises, so it can be captured in a CUDA graph.
  // Calls on one layer must not overlap (they share its workspace and tile counters: order them on
  // one stream or with events); different layers may run concurrently.
  // Ids: -1 = no route; other ids outside [0, E) are invalid. Host-resident ids are
  // checked before launch (InvalidArgument); device-resident invalid ids are treated as
  // no route and counted in a device error word, read by invalid_id_count().
  void forward(const TensorView& x, const TensorView& topk_ids, const TensorView& topk_weights,
               const TensorView& out, cudaStream_t stream = nullptr);

  // Invalid ids seen by forward since the last call (synchronises `stream`); resets to 0.
  // Throws megamoe::Error when a one-launch (Mega) forward since the last call gave up waiting
  // for one of its own tiles (bound: 1 s, MEGAMOE_MEGA_WAIT_TIMEOUT_MS): its output is not valid.
  int64_t invalid_id_count(cudaStream_t stream = nullptr);

  // Expert parallelism (config.ep_group set; docs/EP.md). Synchronises `stream`, then throws
  // CommError when an exchange since the last call waited longer than config.ep_timeout_s for
  // a peer (dead, raised before the exchange, or not calling forward) or the group was
  // aborted; resets the word. Outputs of such forwards are not valid. No-op otherwise.
  void check_errors(cudaStream_t stream = nullptr);
  // Routes whose expert no rank holds (a placement without it, e.g. after a shrink), seen by
  // forward since the last call; they contribute nothing. Synchronises `stream`; resets to 0.
  int64_t unrouted_count(cudaStream_t stream = nullptr);

  const MoeConfig& config() const;
  std::string backend_name() const;
  // Device (or host) workspace held by the layer, excluding prepared weights.
  size_t workspace_bytes() const;
  // Bytes of prepared weights held by the layer.
  size_t weight_bytes() const;

  // Tactics (docs/TUNING.md): the alternatives the backend can run (empty for the CPU
  // reference; an expert-parallel layer's are its inner backend's), the one a forward of T tokens runs, where the
  // layer's tactic table came from ("none", "shipped defaults", with " (measured on <GPU>)" or
  // " (the buckets it does not name: measured on <GPU>)" where another GPU's entry serves, or the
  // cache path; a split backend's borrowed table adds " (measured for <its Mega backend>)"), and a
  // tactic to run for every T ("" = back to table / heuristic; InvalidArgument for a name not
  // in tactic_names()). A forced tactic that cannot run some T (the one-launch kernel above
  // its limits) runs the heuristic's choice there.
  std::vector<std::string> tactic_names() const;
  std::string tactic_for(int64_t num_tokens) const;
  std::string tactic_source() const;
  void force_tactic(const std::string& name);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Names of the registered backends, in "auto" preference order.
std::vector<std::string> registered_backends();

}  // namespace megamoe
