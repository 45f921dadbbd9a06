// What is specific to the Mega backends, mostly sm90_bf16_bf16_bf16_mega (the common case matrix is in
// test_conformance.cpp, which runs every registered backend): the dependency counters of the
// one-launch kernel under stress (many tiny experts, skewed routing, split-K tiles, 1000 graph
// replays and 1000 eager forwards that must all finish and equal the first output bit for bit,
// with no timeout reported), all tokens on one expert (512 rows: 32 units of 16 rows), no routed
// row at all (the zero-token livelock case), and T on both sides of the Mega path's route cap
// (T = 64, T*K = 512 runs the Mega kernel; T = 65 the split pipeline). Every test skips without an sm_90
// GPU. A dependency timeout inside the kernel adds sm90::mega::kTimeoutMark (2^40) to the
// invalid-id word, so the invalid_id_count() checks below also catch a lost dependency.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

constexpr const char* kMegaBackend = "sm90_bf16_bf16_bf16_mega";

// The backend runs its one-launch kernel only up to MEGAMOE_MEGA_MAX_TOKENS (default 2, the
// measured crossover); this binary's mega layers (here and in test_conformance.cpp) open it to
// the kernel's own limit of 64 tokens so that every shape below exercises the kernel. Set at
// static initialisation, before any layer exists; an explicit value in the environment wins.
const int kMegaTokensForTests = setenv("MEGAMOE_MEGA_MAX_TOKENS", "64", /*overwrite=*/0);
// Nor may a tactic cache of the machine (or the shipped defaults) pick tactics for this binary's
// layers: each backend's heuristic runs unless a test forces a tactic (test_tactics_gpu.cpp).
const int kNoTacticCacheForTests = setenv("MEGAMOE_TACTIC_CACHE", "off", /*overwrite=*/0);
constexpr double kTol = 5e-3;  // the bf16 tolerance of test_conformance.cpp

MoeConfig mega_config(int64_t E, int64_t K, int64_t H, int64_t I, int64_t max_tokens,
                      Activation act = Activation::kSwiGLU, bool bias = false) {
  MoeConfig c = split_config(E, K, H, I, max_tokens, act, bias);
  c.backend = kMegaBackend;
  return c;
}

void check_vs_reference(TestLayer& tl, const HostInputs& in, cudaStream_t s, const std::string& what) {
  DeviceInputs d(in);
  const std::vector<uint16_t> out = run_layer(*tl.layer, d, s);
  EXPECT_EQ(count_nan(out), 0) << what << ": NaN (or unwritten 0xFFFF) elements in out";
  EXPECT_LE(rel_l2(out, run_reference(tl.cfg, *tl.ref, in)), kTol) << what << ": rel-L2 vs reference";
  EXPECT_EQ(tl.layer->invalid_id_count(s), in.invalid) << what << ": invalid ids (>= 2^40: a dependency timed out)";
}

// Replays per case in DependencyCounterStress: MEGAMOE_TEST_STRESS_REPS (1..1000000), default 1000.
static int stress_reps() {
  const char* v = std::getenv("MEGAMOE_TEST_STRESS_REPS");
  if (v == nullptr || *v == '\0') return 1000;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 1 || n > 1000000) {
    ADD_FAILURE() << "MEGAMOE_TEST_STRESS_REPS: expected an integer in 1..1000000, got '" << v << "'";
    return 1000;
  }
  return static_cast<int>(n);
}

