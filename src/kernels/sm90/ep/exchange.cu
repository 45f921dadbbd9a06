// Expert-parallel exchange kernels (see exchange.h for the protocol).
// Copies move 16-byte vectors in warp items of kChunkVecs = 32 lanes x kUnroll vectors (4 KiB):
// every lane issues its kUnroll loads before any store, so one item costs one memory (or NVLink)
// latency instead of one per 512 bytes; a row of H bf16 (H / 8 vectors) is ceil(H/8 / 256)
// items, and the items of all rows are spread over every warp of the grid. Peer memory is read with ld.global.cg (L2 only, never a stale L1 line) and
// written with plain stores; ordering comes from a system-scope fence before each flag store
// (st.release.sys) and an acquire load (ld.acquire.sys) in the waiter.
#include "kernels/sm90/ep/exchange.h"

#include <cub/block/block_scan.cuh>

#include <string>

#include "ep/placement.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/vector_io.cuh"
#include "megamoe/errors.h"

#if defined(MEGAMOE_WITH_NCCL)
#include <nccl.h>
#include <nccl_device.h>
#endif

namespace megamoe::sm90::ep {

namespace {

constexpr int kThreads = 256;          // copy kernels: 8 warps, one item each at a time
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 8;             // 16-byte vectors in flight per lane
constexpr int64_t kChunkVecs = 32 * kUnroll;
constexpr int kCombineBatch = 4;       // routes whose y vectors combine loads before using any
constexpr int kPlanThreads = 1024;     // the plan is one block: T * K routes, R scans over T

size_t al(size_t n) { return cu::align_up(n, 256); }

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
__device__ __forceinline__ unsigned long long ld_acquire_sys(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_release_sys(unsigned long long* p, unsigned long long v) {
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ bool failed(const ExchangeParams& p) { return *(volatile unsigned*)p.error != 0; }

__device__ void record_error(const ExchangeParams& p, unsigned bit, unsigned phase, int peer) {
  atomicCAS(p.error + 1, 0u, (phase << 16) | unsigned(peer));
  atomicOr(p.error, bit);
}

// Waits until *flag >= epoch. False (error recorded) on timeout, on abort, or when another
// wait of this forward already failed.
__device__ bool wait_flag(const ExchangeParams& p, const unsigned long long* flag, unsigned long long epoch,
                          unsigned phase, int peer) {
  if (ld_acquire_sys(flag) >= epoch) return true;
  const unsigned long long t0 = global_timer();
  for (unsigned spin = 1;; ++spin) {
    if (ld_acquire_sys(flag) >= epoch) return true;
    if (failed(p)) return false;
    // The abort word lives in host memory (a PCIe read): polled every 64th spin only.
    if ((spin & 63u) == 0 && *p.abort_word) {
      record_error(p, kErrAborted, phase, peer);
      return false;
    }
    if (global_timer() - t0 > p.timeout_ns) {
      record_error(p, kErrTimeout, phase, peer);
      return false;
    }
    __nanosleep(64);
  }
}

// Every CTA waits for the flags of all R peers (threads 0..R-1, then a barrier).
__device__ bool wait_all(const ExchangeParams& p, size_t flags_off, unsigned long long epoch, unsigned phase) {
  __shared__ int ok;
  if (threadIdx.x == 0) ok = 1;
  __syncthreads();
  if (int(threadIdx.x) < p.R) {
    const auto* f = reinterpret_cast<const unsigned long long*>(p.peers[p.me] + flags_off) + threadIdx.x;
    if (!wait_flag(p, f, epoch, phase, int(threadIdx.x))) ok = 0;
  }
  __syncthreads();
  return ok && !failed(p);
}

template <class T>
__device__ __forceinline__ T* at(char* base, size_t off) { return reinterpret_cast<T*>(base + off); }

// One warp copies vectors [c*kChunkVecs, min((c+1)*kChunkVecs, vecs)) of a row.
__device__ __forceinline__ void warp_copy_chunk(uint4* dst, const uint4* src, int64_t vecs, int64_t c, int lane) {
  uint4 v[kUnroll];
  const int64_t b = c * kChunkVecs + lane;
#pragma unroll
  for (int i = 0; i < kUnroll; ++i)
    if (b + 32 * i < vecs) v[i] = __ldcg(src + b + 32 * i);
#pragma unroll
  for (int i = 0; i < kUnroll; ++i)
    if (b + 32 * i < vecs) dst[b + 32 * i] = v[i];
}
__device__ __forceinline__ int64_t chunks_per_row(int64_t vecs) { return (vecs + kChunkVecs - 1) / kChunkVecs; }

// Last CTA of the grid to arrive: true in thread 0 of that CTA (after a system fence by every
// CTA, so all their stores are visible before the caller's release stores). Resets the counter.
__device__ bool last_cta(unsigned* done) {
  __syncthreads();
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence_system();
    const unsigned prev = atomicAdd(done, 1u);
    last = prev == gridDim.x * gridDim.y - 1;
    if (last) *done = 0;
  }
  __syncthreads();
  return last && threadIdx.x == 0;
}

// ---- plan --------------------------------------------------------------------------------
__device__ void plan_body(const ExchangeParams& p, const void* ids, bool ids_i64, int64_t T) {
  using Scan = cub::BlockScan<int, kPlanThreads>;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ int base;
  if (threadIdx.x == 0) *p.epoch += 1;
  char* own = p.peers[p.me];
  const int64_t K = p.K, routes = T * K;
  unsigned long long invalid = 0, unrouted = 0;
  for (int64_t r = threadIdx.x; r < routes; r += blockDim.x) {
    const int64_t id = ids_i64 ? static_cast<const int64_t*>(ids)[r] : static_cast<const int32_t*>(ids)[r];
    int32_t d = -1, slot = -1;
    if (id == -1) {
    } else if (id < 0 || id >= p.E) {
      ++invalid;
    } else if (!megamoe::ep::ep_route_target(p.replica_begin, p.replica_rank, p.replica_slot, int32_t(id), p.me,
                                             r / K, &d, &slot)) {
      ++unrouted;
      d = -1;
    }
    p.route_dest[r] = d;
    p.route_slot[r] = slot;
  }
  if (invalid) atomicAdd(p.counters + 0, invalid);
  if (unrouted) atomicAdd(p.counters + 1, unrouted);
  __syncthreads();
  // Per owner d: token t's row j in the list = number of earlier tokens with a route to d.
  // Thread i takes tokens [i*chunk, (i+1)*chunk) so the scan is one block-wide exclusive sum.
  const int64_t chunk = (T + kPlanThreads - 1) / kPlanThreads;
  const int64_t t0 = int64_t(threadIdx.x) * chunk, t1 = t0 + chunk < T ? t0 + chunk : T;
  int32_t* send_count = at<int32_t>(own, p.L.send_count);
  for (int d = 0; d < p.R; ++d) {
    int mine = 0;
    for (int64_t t = t0; t < t1; ++t) {
      bool has = false;
      for (int64_t k = 0; k < K; ++k) has |= p.route_dest[t * K + k] == d;
      mine += has;
    }
    int j, total;
    Scan(scan_tmp).ExclusiveSum(mine, j, total);
    int32_t* list = at<int32_t>(own, p.L.send_list) + int64_t(d) * p.cap;
    int32_t* slots = at<int32_t>(own, p.L.send_slots) + int64_t(d) * p.cap * K;
    for (int64_t t = t0; t < t1; ++t) {
      bool has = false;
      for (int64_t k = 0; k < K; ++k) has |= p.route_dest[t * K + k] == d;
      p.tok_pos[t * p.R + d] = has ? j : -1;
      if (!has) continue;
      list[j] = int32_t(t);
      for (int64_t k = 0; k < K; ++k) slots[int64_t(j) * K + k] = p.route_dest[t * K + k] == d ? p.route_slot[t * K + k] : -1;
      ++j;
    }
    if (threadIdx.x == 0) base = total;
    __syncthreads();
    if (threadIdx.x == 0) send_count[d] = base;
    __syncthreads();
  }
}

__global__ void __launch_bounds__(kPlanThreads) plan_kernel(ExchangeParams p, const void* ids, bool ids_i64, int64_t T) {
  plan_body(p, ids, ids_i64, T);
}

// ---- dispatch ----------------------------------------------------------------------------
// Copy items of the dispatch, spread over warps [gwarp, +nwarps): push stores the rows into the
// owners' receive regions, pull copies x into this rank's send window.
__device__ void dispatch_copies(const ExchangeParams& p, bool push, const uint4* x, int64_t ldx_vec, int64_t T,
                                int64_t gwarp, int64_t nwarps, int lane) {
  char* own = p.peers[p.me];
  const int64_t vecs = p.H / 8, K = p.K, cpr = chunks_per_row(vecs);
  if (push) {
    const int32_t* send_count = at<int32_t>(own, p.L.send_count);
    for (int d = 0; d < p.R; ++d) {
      char* dst = p.peers[d];
      const int64_t n = send_count[d];
      const int32_t* list = at<int32_t>(own, p.L.send_list) + int64_t(d) * p.cap;
      const int32_t* slots = at<int32_t>(own, p.L.send_slots) + int64_t(d) * p.cap * K;
      for (int64_t q = gwarp; q < n * cpr; q += nwarps) {
        const int64_t j = q / cpr, c = q - j * cpr;
        const int64_t row = int64_t(p.me) * p.cap + j, t = list[j];
        warp_copy_chunk(at<uint4>(dst, p.L.recv_x) + row * vecs, x + t * ldx_vec, vecs, c, lane);
        if (c != 0) continue;
        for (int64_t k = lane; k < K; k += 32) at<int32_t>(dst, p.L.recv_ids)[row * K + k] = slots[j * K + k];
        if (lane == 0) at<int32_t>(dst, p.L.recv_tok)[row] = int32_t(t);
      }
    }
  } else {
    for (int64_t q = gwarp; q < T * cpr; q += nwarps) {
      const int64_t t = q / cpr, c = q - t * cpr;
      warp_copy_chunk(at<uint4>(own, p.L.send_x) + t * vecs, x + t * ldx_vec, vecs, c, lane);
    }
  }
}

// One thread, after every copy of the dispatch is fenced: push publishes the row counts in the
// owners' windows; both release the epoch into every peer's dispatch flag [me].
__device__ void dispatch_signal(const ExchangeParams& p, bool push, unsigned long long epoch) {
  char* own = p.peers[p.me];
  if (push) {
    for (int d = 0; d < p.R; ++d) at<int32_t>(p.peers[d], p.L.recv_count)[p.me] = at<int32_t>(own, p.L.send_count)[d];
    __threadfence_system();
  }
  for (int d = 0; d < p.R; ++d) st_release_sys(at<unsigned long long>(p.peers[d], p.L.dispatch_flags) + p.me, epoch);
}

__global__ void __launch_bounds__(kThreads) dispatch_kernel(ExchangeParams p, bool push, const uint4* x, int64_t ldx_vec,
                                                            int64_t T) {
  const unsigned long long epoch = *p.epoch;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  dispatch_copies(p, push, x, ldx_vec, T, int64_t(blockIdx.x) * kWarps + warp, int64_t(gridDim.x) * kWarps, lane);
  if (last_cta(p.done + 0)) dispatch_signal(p, push, epoch);
}

// Small batches: the plan's single CTA dispatches too (one kernel boundary less at decode).
__global__ void __launch_bounds__(kPlanThreads) plan_dispatch_kernel(ExchangeParams p, const void* ids, bool ids_i64,
                                                                     int64_t T, bool push, const uint4* x,
                                                                     int64_t ldx_vec) {
  plan_body(p, ids, ids_i64, T);
  __syncthreads();
  dispatch_copies(p, push, x, ldx_vec, T, threadIdx.x / 32, kPlanThreads / 32, threadIdx.x % 32);
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence_system();
    dispatch_signal(p, push, *p.epoch);
  }
}

// ---- receive -----------------------------------------------------------------------------
__global__ void __launch_bounds__(kThreads) receive_kernel(ExchangeParams p, bool push) {
  const unsigned long long epoch = *p.epoch;
  char* own = p.peers[p.me];
  const bool ok = wait_all(p, p.L.dispatch_flags, epoch, kPhaseDispatch);
  const int64_t vecs = p.H / 8, K = p.K, cap = p.cap, cpr = chunks_per_row(vecs);
  __shared__ int cnt[64];
  if (int(threadIdx.x) < p.R) {
    const int s = threadIdx.x;
    int n = 0;
    if (ok) n = push ? *(volatile int32_t*)(at<int32_t>(own, p.L.recv_count) + s)
                     : __ldcg(at<int32_t>(p.peers[s], p.L.send_count) + p.me);
    cnt[s] = n < 0 ? 0 : (n > cap ? int(cap) : n);
    if (blockIdx.x == 0) p.recv_counts[s] = cnt[s];
  }
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t gwarp = int64_t(blockIdx.x) * kWarps + warp, nwarps = int64_t(gridDim.x) * kWarps;
  int32_t* recv_ids = at<int32_t>(own, p.L.recv_ids);
  for (int s = 0; s < p.R; ++s) {
    if (!push) {
      const char* src = p.peers[s];
      const int32_t* list = at<const int32_t>(const_cast<char*>(src), p.L.send_list) + int64_t(p.me) * cap;
      const int32_t* slots = at<const int32_t>(const_cast<char*>(src), p.L.send_slots) + int64_t(p.me) * cap * K;
      for (int64_t q = gwarp; q < cnt[s] * cpr; q += nwarps) {
        const int64_t j = q / cpr, c = q - j * cpr;
        const int64_t row = int64_t(s) * cap + j, t = __ldcg(list + j);
        warp_copy_chunk(at<uint4>(own, p.L.recv_x) + row * vecs,
                        at<const uint4>(const_cast<char*>(src), p.L.send_x) + t * vecs, vecs, c, lane);
        if (c != 0) continue;
        for (int64_t k = lane; k < K; k += 32) recv_ids[row * K + k] = __ldcg(slots + j * K + k);
      }
    }
    // Rows nobody sent this forward carry no route.
    const int64_t first = (int64_t(s) * cap + cnt[s]) * K, last = (int64_t(s) + 1) * cap * K;
    for (int64_t i = first + int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < last; i += int64_t(gridDim.x) * blockDim.x)
      recv_ids[i] = -1;
  }
}

// ---- return ------------------------------------------------------------------------------
// Push: each received route's y row goes to its source's return rows [t*K + k]. Routes whose
// source is this rank stay in y_ret: the combine reads them there (no local copy).
__device__ void return_copies(const ExchangeParams& p, int64_t gwarp, int64_t nwarps, int lane) {
  char* own = p.peers[p.me];
  const int64_t vecs = p.H / 8, K = p.K, cap = p.cap, cpr = chunks_per_row(vecs);
  const int32_t* recv_ids = at<int32_t>(own, p.L.recv_ids);
  const int32_t* recv_tok = at<int32_t>(own, p.L.recv_tok);
  for (int s = 0; s < p.R; ++s) {
    if (s == p.me) continue;
    const int64_t n = p.recv_counts[s] * K;
    char* dst = p.peers[s];
    for (int64_t q = gwarp; q < n * cpr; q += nwarps) {  // q = (j*K + k) * cpr + c within region s
      const int64_t i = q / cpr, c = q - i * cpr;
      const int64_t row = int64_t(s) * cap + i / K, k = i % K;
      if (recv_ids[row * K + k] < 0) continue;
      const int64_t t = recv_tok[row];
      warp_copy_chunk(at<uint4>(dst, p.L.ret) + (t * K + k) * vecs,
                      at<const uint4>(own, p.L.y_ret) + (row * K + k) * vecs, vecs, c, lane);
    }
  }
}

__device__ void return_signal(const ExchangeParams& p, unsigned long long epoch) {
  for (int d = 0; d < p.R; ++d) st_release_sys(at<unsigned long long>(p.peers[d], p.L.return_flags) + p.me, epoch);
}

__global__ void __launch_bounds__(kThreads) return_kernel(ExchangeParams p, bool push) {
  const unsigned long long epoch = *p.epoch;
  if (push)
    return_copies(p, int64_t(blockIdx.x) * kWarps + threadIdx.x / 32, int64_t(gridDim.x) * kWarps, threadIdx.x % 32);
  if (last_cta(p.done + 1)) {
    __threadfence_system();
    return_signal(p, epoch);
  }
}

// ---- combine -----------------------------------------------------------------------------
// The same arithmetic as kernels/sm90/moe/combine.cu's bf16-y combine: FP32, k order, products
// and sums rounded separately, one bf16 rounding at the end; NaN when the exchange failed.
// Columns [8v, 8v+8) of token t. y of route (t, k) owned by rank d: push and d != me: the
// return rows; otherwise (pull, or this rank's own experts) the owner's y_ret, over NVLink
// when d != me.
__device__ void combine_one(const ExchangeParams& p, bool push, bool ok, const float* topk_weights, int64_t t,
                            int64_t v, __nv_bfloat16* out) {
  const int64_t vecs = p.H / 8, K = p.K;
  float acc[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) acc[j] = ok ? 0.0f : __int_as_float(0x7fc00000);
  if (ok) {
    for (int64_t k0 = 0; k0 < K; k0 += kCombineBatch) {
      // The batch's y vectors are all in flight before the first is used; the sum still runs
      // in k order.
      uint4 raw[kCombineBatch];
      float w[kCombineBatch];
      bool use[kCombineBatch];
#pragma unroll
      for (int q = 0; q < kCombineBatch; ++q) {
        const int64_t k = k0 + q;
        const int32_t d = k < K ? p.route_dest[t * K + k] : -1;
        use[q] = d >= 0;
        w[q] = use[q] ? topk_weights[t * K + k] : 0.0f;
        if (!use[q]) continue;
        const uint4* src;
        if (push && d != p.me) {
          src = at<const uint4>(p.peers[p.me], p.L.ret) + (t * K + k) * vecs;
        } else {
          const int64_t row = int64_t(p.me) * p.cap + p.tok_pos[t * p.R + d];
          src = at<const uint4>(p.peers[d], p.L.y_ret) + (row * K + k) * vecs;
        }
        raw[q] = __ldcg(src + v);
      }
#pragma unroll
      for (int q = 0; q < kCombineBatch; ++q) {
        if (!use[q]) continue;
        vec::accumulate_weighted_bf16x8(acc, raw[q], w[q]);
      }
    }
  }
  vec::store_bf16x8(out + t * p.H + v * 8, acc);
}

__global__ void __launch_bounds__(kThreads) combine_kernel(ExchangeParams p, bool push, const float* topk_weights,
                                                           int64_t T, __nv_bfloat16* out) {
  const unsigned long long epoch = *p.epoch;
  const bool ok = wait_all(p, p.L.return_flags, epoch, kPhaseReturn);
  const int64_t vecs = p.H / 8;
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= T * vecs) return;
  combine_one(p, push, ok, topk_weights, idx / vecs, idx % vecs, out);
}

// Small batches: one CTA returns, signals, waits and combines (one kernel boundary less).
__global__ void __launch_bounds__(kPlanThreads) return_combine_kernel(ExchangeParams p, bool push,
                                                                      const float* topk_weights, int64_t T,
                                                                      __nv_bfloat16* out) {
  const unsigned long long epoch = *p.epoch;
  if (push) return_copies(p, threadIdx.x / 32, kPlanThreads / 32, threadIdx.x % 32);
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence_system();
    return_signal(p, epoch);
  }
  const bool ok = wait_all(p, p.L.return_flags, epoch, kPhaseReturn);
  const int64_t vecs = p.H / 8;
  for (int64_t idx = threadIdx.x; idx < T * vecs; idx += kPlanThreads)
    combine_one(p, push, ok, topk_weights, idx / vecs, idx % vecs, out);
}

