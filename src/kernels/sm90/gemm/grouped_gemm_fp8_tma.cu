// The kTma tactic of the grouped blockwise FP8 GEMM with fp32 or bf16 D (kernel:
// grouped_gemm_fp8_tma.cuh), and the host launch every instantiation of the kernel shares.
#include <cuda.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "core/env_int.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_tma.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {
namespace fp8_tma {

Params gemm_params(const fp8_gemm_detail::RunArgs& a, int num_groups, int64_t N, int64_t K, bool narrow) {
  Params p{};
  p.SA = a.SA;
  p.SW = a.SW;
  p.offsets = a.offsets;
  p.D = a.D;
  p.ldd = a.ldd;
  p.N = int(N);
  p.K = int(K);
  p.G = num_groups;
  // The dynamic tile order where the caller gave a counter: MEGAMOE_FP8_TMA_DYNAMIC = 1 (the default)
  // for the two-warpgroup geometries, 2 for Narrow too, 0 nowhere (an A/B knob, read once per
  // process). Session 58 on one H100 (forced tactics, against the static order): split_tma_act
  // 1.062x and split_tma 1.074x over T = 2048 / 8192 (deepseek-v3 T = 8192 1.275x / 1.405x: its FC1
  // read 8.1 GB from DRAM instead of 13.9; qwen3-30b-a3b T = 8192 0.979x / 0.904x), Narrow's
  // split_tma_small_act 0.990x (0.884-1.090x): bench/results/2026-12-06_session58/run10_dynamic/.
  static const int dynamic = env_int("MEGAMOE_FP8_TMA_DYNAMIC", 1);
  p.tile_counter = dynamic >= (narrow ? 2 : 1) ? a.tile_counter : nullptr;
  return p;
}

namespace {
// `n` fp32 scales as a 2-D map of one row ({n, 1}; row stride n * 4 rounded up to 16 bytes, never
// used), read in boxes of `box` floats that each start on a 16-byte aligned element (a box from
// any other element is an illegal instruction: bench/results/2026-12-03_fp8_tma_scales_by_tma/probe/).
// The map starts at `base` rounded down to 16 bytes (inside the 16-byte granule of SA / SW itself),
// `lead` gets the floats in between.
CUtensorMap scale_map(const float* base, int64_t n, int box, const char* what, int& lead) {
  if (reinterpret_cast<uintptr_t>(base) % 4 != 0)
    throw_invalid(what, "a 4-byte aligned fp32 pointer (grouped_gemm_fp8_blockwise, TMA)", "misaligned");
  lead = int((reinterpret_cast<uintptr_t>(base) % 16) / 4);
  n += lead;
  base -= lead;
  const cuuint64_t dims[2] = {cuuint64_t(n), 1};
  const cuuint64_t strides[1] = {cuuint64_t((n * 4 + 15) / 16 * 16)};
  const cuuint32_t boxd[2] = {cuuint32_t(box), 1};
  return cu::encode_tensor_map(base, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dims, strides, boxd,
                               CU_TENSOR_MAP_SWIZZLE_NONE, "grouped_gemm_fp8_blockwise", what);
}
}  // namespace

void launch(KernelFn kernel, const LaunchShape& shape, const void* A, const void* W, const Params& p,
            int64_t rows_bound, int nblk, cudaStream_t stream) {
  if (int64_t(p.G) * p.N > int64_t(INT32_MAX))
    throw_invalid("num_groups * N", "below 2^31 (fp8 TMA tactic: 32-bit row coordinates)",
                  std::to_string(int64_t(p.G) * p.N));
  if (rows_bound > int64_t(INT32_MAX) - shape.max_tok)
    throw_invalid("total_rows_upper_bound", "below 2^31 - " + std::to_string(shape.max_tok) + " (fp8 TMA tactic)",
                  std::to_string(rows_bound));
  cu::check("grouped_gemm_fp8_blockwise",
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shape.smem_bytes),
            "fp8 TMA tactic: shared-memory opt-in");
  // Token rows [rows_bound, K] e4m3 and weight rows [G * N, K] e4m3: boxes of 128 bytes of K x 64
  // rows, 128-byte swizzle (the K-major layout wgmma's descriptors read).
  const cuuint64_t xd[2] = {cuuint64_t(p.K), cuuint64_t(rows_bound)};
  const cuuint64_t xs[1] = {cuuint64_t(p.K)};
  const cuuint32_t xb[2] = {cuuint32_t(kBK), cuuint32_t(kTokBox)};
  const CUtensorMap tx = cu::encode_tensor_map(A, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, xd, xs, xb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "grouped_gemm_fp8_blockwise", "A");
  const cuuint64_t wd[2] = {cuuint64_t(p.K), cuuint64_t(int64_t(p.G) * p.N)};
  const cuuint64_t ws[1] = {cuuint64_t(p.K)};
  const cuuint32_t wb[2] = {cuuint32_t(kBK), cuuint32_t(kWBox)};
  const CUtensorMap tw = cu::encode_tensor_map(W, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, wd, ws, wb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "grouped_gemm_fp8_blockwise", "W");
  // The scales as one-row fp32 tensors (the kernel's element indices are 32-bit): SA's rows_bound * KB
  // floats in boxes of kTokScaleBox (a tile's token scales of one K block from a 16-byte aligned
  // element), SW's G * KB * NB floats in boxes of kWScaleBox (one weight scale and its neighbours).
  const int64_t KB = cu::ceil_div<int64_t>(p.K, kBK), NB = cu::ceil_div<int64_t>(p.N, kBN);
  if (rows_bound * KB > int64_t(INT32_MAX) - shape.tok_scale_box - 4)
    throw_invalid("total_rows_upper_bound * ceil(K / 128)",
                  "below 2^31 - " + std::to_string(shape.tok_scale_box + 4) + " (fp8 TMA tactic: 32-bit scale indices)",
                  std::to_string(rows_bound * KB));
  if (int64_t(p.G) * KB * NB > int64_t(INT32_MAX) - kWScaleBox - 4)
    throw_invalid("num_groups * ceil(K / 128) * ceil(N / 128)", "below 2^31 - 8 (fp8 TMA tactic: 32-bit scale indices)",
                  std::to_string(int64_t(p.G) * KB * NB));
  Params q = p;
  const CUtensorMap tsa = scale_map(p.SA, rows_bound * KB, shape.tok_scale_box, "SA", q.sa_lead);
  const CUtensorMap tsw = scale_map(p.SW, int64_t(p.G) * KB * NB, kWScaleBox, "SW", q.sw_lead);
  // Tiles: column blocks x passes over at most rows_bound rows spread over the groups; a persistent
  // grid of at most ctas_per_sm CTAs per SM.
  const int64_t tiles = int64_t(nblk) * (cu::ceil_div<int64_t>(rows_bound, shape.max_tok) + p.G);
  const int64_t slots = int64_t(cu::current_sm_count()) * shape.ctas_per_sm;
  const int grid = int(std::max<int64_t>(1, std::min<int64_t>(tiles, slots)));
  kernel<<<grid, shape.threads, size_t(shape.smem_bytes), stream>>>(tx, tw, tsa, tsw, q);
  cu::check_launch("grouped_gemm_fp8_blockwise", "fp8 TMA tactic launch");
}

}  // namespace fp8_tma

