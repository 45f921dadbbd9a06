// Internal backend interface and registry. A backend implements the whole forward
// pass for one (architecture, recipe, style); its name says which:
// sm<arch>_<act>_<weight>_<out>_<style>, or cpu_reference.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "megamoe/config.h"
#include "megamoe/tensor.h"
#include "megamoe/weights.h"

namespace megamoe {

// Arguments of one forward call, already validated by MoeLayer.
struct ForwardArgs {
  TensorView x, topk_ids, topk_weights, out;
  int64_t num_tokens = 0;
  void* stream = nullptr;  // cudaStream_t for GPU backends
  // Expert parallelism's owner side: when set, the backend skips the combine and writes each
  // valid route's y row, rounded to bf16 exactly as combine rounds it (b2 added first), to
  // route_out[(t*K + k) * H ...] (bf16, contiguous [T*K, H]); rows of -1/invalid routes are
  // not written. topk_weights is not read.
  void* route_out = nullptr;
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Weights are validated (dtypes, shapes, devices) before this is called. `stream`: the
  // caller's cudaStream_t for device backends (nullptr: the legacy default stream); the call
  // returns with the weights in place.
  virtual void prepare_weights(const MoeWeights& weights, void* stream) = 0;
  virtual void forward(const ForwardArgs& args) = 0;
  virtual size_t workspace_bytes() const { return 0; }
  virtual size_t weight_bytes() const { return 0; }
  // Reads and resets the invalid-id counter (device backends synchronise `stream`).
  virtual int64_t invalid_id_count(void* stream) { (void)stream; return 0; }
  // Expert parallelism (see MoeLayer): throws CommError / reads the unrouted counter.
  virtual void check_errors(void* stream) { (void)stream; }
  virtual int64_t unrouted_count(void* stream) { (void)stream; return 0; }
  // Whether forward() honours ForwardArgs::route_out (the EP owner side needs it).
  virtual bool supports_route_out() const { return false; }
};

struct BackendInfo {
  std::string name;
  // Empty string: this backend can run `config` here; otherwise the reason it cannot.
  std::function<std::string(const MoeConfig&)> why_not;
  std::function<std::unique_ptr<Backend>(const MoeConfig&)> create;
};

// All backends in "auto" preference order (fastest first, cpu_reference last).
const std::vector<BackendInfo>& backend_registry();

}  // namespace megamoe
