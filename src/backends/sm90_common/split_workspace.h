// What the sm90 split backends share around the route plan: the plan's dimensions for one
// forward, and the workspace of the backends whose activations stay bf16 (bf16 and W4A16).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "backends/sm90_common/cuda_resources.h"
#include "megamoe/config.h"
#include "routing/route_plan.h"

namespace megamoe::sm90_backend {

// The route plan's dimensions for T tokens of this rank's layer.
inline routing::RouteDims route_dims(const MoeConfig& c, int64_t T) {
  routing::RouteDims d;
  d.num_tokens = T;
  d.top_k = c.top_k;
  d.num_experts = c.num_experts;
  d.first_local_expert = c.first_local_expert();
  d.local_experts = c.local_experts();
  return d;
}

// One device allocation, every buffer 256-byte aligned; R = cap * K rows:
//   plan    routing::route_plan_workspace_bytes(cap, K, E_local)
//   region  max(x_perm bf16 [R, H] + h fp32 [R, N13], y [R, H] fp32 or bf16): y aliases the
//           start of the region (x_perm and h are dead once FC2 runs)
//   a       bf16 [R, I]
// deepseek-v3 (H 7168, I 2048, E 256, K 8) at max_tokens 8192: ~2.13 GiB.
struct SplitWorkspace {
  size_t plan_bytes = 0, region_bytes = 0, a_bytes = 0;
  routing::RoutePlanDevice plan;
  void* x_perm = nullptr;
  float* h = nullptr;
  void* y = nullptr;
  void* a = nullptr;

  size_t bytes() const { return plan_bytes + region_bytes + a_bytes; }

  // Sizes the buffers for the config, allocates them into `buf` and initialises the plan.
  void create(const MoeConfig& c, int64_t cap, DeviceBuffer& buf) {
    const size_t R = size_t(cap * c.top_k), H = size_t(c.hidden_size), I = size_t(c.intermediate_size);
    const size_t N13 = size_t(c.fc1_rows());
    plan_bytes = routing::route_plan_workspace_bytes(cap, c.top_k, c.local_experts());
    const size_t xperm_bytes = align_up(2 * R * H), h_bytes = align_up(4 * R * N13), y_bytes = align_up(4 * R * H);
    region_bytes = std::max(xperm_bytes + h_bytes, y_bytes);
    a_bytes = align_up(2 * R * I);
    buf.allocate(bytes(), "workspace");
    char* base = static_cast<char*>(buf.ptr);
    plan = routing::carve_route_plan(base, cap, c.top_k, c.local_experts());
    char* region = base + plan_bytes;
    x_perm = region;
    h = reinterpret_cast<float*>(region + xperm_bytes);
    y = region;
    a = region + region_bytes;
    routing::init_route_plan(plan, nullptr);
  }
};

}  // namespace megamoe::sm90_backend
