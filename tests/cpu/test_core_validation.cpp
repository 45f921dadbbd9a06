// The public API's argument checks: every bad input raises InvalidArgument (or
// Unsupported) naming the argument, the expectation and what came.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/workload.h"
#include "routing/route_plan.h"
#include "formats/canonical_weights.h"
#include "megamoe/megamoe.h"
#include "reference/reference.h"

using namespace megamoe;

namespace {

MoeConfig small_config() {
  MoeConfig c;
  c.num_experts = 4;
  c.top_k = 2;
  c.hidden_size = 64;
  c.intermediate_size = 32;
  c.max_tokens = 16;
  return c;
}

// Expects InvalidArgument whose argument() is `arg` and whose message holds `needle`.
template <class F>
void expect_invalid(F&& f, const std::string& arg, const std::string& needle = "") {
  try {
    f();
    ADD_FAILURE() << "no exception; expected InvalidArgument for '" << arg << "'";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), arg) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("expected"), std::string::npos) << e.what();
  }
}

struct Inputs {
  int64_t T, H, K;
  std::vector<uint16_t> x, out;
  std::vector<int32_t> ids;
  std::vector<float> w;
  Inputs(int64_t T_, int64_t H_, int64_t K_) : T(T_), H(H_), K(K_), x(size_t(T_ * H_), 0x3F80),
      out(size_t(T_ * H_)), ids(size_t(T_ * K_), 0), w(size_t(T_ * K_), 0.5f) {
    for (int64_t i = 0; i < T * K; ++i) ids[size_t(i)] = int32_t(i % 4);
  }
  TensorView xv() const { return TensorView::contiguous(x.data(), DType::kBF16, {T, H}); }
  TensorView iv() const { return TensorView::contiguous(ids.data(), DType::kI32, {T, K}); }
  TensorView wv() const { return TensorView::contiguous(w.data(), DType::kF32, {T, K}); }
  TensorView ov() const { return TensorView::contiguous(out.data(), DType::kBF16, {T, H}); }
};

struct Layer {
  MoeConfig c = small_config();
  formats::CanonicalWeights canonical;
  MoeLayer layer;
  explicit Layer(MoeConfig cfg = small_config())
      : c(cfg), canonical(make(cfg)), layer(cfg) { layer.prepare_weights(canonical.view(c)); }
  static formats::CanonicalWeights make(const MoeConfig& c) {
    return reference::synthetic_canonical_weights(c, 3);
  }
};

}  // namespace

TEST(CoreConfig, RejectsBadConfigs) {
  auto with = [](auto mutate) { MoeConfig c = small_config(); mutate(c); return c; };
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.num_experts = 0; })); }, "num_experts", "positive");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.top_k = 5; })); }, "top_k", "at most num_experts=4");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.ep_size = 3; })); }, "num_experts", "multiple of ep_size=3");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.ep_size = 2; c.ep_rank = 2; })); }, "ep_rank");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.hidden_size = -1; })); }, "hidden_size");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.recipe = Recipe::kW4A16MXFP4; c.hidden_size = 48; })); },
                 "hidden_size", "multiple of 32");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.recipe = Recipe::kNVFP4; c.intermediate_size = 24; })); },
                 "intermediate_size", "multiple of 16");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.activation = Activation::kGeGLU; c.swiglu_limit = 7.0f; })); },
                 "swiglu_limit");
  // Sizes above 2^31 (GPU row indices are 32-bit; with smaller sizes no product overflows).
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.hidden_size = int64_t(1) << 31; })); }, "hidden_size",
                 "below 2^31");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.max_tokens = (int64_t(1) << 62) + 1; })); },
                 "max_tokens", "below 2^31");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) {
                   c.num_experts = int64_t(1) << 30;
                   c.intermediate_size = int64_t(1) << 30;
                   c.hidden_size = int64_t(1) << 30;
                 })); },
                 "num_experts * fc1 rows * hidden_size", "2^60");
  // Enum values no name exists for (a cast from a wrong integer).
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.activation = static_cast<Activation>(42); })); },
                 "activation", "42");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.recipe = static_cast<Recipe>(42); })); }, "recipe",
                 "42");
  expect_invalid([&] { parse_recipe("fp4"); }, "recipe", "w4a16_mxfp4");
  expect_invalid([&] { parse_activation("gelu"); }, "activation", "swiglu_oai");
  // The activation's parameters and the execution settings.
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.swiglu_alpha = std::nanf(""); })); }, "swiglu_alpha",
                 "finite");
  expect_invalid([&] {
    validate_config(with([](MoeConfig& c) { c.swiglu_alpha = std::numeric_limits<float>::infinity(); }));
  }, "swiglu_alpha", "finite");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.swiglu_limit = 0.0f; })); }, "swiglu_limit", "positive");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.swiglu_limit = -7.0f; })); }, "swiglu_limit", "-7");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.num_threads = -1; })); }, "num_threads", "-1");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.device = -2; })); }, "device", "-2");
  EXPECT_NO_THROW(validate_config(small_config()));
}

