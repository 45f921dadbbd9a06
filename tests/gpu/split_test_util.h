// Helpers for the GPU suites of the sm90 split backend: skip without an sm_90 GPU, device
// buffers, random layers and inputs, running the layer and the CPU reference.
#pragma once
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <initializer_list>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/bf16_metrics.h"
#include "common/test_seed.h"
#include "core/synthetic.h"
#include "core/workload.h"
#include "formats/canonical_weights.h"
#include "formats/codecs.h"
#include "megamoe/megamoe.h"
#include "reference/reference.h"

namespace megamoe::gputest {

constexpr const char* kSplitBackend = "sm90_bf16_bf16_bf16_split";

// True when device 0 is a compute capability 9.0 GPU; otherwise *why says what is missing.
inline bool sm90_available(std::string* why) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    cudaGetLastError();
    *why = "no CUDA GPU on this machine";
    return false;
  }
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) {
    cudaGetLastError();
    *why = "cannot query CUDA device 0";
    return false;
  }
  if (p.major != 9 || p.minor != 0) {
    *why = "device 0 is compute capability " + std::to_string(p.major) + "." + std::to_string(p.minor) +
           ", these tests need 9.0 (H100/H200)";
    return false;
  }
  return true;
}

#define MEGAMOE_REQUIRE_SM90()                                          \
  do {                                                                  \
    std::string why_skip_;                                              \
    if (!::megamoe::gputest::sm90_available(&why_skip_)) GTEST_SKIP() << why_skip_; \
  } while (0)

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#define CUDA_CHECK(expr) ::megamoe::gputest::cuda_check((expr), #expr)

// Fresh data every run (common/test_seed.h); a failure prints the base seed to replay it.
using testseed::base_seed;
using testseed::case_seed;
#define GPUTEST_TRACE_SEED() MEGAMOE_TRACE_SEED()

template <class T>
struct DevBuf {
  T* p = nullptr;
  size_t n = 0;
  DevBuf() = default;
  explicit DevBuf(size_t count) { alloc(count); }
  void alloc(size_t count) {
    free_();
    n = count;
    if (n) CUDA_CHECK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)));
  }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  ~DevBuf() { free_(); }
  void free_() {
    if (p) cudaFree(p);
    p = nullptr;
    n = 0;
  }
  void upload(const std::vector<T>& v) {
    if (v.size() != n) alloc(v.size());
    if (n) CUDA_CHECK(cudaMemcpy(p, v.data(), n * sizeof(T), cudaMemcpyHostToDevice));
    // From pageable memory the copy may return before its DMA lands, on the legacy default stream
    // that the tests' non-blocking streams are not ordered after: wait for it here.
    if (n) CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::vector<T> download() const {
    std::vector<T> v(n);
    if (n) CUDA_CHECK(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
};

// Runs f(begin, end) over [0, n) on all cores.
template <class F>
void parallel_range(int64_t n, F&& f) {
  const int64_t threads = std::max<int64_t>(1, std::min<int64_t>(std::thread::hardware_concurrency(), (n + 65535) / 65536));
  std::vector<std::thread> pool;
  const int64_t per = (n + threads - 1) / threads;
  for (int64_t i = 0; i < threads; ++i) {
    const int64_t b = i * per, e = std::min(n, b + per);
    if (b < e) pool.emplace_back([&f, b, e] { f(b, e); });
  }
  for (auto& t : pool) t.join();
}

inline void fill_bf16(std::vector<uint16_t>& v, uint64_t seed, uint64_t stream, float scale) {
  parallel_range(int64_t(v.size()), [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i)
      v[size_t(i)] = formats::float_to_bf16_bits(synthetic::uniform(seed, stream, uint64_t(i), scale));
  });
}
inline void fill_f32(std::vector<float>& v, uint64_t seed, uint64_t stream, float scale) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = synthetic::uniform(seed, stream, i, scale);
}

