// The CPU reference MoE against an independent float64 per-token loop, for every recipe,
// activation and bias setting; routing edge cases; shapes.
#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>

#include "cpu/reference_test_util.h"

namespace megamoe::reftest {
namespace {

// ---- every recipe x activation x bias vs the float64 loop ------------------------------

struct ActCase {
  const char* name;
  Activation act;
  float limit;  // <= 0: none (the activation's default)
};
const ActCase kActCases[] = {
    {"swiglu", Activation::kSwiGLU, 0.0f},
    {"swiglu_limit1", Activation::kSwiGLU, 1.0f},
    {"swiglu_oai", Activation::kSwiGLUOAI, 0.0f},
    {"swiglu_oai_limit1p5", Activation::kSwiGLUOAI, 1.5f},
    {"geglu", Activation::kGeGLU, 0.0f},
    {"relu2", Activation::kReLU2, 0.0f},
};
const Recipe kRecipes[] = {Recipe::kBF16,       Recipe::kFP8Block, Recipe::kW4A16MXFP4, Recipe::kW4A16NVFP4,
                           Recipe::kMXFP8,      Recipe::kW4A8MXFP4, Recipe::kNVFP4};

bool quantized_activations(Recipe r) {
  return r == Recipe::kFP8Block || r == Recipe::kMXFP8 || r == Recipe::kW4A8MXFP4 || r == Recipe::kNVFP4;
}

using OracleParam = std::tuple<Recipe, int, bool>;

class ReferenceOracle : public ::testing::TestWithParam<OracleParam> {};

TEST_P(ReferenceOracle, MatchesFloat64Loop) {
  REFTEST_TRACE_SEED();
  const auto [recipe, act_index, bias] = GetParam();
  const ActCase& ac = kActCases[act_index];
  // H = 256: two fp8 blocks; I = 160: a partial fp8 block (and N13 = 320 in FC1).
  MoeConfig c = make_config(/*E=*/6, /*K=*/3, /*H=*/256, /*I=*/160, recipe, ac.act, bias);
  if (ac.limit > 0) c.swiglu_limit = ac.limit;
  const std::string name = std::string("oracle/") + recipe_name(recipe) + "/" + ac.name + (bias ? "/bias" : "");
  const uint64_t seed = case_seed(name);
  Problem p;
  random_problem(p, /*T=*/21, c.hidden_size, c.top_k, c.num_experts, seed);
  formats::CanonicalWeights cw = random_canonical(c, seed + 1);
  if (recipe == Recipe::kNVFP4) {
    float amax = 0;
    for (uint16_t v : p.x) amax = std::max(amax, std::fabs(formats::bf16_bits_to_float(v)));
    cw.fc1_input_global_scale = amax / (448.0f * 6.0f);
    cw.fc2_input_global_scale = 4.0f / (448.0f * 6.0f);
  }
  F64Stats st;
  std::vector<double> ref;
  const double err = check_against_f64(c, cw, p, 0, &st, &ref);
  const std::vector<double> tok = token_rel_l2_sorted(p, ref);
  ASSERT_FALSE(tok.empty());
  const double tok_median = tok[tok.size() / 2];
  // Measured ~1.7e-3 for every case: the final bf16 rounding of out. The recipes that quantize FC2's
  // input (fp8_block, mxfp8 and w4a8_mxfp4 to e4m3, nvfp4 to e2m1 in 16-element blocks) do it from an h
  // the reference computes in fp32 where this loop uses float64: an `a` on a rounding boundary, or a
  // block's amax on a scale boundary, can land on the neighbouring code in one of the two, moving
  // that token's FC2 input by one code (up to 1/8 of an e4m3 element, a third of an e2m1 one). Such
  // flips are rare and hit single tokens: over 151 random base seeds x these 48 cases, 8 tokens went
  // past 5e-3 (fp8_block 5, mxfp8 / w4a8_mxfp4 / nvfp4 1 each; worst 1.8e-2), and a CI run's seed
  // 202511274536654342 took one fp8_block swiglu_oai token to 2.7e-2 (whole output 6.1e-3), while the
  // median token stayed at ~1.7e-3. A wrong formula moves every token. So for these recipes the whole
  // output gets a bound that admits a flipped token or two, the median token keeps the tight one, and
  // at most two tokens may pass it.
  const bool flips = quantized_activations(recipe);
  const double tol = flips ? 3e-2 : 5e-3, tok_tol = 5e-3;
  std::printf("[ rel-L2 ] %-44s %.3e (median token %.3e, worst %.3e; clamped %lld)\n", name.c_str(), err, tok_median,
              tok.back(), (long long)st.clamped);
  EXPECT_LT(err, tol) << name;
  EXPECT_LT(tok_median, tok_tol) << name << ": the median token";
  const auto beyond = std::count_if(tok.begin(), tok.end(), [&](double e) { return e >= tok_tol; });
  EXPECT_LE(beyond, flips ? 2 : 0) << name << ": tokens past " << tok_tol;
  if (ac.limit > 0) EXPECT_GT(st.clamped, 0) << "the limit case must exercise the clamp";
  // The output is not trivially small.
  double s = 0;
  for (int64_t i = 0; i < p.T * p.H; ++i) s += std::fabs(formats::bf16_bits_to_float(p.out[size_t(i)]));
  EXPECT_GT(s / double(p.T * p.H), 1e-3);
}

std::string oracle_name(const ::testing::TestParamInfo<OracleParam>& info) {
  const auto [recipe, act_index, bias] = info.param;
  return std::string(recipe_name(recipe)) + "_" + kActCases[act_index].name + (bias ? "_bias" : "_nobias");
}

INSTANTIATE_TEST_SUITE_P(Reference, ReferenceOracle,
                         ::testing::Combine(::testing::ValuesIn(kRecipes), ::testing::Range(0, 6),
                                            ::testing::Bool()),
                         oracle_name);

// ---- routing ---------------------------------------------------------------------------

TEST(ReferenceRouting, NegativeOneIsSkippedAndUnroutedTokensAreZero) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(8, 4, 64, 96);
  const uint64_t seed = case_seed("neg1");
  Problem p;
  random_problem(p, 30, c.hidden_size, c.top_k, c.num_experts, seed);
  std::mt19937_64 rng(seed);
  for (int64_t t = 0; t < p.T; ++t)
    for (int64_t k = 0; k < p.K; ++k)
      if (t % 5 == 0 || rng() % 3 == 0) {
        p.ids[size_t(t * p.K + k)] = -1;
        p.w[size_t(t * p.K + k)] = std::numeric_limits<float>::quiet_NaN();  // must never be read
      }
  auto cw = random_canonical(c, seed + 1);
  const double err = check_against_f64(c, cw, p);
  EXPECT_LT(err, 5e-3);
  for (int64_t t = 0; t < p.T; t += 5)
    for (int64_t h = 0; h < p.H; ++h) ASSERT_EQ(p.out[size_t(t * p.H + h)], 0) << "token " << t;
  // The NaN weights of the -1 slots were never read: no NaN anywhere.
  for (uint16_t v : p.out) ASSERT_FALSE(std::isnan(formats::bf16_bits_to_float(v)));
}

TEST(ReferenceRouting, InvalidIdsThrowBeforeAnyWork) {
  MoeConfig c = make_config(8, 2, 32, 32);
  auto cw = random_canonical(c, 5);
  auto wp = reference::copy_canonical_weights(c, cw.view(c));
  for (int64_t bad : {int64_t(8), int64_t(-2), int64_t(1) << 40, std::numeric_limits<int64_t>::min()}) {
    Problem p;
    random_problem(p, 4, 32, 2, 8, 17);
    std::vector<int64_t> ids64(p.ids.begin(), p.ids.end());
    ids64[5] = bad;  // token 2, k 1
    const TensorView idv = TensorView::contiguous(ids64.data(), DType::kI64, {4, 2});
    try {
      reference::moe_forward(c, *wp, p.xv(), idv, p.wv(), p.outv(), 1);
      FAIL() << "no exception for id " << bad;
    } catch (const InvalidArgument& e) {
      const std::string msg = e.what();
      EXPECT_EQ(e.argument(), "topk_ids");
      EXPECT_NE(msg.find(std::to_string(bad)), std::string::npos) << msg;
      EXPECT_NE(msg.find("[2, 1]"), std::string::npos) << msg;
    }
    for (uint16_t v : p.out) ASSERT_EQ(v, 0x7FC1) << "output touched before validation";
  }
  // int32 too
  Problem p;
  random_problem(p, 3, 32, 2, 8, 18);
  p.ids[0] = 100;
  EXPECT_THROW(reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv()), InvalidArgument);
}

