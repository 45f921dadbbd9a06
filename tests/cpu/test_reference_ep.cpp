// CPU reference: bitwise determinism (repeats, thread counts), the EP simulation against one
// rank, single-rank EP shards, weight providers (canonical, synthetic), full-size presets
// at small T, and the cpu_reference backend through MoeLayer.
#include <chrono>
#include <cstdio>
#include <string>

#include "core/synthetic.h"
#include "cpu/reference_test_util.h"

namespace megamoe::reftest {
namespace {

// ---- determinism ------------------------------------------------------------------------

TEST(ReferenceDeterminism, BitwiseAcrossRepeatsAndThreadCounts) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kFP8Block, Recipe::kNVFP4}) {
    MoeConfig c = make_config(8, 2, 64, 64, r, Activation::kSwiGLUOAI, true);
    const uint64_t seed = case_seed(std::string("det") + recipe_name(r));
    Problem p;
    random_problem(p, 150, 64, 2, 8, seed);  // ~37 routes per expert: several chunks
    auto wp = reference::synthetic_weights(c, seed);
    reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), 1);
    const std::vector<uint16_t> first = p.out;
    for (int threads : {1, 2, 3, 0, 8, 2}) {
      p.poison();
      reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), threads);
      EXPECT_TRUE(bitwise_equal(first, p.out)) << recipe_name(r) << " threads=" << threads;
    }
  }
}

// ---- EP simulation ----------------------------------------------------------------------

// Runs R ranks with the given token counts (tokens of rank r are the next T_r rows of the
// global problem) and compares every rank's output with the R = 1 run on all tokens.
void check_ep(const MoeConfig& base, int R, const std::vector<int64_t>& tokens, uint64_t seed,
              bool concentrate = false) {
  int64_t T = 0;
  for (int64_t t : tokens) T += t;
  Problem all;
  std::vector<int32_t> pool;
  if (concentrate)  // every route on rank 0's experts: other ranks receive nothing
    for (int32_t e = 0; e < base.num_experts / R; ++e) pool.push_back(e);
  random_problem(all, T, base.hidden_size, base.top_k, base.num_experts, seed, 2.0f, pool);
  for (int64_t t = 0; t < T; t += 4) all.ids[size_t(t * base.top_k)] = -1;
  MoeConfig c1 = base;
  c1.ep_size = 1;
  c1.ep_rank = 0;
  auto wp1 = reference::synthetic_weights(c1, seed);
  reference::moe_forward(c1, *wp1, all.xv(), all.idv(), all.wv(), all.outv(), 2);

  MoeConfig cR = base;
  cR.ep_size = R;
  std::vector<std::unique_ptr<reference::WeightProvider>> wps;
  std::vector<Problem> parts(static_cast<size_t>(R));
  std::vector<reference::EpRankIO> ranks(static_cast<size_t>(R));
  int64_t t0 = 0;
  for (int r = 0; r < R; ++r) {
    MoeConfig cr = cR;
    cr.ep_rank = r;
    wps.push_back(reference::synthetic_weights(cr, seed));
    Problem& q = parts[size_t(r)];
    q.resize(tokens[size_t(r)], base.hidden_size, base.top_k);
    std::memcpy(q.x.data(), all.x.data() + t0 * q.H, q.x.size() * 2);
    std::memcpy(q.ids.data(), all.ids.data() + t0 * q.K, q.ids.size() * 4);
    std::memcpy(q.w.data(), all.w.data() + t0 * q.K, q.w.size() * 4);
    t0 += q.T;
    ranks[size_t(r)] = {wps.back().get(), q.xv(), q.idv(), q.wv(), q.outv()};
  }
  reference::moe_forward_ep_simulated(cR, ranks, 3);
  t0 = 0;
  for (int r = 0; r < R; ++r) {
    const Problem& q = parts[size_t(r)];
    ASSERT_EQ(std::memcmp(q.out.data(), all.out.data() + t0 * q.H, q.out.size() * 2), 0)
        << "R=" << R << " rank " << r << " differs from R=1";
    t0 += q.T;
  }
}

