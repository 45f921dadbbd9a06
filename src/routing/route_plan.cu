// GPU route plan (see route_plan.h).
//
// Stable order without depending on atomics' timing: the routes i = t*K + k are cut into
// consecutive chunks, one warp per chunk. A warp counts its chunk per expert; an exclusive
// scan over (expert, chunk) gives every chunk its first row inside each expert's segment;
// the warp then walks its chunk again 32 routes at a time, ranking equal experts inside the
// step with __match_any_sync (lower lane = lower route index) and advancing per-expert
// cursors held in warp-private shared memory. Only shared-memory counts use atomics, and
// sums do not depend on order.
//
// Small T*K (<= kSmallPathRoutes): one block does count, scan and scatter (one launch, up
// to 32 warps, one route per lane; the (expert, warp) counts scanned in one pass). Larger:
// chunks of kChunkRoutes routes, one block each: a count kernel (per-chunk expert histograms), a scan kernel (one warp per expert over its
// chunks) and a scatter kernel (offsets, per-warp cursors inside the chunk, both maps) --
// three launches, every one spread over the whole GPU.
//
// Folded work (PlanExtras): the last kernel also writes the grouped GEMMs' per-expert argument
// arrays once the offsets are known (replacing the GEMMs' own setup kernels) and, on the
// single-block path, can gather x into expert order (replacing the permute kernel for small T).
// Programmatic dependent launch: every plan kernel starts with griddepcontrol.wait (a no-op
// unless it was launched with PDL) and then griddepcontrol.launch_dependents, so the next
// kernel of the forward can be launched while the plan still runs (that kernel waits itself).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/ptx.cuh"
#include "megamoe/errors.h"
#include "routing/route_plan.h"

