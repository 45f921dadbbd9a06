// Expert-parallel token exchange over NVLink load/store (NCCL symmetric windows, LSA): the
// device side of docs/EP.md. Per forward, on every rank's stream, in this order:
//
//   plan       ids -> (owner rank, local slot) per route (ep/placement.h's rule), each token's
//              position in its send list per destination rank (a token with several routes
//              to one rank is sent once), per-destination counts; epoch += 1
//   dispatch   push: the source stores its rows into each owner's receive region [src][j];
//              pull: the source copies x into its own send window
//              then (both) a system fence and, per peer, a release store of the epoch into the
//              peer's dispatch flag [src]
//   receive    wait (acquire, bounded) for every source's dispatch flag; pull: load the rows
//              from each source's send window; both: ids of unused rows [count, cap) = -1
//   (experts)  the single-GPU backend on the receive buffer, route_out = y_ret
//   return     push: store each route's y row into the source's return rows [t*K + k]
//              (routes from this rank itself stay in y_ret); both: fence, release the epoch
//              into each source's return flag [owner]
//   combine    wait for every owner's return flag; out[t] = fixed-order k sum of
//              w[t,k] * y(t,k), where y comes from the local return rows (push, other
//              owners) or straight from the owner's y_ret (pull over NVLink; own experts)
//
// Buffer reuse needs no extra barrier: a source writes an owner's receive region (push) or its
// own send window (pull) for forward n+1 only after its combine n saw that owner's return flag
// n, which the owner set after its experts had read the region; an owner rewrites y_ret at n+1
// only after every source's dispatch flag n+1, set after that source's combine n had read it.
// Every wait gives up after timeout_ns (or when the group's abort word is set), records the
// first failure in the error words and lets the forward finish: outputs are then NaN.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace megamoe::sm90::ep {

// Columns of y per return block: an owner that returns block by block (the Mega-EP kernel: one
// block per FC2 row block) releases the epoch into return_block_flags[owner][block] as each block
// lands, so the source's combine of that block need not wait for the whole return.
constexpr int64_t kReturnBlockCols = 128;
// Return blocks of a row of H columns (return_block_flags has this many per owner).
__host__ __device__ constexpr int64_t return_blocks(int64_t H) {
  return (H + kReturnBlockCols - 1) / kReturnBlockCols;
}

// Byte offsets inside each rank's symmetric window (identical on every rank).
struct WindowLayout {
  size_t dispatch_flags = 0;  // u64 [R]: epoch stored by source s when its rows for us are ready
  size_t return_flags = 0;    // u64 [R]: epoch stored by owner d when our y rows are ready
  size_t return_block_flags = 0;  // u64 [R][ceil(H / kReturnBlockCols)]: the same per block of
                                  // columns (owners running the Mega-EP kernel set both)
  size_t recv_count = 0;      // i32 [R]: push: rows source s stored into our receive region
  size_t send_count = 0;      // i32 [R]: rows we send to owner d (pull: read by d)
  size_t send_list = 0;       // i32 [R][cap]: source token of our j-th row for owner d
  size_t send_slots = 0;      // i32 [R][cap][K]: owner d's local slot of route k of that row, or -1
  size_t send_x = 0;          // bf16 [cap][H]: pull: our x rows
  size_t recv_x = 0;          // bf16 [R*cap][H]: rows received, region s = source s
  size_t recv_ids = 0;        // i32 [R*cap][K]: their local slots (-1: route elsewhere / unused)
  size_t recv_tok = 0;        // i32 [R*cap]: push: the source token of each received row
  size_t y_ret = 0;           // bf16 [R*cap*K][H]: the experts' y per received route
  size_t ret = 0;             // bf16 [cap*K][H]: push: y rows returned to us, route t*K + k
  size_t bytes = 0;
  static WindowLayout make(int R, int64_t cap, int64_t K, int64_t H);
};

// Error word bits (ExchangeState::error[0]); error[1] holds (phase << 16) | peer of the first.
constexpr unsigned kErrTimeout = 1u, kErrAborted = 2u;
constexpr unsigned kPhaseDispatch = 1u, kPhaseReturn = 2u;
constexpr unsigned kPhaseExperts = 3u;  // Mega-EP: a dependency inside the kernel (peer = this rank)

// This rank's exchange state, all device pointers except the scalars.
struct ExchangeParams {
  int R = 1, me = 0;
  int64_t cap = 0, K = 0, H = 0, E = 0;
  char* const* peers = nullptr;  // [R] window base of every rank (peers[me]: our own)
  WindowLayout L;
  unsigned long long* epoch = nullptr;     // forwards so far (plan increments it)
  unsigned* error = nullptr;               // [2], see above
  unsigned long long* counters = nullptr;  // [2]: invalid ids, unrouted routes
  unsigned* done = nullptr;                // [2]: last-block-done counters (dispatch, return)
  int32_t* route_dest = nullptr;           // [cap*K]: owner rank of route t*K+k, or -1
  int32_t* route_slot = nullptr;           // [cap*K]: its local slot there
  int32_t* tok_pos = nullptr;              // [cap*R]: row of token t in its list for owner d, or -1
  int32_t* recv_counts = nullptr;          // [R]: rows received from each source this forward
  const int32_t* replica_begin = nullptr;  // placement tables (ep/placement.h)
  const int32_t* replica_rank = nullptr;
  const int32_t* replica_slot = nullptr;
  const volatile int* abort_word = nullptr;  // host-mapped: EpGroup::abort() sets it
  unsigned long long timeout_ns = 0;
};

// What a backend needs to run the exchange inside its own kernel (Backend::forward_ep_fused, the
// Mega-EP kernel): the exchange state, this rank's window base (peers[me], a host-side copy) and
// the style.
struct FusedExchange {
  ExchangeParams p;
  char* own = nullptr;
  bool push = true;
  bool skip_experts = false;  // benchmarks: the exchange alone (no route reaches an expert)
};

// The stages above (asynchronous on `stream`, graph-capturable, allocation-free). ids [T, K]
// int32 or int64 (device); x [T, H] bf16 with row stride ldx; topk_weights [T, K] f32; out
// [T, H] bf16. T may be 0 (the rank still takes part in every step). Small batches run fused
// kernels on one 1024-thread CTA (plan + dispatch; return + combine; limits in exchange.cu): the
// same stores, fences and flags, one kernel boundary less each.
void launch_plan_dispatch(const ExchangeParams& p, bool push, const void* ids, bool ids_i64, const void* x,
                          int64_t ldx, int64_t T, cudaStream_t stream);
void launch_receive(const ExchangeParams& p, bool push, cudaStream_t stream);
void launch_return_combine(const ExchangeParams& p, bool push, const float* topk_weights, int64_t T, void* out,
                           cudaStream_t stream);

// Fills peers[r] = the base of `window` on rank r for r < R (ncclGetPeerPointer); `window`
// is an ncclWindow_t. Throws Unsupported in a build without NCCL.
void fill_peer_table(const void* window, int R, char** peers, cudaStream_t stream);

}  // namespace megamoe::sm90::ep
