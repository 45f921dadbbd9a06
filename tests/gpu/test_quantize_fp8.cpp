// The GPU fp8_block quantizers (kernels/sm90/quantize/quantize_fp8.h), the fp8 backend's FC1-input
// kernel (permute + 1x128 quantize) and the device-made synthetic fp8 layer, against the CPU
// quantizers, code for code and scale for scale (zero blocks, big and tiny values, NaN/inf,
// partial blocks). Tests named *Small* use small shapes (suitable for compute-sanitizer).
// Every test skips (GTEST_SKIP) without an sm_90 GPU. Fresh random inputs per process
// (MEGAMOE_TEST_SEED=<n> pins them); outputs are poisoned before each run.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "formats/codecs.h"
#include "formats/quantize.h"
#include "kernels/sm90/moe/moe_kernels_fp8.h"
#include "kernels/sm90/quantize/quantize_fp8.h"
#include "kernels/sm90/synthetic/synthetic_fill.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bitsf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// ---------------------------------------------------------------------------------------------
// Fp8Quant: GPU quantizers == CPU quantizers
// ---------------------------------------------------------------------------------------------

// Random test matrix [rows, ld] (float, bf16-valued when `bf16`): normal values of varied
// magnitude per 128-block (2^-110 .. 2^100: block scales on both sides of the 2^-80 where
// formats/scale_division.h prescales, tiny elements whose remainders underflow), plus planted blocks: all zero, huge (1e30), tiny (float32 subnormals
// ~1e-39 and values near 2^-126), a NaN, a +inf, a -inf, a block of exact e4m3 ties.
std::vector<float> make_quant_input(int64_t rows, int64_t ld, int64_t K, bool bf16, uint64_t seed, bool plant) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  std::uniform_int_distribution<int> ex(-110, 100);
  std::vector<float> v(size_t(rows * ld), 0.0f);
  const int64_t RB = (rows + 127) / 128, KB = (K + 127) / 128;
  std::vector<float> mag(size_t(RB * KB));
  for (auto& m : mag) m = std::ldexp(1.0f, ex(rng));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = 0; k < K; ++k) v[size_t(r * ld + k)] = nd(rng) * mag[size_t((r / 128) * KB + k / 128)];
  // Padding columns (k >= K) hold garbage the quantizer must not read into any amax.
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t k = K; k < ld; ++k) v[size_t(r * ld + k)] = 1e35f;
  if (plant && rows > 0 && K > 0) {
    auto put = [&](int64_t r, int64_t k, float x) {
      if (r < rows && k < K) v[size_t(r * ld + k)] = x;
    };
    // Row 0: first 128-column group all zero (-0.0 in one place).
    for (int64_t k = 0; k < std::min<int64_t>(K, 128); ++k) put(0, k, 0.0f);
    put(0, 5, -0.0f);
    // Row 1: huge values; row 2: float32 subnormals and tiny normals; row 3: a NaN;
    // row 4: +inf; row 5: -inf and ordinary values; row 6: values that land on e4m3 ties.
    for (int64_t k = 0; k < std::min<int64_t>(K, 128); ++k) {
      put(1, k, (k % 2 ? -1.0f : 1.0f) * 1e30f * (1.0f + float(k) / 128.0f));
      put(2, k, bitsf(uint32_t(1 + 977 * k) & 0x007FFFFFu) * (k % 3 ? 1.0f : -1.0f));
      put(6, k, (k % 2 ? -1.0f : 1.0f) * (1.0f + 1.0f / 16.0f + float(k % 8) / 8.0f));
    }
    put(2, 7, 1.2e-38f);
    put(3, 9, std::numeric_limits<float>::quiet_NaN());
    put(4, 1, std::numeric_limits<float>::infinity());
    put(5, 2, -std::numeric_limits<float>::infinity());
    put(6, 0, 448.0f);  // the amax of row 6's group: scale 1 -> codes are exact e4m3 RNE of x
    // A zero 128x128 weight block: rows 128..255 of column group 1 (when it exists).
    for (int64_t r = 128; r < std::min<int64_t>(rows, 256); ++r)
      for (int64_t k = 128; k < std::min<int64_t>(K, 256); ++k) put(r, k, 0.0f);
  }
  if (bf16)
    for (auto& x : v) x = formats::round_to_bf16(x);
  return v;
}

