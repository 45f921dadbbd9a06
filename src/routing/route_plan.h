// The route plan: which rows of the expert-ordered activation matrix belong to which
// (token, k), built from topk_ids. One plan per forward pass; the GPU kernels
// (route_plan.cu) and the CPU twin (route_plan.cpp) produce identical plans.
//
// For routes i = t*K + k (t < T, k < K) and local experts e in [0, E_local):
//   local expert of i   = ids[t,k] - first_local_expert when that lies in [0, E_local),
//                         otherwise "no route" (-1, another EP rank's expert, or an invalid
//                         id; invalid = not -1 and not in [0, E), counted in invalid_count)
//   counts[e]           = routes of expert e
//   offsets[e]          = sum_{e' < e} counts[e'];  offsets[E_local] = routed rows (no padding)
//   row_to_route[row]   = i for row in [0, offsets[E_local]); stable: inside an expert's
//                         segment, rows follow increasing i (token index, then k)
//   route_to_row[i]     = the row of route i, or -1 when i has no route
//   row_expert[row]     = the local expert owning `row`
// The order depends only on the ids (no atomics' timing), so the plan is deterministic.
//
// This header is CUDA-free (streams are void*), so CPU code can include it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "megamoe/tensor.h"

namespace megamoe::routing {

struct RouteDims {
  int64_t num_tokens = 0;          // T
  int64_t top_k = 0;               // K
  int64_t num_experts = 0;         // E (global): ids in [0, E) are valid
  int64_t first_local_expert = 0;  // this rank's first expert
  int64_t local_experts = 0;       // E_local
};

// Capacity bucketing: the smallest power of two >= n (1 for n <= 1).
int64_t bucket_capacity(int64_t n);

// GPU plan internals shared with the workspace sizing: T*K up to kSmallPathRoutes runs as one
// single-block kernel; above, one block per kChunkRoutes consecutive routes.
constexpr int64_t kSmallPathRoutes = 1024;
constexpr int64_t kChunkRoutes = 256;
inline int64_t route_plan_chunks(int64_t routes) { return (routes + kChunkRoutes - 1) / kChunkRoutes; }

// ---- CPU twin ---------------------------------------------------------------------------
struct RoutePlanHost {
  std::vector<int32_t> counts;        // [E_local]
  std::vector<int32_t> offsets;       // [E_local + 1]
  std::vector<int32_t> row_to_route;  // [offsets[E_local]]
  std::vector<int32_t> route_to_row;  // [T*K]
  std::vector<int32_t> row_expert;    // [offsets[E_local]]
  int64_t invalid_count = 0;
};
// ids: host [T, K] int32/int64 with any strides.
RoutePlanHost build_route_plan_cpu(const TensorView& ids, const RouteDims& dims);

// ---- GPU plan ---------------------------------------------------------------------------
// Device buffers of one plan, sized for a capacity of `capacity_tokens` (already bucketed)
// and `top_k`; carved out of caller-owned device memory by carve_route_plan().
struct RoutePlanDevice {
  int64_t capacity_tokens = 0, top_k = 0, local_experts = 0;
  int32_t* counts = nullptr;         // [E_local]
  int32_t* offsets = nullptr;        // [E_local + 1]
  int32_t* row_to_route = nullptr;   // [cap*K]
  int32_t* route_to_row = nullptr;   // [cap*K]
  int32_t* row_expert = nullptr;     // [cap*K]
  int32_t* chunk_hist = nullptr;     // scratch of the multi-block path: [E_local, chunks(cap*K)]
  unsigned long long* invalid_count = nullptr;  // accumulates until read and reset
};

// Bytes needed for the buffers of a plan (every buffer 256-byte aligned).
size_t route_plan_workspace_bytes(int64_t capacity_tokens, int64_t top_k, int64_t local_experts);
// Lays the buffers out in `base` (device memory of route_plan_workspace_bytes bytes).
RoutePlanDevice carve_route_plan(void* base, int64_t capacity_tokens, int64_t top_k,
                                 int64_t local_experts);
// Zeroes the invalid-id counter; call once after carving. Synchronous.
void init_route_plan(const RoutePlanDevice& plan, void* stream);

// The largest E_local the GPU kernels support (per-warp shared-memory cursors).
int64_t max_gpu_local_experts();

// Builds the plan on `stream` (a cudaStream_t) from device ids [T, K] int32/int64 with any
// strides. T <= plan.capacity_tokens, dims.top_k == plan.top_k, dims.local_experts ==
// plan.local_experts. Asynchronous, no allocation, graph-capturable; T = 0 writes zero
// counts and offsets. One kernel launch for T*K <= kSmallPathRoutes, three above.
void build_route_plan_gpu(const TensorView& ids, const RouteDims& dims, const RoutePlanDevice& plan,
                          void* stream);

}  // namespace megamoe::routing
