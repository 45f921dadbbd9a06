// GPU tests of FC1 with the activation in the grouped bf16 GEMM's epilogue
// (GroupedGemmOutput::kAct, src/kernels/sm90/gemm/act_epilogue.cuh) and of the gate/up interleaved
// W13 layout (src/kernels/sm90/common/gate_up_layout.h) it needs.
//
// For every activation, with and without b13, and for every kernel of the dispatcher (swap-AB
// 32- and 64-wide token tiles, the 128x256 large tile) and our TMA-fed small kernel
// (grouped_gemm_bf16_small_tma.cu, 32- and 64-token passes, one and two K steps a stage) and our
// large TMA kernel (grouped_gemm_bf16_large_tma.cu, passes of 32 .. 320 tokens, the three pass modes):
//   - bitwise: a from run_act equals FC1 to fp32 h (the plain epilogue, run()) followed by the
//     activation kernel reading interleaved h -- the pipeline before the fusion;
//   - against a float64 CPU loop over the canonical W13 (the interleave undone by construction)
//     with the CPU reference's activation (reference::activation_value): within bf16 rounding;
//   - rows outside the groups and the padding columns of a's row stride stay untouched (poison);
//   - I = 200 and K = 200: ragged tiles along both GEMM dimensions (K = 320 for our kernel's
//     two-step stages); zero-row groups.
// Bad input: kAct before set_activation() and a row stride under I are refused.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_small_tma.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/errors.h"
#include "reference/reference.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

using sm90::GroupedGemmBf16;
using sm90::GroupedGemmTactic;

constexpr uint16_t kPoison = 0x7FC1;  // a bf16 quiet NaN with a payload no kernel writes

float bf16_to_float(uint16_t b) { return formats::bf16_bits_to_float(b); }

struct ActProblem {
  Activation act;
  bool bias;
  GroupedGemmTactic tactic;
  bool small_tma;         // our TMA-fed small kernel (grouped_gemm_bf16_small_tma.cu) instead of the dispatcher's
  int large_tma;          // -1: not; 0 / 1 / 2: our large TMA kernel with that pass mode (pass_mode)
  int64_t K;              // 200: a partial last K step; 320: five 64-wide parts (our small kernel's two-step stages)
  std::vector<int> rows;  // per group
  int64_t bound;          // host upper bound on the rows (picks the kernel)
};

