// Grouped GEMM for the MoE split path on Hopper (sm_90a): for every local expert g,
//   D[rows of g, 0:N] = A[rows of g, 0:K] . W[g, 0:N, 0:K]^T      (fp32 accumulation, fp32 out)
// A is the expert-ordered activation matrix [total_rows, K] bf16 (row stride lda >= K, in
// elements); expert g owns rows [offsets[g], offsets[g+1]); W is [G, N, K] bf16, K-major;
// D is [total_rows, N] fp32 (row stride ldd >= N). `offsets` (G+1 int32) lives on the device
// and is produced by routing in the same stream, so the host never learns per-expert rows:
// the GEMM reads them on the device (graph-capturable, no host sync).
#pragma once
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/sm90/gemm/act_epilogue_args.h"
#include "routing/route_plan.h"

namespace megamoe::sm90 {

// Tile configuration, chosen on the host from the average rows per expert.
enum class GroupedGemmTactic : uint8_t {
  kSwapAB,     // small T: weights fill wgmma's M (64..128), tokens sit in N; many CTAs stream W
  kLargeTile,  // large T: 128-row tiles of A, warp-specialized, multi-stage TMA pipeline
};
const char* tactic_name(GroupedGemmTactic t);

// What the epilogue writes. kF32: D = accumulator. kBF16: D = bf16(accumulator), rounded to
// nearest even (the same bits as rounding the fp32 result); only the kLargeTile kernel has it
// (ldd % 8 == 0). kAct: FC1 with the activation fused (act_epilogue.cuh): D is bf16 a [rows, I]
// (ldd >= I, a multiple of 8) = bf16(act(acc + b13)) as set_activation() describes; a gated
// activation needs W in the gate/up interleaved layout (common/gate_up_layout.h).
enum class GroupedGemmOutput : uint8_t { kF32, kBF16, kAct };
// Documented heuristic: see the .cu file.
GroupedGemmTactic choose_tactic(int64_t total_rows_upper_bound, int num_groups);

class GroupedGemmBf16 {
 public:
  // Sizes device workspace (pointer/shape arrays, CUTLASS workspace) for up to `num_groups`
  // groups of an [.., K] x [N, K]^T problem. Allocates (constructor only).
  GroupedGemmBf16(int num_groups, int64_t N, int64_t K, int device);
  ~GroupedGemmBf16();
  GroupedGemmBf16(const GroupedGemmBf16&) = delete;
  GroupedGemmBf16& operator=(const GroupedGemmBf16&) = delete;

  size_t workspace_bytes() const;

  // The activation of the kAct output (FC1 of a layer): kind, clamp, slope and b13 (canonical
  // [G, N] order, or null). Host only; must precede the first kAct run or launch. A gated
  // activation needs an even N (N = 2I).
  void set_activation(const ActEpilogueArgs& act);

  // Asynchronous on `stream`; allocates nothing; capturable. `total_rows_upper_bound` is a
  // host-known bound on offsets[G] (e.g. T*K) used only to pick the tactic (and, within kSwapAB,
  // the token-tile width); 0 launches nothing. One object must not run on two streams at once
  // (its pointer arrays and TMA-descriptor workspace are reused by every run).
  void run(const void* A, int64_t lda, const void* W, float* D, int64_t ldd,
           const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream,
           GroupedGemmTactic tactic);
  void run(const void* A, int64_t lda, const void* W, float* D, int64_t ldd,
           const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream) {
    run(A, lda, W, D, ldd, offsets, total_rows_upper_bound, stream,
        choose_tactic(total_rows_upper_bound, num_groups_));
  }
  // a = bf16(act(A . W^T + b13)) [rows, I] (row stride lda_out >= I, a multiple of 8), the
  // activation given by set_activation(): the tactic's kernel with the activation epilogue.
  void run_act(const void* A, int64_t lda, const void* W, void* a, int64_t lda_out, const int32_t* offsets,
               int64_t total_rows_upper_bound, cudaStream_t stream, GroupedGemmTactic tactic);
  // bf16 D [rows, N] (row stride ldd, a multiple of 8): the kLargeTile kernel with a bf16 epilogue.
  void run_bf16_out(const void* A, int64_t lda, const void* W, void* D, int64_t ldd, const int32_t* offsets,
                    int64_t total_rows_upper_bound, cudaStream_t stream);

