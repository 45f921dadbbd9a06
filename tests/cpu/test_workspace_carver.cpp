// WorkspaceCarver (src/core/workspace_carver.h): counting and carving give one layout, every
// buffer on a 256-byte boundary; the route plan's size and pointers come from it.
#include <gtest/gtest.h>

#include <cstdint>

#include "core/workspace_carver.h"
#include "routing/route_plan.h"

namespace megamoe {
namespace {

TEST(WorkspaceCarver, CountingAndCarvingAgree) {
  const size_t sizes[] = {1, 255, 256, 257, 4096, 3, 0, 1000};
  WorkspaceCarver count;
  alignas(256) static char buf[8192];
  WorkspaceCarver carve(buf);
  size_t expect = 0;
  for (size_t n : sizes) {
    EXPECT_EQ(count.take(n), nullptr);
    char* p = carve.take(n);
    EXPECT_EQ(p, buf + expect) << n;
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kWorkspaceAlign, 0u);
    expect += (n + 255) / 256 * 256;
  }
  EXPECT_EQ(count.bytes(), expect);
  EXPECT_EQ(carve.bytes(), expect);
}

TEST(WorkspaceCarver, RoutePlanFitsItsSize) {
  const int64_t cap = 64, K = 8, EL = 32;
  const size_t bytes = routing::route_plan_workspace_bytes(cap, K, EL);
  alignas(256) static char buf[1 << 16];
  ASSERT_LE(bytes, sizeof buf);
  const routing::RoutePlanDevice p = routing::carve_route_plan(buf, cap, K, EL);
  // The buffers follow in order and the last one (the invalid-id word) ends the size.
  EXPECT_EQ(reinterpret_cast<char*>(p.counts), buf);
  EXPECT_LT(reinterpret_cast<char*>(p.offsets), reinterpret_cast<char*>(p.row_to_route));
  EXPECT_EQ(reinterpret_cast<char*>(p.invalid_count), buf + bytes - kWorkspaceAlign);  // last, one 8-byte word
}

}  // namespace
}  // namespace megamoe
