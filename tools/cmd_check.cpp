// `megamoe check`: a user's self-test. Runs a backend (a GPU one where a GPU exists)
// against the CPU reference over a small case matrix and prints pass/fail with rel-L2.
#include <cstdio>

#include "cli_common.h"
#include "cuda_util.h"
#include "ep_launch.h"

#if defined(MEGAMOE_WITH_CUDA)
#include <cuda_runtime.h>
#endif

namespace megamoe::cli {

namespace {
struct Case {
  const char* name;
  int64_t H, I, E, K, T;
  Activation act;
  bool bias;
  workload::Routing routing;
};

// Runs `layer` on x/ids/w wherever the layer lives and returns out (bf16 bits) on the host.
std::vector<uint16_t> run_layer(MoeLayer& layer, const std::vector<uint16_t>& x, const workload::Routes& r,
                                int64_t T) {
  const MoeConfig& c = layer.config();
  const int64_t H = c.hidden_size, K = c.top_k;
  std::vector<uint16_t> out(size_t(T * H), 0xFFFF);
  if (c.device < 0) {
    layer.forward(TensorView::contiguous(x.data(), DType::kBF16, {T, H}),
                  TensorView::contiguous(r.ids.data(), DType::kI32, {T, K}),
                  TensorView::contiguous(r.weights.data(), DType::kF32, {T, K}),
                  TensorView::contiguous(out.data(), DType::kBF16, {T, H}));
    return out;
  }
#if defined(MEGAMOE_WITH_CUDA)
  const Device dev = Device::cuda(c.device);
  void *dx, *di, *dw, *dout;
  cuda_check(cudaMalloc(&dx, x.size() * 2 + 16), "cudaMalloc");
  cuda_check(cudaMalloc(&di, r.ids.size() * 4 + 16), "cudaMalloc");
  cuda_check(cudaMalloc(&dw, r.weights.size() * 4 + 16), "cudaMalloc");
  cuda_check(cudaMalloc(&dout, out.size() * 2 + 16), "cudaMalloc");
  cudaMemcpy(dx, x.data(), x.size() * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(di, r.ids.data(), r.ids.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dw, r.weights.data(), r.weights.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dout, 0xFF, out.size() * 2);  // poison: NaN bf16
  layer.forward(TensorView::contiguous(dx, DType::kBF16, {T, H}, dev),
                TensorView::contiguous(di, DType::kI32, {T, K}, dev),
                TensorView::contiguous(dw, DType::kF32, {T, K}, dev),
                TensorView::contiguous(dout, DType::kBF16, {T, H}, dev), nullptr);
  cuda_check(cudaDeviceSynchronize(), "forward");
  cudaMemcpy(out.data(), dout, out.size() * 2, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(di);
  cudaFree(dw);
  cudaFree(dout);
#endif
  return out;
}
// out = the CPU reference of `c` (host) on the given inputs.
std::vector<uint16_t> reference_of(const MoeConfig& c, uint64_t seed, const std::vector<uint16_t>& x,
                                   const workload::Routes& r, int64_t T) {
  MoeConfig rc = c;
  rc.device = -1;
  std::vector<uint16_t> ref(size_t(T * c.hidden_size));
  reference::moe_forward(rc, *reference::synthetic_weights(rc, seed),
                         TensorView::contiguous(x.data(), DType::kBF16, {T, c.hidden_size}),
                         TensorView::contiguous(r.ids.data(), DType::kI32, {T, c.top_k}),
                         TensorView::contiguous(r.weights.data(), DType::kF32, {T, c.top_k}),
                         TensorView::contiguous(ref.data(), DType::kBF16, {T, c.hidden_size}), rc.num_threads);
  return ref;
}

// `check --accuracy`: per recipe x activation x T in {8, 512}: the GPU backend's own error
// (rel-L2 against the CPU reference of the same recipe; "-" where no GPU backend runs the
// recipe) and the recipe's quantization error (its CPU reference against the bf16 one). The
// synthetic weights start from the same bf16 master values for every recipe.
int accuracy_table(const Options& opts) {
  // The table covers every recipe with each recipe's `auto` backend on one GPU: options that would
  // narrow it are refused rather than ignored.
  for (const char* name : {"recipe", "backend", "ep", "ep-style"})
    if (opts.has(name))
      throw_invalid(std::string("--") + name, "no --" + std::string(name) + " with --accuracy (the table covers every "
                    "recipe with its auto backend, on one GPU)", "'" + opts.get(name, "") + "'");
  const bool gpu = gpu_count() > 0;
  const uint64_t seed = uint64_t(opts.get_int("seed", 7));
  const int device = opts.get_int32("device", 0, 0);
  const Recipe recipes[] = {Recipe::kBF16, Recipe::kFP8Block, Recipe::kW4A16MXFP4, Recipe::kW4A16NVFP4,
                            Recipe::kMXFP8, Recipe::kW4A8MXFP4, Recipe::kNVFP4};
  const Activation acts[] = {Activation::kSwiGLU, Activation::kSwiGLUOAI, Activation::kGeGLU, Activation::kReLU2};
  std::printf("megamoe check --accuracy: H 1024, I 512, E 16, K 4, uniform routing, seed %llu, %s\n",
              (unsigned long long)seed, gpu ? gpu_name(device).c_str() : "no GPU");
  std::printf("| recipe | activation | T | backend | kernel rel-L2 (vs same-recipe reference) | quantization rel-L2 (vs bf16 reference) |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (Recipe recipe : recipes) {
    for (Activation act : acts) {
      for (int64_t T : {int64_t(8), int64_t(512)}) {
        MoeConfig c;
        c.hidden_size = 1024;
        c.intermediate_size = 512;
        c.num_experts = 16;
        c.top_k = 4;
        c.activation = act;
        c.has_bias = act == Activation::kSwiGLUOAI;
        c.recipe = recipe;
        c.max_tokens = T;
        c.num_threads = opts.get_int32("threads", 0, 0);
        const auto routes = workload::make_routes(T, c.num_experts, c.top_k, workload::Routing::kUniform, seed + T);
        const auto x = workload::make_x(T, c.hidden_size, seed + T);
        const auto ref = reference_of(c, seed, x, routes, T);
        MoeConfig bc = c;
        bc.recipe = Recipe::kBF16;
        const double quant = rel_l2_bf16(ref, reference_of(bc, seed, x, routes, T));
        std::string backend = "-", kernel = "-";
        if (gpu) {
          MoeConfig gc = c;
          gc.device = device;
          try {
            MoeLayer layer(gc);
            const auto canonical = reference::synthetic_canonical_weights(gc, seed, host_weight_budget());
            layer.prepare_weights(canonical.view(gc));
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.2e", rel_l2_bf16(run_layer(layer, x, routes, T), ref));
            backend = layer.backend_name();
            kernel = buf;
          } catch (const Unsupported&) {
          }
        }
        std::printf("| %s | %s | %lld | %s | %s | %.2e |\n", recipe_name(recipe), activation_name(act), (long long)T,
                    backend.c_str(), kernel.c_str(), quant);
      }
    }
  }
  return 0;
}
}  // namespace

int cmd_check(const Options& opts) {
  opts.allow_only({"backend", "recipe", "seed", "threads", "device", "accuracy", "ep", "ep-style"});
  if (opts.flag("accuracy")) return accuracy_table(opts);
  // --ep N: N worker processes (one per GPU) run the same matrix as one expert-parallel layer;
  // each rank checks its own tokens against the reference with every expert.
  const int ep = opts.get_int32("ep", 1, 1);
  int ep_rank = 0, ep_size = 1;
  const bool worker = ep_worker(&ep_rank, &ep_size);
  if (ep > 1 && !worker) return launch_ep_workers(ep, opts.argc(), opts.argv());
  std::shared_ptr<EpGroup> group = worker ? ep_worker_group() : nullptr;
  const bool gpu = group || (gpu_count() > 0 && opts.get("backend", "auto") != "cpu_reference");
  const uint64_t seed = uint64_t(opts.get_int("seed", 7));
  using R = workload::Routing;
  const Case cases[] = {
      {"swiglu T=1", 256, 128, 8, 2, 1, Activation::kSwiGLU, false, R::kUniform},
      {"swiglu T=7 zipf", 256, 256, 16, 4, 7, Activation::kSwiGLU, false, R::kZipf},
      {"swiglu_oai+bias T=64", 320, 192, 32, 4, 64, Activation::kSwiGLUOAI, true, R::kUniform},
      {"swiglu_oai+bias T=50", 384, 256, 32, 4, 50, Activation::kSwiGLUOAI, true, R::kZipf},
      {"geglu T=100 one-hot", 512, 256, 8, 2, 100, Activation::kGeGLU, false, R::kOneHotExpert},
      {"relu2 T=33", 256, 256, 16, 1, 33, Activation::kReLU2, false, R::kUniform},
      {"swiglu T=1000 E=128 K=8", 256, 128, 128, 8, 1000, Activation::kSwiGLU, false, R::kZipf},
  };
  const int device = group ? group->device() : opts.get_int32("device", 0, 0);
  std::printf("megamoe check%s: %s\n", group ? (" (EP rank " + std::to_string(ep_rank) + " of " + std::to_string(ep_size) + ")").c_str() : "",
              gpu ? ("GPU " + gpu_name(device)).c_str() : "no GPU found: checking the CPU backend");
  int failed = 0, skipped = 0, n = 0;
  for (const Case& k : cases) {
    MoeConfig c;
    c.hidden_size = k.H;
    c.intermediate_size = k.I;
    c.num_experts = k.E;
    c.top_k = k.K;
    c.activation = k.act;
    c.has_bias = k.bias;
    c.recipe = parse_recipe(opts.get("recipe", "bf16"));
    c.backend = opts.get("backend", "auto");
    c.device = gpu ? device : -1;
    c.num_threads = opts.get_int32("threads", 0, 0);
    c.max_tokens = k.T;
    c.ep_group = group;
    c.ep_style = opts.get("ep-style", "auto");
    ++n;
    try {
      // Ranks draw different tokens (T differs per rank too); the weights are the same.
      // max_tokens must agree on every rank (the windows are symmetric): the largest T.
      const int64_t T = group ? k.T + ep_rank : k.T;
      c.max_tokens = group ? k.T + ep_size - 1 : k.T;
      MoeLayer layer(c);
      const MoeConfig lc = layer.config();  // ep_size / ep_rank resolved from the group
      const auto canonical = reference::synthetic_canonical_weights(lc, seed, host_weight_budget());
      layer.prepare_weights(canonical.view(lc));
      const uint64_t in_seed = seed + uint64_t(n) + 7919u * uint64_t(ep_rank);
      const auto routes = workload::make_routes(T, k.E, k.K, k.routing, in_seed);
      const auto x = workload::make_x(T, k.H, in_seed);
      const auto out = run_layer(layer, x, routes, T);
      if (group) layer.check_errors();
      MoeConfig rc = c;
      rc.device = -1;
      rc.backend = "cpu_reference";
      rc.ep_group = nullptr;
      rc.ep_size = 1;
      rc.ep_rank = 0;
      std::vector<uint16_t> ref(out.size());
      reference::moe_forward(rc, *reference::synthetic_weights(rc, seed),
                             TensorView::contiguous(x.data(), DType::kBF16, {T, k.H}),
                             TensorView::contiguous(routes.ids.data(), DType::kI32, {T, k.K}),
                             TensorView::contiguous(routes.weights.data(), DType::kF32, {T, k.K}),
                             TensorView::contiguous(ref.data(), DType::kBF16, {T, k.H}), rc.num_threads);
      const double rel = rel_l2_bf16(out, ref);
      const bool ok = rel <= rel_l2_limit(c.recipe);
      failed += !ok;
      std::printf("  %-4s %-26s %-28s rel-L2 %.3e\n", ok ? "PASS" : "FAIL", k.name, layer.backend_name().c_str(), rel);
    } catch (const Unsupported& e) {
      ++skipped;  // a shape this backend refuses (e.g. sizes that are not multiples of 16 / 64)
      std::printf("  SKIP %-26s %s\n", k.name, e.what());
    } catch (const Error& e) {
      ++failed;
      std::printf("  FAIL %-26s %s\n", k.name, e.what());
    }
  }
  std::printf("%d passed, %d failed, %d skipped\n", n - failed - skipped, failed, skipped);
  return failed ? 1 : 0;
}

}  // namespace megamoe::cli
