// End-to-end tests of the W4A16 split backends (sm90_bf16_mxfp4_bf16_split,
// sm90_bf16_nvfp4_bf16_split) against the CPU reference over the same canonical weights
// (reference::synthetic_canonical_weights, or random codes for the large gpt-oss case).
// Every test skips (GTEST_SKIP) without an sm_90 GPU. Outputs are poisoned before each run.
// Tests named *Small* use small shapes (suitable for compute-sanitizer).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>

#include "formats/canonical_weights.h"
#include "formats/codecs.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

constexpr const char* kMx = "sm90_bf16_mxfp4_bf16_split";
constexpr const char* kNv = "sm90_bf16_nvfp4_bf16_split";
constexpr double kTol = 5e-3;

MoeConfig w4_config(Recipe r, int64_t E, int64_t K, int64_t H, int64_t I, int64_t max_tokens,
                    Activation act = Activation::kSwiGLU, bool bias = false) {
  MoeConfig c = split_config(E, K, H, I, max_tokens, act, bias);
  c.recipe = r;
  c.backend = r == Recipe::kW4A16MXFP4 ? kMx : kNv;
  return c;
}
MoeConfig cpu_twin(const MoeConfig& c) {
  MoeConfig rc = c;
  rc.device = -1;
  rc.backend = "cpu_reference";
  return rc;
}
const char* rname(Recipe r) { return r == Recipe::kW4A16MXFP4 ? "mxfp4" : "nvfp4"; }

// Random canonical FP4 weights (uniform codes, scales near 2^-7), fast for large shapes.
std::shared_ptr<formats::CanonicalWeights> random_canonical(const MoeConfig& c, uint64_t seed) {
  auto w = std::make_shared<formats::CanonicalWeights>();
  const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
  const bool nv = c.recipe == Recipe::kW4A16NVFP4;
  const int64_t blk = nv ? 16 : 32;
  w->w13.resize(size_t(E * N13 * H / 2));
  w->w2.resize(size_t(E * H * I / 2));
  w->w13_scale.resize(size_t(E * N13 * H / blk));
  w->w2_scale.resize(size_t(E * H * I / blk));
  auto fill = [&](std::vector<uint8_t>& v, uint64_t stream, bool scale) {
    parallel_range(int64_t(v.size()), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        const float u = synthetic::uniform(seed, stream, uint64_t(i), 1.0f);  // [-1, 1)
        const uint32_t r = uint32_t((u + 1.0f) * 32768.0f);
        if (!scale) v[size_t(i)] = uint8_t(r * 2654435761u >> 8);
        else if (!nv) v[size_t(i)] = uint8_t(118 + r % 5);                       // e8m0 2^-9 .. 2^-5
        else v[size_t(i)] = uint8_t(0x30 + r % 16);                              // e4m3 0.25 .. 0.47
      }
    });
  };
  fill(w->w13, 11, false);
  fill(w->w2, 12, false);
  fill(w->w13_scale, 13, true);
  fill(w->w2_scale, 14, true);
  if (nv) {
    w->w13_global.assign(size_t(E), 0.0f);
    w->w2_global.assign(size_t(E), 0.0f);
    for (int64_t e = 0; e < E; ++e) {
      w->w13_global[size_t(e)] = 0.01f * float(1 + e % 3);
      w->w2_global[size_t(e)] = 0.02f / float(1 + e % 2);
    }
  }
  if (c.has_bias) {
    w->b13.resize(size_t(E * N13));
    w->b2.resize(size_t(E * H));
    fill_f32(w->b13, seed, synthetic::kB13, synthetic::kBiasScale);
    fill_f32(w->b2, seed, synthetic::kB2, synthetic::kBiasScale);
  }
  return w;
}

