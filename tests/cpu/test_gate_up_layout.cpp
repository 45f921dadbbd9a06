// The gate/up interleaved W13 layout of the bf16 sm90 backends (src/kernels/sm90/common/
// gate_up_layout.h), on the host: physical_row is a bijection of [0, 2I) onto itself, output_col
// and is_up_row invert it, and each group of 16 physical rows holds 8 gate rows and their 8 up
// rows in the same order -- the pairing the GEMM epilogue (act_epilogue.cuh), the activation
// kernel's interleaved mode and the Mega kernel's 4-D map rely on. The GPU side:
// GemmBf16Act.FusedEqualsUnfusedAndCpuForEveryActivationAndKernel.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernels/sm90/common/gate_up_layout.h"

namespace megamoe {
namespace {

using namespace sm90::gate_up;

TEST(GateUpLayout, PhysicalRowsAreABijectionThatOutputColInverts) {
  for (int64_t I : {8, 64, 200, 2048, 2880}) {
    SCOPED_TRACE("I=" + std::to_string(I));
    std::vector<int> seen(size_t(2 * I), 0);
    for (int64_t j = 0; j < I; ++j)
      for (bool up : {false, true}) {
        const int64_t n = physical_row(j, up);
        ASSERT_GE(n, 0);
        ASSERT_LT(n, 2 * I);
        ++seen[size_t(n)];
        EXPECT_EQ(output_col(n), j);
        EXPECT_EQ(is_up_row(n), up);
      }
    for (int64_t n = 0; n < 2 * I; ++n) EXPECT_EQ(seen[size_t(n)], 1) << "physical row " << n;
  }
}

TEST(GateUpLayout, UpRowIsEightBelowItsGateRow) {
  // What a thread's accumulators pair: column / row n (gate) with n + 8 (up), in every 16-row group.
  for (int64_t j = 0; j < 4096; ++j) {
    EXPECT_EQ(physical_row(j, true), physical_row(j, false) + kGroup);
    EXPECT_EQ(physical_row(j, false) % (2 * kGroup), j % kGroup);
  }
  // Consecutive gate rows of a group are consecutive physical rows (an 8-row TMA box, 4-byte pairs
  // of adjacent output columns in the epilogue).
  for (int64_t j = 0; j + 1 < 4096; ++j)
    if ((j + 1) % kGroup != 0) EXPECT_EQ(physical_row(j + 1, false), physical_row(j, false) + 1);
}

}  // namespace
}  // namespace megamoe
