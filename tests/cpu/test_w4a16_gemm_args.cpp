// launch_grouped_gemm_w4a16 checks its operands on the host before any CUDA call, so the refusals
// are testable on a machine without a GPU (the GPU side: W4A16.RefusesBadOutputs). Every tactic
// reads A, W and the scale tiles by TMA or 16-byte copies: an operand off a 16-byte boundary is an
// InvalidArgument naming it, never a faulting copy.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "megamoe/errors.h"

#if MEGAMOE_WITH_CUDA
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"

namespace megamoe {
namespace {

alignas(16) uint8_t g_buf[1024];

// Valid arguments of a 128 x 128 GEMM of one expert into fp32 D, every operand at g_buf (16-byte
// aligned; the launch refuses or returns before reading any of them on the device).
sm90::W4A16GemmArgs valid_args(sm90::W4A16Tactic t = sm90::W4A16Tactic::kAuto) {
  sm90::W4A16GemmArgs a;
  a.A = g_buf;
  a.W = g_buf;
  a.scales = g_buf;
  a.offsets = reinterpret_cast<const int32_t*>(g_buf);
  a.D = reinterpret_cast<float*>(g_buf);
  a.N = 128;
  a.K = 128;
  a.num_groups = 1;
  a.tactic = t;
  return a;
}

TEST(W4A16Args, MisalignedOperandsAreRefusedByName) {
  uint8_t* const buf = g_buf;
  for (const sm90::W4A16Tactic t :
       {sm90::W4A16Tactic::kSmall, sm90::W4A16Tactic::kLarge, sm90::W4A16Tactic::kLargeTma, sm90::W4A16Tactic::kAuto}) {
    for (const char* name : {"A", "W", "scales"}) {
      for (const int off : {1, 4, 8}) {
        sm90::W4A16GemmArgs a = valid_args(t);
        const std::string n = name;
        if (n == "A") a.A = buf + off;
        else if (n == "W") a.W = buf + off;
        else a.scales = buf + off;
        try {
          sm90::launch_grouped_gemm_w4a16(a, sm90::Fp4Scale::kMxfp4, 4, nullptr);
          ADD_FAILURE() << name << " at +" << off << ": accepted";
        } catch (const InvalidArgument& e) {
          EXPECT_EQ(e.argument(), n) << e.what();
          EXPECT_NE(e.expected().find("16-byte aligned"), std::string::npos) << e.what();
          EXPECT_EQ(e.actual(), "an address 16k + " + std::to_string(off)) << e.what();
        }
      }
    }
  }
}

// W4A16GemmArgs::large_tma_staged outside -1..1 is refused by name, for every tactic (checked before
// the tactic runs); w4a16_large_tma_staged says staged only for a requested, 16-byte aligned bf16
// output (D16 or act_out), never for fp32 D.
TEST(W4A16Args, LargeTmaStagedRange) {
  uint8_t* const buf = g_buf;
  auto base = [] { return valid_args(); };
  for (const sm90::W4A16Tactic t :
       {sm90::W4A16Tactic::kSmall, sm90::W4A16Tactic::kLarge, sm90::W4A16Tactic::kLargeTma, sm90::W4A16Tactic::kAuto}) {
    for (const int v : {-2, 2, 100}) {
      sm90::W4A16GemmArgs a = base();
      a.tactic = t;
      a.large_tma_staged = v;
      try {
        sm90::launch_grouped_gemm_w4a16(a, sm90::Fp4Scale::kMxfp4, 4, nullptr);
        ADD_FAILURE() << "large_tma_staged = " << v << ": accepted";
      } catch (const InvalidArgument& e) {
        EXPECT_EQ(e.argument(), "large_tma_staged") << e.what();
        EXPECT_EQ(e.actual(), std::to_string(v)) << e.what();
      }
      EXPECT_THROW(sm90::w4a16_large_tma_staged(a), InvalidArgument);
    }
  }
  sm90::W4A16GemmArgs a = base();
  a.large_tma_staged = 1;
  EXPECT_FALSE(sm90::w4a16_large_tma_staged(a)) << "fp32 D";
  a.D = nullptr;
  a.D16 = buf;
  EXPECT_TRUE(sm90::w4a16_large_tma_staged(a));
  a.D16 = buf + 8;  // off a 16-byte boundary
  EXPECT_FALSE(sm90::w4a16_large_tma_staged(a));
  a.D16 = nullptr;
  a.act_out = buf + 16;
  EXPECT_TRUE(sm90::w4a16_large_tma_staged(a));
  a.act_out = buf + 2;
  EXPECT_FALSE(sm90::w4a16_large_tma_staged(a));
  a.act_out = buf;
  a.large_tma_staged = 0;
  EXPECT_FALSE(sm90::w4a16_large_tma_staged(a));
}

// W4A16GemmArgs::small_splits outside 0..2 and small_deep outside 0..2 are refused by name, for
// every tactic (checked before the tactic runs).
TEST(W4A16Args, SmallSplitsAndDeepRange) {
  for (const sm90::W4A16Tactic t :
       {sm90::W4A16Tactic::kSmall, sm90::W4A16Tactic::kLarge, sm90::W4A16Tactic::kLargeTma, sm90::W4A16Tactic::kAuto}) {
    for (const char* field : {"small_splits", "small_deep"}) {
      for (const int v : {-1, 3, 100}) {
        sm90::W4A16GemmArgs a = valid_args(t);
        (std::string(field) == "small_splits" ? a.small_splits : a.small_deep) = v;
        try {
          sm90::launch_grouped_gemm_w4a16(a, sm90::Fp4Scale::kMxfp4, 4, nullptr);
          ADD_FAILURE() << field << " = " << v << ": accepted";
        } catch (const InvalidArgument& e) {
          EXPECT_EQ(e.argument(), field) << e.what();
          EXPECT_EQ(e.actual(), std::to_string(v)) << e.what();
        }
      }
    }
  }
}

}  // namespace
}  // namespace megamoe
#endif  // MEGAMOE_WITH_CUDA
