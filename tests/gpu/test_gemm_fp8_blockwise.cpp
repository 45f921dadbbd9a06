// The grouped blockwise FP8 GEMM (kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h), every tactic,
// and the kTma kernel's activation epilogue (run_act) against the separate kernel, against a float64 host product (and the large tile's and the TMA kernel's bf16 D against their own fp32 D, bitwise), also with K and N not multiples of 128 (partial last blocks with
// their own scales). Tests named *Small* use small shapes (suitable for compute-sanitizer).
// Every test skips (GTEST_SKIP) without an sm_90 GPU. Fresh random inputs per process
// (MEGAMOE_TEST_SEED=<n> pins them); outputs are poisoned before each run.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#include "formats/codecs.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "kernels/sm90/moe/moe_kernels_fp8.h"
#include "megamoe/config.h"
#include "megamoe/errors.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}

// Elements [0, n) of a and b whose bits differ.
int64_t bit_mismatches(const std::vector<float>& a, const std::vector<float>& b, int64_t n) {
  int64_t m = 0;
  for (int64_t i = 0; i < n; ++i) m += fbits(a[size_t(i)]) != fbits(b[size_t(i)]);
  return m;
}

// ---------------------------------------------------------------------------------------------
// Fp8Gemm: grouped blockwise GEMM, every tactic, vs a float64 host product
// ---------------------------------------------------------------------------------------------

// Random e4m3 operands and scales of one grouped problem, the activation scales in the GEMM's
// per-group MN-major layout and the weight scales in its [G, KB, NB] layout.
struct GemmInputs {
  int G;
  std::vector<int32_t> offsets;
  int64_t rows, KB, NB;
  std::vector<uint8_t> A, W;
  std::vector<float> sa_rowmajor, sw_canon, SA, SW;
};

GemmInputs make_inputs(const std::vector<int32_t>& rows_per_group, int64_t N, int64_t K, uint64_t seed) {
  GemmInputs in;
  in.G = int(rows_per_group.size());
  const int G = in.G;
  in.offsets.assign(size_t(G + 1), 0);
  for (int g = 0; g < G; ++g) in.offsets[size_t(g + 1)] = in.offsets[size_t(g)] + rows_per_group[size_t(g)];
  // Partial last blocks (K or N not a multiple of 128) have scales of their own.
  const int64_t rows = in.offsets[size_t(G)], KB = (K + 127) / 128, NB = (N + 127) / 128;
  in.rows = rows;
  in.KB = KB;
  in.NB = NB;
  std::mt19937_64 rng(seed);
  auto code = [&]() {  // finite e4m3 codes of moderate magnitude, either sign
    return uint8_t((rng() & 0x80) | (0x20 + rng() % 0x38));
  };
  in.A.resize(size_t(rows * K));
  in.W.resize(size_t(G * N * K));
  for (auto& a : in.A) a = code();
  for (auto& w : in.W) w = code();
  std::uniform_real_distribution<float> us(0.5f, 2.0f);
  std::uniform_int_distribution<int> ue(-6, 6);
  in.sa_rowmajor.resize(size_t(rows * KB));
  in.sw_canon.resize(size_t(G * NB * KB));
  for (auto& s : in.sa_rowmajor) s = std::ldexp(us(rng), ue(rng));
  for (auto& s : in.sw_canon) s = std::ldexp(us(rng), ue(rng));
  in.SA.resize(size_t(rows * KB));
  for (int g = 0; g < G; ++g) {
    const int64_t lo = in.offsets[size_t(g)], hi = in.offsets[size_t(g + 1)];
    for (int64_t r = lo; r < hi; ++r)
      for (int64_t kb = 0; kb < KB; ++kb)
        in.SA[size_t(lo * KB + kb * (hi - lo) + (r - lo))] = in.sa_rowmajor[size_t(r * KB + kb)];
  }
  in.SW.resize(in.sw_canon.size());
  sm90::make_weight_scales_mn_major(in.sw_canon.data(), G, NB, KB, in.SW.data());
  return in;
}

