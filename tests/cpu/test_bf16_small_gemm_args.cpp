// launch_bf16_small_tma (the bf16 split backend's split_tma_small GEMM) checks its arguments on the
// host before any CUDA call, so the refusals are testable on a machine without a GPU: each bad
// argument is an InvalidArgument naming it, never a faulting TMA copy or a silently wrong product.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "megamoe/errors.h"

#if MEGAMOE_WITH_CUDA
#include "kernels/sm90/gemm/grouped_gemm_bf16_small_tma.h"

namespace megamoe {
namespace {

alignas(16) uint8_t g_buf[4096];

// A valid FC1 call with the swiglu epilogue: G = 2, N = 2I = 256, K = 128.
sm90::bf16_small::Bf16SmallTmaArgs valid_args() {
  sm90::bf16_small::Bf16SmallTmaArgs a;
  a.A = g_buf;
  a.lda = 128;
  a.W = g_buf;
  a.D = g_buf;
  a.ldd = 128;
  a.offsets = reinterpret_cast<const int32_t*>(g_buf);
  a.num_groups = 2;
  a.N = 256;
  a.K = 128;
  a.act_out = true;
  a.act.activation = Activation::kSwiGLU;
  return a;
}

struct BadCase {
  const char* what;
  std::string argument;  // the name the error must carry
  std::function<void(sm90::bf16_small::Bf16SmallTmaArgs&)> spoil;
};

TEST(Bf16SmallArgs, BadArgumentsAreRefusedByName) {
  const std::vector<BadCase> cases = {
      {"K not a multiple of 8", "K", [](auto& a) { a.K = 100; }},
      {"K zero", "K", [](auto& a) { a.K = 0; }},
      {"N negative", "N", [](auto& a) { a.N = -128; }},
      {"gated N not a multiple of 16", "N", [](auto& a) { a.N = 264; }},
      {"lda below K", "lda", [](auto& a) { a.lda = 64; }},
      {"lda not a multiple of 8", "lda", [](auto& a) { a.lda = 132; }},
      {"A off a 16-byte boundary", "A", [](auto& a) { a.A = g_buf + 8; }},
      {"W off a 16-byte boundary", "W", [](auto& a) { a.W = g_buf + 4; }},
      {"offsets null", "offsets", [](auto& a) { a.offsets = nullptr; }},
      {"D null", "D", [](auto& a) { a.D = nullptr; }},
      {"bf16 D at an odd address", "D", [](auto& a) { a.D = g_buf + 1; }},
      {"fp32 D at a 2-byte boundary", "D",
       [](auto& a) {
         a.act_out = false;
         a.ldd = 256;
         a.D = g_buf + 2;
       }},
      {"ldd below the gated output's I columns", "ldd", [](auto& a) { a.ldd = 100; }},
      {"ldd below N without the epilogue", "ldd",
       [](auto& a) {
         a.act_out = false;
         a.ldd = 128;
       }},
  };
  for (const BadCase& c : cases) {
    sm90::bf16_small::Bf16SmallTmaArgs a = valid_args();
    c.spoil(a);
    try {
      sm90::bf16_small::launch_bf16_small_tma(a, 16, nullptr);
      ADD_FAILURE() << c.what << ": accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), c.argument) << c.what << ": " << e.what();
    }
  }
  // Misalignment reports where the pointer falls.
  sm90::bf16_small::Bf16SmallTmaArgs a = valid_args();
  a.W = g_buf + 12;
  try {
    sm90::bf16_small::launch_bf16_small_tma(a, 16, nullptr);
    ADD_FAILURE() << "W at 16k + 12: accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(e.expected().find("16-byte aligned"), std::string::npos) << e.what();
    EXPECT_EQ(e.actual(), "an address 16k + 12") << e.what();
  }
}

TEST(Bf16SmallArgs, NothingToDoLaunchesNothing) {
  // No rows or no groups: returns before any check or CUDA call (graph capture of an empty batch).
  sm90::bf16_small::Bf16SmallTmaArgs a = valid_args();
  a.K = 100;  // would be refused if looked at
  EXPECT_NO_THROW(sm90::bf16_small::launch_bf16_small_tma(a, 0, nullptr));
  a.num_groups = 0;
  EXPECT_NO_THROW(sm90::bf16_small::launch_bf16_small_tma(a, 16, nullptr));
}

}  // namespace
}  // namespace megamoe
#endif  // MEGAMOE_WITH_CUDA