std::vector<uint16_t> to_bf16_bits(const std::vector<float>& v) {
  std::vector<uint16_t> b(v.size());
  for (size_t i = 0; i < v.size(); ++i) b[i] = formats::float_to_bf16_bits(v[i]);
  return b;
}

void expect_same_codes(const std::vector<uint8_t>& gpu, const std::vector<uint8_t>& cpu, const char* what) {
  ASSERT_EQ(gpu.size(), cpu.size());
  int64_t bad = 0, first = -1;
  for (size_t i = 0; i < gpu.size(); ++i)
    if (gpu[i] != cpu[i]) {
      if (first < 0) first = int64_t(i);
      ++bad;
    }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " codes differ, first at " << first << " (gpu 0x" << std::hex
                    << (first >= 0 ? int(gpu[size_t(first)]) : 0) << ", cpu 0x" << (first >= 0 ? int(cpu[size_t(first)]) : 0)
                    << ")";
}

void expect_same_scales(const std::vector<float>& gpu, const std::vector<float>& cpu, const char* what) {
  ASSERT_EQ(gpu.size(), cpu.size());
  int64_t bad = 0, first = -1;
  for (size_t i = 0; i < gpu.size(); ++i)
    if (fbits(gpu[i]) != fbits(cpu[i])) {
      if (first < 0) first = int64_t(i);
      ++bad;
    }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " scales differ, first at " << first << " (gpu 0x" << std::hex
                    << (first >= 0 ? fbits(gpu[size_t(first)]) : 0u) << ", cpu 0x"
                    << (first >= 0 ? fbits(cpu[size_t(first)]) : 0u) << ")";
}

TEST(Fp8Quant, WeightBlocksMatchCpuQuantizer) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  struct Case {
    int64_t batch, N, K;
  };
  for (const Case& cs : {Case{2, 256, 384}, Case{1, 300, 200}, Case{3, 130, 130}, Case{1, 7, 5}}) {
    for (bool bf16 : {true, false}) {
      for (bool ue8m0 : {false, true}) {
        SCOPED_TRACE("batch " + std::to_string(cs.batch) + " N " + std::to_string(cs.N) + " K " + std::to_string(cs.K) +
                     (bf16 ? " bf16" : " f32") + (ue8m0 ? " ue8m0" : ""));
        const int64_t NB = (cs.N + 127) / 128, KB = (cs.K + 127) / 128;
        std::vector<float> src;
        for (int64_t b = 0; b < cs.batch; ++b) {
          const auto m = make_quant_input(cs.N, cs.K, cs.K, bf16, case_seed("wq") + uint64_t(b * 131 + cs.K), b == 0);
          src.insert(src.end(), m.begin(), m.end());
        }
        std::vector<uint8_t> cpu_codes(src.size());
        std::vector<float> cpu_scales(size_t(cs.batch * NB * KB));
        for (int64_t b = 0; b < cs.batch; ++b)
          formats::quantize_fp8_block_weight(src.data() + b * cs.N * cs.K, cs.N, cs.K, cpu_codes.data() + b * cs.N * cs.K,
                                             cpu_scales.data() + b * NB * KB, ue8m0);
        DevBuf<uint8_t> codes(src.size());
        DevBuf<float> scales(cpu_scales.size());
        CUDA_CHECK(cudaMemset(codes.p, 0xAB, codes.n));
        if (bf16) {
          DevBuf<uint16_t> d;
          d.upload(to_bf16_bits(src));
          sm90::quantize_fp8_block_weight_gpu(d.p, DType::kBF16, cs.batch, cs.N, cs.K, codes.p, scales.p, ue8m0, nullptr);
          CUDA_CHECK(cudaDeviceSynchronize());
        } else {
          DevBuf<float> d;
          d.upload(src);
          sm90::quantize_fp8_block_weight_gpu(d.p, DType::kF32, cs.batch, cs.N, cs.K, codes.p, scales.p, ue8m0, nullptr);
          CUDA_CHECK(cudaDeviceSynchronize());
        }
        expect_same_codes(codes.download(), cpu_codes, "weight codes");
        expect_same_scales(scales.download(), cpu_scales, "weight scales");
      }
    }
  }
}