void run_case(const ActProblem& pc, const std::string& name) {
  SCOPED_TRACE(name);
  constexpr int64_t I = 200, kPad = 8;  // ragged tiles along N / M (and K at K = 200)
  const int64_t K = pc.K;
  const bool gated = pc.act != Activation::kReLU2;
  const int G = int(pc.rows.size());
  const int64_t N13 = gated ? 2 * I : I, lda_out = I + kPad;
  std::vector<int32_t> offsets(G + 1, 0);
  for (int g = 0; g < G; ++g) offsets[g + 1] = offsets[g] + pc.rows[g];
  const int64_t rows = offsets[G], tail = 256, all_rows = rows + tail;  // a pass overshoots by <= 255 rows
  const uint64_t seed = case_seed(name);
  std::vector<uint16_t> A(size_t(all_rows * K)), W(size_t(G * N13 * K));
  fill_bf16(A, seed, 1, 1.0f);
  fill_bf16(W, seed, 2, 0.25f);  // h of order 1: every activation's interesting range
  std::vector<float> b13(pc.bias ? size_t(G * N13) : 0);
  fill_f32(b13, seed, 3, 0.5f);
  // W13 as the backends store it: gate/up interleaved when gated.
  std::vector<uint16_t> Wi(W.size());
  for (int g = 0; g < G; ++g)
    for (int64_t n = 0; n < N13; ++n) {
      const int64_t p = gated ? sm90::gate_up::physical_row(n % I, n >= I) : n;
      std::memcpy(&Wi[size_t((g * N13 + p) * K)], &W[size_t((g * N13 + n) * K)], size_t(K) * 2);
    }
  std::vector<int32_t> row_expert(size_t(std::max<int64_t>(rows, 1)), 0);
  for (int g = 0; g < G; ++g)
    for (int32_t r = offsets[g]; r < offsets[g + 1]; ++r) row_expert[size_t(r)] = g;

  DevBuf<uint16_t> dA, dW, da_ref, da;
  DevBuf<float> dh, db13;
  DevBuf<int32_t> doff, drow_expert, dsched;
  dA.upload(A);
  dW.upload(Wi);
  if (pc.bias) db13.upload(b13);
  doff.upload(offsets);
  drow_expert.upload(row_expert);
  dh.alloc(size_t(all_rows * N13));
  da_ref.upload(std::vector<uint16_t>(size_t(all_rows * I), kPoison));
  da.upload(std::vector<uint16_t>(size_t(all_rows * lda_out), kPoison));

  GroupedGemmBf16 gemm(G, N13, K, 0);
  const float limit = pc.act == Activation::kSwiGLUOAI ? 7.0f : INFINITY, alpha = 1.702f;
  sm90::ActEpilogueArgs args{pc.act, limit, alpha, pc.bias ? db13.p : nullptr};
  gemm.set_activation(args);
  cudaStream_t s;
  CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  // The pipeline before the fusion: fp32 h, then the activation kernel (interleaved h).
  sm90::Bf16GemmOperands ops;  // our two kernels' shared operands (D and ldd set below)
  ops.A = dA.p;
  ops.lda = K;
  ops.W = dW.p;
  ops.offsets = doff.p;
  ops.num_groups = G;
  ops.N = N13;
  ops.K = K;
  ops.act = args;
  sm90::bf16_small::Bf16SmallTmaArgs sa;
  static_cast<sm90::Bf16GemmOperands&>(sa) = ops;
  sm90::bf16_large::Bf16LargeTmaArgs la;
  static_cast<sm90::Bf16GemmOperands&>(la) = ops;
  la.pass_mode = pc.large_tma;
  // Pass mode 0 with paired stores, 1 with single ones, 2 with the staged epilogue (for a; its fp32
  // h launch pairs).
  la.stores = pc.large_tma == 1 ? 0 : pc.large_tma == 0 ? 1 : 2;
  if (pc.large_tma == 2) {  // pass mode 2 (the default) in the dynamic tile order, both launches on one counter
    dsched.upload(std::vector<int32_t>{0, 0, 0, 0});
    la.dynamic_tiles = 1;
    la.tile_counter = dsched.p;
  } else {
    la.dynamic_tiles = 0;
  }
  if (pc.large_tma >= 0) {
    la.D = dh.p;
    la.ldd = N13;
    la.out = sm90::bf16_large::LargeTmaOut::kF32;
    sm90::bf16_large::launch_bf16_large_tma(la, pc.bound, s);
  } else if (pc.small_tma) {
    sa.D = dh.p;
    sa.ldd = N13;
    sm90::bf16_small::launch_bf16_small_tma(sa, pc.bound, s);
  } else {
    gemm.run(dA.p, K, dW.p, dh.p, N13, doff.p, pc.bound, s, pc.tactic);
  }
  sm90::ActivationParams ap;
  ap.activation = pc.act;
  ap.limit = limit;
  ap.alpha = alpha;
  ap.gate_up_interleaved = gated;
  sm90::launch_activation(dh.p, pc.bias ? db13.p : nullptr, drow_expert.p, doff.p + G, std::max<int64_t>(rows, 1), I,
                          ap, da_ref.p, s);
  if (pc.large_tma >= 0) {
    la.D = da.p;
    la.ldd = lda_out;
    la.out = sm90::bf16_large::LargeTmaOut::kAct;
    EXPECT_EQ(sm90::bf16_large::launch_store_mode(la), la.stores) << "the store mode of a";
    sm90::bf16_large::launch_bf16_large_tma(la, pc.bound, s);
  } else if (pc.small_tma) {
    sa.D = da.p;
    sa.ldd = lda_out;
    sa.act_out = true;
    sm90::bf16_small::launch_bf16_small_tma(sa, pc.bound, s);
  } else {
    gemm.run_act(dA.p, K, dW.p, da.p, lda_out, doff.p, pc.bound, s, pc.tactic);
  }
  CUDA_CHECK(cudaStreamSynchronize(s));
  CUDA_CHECK(cudaStreamDestroy(s));
  const std::vector<uint16_t> ref = da_ref.download(), got = da.download();

  int64_t mismatches = 0, untouched_bad = 0, cpu_bad = 0;
  for (int64_t r = 0; r < all_rows; ++r) {
    const int g = r < rows ? row_expert[size_t(r)] : -1;
    for (int64_t j = 0; j < lda_out; ++j) {
      const uint16_t v = got[size_t(r * lda_out + j)];
      if (r >= rows || j >= I) {
        untouched_bad += v != kPoison;
        continue;
      }
      mismatches += v != ref[size_t(r * I + j)];
      // float64 CPU loop on canonical W13 (every row of small problems, every 7th row otherwise)
      if (rows > 64 && r % 7 != 0) continue;
      double hg = 0.0, hu = 0.0;
      const uint16_t* a_row = &A[size_t(r * K)];
      const uint16_t* wg = &W[size_t((g * N13 + j) * K)];
      const uint16_t* wu = gated ? &W[size_t((g * N13 + I + j) * K)] : nullptr;
      for (int64_t k = 0; k < K; ++k) {
        hg += double(bf16_to_float(a_row[k])) * bf16_to_float(wg[k]);
        if (wu) hu += double(bf16_to_float(a_row[k])) * bf16_to_float(wu[k]);
      }
      if (pc.bias) {
        hg += b13[size_t(g * N13 + j)];
        if (gated) hu += b13[size_t(g * N13 + I + j)];
      }
      const float want = reference::activation_value(pc.act, float(hg), float(hu), limit, alpha);
      const float have = bf16_to_float(v);
      if (!(std::fabs(have - want) <= 1e-2f * std::fabs(want) + 1e-3f)) ++cpu_bad;
    }
  }
  EXPECT_EQ(mismatches, 0) << "run_act differs from fp32 h + the activation kernel";
  EXPECT_EQ(untouched_bad, 0) << "rows outside the groups or a's padding columns were written";
  EXPECT_EQ(cpu_bad, 0) << "a differs from the float64 CPU loop on canonical W13";
}

