// Grouped FP8 GEMM with DeepSeek-V3 blockwise scaling for the MoE split path on Hopper
// (sm_90a): for every local expert g,
//   D[rows of g, 0:N] = sum_kb  (A_q[rows of g, kb] . W_q[g, 0:N, kb]^T) * sa[row, kb] * sw[g, n/128, kb]
// with e4m3 A and W, fp32 accumulation, and each 128-wide K block promoted into the fp32
// accumulator with its scales (sa * sw) (CUTLASS KernelPtrArrayTmaWarpSpecializedCooperative-
// FP8BlockScaledAccum: wgmma fp8 into a temporary accumulator, scaled and added every 128 K).
//
// Operands (all device memory; rows of expert g are [offsets[g], offsets[g+1]), offsets on the
// device only, produced in the same stream):
//   A   [total_rows, K] e4m3, row stride K (contiguous)
//   SA  activation scales, 1 x 128: the rows of expert g own [lo*KB, hi*KB) (lo = offsets[g],
//       hi = offsets[g+1], KB = ceil(K/128)), the scale of (row, kb) at lo*KB + kb*(hi-lo) + (row-lo)
//       (per expert a column-major [KB, rows] matrix: the MN-major layout Sm90's blockwise
//       kernel reads; kernels/sm90/quantize/quantize_fp8.cuh act_scale_index writes it)
//   W   [G, N, K] e4m3, K-major (the canonical layout)
//   SW  weight scales, 128 x 128: [G, KB, NB] fp32 (NB = ceil(N/128)), i.e. the canonical
//       [G, NB, KB] transposed per expert (make_weight_scales_mn_major does it once)
//   D   [total_rows, N] fp32, row stride ldd (run), or bf16 (run_bf16_out: the large-tile kernel
//       with its fp32 result rounded to nearest, bit for bit bf16(run's D))
// K must be a multiple of 16 (16-byte TMA row strides of e4m3 A and W) and N of 4 (16-byte fp32
// D vectors); neither needs 128. A partial last K or N block (e.g. gpt-oss's 2880 = 22.5 x 128)
// has its own scale, covering only its real columns / rows, as in the canonical format: TMA
// zero-fills the columns past K in A and W (so they add exact zeros to the partial block's
// product) and the rows past N, and clips D's stores at N.
// The kTma tactic's tensor maps span total_rows_upper_bound rows of A and
// total_rows_upper_bound * KB floats of SA: both buffers must be that large (its boxes read past a
// tile's last row and its scales; those values are never used). SA and SW need 4-byte alignment.
#pragma once
#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "kernels/sm90/gemm/act_epilogue_args.h"

namespace megamoe::sm90 {

enum class Fp8GemmTactic : uint8_t {
  kSwapAB,     // small T: weights in wgmma's M (128-row tiles), 32 or 64 token rows in N (by the
               // rows per group, choose_fp8_swap_tile)
  kLargeTile,  // large T: 128 token rows x 128 weight rows tiles
  kTma,        // our own kernel (grouped_gemm_fp8_tma.cu): 128 token rows of one expert (wgmma's M,
               // two warpgroups of 64; an expert's last pass of <= 64 rows idles one) x 128 weight
               // rows. A tactic `megamoe tune` measures, never the heuristic's choice
  kTmaSmall,   // the same kernel with one consumer warpgroup: 64 token rows x 128 weight rows, two
               // CTAs per SM of 4 stages (more weights in flight where experts hold few rows). Tuned,
               // never chosen
};
const char* fp8_tactic_name(Fp8GemmTactic t);
// Swap-AB up to 64 rows per group on average (ceil(total_rows / groups)), large tiles beyond.
Fp8GemmTactic choose_fp8_tactic(int64_t total_rows_upper_bound, int num_groups);
// Within kSwapAB: the token tile's width, 32 up to 16 rows per group on average, else 64.
int choose_fp8_swap_tile(int64_t total_rows_upper_bound, int num_groups);

// Canonical weight scales [G, NB, KB] (host memory) -> the GEMM's [G, KB, NB] (host memory).
void make_weight_scales_mn_major(const float* canonical, int64_t G, int64_t NB, int64_t KB, float* out);

class GroupedGemmFp8Blockwise {
 public:
  // Sizes and allocates the device workspace (pointer/shape arrays, CUTLASS workspace) for
  // `num_groups` groups of an [.., K] x [N, K]^T problem; builds the kernel parameters once.
  GroupedGemmFp8Blockwise(int num_groups, int64_t N, int64_t K, int device);
  ~GroupedGemmFp8Blockwise();
  GroupedGemmFp8Blockwise(const GroupedGemmFp8Blockwise&) = delete;
  GroupedGemmFp8Blockwise& operator=(const GroupedGemmFp8Blockwise&) = delete;