// The float64 product of one grouped problem, [rows, N] row-major.
std::vector<double> reference_d(const GemmInputs& in, int64_t N, int64_t K) {
  const int64_t KB = in.KB, NB = in.NB;
  std::vector<double> ref(size_t(in.rows * N));
  for (int g = 0; g < in.G; ++g)
    for (int64_t r = in.offsets[size_t(g)]; r < in.offsets[size_t(g + 1)]; ++r)
      for (int64_t n = 0; n < N; ++n) {
        double acc = 0;
        for (int64_t kb = 0; kb < KB; ++kb) {
          double part = 0;
          for (int64_t k = kb * 128; k < std::min(K, kb * 128 + 128); ++k)
            part += double(formats::e4m3_to_float(in.A[size_t(r * K + k)])) *
                    double(formats::e4m3_to_float(in.W[size_t((g * N + n) * K + k)]));
          acc += part * double(in.sa_rowmajor[size_t(r * KB + kb)]) *
                 double(in.sw_canon[size_t((g * NB + n / 128) * KB + kb)]);
        }
        ref[size_t(r * N + n)] = acc;
      }
  return ref;
}

void run_gemm_case(const std::vector<int32_t>& rows_per_group, int64_t N, int64_t K, uint64_t seed) {
  const GemmInputs in = make_inputs(rows_per_group, N, K, seed);
  const int G = in.G;
  const std::vector<int32_t>& offsets = in.offsets;
  const int64_t rows = in.rows;
  const std::vector<uint8_t>&A = in.A, &W = in.W;
  const std::vector<float>&SA = in.SA, &SW = in.SW;
  const std::vector<double> ref = reference_d(in, N, K);
  DevBuf<uint8_t> dA, dW;
  dA.upload(A.empty() ? std::vector<uint8_t>(16) : A);
  dW.upload(W);
  DevBuf<float> dSA, dSW, dD(size_t((rows + 1) * N));
  dSA.upload(SA.empty() ? std::vector<float>(4) : SA);
  dSW.upload(SW);
  DevBuf<int32_t> dOff;
  dOff.upload(offsets);
  sm90::GroupedGemmFp8Blockwise gemm(G, N, K, 0);
  std::vector<float> large_d, tma_d;  // the large tile's and the TMA kernel's fp32 D, for run_bf16_out below
  for (auto tactic : {sm90::Fp8GemmTactic::kSwapAB, sm90::Fp8GemmTactic::kLargeTile, sm90::Fp8GemmTactic::kTma,
                      sm90::Fp8GemmTactic::kTmaSmall}) {
    SCOPED_TRACE(sm90::fp8_tactic_name(tactic));
    CUDA_CHECK(cudaMemset(dD.p, 0xFF, dD.n * sizeof(float)));  // NaN
    gemm.run(dA.p, dSA.p, dW.p, dSW.p, dD.p, N, dOff.p, std::max<int64_t>(rows, 1), nullptr, tactic);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    const std::vector<float> D = dD.download();
    double num = 0, den = 0;
    int64_t nan = 0;
    for (int64_t i = 0; i < rows * N; ++i) {
      if (std::isnan(D[size_t(i)])) {
        ++nan;
        continue;
      }
      num += (D[size_t(i)] - ref[size_t(i)]) * (D[size_t(i)] - ref[size_t(i)]);
      den += ref[size_t(i)] * ref[size_t(i)];
    }
    EXPECT_EQ(nan, 0) << "unwritten (NaN) elements of D";
    for (int64_t n = 0; n < N; ++n) EXPECT_EQ(fbits(D[size_t(rows * N + n)]), 0xFFFFFFFFu) << "guard row written";
    const double err = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
    std::printf("[fp8 gemm] %s groups %d rows %lld N %lld K %lld: rel-L2 %.3g\n", sm90::fp8_tactic_name(tactic), G,
                (long long)rows, (long long)N, (long long)K, err);
    EXPECT_LE(err, 1e-3);
    if (tactic == sm90::Fp8GemmTactic::kLargeTile) large_d = D;
    if (tactic == sm90::Fp8GemmTactic::kTma) tma_d = D;
    // kTmaSmall: the TMA kernel with one consumer warpgroup and 64-token passes; every element is
    // the same sequence of MMAs and promotions, so D equals kTma's bit for bit.
    if (tactic == sm90::Fp8GemmTactic::kTmaSmall) {
      const int64_t mismatches = bit_mismatches(D, tma_d, rows * N);
      EXPECT_EQ(mismatches, 0) << "kTmaSmall's D differs from kTma's in " << mismatches << " of " << rows * N;
    }
  }
  // The kTma tactic's scale maps start at SA / SW rounded down to 16 bytes (TMA boxes must start
  // on 16-byte aligned elements): scale pointers 0-12 bytes past a 16-byte boundary give the same
  // D, bit for bit.
  for (int lead : {1, 2, 3}) {
    if (rows == 0) break;
    const int sa_lead = lead, sw_lead = (lead + 1) % 4;
    SCOPED_TRACE("kTma, SA " + std::to_string(4 * sa_lead) + " and SW " + std::to_string(4 * sw_lead) +
                 " bytes past a 16-byte boundary");
    std::vector<float> sa_sh(size_t(sa_lead), -1.0f), sw_sh(size_t(sw_lead), -1.0f);
    sa_sh.insert(sa_sh.end(), SA.begin(), SA.end());
    sw_sh.insert(sw_sh.end(), SW.begin(), SW.end());
    DevBuf<float> dSAs, dSWs;
    dSAs.upload(sa_sh);
    dSWs.upload(sw_sh);
    CUDA_CHECK(cudaMemset(dD.p, 0xFF, dD.n * sizeof(float)));
    gemm.run(dA.p, dSAs.p + sa_lead, dW.p, dSWs.p + sw_lead, dD.p, N, dOff.p, rows, nullptr,
             sm90::Fp8GemmTactic::kTma);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    const std::vector<float> D = dD.download();
    const int64_t mismatches = bit_mismatches(D, tma_d, rows * N);
    EXPECT_EQ(mismatches, 0) << "D differs from the aligned run in " << mismatches << " of " << rows * N;
    for (int64_t n = 0; n < N; ++n) EXPECT_EQ(fbits(D[size_t(rows * N + n)]), 0xFFFFFFFFu) << "guard row written";
  }
  // run_bf16_out: the tactic's fp32 result rounded to nearest bf16, bit for bit; the guard row
  // and rows outside the groups stay poisoned.
  for (auto tactic : {sm90::Fp8GemmTactic::kLargeTile, sm90::Fp8GemmTactic::kTma, sm90::Fp8GemmTactic::kTmaSmall}) {
    SCOPED_TRACE(std::string("bf16 D, ") + sm90::fp8_tactic_name(tactic));
    const std::vector<float>& fp32_d = tactic == sm90::Fp8GemmTactic::kLargeTile ? large_d : tma_d;
    DevBuf<uint16_t> dD16(size_t((rows + 1) * N));
    CUDA_CHECK(cudaMemset(dD16.p, 0xFF, dD16.n * sizeof(uint16_t)));
    gemm.run_bf16_out(dA.p, dSA.p, dW.p, dSW.p, dD16.p, N, dOff.p, std::max<int64_t>(rows, 1), nullptr, tactic);
    CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaGetLastError());
    const std::vector<uint16_t> D16 = dD16.download();
    int64_t mismatches = 0;
    for (int64_t i = 0; i < rows * N; ++i) mismatches += D16[size_t(i)] != formats::float_to_bf16_bits(fp32_d[size_t(i)]);
    EXPECT_EQ(mismatches, 0) << "bf16 D != bf16(fp32 D) in " << mismatches << " of " << rows * N << " elements";
    for (int64_t n = 0; n < N; ++n) EXPECT_EQ(D16[size_t(rows * N + n)], 0xFFFFu) << "guard row written (bf16 D)";
  }
}