TEST(Fp8Quant, Activation1x128MatchesCpuQuantizer) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  struct Case {
    int64_t M, K, ld;
  };
  for (const Case& cs : {Case{37, 300, 320}, Case{64, 256, 256}, Case{9, 130, 133}, Case{1000, 7168, 7168}}) {
    for (bool bf16 : {true, false}) {
      for (bool ue8m0 : {false, true}) {
        SCOPED_TRACE("M " + std::to_string(cs.M) + " K " + std::to_string(cs.K) + " ld " + std::to_string(cs.ld) +
                     (bf16 ? " bf16" : " f32") + (ue8m0 ? " ue8m0" : ""));
        const int64_t KB = (cs.K + 127) / 128;
        const auto src = make_quant_input(cs.M, cs.ld, cs.K, bf16, case_seed("aq") + uint64_t(cs.K), true);
        std::vector<uint8_t> cpu_codes(size_t(cs.M * cs.K));
        std::vector<float> cpu_scales(size_t(cs.M * KB));
        formats::quantize_fp8_act_1x128(src.data(), cs.M, cs.K, cs.ld, cpu_codes.data(), cpu_scales.data(), ue8m0);
        DevBuf<uint8_t> codes(cpu_codes.size());
        DevBuf<float> scales(cpu_scales.size());
        if (bf16) {
          DevBuf<uint16_t> d;
          d.upload(to_bf16_bits(src));
          sm90::quantize_fp8_act_1x128_gpu(d.p, DType::kBF16, cs.M, cs.K, cs.ld, codes.p, scales.p, ue8m0, nullptr);
          CUDA_CHECK(cudaDeviceSynchronize());
        } else {
          DevBuf<float> d;
          d.upload(src);
          sm90::quantize_fp8_act_1x128_gpu(d.p, DType::kF32, cs.M, cs.K, cs.ld, codes.p, scales.p, ue8m0, nullptr);
          CUDA_CHECK(cudaDeviceSynchronize());
        }
        expect_same_codes(codes.download(), cpu_codes, "activation codes");
        expect_same_scales(scales.download(), cpu_scales, "activation scales");
      }
    }
  }
}