  size_t workspace_bytes() const { return workspace_bytes_; }

  // Asynchronous on `stream`: a setup kernel (per-group pointers and shapes from offsets) then
  // the grouped GEMM. No allocation, no host synchronisation; capturable. total_rows_upper_bound
  // (host-known bound on offsets[G], e.g. T*K) picks the tactic; 0 launches nothing. One object
  // must not run on two streams at once (the kTma kernels take their tiles from a counter the object
  // owns: two launches at once trap).
  void run(const void* A, const float* SA, const void* W, const float* SW, float* D, int64_t ldd,
           const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream, Fp8GemmTactic tactic);
  void run(const void* A, const float* SA, const void* W, const float* SW, float* D, int64_t ldd,
           const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream) {
    run(A, SA, W, SW, D, ldd, offsets, total_rows_upper_bound, stream,
        choose_fp8_tactic(total_rows_upper_bound, num_groups_));
  }
  // The same product as run(..., tactic) with D [rows, N] bf16 (row stride ldd, a multiple of 8
  // elements: 16-byte bf16 vectors): each element is that tactic's fp32 result rounded to nearest.
  // tactic: kLargeTile, kTma or kTmaSmall.
  void run_bf16_out(const void* A, const float* SA, const void* W, const float* SW, void* D, int64_t ldd,
                    const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream,
                    Fp8GemmTactic tactic = Fp8GemmTactic::kLargeTile);
  // FC1 of the fp8_block MoE with the activation and FC2's input quantization in the epilogue (the
  // kTma kernel; nothing else has it): for the rows of every group g, h = A . W^T (blockwise, the
  // kTma tactic's fp32 product), a = bf16(act(h + b13[g])) (gated: columns i and I + i of h, N =
  // 2I; relu2: column i, N = I), then aq [rows, I] e4m3 codes and sa_out (the activation-scale
  // layout with ceil(I / 128) blocks) exactly as launch_activation_quant_fp8 makes them from h: bit
  // for bit run(..., kTma) followed by it, without h in memory. Needs fused_act_supported(I).
  // `narrow`: the kTmaSmall geometry (one consumer warpgroup, two CTAs per SM), the same bits.
  void run_act(const void* A, const float* SA, const void* W, const float* SW, const ActEpilogueArgs& act, int64_t I,
               void* aq, float* sa_out, const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream,
               bool narrow = false);
  // I a multiple of 64: a gated tile's gate and up boxes of 64 rows each stay inside one 128-row
  // weight scale block.
  static bool fused_act_supported(int64_t I) { return I > 0 && I % 64 == 0; }
  // The tile count of the last kTma / kTmaSmall launch that drew its tiles from the object's counter
  // (the dynamic order: its last CTA checked that every tile ran once and recorded the count), or -1
  // when no launch did since the previous call; synchronizes the device. For tests: a kernel that
  // walks more tiles than the output needs computes products it never stores, which no comparison
  // of outputs can see (session 58's first paired plain kernel walked twice its tiles, 0.64x).
  int take_tma_tile_count();

