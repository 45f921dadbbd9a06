// The expert-parallel layer (docs/EP.md): exchange kernels around a single-GPU backend.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "core/backend.h"

namespace megamoe::ep {

// Makes the single-GPU backend that runs this rank's experts (config: E_local experts, no EP).
using InnerFactory = std::function<std::unique_ptr<Backend>(const MoeConfig& inner, std::string* name)>;

// config.ep_group is set and config.ep_size / ep_rank come from it. Collective: allocates and
// registers this layer's symmetric window on every rank. `name` receives
// "<inner backend>+ep<R>_<style>".
std::unique_ptr<Backend> create_ep_backend(const MoeConfig& config, const InnerFactory& make_inner, std::string* name);

// Benchmarks only (megamoe bench --ep): while set, forwards enqueued (or captured) by EP layers
// skip the experts and run the exchange alone (dispatch, receive, return, combine of whatever
// y rows are in the window), to time the exchange by itself. Never set in serving.
void set_exchange_only_for_benchmark(bool on);

}  // namespace megamoe::ep
