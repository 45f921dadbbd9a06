// Our two bf16 grouped GEMMs (launch_bf16_small_tma: split_tma_small; launch_bf16_large_tma:
// split_large_tma) check their arguments on the host before any CUDA call, so the refusals are
// testable on a machine without a GPU: each bad argument is an InvalidArgument naming it, never a
// faulting TMA copy or a silently wrong product. The operands both take (Bf16GemmOperands) are
// spoiled the same way for both; each kernel's own fields and limits after.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "megamoe/errors.h"

#if MEGAMOE_WITH_CUDA
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_small_tma.h"

namespace megamoe {
namespace {

using sm90::bf16_large::Bf16LargeTmaArgs;
using sm90::bf16_large::LargeTmaOut;
using sm90::bf16_small::Bf16SmallTmaArgs;

alignas(16) uint8_t g_buf[4096];

// A valid FC1 call with the swiglu epilogue: G = 2, N = 2I = 256, K = 128 (D the activated a).
void fill_valid(sm90::Bf16GemmOperands& a) {
  a.A = g_buf;
  a.lda = 128;
  a.W = g_buf;
  a.D = g_buf;
  a.ldd = 128;
  a.offsets = reinterpret_cast<const int32_t*>(g_buf);
  a.num_groups = 2;
  a.N = 256;
  a.K = 128;
  a.act.activation = Activation::kSwiGLU;
}
Bf16SmallTmaArgs valid_small() {
  Bf16SmallTmaArgs a;
  fill_valid(a);
  a.act_out = true;
  return a;
}
Bf16LargeTmaArgs valid_large() {
  Bf16LargeTmaArgs a;
  fill_valid(a);
  a.out = LargeTmaOut::kAct;
  return a;
}

template <class Args>
struct BadCase {
  const char* what;
  std::string argument;  // the name the error must carry
  std::function<void(Args&)> spoil;
};

// The shared operands' refusals, for either kernel's arguments (valid FC1 calls with swiglu).
template <class Args>
std::vector<BadCase<Args>> operand_cases() {
  return {
      {"K not a multiple of 8", "K", [](Args& a) { a.K = 100; }},
      {"K zero", "K", [](Args& a) { a.K = 0; }},
      {"N zero", "N", [](Args& a) { a.N = 0; }},
      {"N negative", "N", [](Args& a) { a.N = -128; }},
      {"gated N not a multiple of 16", "N", [](Args& a) { a.N = 264; }},
      {"lda below K", "lda", [](Args& a) { a.lda = 64; }},
      {"lda not a multiple of 8", "lda", [](Args& a) { a.lda = 132; }},
      {"A off a 16-byte boundary", "A", [](Args& a) { a.A = g_buf + 8; }},
      {"W off a 16-byte boundary", "W", [](Args& a) { a.W = g_buf + 4; }},
      {"offsets null", "offsets", [](Args& a) { a.offsets = nullptr; }},
      {"D null", "D", [](Args& a) { a.D = nullptr; }},
      {"bf16 a at an odd address", "D", [](Args& a) { a.D = g_buf + 1; }},
      {"ldd below the gated output's I columns", "ldd", [](Args& a) { a.ldd = 100; }},
  };
}

template <class Args, class Launch>
void expect_refused(const std::vector<BadCase<Args>>& cases, const Args& valid, Launch launch) {
  for (const BadCase<Args>& c : cases) {
    Args a = valid;
    c.spoil(a);
    try {
      launch(a, int64_t(16));
      ADD_FAILURE() << c.what << ": accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(e.argument(), c.argument) << c.what << ": " << e.what();
    }
  }
}

const auto launch_small = [](const Bf16SmallTmaArgs& a, int64_t rows_bound) {
  sm90::bf16_small::launch_bf16_small_tma(a, rows_bound, nullptr);
};
const auto launch_large = [](const Bf16LargeTmaArgs& a, int64_t rows_bound) {
  sm90::bf16_large::launch_bf16_large_tma(a, rows_bound, nullptr);
};

TEST(Bf16SmallArgs, BadArgumentsAreRefusedByName) {
  std::vector<BadCase<Bf16SmallTmaArgs>> cases = operand_cases<Bf16SmallTmaArgs>();
  cases.push_back({"fp32 D at a 2-byte boundary", "D", [](auto& a) {
                     a.act_out = false;
                     a.ldd = 256;
                     a.D = g_buf + 2;
                   }});
  cases.push_back({"ldd below N without the epilogue", "ldd", [](auto& a) {
                     a.act_out = false;
                     a.ldd = 128;
                   }});
  cases.push_back({"relu2's ldd below N (it writes N columns)", "ldd", [](auto& a) {
                     a.act.activation = Activation::kReLU2;
                     a.ldd = 128;
                   }});
  expect_refused(cases, valid_small(), launch_small);
  // Misalignment reports where the pointer falls.
  Bf16SmallTmaArgs a = valid_small();
  a.W = g_buf + 12;
  try {
    launch_small(a, 16);
    ADD_FAILURE() << "W at 16k + 12: accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(e.expected().find("16-byte aligned"), std::string::npos) << e.what();
    EXPECT_EQ(e.actual(), "an address 16k + 12") << e.what();
  }
}

TEST(Bf16LargeArgs, BadArgumentsAreRefusedByName) {
  std::vector<BadCase<Bf16LargeTmaArgs>> cases = operand_cases<Bf16LargeTmaArgs>();
  cases.push_back({"fp32 D at a 2-byte boundary", "D", [](auto& a) {
                     a.out = LargeTmaOut::kF32;
                     a.ldd = 256;
                     a.D = g_buf + 2;
                   }});
  cases.push_back({"bf16 D at an odd address", "D", [](auto& a) {
                     a.out = LargeTmaOut::kBf16;
                     a.ldd = 256;
                     a.D = g_buf + 3;
                   }});
  cases.push_back({"ldd below N without the epilogue", "ldd", [](auto& a) {
                     a.out = LargeTmaOut::kBf16;
                     a.ldd = 128;
                   }});
  cases.push_back({"relu2's ldd below N (it writes N columns)", "ldd", [](auto& a) {
                     a.act.activation = Activation::kReLU2;
                     a.ldd = 128;
                   }});
  cases.push_back({"num_groups * N past 2^31", "rows_bound, num_groups * N", [](auto& a) {
                     a.num_groups = 65536;
                     a.N = 65536;
                     a.ldd = 65536;
                   }});
  cases.push_back({"stores out of range", "stores", [](auto& a) { a.stores = 3; }});
  cases.push_back({"stores below -1", "stores", [](auto& a) { a.stores = -2; }});
  cases.push_back({"pass mode out of range", "pass_mode", [](auto& a) { a.pass_mode = 3; }});
  cases.push_back({"pass mode below -1", "pass_mode", [](auto& a) { a.pass_mode = -2; }});
  cases.push_back({"dynamic_tiles out of range", "dynamic_tiles", [](auto& a) { a.dynamic_tiles = 2; }});
  cases.push_back({"dynamic_tiles below -1", "dynamic_tiles", [](auto& a) { a.dynamic_tiles = -2; }});
  cases.push_back({"early_draw out of range", "early_draw", [](auto& a) { a.early_draw = 2; }});
  cases.push_back({"early_draw below -1", "early_draw", [](auto& a) { a.early_draw = -2; }});
  cases.push_back({"pass_group below -2", "pass_group", [](auto& a) { a.pass_group = -3; }});
  cases.push_back({"pass_group too large", "pass_group",
                   [](auto& a) { a.pass_group = sm90::bf16_large::kMaxPassGroup + 1; }});
  cases.push_back({"dynamic order without a counter", "tile_counter", [](auto& a) { a.dynamic_tiles = 1; }});
  cases.push_back({"tile counter off an int boundary", "tile_counter",
                   [](auto& a) { a.tile_counter = reinterpret_cast<int*>(g_buf + 2); }});
  expect_refused(cases, valid_large(), launch_large);
}

TEST(Bf16LargeArgs, TooManyTilesForTheIntWalk) {
  // 256 row blocks (N = 32768) x (1 expert + ~2^23 passes of 256 of 2^31 - 321 rows): ~2^31 tiles, past
  // what the kernel's int tile counter may step through.
  Bf16LargeTmaArgs a = valid_large();
  a.num_groups = 1;
  a.N = 32768;
  a.out = LargeTmaOut::kF32;
  a.ldd = 32768;
  try {
    launch_large(a, INT32_MAX - 320);
    ADD_FAILURE() << "accepted ~2^31 tiles";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "rows_bound, N") << e.what();
  }
}

TEST(Bf16LargeArgs, RowsBoundNearTheIntRange) {
  // A pass count is computed in int from an expert's rows: rows_bound must stay 320 below 2^31.
  try {
    launch_large(valid_large(), int64_t(INT32_MAX) - 319);
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

TEST(Bf16LargeArgs, StagedStoresOnlyWhereSixteenBytesFit) {
  alignas(16) static uint16_t buf[64];
  using sm90::bf16_large::staged_stores_fit;
  EXPECT_TRUE(staged_stores_fit(256, 264, buf));
  EXPECT_TRUE(staged_stores_fit(136, 136, buf + 8)) << "8 columns past a multiple of 16: a half per warp";
  EXPECT_FALSE(staged_stores_fit(140, 144, buf)) << "a column count off a multiple of 8";
  EXPECT_FALSE(staged_stores_fit(256, 260, buf)) << "a row stride off a multiple of 8";
  EXPECT_FALSE(staged_stores_fit(256, 256, buf + 4)) << "D off a 16-byte boundary";
}

// What a launch runs for each request: staged only for bf16 outputs that fit it (paired otherwise,
// where the pair fits), the gated activation's output columns (N / 2) deciding.
TEST(Bf16LargeArgs, StoreModeFollowsTheRequestAndTheOutput) {
  using sm90::bf16_large::launch_store_mode;
  using sm90::bf16_large::kStoresPaired;
  using sm90::bf16_large::kStoresSingle;
  using sm90::bf16_large::kStoresStaged;
  Bf16LargeTmaArgs a = valid_large();
  a.out = LargeTmaOut::kBf16;
  a.ldd = a.N;
  a.D = g_buf;
  a.stores = 2;
  EXPECT_EQ(launch_store_mode(a), kStoresStaged);
  a.stores = 1;
  EXPECT_EQ(launch_store_mode(a), kStoresPaired);
  a.stores = 0;
  EXPECT_EQ(launch_store_mode(a), kStoresSingle);
  a.stores = 2;
  a.out = LargeTmaOut::kF32;  // fp32 D: paired at most
  EXPECT_EQ(launch_store_mode(a), kStoresPaired);
  a.out = LargeTmaOut::kBf16;
  a.D = reinterpret_cast<uint16_t*>(g_buf) + 4;  // 8 bytes off 16: paired
  EXPECT_EQ(launch_store_mode(a), kStoresPaired);
  a.D = reinterpret_cast<uint16_t*>(g_buf) + 1;  // 2 bytes off 4: single
  EXPECT_EQ(launch_store_mode(a), kStoresSingle);
  a.D = g_buf;
  a.ldd = a.N + 4;
  EXPECT_EQ(launch_store_mode(a), kStoresPaired);
  a.ldd = a.N;
  a.out = LargeTmaOut::kAct;  // gated: N / 2 output columns
  a.act.activation = Activation::kSwiGLU;
  a.N = 400;  // I = 200, a multiple of 8
  a.ldd = 208;
  EXPECT_EQ(launch_store_mode(a), kStoresStaged);
  a.N = 432;  // I = 216
  a.ldd = 216;
  EXPECT_EQ(launch_store_mode(a), kStoresStaged);
  a.N = 400;
  a.ldd = 204;
  EXPECT_EQ(launch_store_mode(a), kStoresPaired);
  a.stores = 3;
  EXPECT_THROW(launch_store_mode(a), InvalidArgument);
}

// No rows or no groups: both return before any check or CUDA call (graph capture of an empty batch).
template <class Args, class Launch>
void expect_nothing_launched(Args a, Launch launch) {
  a.K = 100;  // would be refused if looked at
  EXPECT_NO_THROW(launch(a, 0));
  a.num_groups = 0;
  EXPECT_NO_THROW(launch(a, 16));
}
TEST(Bf16SmallArgs, NothingToDoLaunchesNothing) { expect_nothing_launched(valid_small(), launch_small); }
TEST(Bf16LargeArgs, NothingToDoLaunchesNothing) { expect_nothing_launched(valid_large(), launch_large); }

}  // namespace
}  // namespace megamoe
#endif  // MEGAMOE_WITH_CUDA