TEST(ReferenceEp, SimulatedEqualsOneRankBitwise) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kFP8Block, Recipe::kW4A16NVFP4, Recipe::kW4A8MXFP4}) {
    MoeConfig c = make_config(16, 4, 64, 96, r, Activation::kSwiGLU, true);
    const uint64_t seed = case_seed(std::string("ep") + recipe_name(r));
    check_ep(c, 2, {23, 41}, seed);
    check_ep(c, 4, {10, 1, 33, 7}, seed + 1);
  }
}

TEST(ReferenceEp, RanksWithZeroTokensAndRanksWithNoWork) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(8, 2, 64, 64, Recipe::kMXFP8, Activation::kGeGLU);
  const uint64_t seed = case_seed("ep0");
  check_ep(c, 4, {0, 19, 0, 5}, seed);          // ranks 0 and 2 hold no tokens
  check_ep(c, 4, {6, 0, 9, 0}, seed + 1, true);  // ranks 1..3 receive no routes
  check_ep(c, 2, {0, 0}, seed + 2);              // nobody has tokens
}

TEST(ReferenceEp, SingleRankComputesOnlyItsExperts) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(8, 4, 64, 64, Recipe::kBF16, Activation::kSwiGLU, true);
  c.ep_size = 4;
  c.ep_rank = 2;  // experts 4 and 5
  const uint64_t seed = case_seed("ep_shard");
  Problem p;
  random_problem(p, 25, 64, 4, 8, seed);
  auto cw = random_canonical(c, seed + 1);
  const double err = check_against_f64(c, cw, p);  // the f64 loop skips other ranks' experts
  EXPECT_LT(err, 5e-3);
  // Tokens with no route to experts 4/5 are zero.
  int zero_tokens = 0;
  for (int64_t t = 0; t < p.T; ++t) {
    bool mine = false;
    for (int64_t k = 0; k < 4; ++k) mine |= (p.ids[size_t(t * 4 + k)] / 2 == 2);
    if (!mine) {
      ++zero_tokens;
      for (int64_t h = 0; h < 64; ++h) ASSERT_EQ(p.out[size_t(t * 64 + h)], 0);
    }
  }
  std::printf("[ info   ] %d of %lld tokens have no route on rank 2\n", zero_tokens, (long long)p.T);
}

// ---- weight providers -------------------------------------------------------------------

void expect_same_expert(const reference::ExpertWeightsF32& a, const reference::ExpertWeightsF32& b,
                        const std::string& what) {
  auto same = [](const std::vector<float>& x, const std::vector<float>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * 4) == 0;
  };
  EXPECT_TRUE(same(a.w13, b.w13)) << what << " w13";
  EXPECT_TRUE(same(a.w2, b.w2)) << what << " w2";
  EXPECT_TRUE(same(a.b13, b.b13)) << what << " b13";
  EXPECT_TRUE(same(a.b2, b.b2)) << what << " b2";
  EXPECT_EQ(a.alpha13, b.alpha13) << what;
  EXPECT_EQ(a.alpha2, b.alpha2) << what;
}