// The CLI's and the benchmarks' names: an unknown preset or routing is refused with the list of known ones.
TEST(CoreWorkload, UnknownPresetAndRoutingNameTheKnownOnes) {
  expect_invalid([] { workload::find_preset("deepseek-v4"); }, "preset", "deepseek-v3");
  expect_invalid([] { workload::find_preset(""); }, "preset", "mixtral-8x7b");
  expect_invalid([] { workload::parse_routing("zipfian"); }, "routing", "one-hot-expert");
  EXPECT_EQ(workload::find_preset("gpt-oss-120b").hidden, 2880);
}

// MoeLayer::tactic_for takes a token count: a negative one is refused by name.
TEST(CoreBackend, TacticForNegativeTokensRaises) {
  Layer l;
  expect_invalid([&] { l.layer.tactic_for(-1); }, "num_tokens", "-1");
  EXPECT_NO_THROW(l.layer.tactic_for(0));
}

TEST(CoreConfig, RejectsBadPlacements) {
  auto placed = [](int R, std::vector<std::vector<int32_t>> p) {
    MoeConfig c = small_config();  // E = 4
    c.ep_size = R;
    c.expert_placement = std::move(p);
    return c;
  };
  // One list per rank.
  expect_invalid([&] { validate_config(placed(2, {{0, 1}, {2, 3}, {0}})); }, "expert_placement", "2 lists");
  expect_invalid([&] { validate_config(placed(3, {{0, 1}, {2, 3}})); }, "expert_placement", "got 2");
  // Entries in [0, E): the message names the entry and the bad value.
  expect_invalid([&] { validate_config(placed(2, {{0, 1}, {2, 4}})); }, "expert_placement[1][1]", "got 4");
  expect_invalid([&] { validate_config(placed(2, {{0, 1}, {2, 4}})); }, "expert_placement[1][1]", "[0, 4)");
  expect_invalid([&] { validate_config(placed(2, {{3, -1}, {2}})); }, "expert_placement[0][1]", "got -1");
  // No expert twice on one rank (twice on two ranks is a replica, allowed).
  expect_invalid([&] { validate_config(placed(2, {{0, 1}, {2, 3, 2}})); }, "expert_placement[1][2]",
                 "not already on rank 1");
  // Every rank holds an expert.
  expect_invalid([&] { validate_config(placed(3, {{0, 1}, {}, {2, 3}})); }, "expert_placement[1]",
                 "at least one expert");
  // The first bad entry is named (rank order, then slot order).
  expect_invalid([&] { validate_config(placed(2, {{0, 9}, {7, 3}})); }, "expert_placement[0][1]", "got 9");

  // Valid: E % R != 0 is fine with a placement, replicas, experts on no rank.
  EXPECT_NO_THROW(validate_config(placed(3, {{0}, {1, 2}, {3}})));
  EXPECT_NO_THROW(validate_config(placed(2, {{3, 0, 1}, {2, 3, 0}})));
  EXPECT_NO_THROW(validate_config(placed(2, {{2}, {0}})));
  // E % R is still required without one.
  MoeConfig c = small_config();
  c.ep_size = 3;
  expect_invalid([&] { validate_config(c); }, "num_experts", "multiple of ep_size=3");
  c.expert_placement = {{0, 3}, {1}, {2}};
  EXPECT_NO_THROW(validate_config(c));
  // The placement's view of this rank.
  c.ep_rank = 0;
  EXPECT_EQ(c.local_experts(), 2);
  EXPECT_EQ(c.global_expert(0), 0);
  EXPECT_EQ(c.global_expert(1), 3);
  c.ep_rank = 2;
  EXPECT_EQ(c.local_experts(), 1);
  EXPECT_EQ(c.global_expert(0), 2);
}