TEST(ReferenceRouting, BadArgumentsNameTheArgument) {
  MoeConfig c = make_config(4, 2, 32, 32);
  auto cw = random_canonical(c, 7);
  auto wp = reference::copy_canonical_weights(c, cw.view(c));
  Problem p;
  random_problem(p, 3, 32, 2, 4, 19);
  auto expect_arg = [&](const std::string& arg, const TensorView& x, const TensorView& ids, const TensorView& w,
                        const TensorView& out) {
    try {
      reference::moe_forward(c, *wp, x, ids, w, out);
      ADD_FAILURE() << "no exception, expected one naming " << arg;
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), arg) << e.what();
    }
  };
  std::vector<uint16_t> x_wide(3 * 40);
  expect_arg("x", TensorView::contiguous(x_wide.data(), DType::kBF16, {3, 40}), p.idv(), p.wv(), p.outv());
  expect_arg("topk_ids", p.xv(), TensorView::contiguous(p.ids.data(), DType::kI32, {2, 3}), p.wv(), p.outv());
  expect_arg("topk_weights", p.xv(), p.idv(), TensorView::contiguous(p.w.data(), DType::kBF16, {3, 2}), p.outv());
  expect_arg("out", p.xv(), p.idv(), p.wv(), TensorView::contiguous(p.out.data(), DType::kF32, {3, 16}));
  // EP: the number of ranks must be config.ep_size.
  MoeConfig c2 = c;
  c2.ep_size = 2;
  std::vector<reference::EpRankIO> one{{wp.get(), p.xv(), p.idv(), p.wv(), p.outv()}};
  EXPECT_THROW(reference::moe_forward_ep_simulated(c2, one), InvalidArgument);
}