inline MoeConfig split_config(int64_t E, int64_t K, int64_t H, int64_t I, int64_t max_tokens,
                              Activation act = Activation::kSwiGLU, bool bias = false) {
  MoeConfig c;
  c.num_experts = E;
  c.top_k = K;
  c.hidden_size = H;
  c.intermediate_size = I;
  c.activation = act;
  c.has_bias = bias;
  c.recipe = Recipe::kBF16;
  c.backend = kSplitBackend;
  c.max_tokens = max_tokens;
  c.device = 0;
  return c;
}

// Canonical bf16 weights on the host (w13 scale 1/sqrt(H), w2 scale 1/sqrt(I), fp32 biases).
struct HostWeights {
  MoeConfig cfg;
  std::vector<uint16_t> w13, w2;
  std::vector<float> b13, b2;
  MoeWeights view() const {
    const int64_t E = cfg.local_experts(), N13 = cfg.fc1_rows(), H = cfg.hidden_size, I = cfg.intermediate_size;
    MoeWeights w;
    w.w13 = TensorView::contiguous(w13.data(), DType::kBF16, {E, N13, H});
    w.w2 = TensorView::contiguous(w2.data(), DType::kBF16, {E, H, I});
    if (cfg.has_bias) {
      w.b13 = TensorView::contiguous(b13.data(), DType::kF32, {E, N13});
      w.b2 = TensorView::contiguous(b2.data(), DType::kF32, {E, H});
    }
    return w;
  }
};

inline HostWeights make_weights(const MoeConfig& c, uint64_t seed) {
  HostWeights w;
  w.cfg = c;
  const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
  w.w13.resize(size_t(E * N13 * H));
  w.w2.resize(size_t(E * H * I));
  fill_bf16(w.w13, seed, synthetic::kW13, synthetic::weight_scale(H));
  fill_bf16(w.w2, seed, synthetic::kW2, synthetic::weight_scale(I));
  if (c.has_bias) {
    w.b13.resize(size_t(E * N13));
    w.b2.resize(size_t(E * H));
    fill_f32(w.b13, seed, synthetic::kB13, synthetic::kBiasScale);
    fill_f32(w.b2, seed, synthetic::kB2, synthetic::kBiasScale);
  }
  return w;
}

enum class RouteKind { kUniform, kZipf, kOneExpert };

// Host inputs of one forward call. ids are kept as int64; `int64_ids` picks the dtype sent.
struct HostInputs {
  int64_t T = 0, H = 0, K = 0;
  std::vector<uint16_t> x;
  std::vector<int64_t> ids;
  std::vector<float> w;
  int64_t invalid = 0;  // injected invalid ids
  bool int64_ids = false;
};

// Random inputs; `neg` and `bad` are the fractions of routes replaced by -1 and by invalid ids.
inline HostInputs make_inputs(const MoeConfig& c, int64_t T, RouteKind kind, uint64_t seed, double neg = 0.0,
                              double bad = 0.0, bool int64_ids = false) {
  HostInputs in;
  in.T = T;
  in.H = c.hidden_size;
  in.K = c.top_k;
  in.int64_ids = int64_ids;
  in.x.resize(size_t(T * in.H));
  fill_bf16(in.x, seed, synthetic::kX, 1.0f);
  const int64_t E = c.num_experts, K = c.top_k;
  in.ids.resize(size_t(T * K));
  in.w.resize(size_t(T * K));
  if (kind == RouteKind::kOneExpert) {
    const int64_t e = (seed >> 7) % E;
    for (auto& v : in.ids) v = e;
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> u(0.05f, 1.0f);
    for (int64_t t = 0; t < T; ++t) {
      float s = 0.0f;
      for (int64_t k = 0; k < K; ++k) s += (in.w[size_t(t * K + k)] = u(rng));
      for (int64_t k = 0; k < K; ++k) in.w[size_t(t * K + k)] /= s;
    }
  } else if (T > 0) {
    const auto r = workload::make_routes(T, E, K, kind == RouteKind::kZipf ? workload::Routing::kZipf
                                                                         : workload::Routing::kUniform, seed);
    for (size_t i = 0; i < in.ids.size(); ++i) in.ids[i] = r.ids[i];
    in.w = r.weights;
  }
  if (neg > 0 || bad > 0) {
    std::mt19937_64 rng(seed ^ 0x5bd1e995);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    const int64_t bad_values[] = {E, E + 7, -2, -1000, int64_t(1) << 30, std::numeric_limits<int32_t>::min(),
                                  std::numeric_limits<int32_t>::max()};
    for (auto& v : in.ids) {
      const double p = u(rng);
      if (p < neg) {
        v = -1;
      } else if (p < neg + bad) {
        v = bad_values[rng() % (sizeof(bad_values) / sizeof(bad_values[0]))];
        ++in.invalid;
      }
    }
  }
  return in;
}