// The backend's FC1-input kernel (permute + 1x128 quantize, kernels/sm90/moe/permute_quant_fp8.cu)
// against the CPU quantizer, code for code and scale for scale, for H not a multiple of 128 (the
// last group partial: 64 / 80 real columns) and H a multiple of 128: every routed row holds its
// token's codes, its scales sit where the GEMM reads them (act_scale_index), and no byte past a
// row's H codes or past the last row is written (the poison stays).
TEST(Fp8Quant, PermuteQuantSmallMatchesCpuQuantizer) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  // The kernel gives a warp up to 8 groups of a token once T * (H / 128) reaches 2 x 8192: the
  // first cases run one group a warp, 6000 x 2080 (17 groups, the last partial) 8 + 8 + 1, and
  // 3000 x 1024 two groups a warp; K = 40 takes the routes in two rounds of 32.
  struct Case {
    int64_t T, H, K;
  };
  for (const Case cs : {Case{37, 320, 2}, Case{37, 208, 2}, Case{37, 256, 2}, Case{37, 320, 40}, Case{6000, 2080, 2},
                        Case{3000, 1024, 3}}) {
    const int64_t T = cs.T, H = cs.H, K = cs.K;
    SCOPED_TRACE("T " + std::to_string(T) + " H " + std::to_string(H) + " K " + std::to_string(K));
    const int64_t E = 3, HB = (H + 127) / 128, ldx = H + 8;  // ldx > H: a strided x
    const auto xf = make_quant_input(T, ldx, H, /*bf16=*/true, case_seed("pq") + uint64_t(H * 64 + K), true);
    // Routes: token t's k-th route to expert (t + k) % E, every 5th route none; rows in expert
    // order, tokens ascending inside an expert (the route plan's order).
    std::vector<int32_t> route_to_row(size_t(T * K), -1), offsets(size_t(E + 1), 0), row_expert;
    std::vector<int64_t> row_token;
    for (int64_t e = 0; e < E; ++e) {
      for (int64_t t = 0; t < T; ++t)
        for (int64_t k = 0; k < K; ++k)
          if ((t * K + k) % 5 != 4 && (t + k) % E == e) {
            route_to_row[size_t(t * K + k)] = int32_t(row_token.size());
            row_token.push_back(t);
            row_expert.push_back(int32_t(e));
          }
      offsets[size_t(e + 1)] = int32_t(row_token.size());
    }
    const int64_t rows = int64_t(row_token.size());
    std::vector<uint8_t> cpu_codes(size_t(T * H));
    std::vector<float> cpu_scales(size_t(T * HB));
    formats::quantize_fp8_act_1x128(xf.data(), T, H, ldx, cpu_codes.data(), cpu_scales.data(), false);
    DevBuf<uint16_t> dx;
    dx.upload(to_bf16_bits(xf));
    DevBuf<int32_t> dr2r, dre, doff;
    dr2r.upload(route_to_row);
    dre.upload(row_expert);
    doff.upload(offsets);
    constexpr uint8_t kPoison = 0xAB;
    DevBuf<uint8_t> xq(size_t((rows + 1) * H));  // one guard row
    DevBuf<float> sx(size_t((rows + 1) * HB));
    CUDA_CHECK(cudaMemset(xq.p, kPoison, xq.n));
    CUDA_CHECK(cudaMemset(sx.p, 0xFF, sx.n * sizeof(float)));
    sm90::launch_permute_quant_fp8(dx.p, ldx, T, K, H, dr2r.p, dre.p, doff.p, xq.p, sx.p, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<uint8_t> q = xq.download();
    const std::vector<float> sc = sx.download();
    std::vector<uint8_t> want_codes(q.size(), kPoison);
    std::vector<float> want_scales(sc.size(), bitsf(0xFFFFFFFFu));
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t t = row_token[size_t(r)], e = row_expert[size_t(r)];
      std::memcpy(&want_codes[size_t(r * H)], &cpu_codes[size_t(t * H)], size_t(H));
      for (int64_t hb = 0; hb < HB; ++hb) {
        const int64_t lo = offsets[size_t(e)], hi = offsets[size_t(e + 1)];
        want_scales[size_t(lo * HB + hb * (hi - lo) + (r - lo))] = cpu_scales[size_t(t * HB + hb)];
      }
    }
    expect_same_codes(q, want_codes, "permuted activation codes");
    expect_same_scales(sc, want_scales, "permuted activation scales");
  }
}