std::vector<int> random_rows(int G, int total, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> rows(G, 0);
  for (int i = 0; i < total; ++i) rows[size_t(rng() % uint64_t(G - 1))]++;  // the last group stays empty
  return rows;
}

const char* act_name(Activation a) {
  switch (a) {
    case Activation::kSwiGLU: return "swiglu";
    case Activation::kSwiGLUOAI: return "swiglu_oai";
    case Activation::kGeGLU: return "geglu";
    case Activation::kReLU2: return "relu2";
  }
  return "?";
}

TEST(GemmBf16Act, FusedEqualsUnfusedAndCpuForEveryActivationAndKernel) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  struct Shape {
    const char* kernel;
    GroupedGemmTactic tactic;
    bool small_tma;
    int large_tma;
    int G, total;
    int64_t K;
  };
  // Average rows per group: 3 (swap-AB 32-wide), 20 (64-wide), 90 (large tile); our small TMA
  // kernel at 3 (32-token passes) and 37 (64-token passes, groups of more than 64 rows: two).
  // Our small kernel at K = 200 (one K step a stage, a partial last step) and K = 320 (two steps a
  // stage: five 64-wide parts, a last stage half past K).
  // Our large kernel (rows below, not random: every pass width), the three pass modes, K = 200.
  const Shape shapes[] = {{"swap32", GroupedGemmTactic::kSwapAB, false, -1, 8, 24, 200},
                          {"swap64", GroupedGemmTactic::kSwapAB, false, -1, 8, 160, 200},
                          {"large", GroupedGemmTactic::kLargeTile, false, -1, 6, 540, 200},
                          {"small_tma32", GroupedGemmTactic::kSwapAB, true, -1, 8, 24, 200},
                          {"small_tma64", GroupedGemmTactic::kSwapAB, true, -1, 8, 300, 200},
                          {"small_tma32_2steps", GroupedGemmTactic::kSwapAB, true, -1, 8, 24, 320},
                          {"small_tma64_2steps", GroupedGemmTactic::kSwapAB, true, -1, 8, 300, 320},
                          {"large_tma", GroupedGemmTactic::kLargeTile, false, 0, 6, 1500, 200},
                          {"large_tma_balanced", GroupedGemmTactic::kLargeTile, false, 1, 6, 1500, 200},
                          {"large_tma_320", GroupedGemmTactic::kLargeTile, false, 2, 6, 1500, 200}};
  for (Activation act : {Activation::kSwiGLU, Activation::kSwiGLUOAI, Activation::kGeGLU, Activation::kReLU2})
    for (bool bias : {false, true})
      for (const Shape& sh : shapes) {
        const std::string name = std::string(act_name(act)) + (bias ? " bias " : " ") + sh.kernel;
        if (sh.large_tma >= 0) {  // rows for every one-MMA width (32 .. 256), both two-MMA widths, 3 passes
          const std::vector<int> rows = {1, 40, 70, 100, 130, 170, 200, 230, 256, 270, 300, 320, 600, 0};
          int total = 0;
          for (int r : rows) total += r;
          run_case({act, bias, sh.tactic, false, sh.large_tma, sh.K, rows, total}, name);
          continue;
        }
        run_case({act, bias, sh.tactic, sh.small_tma, sh.large_tma, sh.K, random_rows(sh.G, sh.total, case_seed(name)),
                  sh.total},
                 name);
      }
}