namespace megamoe::routing {

namespace {

// Budget and roles (every warp has the same role: count, then scan its part, then scatter; no
// pipeline). Shared memory: a dynamic (W + 1) * E_local int array (the scatter kernel: one
// histogram / cursor row per warp plus the block's running offsets; the single-block kernel: per
// expert W counters and a zero pad), at most kSmemBudget, plus the static warp_sums[33], so
// no kernel needs the opt-in above 48 KiB. Warps: up to kSmallMaxWarps (the single-block path, one
// route per lane) or kBigWarps (one chunk of kChunkRoutes routes per block).
constexpr unsigned kFull = 0xffffffffu;
constexpr int kStaticSmemLimit = 48 * 1024;  // shared memory a kernel gets without the opt-in
constexpr int kSmemBudget = 47 * 1024;       // dynamic
constexpr int kWarpSumsWords = 33;           // warp_sums: one word per warp (32) and the total
static_assert(kSmemBudget + kWarpSumsWords * int(sizeof(int)) <= kStaticSmemLimit,
              "route plan kernels stay under 48 KiB of shared memory (no opt-in)");
constexpr int kSmallMaxWarps = 32;
constexpr int kBigWarps = 8;
static_assert(kSmallMaxWarps * 32 == int(kSmallPathRoutes), "single-block path: one route per lane");
static_assert(kChunkRoutes % (32 * kBigWarps) == 0, "a chunk splits evenly over the scatter kernel's warps");

__host__ __device__ __forceinline__ int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

using ptx::pdl_wait_then_release;  // PDL: common/ptx.cuh

// Writes the per-expert GEMM argument arrays of `w` for experts [e_begin, EL) step `e_step`;
// off(e) gives offsets[e] for e in [0, EL] (offsets[EL] = the routed rows).
template <class Off>
__device__ __forceinline__ void write_gemm_arrays(const GroupedProblemWrite& w, int EL, int e_begin, int e_step,
                                                  Off off) {
  if (w.shapes == nullptr) return;
  for (int e = e_begin; e < EL; e += e_step) {
    const int lo = off(e), hi = off(e + 1);
    const int rows = hi > lo ? hi - lo : 0;
#pragma unroll
    for (int j = 0; j < 3; ++j) w.shapes[3 * e + j] = j == w.rows_slot ? rows : w.shape[j];
    w.ptr_w[e] = w.w + int64_t(e) * w.w_group_bytes;
    w.ptr_x[e] = w.x + int64_t(lo) * w.x_row_bytes;
    w.ptr_d[e] = w.d + int64_t(lo) * w.d_row_bytes;
#pragma unroll
    for (int j = 0; j < 3; ++j) {
      if (w.stride_ptr[j] == nullptr) continue;
      uint32_t* dst = reinterpret_cast<uint32_t*>(w.stride_ptr[j] + int64_t(e) * w.stride_bytes[j]);
      for (int q = 0; q < w.stride_bytes[j] / 4; ++q) dst[q] = w.stride_value[j][q];
    }
  }
}

void check_cuda(cudaError_t e, const char* what) { cu::check("route_plan", e, what); }

struct IdSource {
  const void* ptr;
  int64_t s0, s1;
  int64_t K, E, e0;
  int EL;
  bool contiguous;  // s0 == K and s1 == 1: route i is element i
};

// Local expert of route i, or -1 (no route). Sets *invalid for ids that are neither -1 nor
// in [0, E).
template <typename IdT>
__device__ __forceinline__ int decode_route(const IdSource& src, int64_t i, bool* invalid) {
  int64_t at = i;  // contiguous [T, K] ids (the usual case): no 64-bit division
  if (!src.contiguous) {
    const int64_t t = i / src.K, k = i - t * src.K;
    at = t * src.s0 + k * src.s1;
  }
  const int64_t v = int64_t(static_cast<const IdT*>(src.ptr)[at]);
  if (v == -1) return -1;
  if (v < 0 || v >= src.E) {
    *invalid = true;
    return -1;
  }
  const int64_t e = v - src.e0;
  return (e >= 0 && e < src.EL) ? int(e) : -1;
}

// Counts routes [begin, end) into hist[e * stride] (warp-private shared entries); returns this
// lane's invalid-id count.
template <typename IdT>
__device__ __forceinline__ int warp_count(const IdSource& src, int64_t begin, int64_t end, int* hist,
                                          int stride = 1) {
  const int lane = threadIdx.x & 31;
  int invalid = 0;
  for (int64_t i = begin + lane; i < end; i += 32) {
    bool inv = false;
    const int e = decode_route<IdT>(src, i, &inv);
    invalid += inv ? 1 : 0;
    if (e >= 0) atomicAdd(&hist[e * stride], 1);
  }
  return invalid;
}

__device__ __forceinline__ int warp_sum(int v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(kFull, v, o);
  return v;
}

// Walks routes [begin, end) in order; cursor[e * stride] holds the next row of expert e for this
// chunk. Writes both maps and row_expert.
template <typename IdT>
__device__ __forceinline__ void warp_scatter(const IdSource& src, int64_t begin, int64_t end, int* cursor,
                                             const RoutePlanDevice& p, int stride = 1) {
  const int lane = threadIdx.x & 31;
  const unsigned lower = (1u << lane) - 1u;
  for (int64_t base = begin; base < end; base += 32) {
    const int64_t i = base + lane;
    const bool in_range = i < end;
    bool inv = false;
    const int e = in_range ? decode_route<IdT>(src, i, &inv) : -2;
    const unsigned peers = __match_any_sync(kFull, e);
    int row = -1;
    if (e >= 0) row = cursor[e * stride] + __popc(peers & lower);
    __syncwarp();
    if (e >= 0 && (peers & lower) == 0) cursor[e * stride] += __popc(peers);  // the group's first lane
    __syncwarp();
    if (in_range) {
      p.route_to_row[i] = row;
      if (row >= 0) {
        p.row_to_route[row] = int32_t(i);
        p.row_expert[row] = e;
      }
    }
  }
}

// In-place exclusive scan of a[0, n) in shared memory by the whole block (blockDim.x a
// multiple of 32). Returns the total. Ends with a barrier.
__device__ int block_exclusive_scan(int* a, int n, int* warp_sums /* [33] */) {
  const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31, w = tid >> 5, nw = nt >> 5;
  const int seg = (n + nt - 1) / nt;
  const int b = min(n, tid * seg), e = min(n, b + seg);
  int s = 0;
  for (int i = b; i < e; ++i) s += a[i];
  int incl = s;
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const int v = __shfl_up_sync(kFull, incl, o);
    if (lane >= o) incl += v;
  }
  if (lane == 31) warp_sums[w] = incl;
  __syncthreads();
  if (w == 0) {
    const int v = lane < nw ? warp_sums[lane] : 0;
    int wi = v;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
      const int u = __shfl_up_sync(kFull, wi, o);
      if (lane >= o) wi += u;
    }
    if (lane < nw) warp_sums[lane] = wi - v;
    if (lane == 31) warp_sums[32] = wi;
  }
  __syncthreads();
  int run = warp_sums[w] + incl - s;
  for (int i = b; i < e; ++i) {
    const int v = a[i];
    a[i] = run;
    run += v;
  }
  const int total = warp_sums[32];
  __syncthreads();
  return total;
}