#if defined(MEGAMOE_WITH_NCCL)
__global__ void peer_table_kernel(ncclWindow_t win, int R, char** peers) {
  for (int r = threadIdx.x; r < R; r += blockDim.x) peers[r] = static_cast<char*>(ncclGetPeerPointer(win, 0, r));
}
#endif

// Enough CTAs for one warp per copy item, at most 4 per SM (each waits on flags first).
unsigned copy_grid(int64_t warps_needed) {
  const int64_t cap = int64_t(cu::current_sm_count()) * 4;
  int64_t g = cu::ceil_div<int64_t>(warps_needed, kWarps);
  return unsigned(g < 1 ? 1 : (g > cap ? cap : g));
}

}  // namespace

WindowLayout WindowLayout::make(int R, int64_t cap, int64_t K, int64_t H) {
  WindowLayout L;
  size_t o = 0;
  auto take = [&](size_t bytes) {
    const size_t at = o;
    o += al(bytes);
    return at;
  };
  const size_t r = size_t(R), c = size_t(cap), k = size_t(K), h = size_t(H);
  L.dispatch_flags = take(8 * r);
  L.return_flags = take(8 * r);
  L.recv_count = take(4 * r);
  L.send_count = take(4 * r);
  L.send_list = take(4 * r * c);
  L.send_slots = take(4 * r * c * k);
  L.send_x = take(2 * c * h);
  L.recv_x = take(2 * r * c * h);
  L.recv_ids = take(4 * r * c * k);
  L.recv_tok = take(4 * r * c);
  L.y_ret = take(2 * r * c * k * h);
  L.ret = take(2 * c * k * h);
  L.bytes = o;
  return L;
}