TEST(ReferenceRouting, ZeroTokens) {
  MoeConfig c = make_config(4, 2, 32, 32);
  auto cw = random_canonical(c, 6);
  auto wp = reference::copy_canonical_weights(c, cw.view(c));
  Problem p;
  p.resize(0, 32, 2);
  EXPECT_NO_THROW(reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv()));
}

TEST(ReferenceRouting, TopKSweep) {
  REFTEST_TRACE_SEED();
  for (int64_t K : {1, 2, 4, 6, 8, 10}) {
    MoeConfig c = make_config(16, K, 64, 64, Recipe::kBF16, Activation::kSwiGLU, K % 4 == 2);
    const uint64_t seed = case_seed("topk" + std::to_string(K));
    Problem p;
    random_problem(p, 13, c.hidden_size, K, c.num_experts, seed);
    auto cw = random_canonical(c, seed + 1);
    const double err = check_against_f64(c, cw, p);
    std::printf("[ rel-L2 ] K=%-2lld %.3e\n", (long long)K, err);
    EXPECT_LT(err, 5e-3) << "K=" << K;
  }
}

TEST(ReferenceRouting, UnevenAndEmptyExperts) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(32, 2, 64, 64, Recipe::kFP8Block);
  const uint64_t seed = case_seed("uneven");
  Problem p;
  // Experts 3 and 7 take most routes, 30 and 0 a few, the rest none.
  random_problem(p, 70, c.hidden_size, c.top_k, c.num_experts, seed, 2.0f, {3, 7});
  for (int64_t t = 0; t < p.T; t += 9) p.ids[size_t(t * 2 + 1)] = (t % 2) ? 30 : 0;
  auto cw = random_canonical(c, seed + 1);
  const double err = check_against_f64(c, cw, p);
  EXPECT_LT(err, 1e-2);
}

TEST(ReferenceRouting, AllTokensOnOneExpert) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kW4A16MXFP4}) {
    MoeConfig c = make_config(8, 2, 64, 64, r, Activation::kSwiGLU, true);
    const uint64_t seed = case_seed(std::string("one_expert") + recipe_name(r));
    Problem p;
    random_problem(p, 100, c.hidden_size, c.top_k, c.num_experts, seed);
    for (int64_t t = 0; t < p.T; ++t) {
      p.ids[size_t(t * 2)] = 5;
      p.ids[size_t(t * 2 + 1)] = -1;  // 100 routes, all on expert 5 (several compute chunks)
    }
    auto cw = random_canonical(c, seed + 1);
    const double err = check_against_f64(c, cw, p);
    EXPECT_LT(err, 5e-3) << recipe_name(r);
  }
}

TEST(ReferenceRouting, Int64IdsAndPaddedRowsGiveTheSameOutput) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(8, 3, 48, 32);
  const uint64_t seed = case_seed("int64");
  Problem p;
  random_problem(p, 11, 48, 3, 8, seed);
  auto cw = random_canonical(c, seed + 1);
  auto wp = reference::copy_canonical_weights(c, cw.view(c));
  reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv());
  // x and out with a row stride of 64 (> H), ids as int64.
  const int64_t ld = 64;
  std::vector<uint16_t> xpad(static_cast<size_t>(p.T * ld), 0x7FC1), opad(static_cast<size_t>(p.T * ld), 0x1234);
  for (int64_t t = 0; t < p.T; ++t)
    std::memcpy(xpad.data() + t * ld, p.x.data() + t * 48, 48 * 2);
  TensorView xv = TensorView::contiguous(xpad.data(), DType::kBF16, {p.T, 48});
  xv.strides[0] = ld;
  TensorView ov = TensorView::contiguous(opad.data(), DType::kBF16, {p.T, 48});
  ov.strides[0] = ld;
  std::vector<int64_t> ids64(p.ids.begin(), p.ids.end());
  reference::moe_forward(c, *wp, xv, TensorView::contiguous(ids64.data(), DType::kI64, {p.T, 3}), p.wv(), ov);
  for (int64_t t = 0; t < p.T; ++t) {
    ASSERT_EQ(std::memcmp(opad.data() + t * ld, p.out.data() + t * 48, 48 * 2), 0) << "token " << t;
    for (int64_t h = 48; h < ld; ++h) ASSERT_EQ(opad[size_t(t * ld + h)], 0x1234) << "padding written";
  }
}

