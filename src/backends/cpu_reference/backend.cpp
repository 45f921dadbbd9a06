// cpu_reference: the CPU reference MoE (src/reference) behind the Backend interface.
// prepare_weights keeps a compact copy of the canonical weights; forward dequantizes one
// expert at a time and runs reference::moe_forward on config.num_threads threads.
#include <memory>
#include <string>

#include "core/backend.h"
#include "megamoe/errors.h"
#include "reference/reference.h"

namespace megamoe {
namespace {

class CpuReferenceBackend final : public Backend {
 public:
  explicit CpuReferenceBackend(const MoeConfig& config) : config_(config) {}

  void prepare_weights(const MoeWeights& weights, void* /*stream: host copies only*/) override {
    weights_.reset();
    weights_ = reference::copy_canonical_weights(config_, weights);
  }

  void forward(const ForwardArgs& args) override {
    if (!weights_) throw Error("megamoe: cpu_reference: forward() before prepare_weights()");
    reference::moe_forward(config_, *weights_, args.x, args.topk_ids, args.topk_weights, args.out,
                           config_.num_threads);
  }

  size_t weight_bytes() const override { return weights_ ? weights_->bytes() : 0; }

 private:
  MoeConfig config_;
  std::unique_ptr<reference::WeightProvider> weights_;
};

}  // namespace

BackendInfo cpu_reference_backend_info() {
  BackendInfo info;
  info.name = "cpu_reference";
  info.why_not = [](const MoeConfig& config) -> std::string {
    if (config.device != -1)
      return "runs on the CPU only (config.device = " + std::to_string(config.device) +
             "; use device = -1)";
    return "";
  };
  info.create = [](const MoeConfig& config) -> std::unique_ptr<Backend> {
    return std::make_unique<CpuReferenceBackend>(config);
  };
  return info;
}

}  // namespace megamoe