namespace {

// What the fused kernels' single 1024-thread CTA (32 warps) may take: about one round of
// loads per warp or thread, because a second round costs more than the kernel boundary it
// saves. Measured on two H200s (commit 80a0c0a, limits 128 / 256 / 4096): fused at
// qwen3-30b-a3b T = 8 (16 dispatch items, 128 return items, 2048 combine vectors) the exchange
// took 39.7 us against 34.8 unfused; at T = 1 (one round each) 30.3 against 38.7.
constexpr int64_t kFusedDispatchItems = 32, kFusedReturnItems = 64, kFusedCombineVecs = kPlanThreads;

int64_t row_chunks(int64_t H) { return (H / 8 + kChunkVecs - 1) / kChunkVecs; }

void check_x(const ExchangeParams& p, const void* x, int64_t ldx) {
  if (p.H % 8 != 0 || ldx % 8 != 0 || !cu::aligned(x, 16))
    throw_invalid("x", "16-byte aligned rows (H and the row stride multiples of 8) for the EP exchange",
                  "H " + std::to_string(p.H) + ", row stride " + std::to_string(ldx));
}

}  // namespace

bool fused_dispatch(const ExchangeParams& p, bool push, int64_t T) {
  return (push ? int64_t(p.R) * T : T) * row_chunks(p.H) <= kFusedDispatchItems;
}
bool fused_return(const ExchangeParams& p, int64_t T) {
  return int64_t(p.R) * p.cap * p.K * row_chunks(p.H) <= kFusedReturnItems && T * (p.H / 8) <= kFusedCombineVecs;
}