// ---- small path: one block ----------------------------------------------------------------
// Shared memory: hist[EL][W + 1], expert-major: warp w's count of expert e at e * S + w (S = W + 1,
// odd for the even W of full-size launches, so the lanes of a warp touching different experts hit
// different banks; slot W of each expert stays 0). One block-wide exclusive scan of that array gives each (expert, warp) its
// first row directly (the rows are expert-major and, inside an expert, in route order = warp
// order), and hist[e * S] is offsets[e]: no per-expert walk over the warps, no second scan.
template <typename IdT>
__global__ void route_plan_small_kernel(IdSource src, int64_t routes, int64_t chunk, RoutePlanDevice p,
                                        PlanExtras ex) {
  extern __shared__ int smem[];
  __shared__ int warp_sums[kWarpSumsWords];
  pdl_wait_then_release();
  const int EL = src.EL;
  const int tid = threadIdx.x, nt = blockDim.x, w = tid >> 5, lane = tid & 31, W = nt >> 5;
  const int S = W + 1;
  int* hist = smem;
  for (int i = tid; i < S * EL; i += nt) hist[i] = 0;
  __syncthreads();
  const int64_t begin = min64(routes, w * chunk), end = min64(routes, begin + chunk);
  const int invalid = warp_sum(warp_count<IdT>(src, begin, end, hist + w, S));
  if (lane == 0 && invalid) atomicAdd(p.invalid_count, (unsigned long long)invalid);
  __syncthreads();
  const int total = block_exclusive_scan(hist, S * EL, warp_sums);
  auto off = [&](int e) { return e < EL ? hist[e * S] : total; };
  for (int e = tid; e < EL; e += nt) {
    p.offsets[e] = off(e);
    p.counts[e] = off(e + 1) - off(e);
  }
  if (tid == 0) p.offsets[EL] = total;
#pragma unroll
  for (int gi = 0; gi < kMaxPlanGemmWrites; ++gi) write_gemm_arrays(ex.gemm[gi], EL, tid, nt, off);
  __syncthreads();  // every off() read before the cursors below move
  warp_scatter<IdT>(src, begin, end, hist + w, p, S);
  if (ex.permute.x == nullptr) return;
  // Gather x rows into expert order: one thread per 8 columns of a token loads them once (16
  // bytes) and stores them to each of the token's routed rows (as the permute kernel does).
  __syncthreads();  // route_to_row (global, written above by this block) is now visible
  const int64_t vecs = ex.permute.H / 8, H = ex.permute.H, T = routes / src.K;
  const uint16_t* x = static_cast<const uint16_t*>(ex.permute.x);
  uint16_t* xp = static_cast<uint16_t*>(ex.permute.x_perm);
  for (int64_t idx = tid; idx < T * vecs; idx += nt) {
    const int64_t t = idx / vecs, c = (idx - t * vecs) * 8;
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(x + t * ex.permute.ldx + c));
    for (int64_t k = 0; k < src.K; ++k) {
      const int32_t row = p.route_to_row[t * src.K + k];
      if (row >= 0) *reinterpret_cast<uint4*>(xp + int64_t(row) * H + c) = v;
    }
  }
}