// Our large kernel's staged epilogue for every activation on a small problem (a pass of each
// staged width kind: 128..256 one MMA, both two-MMA widths), for compute-sanitizer.
TEST(GemmBf16Act, LargeTmaStagedForSanitizers) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const std::vector<int> rows = {130, 0, 250, 270, 300};
  for (Activation act : {Activation::kSwiGLU, Activation::kReLU2})
    run_case({act, true, GroupedGemmTactic::kLargeTile, false, 2, 200, rows, 950},
             std::string("sanitizer ") + act_name(act) + " large_tma staged");
}

TEST(GemmBf16Act, RefusesBadUse) {
  MEGAMOE_REQUIRE_SM90();
  GroupedGemmBf16 gemm(2, 256, 128, 0);
  DevBuf<uint16_t> A(64 * 128), W(2 * 256 * 128), a(64 * 256);
  DevBuf<int32_t> off(3);
  off.upload({0, 10, 20});
  EXPECT_THROW(gemm.run_act(A.p, 128, W.p, a.p, 128, off.p, 20, nullptr, GroupedGemmTactic::kSwapAB), InvalidArgument)
      << "kAct before set_activation()";
  gemm.set_activation({Activation::kSwiGLU, INFINITY, 1.702f, nullptr});
  EXPECT_THROW(gemm.run_act(A.p, 128, W.p, a.p, 120, off.p, 20, nullptr, GroupedGemmTactic::kSwapAB), InvalidArgument)
      << "a's row stride under I";
  EXPECT_THROW(gemm.run_act(A.p, 128, W.p, a.p, 132, off.p, 20, nullptr, GroupedGemmTactic::kSwapAB), InvalidArgument)
      << "a's row stride not a multiple of 8";
  GroupedGemmBf16 odd(2, 200, 128, 0);
  EXPECT_THROW(odd.set_activation({Activation::kSwiGLU, INFINITY, 1.702f, nullptr}), InvalidArgument)
      << "gated with N = 2I, I not a multiple of 8";
}

}  // namespace
}  // namespace megamoe::gputest
