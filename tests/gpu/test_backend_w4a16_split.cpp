// What is specific to the W4A16 split backends (sm90_bf16_mxfp4_bf16_split,
// sm90_bf16_nvfp4_bf16_split): their refusals and "auto" choice (the mega backends, which run
// these stages above decode sizes), and a small-shape end-to-end
// check (partial 128-row tiles) for compute-sanitizer runs. The common case matrix is in
// test_conformance.cpp; the GEMM's tactics have their own file (test_gemm_w4a16.cpp).
// Every test skips (GTEST_SKIP) without an sm_90 GPU. Outputs are poisoned before each run.
// Tests named *Small* use small shapes (suitable for compute-sanitizer).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>
#include <string>

#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

constexpr const char* kMx = "sm90_bf16_mxfp4_bf16_split";
constexpr const char* kNv = "sm90_bf16_nvfp4_bf16_split";
constexpr double kTol = 5e-3;  // the W4A16 entry of test_conformance.cpp's tolerance table

MoeConfig w4_config(Recipe r, int64_t E, int64_t K, int64_t H, int64_t I, int64_t max_tokens,
                    Activation act = Activation::kSwiGLU, bool bias = false) {
  MoeConfig c = split_config(E, K, H, I, max_tokens, act, bias);
  c.recipe = r;
  c.backend = r == Recipe::kW4A16MXFP4 ? kMx : kNv;
  return c;
}
const char* rname(Recipe r) { return r == Recipe::kW4A16MXFP4 ? "mxfp4" : "nvfp4"; }

const Recipe kRecipes[] = {Recipe::kW4A16MXFP4, Recipe::kW4A16NVFP4};

TEST(W4A16, BackendsRegisteredAndExplainRefusals) {
  const auto names = registered_backends();
  for (const char* n : {kMx, kNv, "sm90_bf16_mxfp4_bf16_mega", "sm90_bf16_nvfp4_bf16_mega"}) EXPECT_NE(std::find(names.begin(), names.end(), std::string(n)), names.end()) << n;
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
    // The W4A16 mega backend (the one-launch kernel at decode sizes, these split stages elsewhere).
    EXPECT_EQ(ok.backend_name(), std::string(r == Recipe::kW4A16MXFP4 ? "sm90_bf16_mxfp4_bf16_mega" : "sm90_bf16_nvfp4_bf16_mega"))
        << "auto picks the W4A16 mega backend";
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
    CanonicalLayer tl(c, case_seed(std::string("small ") + rname(r)));
    for (int64_t T : {1, 7, 100}) {
      SCOPED_TRACE("T=" + std::to_string(T));
      const HostInputs in = make_inputs(c, T, RouteKind::kUniform, case_seed("small in") + uint64_t(T), 0.1, 0.1);
      check_against_reference(tl, in, kTol);
    }
  }
}

// FC2 writes bf16 y when the large tactic runs it and there is no b2 (the combine rounds y to
// bf16 first anyway), so the output is bit for bit the fp32-y pipeline's (MEGAMOE_SPLIT_BF16_Y=0),
// eager and in a graph; with biases, or at small T (the small tactic), both run fp32 y. Also
// checked against the CPU reference.
TEST(W4A16, Bf16YEqualsFp32YBitwise) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Recipe r : kRecipes)
  for (bool bias : {false, true}) {
    SCOPED_TRACE(std::string(rname(r)) + (bias ? " biases" : " no biases"));
    MoeConfig c = w4_config(r, 8, 2, 192, 128, 1024, Activation::kSwiGLU, bias);
    std::unique_ptr<CanonicalLayer> fp32_y;
    {
      ScopedEnv env(std::vector<std::pair<const char*, const char*>>{{"MEGAMOE_SPLIT_BF16_Y", "0"}});
      fp32_y = std::make_unique<CanonicalLayer>(c, case_seed(std::string("w4 bf16 y ") + rname(r)));
    }
    CanonicalLayer bf16_y(c, *fp32_y);
    // 8 experts x 2 routes: T = 5 ~1 row an expert (small tactic), T = 1000 ~250 (large).
    for (int64_t T : {5, 1000}) {
      SCOPED_TRACE("T=" + std::to_string(T));
      EXPECT_EQ(bf16_y.layer->tactic_for(T), T == 5 ? "split_small" : "split_large");
      const HostInputs in = make_inputs(c, T, RouteKind::kZipf, case_seed("w4 bf16 y in") + uint64_t(T), 0.1, 0.1);
      DeviceInputs d(in);
      const std::vector<uint16_t> want = run_layer(*fp32_y->layer, d);
      EXPECT_EQ(count_nan(want), 0);
      EXPECT_LE(rel_l2(want, run_reference(c, *fp32_y->ref, in)), kTol);
      EXPECT_TRUE(run_layer(*bf16_y.layer, d) == want) << "eager";
      expect_graph_replays_equal(*bf16_y.layer, d, want);
    }
  }
}