// ---- large path: count, scan, scatter ---------------------------------------------------
// Block c owns routes [c*kChunkRoutes, (c+1)*kChunkRoutes). chunk_hist layout [EL][nchunks]:
// per-chunk counts (count kernel), then each chunk's exclusive prefix inside its expert
// (scan kernel), read by the scatter kernel.
template <typename IdT>
__global__ void route_plan_count_kernel(IdSource src, int64_t routes, int nchunks, RoutePlanDevice p) {
  extern __shared__ int smem[];
  pdl_wait_then_release();
  const int EL = src.EL;
  const int tid = threadIdx.x, nt = blockDim.x, lane = tid & 31;
  const int c = blockIdx.x;
  for (int e = tid; e < EL; e += nt) smem[e] = 0;
  __syncthreads();
  const int64_t begin = int64_t(c) * kChunkRoutes, end = min64(routes, begin + kChunkRoutes);
  int invalid = 0;
  for (int64_t i = begin + tid; i < end; i += nt) {
    bool inv = false;
    const int e = decode_route<IdT>(src, i, &inv);
    invalid += inv ? 1 : 0;
    if (e >= 0) atomicAdd(&smem[e], 1);
  }
  invalid = warp_sum(invalid);
  if (lane == 0 && invalid) atomicAdd(p.invalid_count, (unsigned long long)invalid);
  __syncthreads();
  for (int e = tid; e < EL; e += nt) p.chunk_hist[int64_t(e) * nchunks + c] = smem[e];
}

// One warp per expert: exclusive scan of its per-chunk counts; counts[e] = the total.
__global__ void route_plan_scan_kernel(int EL, int nchunks, RoutePlanDevice p) {
  pdl_wait_then_release();
  const int lane = threadIdx.x & 31;
  const int e = blockIdx.x * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (e >= EL) return;
  int* row = p.chunk_hist + int64_t(e) * nchunks;
  constexpr int kUnroll = 8;
  int carry = 0;
  for (int c0 = 0; c0 < nchunks; c0 += 32 * kUnroll) {
    int v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const int cc = c0 + u * 32 + lane;
      v[u] = cc < nchunks ? row[cc] : 0;
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      int incl = v[u];
#pragma unroll
      for (int o = 1; o < 32; o <<= 1) {
        const int t = __shfl_up_sync(kFull, incl, o);
        if (lane >= o) incl += t;
      }
      const int cc = c0 + u * 32 + lane;
      if (cc < nchunks) row[cc] = carry + incl - v[u];
      carry += __shfl_sync(kFull, incl, 31);
    }
  }
  if (lane == 0) p.counts[e] = carry;
}