TEST(Fp8Gemm, BothTacticsMatchFloat64Product) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  run_gemm_case({0, 1, 70, 200, 3, 0}, 256, 384, case_seed("gemm a"));
  run_gemm_case({130, 0, 257, 64, 1, 5, 33, 128}, 512, 256, case_seed("gemm b"));
  // At most 16 rows per group on average: swap-AB runs its 32-wide token tile (choose_fp8_swap_tile).
  ASSERT_EQ(sm90::choose_fp8_swap_tile(59, 7), 32);
  ASSERT_EQ(sm90::choose_fp8_swap_tile(274, 6), 64);
  run_gemm_case({0, 1, 9, 16, 3, 0, 30}, 256, 384, case_seed("gemm c"));
}

// More tiles than CTAs (20 experts x 2 passes x 8 column blocks = 320 tiles on <= 132 persistent
// CTAs; the narrow tactic: 3 passes of 64): every CTA runs several tiles, so the staged bf16
// epilogue's held stage (the last of each tile's two K steps) meets the producer's next fills.
TEST(Fp8Gemm, ManyTilesPerCta) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  SCOPED_TRACE(sm90::fp8_tma_stages_bf16_d() ? "staged bf16 D" : "direct bf16 D");
  std::vector<int32_t> rows(20, 130);
  rows[7] = 5;  // a pass with rows in one warp only
  run_gemm_case(rows, 1024, 256, case_seed("gemm many tiles"));
}

