// `megamoe run`: one forward on a synthetic layer, timed, compared with the CPU reference.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli_common.h"
#include "core/synthetic.h"

#if defined(MEGAMOE_WITH_CUDA)
#include <cuda_runtime.h>

#include "cuda_util.h"
#include "device_weights.h"
#endif

namespace megamoe::cli {

namespace {

struct RunSetup {
  MoeConfig config;
  workload::Preset preset;
  int64_t tokens;
  uint64_t seed;
  workload::Routing routing;
  int iters;
  bool check;
  std::string tactic;  // --tactic: forced on the GPU layer (empty: the layer's own choice)
};

// The oracle: the CPU reference over weights regenerated per expert.
std::vector<uint16_t> reference_out(const RunSetup& s, const std::vector<uint16_t>& x,
                                    const workload::Routes& routes) {
  MoeConfig c = s.config;
  c.device = -1;
  auto provider = reference::synthetic_weights(c, s.seed);
  std::vector<uint16_t> out(size_t(s.tokens * c.hidden_size));
  const int64_t T = s.tokens, H = c.hidden_size, K = c.top_k;
  reference::moe_forward(c, *provider, TensorView::contiguous(x.data(), DType::kBF16, {T, H}),
                         TensorView::contiguous(routes.ids.data(), DType::kI32, {T, K}),
                         TensorView::contiguous(routes.weights.data(), DType::kF32, {T, K}),
                         TensorView::contiguous(out.data(), DType::kBF16, {T, H}), c.num_threads);
  return out;
}

int report(const RunSetup& s, const std::vector<uint16_t>& out, const std::vector<uint16_t>& ref) {
  const double rel = rel_l2_bf16(out, ref), limit = rel_l2_limit(s.config.recipe);
  std::printf("rel-L2 vs cpu_reference: %.3e (max abs diff %.3e, limit %.0e)\n", rel,
              max_abs_diff_bf16(out, ref), limit);
  if (!(rel <= limit)) {
    std::printf("FAILED: the output does not match the reference\n");
    return 1;
  }
  return 0;
}

int run_cpu(RunSetup& s, const std::vector<uint16_t>& x, const workload::Routes& routes) {
  const MoeConfig& c = s.config;
  const int64_t T = s.tokens, H = c.hidden_size, K = c.top_k;
  const size_t need = formats::canonical_weight_bytes(c), budget = host_weight_budget();
  std::vector<uint16_t> out(size_t(T * H));
  std::vector<double> times;
  if (need <= budget) {
    MoeLayer layer(c);
    const auto canonical = reference::synthetic_canonical_weights(c, s.seed, budget);
    layer.prepare_weights(canonical.view(c));
    std::printf("backend: %s on the CPU (%u threads)\n", layer.backend_name().c_str(),
                c.num_threads > 0 ? unsigned(c.num_threads) : std::thread::hardware_concurrency());
    for (int i = 0; i < s.iters; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      layer.forward(TensorView::contiguous(x.data(), DType::kBF16, {T, H}),
                    TensorView::contiguous(routes.ids.data(), DType::kI32, {T, K}),
                    TensorView::contiguous(routes.weights.data(), DType::kF32, {T, K}),
                    TensorView::contiguous(out.data(), DType::kBF16, {T, H}));
      times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("time: %.3f ms (median of %d host-timed runs)\n", median(times), s.iters);
    if (!s.check) return 0;
    return report(s, out, reference_out(s, x, routes));
  }
  // Too large for host memory: the reference regenerates each touched expert on demand. A backend the
  // user named is checked first as the layer checks it (a GPU backend without a GPU is refused, as for
  // a layer that fits), not replaced by the reference without a word.
  if (c.backend != "auto" && c.backend != "cpu_reference") MoeLayer named(c);
  std::printf("backend: cpu_reference on the CPU, weights generated per expert on demand (canonical %s "
              "weights need %.1f GiB, over the %.1f GiB host budget)\n",
              recipe_name(c.recipe), double(need) / (1ull << 30), double(budget) / (1ull << 30));
  for (int i = 0; i < s.iters; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    out = reference_out(s, x, routes);
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::printf("time: %.3f ms (median of %d host-timed runs, weight generation included)\n", median(times), s.iters);
  std::printf("rel-L2 vs cpu_reference: 0 (this run is the reference itself)\n");
  return 0;
}

#if defined(MEGAMOE_WITH_CUDA)
int run_gpu(RunSetup& s, const std::vector<uint16_t>& x, const workload::Routes& routes) {
  const MoeConfig& c = s.config;
  const int64_t T = s.tokens, H = c.hidden_size, K = c.top_k;
  const Device dev = Device::cuda(c.device);
  cuda_check(cudaSetDevice(c.device), "cudaSetDevice");
  cudaStream_t stream;
  cuda_check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  MoeLayer layer(c);
  if (!s.tactic.empty()) {
    try {  // the layer refuses a name its backend lacks (and lists its tactics); the option is --tactic here
      layer.force_tactic(s.tactic);
    } catch (const InvalidArgument& e) {
      throw_invalid("--tactic", e.expected() + " (" + layer.backend_name() + ")", e.actual());
    }
    if (layer.tactic_for(T) != s.tactic)  // e.g. the one-launch kernel above its token limit: say so
      throw_invalid("--tactic", "a tactic of " + layer.backend_name() + " that runs T = " + std::to_string(T) + " (" +
                                    s.tactic + " falls back to " + layer.tactic_for(T) + " there)",
                    s.tactic);
  }
  prepare_synthetic_weights(layer, s.seed, stream);
  std::printf("backend: %s on %s (workspace %.1f MiB, weights %.1f MiB), tactic %s%s\n", layer.backend_name().c_str(),
              gpu_name(c.device).c_str(), double(layer.workspace_bytes()) / (1 << 20),
              double(layer.weight_bytes()) / (1 << 20), layer.tactic_for(T).c_str(),
              s.tactic.empty() ? "" : " (forced)");

  DeviceBuffer dx(x.size() * 2), dids(routes.ids.size() * 4), dw(routes.weights.size() * 4),
      dout(size_t(T * H * 2));
  // On `stream`, so the forward below is ordered after them (a legacy-stream cudaMemcpy from pageable
  // memory may return before its DMA lands, and a non-blocking stream does not wait for it).
  cuda_check(cudaMemcpyAsync(dx.ptr, x.data(), x.size() * 2, cudaMemcpyHostToDevice, stream), "copy x");
  cuda_check(cudaMemcpyAsync(dids.ptr, routes.ids.data(), routes.ids.size() * 4, cudaMemcpyHostToDevice, stream),
             "copy ids");
  cuda_check(cudaMemcpyAsync(dw.ptr, routes.weights.data(), routes.weights.size() * 4, cudaMemcpyHostToDevice, stream),
             "copy w");
  cuda_check(cudaMemsetAsync(dout.ptr, 0xFF, size_t(T * H * 2), stream), "poison out");  // NaN bf16
  const auto xv = TensorView::contiguous(dx.ptr, DType::kBF16, {T, H}, dev);
  const auto iv = TensorView::contiguous(dids.ptr, DType::kI32, {T, K}, dev);
  const auto wv = TensorView::contiguous(dw.ptr, DType::kF32, {T, K}, dev);
  const auto ov = TensorView::contiguous(dout.ptr, DType::kBF16, {T, H}, dev);

  layer.forward(xv, iv, wv, ov, stream);  // warm-up (and the output we check)
  cuda_check(cudaStreamSynchronize(stream), "forward");
  std::vector<uint16_t> out(size_t(T * H));
  cuda_check(cudaMemcpy(out.data(), dout.ptr, out.size() * 2, cudaMemcpyDeviceToHost), "copy out");
  if (const int64_t bad = layer.invalid_id_count(stream)) std::printf("warning: %lld invalid ids\n", (long long)bad);

  const CapturedGraph g(stream, [&] { layer.forward(xv, iv, wv, ov, stream); });
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<double> times;
  for (int i = 0; i < s.iters + 3; ++i) {
    cudaEventRecord(e0, stream);
    cuda_check(cudaGraphLaunch(g.exec, stream), "graph launch");
    cudaEventRecord(e1, stream);
    cuda_check(cudaEventSynchronize(e1), "replay");
    float ms = 0;
    cudaEventElapsedTime(&ms, e0, e1);
    if (i >= 3) times.push_back(ms);  // 3 warm-up replays
  }
  std::printf("time: %.4f ms (median of %d CUDA-graph replays)\n", median(times), s.iters);
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaStreamDestroy(stream);
  if (!s.check) return 0;
  return report(s, out, reference_out(s, x, routes));
}
#endif

}  // namespace

int cmd_run(const Options& opts) {
  opts.allow_only({"preset", "recipe", "backend", "activation", "seed", "routing", "threads", "device", "tokens",
                   "iters", "no-check", "tactic"});
  RunSetup s{};
  s.preset = workload::find_preset(opts.get("preset", "tiny"));
  s.config = workload::preset_config(s.preset);
  s.config.recipe = parse_recipe(opts.get("recipe", "bf16"));
  if (opts.has("activation")) s.config.activation = parse_activation(opts.get("activation", ""));
  s.config.backend = opts.get("backend", "auto");
  s.config.num_threads = opts.get_int32("threads", 0, 0);
  s.seed = uint64_t(opts.get_int("seed", 1));
  s.routing = workload::parse_routing(opts.get("routing", "uniform"));
  s.tokens = opts.get_int("tokens", s.preset.name == "tiny" ? 64 : 4);
  // Routes (T * top_k) are indexed with 32-bit integers.
  const int64_t max_tokens = kMaxCliTokens / s.config.top_k;
  if (s.tokens < 0 || s.tokens > max_tokens)
    throw_invalid("--tokens", "a token count in [0, " + std::to_string(max_tokens) + "] (2^31 / top_k)",
                  std::to_string(s.tokens));
  {  // x, out and the reference's out (bf16 [T, H] each) and the routes (T * K ids and weights) live in host
     // memory: a count they cannot fit is refused here instead of ending in std::bad_alloc.
    const double per_token = double(s.config.hidden_size) * 2.0 * 3.0 + double(s.config.top_k) * 8.0;
    const double budget = double(host_weight_budget());
    if (double(s.tokens) * per_token > budget)
      throw_invalid("--tokens", "at most " + std::to_string(int64_t(budget / per_token)) +
                                    " tokens for this preset (its inputs and outputs within the " +
                                    std::to_string(int64_t(budget / double(1 << 20))) + " MiB host budget)",
                    std::to_string(s.tokens));
  }
  s.check = !opts.flag("no-check");
  const bool gpu = gpu_count() > 0 && s.config.backend != "cpu_reference";
  const int device = opts.get_int32("device", 0, 0);
  s.config.device = gpu ? device : -1;
  if (!gpu && opts.has("device"))  // said, not silently replaced
    std::fprintf(stderr, "megamoe run: --device %d ignored: %s\n", device,
                 gpu_count() > 0 ? "--backend cpu_reference runs on the CPU"
                                 : "no CUDA device here, the CPU reference runs");
  s.tactic = opts.get("tactic", "");
  if (opts.has("tactic") && s.tactic.empty()) throw_invalid("--tactic", "a tactic name", "nothing");
  if (!gpu && opts.has("tactic"))  // the CPU reference has no tactics: said, not silently dropped
    std::fprintf(stderr, "megamoe run: --tactic %s ignored: the CPU reference runs (it has no tactics)\n",
                 s.tactic.c_str());
  s.iters = opts.get_int32("iters", gpu ? 20 : 3, 1);
  s.config.max_tokens = std::max<int64_t>(s.tokens, 1);

  const MoeConfig& c = s.config;
  std::printf("megamoe run: preset %s (H %lld, I %lld, E %lld, K %lld, %s%s), recipe %s, T %lld, routing %s, seed %llu\n",
              s.preset.name.c_str(), (long long)c.hidden_size, (long long)c.intermediate_size,
              (long long)c.num_experts, (long long)c.top_k, activation_name(c.activation),
              c.has_bias ? ", biases" : "", recipe_name(c.recipe), (long long)s.tokens,
              workload::routing_name(s.routing), (unsigned long long)s.seed);
  const auto routes = workload::make_routes(s.tokens, c.num_experts, c.top_k, s.routing, s.seed);
  const auto x = workload::make_x(s.tokens, c.hidden_size, s.seed);
#if defined(MEGAMOE_WITH_CUDA)
  if (gpu) return run_gpu(s, x, routes);
#endif
  return run_cpu(s, x, routes);
}

}  // namespace megamoe::cli