namespace {
// The plain kernels of one geometry (the activation is a dummy of theirs); WidePaired's are
// instantiated in grouped_gemm_fp8_tma_paired.cu (paired_plain_kernel).
template <class Geo>
fp8_tma::KernelFn plain_kernel(bool bf16_out) {
  using namespace fp8_tma;
  return bf16_out ? fp8_tma_kernel<Geo, Out::kBf16, Activation::kSwiGLU, false>
                  : fp8_tma_kernel<Geo, Out::kF32, Activation::kSwiGLU, false>;
}
// A plain kernel over N's column blocks of the geometry's tile width (shape.plain_cols).
void launch_plain(fp8_tma::KernelFn kernel, const fp8_tma::LaunchShape& shape, const fp8_tma::Params& p,
                  const fp8_gemm_detail::RunArgs& a, int64_t N, int64_t rows_bound, cudaStream_t stream) {
  fp8_tma::launch(kernel, shape, a.A, a.W, p, rows_bound, int(cu::ceil_div<int64_t>(N, shape.plain_cols)), stream);
}

// The plain kernels (fp32 / bf16 D) of the two-warpgroup geometry run on WidePaired (256 weight rows
// a K step, 256 output columns a tile); MEGAMOE_FP8_TMA_PAIRED=0 keeps Wide, an A/B knob read once
// per process. Session 58 on one H100 (forced split_tma / split_tma_act with FC1's WidePaired
// activation kernel on both sides, T = 2048 / 8192, four presets): 1.029x over Wide, T = 8192
// 0.98-1.13x, T = 2048 0.97-1.10x (bench/results/2026-12-06_session58/run4_pp2_tune/). Only where N
// holds an even number of 128-column blocks: an odd one would add a block of MMAs that no output
// needs (gpt-oss-120b's FC2, N = 2880: `auto` 0.973-0.975x at T = 512..2048, run5_ship/).
bool plain_runs_paired(int64_t N) {
  static const bool on = env_int("MEGAMOE_FP8_TMA_PAIRED", 1) != 0;
  return on && cu::ceil_div<int64_t>(N, fp8_tma::kBN) % 2 == 0;
}
}  // namespace

bool fp8_tma_stages_bf16_d() {
  // MEGAMOE_FP8_TMA_STAGED=0: bf16 D two columns a store, straight from the registers (A/B; read
  // once per process).
  static const bool on = env_int("MEGAMOE_FP8_TMA_STAGED", 1) != 0;
  return on;
}

// fp32 or bf16 D (grouped_gemm_fp8_blockwise.cu checked the arguments: for bf16 D, N and ldd
// multiples of 8 and D 16-byte aligned, what the staged epilogue needs).
void launch_fp8_tma(const fp8_gemm_detail::RunArgs& a, int num_groups, int64_t N, int64_t K, int64_t rows_bound,
                    bool bf16_out, bool narrow, cudaStream_t stream) {
  using namespace fp8_tma;
  Params p = gemm_params(a, num_groups, N, K, narrow);
  p.staged_d = bf16_out && fp8_tma_stages_bf16_d();
  if (narrow)
    launch_plain(plain_kernel<Narrow>(bf16_out), launch_shape<Narrow>(), p, a, N, rows_bound, stream);
  else if (plain_runs_paired(N))
    launch_plain(paired_plain_kernel(bf16_out), launch_shape<WidePaired>(), p, a, N, rows_bound, stream);
  else
    launch_plain(plain_kernel<Wide>(bf16_out), launch_shape<Wide>(), p, a, N, rows_bound, stream);
}

int fp8_tma_plain_tile_cols(int64_t N, bool narrow) {
  using namespace fp8_tma;
  return narrow                 ? launch_shape<Narrow>().plain_cols
         : plain_runs_paired(N) ? launch_shape<WidePaired>().plain_cols
                                : launch_shape<Wide>().plain_cols;
}

}  // namespace megamoe::sm90
