// What the sm90 split backends share around the route plan: the plan's dimensions for one
// forward, and the workspace (plan, GEMM operands, h, y) of every split backend.
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

// The GEMM operands of a split backend's activations: element bytes of x_perm / a (2: bf16,
// 1: e4m3) and, for quantized activations, the columns per fp32 scale (0: no scales).
struct SplitActivations {
  int element_bytes = 2;
  int64_t scale_group = 0;
  bool fp32_h = true;  // FC1 writes fp32 h for an activation kernel (false: the activation is in
                       // FC1's epilogue, which writes a directly; no h buffer)
};

// One device allocation, every buffer 256-byte aligned; R = cap * K rows, eb = element bytes,
// sg = scale group (SplitActivations):
//   plan    routing::route_plan_workspace_bytes(cap, K, E_local)
//   region  max(x_perm [R, H] + x_scales fp32 [R, ceil(H/sg)] + h fp32 [R, N13] (only with fp32_h),
//           y [R, H] fp32 or bf16): y aliases the start of the region (x_perm, x_scales and h are
//           dead once FC2 runs)
//   a       [R, I] (eb bytes each), then a_scales fp32 [R, ceil(I/sg)]
// (no scale buffers when sg = 0). bf16 and W4A16: eb 2, no scales; fp8_block: eb 1, sg 128.
// deepseek-v3 (H 7168, I 2048, E 256, K 8) at max_tokens 8192, bf16: ~2.0 GiB (fp32 y bounds the
// region; ~2.13 GiB with fp32 h).
struct SplitWorkspace {
  size_t plan_bytes = 0, region_bytes = 0, a_bytes = 0;
  routing::RoutePlanDevice plan;
  void* x_perm = nullptr;
  float* x_scales = nullptr;
  float* h = nullptr;
  void* y = nullptr;
  void* a = nullptr;
  float* a_scales = nullptr;

  size_t bytes() const { return plan_bytes + region_bytes + a_bytes; }

  // Sizes the buffers for the config, allocates them into `buf` and initialises the plan.
  void create(const MoeConfig& c, int64_t cap, DeviceBuffer& buf, SplitActivations act = {}) {
    const size_t R = size_t(cap * c.top_k), H = size_t(c.hidden_size), I = size_t(c.intermediate_size);
    const size_t N13 = size_t(c.fc1_rows()), eb = size_t(act.element_bytes);
    auto scale_bytes = [&](size_t cols) {
      return act.scale_group > 0 ? align_up(4 * R * cu::ceil_div<size_t>(cols, size_t(act.scale_group))) : 0;
    };
    plan_bytes = routing::route_plan_workspace_bytes(cap, c.top_k, c.local_experts());
    const size_t xperm_bytes = align_up(eb * R * H), xs_bytes = scale_bytes(H), h_bytes = act.fp32_h ? align_up(4 * R * N13) : 0,
                 y_bytes = align_up(4 * R * H);
    region_bytes = std::max(xperm_bytes + xs_bytes + h_bytes, y_bytes);
    const size_t act_bytes = align_up(eb * R * I);
    a_bytes = act_bytes + scale_bytes(I);
    buf.allocate(bytes(), "workspace");
    char* base = static_cast<char*>(buf.ptr);
    plan = routing::carve_route_plan(base, cap, c.top_k, c.local_experts());
    char* region = base + plan_bytes;
    x_perm = region;
    x_scales = act.scale_group > 0 ? reinterpret_cast<float*>(region + xperm_bytes) : nullptr;
    h = act.fp32_h ? reinterpret_cast<float*>(region + xperm_bytes + xs_bytes) : nullptr;
    y = region;
    a = region + region_bytes;
    a_scales = act.scale_group > 0 ? reinterpret_cast<float*>(region + region_bytes + act_bytes) : nullptr;
    routing::init_route_plan(plan, nullptr);
  }
};

}  // namespace megamoe::sm90_backend