// K and N not multiples of 128 (the backend's gpt-oss shapes: K = H or I = 2880 = 22.5 x 128, N =
// 2880): the last K block and the last N block are partial, each with its own scale; nothing is
// written past N (the guard row and the NaN poison catch stray or missing stores).
TEST(Fp8Gemm, PartialBlocksSmall) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  run_gemm_case({0, 5, 70, 130, 1}, 320, 208, case_seed("gemm partial a"));   // N 2.5 blocks, K 1.625
  run_gemm_case({3, 64, 0, 17}, 144, 2880, case_seed("gemm partial b"));      // N 1.125 blocks, K 22.5
  run_gemm_case({40, 200}, 2880, 336, case_seed("gemm partial c"));           // N 22.5 blocks, K 2.625
  run_gemm_case({3, 16, 0, 5}, 320, 208, case_seed("gemm partial d"));        // 32-wide token tile
}

// D with a row pitch ldd > N (fp32 or bf16 D, the large-tile and kTma tactics): the float64 product
// in columns [0, N) of each row; the padding columns [N, ldd) and the guard row stay poisoned.
void run_pitched_case(const std::vector<int32_t>& rows_per_group, int64_t N, int64_t ldd, bool bf16,
                      sm90::Fp8GemmTactic tactic, uint64_t seed) {
  const GemmInputs in = make_inputs(rows_per_group, N, 256, seed);
  const int64_t rows = in.rows;
  const std::vector<double> ref = reference_d(in, N, 256);
  DevBuf<uint8_t> dA, dW;
  dA.upload(in.A);
  dW.upload(in.W);
  DevBuf<float> dSA, dSW;
  dSA.upload(in.SA);
  dSW.upload(in.SW);
  DevBuf<int32_t> dOff;
  dOff.upload(in.offsets);
  const size_t elem = bf16 ? 2 : 4, n_elems = size_t((rows + 1) * ldd);
  DevBuf<uint8_t> dD(n_elems * elem);
  CUDA_CHECK(cudaMemset(dD.p, 0xFF, dD.n));
  sm90::GroupedGemmFp8Blockwise gemm(in.G, N, 256, 0);
  if (bf16)
    gemm.run_bf16_out(dA.p, dSA.p, dW.p, dSW.p, dD.p, ldd, dOff.p, rows, nullptr, tactic);
  else
    gemm.run(dA.p, dSA.p, dW.p, dSW.p, reinterpret_cast<float*>(dD.p), ldd, dOff.p, rows, nullptr, tactic);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaGetLastError());
  const std::vector<uint8_t> D = dD.download();
  auto value = [&](int64_t i) {
    if (bf16) {
      uint16_t b;
      std::memcpy(&b, &D[size_t(i) * 2], 2);
      return formats::bf16_bits_to_float(b);
    }
    float f;
    std::memcpy(&f, &D[size_t(i) * 4], 4);
    return f;
  };
  auto poisoned = [&](int64_t i) {
    for (size_t b = 0; b < elem; ++b)
      if (D[size_t(i) * elem + b] != 0xFF) return false;
    return true;
  };
  double num = 0, den = 0;
  int64_t unwritten = 0, stray = 0;
  for (int64_t r = 0; r <= rows; ++r)
    for (int64_t n = 0; n < ldd; ++n) {
      const int64_t i = r * ldd + n;
      if (r == rows || n >= N) {
        stray += !poisoned(i);
        continue;
      }
      const double v = value(i), e = ref[size_t(r * N + n)];
      if (std::isnan(v)) {
        ++unwritten;
        continue;
      }
      num += (v - e) * (v - e);
      den += e * e;
    }
  EXPECT_EQ(unwritten, 0) << "unwritten (NaN) elements of D";
  EXPECT_EQ(stray, 0) << "elements written past N or into the guard row";
  const double err = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  EXPECT_LE(err, bf16 ? 8e-3 : 1e-3) << sm90::fp8_tactic_name(tactic) << (bf16 ? ", bf16" : ", fp32") << " D, N "
                                     << N << ", ldd " << ldd;
}

