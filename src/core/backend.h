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