 private:
  // The checks every entry point shares (named errors): the row bound, offsets, the four operand
  // pointers and A / W's TMA alignment. False: nothing to launch (no groups or no rows).
  bool check_operands(const void* A, const float* SA, const void* W, const float* SW, const int32_t* offsets,
                      int64_t total_rows_upper_bound) const;
  // Checks the arguments (named errors) and launches kernel `kernel` (the dispatcher's numbering:
  // the prepared CUTLASS kernels, then the kTma kernel with fp32 and with bf16 D).
  void run_kernel(int kernel, const void* A, const float* SA, const void* W, const float* SW, void* D, int64_t ldd,
                  const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream);

  int num_groups_;
  int64_t N_, K_;
  int device_;
  size_t workspace_bytes_ = 0;
  // implementation-owned: one prepared CUTLASS kernel per tactic and their device workspace
  // (gemm_dispatch::PreparedKernels, see grouped_gemm_fp8_blockwise.cu)
  struct Kernels;
  Kernels* kernels_ = nullptr;
};

// ---- implementation detail, not API -------------------------------------------------------
// Each kernel is one CUTLASS instantiation in its own translation unit
// (grouped_gemm_fp8_blockwise_swapab.cu, _large.cu, _large_bf16.cu; shared code in
// grouped_gemm_fp8_blockwise_impl.cuh); the dispatcher reaches them through this table.
namespace fp8_gemm_detail {
struct RunArgs {
  const void* A;
  const float* SA;
  const void* W;
  const float* SW;
  void* D;  // fp32 or bf16, the kernel's ElementD
  int64_t ldd;
  const int32_t* offsets;
  int* tile_counter = nullptr;  // the kTma kernels' launch-wide tile counter (4 ints, zeroed once)
};
struct TacticOps {
  size_t (*workspace_bytes)(int num_groups, int sm_count);
  void* (*create)(int num_groups, int64_t N, int64_t K, int device, int sm_count, void* workspace);
  void (*destroy)(void* state);
  void (*run)(void* state, const RunArgs& args, cudaStream_t stream);
};
const TacticOps& swapab_ops();    // grouped_gemm_fp8_blockwise_swapab.cu (64-wide token tile)
const TacticOps& swapab32_ops();  // grouped_gemm_fp8_blockwise_swapab32.cu (32-wide token tile)
const TacticOps& large_ops();   // grouped_gemm_fp8_blockwise_large.cu
const TacticOps& large_bf16_ops();  // grouped_gemm_fp8_blockwise_large_bf16.cu
}  // namespace fp8_gemm_detail
// The kTma / kTmaSmall (narrow) tactics (grouped_gemm_fp8_tma.cu; run_kernel checked the
// arguments): fp32 D, or bf16 D.
void launch_fp8_tma(const fp8_gemm_detail::RunArgs& a, int num_groups, int64_t N, int64_t K, int64_t rows_bound,
                    bool bf16_out, bool narrow, cudaStream_t stream);
// Whether the kTma / kTmaSmall kernels store bf16 D through shared memory, 16 bytes a lane (the
// staged epilogue; default), or two columns a store (MEGAMOE_FP8_TMA_STAGED=0, read once).
bool fp8_tma_stages_bf16_d();
// The output columns of one tile of the kTma / kTmaSmall (narrow) plain kernels for N: 256 where the
// two-warpgroup kernel runs two 128-row weight blocks a K step (N holds an even number of them), else
// 128. With the token rows a tile holds (128; narrow: 64) it gives the launch's tile count.
int fp8_tma_plain_tile_cols(int64_t N, bool narrow);
// run_act's kernel (grouped_gemm_fp8_tma_act.cu; run_act checked the arguments).
void launch_fp8_tma_act(const fp8_gemm_detail::RunArgs& a, const ActEpilogueArgs& act, int64_t I, uint8_t* aq,
                        float* sa_out, int num_groups, int64_t N, int64_t K, int64_t rows_bound, bool narrow,
                        cudaStream_t stream);

}  // namespace megamoe::sm90
