// CPU twin of the route plan (see route_plan.h) and the CUDA-free parts of the GPU plan
// (capacity bucketing, workspace layout).
#include "routing/route_plan.h"

#include "core/workspace_carver.h"

#include "megamoe/errors.h"

#include <limits>

namespace megamoe::routing {

bool plan_permute_supported(const PlanPermute& p) {
  return p.x != nullptr && p.x_perm != nullptr && p.H > 0 && p.H % 8 == 0 && p.ldx % 8 == 0 &&
         reinterpret_cast<uintptr_t>(p.x) % 16 == 0 && reinterpret_cast<uintptr_t>(p.x_perm) % 16 == 0;
}

PlanPermute plan_permute_within(const void* x, int64_t ldx, int64_t H, void* x_perm, int64_t routes,
                                int64_t max_bytes) {
  PlanPermute p;
  if (!plan_is_single_block(routes) || routes * H * 2 > max_bytes) return p;
  p.x = x;
  p.ldx = ldx;
  p.H = H;
  p.x_perm = x_perm;
  return plan_permute_supported(p) ? p : PlanPermute{};
}

int64_t bucket_capacity(int64_t n) {
  int64_t c = 1;
  while (c < n) {
    if (c > std::numeric_limits<int64_t>::max() / 2) return n;  // no power of two above n fits
    c <<= 1;
  }
  return c;
}

RoutePlanHost build_route_plan_cpu(const TensorView& ids, const RouteDims& d) {
  const int64_t T = d.num_tokens, K = d.top_k, EL = d.local_experts;
  if (ids.dtype != DType::kI32 && ids.dtype != DType::kI64)
    throw_invalid("topk_ids", "int32 or int64", dtype_name(ids.dtype));
  const int64_t s0 = ids.ndim >= 1 ? ids.strides[0] : K, s1 = ids.ndim >= 2 ? ids.strides[1] : 1;
  RoutePlanHost p;
  p.counts.assign(EL, 0);
  p.offsets.assign(EL + 1, 0);
  p.route_to_row.assign(T * K, -1);
  std::vector<int32_t> local(T * K, -1);
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t k = 0; k < K; ++k) {
      const int64_t off = t * s0 + k * s1;
      const int64_t v = ids.dtype == DType::kI32 ? int64_t(ids.ptr<const int32_t>()[off])
                                                 : ids.ptr<const int64_t>()[off];
      if (v == -1) continue;
      if (v < 0 || v >= d.num_experts) {
        ++p.invalid_count;
        continue;
      }
      const int64_t e = v - d.first_local_expert;
      if (e < 0 || e >= EL) continue;
      local[t * K + k] = int32_t(e);
      ++p.counts[e];
    }
  }
  for (int64_t e = 0; e < EL; ++e) p.offsets[e + 1] = p.offsets[e] + p.counts[e];
  const int32_t total = p.offsets[EL];
  p.row_to_route.assign(total, 0);
  p.row_expert.assign(total, 0);
  std::vector<int32_t> cursor(p.offsets.begin(), p.offsets.end() - 1);
  for (int64_t i = 0; i < T * K; ++i) {
    const int32_t e = local[i];
    if (e < 0) continue;
    const int32_t row = cursor[e]++;
    p.row_to_route[row] = int32_t(i);
    p.row_expert[row] = e;
    p.route_to_row[i] = row;
  }
  return p;
}

namespace {
// The one layout of the plan's buffers: sizes them when `base` is null, else points into it.
RoutePlanDevice lay_out_route_plan(WorkspaceCarver& w, int64_t cap, int64_t K, int64_t EL) {
  RoutePlanDevice p;
  p.capacity_tokens = cap;
  p.top_k = K;
  p.local_experts = EL;
  const size_t routes = size_t(cap * K);
  p.counts = w.take<int32_t>(sizeof(int32_t) * EL);
  p.offsets = w.take<int32_t>(sizeof(int32_t) * (EL + 1));
  p.row_to_route = w.take<int32_t>(sizeof(int32_t) * routes);
  p.route_to_row = w.take<int32_t>(sizeof(int32_t) * routes);
  p.row_expert = w.take<int32_t>(sizeof(int32_t) * routes);
  p.chunk_hist = w.take<int32_t>(sizeof(int32_t) * EL * size_t(route_plan_chunks(cap * K)));
  p.invalid_count = w.take<unsigned long long>(sizeof(unsigned long long));
  return p;
}
}  // namespace

size_t route_plan_workspace_bytes(int64_t cap, int64_t K, int64_t EL) {
  WorkspaceCarver count;
  lay_out_route_plan(count, cap, K, EL);
  return count.bytes();
}

RoutePlanDevice carve_route_plan(void* base, int64_t cap, int64_t K, int64_t EL) {
  WorkspaceCarver w(base);
  return lay_out_route_plan(w, cap, K, EL);
}

}  // namespace megamoe::routing