TEST(ReferenceWeights, SyntheticEqualsItsCanonicalWeightsCopied) {
  const Recipe recipes[] = {Recipe::kBF16,  Recipe::kFP8Block,  Recipe::kW4A16MXFP4, Recipe::kW4A16NVFP4,
                            Recipe::kMXFP8, Recipe::kW4A8MXFP4, Recipe::kNVFP4};
  for (Recipe r : recipes) {
    // N13 = 320 and H = 160: partial fp8 blocks in both dimensions.
    MoeConfig c = make_config(6, 2, 160, 160, r, Activation::kSwiGLU, true);
    c.ep_size = 2;
    c.ep_rank = 1;
    auto syn = reference::synthetic_weights(c, 77);
    formats::CanonicalWeights cw = reference::synthetic_canonical_weights(c, 77);
    auto can = reference::copy_canonical_weights(c, cw.view(c));
    EXPECT_GT(can->bytes(), 0u);
    EXPECT_EQ(syn->fc1_input_global_scale(), can->fc1_input_global_scale()) << recipe_name(r);
    EXPECT_EQ(syn->fc2_input_global_scale(), can->fc2_input_global_scale()) << recipe_name(r);
    for (int64_t e = 0; e < c.local_experts(); ++e) {
      reference::ExpertWeightsF32 a, b, bf;
      syn->load(e, &a);
      can->load(e, &b);
      expect_same_expert(a, b, std::string(recipe_name(r)) + " expert " + std::to_string(e));
      // Quantization really happened (except bf16), and nvfp4 globals went to alpha.
      reference::synthetic_expert_bf16(c, 77, c.first_local_expert() + e, &bf);
      size_t changed = 0;
      for (size_t i = 0; i < bf.w13.size(); ++i) changed += bf.w13[i] != a.w13[i] * a.alpha13;
      if (r == Recipe::kBF16) {
        EXPECT_EQ(changed, 0u);
      } else {
        EXPECT_GT(changed, bf.w13.size() / 10) << recipe_name(r);
      }
      if (r == Recipe::kW4A16NVFP4 || r == Recipe::kNVFP4) {
        EXPECT_EQ(a.alpha13, cw.w13_global[size_t(e)]);
        EXPECT_EQ(a.alpha2, cw.w2_global[size_t(e)]);
        EXPECT_NE(a.alpha13, 1.0f);
        // Not folded: the weights are e2m1 x e4m3 products (at most 6 x 448).
        float amax = 0;
        for (float v : a.w13) amax = std::max(amax, std::fabs(v));
        EXPECT_GT(amax, 1.0f) << "w13 looks scaled by the global scale";
      } else {
        EXPECT_EQ(a.alpha13, 1.0f);
        EXPECT_EQ(a.alpha2, 1.0f);
      }
    }
  }
}

TEST(ReferenceWeights, SyntheticFollowsTheDocumentedFormula) {
  MoeConfig c = make_config(16, 2, 96, 64, Recipe::kBF16, Activation::kSwiGLU, true);
  reference::ExpertWeightsF32 w;
  const uint64_t seed = 1234;
  const int64_t g = 11, N13 = 128, H = 96, I = 64;
  reference::synthetic_expert_bf16(c, seed, g, &w);
  for (int64_t n : {0, 5, 127})
    for (int64_t h : {0, 33, 95})
      ASSERT_EQ(w.w13[size_t(n * H + h)],
                bf16(synthetic::uniform(seed, synthetic::kW13, uint64_t((g * N13 + n) * H + h), 1.0f / std::sqrt(96.0f))));
  for (int64_t n : {0, 95})
    for (int64_t i : {0, 63})
      ASSERT_EQ(w.w2[size_t(n * I + i)],
                bf16(synthetic::uniform(seed, synthetic::kW2, uint64_t((g * H + n) * I + i), 1.0f / std::sqrt(64.0f))));
  ASSERT_EQ(w.b13[7], bf16(synthetic::uniform(seed, synthetic::kB13, uint64_t(g * N13 + 7), 0.1f)));
  ASSERT_EQ(w.b2[9], bf16(synthetic::uniform(seed, synthetic::kB2, uint64_t(g * H + 9), 0.1f)));
  // An EP rank's provider sees the global expert's weights.
  MoeConfig c4 = c;
  c4.ep_size = 4;
  c4.ep_rank = 2;  // experts 8..11
  reference::ExpertWeightsF32 a, b;
  reference::synthetic_weights(c4, seed)->load(3, &a);
  reference::synthetic_weights(c, seed)->load(11, &b);
  expect_same_expert(a, b, "rank 2 local 3 vs global 11");
}