struct W4Layer {
  MoeConfig cfg;
  std::shared_ptr<const formats::CanonicalWeights> weights;
  std::shared_ptr<const reference::WeightProvider> ref;
  std::unique_ptr<MoeLayer> layer;
  W4Layer(const MoeConfig& c, uint64_t seed, bool random = false) : cfg(c) {
    if (random) weights = random_canonical(c, seed);
    else weights = std::make_shared<const formats::CanonicalWeights>(reference::synthetic_canonical_weights(cpu_twin(c), seed));
    ref = reference::copy_canonical_weights(cpu_twin(c), weights->view(c));
    make_layer();
  }
  W4Layer(const MoeConfig& c, const W4Layer& share) : cfg(c), weights(share.weights), ref(share.ref) { make_layer(); }
  void make_layer() {
    layer = std::make_unique<MoeLayer>(cfg);
    EXPECT_EQ(layer->backend_name(), cfg.backend);
    layer->prepare_weights(weights->view(cfg));
  }
};

std::vector<uint16_t> check_w4(W4Layer& tl, const HostInputs& in, double tol = kTol) {
  DeviceInputs d(in);
  const std::vector<uint16_t> out = run_layer(*tl.layer, d);
  EXPECT_EQ(tl.layer->invalid_id_count(nullptr), in.invalid) << "invalid ids counted";
  const std::vector<uint16_t> ref = run_reference(tl.cfg, *tl.ref, in);
  EXPECT_EQ(count_nan(out), 0) << "NaN (or unwritten 0xFFFF) elements in out";
  const double err = rel_l2(out, ref);
  EXPECT_LE(err, tol) << "rel-L2 vs reference, T=" << in.T;
  std::printf("[w4a16 check] %s E=%lld K=%lld H=%lld I=%lld %s%s T=%lld: rel-L2 %.3g\n", rname(tl.cfg.recipe),
              (long long)tl.cfg.num_experts, (long long)tl.cfg.top_k, (long long)tl.cfg.hidden_size,
              (long long)tl.cfg.intermediate_size, activation_name(tl.cfg.activation), tl.cfg.has_bias ? "+bias" : "",
              (long long)in.T, err);
  for (int64_t t = 0; t < in.T; ++t) {
    bool routed = false;
    for (int64_t k = 0; k < in.K; ++k) {
      const int64_t v = in.ids[size_t(t * in.K + k)];
      routed |= v >= 0 && v < tl.cfg.num_experts;
    }
    if (routed) continue;
    for (int64_t h = 0; h < in.H; ++h) {
      if ((out[size_t(t * in.H + h)] & 0x7FFF) != 0) {
        ADD_FAILURE() << "token " << t << " has no route but out[" << t << ", " << h << "] is not 0";
        break;
      }
    }
  }
  return out;
}

const Recipe kRecipes[] = {Recipe::kW4A16MXFP4, Recipe::kW4A16NVFP4};

TEST(W4A16, BackendsRegisteredAndExplainRefusals) {
  const auto names = registered_backends();
  for (const char* n : {kMx, kNv}) EXPECT_NE(std::find(names.begin(), names.end(), std::string(n)), names.end()) << n;
  MEGAMOE_REQUIRE_SM90();
  for (Recipe r : kRecipes) {
    MoeConfig c = w4_config(r, 8, 2, 256, 128, 64);
    c.hidden_size = 96;
    EXPECT_THROW(MoeLayer{c}, Unsupported);
    c = w4_config(r, 8, 2, 256, 160, 64);  // I not a multiple of 64
    EXPECT_THROW(MoeLayer{c}, Unsupported);
    c = w4_config(r, 8, 2, 256, 128, 64);
    c.recipe = Recipe::kBF16;
    EXPECT_THROW(MoeLayer{c}, Unsupported);
    c = w4_config(r, 8, 2, 256, 128, 64);
    c.backend = "auto";
    MoeLayer ok(c);
    EXPECT_EQ(ok.backend_name(), std::string(r == Recipe::kW4A16MXFP4 ? kMx : kNv)) << "auto picks the W4A16 backend";
  }
}

