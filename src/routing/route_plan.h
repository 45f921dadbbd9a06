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

// ---- work folded into the plan's last kernel ----------------------------------------------
// The per-group argument arrays of one grouped GEMM (see sm90::GroupedGemmBf16::prepare_writes),
// written by the plan kernel as soon as the offsets are known, so the GEMM needs no setup kernel.
// For every local expert g, with lo = offsets[g] and rows = offsets[g+1] - offsets[g]:
//   shapes[3g + j] = shape[j] for j != rows_slot, shapes[3g + rows_slot] = rows
//   ptr_w[g] = w + g * w_group_bytes;  ptr_x[g] = x + lo * x_row_bytes;  ptr_d[g] = d + lo * d_row_bytes
//   for j < 3 with stride_ptr[j] set: bytes [g * stride_bytes[j], (g+1) * stride_bytes[j]) of
//   stride_ptr[j] = the first stride_bytes[j] (<= 16, a multiple of 4) bytes of stride_value[j]
struct GroupedProblemWrite {
  int32_t* shapes = nullptr;  // null: this entry writes nothing
  int32_t shape[3] = {0, 0, 0};
  int32_t rows_slot = 0;
  const void** ptr_w = nullptr;
  const char* w = nullptr;
  int64_t w_group_bytes = 0;
  const void** ptr_x = nullptr;
  const char* x = nullptr;
  int64_t x_row_bytes = 0;
  void** ptr_d = nullptr;
  char* d = nullptr;
  int64_t d_row_bytes = 0;
  unsigned char* stride_ptr[3] = {nullptr, nullptr, nullptr};
  int32_t stride_bytes[3] = {0, 0, 0};
  alignas(16) uint32_t stride_value[3][4] = {};
};
constexpr int kMaxPlanGemmWrites = 2;

// The permute (x rows -> x_perm in expert order, as sm90::launch_permute) done by the plan's
// single-block kernel itself: x [T, H] bf16 with row stride ldx (elements), x_perm [rows, H].
// Needs H % 8 == 0, ldx % 8 == 0 and 16-byte aligned pointers (plan_permute_supported).
struct PlanPermute {
  const void* x = nullptr;  // null: no permute in the plan
  int64_t ldx = 0, H = 0;
  void* x_perm = nullptr;
};
bool plan_permute_supported(const PlanPermute& p);
// The PlanPermute a backend passes for `routes` (T*K) rows of H bf16 columns: the gather of x into
// x_perm when the plan runs one block (plan_is_single_block), the rows' bytes (routes * H * 2) are at
// most max_bytes and plan_permute_supported holds; else an empty one (x == nullptr: the caller
// launches the permute kernel).
PlanPermute plan_permute_within(const void* x, int64_t ldx, int64_t H, void* x_perm, int64_t routes,
                                int64_t max_bytes);
// Whether build_route_plan_gpu runs the single-block path for this many routes (T*K); only that
// path can take a PlanPermute.
inline bool plan_is_single_block(int64_t routes) { return routes <= kSmallPathRoutes; }

struct PlanExtras {
  GroupedProblemWrite gemm[kMaxPlanGemmWrites];  // entries with shapes == nullptr are skipped
  PlanPermute permute;                           // only with the single-block path
  // Launch the plan's first kernel with programmatic dependent launch (it waits on the previous
  // kernel in the stream); its kernels always let the next kernel launch early (griddepcontrol),
  // which only matters when that kernel is launched with PDL and waits itself.
  bool pdl_first = false;
};

// As above, and also does `extras` (GEMM argument arrays, permute) in the plan's last kernel.
void build_route_plan_gpu(const TensorView& ids, const RouteDims& dims, const RoutePlanDevice& plan,
                          const PlanExtras& extras, void* stream);

}  // namespace megamoe::routing
