// launch_bf16_large_tma (the bf16 split backend's split_large_tma GEMM) checks its arguments on the
// host before any CUDA call, so the refusals are testable on a machine without a GPU: each bad
// argument is an InvalidArgument naming it, never a faulting TMA copy or a silently wrong product.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "megamoe/errors.h"

#if MEGAMOE_WITH_CUDA
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h"

namespace megamoe {
namespace {

using sm90::bf16_large::Bf16LargeTmaArgs;
using sm90::bf16_large::LargeTmaOut;

alignas(16) uint8_t g_buf[4096];

// A valid FC1 call with the swiglu epilogue: G = 2, N = 2I = 256, K = 128.
Bf16LargeTmaArgs valid_args() {
  Bf16LargeTmaArgs a;
  a.A = g_buf;
  a.lda = 128;
  a.W = g_buf;
  a.D = g_buf;
  a.ldd = 128;
  a.offsets = reinterpret_cast<const int32_t*>(g_buf);
  a.num_groups = 2;
  a.N = 256;
  a.K = 128;
  a.out = LargeTmaOut::kAct;
  a.act.activation = Activation::kSwiGLU;
  return a;
}

struct BadCase {
  const char* what;
  std::string argument;  // the name the error must carry
  std::function<void(Bf16LargeTmaArgs&)> spoil;
};

TEST(Bf16LargeArgs, BadArgumentsAreRefusedByName) {
  const std::vector<BadCase> cases = {
      {"K not a multiple of 8", "K", [](auto& a) { a.K = 100; }},
      {"K zero", "K", [](auto& a) { a.K = 0; }},
      {"N zero", "N", [](auto& a) { a.N = 0; }},
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
         a.out = LargeTmaOut::kF32;
         a.ldd = 256;
         a.D = g_buf + 2;
       }},
      {"bf16 D at an odd address", "D",
       [](auto& a) {
         a.out = LargeTmaOut::kBf16;
         a.ldd = 256;
         a.D = g_buf + 3;
       }},
      {"ldd below the gated output's I columns", "ldd", [](auto& a) { a.ldd = 100; }},
      {"ldd below N without the epilogue", "ldd",
       [](auto& a) {
         a.out = LargeTmaOut::kBf16;
         a.ldd = 128;
       }},
      {"relu2's ldd below N (it writes N columns)", "ldd",
       [](auto& a) {
         a.act.activation = Activation::kReLU2;
         a.ldd = 128;
       }},
      {"num_groups * N past 2^31", "rows_bound, num_groups * N",
       [](auto& a) {
         a.num_groups = 65536;
         a.N = 65536;
         a.ldd = 65536;
       }},
      {"paired_stores out of range", "paired_stores", [](auto& a) { a.paired_stores = 2; }},
      {"pass mode out of range", "pass_mode", [](auto& a) { a.pass_mode = 3; }},
      {"pass mode below -1", "pass_mode", [](auto& a) { a.pass_mode = -2; }},
      {"paired_stores below -1", "paired_stores", [](auto& a) { a.paired_stores = -2; }},
  };
  for (const BadCase& c : cases) {
    Bf16LargeTmaArgs a = valid_args();
    c.spoil(a);
    try {
      sm90::bf16_large::launch_bf16_large_tma(a, 16, nullptr);
      ADD_FAILURE() << c.what << ": accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), c.argument) << c.what << ": " << e.what();
    }
  }
}

TEST(Bf16LargeArgs, TooManyTilesForTheIntWalk) {
  // 256 row blocks (N = 32768) x (1 expert + ~2^23 passes of 256 of 2^31 - 321 rows): ~2^31 tiles, past
  // what the kernel's int tile counter may step through.
  Bf16LargeTmaArgs a = valid_args();
  a.num_groups = 1;
  a.N = 32768;
  a.out = LargeTmaOut::kF32;
  a.ldd = 32768;
  try {
    sm90::bf16_large::launch_bf16_large_tma(a, INT32_MAX - 320, nullptr);
    ADD_FAILURE() << "accepted ~2^31 tiles";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "rows_bound, N") << e.what();
  }
}

TEST(Bf16LargeArgs, RowsBoundNearTheIntRange) {
  // A pass count is computed in int from an expert's rows: rows_bound must stay 320 below 2^31.
  Bf16LargeTmaArgs a = valid_args();
  try {
    sm90::bf16_large::launch_bf16_large_tma(a, int64_t(INT32_MAX) - 319, nullptr);
    ADD_FAILURE() << "accepted rows_bound 2^31 - 320";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "rows_bound, num_groups * N") << e.what();
  }
}

TEST(Bf16LargeArgs, PairedStoresOnlyWhereThePairFits) {
  alignas(16) static float buf[8];
  EXPECT_TRUE(sm90::bf16_large::paired_stores_fit(256, 264, buf, 4));
  EXPECT_TRUE(sm90::bf16_large::paired_stores_fit(256, 264, buf + 2, 4));
  EXPECT_FALSE(sm90::bf16_large::paired_stores_fit(143, 144, buf, 4)) << "an odd column count";
  EXPECT_FALSE(sm90::bf16_large::paired_stores_fit(256, 259, buf, 2)) << "an odd row stride";
  EXPECT_FALSE(sm90::bf16_large::paired_stores_fit(256, 256, buf + 1, 4)) << "fp32 D off an 8-byte boundary";
  EXPECT_TRUE(sm90::bf16_large::paired_stores_fit(256, 256, reinterpret_cast<uint16_t*>(buf) + 2, 2));
  EXPECT_FALSE(sm90::bf16_large::paired_stores_fit(256, 256, reinterpret_cast<uint16_t*>(buf) + 1, 2))
      << "bf16 D off a 4-byte boundary";
}

TEST(Bf16LargeArgs, NothingToDoLaunchesNothing) {
  // No rows or no groups: returns before any check or CUDA call (graph capture of an empty batch).
  Bf16LargeTmaArgs a = valid_args();
  a.K = 100;  // would be refused if looked at
  EXPECT_NO_THROW(sm90::bf16_large::launch_bf16_large_tma(a, 0, nullptr));
  a.num_groups = 0;
  EXPECT_NO_THROW(sm90::bf16_large::launch_bf16_large_tma(a, 16, nullptr));
}

}  // namespace
}  // namespace megamoe
#endif  // MEGAMOE_WITH_CUDA
