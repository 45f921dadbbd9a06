// The device side of the expert-parallel exchange (exchange.h has the protocol), as functions a
// kernel calls with its own grid geometry: the split kernels of exchange.cu call them once per
// stage; a persistent kernel (the Mega-EP kernel) can call the same steps from its CTAs.
// Copies move 16-byte vectors in warp items of kChunkVecs = 32 lanes x kUnroll vectors (4 KiB):
// every lane issues its kUnroll loads before any store, so one item costs one memory (or NVLink)
// latency instead of one per 512 bytes; a row of H bf16 (H / 8 vectors) is ceil(H/8 / 256)
// items, spread over all the warps taking part. Peer memory is read with ld.global.cg (L2 only,
// never a stale L1 line) and written with plain stores; ordering comes from a system-scope
// fence before each flag store (st.release.sys) and an acquire load (ld.acquire.sys) in the
// waiter.
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cub/block/block_scan.cuh>
#include <cstdint>

#include "ep/placement.h"
#include "kernels/sm90/common/vector_io.cuh"
#include "kernels/sm90/ep/exchange.h"

namespace megamoe::sm90::ep::dev {

constexpr int kUnroll = 8;             // 16-byte vectors in flight per lane
constexpr int64_t kChunkVecs = 32 * kUnroll;
constexpr int kCombineBatch = 8;       // routes whose y vectors combine loads before using any (K <= 8 of
                                       // the common presets: one round of loads per token)
constexpr int kPlanThreads = 1024;     // the plan is one CTA of this size: T * K routes, R scans over T

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

inline __device__ void record_error(const ExchangeParams& p, unsigned bit, unsigned phase, int peer) {
  atomicCAS(p.error + 1, 0u, (phase << 16) | unsigned(peer));
  atomicOr(p.error, bit);
}

// Waits until *flag >= epoch (or *alt >= epoch when alt is not null). False (error recorded) on
// timeout, on abort, or when another wait of this forward already failed.
inline __device__ bool wait_flag(const ExchangeParams& p, const unsigned long long* flag, unsigned long long epoch,
                                 unsigned phase, int peer, const unsigned long long* alt = nullptr) {
  auto arrived = [&] { return ld_acquire_sys(flag) >= epoch || (alt != nullptr && ld_acquire_sys(alt) >= epoch); };
  if (arrived()) return true;
  const unsigned long long t0 = global_timer();
  for (unsigned spin = 1;; ++spin) {
    if (arrived()) return true;
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

// Every CTA waits for the flags of all R peers (threads 0..R-1, then a barrier). With
// block >= 0: for each owner, its return flag of that column block or its whole return flag.
inline __device__ bool wait_all(const ExchangeParams& p, size_t flags_off, unsigned long long epoch, unsigned phase,
                                int block = -1) {
  __shared__ int ok;
  if (threadIdx.x == 0) ok = 1;
  __syncthreads();
  if (int(threadIdx.x) < p.R) {
    const int d = int(threadIdx.x);
    const auto* f = reinterpret_cast<const unsigned long long*>(p.peers[p.me] + flags_off) + d;
    const unsigned long long* alt = nullptr;
    if (block >= 0)
      alt = reinterpret_cast<const unsigned long long*>(p.peers[p.me] + p.L.return_block_flags) +
            int64_t(d) * return_blocks(p.H) + block;
    if (!wait_flag(p, f, epoch, phase, d, alt)) ok = 0;
  }
  __syncthreads();
  return ok && !failed(p);
}

template <class T>
__device__ __forceinline__ T* at(char* base, size_t off) { return reinterpret_cast<T*>(base + off); }

// The 128-byte lines of [p, p + bytes) into L2, spread over the CTA's threads (no wait).
__device__ __forceinline__ void prefetch_l2(const void* p, size_t bytes) {
  const char* c = static_cast<const char*>(p);
  for (size_t o = size_t(threadIdx.x) * 128; o < bytes; o += size_t(blockDim.x) * 128)
    asm volatile("prefetch.global.L2 [%0];" ::"l"(c + o));
}

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
inline __device__ bool last_cta(unsigned* done) {
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

// Route r = t*K + k of this rank's ids: its owner rank and local slot there (the placement
// rule, ep/placement.h), or -1 / -1 for -1 ids, invalid ids and experts nobody holds (counted).
inline __device__ void route_target(const ExchangeParams& p, const void* ids, bool ids_i64, int64_t r, int32_t* owner,
                                    int32_t* slot, unsigned long long* invalid, unsigned long long* unrouted) {
  const int64_t id = ids_i64 ? static_cast<const int64_t*>(ids)[r] : static_cast<const int32_t*>(ids)[r];
  *owner = -1;
  *slot = -1;
  if (id == -1) return;
  if (id < 0 || id >= p.E) {
    ++*invalid;
  } else if (!megamoe::ep::ep_route_target(p.replica_begin, p.replica_rank, p.replica_slot, int32_t(id), p.me,
                                           r / p.K, owner, slot)) {
    ++*unrouted;
    *owner = -1;
  }
}

// ---- plan --------------------------------------------------------------------------------
inline __device__ void plan_body(const ExchangeParams& p, const void* ids, bool ids_i64, int64_t T) {
  using Scan = cub::BlockScan<int, kPlanThreads>;
  __shared__ typename Scan::TempStorage scan_tmp;
  __shared__ int base;
  if (threadIdx.x == 0) *p.epoch += 1;
  char* own = p.peers[p.me];
  const int64_t K = p.K, routes = T * K;
  unsigned long long invalid = 0, unrouted = 0;
  for (int64_t r = threadIdx.x; r < routes; r += blockDim.x) {
    int32_t d, slot;
    route_target(p, ids, ids_i64, r, &d, &slot, &invalid, &unrouted);
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


// ---- dispatch ----------------------------------------------------------------------------
// Copy items of the dispatch, spread over warps [gwarp, +nwarps): push stores the rows into the
// owners' receive regions, pull copies x into this rank's send window.
inline __device__ void dispatch_copies(const ExchangeParams& p, bool push, const uint4* x, int64_t ldx_vec, int64_t T,
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
inline __device__ void dispatch_signal(const ExchangeParams& p, bool push, unsigned long long epoch) {
  char* own = p.peers[p.me];
  if (push) {
    for (int d = 0; d < p.R; ++d) at<int32_t>(p.peers[d], p.L.recv_count)[p.me] = at<int32_t>(own, p.L.send_count)[d];
    __threadfence_system();
  }
  for (int d = 0; d < p.R; ++d) st_release_sys(at<unsigned long long>(p.peers[d], p.L.dispatch_flags) + p.me, epoch);
}

// ---- dispatch, one CTA per owner -----------------------------------------------------------
// For a persistent kernel that dispatches at its start (the Mega-EP kernel): CTA d of the first R
// plans this rank's T tokens for owner d alone, in shared memory, and sends them, so the owners
// are served in parallel and no CTA waits for another (the split kernels above: one CTA plans
// for all owners in global memory, then a copy grid; at T = 1 that chain of dependent global
// round trips took ~20 us). The same window contents as plan + dispatch:
//   CTA me (the one serving this rank itself) also writes every route's owner and slot
//   (route_dest / route_slot, which the combine reads: this rank's own dispatch flag, which
//   every CTA of the kernel acquires, publishes them) and counts invalid ids and unrouted
//   routes; CTA d writes tok_pos[t * R + d].
//   Push: x rows, slots and source tokens into d's receive region [me][j], then the row count;
//   pull: x rows into our send window (a token sent to several owners is copied by each of
//   their CTAs: the same bytes) and d's list, slots and count.
// Then a system fence and the epoch into d's dispatch flag [me]. Scratch in shared memory:
// dest / slot [T * K], row [T] (T * K < 2^15), n (one int). Needs T <= 32 * 32 * blockDim / 32.
inline __device__ void dispatch_to_owner(const ExchangeParams& p, bool push, const void* ids, bool ids_i64,
                                         const uint4* x, int64_t ldx_vec, int T, int d, unsigned long long epoch,
                                         int16_t* dest, int16_t* slot, int16_t* row, int* n) {
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32, warps = blockDim.x / 32;
  const int K = int(p.K), routes = T * K;
  char* own = p.peers[p.me];
  char* dst = p.peers[d];
  const bool first = d == p.me;
  // Everything below starts with cold loads that depend on each other (ids -> placement tables;
  // x rows after the scan): start them all now. The three placement tables are one allocation
  // (EpBackend), begin [E + 1] then rank and slot of equal length.
  prefetch_l2(p.replica_begin, size_t(p.replica_slot - p.replica_begin) * 4 +
                                   size_t(p.replica_slot - p.replica_rank) * 4);
  prefetch_l2(x, size_t(T) * size_t(ldx_vec) * 16);
  unsigned long long invalid = 0, unrouted = 0;
  for (int r = tid; r < routes; r += blockDim.x) {
    int32_t o, s;
    route_target(p, ids, ids_i64, r, &o, &s, &invalid, &unrouted);
    dest[r] = int16_t(o);
    slot[r] = int16_t(s);
    if (first) {
      p.route_dest[r] = o;
      p.route_slot[r] = s;
    }
  }
  if (first && invalid) atomicAdd(p.counters + 0, invalid);
  if (first && unrouted) atomicAdd(p.counters + 1, unrouted);
  __syncthreads();
  // Row j of token t in d's list: tokens with a route to d, in token order (warp 0, a ballot
  // per 32 tokens).
  if (warp == 0) {
    int rows = 0;
    for (int base = 0; base < T; base += 32) {
      const int t = base + lane;
      bool has = false;
      if (t < T)
        for (int k = 0; k < K; ++k) has |= dest[t * K + k] == d;
      const unsigned b = __ballot_sync(0xffffffffu, has);
      const int j = has ? rows + __popc(b & ((1u << lane) - 1u)) : -1;
      if (t < T) {
        row[t] = int16_t(j);
        p.tok_pos[int64_t(t) * p.R + d] = j;
      }
      rows += __popc(b);
    }
    if (lane == 0) *n = rows;
  }
  __syncthreads();
  const int64_t vecs = p.H / 8, cpr = chunks_per_row(vecs);
  for (int64_t q = warp; q < int64_t(T) * cpr; q += warps) {
    const int t = int(q / cpr);
    const int64_t c = q - int64_t(t) * cpr, j = row[t];
    if (j < 0) continue;
    // Push: row me*cap + j of d's receive region; pull: row d*cap + j of our send list (x by token).
    const int64_t r = (push ? int64_t(p.me) : int64_t(d)) * p.cap + j;
    warp_copy_chunk(push ? at<uint4>(dst, p.L.recv_x) + r * vecs : at<uint4>(own, p.L.send_x) + t * vecs,
                    x + t * ldx_vec, vecs, c, lane);
    if (c != 0) continue;
    int32_t* slots_out = push ? at<int32_t>(dst, p.L.recv_ids) : at<int32_t>(own, p.L.send_slots);
    for (int k = lane; k < K; k += 32) slots_out[r * K + k] = dest[t * K + k] == d ? slot[t * K + k] : -1;
    if (lane == 0) (push ? at<int32_t>(dst, p.L.recv_tok) : at<int32_t>(own, p.L.send_list))[r] = t;
  }
  __syncthreads();
  if (tid == 0) {
    if (push)
      at<int32_t>(dst, p.L.recv_count)[p.me] = *n;
    else
      at<int32_t>(own, p.L.send_count)[d] = *n;
    __threadfence_system();
    st_release_sys(at<unsigned long long>(dst, p.L.dispatch_flags) + p.me, epoch);
  }
}

// ---- receive -----------------------------------------------------------------------------
// Rows source s sent us this forward (after its dispatch flag was acquired), clamped to cap.
inline __device__ int received_rows(const ExchangeParams& p, bool push, int s) {
  const int n = push ? *(volatile int32_t*)(at<int32_t>(p.peers[p.me], p.L.recv_count) + s)
                     : __ldcg(at<int32_t>(p.peers[s], p.L.send_count) + p.me);
  return n < 0 ? 0 : (n > p.cap ? int(p.cap) : n);
}

// Pull: rows [0, n) of source s (x rows and their K slots) from its send window into our receive
// region s, spread over warps [gwarp, +nwarps).
inline __device__ void pull_rows(const ExchangeParams& p, int s, int64_t n, int64_t gwarp, int64_t nwarps, int lane) {
  char* own = p.peers[p.me];
  const int64_t vecs = p.H / 8, K = p.K, cap = p.cap, cpr = chunks_per_row(vecs);
  char* src = p.peers[s];
  const int32_t* list = at<const int32_t>(src, p.L.send_list) + int64_t(p.me) * cap;
  const int32_t* slots = at<const int32_t>(src, p.L.send_slots) + int64_t(p.me) * cap * K;
  int32_t* recv_ids = at<int32_t>(own, p.L.recv_ids);
  for (int64_t q = gwarp; q < n * cpr; q += nwarps) {
    const int64_t j = q / cpr, c = q - j * cpr;
    const int64_t row = int64_t(s) * cap + j, t = __ldcg(list + j);
    warp_copy_chunk(at<uint4>(own, p.L.recv_x) + row * vecs, at<const uint4>(src, p.L.send_x) + t * vecs, vecs, c,
                    lane);
    if (c != 0) continue;
    for (int64_t k = lane; k < K; k += 32) recv_ids[row * K + k] = __ldcg(slots + j * K + k);
  }
}

// CTA `cta` of `ctas` (any CTA size that is a multiple of 32): waits for every source's dispatch
// flag, reads the row counts (CTA 0 records them in p.recv_counts), pull: loads this CTA's share
// of the rows from the sources' send windows; both: sets the slots of the unused rows to -1.
inline __device__ void receive_rows(const ExchangeParams& p, bool push, int64_t cta, int64_t ctas) {
  const unsigned long long epoch = *p.epoch;
  char* own = p.peers[p.me];
  const bool ok = wait_all(p, p.L.dispatch_flags, epoch, kPhaseDispatch);
  const int64_t K = p.K, cap = p.cap;
  __shared__ int cnt[64];
  if (int(threadIdx.x) < p.R) {
    const int s = threadIdx.x;
    cnt[s] = ok ? received_rows(p, push, s) : 0;
    if (cta == 0) p.recv_counts[s] = cnt[s];
  }
  __syncthreads();
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int64_t warps = blockDim.x / 32, gwarp = cta * warps + warp, nwarps = ctas * warps;
  int32_t* recv_ids = at<int32_t>(own, p.L.recv_ids);
  for (int s = 0; s < p.R; ++s) {
    if (!push) pull_rows(p, s, cnt[s], gwarp, nwarps, lane);
    // Rows nobody sent this forward carry no route.
    const int64_t first = (int64_t(s) * cap + cnt[s]) * K, last = (int64_t(s) + 1) * cap * K;
    for (int64_t i = first + cta * blockDim.x + threadIdx.x; i < last; i += ctas * blockDim.x)
      recv_ids[i] = -1;
  }
}

// ---- return ------------------------------------------------------------------------------
// Push: each received route's y row goes to its source's return rows [t*K + k]. Routes whose
// source is this rank stay in y_ret: the combine reads them there (no local copy).
inline __device__ void return_copies(const ExchangeParams& p, int64_t gwarp, int64_t nwarps, int lane) {
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

// Where the y row of received route (row, k) goes: push, from another source: that source's
// return rows [t*K + k]; otherwise this rank's y_ret [row*K + k] (pull: the source reads it there;
// this rank's own routes: its combine does). For kernels that return route by route (Mega-EP).
inline __device__ uint4* route_y_dst(const ExchangeParams& p, bool push, int64_t row, int64_t k) {
  const int64_t vecs = p.H / 8;
  const int s = int(row / p.cap);
  if (push && s != p.me) {
    const int64_t t = __ldcg(at<int32_t>(p.peers[p.me], p.L.recv_tok) + row);
    return at<uint4>(p.peers[s], p.L.ret) + (t * p.K + k) * vecs;
  }
  return at<uint4>(p.peers[p.me], p.L.y_ret) + (row * p.K + k) * vecs;
}

// After block `block` of every route's y has been stored and fenced: the epoch into every
// source's return_block_flags[me][block] (threads 0..R-1).
inline __device__ void return_block_signal(const ExchangeParams& p, int block, unsigned long long epoch) {
  const int s = int(threadIdx.x);
  if (s >= p.R || failed(p)) return;
  st_release_sys(at<unsigned long long>(p.peers[s], p.L.return_block_flags) + int64_t(p.me) * return_blocks(p.H) + block,
                 epoch);
}

// A rank whose dispatch wait failed computed nothing for the sources it did hear from: it releases
// no return flag, so they report the failure (after their timeout) instead of combining stale rows.
inline __device__ void return_signal(const ExchangeParams& p, unsigned long long epoch) {
  if (failed(p)) return;
  for (int d = 0; d < p.R; ++d) st_release_sys(at<unsigned long long>(p.peers[d], p.L.return_flags) + p.me, epoch);
}

// ---- combine -----------------------------------------------------------------------------
// The same arithmetic as kernels/sm90/moe/combine.cu's bf16-y combine: FP32, k order, products
// and sums rounded separately, one bf16 rounding at the end; NaN when the exchange failed.
// Columns [8v, 8v+8) of token t. y of route (t, k) owned by rank d: push and d != me: the
// return rows; otherwise (pull, or this rank's own experts) the owner's y_ret, over NVLink
// when d != me.
inline __device__ void combine_one(const ExchangeParams& p, bool push, bool ok, const float* topk_weights, int64_t t,
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

}  // namespace megamoe::sm90::ep::dev