// Small shapes (for compute-sanitizer): partial 128-row tiles (H = 192), experts with more
// than one 32-row chunk, bias, both recipes.
TEST(W4A16, SmallShapes) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Recipe r : kRecipes) {
    SCOPED_TRACE(rname(r));
    MoeConfig c = w4_config(r, 8, 4, 192, 128, 128, Activation::kSwiGLU, true);
    W4Layer tl(c, case_seed(std::string("small ") + rname(r)));
    for (int64_t T : {1, 7, 100}) {
      SCOPED_TRACE("T=" + std::to_string(T));
      check_w4(tl, make_inputs(c, T, RouteKind::kUniform, case_seed("small in") + uint64_t(T), 0.1, 0.1));
    }
  }
}

TEST(W4A16, EveryActivation) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Recipe r : kRecipes) {
    for (const ActivationCase& act : kActivationCases) {
      SCOPED_TRACE(std::string(rname(r)) + " " + act.name);
      MoeConfig c = w4_config(r, 8, 2, 576, 576, 256, act.a, act.bias);
      c.swiglu_limit = act.limit;
      W4Layer tl(c, case_seed(std::string("act ") + act.name + rname(r)));
      check_w4(tl, make_inputs(c, 64, RouteKind::kUniform, case_seed(std::string("act in ") + act.name)));
    }
  }
}

TEST(W4A16, TokenCounts) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Recipe r : kRecipes) {
    SCOPED_TRACE(rname(r));
    MoeConfig c = w4_config(r, 8, 4, 576, 576, 1024, Activation::kSwiGLUOAI, true);
    W4Layer tl(c, case_seed(std::string("tokens ") + rname(r)));
    for (int64_t T : {0, 1, 7, 64, 1000}) {
      SCOPED_TRACE("T=" + std::to_string(T));
      check_w4(tl, make_inputs(c, T, RouteKind::kUniform, case_seed("tokens in " + std::to_string(T))));
    }
  }
}

TEST(W4A16, ExpertCountsAndTopK) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Recipe r : kRecipes) {
    for (int64_t E : {8, 128}) {
      std::unique_ptr<W4Layer> first;
      for (int64_t K : {1, 4, 8}) {
        SCOPED_TRACE(std::string(rname(r)) + " E=" + std::to_string(E) + " K=" + std::to_string(K));
        MoeConfig c = w4_config(r, E, K, 256, 128, 128);
        std::unique_ptr<W4Layer> tl = first ? std::make_unique<W4Layer>(c, *first)
                                            : std::make_unique<W4Layer>(c, case_seed("EK " + std::to_string(E)));
        check_w4(*tl, make_inputs(c, 100, K % 2 ? RouteKind::kZipf : RouteKind::kUniform,
                                  case_seed("EK in " + std::to_string(E * 100 + K))));
        if (!first) first = std::move(tl);
      }
    }
  }
}

TEST(W4A16, NoRouteAndInvalidIds) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Recipe r : kRecipes) {
    SCOPED_TRACE(rname(r));
    MoeConfig c = w4_config(r, 16, 4, 256, 128, 512, Activation::kSwiGLU, true);
    W4Layer tl(c, case_seed(std::string("invalid ") + rname(r)));
    HostInputs in = make_inputs(c, 300, RouteKind::kUniform, case_seed("invalid in"), 0.2, 0.15, true);
    add_unrouted_tokens(in, c.num_experts);
    ASSERT_GT(in.invalid, 0);
    check_w4(tl, in);
    EXPECT_EQ(tl.layer->invalid_id_count(nullptr), 0) << "the counter resets when read";
  }
}