// The inputs on the device, with an output that has one guard row after the T rows.
struct DeviceInputs {
  const HostInputs* host = nullptr;
  int device = 0;  // the views' device (the buffers live on the device current at upload)
  DevBuf<uint16_t> x, out;
  DevBuf<int32_t> ids32;
  DevBuf<int64_t> ids64;
  DevBuf<float> w;
  explicit DeviceInputs(const HostInputs& in) : host(&in) { upload(in); }
  void upload(const HostInputs& in) {
    host = &in;
    x.upload(in.x);
    if (in.int64_ids) {
      ids64.upload(in.ids);
    } else {
      std::vector<int32_t> v(in.ids.size());
      for (size_t i = 0; i < v.size(); ++i) v[i] = int32_t(in.ids[i]);
      ids32.upload(v);
    }
    w.upload(in.w);
    if (out.n != size_t((in.T + 1) * in.H)) out.alloc(size_t((in.T + 1) * in.H));
  }
  TensorView xv() const { return TensorView::contiguous(x.p, DType::kBF16, {host->T, host->H}, Device::cuda(device)); }
  TensorView idv() const {
    return host->int64_ids ? TensorView::contiguous(ids64.p, DType::kI64, {host->T, host->K}, Device::cuda(device))
                           : TensorView::contiguous(ids32.p, DType::kI32, {host->T, host->K}, Device::cuda(device));
  }
  TensorView wv() const { return TensorView::contiguous(w.p, DType::kF32, {host->T, host->K}, Device::cuda(device)); }
  TensorView outv() const { return TensorView::contiguous(out.p, DType::kBF16, {host->T, host->H}, Device::cuda(device)); }
  void poison(cudaStream_t s) {
    CUDA_CHECK(cudaMemsetAsync(out.p, 0xFF, out.n * sizeof(uint16_t), s));  // 0xFFFF: a NaN
  }
  // Output rows [0, T) (the guard row is checked and dropped).
  std::vector<uint16_t> result() const {
    std::vector<uint16_t> v = out.download();
    for (int64_t h = 0; h < host->H; ++h)
      if (v[size_t(host->T * host->H + h)] != 0xFFFF)
        throw std::runtime_error("forward wrote past the T rows of out (guard row changed)");
    v.resize(size_t(host->T * host->H));
    return v;
  }
};

// Every activation variant the backends are tested with: each gated activation with and
// without biases, the SwiGLU clamp (limit) and gpt-oss's swiglu_oai with its default and a
// tighter limit.
struct ActivationCase {
  Activation a;
  std::optional<float> limit;
  bool bias;
  const char* name;
};
inline constexpr ActivationCase kActivationCases[] = {
    {Activation::kSwiGLU, std::nullopt, false, "swiglu"},
    {Activation::kSwiGLU, 0.5f, false, "swiglu limit 0.5"},
    {Activation::kSwiGLU, std::nullopt, true, "swiglu + bias"},
    {Activation::kSwiGLUOAI, std::nullopt, true, "swiglu_oai (limit 7) + bias"},
    {Activation::kSwiGLUOAI, 0.25f, false, "swiglu_oai limit 0.25"},
    {Activation::kGeGLU, std::nullopt, false, "geglu"},
    {Activation::kGeGLU, std::nullopt, true, "geglu + bias"},
    {Activation::kReLU2, std::nullopt, false, "relu2"},
    {Activation::kReLU2, std::nullopt, true, "relu2 + bias"},
};

