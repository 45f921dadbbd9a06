#include "megamoe/layer.h"

#include <string>
#include <vector>

#include "core/backend.h"
#include "core/validate.h"
#include "ep/ep_backend.h"
#include "megamoe/ep.h"
#include "megamoe/errors.h"

namespace megamoe {

struct MoeLayer::Impl {
  MoeConfig config;
  std::string backend_name;
  std::string tactic_source = "none";
  std::unique_ptr<Backend> backend;
  Device device;
  bool weights_ready = false;
};

namespace {
std::unique_ptr<Backend> create_backend(const MoeConfig& config, std::string* name) {
  const auto& registry = backend_registry();
  if (config.backend == "auto") {
    std::string reasons;
    for (const auto& info : registry) {
      const std::string why = info.why_not(config);
      if (why.empty()) {
        *name = info.name;
        return info.create(config);
      }
      reasons += "\n  " + info.name + ": " + why;
    }
    throw Unsupported("no registered backend can run this configuration:" + reasons);
  }
  std::string names;
  for (const auto& info : registry) {
    if (info.name == config.backend) {
      const std::string why = info.why_not(config);
      if (!why.empty()) throw Unsupported("backend '" + info.name + "': " + why);
      *name = info.name;
      return info.create(config);
    }
    names += names.empty() ? info.name : "|" + info.name;
  }
  throw_invalid("backend", "\"auto\" or one of " + names, "'" + config.backend + "'");
}

// With an EpGroup, ep_size / ep_rank (and the device, when unset) come from the group; values
// the caller set explicitly must agree with it.
MoeConfig resolve_ep(const MoeConfig& config) {
  MoeConfig c = config;
  if (!c.ep_group) return c;
  const EpGroup& g = *c.ep_group;
  if (c.ep_size != 1 && c.ep_size != g.size())
    throw_invalid("ep_size", "1 (taken from ep_group) or the group's size " + std::to_string(g.size()),
                  std::to_string(c.ep_size));
  if (c.ep_rank != 0 && c.ep_rank != g.rank())
    throw_invalid("ep_rank", "0 (taken from ep_group) or the group's rank " + std::to_string(g.rank()),
                  std::to_string(c.ep_rank));
  if (c.device == -1) c.device = g.device();
  if (c.device != g.device())
    throw_invalid("device", "the ep_group's device " + std::to_string(g.device()), std::to_string(c.device));
  c.ep_size = g.size();
  c.ep_rank = g.rank();
  return c;
}
}  // namespace

MoeLayer::MoeLayer(const MoeConfig& config) : impl_(std::make_unique<Impl>()) {
  const MoeConfig c = resolve_ep(config);
  validate_config(c);
  impl_->config = c;
  impl_->device = c.device < 0 ? Device::cpu() : Device::cuda(c.device);
  if (c.ep_group)
    impl_->backend = ep::create_ep_backend(c, create_backend, &impl_->backend_name);
  else
    impl_->backend = create_backend(c, &impl_->backend_name);
  // The tactic table of this layer: its own entry, else (split backends) the one measured for its
  // donor, the Mega backend of the recipe (expert-parallel layers: the inner backend keeps its
  // heuristic; docs/TUNING.md).
  if (!c.ep_group && !impl_->backend->tactic_names().empty()) {
    TacticKey key;
    impl_->backend->machine_key(&key);
    layer_tactic_key(c, impl_->backend_name, &key);
    const std::vector<std::string> names = impl_->backend->tactic_names();
    TacticTable table = known_tactics_only(lookup_tactics(key, c.tactic_cache, &impl_->tactic_source), names,
                                           impl_->tactic_source);
    const std::string donor = impl_->backend->tactic_table_donor();
    if (impl_->tactic_source == "none" && !donor.empty()) {
      layer_tactic_key(c, donor, &key);  // the same layer and machine under the donor's name
      table = lookup_donor_tactics(key, names, c.tactic_cache, &impl_->tactic_source);
    }
    // Buckets past 8192 that the entry leaves empty run the bucket below's tactic (core/tactics.h).
    impl_->backend->set_tactic_table(with_large_buckets_inherited(table));
  }
}

MoeLayer::~MoeLayer() = default;
MoeLayer::MoeLayer(MoeLayer&&) noexcept = default;
MoeLayer& MoeLayer::operator=(MoeLayer&&) noexcept = default;

void MoeLayer::prepare_weights(const MoeWeights& weights, cudaStream_t stream) {
  std::vector<Device> allowed{Device::cpu()};
  if (impl_->device.type == DeviceType::kCUDA) allowed.push_back(impl_->device);
  validate_weights(impl_->config, weights, allowed);
  impl_->weights_ready = false;
  impl_->backend->prepare_weights(weights, static_cast<void*>(stream));
  impl_->weights_ready = true;
}

void MoeLayer::forward(const TensorView& x, const TensorView& topk_ids, const TensorView& topk_weights,
                       const TensorView& out, cudaStream_t stream) {
  if (!impl_->weights_ready)
    throw Error("megamoe: forward() called before prepare_weights() on backend " + impl_->backend_name);
  const MoeConfig& c = impl_->config;
  const int64_t T = validate_forward(c, impl_->device, x, topk_ids, topk_weights, out);
  if (topk_ids.device.type == DeviceType::kCPU) check_host_ids(topk_ids, c.num_experts, T, c.top_k);
  // The backends take the stream as an opaque pointer (core/backend.h): the same value.
  ForwardArgs args{x, topk_ids, topk_weights, out, T, static_cast<void*>(stream)};
  impl_->backend->forward(args);
}

int64_t MoeLayer::invalid_id_count(cudaStream_t stream) {
  return impl_->backend->invalid_id_count(static_cast<void*>(stream));
}
void MoeLayer::check_errors(cudaStream_t stream) { impl_->backend->check_errors(static_cast<void*>(stream)); }
int64_t MoeLayer::unrouted_count(cudaStream_t stream) {
  return impl_->backend->unrouted_count(static_cast<void*>(stream));
}
const MoeConfig& MoeLayer::config() const { return impl_->config; }
std::string MoeLayer::backend_name() const { return impl_->backend_name; }
size_t MoeLayer::workspace_bytes() const { return impl_->backend->workspace_bytes(); }
size_t MoeLayer::weight_bytes() const { return impl_->backend->weight_bytes(); }
std::vector<std::string> MoeLayer::tactic_names() const { return impl_->backend->tactic_names(); }
std::string MoeLayer::tactic_for(int64_t num_tokens) const {
  if (num_tokens < 0) throw_invalid("num_tokens", ">= 0", std::to_string(num_tokens));
  return impl_->backend->tactic_for(num_tokens);
}
std::string MoeLayer::tactic_source() const { return impl_->tactic_source; }
void MoeLayer::force_tactic(const std::string& name) { impl_->backend->force_tactic(name); }

}  // namespace megamoe