TEST(CoreConfig, RejectsBadEpStyleAndTimeout) {
  auto with = [](auto mutate) { MoeConfig c = small_config(); mutate(c); return c; };
  for (const char* bad : {"", "Push", "push ", "nccl", "auto|push"})
    expect_invalid([&] { validate_config(with([&](MoeConfig& c) { c.ep_style = bad; })); }, "ep_style",
                   "auto|push|pull");
  expect_invalid([&] { validate_config(with([](MoeConfig& c) { c.ep_style = "bogus"; })); }, "ep_style", "'bogus'");
  for (const char* good : {"auto", "push", "pull"})
    EXPECT_NO_THROW(validate_config(with([&](MoeConfig& c) { c.ep_style = good; }))) << good;
  for (double bad : {0.0, -1.0, -0.0, std::nan(""), double(INFINITY), -double(INFINITY)})
    expect_invalid([&] { validate_config(with([&](MoeConfig& c) { c.ep_timeout_s = bad; })); }, "ep_timeout_s",
                   "positive");
  for (double good : {1e-3, 5.0, 3600.0})
    EXPECT_NO_THROW(validate_config(with([&](MoeConfig& c) { c.ep_timeout_s = good; }))) << good;
}

TEST(CoreConfig, EffectiveLimitDefaults) {
  MoeConfig c = small_config();
  EXPECT_TRUE(std::isinf(c.effective_limit()));
  c.activation = Activation::kSwiGLUOAI;
  EXPECT_EQ(c.effective_limit(), 7.0f);
  c.swiglu_limit = 3.5f;
  EXPECT_EQ(c.effective_limit(), 3.5f);
  c.activation = Activation::kReLU2;
  EXPECT_EQ(c.fc1_rows(), c.intermediate_size);
}

TEST(CoreBackend, UnknownAndUnsupportedBackends) {
  MoeConfig c = small_config();
  c.backend = "no_such_backend";
  expect_invalid([&] { MoeLayer l(c); }, "backend", "cpu_reference");
  c.backend = "cpu_reference";
  c.device = 0;  // the CPU reference does not run on a GPU
  EXPECT_THROW({ MoeLayer l(c); }, Unsupported);
  c.device = -1;
  MoeLayer l(c);
  EXPECT_EQ(l.backend_name(), "cpu_reference");
  const auto names = registered_backends();
  EXPECT_EQ(names.back(), "cpu_reference");
}

TEST(CoreForward, ForwardBeforeWeightsRaises) {
  MoeLayer l(small_config());
  Inputs in(3, 64, 2);
  EXPECT_THROW(l.forward(in.xv(), in.iv(), in.wv(), in.ov()), Error);
}