// Block c: offsets from counts (every block scans them; block 0 stores them), then the
// chunk's routes split over W warps in order, per-warp counts, cursors, scatter.
// Shared memory: hist[W][EL], offs[EL].
template <typename IdT>
__global__ void route_plan_scatter_kernel(IdSource src, int64_t routes, int nchunks, RoutePlanDevice p,
                                          PlanExtras ex) {
  extern __shared__ int smem[];
  __shared__ int warp_sums[kWarpSumsWords];
  pdl_wait_then_release();
  const int EL = src.EL;
  const int tid = threadIdx.x, nt = blockDim.x, w = tid >> 5, W = nt >> 5;
  const int c = blockIdx.x;
  int* hist = smem;
  int* offs = smem + W * EL;
  for (int i = tid; i < W * EL; i += nt) hist[i] = 0;
  for (int e = tid; e < EL; e += nt) offs[e] = p.counts[e];
  __syncthreads();
  const int total = block_exclusive_scan(offs, EL, warp_sums);
  if (c == 0) {
    for (int e = tid; e < EL; e += nt) p.offsets[e] = offs[e];
    if (tid == 0) p.offsets[EL] = total;
    auto off = [&](int e) { return e < EL ? offs[e] : total; };
#pragma unroll
    for (int gi = 0; gi < kMaxPlanGemmWrites; ++gi) write_gemm_arrays(ex.gemm[gi], EL, tid, nt, off);
  }
  const int64_t cbegin = int64_t(c) * kChunkRoutes, cend = min64(routes, cbegin + kChunkRoutes);
  const int64_t per_warp = kChunkRoutes / W;  // W divides kChunkRoutes
  const int64_t begin = min64(cend, cbegin + w * per_warp), end = min64(cend, begin + per_warp);
  warp_count<IdT>(src, begin, end, hist + w * EL);  // invalid ids were counted by the count kernel
  __syncthreads();
  for (int e = tid; e < EL; e += nt) {
    int run = offs[e] + p.chunk_hist[int64_t(e) * nchunks + c];
    for (int ww = 0; ww < W; ++ww) {
      const int t = hist[ww * EL + e];
      hist[ww * EL + e] = run;
      run += t;
    }
  }
  __syncthreads();
  warp_scatter<IdT>(src, begin, end, hist + w * EL, p);
}

// cu::launch_kernel_pdl (the PDL attribute when `pdl`), checked.
template <typename... KArgs, typename... Args>
void launch(void (*kernel)(KArgs...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream, bool pdl,
            const char* what, Args... args) {
  check_cuda(cu::launch_kernel_pdl(kernel, grid, block, smem, stream, pdl, args...), what);
}

template <typename IdT>
void launch_plan(const IdSource& src, int64_t routes, const RoutePlanDevice& p, const PlanExtras& ex,
                 cudaStream_t stream) {
  const int EL = src.EL;
  if (routes <= kSmallPathRoutes) {
    // One route per lane when the shared memory allows: W = routes / 32 warps (at least 8 for
    // the scans), fewer for many experts. With a folded permute, all 32 warps (more copy threads).
    int W = int(std::clamp<int64_t>((routes + 31) / 32, 8, kSmallMaxWarps));
    if (ex.permute.x != nullptr) W = kSmallMaxWarps;
    while (W > 1 && size_t(W + 1) * EL * sizeof(int) > size_t(kSmemBudget)) --W;
    const int64_t per_warp = (routes + W - 1) / W;
    const int64_t chunk = std::max<int64_t>(32, (per_warp + 31) / 32 * 32);
    const size_t smem = size_t(W + 1) * EL * sizeof(int);
    launch(route_plan_small_kernel<IdT>, dim3(1), dim3(32 * W), smem, stream, ex.pdl_first,
           "route plan kernel launch", src, routes, chunk, p, ex);
  } else {
    if (ex.permute.x != nullptr) throw_invalid("extras.permute", "only with T*K <= 1024 (single-block plan)",
                                               std::to_string(routes) + " routes");
    const int nchunks = int(route_plan_chunks(routes));
    launch(route_plan_count_kernel<IdT>, dim3(nchunks), dim3(unsigned(kChunkRoutes)), size_t(EL) * sizeof(int),
           stream, ex.pdl_first, "route plan count kernel launch", src, routes, nchunks, p);
    constexpr int kScanWarps = 4;
    launch(route_plan_scan_kernel, dim3((EL + kScanWarps - 1) / kScanWarps), dim3(32 * kScanWarps), 0, stream,
           true, "route plan scan kernel launch", EL, nchunks, p);
    int W = kBigWarps;  // a power of two dividing kChunkRoutes / 32
    while (W > 1 && size_t(W + 1) * EL * sizeof(int) > size_t(kSmemBudget)) W >>= 1;
    const size_t smem = size_t(W + 1) * EL * sizeof(int);
    launch(route_plan_scatter_kernel<IdT>, dim3(nchunks), dim3(32 * W), smem, stream, true,
           "route plan scatter kernel launch", src, routes, nchunks, p, ex);
  }
}

}  // namespace

