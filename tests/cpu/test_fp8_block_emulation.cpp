// Why the fp8_block GPU backend is further from the CPU reference than the bf16 ones (issue 14,
// item 4; docs/FORMATS.md section 6). tests/cpu/fp8_block_emulation.h emulates the GPU pipeline's
// arithmetic on the CPU; these tests pin what it shows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "core/synthetic.h"
#include "core/workload.h"
#include "fp8_block_emulation.h"
#include "reference/reference.h"
#include "reference_test_util.h"

namespace megamoe {
namespace {

using fp8emu::Accum;
using fp8emu::Options;

MoeConfig fp8_config(int64_t E, int64_t K, int64_t H, int64_t I, Activation act, bool bias) {
  MoeConfig c = reftest::make_config(E, K, H, I, Recipe::kFP8Block, act, bias);
  c.max_tokens = 1024;
  return c;
}

// The GPU suites' make_inputs (tests/gpu/split_test_util.h) for uniform / zipf routing: x uniform
// in [-1, 1) as bf16, workload routes, then a fraction `neg` of the ids replaced by -1.
fp8emu::Problem make_problem(const MoeConfig& c, int64_t T, workload::Routing routing, uint64_t seed, double neg,
                             float x_scale = 1.0f) {
  fp8emu::Problem p;
  p.T = T;
  p.x = workload::make_x(T, c.hidden_size, seed);
  if (x_scale != 1.0f)
    for (int64_t i = 0; i < T * c.hidden_size; ++i)
      p.x[size_t(i)] = formats::float_to_bf16_bits(synthetic::uniform(seed, synthetic::kX, uint64_t(i), x_scale));
  const auto r = workload::make_routes(T, c.num_experts, c.top_k, routing, seed);
  p.ids.assign(r.ids.begin(), r.ids.end());
  p.w = r.weights;
  if (neg > 0) {
    std::mt19937_64 rng(seed ^ 0x5bd1e995);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (auto& v : p.ids)
      if (u(rng) < neg) v = -1;
  }
  return p;
}

struct Layer {
  MoeConfig cfg;
  formats::CanonicalWeights cw;
  std::unique_ptr<reference::WeightProvider> wp;
  Layer(const MoeConfig& c, uint64_t seed)
      : cfg(c), cw(reference::synthetic_canonical_weights(c, seed)), wp(reference::copy_canonical_weights(c, cw.view(c))) {}
  fp8emu::Result run(const fp8emu::Problem& p, const Options& o) const { return fp8emu::run(cfg, cw, *wp, p, o); }
  std::vector<uint16_t> oracle(const fp8emu::Problem& p) const {
    std::vector<uint16_t> out(size_t(p.T * cfg.hidden_size), 0x7FC1);
    reference::moe_forward(cfg, *wp, TensorView::contiguous(p.x.data(), DType::kBF16, {p.T, cfg.hidden_size}),
                           TensorView::contiguous(p.ids.data(), DType::kI64, {p.T, cfg.top_k}),
                           TensorView::contiguous(p.w.data(), DType::kF32, {p.T, cfg.top_k}),
                           TensorView::contiguous(out.data(), DType::kBF16, {p.T, cfg.hidden_size}), 1);
    return out;
  }
};

struct Case {
  const char* name;
  Activation a;
  bool bias;
};
// Every activation, the gated ones with biases (the issue's swiglu_oai + bias among them).
const Case kActivationCases[] = {{"swiglu", Activation::kSwiGLU, false},
                                 {"swiglu_oai + bias", Activation::kSwiGLUOAI, true},
                                 {"geglu + bias", Activation::kGeGLU, true},
                                 {"relu2 + bias", Activation::kReLU2, true}};

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

// Fresh data every run (common/test_seed.h); a failure prints the base seed to replay it.
using testseed::case_seed;
using testseed::seed_of;

// ---- the Hopper FP8 MMA model on hand-made operands ------------------------------------------

uint8_t e4m3(float v) { return formats::float_to_e4m3(v, true); }

TEST(Fp8BlockEmulation, MmaModelAlignsAndTruncates) {
  const float kAll[] = {1.0f, -1.0f, 0.0078125f /* 2^-7, subnormal code 0x04 */, 448.0f, 1.5f};
  for (float v : kAll) ASSERT_EQ(formats::e4m3_to_float(e4m3(v)), v);
  std::vector<uint8_t> a(32, 0), b(32, 0);
  // 32 products of 1: every term is exact -> 32.
  std::fill(a.begin(), a.end(), e4m3(1.0f));
  std::fill(b.begin(), b.end(), e4m3(1.0f));
  EXPECT_EQ(fp8emu::wgmma_e4m3_dot_add(a.data(), b.data(), 32, 0.0f, 13), 32.0f);
  // 1*1 + 31 * 2^-14: each small product is 2^-14 < 2^-13 (one unit at the largest exponent, 0):
  // truncated to 0, so the MMA returns 1 where the exact sum is 1 + 31 * 2^-14.
  std::fill(a.begin() + 1, a.end(), e4m3(0.0078125f));
  std::fill(b.begin() + 1, b.end(), e4m3(0.0078125f));
  EXPECT_EQ(fp8emu::wgmma_e4m3_dot_add(a.data(), b.data(), 32, 0.0f, 13), 1.0f);
  // With 17 fraction bits (a wider adder) the same sum is exact.
  EXPECT_EQ(fp8emu::wgmma_e4m3_dot_add(a.data(), b.data(), 32, 0.0f, 17), 1.0f + 31.0f * std::ldexp(1.0f, -14));
  // 448*448 + 1*1: the exponent of 448^2 is 16 (significand 1.75^2 = 3.0625), so one unit is
  // 2^3 and the 1 is truncated away: 200704, not 200705.
  std::fill(a.begin(), a.end(), 0);
  std::fill(b.begin(), b.end(), 0);
  a[0] = b[0] = e4m3(448.0f);
  a[1] = b[1] = e4m3(1.0f);
  EXPECT_EQ(fp8emu::wgmma_e4m3_dot_add(a.data(), b.data(), 2, 0.0f, 13), 200704.0f);
  // Truncation is toward zero for either sign: -1.5*1.5 + 2^-7*(-2^-7) = -2.25 (the -2^-14 is
  // below one unit at exponent 0 and is dropped, not rounded away from zero).
  a[0] = e4m3(-1.5f);
  b[0] = e4m3(1.5f);
  a[1] = e4m3(0.0078125f);
  b[1] = e4m3(-0.0078125f);
  EXPECT_EQ(fp8emu::wgmma_e4m3_dot_add(a.data(), b.data(), 2, 0.0f, 13), -2.25f);
  // The accumulator C is aligned like a product: 1 + 2^-20 loses its low bits next to 1*1.
  a[0] = b[0] = e4m3(1.0f);
  EXPECT_EQ(fp8emu::wgmma_e4m3_dot_add(a.data(), b.data(), 1, 1.0f + std::ldexp(1.0f, -20), 13), 2.0f);
  // The result keeps 13 fraction bits, truncated: C = 1 + 2^-13 + 2^-14 alone comes back as 1 + 2^-13.
  EXPECT_EQ(fp8emu::wgmma_e4m3_dot_add(a.data(), b.data(), 0, 1.0f + std::ldexp(1.0f, -13) + std::ldexp(1.0f, -14), 13),
            1.0f + std::ldexp(1.0f, -13));
}

// ---- the emulation's reference path is the oracle ---------------------------------------------

TEST(Fp8BlockEmulation, ReferencePathIsTheOracle) {
  MEGAMOE_TRACE_SEED();
  for (const Case& cs : kActivationCases) {
    SCOPED_TRACE(cs.name);
    const MoeConfig c = fp8_config(6, 3, 208, 144, cs.a, cs.bias);  // partial 128-blocks in H and I
    Layer L(c, case_seed(std::string("oracle w ") + cs.name));
    const fp8emu::Problem p =
        make_problem(c, 9, workload::Routing::kZipf, case_seed(std::string("oracle x ") + cs.name), 0.1);
    Options o;
    o.fc1 = o.fc2 = Accum::kReference;
    const auto r = L.run(p, o);
    EXPECT_TRUE(r.out_ref == L.oracle(p)) << "the emulated reference path differs from reference::moe_forward";
    EXPECT_TRUE(r.out_gpu == r.out_ref);
  }
}

// ---- the emulated GPU path reproduces what the H200 measured ---------------------------------

// Every fp8_block rel-L2 the H200 printed that we have the inputs of: Fp8Block.PartialBlocksSmall's
// three failures (docs/BENCHMARKS.md, seeds 17573741010574420705 and 17693001002880445552; T = 1,
// H 320, I 192, E 8, K 2) and `megamoe check --accuracy` (bench/results/2026-11-29_9e3e095_accuracy.md:
// seed 7, H 1024, I 512, E 16, K 4, T 8; T 512 with MEGAMOE_FP8_EMULATION_SWEEP=1, 100 s). The
// emulation must give the printed value to the printed digits, and with exact block sums (no
// reduced-precision MMA) the same inputs must come out (nearly) equal to the reference.
TEST(Fp8BlockEmulation, ReproducesTheH200Measurements) {
  struct Failure {
    uint64_t base;
    const char* name;
    Activation a;
    bool bias;
    double gpu, half_digit;
  };
  const Failure failures[] = {
      {17573741010574420705ull, "relu2 + bias", Activation::kReLU2, true, 0.0108, 0.00005},
      {17693001002880445552ull, "swiglu", Activation::kSwiGLU, false, 0.0262, 0.00005},
      {17693001002880445552ull, "swiglu_oai (limit 7) + bias", Activation::kSwiGLUOAI, true, 0.0112, 0.00005},
  };
  for (const Failure& f : failures) {
    SCOPED_TRACE(f.name);
    const MoeConfig c = fp8_config(8, 2, 320, 192, f.a, f.bias);
    Layer L(c, seed_of(std::string("partial ") + f.name, f.base));
    const fp8emu::Problem p =
        make_problem(c, 1, workload::Routing::kUniform, seed_of(std::string("partial in ") + f.name, f.base) + 1, 0.05);
    const auto gpu = L.run(p, Options{});
    ASSERT_TRUE(gpu.out_ref == L.oracle(p));
    const double err = fp8emu::rel_l2(gpu.out_gpu, gpu.out_ref);
    std::printf("[fp8 emulation] PartialBlocksSmall %s T=1: emulated %.5f, H200 %.4f\n", f.name, err, f.gpu);
    EXPECT_NEAR(err, f.gpu, f.half_digit + 1e-9);
    Options exact;
    exact.fc1 = exact.fc2 = Accum::kExactBlocks;
    EXPECT_TRUE(L.run(p, exact).out_gpu == gpu.out_ref) << "exact block sums give the reference's output";
  }
  const struct {
    Activation a;
    int64_t T;
    double gpu;
  } rows[] = {{Activation::kSwiGLU, 8, 5.07e-3},   {Activation::kSwiGLUOAI, 8, 4.78e-3}, {Activation::kGeGLU, 8, 3.12e-3},
              {Activation::kReLU2, 8, 6.57e-3},    {Activation::kSwiGLU, 512, 5.06e-3},  {Activation::kSwiGLUOAI, 512, 4.01e-3},
              {Activation::kGeGLU, 512, 4.51e-3},  {Activation::kReLU2, 512, 4.26e-3}};
  const uint64_t seed = 7;
  for (const auto& row : rows) {
    if (row.T > 8 && !env_flag("MEGAMOE_FP8_EMULATION_SWEEP")) continue;
    SCOPED_TRACE(std::string(activation_name(row.a)) + " T=" + std::to_string(row.T));
    const MoeConfig c = fp8_config(16, 4, 1024, 512, row.a, row.a == Activation::kSwiGLUOAI);
    Layer L(c, seed);
    fp8emu::Problem p;
    p.T = row.T;
    p.x = workload::make_x(row.T, 1024, seed + uint64_t(row.T));
    const auto r = workload::make_routes(row.T, 16, 4, workload::Routing::kUniform, seed + uint64_t(row.T));
    p.ids.assign(r.ids.begin(), r.ids.end());
    p.w = r.weights;
    const auto res = L.run(p, Options{});
    const double err = fp8emu::rel_l2(res.out_gpu, res.out_ref);
    std::printf("[fp8 emulation] check --accuracy %s T=%lld: emulated %.4e, H200 %.2e\n", activation_name(row.a),
                (long long)row.T, err, row.gpu);
    EXPECT_NEAR(err, row.gpu, 0.005e-3 + 1e-9);
  }
}

// ---- what the gap is made of, on fresh random data --------------------------------------------

// The issue's shape (T 7, E 12, K 4, H = I = 320, zipf routing), fresh weights and inputs per run,
// eight layers (the four activations, two layers each). The size of the error is pooled over them
// (sum of squared differences over sum of squares); what each emulation mode changes is compared
// layer by layer and judged by the median layer: the error is made of discrete events (a bf16 or
// e4m3 code of a, or a 1x128 scale, that flips), so one layer in which a single scale flips can
// carry most of the pooled error of any mode (a CI seed, 2026-12-07: one swiglu_oai layer's error
// with exact block sums was 1.36x its error with the GPU's MMA, and the pooled ratio 0.67 failed the
// old pooled bound of 0.6). Bounds from sweeps of 573 fresh seeds (docs/FORMATS.md section 6) with margin.
TEST(Fp8BlockEmulation, ReducedPrecisionMmaIsTheGap) {
  MEGAMOE_TRACE_SEED();
  enum { kGpu, kExact, kFc1Only, kFc2Only, kLibm, kScaleFrozen, kModes };
  Options modes[kModes];
  modes[kExact].fc1 = modes[kExact].fc2 = Accum::kExactBlocks;
  modes[kFc1Only].fc2 = Accum::kExactBlocks;
  modes[kFc2Only].fc1 = Accum::kExactBlocks;
  modes[kLibm].libm_ulps = 10;  // the GPU sigmoid's worst case for |z| <= 5 (activation_math.cuh)
  modes[kLibm].geglu_fma = true;
  modes[kScaleFrozen].a_scale_from_reference = true;
  double num[kModes] = {}, den[kModes] = {};
  std::vector<std::vector<double>> layer_rel;  // [layer][mode]: the layer's rel-L2 in that mode
  fp8emu::Stats gpu_stats, oai_stats;
  for (const Case& cs : kActivationCases) {
    for (int s = 0; s < 2; ++s) {
      const MoeConfig c = fp8_config(12, 4, 320, 320, cs.a, cs.bias);
      const std::string tag = std::string(cs.name) + " " + std::to_string(s);
      Layer L(c, case_seed("gap w " + tag));
      const fp8emu::Problem p = make_problem(c, 7, workload::Routing::kZipf, case_seed("gap x " + tag), 0.0);
      layer_rel.emplace_back(kModes, 0.0);
      for (int m = 0; m < kModes; ++m) {
        const auto r = L.run(p, modes[m]);
        double ln = 0, ld = 0;
        for (size_t i = 0; i < r.out_gpu.size(); ++i) {
          const double a = formats::bf16_bits_to_float(r.out_gpu[i]), b = formats::bf16_bits_to_float(r.out_ref[i]);
          ln += (a - b) * (a - b);
          ld += b * b;
        }
        num[m] += ln;
        den[m] += ld;
        layer_rel.back()[size_t(m)] = std::sqrt(ln / ld);
        if (m == kGpu) {
          gpu_stats.add(r.stats);
          if (cs.a == Activation::kSwiGLUOAI) oai_stats.add(r.stats);
        }
      }
    }
  }
  double rel[kModes];
  for (int m = 0; m < kModes; ++m) rel[m] = std::sqrt(num[m] / den[m]);
  const auto& g = gpu_stats;
  const double bf16_flips = double(g.a_bf16_diff) / double(g.a_elems), code_flips = double(g.a_code_diff) / double(g.a_elems);
  std::printf("[fp8 emulation] pooled rel-L2: GPU %.3g, exact blocks %.3g, FC1 MMA only %.3g, FC2 MMA only %.3g, "
              "libm +-10 ulp %.3g, a scales frozen %.3g; h %.3g; a: bf16 %.2f%%, codes %.3f%%, scales %.2f%%\n",
              rel[kGpu], rel[kExact], rel[kFc1Only], rel[kFc2Only], rel[kLibm], rel[kScaleFrozen], g.h_rel(),
              100 * bf16_flips, 100 * code_flips, 100.0 * double(g.a_scale_diff) / double(g.a_blocks));
  // FC1's reduced-precision MMA moves h by ~1e-4 (relative) ...
  EXPECT_GT(g.h_rel(), 5e-5);
  EXPECT_LT(g.h_rel(), 2e-4);
  // ... which changes bf16 a in ~4-8% of the elements and an e4m3 code of a in ~0.3-0.9% ...
  EXPECT_GT(bf16_flips, 0.02);
  EXPECT_LT(bf16_flips, 0.15);
  EXPECT_GT(code_flips, 0.001);
  EXPECT_LT(code_flips, 0.02);
  // ... and that is the output's distance to the reference (pooled over 253 seeds, 2026-12-07:
  // 2.1e-3 .. 6.3e-3, median 3.3e-3).
  EXPECT_GT(rel[kGpu], 1.5e-3);
  EXPECT_LT(rel[kGpu], 8e-3);
  // What each mode changes, in the median layer: median_layer(m, base) is the median over the eight
  // layers of a layer's error in mode m over its error in mode base (0 where both are 0); with
  // absolute_difference, of |error in m - error in base| over the error in base.
  auto median_layer = [&](int m, int base, bool absolute_difference = false) {
    std::vector<double> v;
    for (const auto& l : layer_rel) {
      const double a = absolute_difference ? std::fabs(l[size_t(m)] - l[size_t(base)]) : l[size_t(m)];
      const double b = l[size_t(base)];
      v.push_back(b > 0 ? a / b : (a > 0 ? HUGE_VAL : 0.0));
    }
    std::sort(v.begin(), v.end());
    return 0.5 * (v[(v.size() - 1) / 2] + v[v.size() / 2]);
  };
  const double exact_gpu = median_layer(kExact, kGpu), fc1_gpu = median_layer(kFc1Only, kGpu),
               fc2_fc1 = median_layer(kFc2Only, kFc1Only), libm_gpu = median_layer(kLibm, kGpu, true),
               frozen_gpu = median_layer(kScaleFrozen, kGpu);
  std::printf("[fp8 emulation] median layer: exact blocks / GPU %.3g, FC1 MMA only / GPU %.3g, FC2 MMA only / "
              "FC1 MMA only %.3g, |libm - GPU| / GPU %.3g, a scales frozen / GPU %.3g\n",
              exact_gpu, fc1_gpu, fc2_fc1, libm_gpu, frozen_gpu);
  // The median layer over 573 fresh seeds (two sweeps, 2026-12-07) in brackets (min .. max). Without
  // the MMA's truncation (exact block sums, the same kernel structure otherwise) the error all but
  // vanishes (0 .. 0.012; the CI seed above 0.028); FC1's MMA alone carries it (0.956 .. 1.001);
  // FC2's own MMA error is smaller than FC1's (0.154 .. 0.467: y is rounded to bf16, not re-quantized
  // to e4m3).
  EXPECT_LT(exact_gpu, 0.1);
  EXPECT_GT(fc1_gpu, 0.8);
  EXPECT_LT(fc2_fc1, 0.6);
  // The activation's approximations (the GPU's e^-|z| and reciprocal within ~10 ulp where |z| <= 5,
  // tanhf within 2, nvcc's FMA contraction in geglu) do not matter at this size: a bf16 rounding
  // absorbs a few fp32 ulps (the median layer's error does not move: 0 in all 573 seeds; pooled, one
  // seed in 253 moved by 11.5%, when a single code flipped).
  EXPECT_LT(libm_gpu, 0.05);
  // Changed 1x128 scales of a (the block amax moved by a bf16 ulp) are a part, not the whole
  // (0.563 .. 1.000; freezing the scales can leave a layer slightly worse, so the upper bound has room).
  EXPECT_LT(frozen_gpu, 1.15);
  EXPECT_GT(frozen_gpu, 0.15);
  EXPECT_EQ(oai_stats.clamped, 0);  // |h| << 7 at these magnitudes: the limit never acts
}

// swiglu_oai is not more sensitive than swiglu: its up factor (u + 1) stays near 1 at these
// magnitudes (|h| << 7: the clamp never acts), so a relative error of h moves a less and fewer
// codes of a flip than with swiglu's u near 0. Compared on the same layers (weights, x, routes, no
// biases), so both activations see the same h and the same MMA errors in it: only the activation
// differs. (Comparing the pooled counts of two independent pairs of layers, as this check did
// inside ReducedPrecisionMmaIsTheGap until 2026-12-07, failed on a CI seed: 148 vs 132 flips over
// two layers each; the counts vary more between layers than between the activations.) Over 300 seeds
// with 4 layers the ratio oai / swiglu was 0.38 .. 0.93, median 0.61; over 500 seeds with the 8
// layers here 0.41 .. 0.78, median 0.60, standard deviation 0.058 (2026-12-07).
TEST(Fp8BlockEmulation, SwigluOaiFlipsFewerCodesThanSwigluOnTheSameLayers) {
  MEGAMOE_TRACE_SEED();
  fp8emu::Stats swiglu, oai;
  for (int s = 0; s < 8; ++s) {
    const std::string tag = std::to_string(s);
    const uint64_t w_seed = case_seed("pair w " + tag), x_seed = case_seed("pair x " + tag);
    const MoeConfig cs = fp8_config(12, 4, 320, 320, Activation::kSwiGLU, false);
    const MoeConfig co = fp8_config(12, 4, 320, 320, Activation::kSwiGLUOAI, false);
    const fp8emu::Problem p = make_problem(cs, 7, workload::Routing::kZipf, x_seed, 0.0);
    const auto rs = Layer(cs, w_seed).run(p, Options{});
    const auto ro = Layer(co, w_seed).run(p, Options{});
    // The same h on both sides: same weights, same inputs, the same FC1 arithmetic.
    ASSERT_EQ(rs.stats.h_err2, ro.stats.h_err2);
    ASSERT_EQ(rs.stats.h_ref2, ro.stats.h_ref2);
    swiglu.add(rs.stats);
    oai.add(ro.stats);
  }
  std::printf("[fp8 emulation] same layers, codes of a that flip: swiglu %lld, swiglu_oai %lld of %lld\n",
              (long long)swiglu.a_code_diff, (long long)oai.a_code_diff, (long long)swiglu.a_elems);
  ASSERT_EQ(swiglu.a_elems, oai.a_elems);
  EXPECT_GT(swiglu.a_code_diff, 0);
  EXPECT_EQ(oai.clamped, 0);
  EXPECT_LT(oai.a_code_diff, swiglu.a_code_diff);
}

// At T = 1 (one token, K = 2 routes) the distance is a handful of e4m3 code flips, so it has a long
// tail: the GPU emulation exceeds Fp8Block.PartialBlocksSmall's 1e-2 in ~3.8% of fresh swiglu layers
// (20000-seed sweep, docs/FORMATS.md section 6) although every step follows the contract.
TEST(Fp8BlockEmulation, OneTokenTailExceedsOnePercent) {
  MEGAMOE_TRACE_SEED();
  const MoeConfig c = fp8_config(8, 2, 320, 192, Activation::kSwiGLU, false);
  int above = 0, n = 0;
  double worst = 0;
  for (int l = 0; l < 30; ++l) {  // 30 layers x 10 tokens
    Layer L(c, case_seed("tail w " + std::to_string(l)));
    for (int j = 0; j < 10; ++j, ++n) {
      const std::string tag = std::to_string(l) + " " + std::to_string(j);
      const fp8emu::Problem p = make_problem(c, 1, workload::Routing::kUniform, case_seed("tail x " + tag), 0.05);
      const auto r = L.run(p, Options{});
      const double e = fp8emu::rel_l2(r.out_gpu, r.out_ref);
      above += e > 1e-2;
      worst = std::max(worst, e);
    }
  }
  std::printf("[fp8 emulation] T=1 swiglu H 320 I 192: %d of %d layers above 1e-2, worst %.3g\n", above, n, worst);
  EXPECT_GE(above, 2);     // expected ~11 (Poisson: P(<= 1) ~ 2e-4)
  EXPECT_LE(above, 40);    // not a wiring error: most layers agree to a few 1e-3
  EXPECT_LT(worst, 6e-2);
}

// ---- the sweep (opt-in: MEGAMOE_FP8_EMULATION_SWEEP=1; minutes on one core) -------------------

struct Dist {
  std::vector<double> v;
  fp8emu::Stats st;
  double q(double f) const {
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    return s.empty() ? 0 : s[std::min(s.size() - 1, size_t(f * double(s.size() - 1) + 0.5))];
  }
  double mean() const {
    double m = 0;
    for (double x : v) m += x;
    return v.empty() ? 0 : m / double(v.size());
  }
  double frac_above(double t) const {
    size_t n = 0;
    for (double x : v) n += x > t;
    return v.empty() ? 0 : double(n) / double(v.size());
  }
};

Dist sweep(const MoeConfig& c0, const Case& cs, int64_t T, workload::Routing routing, double neg, int seeds,
           const Options& o, uint64_t salt, float x_scale = 1.0f) {
  MoeConfig c = c0;
  c.activation = cs.a;
  c.has_bias = cs.bias;
  Dist d;
  for (int s = 0; s < seeds; ++s) {
    const uint64_t base = synthetic::mix64(salt * 1000003u + uint64_t(s));
    Layer L(c, synthetic::mix64(base ^ 1));
    const fp8emu::Problem p = make_problem(c, T, routing, synthetic::mix64(base ^ 2), neg, x_scale);
    const auto r = L.run(p, o);
    d.v.push_back(fp8emu::rel_l2(r.out_gpu, r.out_ref));
    d.st.add(r.stats);
  }
  return d;
}

void print_row(const char* label, const Dist& d) {
  const auto& s = d.st;
  std::printf("| %-34s | %.2e | %.2e | %.2e | %.2e | %.2e | %5.1f%% | %.2e | %.3f%% | %.3f%% | %.2f%% | %.2e | %.2f%% |\n", label,
              d.q(0.5), d.mean(), d.q(0.9), d.q(0.99), d.q(1.0), 100.0 * d.frac_above(1e-2), s.h_rel(),
              100.0 * double(s.a_bf16_diff) / double(std::max<int64_t>(s.a_elems, 1)),
              100.0 * double(s.a_code_diff) / double(std::max<int64_t>(s.a_elems, 1)),
              100.0 * double(s.a_scale_diff) / double(std::max<int64_t>(s.a_blocks, 1)), s.aq_rel(),
              100.0 * double(s.clamped) / double(std::max<int64_t>(s.a_elems, 1)));
  std::fflush(stdout);
}
void print_header(const char* title) {
  std::printf("\n%s\n| case | median | mean | p90 | p99 | max | > 1e-2 | h rel | a bf16 diff | a code diff | a scale diff | aq rel | clamped |\n"
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
              title);
}

bool section(int k) {
  const char* v = std::getenv("MEGAMOE_FP8_EMULATION_SECTIONS");
  return !v || std::string(v).find(char('0' + k)) != std::string::npos;
}

// Fp8Block.PartialBlocksSmall's shapes (E 8, K 2): the activations with partial 128-blocks.
struct PartialBlocksCase {
  const char* name;
  Activation a;
  bool bias;
  int64_t H, I;
};
constexpr PartialBlocksCase kPartialBlocksCases[] = {{"swiglu", Activation::kSwiGLU, false, 320, 192},
                                                     {"swiglu_oai + bias", Activation::kSwiGLUOAI, true, 320, 192},
                                                     {"geglu + bias", Activation::kGeGLU, true, 320, 192},
                                                     {"relu2 + bias", Activation::kReLU2, true, 320, 192},
                                                     {"swiglu_oai + bias H 208 I 144", Activation::kSwiGLUOAI, true, 208, 144}};

TEST(Fp8BlockEmulation, Sweep) {
  if (!env_flag("MEGAMOE_FP8_EMULATION_SWEEP")) GTEST_SKIP() << "opt-in: MEGAMOE_FP8_EMULATION_SWEEP=1";
  const int n = std::getenv("MEGAMOE_FP8_EMULATION_SEEDS") ? std::atoi(std::getenv("MEGAMOE_FP8_EMULATION_SEEDS")) : 200;
  const Case acts[] = {
      {"swiglu", Activation::kSwiGLU, false},          {"swiglu + bias", Activation::kSwiGLU, true},
      {"swiglu_oai + bias", Activation::kSwiGLUOAI, true}, {"swiglu_oai", Activation::kSwiGLUOAI, false},
      {"geglu + bias", Activation::kGeGLU, true},      {"relu2 + bias", Activation::kReLU2, true},
  };
  struct Mode {
    const char* name;
    Options o;
  };
  const MoeConfig issue = fp8_config(12, 4, 320, 320, Activation::kSwiGLU, false);
  // 1. The issue's shape: T 7, E 12, K 4, H = I = 320, zipf routing; each switch on/off.
  if (section(1)) {
    std::vector<Mode> modes;
    Options o;
    o.fc1 = o.fc2 = Accum::kExactBlocks;
    modes.push_back({"exact block sums (FC1, FC2)", o});
    o = Options{};
    o.fc2 = Accum::kExactBlocks;
    modes.push_back({"wgmma FC1 only", o});
    o = Options{};
    o.fc1 = Accum::kExactBlocks;
    modes.push_back({"wgmma FC2 only", o});
    o = Options{};
    modes.push_back({"wgmma FC1+FC2 (the GPU)", o});
    o = Options{};
    o.a_scale_from_reference = true;
    modes.push_back({"GPU, a's scales from the reference", o});
    o = Options{};
    o.libm_ulps = 2;
    o.geglu_fma = true;
    modes.push_back({"GPU + libm +-2 ulp, geglu fma", o});
    o = Options{};
    o.fc1 = o.fc2 = Accum::kExactBlocks;
    o.libm_ulps = 2;
    o.geglu_fma = true;
    modes.push_back({"exact blocks + libm +-2 ulp", o});
    for (const Case& cs : acts) {
      char title[160];
      std::snprintf(title, sizeof title, "T 7, E 12, K 4, H = I = 320, zipf, %s, %d seeds", cs.name, n);
      print_header(title);
      for (const Mode& m : modes) print_row(m.name, sweep(issue, cs, 7, workload::Routing::kZipf, 0.0, n, m.o, 1));
    }
  }
  // 2. Fp8Block.PartialBlocksSmall's cases (E 8, K 2, 5% of ids -1, uniform), the GPU emulation.
  if (section(2)) {
    const auto& cases = kPartialBlocksCases;
    for (int64_t T : {int64_t(1), int64_t(37), int64_t(300)}) {
      const int m = T == 1 ? 5 * n : (T == 37 ? n : std::max(1, n / 5));
      char title[160];
      std::snprintf(title, sizeof title, "Fp8Block.PartialBlocksSmall shapes, T %lld, %d seeds, GPU emulation",
                    (long long)T, m);
      print_header(title);
      for (const auto& cs : cases) {
        const MoeConfig c = fp8_config(8, 2, cs.H, cs.I, cs.a, cs.bias);
        print_row(cs.name, sweep(c, Case{cs.name, cs.a, cs.bias}, T, workload::Routing::kUniform, 0.05, m, Options{},
                                 uint64_t(100 + T)));
      }
    }
  }
  // 3. Larger activations (x uniform in [-8, 8): |h| reaches the swiglu_oai clamp, L = 7).
  if (section(3)) {
    for (const Case& cs : acts) {
      char title[160];
      std::snprintf(title, sizeof title, "T 7, E 12, K 4, H = I = 320, zipf, x in [-8, 8), %s, %d seeds", cs.name, n);
      print_header(title);
      print_row("wgmma FC1+FC2 (the GPU)", sweep(issue, cs, 7, workload::Routing::kZipf, 0.0, n, Options{}, 1, 8.0f));
    }
  }
  // 5. The tail at T = 1 and 37 (Fp8Block.PartialBlocksSmall's shapes): how often a tolerance fails.
  if (section(5)) {
    const auto& cases = kPartialBlocksCases;
    for (int64_t T : {int64_t(1), int64_t(37)}) {
      const int m = T == 1 ? n : std::max(1, n / 10);
      std::printf("\nTail, PartialBlocksSmall shapes, T %lld, %d seeds: p99 | p99.9 | max | P(>1e-2) | P(>1.5e-2) | "
                  "P(>2e-2) | P(>3e-2) | P(>4e-2)\n",
                  (long long)T, m);
      for (const auto& cs : cases) {
        const MoeConfig c = fp8_config(8, 2, cs.H, cs.I, cs.a, cs.bias);
        const Dist d = sweep(c, Case{cs.name, cs.a, cs.bias}, T, workload::Routing::kUniform, 0.05, m, Options{},
                             uint64_t(500 + T));
        std::printf("| %-30s | %.2e | %.2e | %.2e | %.4f | %.4f | %.4f | %.4f | %.4f |\n", cs.name, d.q(0.99), d.q(0.999),
                    d.q(1.0), d.frac_above(1e-2), d.frac_above(1.5e-2), d.frac_above(2e-2), d.frac_above(3e-2),
                    d.frac_above(4e-2));
        std::fflush(stdout);
      }
    }
  }
  // 6. How the output error scales with the MMA's precision (fraction bits): sqrt(delta h)?
  if (section(6)) {
    const Case cs{"swiglu", Activation::kSwiGLU, false};
    std::printf("\nMMA fraction bits, T 7, E 12, K 4, H = I = 320, zipf, swiglu, %d seeds\n", n);
    print_header("");
    for (int bits : {9, 11, 13, 15, 17, 19}) {
      Options o;
      o.frac_bits = bits;
      char label[64];
      std::snprintf(label, sizeof label, "%d fraction bits", bits);
      print_row(label, sweep(issue, cs, 7, workload::Routing::kZipf, 0.0, n, o, 1));
    }
  }
  // 4. Kernel variants that would move the GPU closer to the contract.
  if (section(4)) {
    std::vector<Mode> modes;
    Options o;
    modes.push_back({"the GPU today", o});
    o.promote_every_mma = true;
    modes.push_back({"promote every k32 MMA", o});
    o = Options{};
    o.fc1 = Accum::kExactBlocks;
    modes.push_back({"FC1 exact (bf16 MMA on e4m3 values)", o});
    o.fc2 = Accum::kExactBlocks;
    modes.push_back({"FC1 + FC2 exact", o});
    for (const Case& cs : acts) {
      char title[160];
      std::snprintf(title, sizeof title, "kernel variants, T 7, E 12, K 4, H = I = 320, zipf, %s, %d seeds", cs.name, n);
      print_header(title);
      for (const Mode& m : modes) print_row(m.name, sweep(issue, cs, 7, workload::Routing::kZipf, 0.0, n, m.o, 1));
    }
  }
}

}  // namespace
}  // namespace megamoe