TEST(CoreForward, EachBadInputRaisesItsError) {
  Layer L;
  Inputs in(3, 64, 2);
  EXPECT_NO_THROW(L.layer.forward(in.xv(), in.iv(), in.wv(), in.ov()));

  auto x = in.xv();
  x.dtype = DType::kF32;
  expect_invalid([&] { L.layer.forward(x, in.iv(), in.wv(), in.ov()); }, "x", "dtype bfloat16");
  x = TensorView::contiguous(in.x.data(), DType::kBF16, {3, 32});
  expect_invalid([&] { L.layer.forward(x, in.iv(), in.wv(), in.ov()); }, "x", "[T, 64]");
  x = in.xv();
  x.strides[0] = 32;  // rows overlap
  expect_invalid([&] { L.layer.forward(x, in.iv(), in.wv(), in.ov()); }, "x", "row stride");
  x = in.xv();
  x.device = Device::cuda(0);
  expect_invalid([&] { L.layer.forward(x, in.iv(), in.wv(), in.ov()); }, "x", "cpu");
  x = in.xv();
  x.data = nullptr;
  expect_invalid([&] { L.layer.forward(x, in.iv(), in.wv(), in.ov()); }, "x", "nullptr");

  auto ids = in.iv();
  ids.dtype = DType::kF32;
  expect_invalid([&] { L.layer.forward(in.xv(), ids, in.wv(), in.ov()); }, "topk_ids", "int32 or int64");
  ids = TensorView::contiguous(in.ids.data(), DType::kI32, {3, 1});
  expect_invalid([&] { L.layer.forward(in.xv(), ids, in.wv(), in.ov()); }, "topk_ids", "2 (top_k)");
  auto w = TensorView::contiguous(in.w.data(), DType::kF32, {2, 2});
  expect_invalid([&] { L.layer.forward(in.xv(), in.iv(), w, in.ov()); }, "topk_weights", "3 (T)");
  auto out = in.ov();
  out.dtype = DType::kF16;
  expect_invalid([&] { L.layer.forward(in.xv(), in.iv(), in.wv(), out); }, "out", "bfloat16");

  Inputs big(17, 64, 2);  // capacity is 16 tokens
  expect_invalid([&] { L.layer.forward(big.xv(), big.iv(), big.wv(), big.ov()); }, "x", "max_tokens=16");

  // Views that are inconsistent in themselves: a negative row count (which check_shape's wildcard
  // T would otherwise accept in ids / weights / out), an ndim past the view's arrays.
  x = TensorView::contiguous(in.x.data(), DType::kBF16, {-1, 64});
  expect_invalid([&] { L.layer.forward(x, in.iv(), in.wv(), in.ov()); }, "x", "non-negative");
  ids = in.iv();
  ids.shape[0] = -3;
  expect_invalid([&] { L.layer.forward(in.xv(), ids, in.wv(), in.ov()); }, "topk_ids", "non-negative");
  out = in.ov();
  out.ndim = 200;
  expect_invalid([&] { L.layer.forward(in.xv(), in.iv(), in.wv(), out); }, "out", "ndim 200");
  EXPECT_EQ(out.shape_str(), "(ndim 200)");
  EXPECT_EQ(out.numel(), 0);  // the loops stop at kMaxDims (the view's unused extents are 0)

  in.ids[3] = 4;  // E = 4: ids must be -1 or in [0, 4)
  expect_invalid([&] { L.layer.forward(in.xv(), in.iv(), in.wv(), in.ov()); }, "topk_ids[1, 1]", "[0, 4)");
  in.ids[3] = -2;
  expect_invalid([&] { L.layer.forward(in.xv(), in.iv(), in.wv(), in.ov()); }, "topk_ids[1, 1]", "-2");
  in.ids[3] = -1;  // -1 is "no route"
  EXPECT_NO_THROW(L.layer.forward(in.xv(), in.iv(), in.wv(), in.ov()));
}

TEST(CoreForward, RowStrideAndZeroTokens) {
  Layer L;
  Inputs in(4, 64, 2);
  L.layer.forward(in.xv(), in.iv(), in.wv(), in.ov());
  const auto dense = in.out;
  // The same rows, padded to a row stride of 80.
  std::vector<uint16_t> padded(size_t(4 * 80), 0);
  for (int t = 0; t < 4; ++t) std::memcpy(&padded[size_t(t * 80)], &in.x[size_t(t * 64)], 64 * 2);
  auto x = TensorView::contiguous(padded.data(), DType::kBF16, {4, 64});
  x.strides[0] = 80;
  std::fill(in.out.begin(), in.out.end(), 0xFFFF);
  L.layer.forward(x, in.iv(), in.wv(), in.ov());
  EXPECT_EQ(in.out, dense);
  Inputs none(0, 64, 2);
  EXPECT_NO_THROW(L.layer.forward(none.xv(), none.iv(), none.wv(), none.ov()));
}