TEST(Fp8Gemm, PitchedRowsSmall) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (auto tactic : {sm90::Fp8GemmTactic::kLargeTile, sm90::Fp8GemmTactic::kTma, sm90::Fp8GemmTactic::kTmaSmall}) {
    SCOPED_TRACE(sm90::fp8_tactic_name(tactic));
    run_pitched_case({0, 7, 150, 64, 1}, 256, 268, /*bf16=*/false, tactic, case_seed("pitched fp32"));
    run_pitched_case({5, 200, 0, 64}, 264, 280, /*bf16=*/true, tactic, case_seed("pitched bf16"));
  }
}

// run_act (FC1 with the activation and the 1x128 quantization of a in the kTma kernel's epilogue)
// against the same kernel's fp32 h followed by the separate activation-quantize kernel
// (launch_activation_quant_fp8): codes and scales bit for bit, for every activation, with and
// without biases; rows outside the groups and the guard row stay poisoned. I = 192 has a partial
// last 128-group (its second half of gate rows is past I). `narrow`: run_act on the kTmaSmall
// geometry (split_tma_small_act), whose h is the kTma tactic's bit for bit.
void run_fused_act_case(const std::vector<int32_t>& rows_per_group, int64_t I, int64_t K, Activation act, bool bias,
                        bool narrow, uint64_t seed) {
  const bool gated = act != Activation::kReLU2;
  const int64_t N = gated ? 2 * I : I, IB = (I + 127) / 128;
  const GemmInputs in = make_inputs(rows_per_group, N, K, seed);
  const int64_t rows = in.rows;
  std::vector<float> b13(size_t(in.G * N));
  std::mt19937_64 rng(seed ^ 0xB13);
  std::normal_distribution<float> nd(0.0f, 4.0f);
  for (auto& b : b13) b = nd(rng);
  std::vector<int32_t> row_expert(size_t(std::max<int64_t>(rows, 1)), 0);
  for (int g = 0; g < in.G; ++g)
    for (int32_t r = in.offsets[size_t(g)]; r < in.offsets[size_t(g + 1)]; ++r) row_expert[size_t(r)] = g;
  DevBuf<uint8_t> dA, dW;
  dA.upload(in.A.empty() ? std::vector<uint8_t>(16) : in.A);
  dW.upload(in.W);
  DevBuf<float> dSA, dSW, dB13, dH(size_t(std::max<int64_t>(rows, 1) * N));
  dSA.upload(in.SA.empty() ? std::vector<float>(4) : in.SA);
  dSW.upload(in.SW);
  dB13.upload(b13);
  DevBuf<int32_t> dOff, dRowExpert;
  dOff.upload(in.offsets);
  dRowExpert.upload(row_expert);
  sm90::GroupedGemmFp8Blockwise gemm(in.G, N, K, 0);
  const int64_t bound = std::max<int64_t>(rows, 1);
  sm90::ActivationParams ap;
  ap.activation = act;
  ap.limit = act == Activation::kSwiGLUOAI ? 7.0f : INFINITY;
  ap.alpha = 1.702f;
  // Separate: h (kTma, fp32), then the activation-quantize kernel. Fused: run_act.
  DevBuf<uint8_t> q_sep(size_t((rows + 1) * I)), q_fused(size_t((rows + 1) * I));
  DevBuf<float> s_sep(size_t((rows + 1) * IB)), s_fused(size_t((rows + 1) * IB));
  for (auto* b : {&q_sep, &q_fused}) CUDA_CHECK(cudaMemset(b->p, 0xFF, b->n));
  for (auto* b : {&s_sep, &s_fused}) CUDA_CHECK(cudaMemset(b->p, 0xFF, b->n * sizeof(float)));
  gemm.run(dA.p, dSA.p, dW.p, dSW.p, dH.p, N, dOff.p, bound, nullptr, sm90::Fp8GemmTactic::kTma);
  sm90::launch_activation_quant_fp8(dH.p, bias ? dB13.p : nullptr, dRowExpert.p, dOff.p, in.G, bound, I, ap, q_sep.p,
                                    s_sep.p, nullptr);
  const sm90::ActEpilogueArgs epi{act, ap.limit, ap.alpha, bias ? dB13.p : nullptr};
  gemm.run_act(dA.p, dSA.p, dW.p, dSW.p, epi, I, q_fused.p, s_fused.p, dOff.p, bound, nullptr, narrow);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaGetLastError());
  const std::vector<uint8_t> qa = q_sep.download(), qb = q_fused.download();
  const std::vector<float> sa = s_sep.download(), sb = s_fused.download();
  int64_t code_mismatch = 0, scale_mismatch = 0, guard = 0, nonzero = 0;
  for (int64_t i = 0; i < rows * I; ++i) {
    code_mismatch += qa[size_t(i)] != qb[size_t(i)];
    nonzero += (qb[size_t(i)] & 0x7F) != 0;
  }
  for (int64_t i = 0; i < rows * IB; ++i) scale_mismatch += fbits(sa[size_t(i)]) != fbits(sb[size_t(i)]);
  for (int64_t i = rows * I; i < (rows + 1) * I; ++i) guard += qb[size_t(i)] != 0xFF;
  for (int64_t i = rows * IB; i < (rows + 1) * IB; ++i) guard += fbits(sb[size_t(i)]) != 0xFFFFFFFFu;
  std::printf("[fp8 fused act] %s bias %d narrow %d rows %lld I %lld K %lld: %lld / %lld codes differ, %lld / %lld "
              "scales, %lld nonzero codes\n",
              activation_name(act), int(bias), int(narrow), (long long)rows, (long long)I, (long long)K, (long long)code_mismatch,
              (long long)(rows * I), (long long)scale_mismatch, (long long)(rows * IB), (long long)nonzero);
  EXPECT_EQ(code_mismatch, 0);
  EXPECT_EQ(scale_mismatch, 0);
  EXPECT_EQ(guard, 0) << "guard row written";
  if (rows > 0) EXPECT_GT(nonzero, rows * I / 8) << "a is mostly zero: the comparison proves little";
}