TEST(ReferenceWeights, BiasDtypesBf16AndF32AgreeBitwise) {
  MoeConfig c = make_config(4, 2, 64, 32, Recipe::kBF16, Activation::kSwiGLU, true);
  auto cw = random_canonical(c, case_seed("biasdt"));
  MoeWeights v = cw.view(c);
  std::vector<uint16_t> b13(cw.b13.size()), b2(cw.b2.size());
  for (size_t i = 0; i < b13.size(); ++i) b13[i] = formats::float_to_bf16_bits(cw.b13[i]);
  for (size_t i = 0; i < b2.size(); ++i) b2[i] = formats::float_to_bf16_bits(cw.b2[i]);
  MoeWeights vb = v;
  vb.b13 = TensorView::contiguous(b13.data(), DType::kBF16, {4, 64});
  vb.b2 = TensorView::contiguous(b2.data(), DType::kBF16, {4, 64});
  Problem p, q;
  random_problem(p, 9, 64, 2, 4, case_seed("biasdt2"));
  random_problem(q, 9, 64, 2, 4, case_seed("biasdt2"));
  reference::moe_forward(c, *reference::copy_canonical_weights(c, v), p.xv(), p.idv(), p.wv(), p.outv());
  reference::moe_forward(c, *reference::copy_canonical_weights(c, vb), q.xv(), q.idv(), q.wv(), q.outv());
  EXPECT_TRUE(bitwise_equal(p.out, q.out));
}

// ---- full-size presets at small T (synthetic weights, regenerated per expert) -----------

TEST(ReferenceLarge, DeepSeekV3ShapeOneToken) {
  REFTEST_TRACE_SEED();
  // H=7168, I=2048, E=256, K=8, fp8_block; one routed expert keeps the runtime small.
  MoeConfig c = make_config(256, 8, 7168, 2048, Recipe::kFP8Block);
  const uint64_t seed = case_seed("dsv3");
  Problem p;
  random_problem(p, 1, 7168, 8, 256, seed, 1.0f);
  for (int64_t k = 1; k < 8; ++k) p.ids[size_t(k)] = -1;
  const auto t0 = std::chrono::steady_clock::now();
  auto wp = reference::synthetic_weights(c, seed);
  reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ timing ] deepseek-v3 fp8_block, 1 token, 1 expert: %.2f s\n", s);
  // Check against the float64 loop on that one expert (weights from the provider).
  reference::ExpertWeightsF32 w;
  wp->load(p.ids[0], &w);
  std::vector<F64Expert> W(256);
  F64Expert& e = W[size_t(p.ids[0])];
  e.w13.assign(w.w13.begin(), w.w13.end());
  e.w2.assign(w.w2.begin(), w.w2.end());
  const auto ref = f64_forward(c, W, p, 1.0f, 1.0f);
  const double err = rel_l2(p, ref);
  std::printf("[ rel-L2 ] deepseek-v3 fp8_block %.3e\n", err);
  EXPECT_LT(err, 1e-2);
  EXPECT_GT(norm2(ref), 0.0);
}

