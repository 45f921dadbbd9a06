// The W4A16 grouped GEMM (kernels/sm90/gemm/grouped_gemm_w4a16.h), each tactic forced, against a
// float64 dequantize-and-multiply on the CPU, both scale formats (mxfp4, nvfp4 with alpha), and
// the tactic heuristic. Every test skips (GTEST_SKIP) without an sm_90 GPU. Fresh random inputs
// per process (MEGAMOE_TEST_SEED=<n> pins them); outputs are poisoned before each run.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "formats/codecs.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/errors.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

// e2m1 * scale of element (g, n, k) of canonical packed codes w [G, N, K/2] and block-scale codes
// sc [G, N, K/block] (dequantize-then-multiply, the definition the kernels must meet).
double dequant(const std::vector<uint8_t>& w, const std::vector<uint8_t>& sc, int64_t g, int64_t n, int64_t k,
               int64_t N, int64_t K, sm90::Fp4Scale fmt) {
  const int64_t blk = sm90::fp4_scale_block(fmt);
  const uint8_t code = formats::unpack_e2m1(w[size_t((g * N + n) * K / 2 + k / 2)], int(k & 1));
  const uint8_t s = sc[size_t((g * N + n) * (K / blk) + k / blk)];
  return double(formats::e2m1_to_float(code)) *
         double(fmt == sm90::Fp4Scale::kNvfp4 ? formats::e4m3_to_float(s) : formats::e8m0_to_float(s));
}

// n bf16 values drawn from N(0, 1), as bits.
std::vector<uint16_t> normal_bf16(std::mt19937_64& rng, size_t n) {
  std::normal_distribution<float> nd(0.0f, 1.0f);
  std::vector<uint16_t> v(n);
  for (auto& x : v) x = formats::float_to_bf16_bits(nd(rng));
  return v;
}

// The experts' row offsets [G + 1] of per-expert row counts.
std::vector<int32_t> offsets_of(const std::vector<int32_t>& rows) {
  std::vector<int32_t> offs(rows.size() + 1, 0);
  for (size_t g = 0; g < rows.size(); ++g) offs[g + 1] = offs[g] + rows[g];
  return offs;
}

// Block-scale codes [G, N, K/block] of a narrow range (nvfp4: e4m3 0x30..0x3F, 2^-3..2^-2 x 1.875;
// mxfp4: e8m0 122..127, 2^-5..2^0) and per-expert alphas 0.75 + g / 8.
std::pair<std::vector<uint8_t>, std::vector<float>> narrow_scales(std::mt19937_64& rng, sm90::Fp4Scale fmt, int64_t G,
                                                                  int64_t N, int64_t K) {
  const bool nv = fmt == sm90::Fp4Scale::kNvfp4;
  std::vector<uint8_t> sc(size_t(G * N * K / sm90::fp4_scale_block(fmt)));
  for (auto& b : sc) b = nv ? uint8_t(0x30 + rng() % 0x10) : uint8_t(122 + rng() % 6);
  std::vector<float> alpha(static_cast<size_t>(G));
  for (int64_t g = 0; g < G; ++g) alpha[size_t(g)] = 0.75f + 0.125f * float(g);
  return {std::move(sc), std::move(alpha)};
}

// The product the kernels must meet, in float64: D[m, n] = alpha[g] * sum_k a[m, k] * dequant(g, n, k)
// for the rows m of expert g (offsets offs; alpha null: 1).
std::vector<double> reference_gemm(const std::vector<uint16_t>& a, const std::vector<uint8_t>& w,
                                   const std::vector<uint8_t>& sc, const float* alpha,
                                   const std::vector<int32_t>& offs, int64_t N, int64_t K, sm90::Fp4Scale fmt) {
  const int64_t G = int64_t(offs.size()) - 1;
  std::vector<double> af(a.size()), wr(static_cast<size_t>(K)), ref(size_t(int64_t(offs.back()) * N));
  for (size_t i = 0; i < a.size(); ++i) af[i] = double(formats::bf16_bits_to_float(a[i]));
  for (int64_t g = 0; g < G; ++g)
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t k = 0; k < K; ++k) wr[size_t(k)] = dequant(w, sc, g, n, k, N, K, fmt);
      for (int32_t m = offs[size_t(g)]; m < offs[size_t(g + 1)]; ++m) {
        double acc = 0;
        for (int64_t k = 0; k < K; ++k) acc += af[size_t(m * K + k)] * wr[size_t(k)];
        ref[size_t(m * N + n)] = acc * (alpha ? double(alpha[g]) : 1.0);
      }
    }
  return ref;
}

// d against the float64 reference: every element written (finite: outputs start as NaN) and a
// rel-L2 of at most 1e-5 (fp32 accumulation of exact bf16 products), on real values.
void expect_matches(const std::vector<float>& d, const std::vector<double>& ref) {
  double num = 0, den = 0;
  int64_t bad = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    if (!std::isfinite(d[i])) ++bad;
    num += (double(d[i]) - ref[i]) * (double(d[i]) - ref[i]);
    den += ref[i] * ref[i];
  }
  EXPECT_EQ(bad, 0) << "non-finite (unwritten) outputs";
  EXPECT_GT(den, 0.0);
  EXPECT_LE(std::sqrt(num / den), 1e-5) << "rel-L2 vs float64";
}

// bf16 D16 is fp32 D rounded to nearest, bit for bit.
void expect_bf16_of(const std::vector<uint16_t>& d16, const std::vector<float>& d) {
  ASSERT_EQ(d16.size(), d.size());
  int64_t mismatches = 0;
  for (size_t i = 0; i < d.size(); ++i) mismatches += d16[i] != formats::float_to_bf16_bits(d[i]);
  EXPECT_EQ(mismatches, 0) << "bf16 D != bf16(fp32 D)";
}