TEST(Fp8Gemm, FusedActivationEqualsSeparateKernelSmall) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Activation act : {Activation::kSwiGLU, Activation::kSwiGLUOAI, Activation::kGeGLU, Activation::kReLU2})
    for (bool bias : {false, true})
      for (bool narrow : {false, true}) {  // the kTma and the kTmaSmall geometry
        SCOPED_TRACE(std::string(activation_name(act)) + (bias ? " bias" : "") + (narrow ? " narrow" : ""));
        run_fused_act_case({0, 1, 70, 130, 3, 64, 0}, 192, 208, act, bias, narrow, case_seed("fused act a"));
        run_fused_act_case({257, 9}, 256, 384, act, bias, narrow, case_seed("fused act b"));
        // an odd number of 128-column blocks
        run_fused_act_case({130, 0, 7}, 320, 256, act, bias, narrow, case_seed("fused act c"));
      }
}

TEST(Fp8Gemm, FusedActivationRefusesBadShapes) {
  MEGAMOE_REQUIRE_SM90();
  sm90::GroupedGemmFp8Blockwise gemm(2, 2 * 96, 128, 0);  // I = 96: not a multiple of 64
  DevBuf<uint8_t> buf(size_t(1) << 20);
  DevBuf<float> sc(4096);
  DevBuf<int32_t> off(3);
  const sm90::ActEpilogueArgs epi{Activation::kSwiGLU, INFINITY, 1.702f, nullptr};
  try {
    gemm.run_act(buf.p, sc.p, buf.p, sc.p, epi, 96, buf.p, sc.p, off.p, 16, nullptr);
    ADD_FAILURE() << "I = 96 accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("I"), std::string::npos) << e.what();
  }
  sm90::GroupedGemmFp8Blockwise gemm2(2, 256, 128, 0);  // N = 256 but relu2 with I = 128 needs N = 128
  const sm90::ActEpilogueArgs relu{Activation::kReLU2, INFINITY, 1.702f, nullptr};
  try {
    gemm2.run_act(buf.p, sc.p, buf.p, sc.p, relu, 128, buf.p, sc.p, off.p, 16, nullptr);
    ADD_FAILURE() << "N = 256 accepted for relu2 with I = 128";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("N"), std::string::npos) << e.what();
  }
}