void launch_plan_dispatch(const ExchangeParams& p, bool push, const void* ids, bool ids_i64, const void* x,
                          int64_t ldx, int64_t T, cudaStream_t stream) {
  check_x(p, x, ldx);
  const auto* xv = static_cast<const uint4*>(x);
  if (fused_dispatch(p, push, T)) {
    plan_dispatch_kernel<<<1, kPlanThreads, 0, stream>>>(p, ids, ids_i64, T, push, xv, ldx / 8);
    cu::check("ep", cudaGetLastError(), "plan+dispatch kernel launch");
    return;
  }
  plan_kernel<<<1, kPlanThreads, 0, stream>>>(p, ids, ids_i64, T);
  cu::check("ep", cudaGetLastError(), "plan kernel launch");
  const unsigned grid = copy_grid((push ? int64_t(p.R) * T : T) * row_chunks(p.H));
  dispatch_kernel<<<grid, kThreads, 0, stream>>>(p, push, xv, ldx / 8, T);
  cu::check("ep", cudaGetLastError(), "dispatch kernel launch");
}

void launch_receive(const ExchangeParams& p, bool push, cudaStream_t stream) {
  if (p.R > 64) throw Unsupported("expert parallelism over more than 64 ranks");
  const unsigned grid = copy_grid(push ? int64_t(p.R) * p.cap * p.K / 256 : int64_t(p.R) * p.cap * row_chunks(p.H));
  receive_kernel<<<grid, kThreads, 0, stream>>>(p, push);
  cu::check("ep", cudaGetLastError(), "receive kernel launch");
}