// The backend's FC2-input kernel (activation + 1x128 quantize, kernels/sm90/moe/activation_fp8.cu)
// against the CPU: a = bf16(act(h + b13)) with the reference's own activation
// (reference::activation_value), then formats::quantize_fp8_act_1x128, code for code and scale for
// scale for relu2 (gated activations: see the comment in the loop), every activation, with and without biases, I with a partial last group (320) and whole
// groups. The kernel gives a warp one group at few rows and more at many: 3 rows (one group a
// warp), 6000 (two: I = 320's three groups split 2 + 1) and 20000 (the whole row); I = 1200
// (10 groups) runs more groups a warp than its ring has stages. Rows past offsets[E] stay
// poisoned.
TEST(Fp8Quant, ActivationQuantMatchesCpu) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const int64_t E = 3;
  for (int64_t I : {int64_t(320), int64_t(512), int64_t(1200)})
  for (int64_t rows : {int64_t(3), int64_t(6000), int64_t(20000)})
  for (Activation act : {Activation::kSwiGLU, Activation::kSwiGLUOAI, Activation::kGeGLU, Activation::kReLU2})
  for (bool bias : {false, true}) {
    SCOPED_TRACE("I " + std::to_string(I) + " rows " + std::to_string(rows) + " act " + std::to_string(int(act)) +
                 (bias ? " bias" : ""));
    const bool gated = act != Activation::kReLU2;
    const int64_t N13 = gated ? 2 * I : I, IB = (I + 127) / 128;
    const float limit = act == Activation::kSwiGLUOAI ? 7.0f : INFINITY, alpha = 1.702f;
    std::mt19937_64 rng(case_seed("act quant") + uint64_t(I * 7 + rows) * 16 + uint64_t(act) * 2 + bias);
    std::normal_distribution<float> nd(0.0f, 3.0f);
    // Experts own rows [0, r1), [r1, r2), [r2, rows - 1): the last row is past offsets[E].
    const std::vector<int32_t> offsets = {0, int32_t(rows / 3), int32_t(rows / 3), int32_t(rows - 1)};
    std::vector<int32_t> row_expert(size_t(rows), 0);
    for (int64_t e = 0; e < E; ++e)
      for (int64_t r = offsets[size_t(e)]; r < offsets[size_t(e + 1)]; ++r) row_expert[size_t(r)] = int32_t(e);
    std::vector<float> h(size_t(rows * N13)), b13(size_t(E * N13));
    for (auto& v : h) v = nd(rng);
    for (auto& v : b13) v = 0.25f * nd(rng);
    const int64_t used = offsets[size_t(E)];
    std::vector<float> a(size_t(used * I));
    for (int64_t r = 0; r < used; ++r)
      for (int64_t j = 0; j < I; ++j) {
        const float* br = &b13[size_t(row_expert[size_t(r)] * N13)];
        float g = h[size_t(r * N13 + j)], u = gated ? h[size_t(r * N13 + I + j)] : 0.0f;
        if (bias) {
          g += br[j];
          if (gated) u += br[I + j];
        }
        a[size_t(r * I + j)] = formats::round_to_bf16(reference::activation_value(act, g, u, limit, alpha));
      }
    std::vector<uint8_t> cpu_codes(a.size());
    std::vector<float> cpu_scales(size_t(used * IB));
    formats::quantize_fp8_act_1x128(a.data(), used, I, I, cpu_codes.data(), cpu_scales.data(), false);
    DevBuf<float> dh, db;
    dh.upload(h);
    db.upload(b13);
    DevBuf<int32_t> dre, doff;
    dre.upload(row_expert);
    doff.upload(offsets);
    constexpr uint8_t kPoison = 0xFF;  // -NaN: never written (the quantizer's NaN code is 0x7F)
    DevBuf<uint8_t> aq(size_t(rows * I));
    DevBuf<float> sa(size_t(rows * IB));
    CUDA_CHECK(cudaMemset(aq.p, kPoison, aq.n));
    CUDA_CHECK(cudaMemset(sa.p, 0xFF, sa.n * sizeof(float)));
    sm90::ActivationParams p;
    p.activation = act;
    p.limit = limit;
    p.alpha = alpha;
    sm90::launch_activation_quant_fp8(dh.p, bias ? db.p : nullptr, dre.p, doff.p, E, rows, I, p, aq.p, sa.p, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    std::vector<uint8_t> want_codes(size_t(rows * I), kPoison);
    std::memcpy(want_codes.data(), cpu_codes.data(), cpu_codes.size());
    std::vector<float> want_scales(size_t(rows * IB), bitsf(0xFFFFFFFFu));
    for (int64_t r = 0; r < used; ++r) {
      const int64_t e = row_expert[size_t(r)], lo = offsets[size_t(e)], hi = offsets[size_t(e + 1)];
      for (int64_t ib = 0; ib < IB; ++ib)
        want_scales[size_t(lo * IB + ib * (hi - lo) + (r - lo))] = cpu_scales[size_t(r * IB + ib)];
    }
    const std::vector<uint8_t> codes = aq.download();
    const std::vector<float> scales = sa.download();
    if (act == Activation::kReLU2) {  // no transcendental: the GPU's a is the CPU's, bit for bit
      expect_same_codes(codes, want_codes, "activation codes");
      expect_same_scales(scales, want_scales, "activation scales");
      continue;
    }
    // Gated: CUDA's expf / tanhf differ from std::exp / std::tanh in the last fp32 bits
    // (docs/FORMATS.md), which moves an a across a bf16 rounding boundary about once in 10^5-10^6
    // elements. So: the poison and every other byte exact, a differing code one e4m3 step away and
    // rare; a differing scale (its block's amax moved by one bf16 step) within 2^-7 and rare.
    int64_t code_diffs = 0, scale_diffs = 0;
    for (size_t i = 0; i < codes.size(); ++i) {
      if (codes[i] == want_codes[i]) continue;
      ++code_diffs;
      const bool same_sign = (codes[i] & 0x80) == (want_codes[i] & 0x80) && want_codes[i] != kPoison;
      EXPECT_TRUE(same_sign && std::abs(int(codes[i] & 0x7F) - int(want_codes[i] & 0x7F)) <= 1)
          << "code " << i << ": gpu 0x" << std::hex << int(codes[i]) << ", cpu 0x" << int(want_codes[i]);
    }
    for (size_t i = 0; i < scales.size(); ++i) {
      if (fbits(scales[i]) == fbits(want_scales[i])) continue;
      ++scale_diffs;
      EXPECT_LE(std::abs(scales[i] - want_scales[i]), std::ldexp(std::abs(want_scales[i]), -7))
          << "scale " << i << ": gpu " << scales[i] << ", cpu " << want_scales[i];
    }
    EXPECT_LE(code_diffs, 2 + int64_t(codes.size()) / 20000) << "codes differing by one step";
    EXPECT_LE(scale_diffs, 2 + int64_t(scales.size()) / 1000) << "scales differing by one bf16 step";
  }
}