TEST(W4A16, BitwiseRepeatableAndGraphReplayEqualsEager) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Recipe r : kRecipes) {
    SCOPED_TRACE(rname(r));
    MoeConfig c = w4_config(r, 32, 4, 256, 192, 2048, Activation::kGeGLU, true);
    W4Layer tl(c, case_seed(std::string("graph ") + rname(r)));
    for (int64_t T : {40, 1100}) {
      SCOPED_TRACE("T=" + std::to_string(T));
      HostInputs in = make_inputs(c, T, RouteKind::kZipf, case_seed("graph in") + uint64_t(T), 0.05, 0.05);
      DeviceInputs d(in);
      cudaStream_t s;
      CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      const std::vector<uint16_t> eager = run_layer(*tl.layer, d, s);
      EXPECT_EQ(count_nan(eager), 0);
      for (int rep = 0; rep < 2; ++rep) EXPECT_TRUE(run_layer(*tl.layer, d, s) == eager) << "run " << rep;
      EXPECT_TRUE(run_layer(*tl.layer, d, nullptr) == eager) << "default stream";
      EXPECT_EQ(tl.layer->invalid_id_count(s), 4 * in.invalid);
      cudaGraph_t graph;
      cudaGraphExec_t exec;
      CUDA_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
      tl.layer->forward(d.xv(), d.idv(), d.wv(), d.outv(), s);
      CUDA_CHECK(cudaStreamEndCapture(s, &graph));
      CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
      for (int rep = 0; rep < 2; ++rep) {
        d.poison(s);
        CUDA_CHECK(cudaGraphLaunch(exec, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        EXPECT_TRUE(d.result() == eager) << "replay " << rep;
      }
      HostInputs in2 = make_inputs(c, T, RouteKind::kUniform, case_seed("graph in2") + uint64_t(T));
      d.upload(in2);
      d.poison(s);
      CUDA_CHECK(cudaGraphLaunch(exec, s));
      CUDA_CHECK(cudaStreamSynchronize(s));
      const std::vector<uint16_t> replay2 = d.result();
      EXPECT_TRUE(run_layer(*tl.layer, d, s) == replay2) << "replay with new inputs equals eager";
      EXPECT_LE(rel_l2(replay2, run_reference(c, *tl.ref, in2)), kTol);
      tl.layer->invalid_id_count(s);
      CUDA_CHECK(cudaGraphExecDestroy(exec));
      CUDA_CHECK(cudaGraphDestroy(graph));
      CUDA_CHECK(cudaStreamDestroy(s));
    }
  }
}

// The GEMM alone, each tactic forced, against a float64 dequantize-and-multiply on the CPU:
// ragged experts (0, 1, 15, 17, 130 and 300 rows: partial 16- and 128-token passes), a partial
// 128-row weight tile (N = 192), 5 K steps, random codes including NaN-free extreme scales,
// both scale formats, nvfp4 alpha per expert. fp32 accumulation of exact bf16 products: 1e-5.
TEST(W4A16, GemmTacticsMatchCpu) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const int64_t N = 192, K = 320;
  const std::vector<int32_t> rows = {0, 1, 15, 17, 130, 300};
  const int64_t G = int64_t(rows.size());
  std::vector<int32_t> offs(size_t(G + 1), 0);
  for (int64_t g = 0; g < G; ++g) offs[size_t(g + 1)] = offs[size_t(g)] + rows[size_t(g)];
  const int64_t M = offs.back();
  std::mt19937_64 rng(case_seed("gemm tactics"));
  std::vector<uint16_t> a(size_t(M * K));
  std::vector<float> af(a.size());
  std::normal_distribution<float> nd(0.0f, 1.0f);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = formats::float_to_bf16_bits(nd(rng));
    af[i] = formats::bf16_bits_to_float(a[i]);
  }
  std::vector<uint8_t> w(size_t(G * N * K / 2));
  for (auto& b : w) b = uint8_t(rng());
  for (sm90::Fp4Scale fmt : {sm90::Fp4Scale::kMxfp4, sm90::Fp4Scale::kNvfp4}) {
    const bool nv = fmt == sm90::Fp4Scale::kNvfp4;
    const int64_t blk = sm90::fp4_scale_block(fmt);
    SCOPED_TRACE(nv ? "nvfp4" : "mxfp4");
    std::vector<uint8_t> sc(size_t(G * N * K / blk));
    for (auto& b : sc) b = nv ? uint8_t(0x08 + rng() % 0x70) : uint8_t(100 + rng() % 40);  // e4m3 / e8m0 2^-27..2^12
    std::vector<float> alpha(static_cast<size_t>(G));
    for (int64_t g = 0; g < G; ++g) alpha[size_t(g)] = nv ? 0.5f + 0.25f * float(g) : 1.0f;
    // CPU: D[m, n] = alpha * sum_k a[m, k] * e2m1(w) * scale, in float64.
    std::vector<double> ref(size_t(M * N));
    for (int64_t g = 0; g < G; ++g)
      for (int64_t n = 0; n < N; ++n) {
        std::vector<double> wr(static_cast<size_t>(K));
        for (int64_t k = 0; k < K; ++k) {
          const uint8_t code = formats::unpack_e2m1(w[size_t((g * N + n) * K / 2 + k / 2)], int(k & 1));
          const uint8_t s = sc[size_t((g * N + n) * (K / blk) + k / blk)];
          wr[size_t(k)] = double(formats::e2m1_to_float(code)) *
                          double(nv ? formats::e4m3_to_float(s) : formats::e8m0_to_float(s));
        }
        for (int32_t m = offs[size_t(g)]; m < offs[size_t(g + 1)]; ++m) {
          double acc = 0;
          for (int64_t k = 0; k < K; ++k) acc += double(af[size_t(m * K + k)]) * wr[size_t(k)];
          ref[size_t(m * N + n)] = acc * alpha[size_t(g)];
        }
      }
    std::vector<uint8_t> tiles;
    sm90::w4a16_scale_tiles(sc.data(), G, N, K, fmt, tiles);
    DevBuf<uint16_t> da(a.size());
    DevBuf<uint8_t> dw(w.size()), ds(tiles.size());
    DevBuf<float> dal(alpha.size()), dd(size_t(M * N));
    DevBuf<int32_t> doff(offs.size());
    CUDA_CHECK(cudaMemcpy(da.p, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dw.p, w.data(), w.size(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(ds.p, tiles.data(), tiles.size(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dal.p, alpha.data(), alpha.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(doff.p, offs.data(), offs.size() * 4, cudaMemcpyHostToDevice));
    sm90::w4a16_prepare_weights(dw.p, dw.n, nullptr);
    for (sm90::W4A16Tactic t : {sm90::W4A16Tactic::kSmall, sm90::W4A16Tactic::kLarge}) {
      SCOPED_TRACE(t == sm90::W4A16Tactic::kSmall ? "small tactic" : "large tactic");
      CUDA_CHECK(cudaMemset(dd.p, 0xFF, dd.n * 4));  // NaN poison: every element must be written
      sm90::W4A16GemmArgs ga;
      ga.A = da.p;
      ga.W = dw.p;
      ga.scales = ds.p;
      ga.alpha = nv ? dal.p : nullptr;
      ga.offsets = doff.p;
      ga.D = dd.p;
      ga.N = N;
      ga.K = K;
      ga.num_groups = int(G);
      ga.tactic = t;
      sm90::launch_grouped_gemm_w4a16(ga, fmt, M, nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      std::vector<float> d(size_t(M * N));
      CUDA_CHECK(cudaMemcpy(d.data(), dd.p, d.size() * 4, cudaMemcpyDeviceToHost));
      double num = 0, den = 0;
      int64_t bad = 0;
      for (size_t i = 0; i < d.size(); ++i) {
        if (!std::isfinite(d[i])) ++bad;
        num += (double(d[i]) - ref[i]) * (double(d[i]) - ref[i]);
        den += ref[i] * ref[i];
      }
      EXPECT_EQ(bad, 0) << "non-finite (unwritten) outputs";
      EXPECT_LE(std::sqrt(num / den), 1e-5) << "rel-L2 vs float64";
      EXPECT_GT(den, 0.0);
    }
  }
  EXPECT_EQ(sm90::w4a16_pick_tactic(1 * 8, 256), sm90::W4A16Tactic::kSmall);
  EXPECT_EQ(sm90::w4a16_pick_tactic(8192 * 8, 256), sm90::W4A16Tactic::kLarge);
}

// gpt-oss-like: H = I = 2880 (45 x 64, not a multiple of 128), E = 128, K = 4, swiglu_oai + bias.
// Random canonical codes (quantizing 3.2e9 weights on the CPU would take minutes).
TEST(W4A16, GptOssShape) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  MoeConfig c = w4_config(Recipe::kW4A16MXFP4, 128, 4, 2880, 2880, 64, Activation::kSwiGLUOAI, true);
  W4Layer tl(c, case_seed("gpt-oss"), /*random=*/true);
  check_w4(tl, make_inputs(c, 16, RouteKind::kUniform, case_seed("gpt-oss in")));
}

// Not a timed assertion: prints forward's device time for the deepseek-v3 shape (median of 50
// CUDA-graph replays, mxfp4, random weight codes on the device: 5.6 GB, streamed from HBM;
// random bytes matter: the decode's table lookups see every byte value).
TEST(W4A16, LatencyReport) {
  MEGAMOE_REQUIRE_SM90();
  const int64_t H = 7168, I = 2048, E = 256, K = 8;
  MoeConfig c = w4_config(Recipe::kW4A16MXFP4, E, K, H, I, 8192);
  const int64_t N13 = c.fc1_rows();
  DevBuf<uint8_t> w13(size_t(E * N13 * H / 2)), w2(size_t(E * H * I / 2)), s13(size_t(E * N13 * H / 32)),
      s2(size_t(E * H * I / 32));
  {
    std::vector<uint8_t> pattern(size_t(64) << 20);  // 64 MB of random bytes, tiled over the weights
    std::mt19937_64 rng(7);
    for (auto& b : pattern) b = uint8_t(rng());
    for (DevBuf<uint8_t>* buf : {&w13, &w2})
      for (size_t o = 0; o < buf->n; o += pattern.size())
        CUDA_CHECK(cudaMemcpy(buf->p + o, pattern.data(), std::min(pattern.size(), buf->n - o), cudaMemcpyHostToDevice));
  }
  CUDA_CHECK(cudaMemset(s13.p, 120, s13.n));
  CUDA_CHECK(cudaMemset(s2.p, 121, s2.n));
  MoeWeights w;
  w.w13 = TensorView::contiguous(w13.p, DType::kU8, {E, N13, H / 2}, Device::cuda(0));
  w.w2 = TensorView::contiguous(w2.p, DType::kU8, {E, H, I / 2}, Device::cuda(0));
  w.w13_scale = TensorView::contiguous(s13.p, DType::kE8M0, {E, N13, H / 32}, Device::cuda(0));
  w.w2_scale = TensorView::contiguous(s2.p, DType::kE8M0, {E, H, I / 32}, Device::cuda(0));
  MoeLayer layer(c);
  layer.prepare_weights(w);
  w13.free_();
  w2.free_();
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  for (int64_t T : {1, 8, 64, 512, 8192}) {
    HostInputs in = make_inputs(c, T, RouteKind::kUniform, case_seed("latency"));
    DeviceInputs d(in);
    d.poison(s);
    const GraphTiming gt = time_graph_forward(layer, d, s, 5, 50);
    const double experts = std::min<double>(double(E), double(T * K));
    const double wbytes = experts * double(N13 * H + H * I) / 2.0;
    const double med = gt.median_ms;
    const double flops = 2.0 * double(T * K) * double(N13 * H + H * I);
    std::printf("[w4a16 mxfp4 split forward] deepseek-v3 T=%lld: %.3f ms (median of %zu graph replays; %.0f MB of "
                "touched packed weights -> %.2f TB/s; %.1f TFLOP/s)\n",
                (long long)T, med, gt.samples, wbytes / 1e6, wbytes / (med * 1e-3) / 1e12, flops / (med * 1e-3) / 1e12);
    EXPECT_EQ(count_nan(d.result()), 0);
  }
  CUDA_CHECK(cudaStreamDestroy(s));
}

}  // namespace
}  // namespace megamoe::gputest