void launch_return_combine(const ExchangeParams& p, bool push, const float* topk_weights, int64_t T, void* out,
                           cudaStream_t stream) {
  if (!cu::aligned(out, 16)) throw_invalid("out", "a 16-byte aligned pointer", "misaligned");
  auto* o = static_cast<__nv_bfloat16*>(out);
  if (fused_return(p, T)) {
    return_combine_kernel<<<1, kPlanThreads, 0, stream>>>(p, push, topk_weights, T, o);
    cu::check("ep", cudaGetLastError(), "return+combine kernel launch");
    return;
  }
  const unsigned rgrid = push ? copy_grid(int64_t(p.R) * p.cap * p.K * row_chunks(p.H)) : 1;
  return_kernel<<<rgrid, kThreads, 0, stream>>>(p, push);
  cu::check("ep", cudaGetLastError(), "return kernel launch");
  const int64_t threads = T * (p.H / 8);
  const unsigned grid = unsigned(threads > 0 ? cu::ceil_div<int64_t>(threads, kThreads) : 1);
  combine_kernel<<<grid, kThreads, 0, stream>>>(p, push, topk_weights, T, o);
  cu::check("ep", cudaGetLastError(), "combine kernel launch");
}

void fill_peer_table(const void* window, int R, char** peers, cudaStream_t stream) {
#if defined(MEGAMOE_WITH_NCCL)
  peer_table_kernel<<<1, 64, 0, stream>>>(static_cast<ncclWindow_t>(const_cast<void*>(window)), R, peers);
  cu::check("ep", cudaGetLastError(), "peer table kernel launch");
#else
  (void)window; (void)R; (void)peers; (void)stream;
  throw Unsupported("expert parallelism on GPUs needs NCCL; this megamoe build has none");
#endif
}

}  // namespace megamoe::sm90::ep