// The device-made synthetic fp8 layer equals reference::synthetic_canonical_weights byte for byte
// (also for an EP rank other than 0, whose experts start past expert 0).
TEST(Fp8Quant, SyntheticLayerOnDeviceEqualsCanonical) {
  MEGAMOE_REQUIRE_SM90();
  for (int rank : {0, 1}) {
    MoeConfig c;
    c.num_experts = 6;
    c.top_k = 2;
    c.hidden_size = 384;
    c.intermediate_size = 200;  // partial 128-blocks on both FCs
    c.activation = Activation::kSwiGLUOAI;
    c.has_bias = true;
    c.recipe = Recipe::kFP8Block;
    c.ep_size = 2;
    c.ep_rank = rank;
    const uint64_t seed = case_seed("synthetic fp8");
    const auto canon = reference::synthetic_canonical_weights(c, seed);
    const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
    DevBuf<uint8_t> w13(size_t(E * N13 * H)), w2(size_t(E * H * I));
    DevBuf<float> s13(canon.w13_scale.size() / 4), s2(canon.w2_scale.size() / 4), b13(size_t(E * N13)), b2(size_t(E * H));
    sm90::fill_synthetic_layer_fp8_block(c, seed, w13.p, s13.p, w2.p, s2.p, b13.p, b2.p, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    SCOPED_TRACE("ep_rank " + std::to_string(rank));
    expect_same_codes(w13.download(), canon.w13, "w13");
    expect_same_codes(w2.download(), canon.w2, "w2");
    auto as_f32 = [](const std::vector<uint8_t>& b) {
      std::vector<float> f(b.size() / 4);
      std::memcpy(f.data(), b.data(), b.size());
      return f;
    };
    expect_same_scales(s13.download(), as_f32(canon.w13_scale), "w13_scale");
    expect_same_scales(s2.download(), as_f32(canon.w2_scale), "w2_scale");
    expect_same_scales(b13.download(), canon.b13, "b13");
    expect_same_scales(b2.download(), canon.b2, "b2");
  }
}

}  // namespace
}  // namespace megamoe::gputest