TEST(CoreWeights, BadWeightsRaise) {
  MoeConfig c = small_config();
  auto canonical = Layer::make(c);
  MoeLayer l(c);
  auto w = canonical.view(c);
  w.w13.dtype = DType::kF32;
  expect_invalid([&] { l.prepare_weights(w); }, "w13", "bfloat16");
  w = canonical.view(c);
  w.w2 = TensorView::contiguous(canonical.w2.data(), DType::kBF16, {4, 64, 16});
  expect_invalid([&] { l.prepare_weights(w); }, "w2", "[4 (local experts), 64, 32]");
  w = canonical.view(c);
  w.b13 = TensorView::contiguous(canonical.w2.data(), DType::kF32, {4, 64});
  expect_invalid([&] { l.prepare_weights(w); }, "b13", "has_bias is false");
  w = canonical.view(c);
  w.w13_scale = TensorView::contiguous(canonical.w2.data(), DType::kF32, {4, 1, 1});
  expect_invalid([&] { l.prepare_weights(w); }, "w13_scale", "no such scale");
  w = canonical.view(c);
  w.w2 = TensorView{};
  expect_invalid([&] { l.prepare_weights(w); }, "w2", "none");

  MoeConfig q = c;
  q.recipe = Recipe::kW4A16NVFP4;
  MoeLayer lq(q);
  auto cq = Layer::make(q);
  auto wq = cq.view(q);
  wq.w13_global_scale = TensorView{};
  expect_invalid([&] { lq.prepare_weights(wq); }, "w13_global_scale", "[4 (local experts)]");
  wq = cq.view(q);
  EXPECT_NO_THROW(lq.prepare_weights(wq));
}

// The two activation global scales are checked one by one: the error names the one that is wrong
// (it said "fc1/fc2_input_global_scale" for either).
TEST(CoreWeights, BadInputGlobalScaleNamesWhichOne) {
  MoeConfig c = small_config();
  c.recipe = Recipe::kNVFP4;
  auto canonical = Layer::make(c);
  MoeLayer l(c);
  auto w = canonical.view(c);
  w.fc1_input_global_scale = 0.0f;
  expect_invalid([&] { l.prepare_weights(w); }, "fc1_input_global_scale", "a positive finite value");
  w = canonical.view(c);
  w.fc2_input_global_scale = std::numeric_limits<float>::quiet_NaN();
  expect_invalid([&] { l.prepare_weights(w); }, "fc2_input_global_scale", "got nan");
  w = canonical.view(c);
  w.fc2_input_global_scale = std::numeric_limits<float>::infinity();
  expect_invalid([&] { l.prepare_weights(w); }, "fc2_input_global_scale", "got inf");
  w = canonical.view(c);
  w.fc1_input_global_scale = -1.0f;
  expect_invalid([&] { l.prepare_weights(w); }, "fc1_input_global_scale", "got -1");
  EXPECT_NO_THROW(l.prepare_weights(canonical.view(c)));
}

TEST(CoreWorkload, RouteCountsBeyond32BitsRaise) {
  // T * K past 2^31 (the CLI's --tokens of a deepseek-v3 layer once wrapped to 0 and wrote past
  // an empty vector).
  expect_invalid([] { workload::make_routes(int64_t(1) << 61, 256, 8, workload::Routing::kUniform, 1); }, "tokens",
                 "2^31");
  expect_invalid([] { workload::make_routes(-1, 8, 2, workload::Routing::kUniform, 1); }, "tokens");
  EXPECT_EQ(workload::make_routes(3, 8, 2, workload::Routing::kUniform, 1).ids.size(), 6u);
}

TEST(CoreRouting, BucketCapacityEndsForAnyCount) {
  EXPECT_EQ(routing::bucket_capacity(0), 1);
  EXPECT_EQ(routing::bucket_capacity(5), 8);
  EXPECT_EQ(routing::bucket_capacity(int64_t(1) << 40), int64_t(1) << 40);
  // No power of two above these fits in int64: the count itself, not an endless loop.
  EXPECT_EQ(routing::bucket_capacity((int64_t(1) << 62) + 1), (int64_t(1) << 62) + 1);
  EXPECT_EQ(routing::bucket_capacity(std::numeric_limits<int64_t>::max()), std::numeric_limits<int64_t>::max());
}