// The dynamic tile order's tile count (take_tma_tile_count): a launch runs exactly the tiles its
// output needs, ceil(rows / tile rows) passes of each expert with rows times the column blocks of the
// tile's width, each once (the kernel's last CTA traps otherwise). Output comparisons cannot see a
// tile that multiplies and stores nothing (session 58's first paired plain kernel walked twice its
// tiles and passed every product test). MEGAMOE_FP8_TMA_DYNAMIC (grouped_gemm_fp8_tma.cu): 1 (the
// default) draws tickets in the two-warpgroup kernels, 2 in the narrow one too, 0 nowhere (then no
// launch records a count: -1).
TEST(Fp8Gemm, DynamicOrderRunsEveryTileOnce) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const char* env = std::getenv("MEGAMOE_FP8_TMA_DYNAMIC");
  const int dynamic = env ? std::atoi(env) : 1;
  const char* paired_env = std::getenv("MEGAMOE_FP8_TMA_PAIRED");
  const bool paired = paired_env == nullptr || std::atoi(paired_env) != 0;
  const std::vector<int32_t> rows_per_group = {0, 1, 70, 200, 3, 0, 130, 257};
  auto tiles = [&](int tok_rows, int64_t cols, int tile_cols) {
    int64_t t = 0;
    for (int32_t r : rows_per_group) t += (r + tok_rows - 1) / tok_rows;
    return t * ((cols + tile_cols - 1) / tile_cols);
  };
  const int64_t K = 256;
  // N = 512: four 128-row blocks (the paired kernel's 256-column tiles); 384 and 2880: an odd count.
  for (int64_t N : {int64_t(512), int64_t(384), int64_t(2880)}) {
    const GemmInputs in = make_inputs(rows_per_group, N, K, case_seed("tile count"));
    DevBuf<uint8_t> dA, dW;
    dA.upload(in.A);
    dW.upload(in.W);
    DevBuf<float> dSA, dSW, dD(size_t(in.rows * N));
    dSA.upload(in.SA);
    dSW.upload(in.SW);
    DevBuf<int32_t> dOff;
    dOff.upload(in.offsets);
    sm90::GroupedGemmFp8Blockwise gemm(in.G, N, K, 0);
    EXPECT_EQ(gemm.take_tma_tile_count(), -1) << "a count before any launch";
    for (bool narrow : {false, true})
      for (bool bf16 : {false, true}) {
        SCOPED_TRACE("N " + std::to_string(N) + (narrow ? " narrow" : " wide") + (bf16 ? " bf16 D" : " fp32 D"));
        const auto tactic = narrow ? sm90::Fp8GemmTactic::kTmaSmall : sm90::Fp8GemmTactic::kTma;
        CUDA_CHECK(cudaMemset(dD.p, 0xFF, dD.n * sizeof(float)));
        if (bf16)
          gemm.run_bf16_out(dA.p, dSA.p, dW.p, dSW.p, dD.p, N, dOff.p, in.rows, nullptr, tactic);
        else
          gemm.run(dA.p, dSA.p, dW.p, dSW.p, dD.p, N, dOff.p, in.rows, nullptr, tactic);
        const int count = gemm.take_tma_tile_count();
        CUDA_CHECK(cudaGetLastError());
        const int cols = sm90::fp8_tma_plain_tile_cols(N, narrow);
        EXPECT_EQ(cols, !narrow && paired && ((N + 127) / 128) % 2 == 0 ? 256 : 128)
            << "the tile width the host launched";
        const bool counted = dynamic >= (narrow ? 2 : 1);
        EXPECT_EQ(count, counted ? tiles(narrow ? 64 : 128, N, cols) : -1);
        // Every element of D written (the product itself: the other Fp8Gemm tests).
        const std::vector<float> D = dD.download();
        int64_t unwritten = 0;
        if (bf16) {
          const uint16_t* d16 = reinterpret_cast<const uint16_t*>(D.data());
          for (int64_t i = 0; i < in.rows * N; ++i) unwritten += d16[i] == 0xFFFFu;
        } else {
          for (int64_t i = 0; i < in.rows * N; ++i) unwritten += fbits(D[size_t(i)]) == 0xFFFFFFFFu;
        }
        EXPECT_EQ(unwritten, 0);
      }
    // FC1 with the activation epilogue (gated: N = 2I, I a multiple of 64): 128-column tiles of a.
    if ((N / 2) % 64 == 0) {
      const int64_t I = N / 2, IB = (I + 127) / 128;
      DevBuf<uint8_t> q(size_t(in.rows * I));
      DevBuf<float> s(size_t(in.rows * IB));
      const sm90::ActEpilogueArgs epi{Activation::kSwiGLU, INFINITY, 1.702f, nullptr};
      for (bool narrow : {false, true}) {
        SCOPED_TRACE("run_act I " + std::to_string(I) + (narrow ? " narrow" : " wide"));
        gemm.run_act(dA.p, dSA.p, dW.p, dSW.p, epi, I, q.p, s.p, dOff.p, in.rows, nullptr, narrow);
        const int count = gemm.take_tma_tile_count();
        CUDA_CHECK(cudaGetLastError());
        EXPECT_EQ(count, dynamic >= (narrow ? 2 : 1) ? tiles(narrow ? 64 : 128, I, 128) : -1);
      }
    }
  }
}

// run_bf16_out stores 16-byte bf16 vectors: ldd must be a multiple of 8 elements and at least N.
TEST(Fp8Gemm, Bf16OutRefusesBadLeadingDimension) {
  MEGAMOE_REQUIRE_SM90();
  sm90::GroupedGemmFp8Blockwise gemm(2, 256, 128, 0);
  DevBuf<uint8_t> buf(size_t(1) << 20);
  DevBuf<float> sc(4096);
  DevBuf<int32_t> off(3);
  for (int64_t ldd : {int64_t(252), int64_t(260)}) {
    try {
      gemm.run_bf16_out(buf.p, sc.p, buf.p, sc.p, buf.p, ldd, off.p, 16, nullptr);
      ADD_FAILURE() << "ldd " << ldd << " accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("ldd"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace megamoe::gputest