// Many tiny experts (H = I = 64: one FC1 and one FC2 tile per unit, no split), Zipf routing at
// T*K = 512 (the cap) and T = 5 with -1 and invalid ids; then a shape whose phases are split-K
// (arrival counters and last-arriver reductions). 1000 graph replays and 1000 eager forwards each
// (MEGAMOE_TEST_STRESS_REPS changes the count),
// for the kernel of each weight format: bf16, fp8_block (its x-quantization items and the
// per-(unit, 128-column block) arrival counters of `a`'s quantization) and W4A16 (mxfp4).
TEST(MegaKernel, DependencyCounterStress) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  struct Shape {
    int64_t E, K, H, I, T;
    double neg, bad;
    const char* name;
  };
  const Shape shapes[] = {
      {128, 8, 64, 64, 64, 0.0, 0.0, "E128 H=I=64 T64 zipf"},
      {128, 8, 64, 64, 5, 0.2, 0.1, "E128 H=I=64 T5 zipf, -1 and invalid ids"},
      {64, 4, 512, 512, 4, 0.0, 0.0, "E64 H512 I512 T4 (split-K in both GEMMs)"},
  };
  struct Format {
    const char* backend;
    Recipe recipe;
    double tol;  // fp8_block: the small-T bound of test_backend_fp8_split.cpp (T = 4, 5 here)
  };
  const Format formats[] = {{kMegaBackend, Recipe::kBF16, kTol},
                            {"sm90_fp8_fp8_bf16_mega", Recipe::kFP8Block, 5e-2},
                            {"sm90_bf16_mxfp4_bf16_mega", Recipe::kW4A16MXFP4, kTol}};
  for (const Format& f : formats)
  for (const Shape& sh : shapes) {
    SCOPED_TRACE(std::string(f.backend) + " " + sh.name);
    MoeConfig c = mega_config(sh.E, sh.K, sh.H, sh.I, 64);
    c.backend = f.backend;
    c.recipe = f.recipe;
    CanonicalLayer tl(c, case_seed(std::string("stress w ") + sh.name));
    EXPECT_EQ(tl.layer->tactic_for(sh.T), "mega") << "the kernel runs";
    const HostInputs in =
        make_inputs(c, sh.T, RouteKind::kZipf, case_seed(std::string("stress in ") + sh.name), sh.neg, sh.bad);
    DeviceInputs d(in);
    Stream s;
    const std::vector<uint16_t> first = run_layer(*tl.layer, d, s.s);
    EXPECT_EQ(count_nan(first), 0);
    EXPECT_LE(rel_l2(first, run_reference(c, *tl.ref, in)), f.tol) << "rel-L2 vs reference";
    EXPECT_EQ(tl.layer->invalid_id_count(s.s), in.invalid);
    // 1000 replays by default. compute-sanitizer racecheck keeps host state per queued launch (the
    // 1000-replay run reached 130 GB of host memory and was OOM-killed on the H200 machine), so a
    // sanitizer run sets MEGAMOE_TEST_STRESS_REPS lower.
    const int kReps = stress_reps();
    {
      CapturedForward g(*tl.layer, d, s.s);
      d.poison(s.s);
      for (int i = 0; i < kReps; ++i) CUDA_CHECK(cudaGraphLaunch(g.exec, s.s));
      CUDA_CHECK(cudaStreamSynchronize(s.s));
      EXPECT_TRUE(d.result() == first) << "after " << kReps << " graph replays";
      EXPECT_EQ(tl.layer->invalid_id_count(s.s), kReps * in.invalid) << ">= 2^40: a dependency timed out";
    }
    int mismatches = 0;
    for (int i = 0; i < kReps; ++i) {
      d.poison(s.s);
      tl.layer->forward(d.xv(), d.idv(), d.wv(), d.outv(), s.s);
      if (i % 100 == 99 || i == kReps - 1) {
        CUDA_CHECK(cudaStreamSynchronize(s.s));
        mismatches += d.result() == first ? 0 : 1;
      }
    }
    CUDA_CHECK(cudaStreamSynchronize(s.s));
    EXPECT_EQ(mismatches, 0) << "eager forwards differ from the first";
    EXPECT_EQ(tl.layer->invalid_id_count(s.s), kReps * in.invalid) << ">= 2^40: a dependency timed out";
  }
}

// A dependency that never arrives (fault injection, MEGAMOE_MEGA_FAULT_LOST_UNIT=0: the launch's unit 0
// starts its FC1 counter at -1, so its FC2 tiles wait for a completion that never comes) with a
// 20 ms bound (MEGAMOE_MEGA_WAIT_TIMEOUT_MS): every forward finishes (no hung GPU), and
// invalid_id_count() throws megamoe::Error saying the outputs are not valid, then reads 0 (reset).
// The waiting CTAs leave through the abort path (Plan::abort), which racecheck should see clean.
TEST(MegaKernel, LostDependencyIsReportedNotHung) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const MoeConfig c = mega_config(8, 2, 256, 256, 64);
  const HostInputs in = make_inputs(c, 8, RouteKind::kUniform, case_seed("lost dep in"));
  ScopedEnv env({{"MEGAMOE_MEGA_FAULT_LOST_UNIT", "0"}, {"MEGAMOE_MEGA_WAIT_TIMEOUT_MS", "20"}});
  TestLayer tl(c, case_seed("lost dep w"));
  Stream s;
  DeviceInputs d(in);
  const auto t0 = std::chrono::steady_clock::now();
  for (int rep = 0; rep < 3; ++rep) run_layer(*tl.layer, d, s.s);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(secs, 30.0) << "three forwards whose waits are bounded by 20 ms each";
  try {
    tl.layer->invalid_id_count(s.s);
    ADD_FAILURE() << "invalid_id_count() did not report the lost dependency";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("gave up waiting"), std::string::npos) << e.what();
  }
  EXPECT_EQ(tl.layer->invalid_id_count(s.s), 0) << "the word is reset by the read that threw";
}

// Every route of every token on one expert: T*K = 512 rows of one expert (32 units of 16 rows),
// duplicate ids inside a token included; also T = 7 (56 rows: one unit).
TEST(MegaBf16, AllTokensOnOneExpert) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const MoeConfig c = mega_config(16, 8, 256, 512, 64, Activation::kSwiGLU, true);
  TestLayer tl(c, case_seed("one expert w"));
  Stream s;
  for (int64_t T : {64, 7}) {
    const HostInputs in = make_inputs(c, T, RouteKind::kOneExpert, case_seed("one expert in " + std::to_string(T)));
    check_vs_reference(tl, in, s.s, "T=" + std::to_string(T));
  }
}