int64_t max_gpu_local_experts() { return kSmemBudget / (2 * int64_t(sizeof(int))); }

void init_route_plan(const RoutePlanDevice& plan, void* stream) {
  auto s = static_cast<cudaStream_t>(stream);
  check_cuda(cudaMemsetAsync(plan.invalid_count, 0, sizeof(unsigned long long), s), "route plan init");
  check_cuda(cudaStreamSynchronize(s), "route plan init");
}

void build_route_plan_gpu(const TensorView& ids, const RouteDims& d, const RoutePlanDevice& plan,
                          void* stream) {
  build_route_plan_gpu(ids, d, plan, PlanExtras{}, stream);
}

void build_route_plan_gpu(const TensorView& ids, const RouteDims& d, const RoutePlanDevice& plan,
                          const PlanExtras& extras, void* stream) {
  if (d.num_tokens < 0 || d.num_tokens > plan.capacity_tokens)
    throw_invalid("num_tokens", "in [0, " + std::to_string(plan.capacity_tokens) + "] (plan capacity)",
                  std::to_string(d.num_tokens));
  if (d.top_k != plan.top_k)
    throw_invalid("top_k", std::to_string(plan.top_k) + " (plan)", std::to_string(d.top_k));
  if (d.local_experts != plan.local_experts || d.local_experts < 1 || d.local_experts > max_gpu_local_experts())
    throw_invalid("local_experts", std::to_string(plan.local_experts) + " (plan), at most " +
                  std::to_string(max_gpu_local_experts()), std::to_string(d.local_experts));
  if (ids.dtype != DType::kI32 && ids.dtype != DType::kI64)
    throw_invalid("topk_ids", "int32 or int64", dtype_name(ids.dtype));
  IdSource src;
  src.ptr = ids.data;
  src.s0 = ids.ndim >= 1 ? ids.strides[0] : d.top_k;
  src.s1 = ids.ndim >= 2 ? ids.strides[1] : 1;
  src.K = d.top_k;
  src.E = d.num_experts;
  src.e0 = d.first_local_expert;
  src.EL = int(d.local_experts);
  src.contiguous = src.s1 == 1 && (src.s0 == src.K || d.num_tokens <= 1);
  const int64_t routes = d.num_tokens * d.top_k;
  auto s = static_cast<cudaStream_t>(stream);
  if (extras.permute.x != nullptr && !plan_permute_supported(extras.permute))
    throw_invalid("extras.permute", "H and ldx multiples of 8, 16-byte aligned x and x_perm", "unsupported layout");
  for (const GroupedProblemWrite& w : extras.gemm) {
    if (w.shapes == nullptr) continue;
    if (w.rows_slot < 0 || w.rows_slot > 2 || !w.ptr_w || !w.ptr_x || !w.ptr_d)
      throw_invalid("extras.gemm", "rows_slot in [0, 3) and all argument arrays set", "an incomplete entry");
    for (int j = 0; j < 3; ++j)
      if (w.stride_ptr[j] && (w.stride_bytes[j] <= 0 || w.stride_bytes[j] > 16 || w.stride_bytes[j] % 4 != 0))
        throw_invalid("extras.gemm.stride_bytes", "in {4, 8, 12, 16}", std::to_string(w.stride_bytes[j]));
  }
  if (ids.dtype == DType::kI32)
    launch_plan<int32_t>(src, routes, plan, extras, s);
  else
    launch_plan<int64_t>(src, routes, plan, extras, s);
}

}  // namespace megamoe::routing