  // Fused setup, in two steps on one stream (the split backend):
  //  1. prepare_writes() (host only, checks the arguments as run() does) describes the per-group
  //     argument arrays of the kernel picked by (total_rows_upper_bound, tactic, out); hand it to
  //     routing::build_route_plan_gpu (PlanExtras::gemm), whose last kernel writes them from the
  //     offsets it computes -- no setup kernel;
  //  2. launch_prepared() with the same (total_rows_upper_bound, tactic, out) launches only the
  //     GEMM, with programmatic dependent launch when `pdl` (the GEMM waits for the previous kernel
  //     in the stream before it reads anything).
  // Every launch_prepared() needs the arrays written since the last run of the same kernel.
  // total_rows_upper_bound == 0 (or no groups): prepare_writes() returns an entry with
  // shapes == nullptr and launch_prepared() launches nothing.
  routing::GroupedProblemWrite prepare_writes(const void* A, int64_t lda, const void* W, void* D, int64_t ldd,
                                              int64_t total_rows_upper_bound, GroupedGemmTactic tactic,
                                              GroupedGemmOutput out) const;
  void launch_prepared(int64_t total_rows_upper_bound, GroupedGemmTactic tactic, GroupedGemmOutput out,
                       cudaStream_t stream, bool pdl) {
    launch_prepared(total_rows_upper_bound, tactic, out, stream, pdl, true);
  }
  // early_trigger = false: the next kernel in the stream is launched only as this GEMM's blocks
  // exit (instead of right after the GEMM's own wait).
  void launch_prepared(int64_t total_rows_upper_bound, GroupedGemmTactic tactic, GroupedGemmOutput out,
                       cudaStream_t stream, bool pdl, bool early_trigger);

 private:
  int num_groups_;
  int64_t N_, K_;
  int device_;
  size_t workspace_bytes_ = 0;
  bool act_set_ = false;
  bool act_gated_ = true;
  // implementation-owned state: one prepared CUTLASS kernel per tactic, whose pointer arrays,
  // problem shapes and strides live in their device workspace (gemm_dispatch::PreparedKernels,
  // see grouped_gemm_bf16.cu)
  struct Arrays;
  Arrays* arrays_ = nullptr;
  // kAct needs set_activation() first.
  void require_activation(GroupedGemmOutput out) const;
  void check_run_args(const void* A, int64_t lda, const void* W, const void* D, int64_t ldd, GroupedGemmTactic tactic,
                      GroupedGemmOutput out) const;
  // run(), run_act() and run_bf16_out(): the setup kernel and the kernel `out` and `tactic` pick.
  void run_with_setup(const void* A, int64_t lda, const void* W, void* D, int64_t ldd, const int32_t* offsets,
                      int64_t total_rows_upper_bound, cudaStream_t stream, GroupedGemmTactic tactic,
                      GroupedGemmOutput out);
};

// ---- implementation detail, not API -------------------------------------------------------
// Each kernel is one CUTLASS instantiation in its own translation unit so they compile in
// parallel: kSwapAB has a 32-wide and a 64-wide token-tile kernel (picked from the average rows
// per group), kLargeTile one kernel with fp32 D and two with bf16 D (cooperative; ping-pong for
// K <= 1024); each tactic has one more with the activation epilogue (FC1). The dispatcher
// (grouped_gemm_bf16.cu) reaches them through this table.
namespace grouped_gemm_detail {
struct RunArgs {
  const void* A;  // [rows, K] bf16, row stride lda
  int64_t lda;
  const void* W;  // [G, N, K] bf16
  void* D;        // [rows, N] fp32 (bf16 for the bf16-output kernel), row stride ldd
  int64_t ldd;
  const int32_t* offsets;  // device, [G+1]
};
struct TacticOps {
  // device bytes (pointer arrays, shapes, strides, CUTLASS workspace) for `num_groups` groups
  size_t (*workspace_bytes)(int num_groups, int sm_count);
  // builds the kernel parameters once (host only: no allocation, no sync); returns owned state
  void* (*create)(int num_groups, int64_t N, int64_t K, int device, int sm_count, void* workspace);
  void (*destroy)(void* state);
  // setup kernel (pointer arrays from offsets) + the grouped GEMM, both on `stream`
  void (*run)(void* state, const RunArgs& args, cudaStream_t stream);
  // the grouped GEMM alone (arrays already written), PDL attribute when `pdl`
  void (*launch)(void* state, cudaStream_t stream, bool pdl, bool early_trigger);
  // the setup kernel's writes as a route-plan description (args.offsets unused)
  void (*describe)(void* state, const RunArgs& args, routing::GroupedProblemWrite* out);
  // the activation epilogue's per-layer values into the kernel parameters (no-op for the others)
  void (*set_act)(void* state, const ActEpilogueArgs& act);
};
const TacticOps& swapab32_ops();  // grouped_gemm_bf16_swapab.cu
const TacticOps& swapab64_ops();  // grouped_gemm_bf16_swapab64.cu
const TacticOps& large_ops();     // grouped_gemm_bf16_large.cu
const TacticOps& large_bf16_ops();  // grouped_gemm_bf16_large_bf16.cu
const TacticOps& large_bf16_pingpong_ops();  // grouped_gemm_bf16_large_bf16_pp.cu
const TacticOps& swapab32_act_ops();  // grouped_gemm_bf16_swapab_act.cu
const TacticOps& swapab64_act_ops();  // grouped_gemm_bf16_swapab64_act.cu
const TacticOps& large_act_ops();     // grouped_gemm_bf16_large_act.cu
}  // namespace grouped_gemm_detail

}  // namespace megamoe::sm90