// No routed row (all ids -1, or all invalid): the combine tiles wait for zero FC2 tiles and write
// +0; repeated so a livelock would show as a hang (bounded by the kernel's timeout).
TEST(MegaBf16, NoRoutedRows) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const MoeConfig c = mega_config(32, 4, 256, 256, 64);
  TestLayer tl(c, case_seed("no rows w"));
  Stream s;
  for (bool invalid : {false, true}) {
    SCOPED_TRACE(invalid ? "all ids invalid" : "all ids -1");
    HostInputs in = make_inputs(c, 16, RouteKind::kUniform, case_seed("no rows in"));
    for (auto& v : in.ids) v = invalid ? c.num_experts + 3 : -1;
    in.invalid = invalid ? int64_t(in.ids.size()) : 0;
    DeviceInputs d(in);
    for (int rep = 0; rep < 100; ++rep) {
      const std::vector<uint16_t> out = run_layer(*tl.layer, d, s.s);
      ASSERT_TRUE(std::all_of(out.begin(), out.end(), [](uint16_t b) { return b == 0; })) << "rep " << rep;
    }
    EXPECT_EQ(tl.layer->invalid_id_count(s.s), 100 * in.invalid);
  }
}

// T*K = 512 (Mega kernel) and 520 (split pipeline) on the same layer, each vs the reference, with
// biases, -1 and invalid ids; T = 1 and 63 too.
TEST(MegaBf16, RouteCapBoundary) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const MoeConfig c = mega_config(64, 8, 512, 256, 128, Activation::kSwiGLUOAI, true);
  TestLayer tl(c, case_seed("cap w"));
  Stream s;
  for (int64_t T : {64, 65, 1, 63}) {
    const HostInputs in = make_inputs(c, T, RouteKind::kZipf, case_seed("cap in " + std::to_string(T)), 0.05, 0.02);
    check_vs_reference(tl, in, s.s, "T=" + std::to_string(T));
  }
}

// CUDA-graph replay of the Mega path equals eager, counts the invalid ids per replay, and follows
// new inputs written into the captured buffers (the conformance suite's graph cases run at
// T > 64, i.e. on the split pipeline).
TEST(MegaBf16, GraphReplayFollowsNewInputs) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const MoeConfig c = mega_config(32, 4, 256, 512, 128, Activation::kGeGLU, true);
  TestLayer tl(c, case_seed("graph w"));
  const HostInputs in = make_inputs(c, 64, RouteKind::kZipf, case_seed("graph in"), 0.05, 0.05);
  ASSERT_GT(in.invalid, 0);
  DeviceInputs d(in);
  Stream s;
  const std::vector<uint16_t> eager = run_layer(*tl.layer, d, s.s);
  EXPECT_EQ(tl.layer->invalid_id_count(s.s), in.invalid);
  EXPECT_LE(rel_l2(eager, run_reference(c, *tl.ref, in)), kTol);
  CapturedForward g(*tl.layer, d, s.s);
  for (int rep = 0; rep < 3; ++rep) {
    d.poison(s.s);
    CUDA_CHECK(cudaGraphLaunch(g.exec, s.s));
    CUDA_CHECK(cudaStreamSynchronize(s.s));
    EXPECT_TRUE(d.result() == eager) << "replay " << rep;
  }
  EXPECT_EQ(tl.layer->invalid_id_count(s.s), 3 * in.invalid);
  const HostInputs in2 = make_inputs(c, 64, RouteKind::kUniform, case_seed("graph in2"));
  d.upload(in2);
  d.poison(s.s);
  CUDA_CHECK(cudaGraphLaunch(g.exec, s.s));
  CUDA_CHECK(cudaStreamSynchronize(s.s));
  const std::vector<uint16_t> replay2 = d.result();
  EXPECT_TRUE(run_layer(*tl.layer, d, s.s) == replay2) << "replay with new inputs equals eager";
  EXPECT_LE(rel_l2(replay2, run_reference(c, *tl.ref, in2)), kTol);
  EXPECT_EQ(tl.layer->invalid_id_count(s.s), 0);
}

// The route plan keeps a token's routes in k order inside an expert's rows: two tokens whose
// K routes all go to experts 0 and 1 alternately, with int64 ids.
TEST(MegaBf16, Int64IdsAndRepeatedExperts) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const MoeConfig c = mega_config(8, 6, 128, 192, 32, Activation::kGeGLU, false);
  TestLayer tl(c, case_seed("rep w"));
  HostInputs in = make_inputs(c, 9, RouteKind::kUniform, case_seed("rep in"), 0.0, 0.0, true);
  for (int64_t t = 0; t < in.T; ++t)
    for (int64_t k = 0; k < in.K; ++k) in.ids[size_t(t * in.K + k)] = (t + k) % 2;
  Stream s;
  check_vs_reference(tl, in, s.s, "alternating experts 0/1");
}

}  // namespace
}  // namespace megamoe::gputest