// The plan's own gather of x (PlanPermute) only where the single-block plan runs, the rows' bytes fit
// the budget and the operands suit its 16-byte copies; otherwise empty (the permute kernel runs).
TEST(CoreRouting, PlanPermuteWithinItsBudgetOnly) {
  alignas(16) static uint16_t x[64 * 4096], xp[64 * 4096];
  const int64_t H = 4096;
  const routing::PlanPermute ok = routing::plan_permute_within(x, H, H, xp, 8, 8 * H * 2);
  EXPECT_EQ(ok.x, static_cast<const void*>(x));
  EXPECT_EQ(ok.x_perm, static_cast<void*>(xp));
  EXPECT_EQ(ok.ldx, H);
  EXPECT_EQ(ok.H, H);
  EXPECT_EQ(routing::plan_permute_within(x, H, H, xp, 8, 8 * H * 2 - 1).x, nullptr);  // one byte over
  EXPECT_EQ(routing::plan_permute_within(x, H, H, xp, 8, 0).x, nullptr);              // the default: never
  EXPECT_EQ(routing::plan_permute_within(x, H, H, xp, routing::kSmallPathRoutes + 1, int64_t(1) << 40).x,
            nullptr);  // the multi-kernel plan cannot gather
  EXPECT_EQ(routing::plan_permute_within(x + 1, H, H, xp, 8, int64_t(1) << 40).x, nullptr);  // misaligned x
  EXPECT_EQ(routing::plan_permute_within(x, H + 4, H, xp, 8, int64_t(1) << 40).x, nullptr);  // ldx % 8
  EXPECT_EQ(routing::plan_permute_within(x, 12, 12, xp, 8, int64_t(1) << 40).x, nullptr);   // H % 8
}

TEST(CoreWorkload, RoutesAreDistinctNormalisedAndSkewed) {
  using workload::Routing;
  for (Routing r : {Routing::kUniform, Routing::kZipf, Routing::kOneHotExpert, Routing::kBalanced}) {
    const auto routes = workload::make_routes(500, 64, 6, r, 9);
    std::vector<int> count(64);
    for (int t = 0; t < 500; ++t) {
      float sum = 0;
      for (int k = 0; k < 6; ++k) {
        const int e = routes.ids[size_t(t * 6 + k)];
        ASSERT_GE(e, 0);
        ASSERT_LT(e, 64);
        for (int j = 0; j < k; ++j) ASSERT_NE(e, routes.ids[size_t(t * 6 + j)]);
        sum += routes.weights[size_t(t * 6 + k)];
        ++count[size_t(e)];
      }
      EXPECT_NEAR(sum, 1.0f, 1e-5f);
    }
    const int mx = *std::max_element(count.begin(), count.end());
    if (r == Routing::kOneHotExpert) EXPECT_EQ(count[0], 500);
    if (r == Routing::kZipf) EXPECT_GT(mx, 3 * 500 * 6 / 64);
    if (r == Routing::kUniform) EXPECT_LT(mx, 2 * 500 * 6 / 64);
    if (r == Routing::kBalanced) {  // 3000 routes over 64 experts: 46 or 47 rows each
      const int mn = *std::min_element(count.begin(), count.end());
      EXPECT_EQ(mn, 3000 / 64);
      EXPECT_EQ(mx, 3000 / 64 + 1);
    }
  }
  EXPECT_EQ(workload::make_routes(7, 16, 3, Routing::kZipf, 4).ids, workload::make_routes(7, 16, 3, Routing::kZipf, 4).ids);
  EXPECT_EQ(workload::parse_routing("balanced"), Routing::kBalanced);
  EXPECT_STREQ(workload::routing_name(Routing::kBalanced), "balanced");
  // Balanced with a different seed permutes which expert takes which slot, not the counts.
  EXPECT_NE(workload::make_routes(64, 64, 4, Routing::kBalanced, 1).ids,
            workload::make_routes(64, 64, 4, Routing::kBalanced, 2).ids);
}