// One W4A16 GEMM on the device, prepared as the backends prepare it (w4a16_prepare_scales,
// w4a16_fix_codes, w4a16_prepare_weights); run() launches one tactic into an output poisoned
// with NaN (every element must be written) and returns D [M, N]. The outputs carry kGuardRows
// poisoned rows past row M that must stay untouched (expect_guard_untouched): a kernel that writes
// past the last row fails the test, not only memcheck.
struct PreparedGemm {
  PreparedGemm(const std::vector<uint16_t>& a, const std::vector<uint8_t>& w, const std::vector<uint8_t>& sc,
               const float* global, const std::vector<int32_t>& offs, int64_t N_, int64_t K_, sm90::Fp4Scale f)
      : N(N_), K(K_), M(offs.back()), G(int64_t(offs.size()) - 1), fmt(f),
        ps(sm90::w4a16_prepare_scales(sc.data(), global, G, N, K, fmt, "scales")),
        da(a.size()), dw(w.size()), ds(ps.tiles.size()), dal(ps.alpha.size()), dd(size_t((M + kGuardRows) * N)),
        doff(offs.size()) {
    std::vector<uint8_t> wf = w;
    sm90::w4a16_fix_codes(wf.data(), sc.data(), G, N, K, fmt);
    CUDA_CHECK(cudaMemcpy(da.p, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dw.p, wf.data(), wf.size(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(ds.p, ps.tiles.data(), ps.tiles.size(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dal.p, ps.alpha.data(), ps.alpha.size() * 4, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(doff.p, offs.data(), offs.size() * 4, cudaMemcpyHostToDevice));
    sm90::w4a16_prepare_weights(dw.p, dw.n, nullptr);
  }
  // The arguments of a launch of tactic t into D (fp32).
  sm90::W4A16GemmArgs args(sm90::W4A16Tactic t) {
    sm90::W4A16GemmArgs ga;
    ga.A = da.p;
    ga.W = dw.p;
    ga.scales = ds.p;
    ga.alpha = ps.alpha_is_one ? nullptr : dal.p;
    ga.offsets = doff.p;
    ga.D = dd.p;
    ga.N = N;
    ga.K = K;
    ga.num_groups = int(G);
    ga.tactic = t;
    ga.small_splits = small_splits;
    ga.small_deep = small_deep;
    ga.large_tma_staged = large_tma_staged;
    return ga;
  }
  // Rows past the last one in every output buffer (the longest pass of any tactic).
  static constexpr int64_t kGuardRows = 320;
  // The elements after the first `used` of an output buffer downloaded whole are still the 0xFF
  // poison of every byte.
  template <typename T>
  static void expect_guard_untouched(const std::vector<T>& all, size_t used) {
    T poison;
    std::memset(&poison, 0xFF, sizeof(T));
    int64_t touched = 0;
    for (size_t i = used; i < all.size(); ++i) touched += std::memcmp(&all[i], &poison, sizeof(T)) != 0;
    EXPECT_EQ(touched, 0) << "elements written past the last row";
  }
  // A large tactic into bf16 D16 (poisoned first) that starts `skip` elements into its buffer (a
  // D16 off a 16-byte boundary: skip % 8 != 0); returns D16's bits. last_staged: whether the
  // launch staged its stores (w4a16_large_tma_staged of its arguments).
  std::vector<uint16_t> run_bf16_out(sm90::W4A16Tactic t, size_t skip = 0) {
    DevBuf<uint16_t> d16(skip + size_t((M + kGuardRows) * N));
    CUDA_CHECK(cudaMemset(d16.p, 0xFF, d16.n * 2));
    sm90::W4A16GemmArgs ga = args(t);
    ga.D = nullptr;
    ga.D16 = d16.p + skip;
    last_staged = sm90::w4a16_large_tma_staged(ga);
    sm90::launch_grouped_gemm_w4a16(ga, fmt, M, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<uint16_t> all = d16.download();
    expect_guard_untouched(std::vector<uint16_t>(all.begin(), all.begin() + std::ptrdiff_t(skip)), 0);
    all.erase(all.begin(), all.begin() + std::ptrdiff_t(skip));
    expect_guard_untouched(all, size_t(M * N));
    all.resize(size_t(M * N));
    return all;
  }
  std::vector<float> run(sm90::W4A16Tactic t) {
    CUDA_CHECK(cudaMemset(dd.p, 0xFF, dd.n * 4));
    const sm90::W4A16GemmArgs ga = args(t);
    sm90::launch_grouped_gemm_w4a16(ga, fmt, M, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<float> all(dd.n);
    CUDA_CHECK(cudaMemcpy(all.data(), dd.p, all.size() * 4, cudaMemcpyDeviceToHost));
    expect_guard_untouched(all, size_t(M * N));
    all.resize(size_t(M * N));
    return all;
  }
  const int64_t N, K, M, G;
  const sm90::Fp4Scale fmt;
  int small_splits = 0;  // W4A16GemmArgs::small_splits of every launch
  int small_deep = 0;    // W4A16GemmArgs::small_deep of every launch
  int large_tma_staged = -1;  // W4A16GemmArgs::large_tma_staged of every launch
  bool last_staged = false;   // run_bf16_out's launch staged its stores
  const sm90::W4A16Scales ps;
  DevBuf<uint16_t> da;
  DevBuf<uint8_t> dw, ds;
  DevBuf<float> dal, dd;
  DevBuf<int32_t> doff;
};

const char* tactic_name(sm90::W4A16Tactic t) {
  switch (t) {
    case sm90::W4A16Tactic::kSmall: return "small tactic";
    case sm90::W4A16Tactic::kLarge: return "large tactic";
    case sm90::W4A16Tactic::kLargeTma: return "large TMA tactic";
    default: return "auto";
  }
}
// Every tactic a caller can force.
const sm90::W4A16Tactic kTactics[] = {sm90::W4A16Tactic::kSmall, sm90::W4A16Tactic::kLarge,
                                      sm90::W4A16Tactic::kLargeTma};

// The GEMM alone, each tactic forced, against a float64 dequantize-and-multiply on the CPU:
// ragged experts (0, 1, 15, 17, 130, 300 and 700 rows; 0-130 rows; 0-30 rows; 0-9 rows: partial 16-,
// 32-, 64-, 128- and 320-token passes; 150 experts of 0-4 rows: more tiles than SMs, so the TMA tactic's
// persistent CTAs walk several), a partial 128-row weight tile (N = 192), 5 K steps, random codes including NaN-free
// extreme scales, both scale formats, nvfp4 alpha per expert. fp32 accumulation of exact bf16
// products: 1e-5.
TEST(W4A16, GemmTacticsMatchCpu) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  // Mean 166 rows per expert (32-token passes of the small tactic, 128-token passes of the large
  // one; the TMA tactic's passes of <= 320 tokens: 300 is one pass of two 160-wide MMAs, 700 is
  // 320 + 320 + 60), 44 (the large tactic's 64-token passes: 64, 64 + 1, 64 + 64 + 2), 12
  // (32-token passes, one for most experts) and 4 (16-token passes).
  std::vector<int32_t> many(150);
  for (size_t i = 0; i < many.size(); ++i) many[i] = int32_t((i * 7) % 5);
  for (const std::vector<int32_t>& rows :
       {std::vector<int32_t>{0, 1, 15, 17, 130, 300, 700}, {0, 1, 64, 65, 130, 9}, {0, 1, 15, 17, 30, 9},
        {0, 1, 7, 2, 5, 9}, many}) {
    SCOPED_TRACE("rows " + std::to_string(rows[2]) + "...");
    const int64_t N = 192, K = 320;
    const int64_t G = int64_t(rows.size());
    const std::vector<int32_t> offs = offsets_of(rows);
    const int64_t M = offs.back();
    std::mt19937_64 rng(case_seed("gemm tactics"));
    const std::vector<uint16_t> a = normal_bf16(rng, size_t(M * K));
    std::vector<uint8_t> w(size_t(G * N * K / 2));
    for (auto& b : w) b = uint8_t(rng());
    for (sm90::Fp4Scale fmt : {sm90::Fp4Scale::kMxfp4, sm90::Fp4Scale::kNvfp4}) {
      const bool nv = fmt == sm90::Fp4Scale::kNvfp4;
      const int64_t blk = sm90::fp4_scale_block(fmt);
      SCOPED_TRACE(nv ? "nvfp4" : "mxfp4");
      std::vector<uint8_t> sc(size_t(G * N * K / blk));
      // e4m3: every code but NaN (zero, negative and subnormal scales included); e8m0 2^-27..2^12
      // (codes above 128: the per-expert power of two in alpha).
      for (auto& b : sc) {
        if (nv) {
          do b = uint8_t(rng()); while ((b & 0x7F) == 0x7F);
        } else {
          b = uint8_t(100 + rng() % 40);
        }
      }
      std::vector<float> alpha(static_cast<size_t>(G));
      for (int64_t g = 0; g < G; ++g) alpha[size_t(g)] = nv ? 0.5f + 0.25f * float(g) : 1.0f;
      const std::vector<double> ref = reference_gemm(a, w, sc, alpha.data(), offs, N, K, fmt);
      PreparedGemm gemm(a, w, sc, nv ? alpha.data() : nullptr, offs, N, K, fmt);
      EXPECT_EQ(gemm.ps.fix_codes, nv);  // the random e4m3 codes include zero and negative scales
      EXPECT_FALSE(gemm.ps.alpha_is_one);
      for (sm90::W4A16Tactic t : kTactics) {
        SCOPED_TRACE(tactic_name(t));
        const std::vector<float> d = gemm.run(t);
        expect_matches(d, ref);
        if (t != sm90::W4A16Tactic::kSmall) {  // bf16 D: the same values rounded to nearest
          expect_bf16_of(gemm.run_bf16_out(t), d);
          if (t == sm90::W4A16Tactic::kLargeTma) {
            // Both store forms, each asserted to be what runs (the default above is the knob's);
            // then a D16 8 bytes off a 16-byte boundary, which the staged stores cannot write:
            // direct stores, the same bits.
            for (const int staged : {0, 1}) {
              SCOPED_TRACE(staged ? "staged stores" : "direct stores");
              gemm.large_tma_staged = staged;
              expect_bf16_of(gemm.run_bf16_out(t), d);
              EXPECT_EQ(gemm.last_staged, staged == 1);
            }
            SCOPED_TRACE("D16 8 bytes off a 16-byte boundary");
            expect_bf16_of(gemm.run_bf16_out(t, 4), d);  // 4 bf16 = 8 bytes
            EXPECT_FALSE(gemm.last_staged);
            gemm.large_tma_staged = -1;
          }
        }
      }
    }
  }
  EXPECT_EQ(sm90::w4a16_pick_tactic(1 * 8, 256), sm90::W4A16Tactic::kSmall);
  EXPECT_EQ(sm90::w4a16_pick_tactic(11 * 256, 256), sm90::W4A16Tactic::kSmall);    // 11 rows
  EXPECT_EQ(sm90::w4a16_pick_tactic(12 * 256, 256), sm90::W4A16Tactic::kLarge);    // 12 rows
  EXPECT_EQ(sm90::w4a16_pick_tactic(4096 * 8, 256), sm90::W4A16Tactic::kLarge);     // 128 rows
  EXPECT_EQ(sm90::w4a16_pick_tactic(8192 * 8, 256), sm90::W4A16Tactic::kLargeTma);  // 256 rows
  EXPECT_EQ(sm90::w4a16_pick_tactic(8192 * 2, 8), sm90::W4A16Tactic::kLargeTma);
}

// The reference of the activation epilogues: the activation kernel (launch_activation: + b13, act,
// round) over fp32 h [M, N], the D of `gemm` (b13 d_bias may be null; d_row_expert: each row's
// expert) -> bf16 a [M, I].
std::vector<uint16_t> activation_reference(const PreparedGemm& gemm, const std::vector<float>& h, const float* d_bias,
                                           const int32_t* d_row_expert, int64_t I, const sm90::ActivationParams& p) {
  DevBuf<float> dh(h.size());
  CUDA_CHECK(cudaMemcpy(dh.p, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  DevBuf<uint16_t> want(size_t(gemm.M * I));
  CUDA_CHECK(cudaMemset(want.p, 0xFF, want.n * 2));
  sm90::launch_activation(dh.p, d_bias, d_row_expert, gemm.doff.p + gemm.G, gemm.M, I, p, want.p, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  return want.download();
}

// The activation epilogue of launch `ga` (its act fields set; the output is set here: a poisoned
// [M + kGuardRows, I] buffer) equals `want` bit for bit, on real values, and the guard rows stay
// untouched. Returns whether the launch staged its stores (w4a16_large_tma_staged of its arguments).
bool expect_act_out(const PreparedGemm& gemm, sm90::W4A16GemmArgs ga, const std::vector<uint16_t>& want, int64_t I) {
  DevBuf<uint16_t> got(size_t((gemm.M + PreparedGemm::kGuardRows) * I));
  CUDA_CHECK(cudaMemset(got.p, 0xFF, got.n * 2));
  ga.D = nullptr;
  ga.D16 = nullptr;
  ga.act_out = got.p;
  const bool staged = sm90::w4a16_large_tma_staged(ga);
  sm90::launch_grouped_gemm_w4a16(ga, gemm.fmt, gemm.M, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<uint16_t> gv = got.download();
  PreparedGemm::expect_guard_untouched(gv, want.size());
  int64_t mismatches = 0, nonzero = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    nonzero += (want[i] & 0x7FFF) != 0;
    if (want[i] != gv[i] && mismatches++ < 5)
      ADD_FAILURE() << "row " << i / size_t(I) << " col " << i % size_t(I) << ": got 0x" << std::hex << gv[i]
                    << ", want 0x" << want[i];
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(nonzero, int64_t(want.size() / 4));  // the comparison is of real values
  return staged;
}

// FC1 with the activation in a tactic's epilogue (act_out) equals, bit for bit, the same tactic's
// fp32 D followed by the activation kernel (launch_activation: + b13, act, round), for every
// activation, with and without biases, both scale formats, ragged experts (the TMA tactic's
// 320-token passes and the wgmma tactic's 64- / 128-token passes with their remainders, the small
// tactic's 32-token passes, empty experts) and two 128-row blocks (I = 128). Canonical W13: gate
// rows [0, I), up rows [I, 2I). Large-magnitude activations so that swiglu's clamp and geglu's tanh
// both see their saturated ranges. Row sets: the wgmma tactic takes 128-token passes for the first
// (a mean of 118 rows an expert), 64-token passes for the second (22); the third (small tactic
// only) is decode-sized (a mean of 3 rows: 16-token passes) with K = 2304 (eight K steps a stage,
// four and a half stages) and gated I = 160 (the last CTA's 64 outputs half past I; relu2 I = 192),
// there also on the deep ring (small_deep 2: four stages in flight, the last one half full).
// The small tactic runs K whole (small_splits 1) for both, the only form with the epilogue. The TMA
// tactic runs both its store forms (large_tma_staged 0 and 1), each asserted to be what runs.
class W4A16ActEpilogue : public ::testing::TestWithParam<std::tuple<sm90::W4A16Tactic, int>> {};
TEST_P(W4A16ActEpilogue, MatchesActivationKernel) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const sm90::W4A16Tactic tactic = std::get<0>(GetParam());
  const int row_set = std::get<1>(GetParam());
  const std::vector<int32_t> rows = row_set == 0   ? std::vector<int32_t>{0, 300, 3, 64, 0, 129, 330}  // 330: 2 x 160 + 10
                                    : row_set == 1 ? std::vector<int32_t>{0, 3, 17, 40, 0, 33, 64}
                                                   : std::vector<int32_t>{0, 1, 7, 2, 5, 9, 0, 3};
  const bool decode = row_set == 2;
  const int64_t K = decode ? 2304 : 192, G = int64_t(rows.size());
  std::vector<int32_t> offs(size_t(G + 1), 0), row_expert;
  for (int64_t g = 0; g < G; ++g) {
    offs[size_t(g + 1)] = offs[size_t(g)] + rows[size_t(g)];
    row_expert.insert(row_expert.end(), size_t(rows[size_t(g)]), int32_t(g));
  }
  const int64_t M = offs.back();
  std::mt19937_64 rng(case_seed("activation epilogue"));
  std::normal_distribution<float> nd(0.0f, 2.0f);
  std::vector<uint16_t> a(size_t(M * K));
  for (auto& v : a) v = formats::float_to_bf16_bits(nd(rng));
  DevBuf<int32_t> d_row_expert(row_expert.size());
  CUDA_CHECK(cudaMemcpy(d_row_expert.p, row_expert.data(), row_expert.size() * 4, cudaMemcpyHostToDevice));
  for (const Activation act : {Activation::kSwiGLU, Activation::kSwiGLUOAI, Activation::kGeGLU, Activation::kReLU2}) {
    const bool gated = act != Activation::kReLU2;
    const int64_t I = !decode ? 128 : gated ? 160 : 192;
    const int64_t N = gated ? 2 * I : I;
    SCOPED_TRACE("activation " + std::to_string(int(act)));
    std::vector<uint8_t> w(size_t(G * N * K / 2));
    for (auto& b : w) b = uint8_t(rng());
    std::vector<float> bias(size_t(G * N));
    for (auto& b : bias) b = nd(rng);
    DevBuf<float> d_bias(bias.size());
    CUDA_CHECK(cudaMemcpy(d_bias.p, bias.data(), bias.size() * 4, cudaMemcpyHostToDevice));
    for (sm90::Fp4Scale fmt : {sm90::Fp4Scale::kMxfp4, sm90::Fp4Scale::kNvfp4}) {
      const bool nv = fmt == sm90::Fp4Scale::kNvfp4;
      SCOPED_TRACE(nv ? "nvfp4" : "mxfp4");
      const auto [sc, alpha] = narrow_scales(rng, fmt, G, N, K);
      PreparedGemm gemm(a, w, sc, nv ? alpha.data() : nullptr, offs, N, K, fmt);
      if (tactic == sm90::W4A16Tactic::kSmall) gemm.small_splits = 1;
      const std::vector<float> h = gemm.run(tactic);
      for (const bool with_bias : {false, true}) {
        SCOPED_TRACE(with_bias ? "with b13" : "no b13");
        sm90::ActivationParams p;
        p.activation = act;
        p.limit = act == Activation::kSwiGLUOAI || act == Activation::kSwiGLU ? 7.0f : INFINITY;
        p.alpha = 1.702f;
        // Reference: the fp32 D just computed, through the activation kernel.
        const std::vector<uint16_t> want =
            activation_reference(gemm, h, with_bias ? d_bias.p : nullptr, d_row_expert.p, I, p);
        sm90::W4A16GemmArgs ga = gemm.args(tactic);
        ga.act.activation = act;
        ga.act.limit = p.limit;
        ga.act.alpha = p.alpha;
        ga.act.b13 = with_bias ? d_bias.p : nullptr;
        if (tactic == sm90::W4A16Tactic::kSmall && !sm90::w4a16_small_act_epilogue(ga, M)) {
          // Only under the A/B knobs that take the small tactic off its TMA form or split its K.
          ASSERT_TRUE(std::getenv("MEGAMOE_W4A16_SMALL_TMA") || std::getenv("MEGAMOE_W4A16_SMALL_SPLITS"));
          DevBuf<uint16_t> out(size_t(M * I));
          ga.D = nullptr;
          ga.act_out = out.p;
          EXPECT_THROW(sm90::launch_grouped_gemm_w4a16(ga, fmt, M, nullptr), InvalidArgument);
          continue;
        }
        if (tactic != sm90::W4A16Tactic::kLargeTma) {
          expect_act_out(gemm, ga, want, I);
          if (tactic == sm90::W4A16Tactic::kSmall && decode) {
            SCOPED_TRACE("deep ring (small_deep 2)");
            ga.small_deep = 2;
            expect_act_out(gemm, ga, want, I);
          }
          continue;
        }
        for (const int staged : {0, 1}) {
          SCOPED_TRACE(staged ? "staged stores" : "direct stores");
          ga.large_tma_staged = staged;
          EXPECT_EQ(expect_act_out(gemm, ga, want, I), staged == 1);
        }
      }
    }
  }
}
INSTANTIATE_TEST_SUITE_P(LargeTactics, W4A16ActEpilogue,
                         ::testing::Combine(::testing::Values(sm90::W4A16Tactic::kLargeTma, sm90::W4A16Tactic::kLarge),
                                            ::testing::Values(0, 1)));
INSTANTIATE_TEST_SUITE_P(SmallTactic, W4A16ActEpilogue,
                         ::testing::Combine(::testing::Values(sm90::W4A16Tactic::kSmall), ::testing::Values(0, 1, 2)));

// The small tactic's deep ring (W4A16GemmArgs::small_deep: one CTA per SM, four 8-step stages) into
// fp32 D equals its two-CTA ring bit for bit (the same K steps in the same order; with K in two
// parts each adds its partial into the zeroed D, and a + b == b + a), and both match the float64
// reference: decode-sized ragged experts (a mean of 3.6 rows: 16-token passes, two empty experts),
// N = 192 (the second tile half past N), K whole with 36 steps (four and a half stages) and K in two
// parts of 36 steps each; small_deep 1 takes the ring too (2 tiles x 8 experts x parts fit one CTA
// per SM), 2 always. Both scale formats.
TEST(W4A16, SmallDeepRingMatchesCpu) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const std::vector<int32_t> rows{0, 1, 7, 2, 5, 9, 0, 3};
  const int64_t N = 192, G = int64_t(rows.size());
  const std::vector<int32_t> offs = offsets_of(rows);
  const int64_t M = offs.back();
  std::mt19937_64 rng(case_seed("deep ring"));
  for (const int splits : {1, 2}) {
    const int64_t K = 2304 * splits;  // 36 K steps a part
    SCOPED_TRACE("K parts " + std::to_string(splits));
    const std::vector<uint16_t> a = normal_bf16(rng, size_t(M * K));
    std::vector<uint8_t> w(size_t(G * N * K / 2));
    for (auto& b : w) b = uint8_t(rng());
    for (sm90::Fp4Scale fmt : {sm90::Fp4Scale::kMxfp4, sm90::Fp4Scale::kNvfp4}) {
      const bool nv = fmt == sm90::Fp4Scale::kNvfp4;
      SCOPED_TRACE(nv ? "nvfp4" : "mxfp4");
      const auto [sc, alpha] = narrow_scales(rng, fmt, G, N, K);
      const std::vector<double> ref = reference_gemm(a, w, sc, nv ? alpha.data() : nullptr, offs, N, K, fmt);
      PreparedGemm gemm(a, w, sc, nv ? alpha.data() : nullptr, offs, N, K, fmt);
      gemm.small_splits = splits;
      const std::vector<float> two_ctas = gemm.run(sm90::W4A16Tactic::kSmall);
      expect_matches(two_ctas, ref);
      for (const int deep : {1, 2}) {
        SCOPED_TRACE("small_deep " + std::to_string(deep));
        gemm.small_deep = deep;
        const std::vector<float> d = gemm.run(sm90::W4A16Tactic::kSmall);
        expect_matches(d, ref);
        EXPECT_EQ(0, std::memcmp(d.data(), two_ctas.data(), d.size() * sizeof(float)))
            << "the deep ring's fp32 D differs from the two-CTA ring's";
      }
    }
  }
}

// The staged stores of the TMA tactic in a problem small enough for the sanitizers (memcheck,
// racecheck, synccheck: the held A buffer, the warpgroup barriers, the scratch's stmatrix and
// loads): passes of 130, 300 and 200 rows (192-wide, two MMAs of 160 and 256-wide: every pass is
// staged) and an empty expert; bf16 D16 with N = 192 (the second weight tile has one half: its
// half-1 group is past N and not stored) against bf16 of the fp32 run; the activation epilogue
// against the activation kernel: gated swiglu (N = 2I = 256) and relu2 (N = I = 192), with b13.
TEST(W4A16, LargeTmaStagedForSanitizers) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const sm90::W4A16Tactic t = sm90::W4A16Tactic::kLargeTma;
  const std::vector<int32_t> rows = {130, 0, 300, 200};
  const int64_t K = 128, G = int64_t(rows.size());
  std::vector<int32_t> offs(size_t(G + 1), 0), row_expert;
  for (int64_t g = 0; g < G; ++g) {
    offs[size_t(g + 1)] = offs[size_t(g)] + rows[size_t(g)];
    row_expert.insert(row_expert.end(), size_t(rows[size_t(g)]), int32_t(g));
  }
  const int64_t M = offs.back();
  DevBuf<int32_t> d_row_expert(row_expert.size());
  CUDA_CHECK(cudaMemcpy(d_row_expert.p, row_expert.data(), row_expert.size() * 4, cudaMemcpyHostToDevice));
  std::mt19937_64 rng(case_seed("large tma staged"));
  const std::vector<uint16_t> a = normal_bf16(rng, size_t(M * K));
  // nvfp4 with a per-expert alpha (the epilogue's alpha * acc), scale codes of moderate size.
  const sm90::Fp4Scale fmt = sm90::Fp4Scale::kNvfp4;
  std::vector<float> alpha(static_cast<size_t>(G));
  for (int64_t g = 0; g < G; ++g) alpha[size_t(g)] = 0.75f + 0.125f * float(g);
  auto prepared = [&](int64_t N) {
    std::vector<uint8_t> w(size_t(G * N * K / 2)), sc(size_t(G * N * K / sm90::fp4_scale_block(fmt)));
    for (auto& b : w) b = uint8_t(rng());
    for (auto& b : sc) b = uint8_t(0x30 + rng() % 0x10);
    return std::make_unique<PreparedGemm>(a, w, sc, alpha.data(), offs, N, K, fmt);
  };
  {
    SCOPED_TRACE("bf16 D16");
    const auto gemm = prepared(192);
    gemm->large_tma_staged = 1;
    const std::vector<float> d = gemm->run(t);
    expect_bf16_of(gemm->run_bf16_out(t), d);
    EXPECT_TRUE(gemm->last_staged);
  }
  for (const Activation act : {Activation::kSwiGLU, Activation::kReLU2}) {
    SCOPED_TRACE("activation " + std::to_string(int(act)));
    const int64_t I = act == Activation::kReLU2 ? 192 : 128;
    const int64_t N = act == Activation::kReLU2 ? I : 2 * I;
    const auto gemm = prepared(N);
    gemm->large_tma_staged = 1;
    std::vector<float> bias(size_t(G * N));
    std::normal_distribution<float> nd(0.0f, 1.0f);
    for (auto& b : bias) b = nd(rng);
    DevBuf<float> d_bias(bias.size());
    CUDA_CHECK(cudaMemcpy(d_bias.p, bias.data(), bias.size() * 4, cudaMemcpyHostToDevice));
    sm90::ActivationParams p;
    p.activation = act;
    p.limit = act == Activation::kSwiGLU ? 7.0f : INFINITY;
    const std::vector<uint16_t> want =
        activation_reference(*gemm, gemm->run(t), d_bias.p, d_row_expert.p, I, p);
    sm90::W4A16GemmArgs ga = gemm->args(t);
    ga.act.activation = act;
    ga.act.limit = p.limit;
    ga.act.alpha = p.alpha;
    ga.act.b13 = d_bias.p;
    EXPECT_TRUE(expect_act_out(*gemm, ga, want, I));
  }
}

// Bad output arguments are refused by name: bf16 D16 with the small tactic (which may add split-K
// partials into fp32 D), two outputs, or none; the activation epilogue (act_out) with the small
// tactic's K in two halves, or a large tactic's gated one with N not 2I, I % 64 == 0.
TEST(W4A16, RefusesBadOutputs) {
  MEGAMOE_REQUIRE_SM90();
  const int64_t N = 128, K = 128;
  std::vector<uint16_t> a(size_t(4 * K), 0x3F80);
  std::vector<uint8_t> w(size_t(N * K / 2), 0x22), sc(size_t(N * K / 32), 127);
  PreparedGemm gemm(a, w, sc, nullptr, {0, 4}, N, K, sm90::Fp4Scale::kMxfp4);
  DevBuf<uint16_t> d16(size_t(4 * N));
  auto expect_refused = [&](sm90::W4A16GemmArgs ga, const char* what) {
    try {
      sm90::launch_grouped_gemm_w4a16(ga, sm90::Fp4Scale::kMxfp4, 4, nullptr);
      ADD_FAILURE() << what << ": accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("D16"), std::string::npos) << what << ": " << e.what();
    }
  };
  sm90::W4A16GemmArgs small = gemm.args(sm90::W4A16Tactic::kSmall);
  small.D = nullptr;
  small.D16 = d16.p;
  expect_refused(small, "bf16 D with the small tactic");
  sm90::W4A16GemmArgs both = gemm.args(sm90::W4A16Tactic::kLarge);
  both.D16 = d16.p;
  expect_refused(both, "both outputs");
  sm90::W4A16GemmArgs none = gemm.args(sm90::W4A16Tactic::kLarge);
  none.D = nullptr;
  expect_refused(none, "no output");
  // The activation epilogue: the small tactic has it only with K whole (here K = 256 in two halves),
  // and it is an output of its own.
  {
    const int64_t K2 = 256;
    std::vector<uint16_t> a2(size_t(4 * K2), 0x3F80);
    std::vector<uint8_t> w2(size_t(N * K2 / 2), 0x22), sc2(size_t(N * K2 / 32), 127);
    PreparedGemm halves(a2, w2, sc2, nullptr, {0, 4}, N, K2, sm90::Fp4Scale::kMxfp4);
    halves.small_splits = 2;
    sm90::W4A16GemmArgs ga = halves.args(sm90::W4A16Tactic::kSmall);
    ga.D = nullptr;
    ga.act_out = d16.p;
    ga.act.activation = Activation::kReLU2;
    EXPECT_FALSE(sm90::w4a16_small_act_epilogue(ga, 4));
    try {
      sm90::launch_grouped_gemm_w4a16(ga, sm90::Fp4Scale::kMxfp4, 4, nullptr);
      ADD_FAILURE() << "the small tactic with act_out and K in two halves: accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("act_out"), std::string::npos) << e.what();
    }
  }
  sm90::W4A16GemmArgs two = gemm.args(sm90::W4A16Tactic::kLargeTma);
  two.act_out = d16.p;
  expect_refused(two, "D and act_out");
  // Operands every tactic reads by TMA or 16-byte copies must be 16-byte aligned: a clear error
  // naming the operand, for each tactic.
  for (const sm90::W4A16Tactic t : kTactics) {
    for (int which = 0; which < 3; ++which) {
      sm90::W4A16GemmArgs ga = gemm.args(t);
      const char* name = which == 0 ? "A" : which == 1 ? "W" : "scales";
      if (which == 0) ga.A = static_cast<const uint8_t*>(ga.A) + 4;
      else if (which == 1) ga.W += 8;
      else ga.scales += 4;
      try {
        sm90::launch_grouped_gemm_w4a16(ga, sm90::Fp4Scale::kMxfp4, 4, nullptr);
        ADD_FAILURE() << tactic_name(t) << " with a misaligned " << name << ": accepted";
      } catch (const InvalidArgument& e) {
        EXPECT_EQ(e.argument(), name) << e.what();
        EXPECT_NE(e.expected().find("16-byte aligned"), std::string::npos) << e.what();
      }
    }
  }
  sm90::W4A16GemmArgs odd = gemm.args(sm90::W4A16Tactic::kLargeTma);  // gated needs N = 2I, I % 64 == 0
  odd.D = nullptr;
  odd.act_out = d16.p;
  odd.N = 64;
  odd.W = nullptr;
  try {
    sm90::launch_grouped_gemm_w4a16(odd, sm90::Fp4Scale::kMxfp4, 4, nullptr);
    ADD_FAILURE() << "gated act_out with N = 64: accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("N"), std::string::npos) << e.what();
  }
}

// The register decode is exact: with A the identity (row m of expert g is the unit vector e_m)
// every output is one product, D[m, n] = alpha * dequant(W[g])[n, m], which must equal the
// CPU's e2m1 * scale bit for bit, for every code and both tactics. Expert 0's e8m0 codes span
// 12..137 (alpha 2^9; the decoded weights stay fp32-normal, so the MMA's handling of subnormal
// products does not enter), expert 1's 100..140; nvfp4 uses every non-NaN e4m3 code (zero,
// negative and subnormal scales: the code fix-up) with global scale 1.
TEST(W4A16, DecodeIsExact) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const int64_t N = 192, K = 320, G = 2, M = G * K;
  std::vector<int32_t> offs = {0, int32_t(K), int32_t(2 * K)};
  std::vector<uint16_t> a(size_t(M * K), 0);
  for (int64_t g = 0; g < G; ++g)
    for (int64_t m = 0; m < K; ++m) a[size_t((g * K + m) * K + m)] = formats::float_to_bf16_bits(1.0f);
  std::mt19937_64 rng(case_seed("decode exact"));
  std::vector<uint8_t> w(size_t(G * N * K / 2));
  for (auto& b : w) b = uint8_t(rng());
  for (sm90::Fp4Scale fmt : {sm90::Fp4Scale::kMxfp4, sm90::Fp4Scale::kNvfp4}) {
    const bool nv = fmt == sm90::Fp4Scale::kNvfp4;
    const int64_t blk = sm90::fp4_scale_block(fmt), per_row = K / blk;
    SCOPED_TRACE(nv ? "nvfp4" : "mxfp4");
    std::vector<uint8_t> sc(size_t(G * N * per_row));
    for (size_t i = 0; i < sc.size(); ++i) {
      const bool e0 = i < sc.size() / 2;
      if (nv) {
        sc[i] = uint8_t(i % 256);
        if ((sc[i] & 0x7F) == 0x7F) sc[i] = 0x38;  // NaN codes: 1.0 instead
      } else {
        sc[i] = e0 ? uint8_t(12 + rng() % 126) : uint8_t(100 + rng() % 41);
      }
    }
    if (!nv) {  // pin both ends of each expert's range
      sc[0] = 12;
      sc[1] = 137;
      sc[sc.size() - 1] = 140;
    }
    const std::vector<float> ones(size_t(G), 1.0f);
    PreparedGemm gemm(a, w, sc, nv ? ones.data() : nullptr, offs, N, K, fmt);
    for (sm90::W4A16Tactic t : kTactics) {
      SCOPED_TRACE(tactic_name(t));
      const std::vector<float> d = gemm.run(t);
      int64_t mismatches = 0;
      for (int64_t g = 0; g < G; ++g)
        for (int64_t n = 0; n < N; ++n)
          for (int64_t k = 0; k < K; ++k) {
            const float want = float(dequant(w, sc, g, n, k, N, K, fmt));  // exact in float
            const float got = d[size_t((g * K + k) * N + n)];
            if (!(got == want) && mismatches++ < 5)
              ADD_FAILURE() << "expert " << g << " row " << n << " k " << k << ": scale code "
                            << int(sc[size_t((g * N + n) * per_row + k / blk)]) << ": got " << got << ", want " << want;
          }
      EXPECT_EQ(mismatches, 0);
    }
  }
}

// A NaN block scale poisons exactly what dequantize-then-multiply poisons: the weight row's
// output column (every token of the expert), nothing else. Both formats, both tactics.
TEST(W4A16, NaNScalePoisonsOnlyItsRow) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const int64_t N = 128, K = 128, M = 20, n_nan = 5;
  std::mt19937_64 rng(case_seed("nan scale"));
  std::vector<uint16_t> a(size_t(M * K));
  std::normal_distribution<float> nd(0.0f, 1.0f);
  for (auto& v : a) v = formats::float_to_bf16_bits(nd(rng));
  std::vector<uint8_t> w(size_t(N * K / 2));
  for (auto& b : w) b = uint8_t(rng());
  const std::vector<int32_t> offs = {0, int32_t(M)};
  for (sm90::Fp4Scale fmt : {sm90::Fp4Scale::kMxfp4, sm90::Fp4Scale::kNvfp4}) {
    const bool nv = fmt == sm90::Fp4Scale::kNvfp4;
    const int64_t blk = sm90::fp4_scale_block(fmt), per_row = K / blk;
    SCOPED_TRACE(nv ? "nvfp4" : "mxfp4");
    std::vector<uint8_t> sc(size_t(N * per_row));
    for (auto& b : sc) b = nv ? uint8_t(0x30 + rng() % 0x20) : uint8_t(115 + rng() % 15);
    sc[size_t(n_nan * per_row + 1)] = 0xFF;  // e4m3 -NaN / e8m0 NaN
    const float one = 1.0f;
    PreparedGemm gemm(a, w, sc, nv ? &one : nullptr, offs, N, K, fmt);
    EXPECT_TRUE(gemm.ps.fix_codes);
    for (sm90::W4A16Tactic t : kTactics) {
      SCOPED_TRACE(tactic_name(t));
      const std::vector<float> d = gemm.run(t);
      int64_t wrong = 0;
      double num = 0, den = 0;
      for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
          const float got = d[size_t(m * N + n)];
          if (n == n_nan) {
            wrong += !std::isnan(got);
            continue;
          }
          double ref = 0;
          for (int64_t k = 0; k < K; ++k)
            ref += double(formats::bf16_bits_to_float(a[size_t(m * K + k)])) * dequant(w, sc, 0, n, k, N, K, fmt);
          wrong += !std::isfinite(got);
          num += (double(got) - ref) * (double(got) - ref);
          den += ref * ref;
        }
      EXPECT_EQ(wrong, 0) << "column " << n_nan << " must be NaN in every row, every other element finite";
      EXPECT_LE(std::sqrt(num / den), 1e-5);
    }
  }
}

// Scales the kernels cannot apply exactly are refused when the weights are prepared, with the
// argument, the expert and the code in the message; NaN codes are accepted (they poison).
TEST(W4A16, PrepareScalesRefusesWideRanges) {
  const int64_t N = 64, K = 64;
  std::vector<uint8_t> mx(size_t(N * K / 32), 120), nv(size_t(N * K / 16), 0x38);
  const float one = 1.0f;
  mx[3] = 255;  // NaN: not part of the range
  const auto with_nan = sm90::w4a16_prepare_scales(mx.data(), nullptr, 1, N, K, sm90::Fp4Scale::kMxfp4, "w13_scale");
  EXPECT_TRUE(with_nan.fix_codes);
  EXPECT_TRUE(with_nan.alpha_is_one);
  mx[3] = 130;
  mx[4] = 1;  // 1..130 spans 129
  try {
    sm90::w4a16_prepare_scales(mx.data(), nullptr, 1, N, K, sm90::Fp4Scale::kMxfp4, "w13_scale");
    ADD_FAILURE() << "a span of 129 e8m0 codes was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("w13_scale"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("expert 0"), std::string::npos) << e.what();
  }
  mx[4] = 2;  // 2..130: alpha 4
  const auto ok = sm90::w4a16_prepare_scales(mx.data(), nullptr, 1, N, K, sm90::Fp4Scale::kMxfp4, "w13_scale");
  EXPECT_EQ(ok.alpha[0], 4.0f);
  EXPECT_FALSE(ok.fix_codes);
  nv[5] = 0x7F;
  EXPECT_TRUE(sm90::w4a16_prepare_scales(nv.data(), &one, 1, N, K, sm90::Fp4Scale::kNvfp4, "w2_scale").fix_codes);
}

}  // namespace
}  // namespace megamoe::gputest