// Poisons out, runs forward on `stream`, synchronises, returns the T rows.
inline std::vector<uint16_t> run_layer(MoeLayer& layer, DeviceInputs& d, cudaStream_t stream = nullptr) {
  d.poison(stream);
  layer.forward(d.xv(), d.idv(), d.wv(), d.outv(), stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  CUDA_CHECK(cudaGetLastError());
  return d.result();
}

// Captures one forward of `layer` in a CUDA graph on `stream` (null: a fresh non-blocking
// stream), replays it `replays` times (out poisoned before each) and expects `want` bit for bit
// each time.
inline void expect_graph_replays_equal(MoeLayer& layer, DeviceInputs& d, const std::vector<uint16_t>& want,
                                       int replays = 1, cudaStream_t stream = nullptr) {
  cudaStream_t s = stream;
  if (!stream) CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g;
  cudaGraphExec_t ge;
  CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  layer.forward(d.xv(), d.idv(), d.wv(), d.outv(), s);
  CUDA_CHECK(cudaStreamEndCapture(s, &g));
  CUDA_CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int rep = 0; rep < replays; ++rep) {
    d.poison(s);
    CUDA_CHECK(cudaGraphLaunch(ge, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    EXPECT_TRUE(d.result() == want) << "graph replay " << rep;
  }
  CUDA_CHECK(cudaGraphExecDestroy(ge));
  CUDA_CHECK(cudaGraphDestroy(g));
  if (!stream) CUDA_CHECK(cudaStreamDestroy(s));
}

// Back-to-back forwards of two layers in one stream `s` (the second layer's first kernel may be
// launched with PDL behind the first layer's last one): `first` into d's out, `second` into its
// own buffer; both expected to equal `want` bit for bit.
inline void expect_back_to_back_equal(MoeLayer& first, MoeLayer& second, DeviceInputs& d,
                                      const std::vector<uint16_t>& want, cudaStream_t s) {
  d.poison(s);
  first.forward(d.xv(), d.idv(), d.wv(), d.outv(), s);
  const int64_t T = d.host->T, H = d.host->H;
  DevBuf<uint16_t> out2(size_t(T * H));
  second.forward(d.xv(), d.idv(), d.wv(), TensorView::contiguous(out2.p, DType::kBF16, {T, H}, Device::cuda(d.device)), s);
  CUDA_CHECK(cudaStreamSynchronize(s));
  EXPECT_TRUE(d.result() == want) << "back to back, first layer";
  EXPECT_TRUE(out2.download() == want) << "back to back, second layer";
}

// The CPU reference on the same inputs, invalid ids replaced by -1 (the layer treats them so).
inline std::vector<uint16_t> run_reference(const MoeConfig& c, const reference::WeightProvider& wp,
                                           const HostInputs& in) {
  std::vector<int64_t> ids = in.ids;
  for (auto& v : ids)
    if (v != -1 && (v < 0 || v >= c.num_experts)) v = -1;
  std::vector<uint16_t> out(size_t(in.T * in.H), 0x7FC1);
  MoeConfig rc = c;
  rc.device = -1;
  rc.backend = "cpu_reference";
  reference::moe_forward(rc, wp, TensorView::contiguous(in.x.data(), DType::kBF16, {in.T, in.H}),
                         TensorView::contiguous(ids.data(), DType::kI64, {in.T, in.K}),
                         TensorView::contiguous(in.w.data(), DType::kF32, {in.T, in.K}),
                         TensorView::contiguous(out.data(), DType::kBF16, {in.T, in.H}));
  return out;
}

using testutil::count_nan;
using testutil::rel_l2;

// A layer with its host weights and a reference provider over the same weights (both
// shareable between layers that differ only in top_k or max_tokens).
struct TestLayer {
  MoeConfig cfg;
  std::shared_ptr<const HostWeights> weights;
  std::shared_ptr<const reference::WeightProvider> ref;
  std::unique_ptr<MoeLayer> layer;
  TestLayer(const MoeConfig& c, uint64_t seed) : cfg(c) {
    weights = std::make_shared<const HostWeights>(make_weights(c, seed));
    MoeConfig rc = c;
    rc.device = -1;
    rc.backend = "cpu_reference";
    ref = reference::copy_canonical_weights(rc, weights->view());
    make_layer();
  }
  TestLayer(const MoeConfig& c, const TestLayer& share) : cfg(c), weights(share.weights), ref(share.ref) {
    make_layer();
  }
  void make_layer() {
    layer = std::make_unique<MoeLayer>(cfg);
    layer->prepare_weights(weights->view());
  }
};

inline MoeConfig cpu_twin(const MoeConfig& c) {
  MoeConfig rc = c;
  rc.device = -1;
  rc.backend = "cpu_reference";
  return rc;
}

// A layer of any recipe over reference::synthetic_canonical_weights (the recipe's CPU
// quantizer applied to the synthetic bf16 layer), and a reference provider over the same
// canonical weights (shareable between layers that differ only in top_k or max_tokens).
struct CanonicalLayer {
  MoeConfig cfg;
  std::shared_ptr<const formats::CanonicalWeights> weights;
  std::shared_ptr<const reference::WeightProvider> ref;
  std::unique_ptr<MoeLayer> layer;
  CanonicalLayer(const MoeConfig& c, uint64_t seed) : cfg(c) {
    weights = std::make_shared<const formats::CanonicalWeights>(reference::synthetic_canonical_weights(cpu_twin(c), seed));
    ref = reference::copy_canonical_weights(cpu_twin(c), weights->view(c));
    make_layer();
  }
  CanonicalLayer(const MoeConfig& c, const CanonicalLayer& share) : cfg(c), weights(share.weights), ref(share.ref) {
    make_layer();
  }
  void make_layer() {
    layer = std::make_unique<MoeLayer>(cfg);
    if (cfg.backend != "auto") EXPECT_EQ(layer->backend_name(), cfg.backend);
    layer->prepare_weights(weights->view(cfg));
  }
};

// Sets environment variables for the scope (the split backend reads its knobs at construction).
class ScopedEnv {
 public:
  explicit ScopedEnv(const std::vector<std::pair<const char*, const char*>>& vars) {
    for (const auto& [k, v] : vars) {
      const char* old = std::getenv(k);
      saved_.push_back({k, old ? std::optional<std::string>(old) : std::nullopt});
      setenv(k, v, 1);
    }
  }
  ~ScopedEnv() {
    for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
      if (it->second) setenv(it->first.c_str(), it->second->c_str(), 1);
      else unsetenv(it->first.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
};

inline bool is_invalid_id(int64_t v, int64_t E) { return v != -1 && (v < 0 || v >= E); }
inline int64_t count_invalid(const HostInputs& in, int64_t E) {
  int64_t n = 0;
  for (int64_t v : in.ids) n += is_invalid_id(v, E) ? 1 : 0;
  return n;
}

// Gives tokens 3 (all ids -1) and 5 (all ids out of range) no route at all and recounts the
// invalid ids: those tokens' outputs must be exactly 0 and the invalid ones counted.
inline void add_unrouted_tokens(HostInputs& in, int64_t num_experts) {
  for (int64_t k = 0; k < in.K; ++k) {
    in.ids[size_t(3 * in.K + k)] = -1;
    in.ids[size_t(5 * in.K + k)] = num_experts + k;
  }
  in.invalid = count_invalid(in, num_experts);
}

// Runs layer and reference on `in` (Layer: TestLayer or CanonicalLayer): every element
// written, no NaN, rel-L2 <= tol against a reference that is not all zero when any token is
// routed, the invalid-id count, tokens without a valid route exactly 0. Prints the rel-L2.
// Returns the layer's output.
template <class Layer>
std::vector<uint16_t> check_against_reference(Layer& tl, const HostInputs& in, double tol = 5e-3) {
  DeviceInputs d(in);
  const std::vector<uint16_t> out = run_layer(*tl.layer, d);
  EXPECT_EQ(tl.layer->invalid_id_count(nullptr), in.invalid) << "invalid ids counted";
  const std::vector<uint16_t> ref = run_reference(tl.cfg, *tl.ref, in);
  EXPECT_EQ(count_nan(out), 0) << "NaN (or unwritten 0xFFFF) elements in out";
  EXPECT_EQ(count_nan(ref), 0) << "NaN in the reference";
  const double err = rel_l2(out, ref);
  EXPECT_LE(err, tol) << "rel-L2 vs reference, T=" << in.T;
  std::printf("[check] %s %s E=%lld K=%lld H=%lld I=%lld %s%s T=%lld: rel-L2 %.3g\n", tl.layer->backend_name().c_str(),
              recipe_name(tl.cfg.recipe), (long long)tl.cfg.num_experts, (long long)tl.cfg.top_k,
              (long long)tl.cfg.hidden_size, (long long)tl.cfg.intermediate_size, activation_name(tl.cfg.activation),
              tl.cfg.has_bias ? "+bias" : "", (long long)in.T, err);
  bool any_routed = false;
  // Tokens without any valid route must be exactly 0.
  for (int64_t t = 0; t < in.T; ++t) {
    bool routed = false;
    for (int64_t k = 0; k < in.K; ++k) {
      const int64_t v = in.ids[size_t(t * in.K + k)];
      routed |= v >= 0 && v < tl.cfg.num_experts;
    }
    any_routed |= routed;
    if (routed) continue;
    for (int64_t h = 0; h < in.H; ++h) {
      if ((out[size_t(t * in.H + h)] & 0x7FFF) != 0) {
        ADD_FAILURE() << "token " << t << " has no route but out[" << t << ", " << h << "] is not 0";
        break;
      }
    }
  }
  if (any_routed) {
    bool ref_nonzero = false;
    for (uint16_t b : ref) ref_nonzero |= (b & 0x7FFF) != 0;
    EXPECT_TRUE(ref_nonzero) << "the reference is all zero: the check would prove nothing";
  }
  return out;
}

// RAII for the streams and graphs of one test (nothing leaks when an ASSERT returns early).
struct Stream {
  cudaStream_t s = nullptr;
  Stream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
};
struct CapturedForward {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  CapturedForward(MoeLayer& layer, DeviceInputs& d, cudaStream_t s) {
    CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    layer.forward(d.xv(), d.idv(), d.wv(), d.outv(), s);
    CUDA_CHECK(cudaStreamEndCapture(s, &graph));
    CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  }
  ~CapturedForward() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  CapturedForward(const CapturedForward&) = delete;
  CapturedForward& operator=(const CapturedForward&) = delete;
  // Poisons out, replays, synchronises, returns the T rows.
  std::vector<uint16_t> replay(DeviceInputs& d, cudaStream_t s) {
    d.poison(s);
    CUDA_CHECK(cudaGraphLaunch(exec, s));
    CUDA_CHECK(cudaStreamSynchronize(s));
    CUDA_CHECK(cudaGetLastError());
    return d.result();
  }
};

}  // namespace megamoe::gputest