TEST(ReferenceRouting, NaNInputStaysInItsToken) {
  MoeConfig c = make_config(4, 2, 32, 32);
  Problem p;
  random_problem(p, 6, 32, 2, 4, case_seed("nan"));
  p.x[size_t(3 * 32 + 7)] = 0x7FC0;  // NaN in token 3
  auto cw = random_canonical(c, 9);
  auto wp = reference::copy_canonical_weights(c, cw.view(c));
  reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv());
  bool any_nan = false;
  for (int64_t t = 0; t < p.T; ++t)
    for (int64_t h = 0; h < 32; ++h) {
      const bool nan = std::isnan(p.out_at(t, h));
      if (t != 3) ASSERT_FALSE(nan) << "token " << t;
      any_nan = any_nan || nan;
    }
  EXPECT_TRUE(any_nan) << "a NaN input must not vanish";
}

// ---- shapes ----------------------------------------------------------------------------

TEST(ReferenceShapes, NotMultiplesOf128) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kFP8Block, Recipe::kMXFP8}) {
    MoeConfig c = make_config(6, 2, 96, 96, r, Activation::kSwiGLU, true);
    const uint64_t seed = case_seed(std::string("h96") + recipe_name(r));
    Problem p;
    random_problem(p, 17, 96, 2, 6, seed);
    auto cw = random_canonical(c, seed + 1);
    const double err = check_against_f64(c, cw, p);
    std::printf("[ rel-L2 ] H=I=96 %-12s %.3e\n", recipe_name(r), err);
    EXPECT_LT(err, r == Recipe::kBF16 ? 5e-3 : 1e-2) << recipe_name(r);
  }
}

TEST(ReferenceShapes, GptOss2880) {
  REFTEST_TRACE_SEED();
  // gpt-oss: H = I = 2880 (not a multiple of 128), swiglu_oai with biases, W4A16 MXFP4.
  MoeConfig c = make_config(2, 2, 2880, 2880, Recipe::kW4A16MXFP4, Activation::kSwiGLUOAI, true);
  const uint64_t seed = case_seed("gptoss");
  Problem p;
  random_problem(p, 3, 2880, 2, 2, seed);
  p.ids[1] = -1;
  auto cw = random_canonical(c, seed + 1);
  const double err = check_against_f64(c, cw, p);
  std::printf("[ rel-L2 ] 2880 w4a16_mxfp4 swiglu_oai %.3e\n", err);
  EXPECT_LT(err, 5e-3);
}

TEST(ReferenceShapes, FiveHundredTwelveExperts) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(512, 8, 64, 32, Recipe::kW4A16NVFP4);
  const uint64_t seed = case_seed("e512");
  Problem p;
  random_problem(p, 64, 64, 8, 512, seed);
  auto cw = random_canonical(c, seed + 1);
  const double err = check_against_f64(c, cw, p);
  EXPECT_LT(err, 5e-3);
}

// ---- activation round trip (the public helper) ------------------------------------------

TEST(ReferenceActivation, RoundtripMatchesTheFormatsQuantizers) {
  std::mt19937_64 rng(case_seed("roundtrip"));
  std::uniform_real_distribution<float> u(-3.0f, 3.0f);
  std::vector<float> v(192);
  for (auto& x : v) x = bf16(u(rng));
  for (Recipe r : kRecipes) {
    std::vector<float> got(v.size());
    reference::activation_roundtrip(r, v.data(), int64_t(v.size()), 0.01f, got.data());
    const std::vector<double> want = quantize_act_for_test(r, v, 0.01f);
    for (size_t i = 0; i < v.size(); ++i) ASSERT_EQ(double(got[i]), want[i]) << recipe_name(r) << " @" << i;
    if (quantized_activations(r)) {
      size_t changed = 0;
      for (size_t i = 0; i < v.size(); ++i) changed += got[i] != v[i];
      EXPECT_GT(changed, 0u) << recipe_name(r) << " must quantize";
    }
  }
}

}  // namespace
}  // namespace megamoe::reftest
