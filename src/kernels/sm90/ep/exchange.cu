// Expert-parallel exchange kernels (see exchange.h for the protocol): one kernel per stage (two
// fused pairs for small batches) around the device steps of exchange_device.cuh, and their
// launchers.
#include "kernels/sm90/ep/exchange.h"

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/ep/exchange_device.cuh"
#include "megamoe/errors.h"

#if defined(MEGAMOE_WITH_NCCL)
#include <nccl.h>
#include <nccl_device.h>
#endif

namespace megamoe::sm90::ep {

namespace {

using namespace dev;
constexpr int kThreads = 256;          // copy kernels: 8 warps, one item each at a time
constexpr int kWarps = kThreads / 32;

size_t al(size_t n) { return cu::align_up(n, 256); }

__global__ void __launch_bounds__(kPlanThreads) plan_kernel(ExchangeParams p, const void* ids, bool ids_i64, int64_t T) {
  plan_body(p, ids, ids_i64, T);
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

__global__ void __launch_bounds__(kThreads) receive_kernel(ExchangeParams p, bool push) {
  receive_rows(p, push, blockIdx.x, gridDim.x);
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
  L.return_block_flags = take(8 * r * size_t(return_blocks(H)));
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

bool fused_dispatch(const ExchangeParams& p, bool push, int64_t T) {
  return (push ? int64_t(p.R) * T : T) * row_chunks(p.H) <= kFusedDispatchItems;
}
bool fused_return(const ExchangeParams& p, int64_t T) {
  return int64_t(p.R) * p.cap * p.K * row_chunks(p.H) <= kFusedReturnItems && T * (p.H / 8) <= kFusedCombineVecs;
}

}  // namespace

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