TEST(ReferenceLarge, MixtralShapeTwoTokens) {
  REFTEST_TRACE_SEED();
  // H=4096, I=14336, E=8, K=2, bf16: two experts of 176M weights each, generated on demand.
  MoeConfig c = make_config(8, 2, 4096, 14336, Recipe::kBF16);
  const uint64_t seed = case_seed("mixtral");
  Problem p;
  random_problem(p, 2, 4096, 2, 8, seed, 1.0f);
  p.ids = {3, -1, -1, 6};
  const auto t0 = std::chrono::steady_clock::now();
  auto wp = reference::synthetic_weights(c, seed);
  reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ timing ] mixtral-8x7b bf16, 2 tokens, 2 experts: %.2f s\n", s);
  double sum = 0;
  for (int64_t i = 0; i < p.T * p.H; ++i) {
    const float v = formats::bf16_bits_to_float(p.out[size_t(i)]);
    ASSERT_TRUE(std::isfinite(v));
    sum += std::fabs(v);
  }
  EXPECT_GT(sum, 0.0);
  // Spot-check token 0's first outputs against float64 (one FC2 row per output needs all of a).
  reference::ExpertWeightsF32 w;
  wp->load(3, &w);
  const int64_t H = 4096, I = 14336;
  std::vector<float> a(static_cast<size_t>(I));
  for (int64_t i = 0; i < I; ++i) {
    double g = 0, u = 0;
    for (int64_t h = 0; h < H; ++h) {
      const double x = formats::bf16_bits_to_float(p.x[size_t(h)]);
      g += x * w.w13[size_t(i * H + h)];
      u += x * w.w13[size_t((I + i) * H + h)];
    }
    a[size_t(i)] = bf16(float(g / (1.0 + std::exp(-g)) * u));
  }
  double num = 0, den = 0;
  for (int64_t n = 0; n < 64; ++n) {
    double y = 0;
    for (int64_t i = 0; i < I; ++i) y += double(a[size_t(i)]) * w.w2[size_t(n * I + i)];
    const double want = double(p.w[0]) * double(bf16(float(y)));
    const double got = p.out_at(0, n);
    num += (got - want) * (got - want);
    den += want * want;
  }
  const double err = std::sqrt(num / den);
  std::printf("[ rel-L2 ] mixtral bf16 (64 outputs) %.3e\n", err);
  EXPECT_LT(err, 5e-3);
}

// ---- the cpu_reference backend through MoeLayer -----------------------------------------

TEST(ReferenceBackend, LayerEqualsReferenceBitwise) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kW4A16MXFP4, Recipe::kNVFP4}) {
    MoeConfig c = make_config(8, 2, 64, 64, r, Activation::kSwiGLUOAI, true);
    c.num_threads = 2;
    const uint64_t seed = case_seed(std::string("layer") + recipe_name(r));
    auto cw = random_canonical(c, seed);
    if (r == Recipe::kNVFP4) {
      cw.fc1_input_global_scale = 2.0f / 2688.0f;
      cw.fc2_input_global_scale = 1.0f / 2688.0f;
    }
    MoeLayer layer(c);
    EXPECT_EQ(layer.backend_name(), "cpu_reference");
    layer.prepare_weights(cw.view(c));
    EXPECT_GT(layer.weight_bytes(), 0u);
    Problem p, q;
    random_problem(p, 40, 64, 2, 8, seed + 1);
    random_problem(q, 40, 64, 2, 8, seed + 1);
    layer.forward(p.xv(), p.idv(), p.wv(), p.outv());
    reference::moe_forward(c, *reference::copy_canonical_weights(c, cw.view(c)), q.xv(), q.idv(), q.wv(),
                           q.outv());
    EXPECT_TRUE(bitwise_equal(p.out, q.out)) << recipe_name(r);
    EXPECT_LT(check_against_f64(c, cw, q), 1e-2) << recipe_name(r);
    EXPECT_EQ(layer.invalid_id_count(), 0);
    // Invalid ids raise through the layer.
    p.ids[3] = 8;
    EXPECT_THROW(layer.forward(p.xv(), p.idv(), p.wv(), p.outv()), InvalidArgument);
  }
}

TEST(ReferenceBackend, AutoOnCpuPicksReferenceAndGpuDeviceIsRefused) {
  MoeConfig c = make_config(4, 2, 32, 32);
  c.backend = "auto";
  MoeLayer layer(c);
  EXPECT_EQ(layer.backend_name(), "cpu_reference");
  MoeConfig g = c;
  g.backend = "cpu_reference";
  g.device = 0;
  EXPECT_THROW({ MoeLayer l(g); }, Unsupported);
}

}  // namespace
}  // namespace megamoe::reftest