// On a stream the caller created, the small tactic's GEMMs are programmatic dependent launches whose
// first stages' codes and scales go out before they wait for the previous kernel
// (W4A16GemmArgs::pdl, MEGAMOE_W4A16_SMALL_EARLY): no bit changes against the default stream's plain
// launches, eager, replayed from a CUDA graph and two layers back to back (the second one's route
// plan behind the first one's combine). H = 2048 gives FC1 the 8-step stages of 16-token passes
// (32 K steps), I = 256 gives FC2 the 4-step ones; T = 1 and 5 run 16-token passes, T = 40 (10 rows
// an expert) 32-token ones; split_small_k1 keeps K whole (FC1's activation epilogue, both GEMMs
// early), split_small splits it where the grid is small (those launches stay plain).
TEST(W4A16, SmallEarlyWeightsPdlEqualsPlainBitwise) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  Stream stream;  // non-blocking: the layer launches with PDL on it
  const cudaStream_t s = stream.s;
  for (Recipe r : kRecipes) {
    SCOPED_TRACE(rname(r));
    MoeConfig c = w4_config(r, 8, 2, 2048, 256, 64, Activation::kSwiGLU, /*bias=*/true);
    CanonicalLayer a(c, case_seed(std::string("w4 early ") + rname(r)));
    CanonicalLayer b(c, a);
    for (const char* tactic : {"split_small_k1", "split_small"}) {
      a.layer->force_tactic(tactic);
      b.layer->force_tactic(tactic);
      for (int64_t T : {1, 5, 40}) {
        SCOPED_TRACE(std::string(tactic) + " T=" + std::to_string(T));
        const HostInputs in = make_inputs(c, T, RouteKind::kZipf, case_seed("w4 early in") + uint64_t(T), 0.1, 0.1);
        DeviceInputs d(in);
        const std::vector<uint16_t> want = run_layer(*a.layer, d);  // the default stream: plain launches
        EXPECT_EQ(count_nan(want), 0);
        EXPECT_LE(rel_l2(want, run_reference(c, *a.ref, in)), kTol);
        EXPECT_TRUE(run_layer(*a.layer, d, s) == want) << "eager";
        expect_graph_replays_equal(*a.layer, d, want, /*replays=*/2, s);
        expect_back_to_back_equal(*a.layer, *b.layer, d, want, s);
      }
    }
  }
}

// `split_small_deep` runs split_small_k1 with FC2 on the small kernel's deep ring (one CTA per SM,
// four 8-step stages) where FC2's grid fits one CTA per SM: the same K steps in the same order, so
// the layer's output equals split_small_k1's bit for bit, on a PDL stream, eager and replayed from a
// CUDA graph, and matches the CPU reference. I = 2048 gives FC2 32 K steps (the 8-step stages),
// H = 256 two 128-row tiles of at most 8 experts (16 CTAs: the ring applies); T = 1 and 5.
TEST(W4A16, SmallDeepTacticEqualsK1Bitwise) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  Stream stream;  // non-blocking: the layer launches with PDL on it
  const cudaStream_t s = stream.s;
  for (Recipe r : kRecipes) {
    SCOPED_TRACE(rname(r));
    MoeConfig c = w4_config(r, 8, 2, 256, 2048, 64, Activation::kSwiGLU, /*bias=*/true);
    CanonicalLayer a(c, case_seed(std::string("w4 deep ") + rname(r)));
    for (int64_t T : {1, 5}) {
      SCOPED_TRACE("T=" + std::to_string(T));
      const HostInputs in = make_inputs(c, T, RouteKind::kZipf, case_seed("w4 deep in") + uint64_t(T), 0.1, 0.1);
      DeviceInputs d(in);
      a.layer->force_tactic("split_small_k1");
      const std::vector<uint16_t> want = run_layer(*a.layer, d, s);
      EXPECT_EQ(count_nan(want), 0);
      EXPECT_LE(rel_l2(want, run_reference(c, *a.ref, in)), kTol);
      a.layer->force_tactic("split_small_deep");
      EXPECT_EQ(a.layer->tactic_for(T), "split_small_deep");
      EXPECT_TRUE(run_layer(*a.layer, d, s) == want) << "eager";
      expect_graph_replays_equal(*a.layer, d, want, /*replays=*/2, s);
    }
    a.layer->force_tactic("");
  }
}

}  // namespace
}  // namespace megamoe::gputest
