// The kTma tactic of the grouped blockwise FP8 GEMM with fp32 or bf16 D (kernel:
// grouped_gemm_fp8_tma.cuh), and the host launch every instantiation of the kernel shares.
#include <cuda.h>

#include <algorithm>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_tma.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {
namespace fp8_tma {

Params gemm_params(const fp8_gemm_detail::RunArgs& a, int num_groups, int64_t N, int64_t K) {
  Params p{};
  p.SA = a.SA;
  p.SW = a.SW;
  p.offsets = a.offsets;
  p.D = a.D;
  p.ldd = a.ldd;
  p.N = int(N);
  p.K = int(K);
  p.G = num_groups;
  return p;
}

void launch(KernelFn kernel, const void* A, const void* W, const Params& p, int64_t rows_bound, int nblk,
            cudaStream_t stream) {
  if (int64_t(p.G) * p.N > int64_t(INT32_MAX))
    throw_invalid("num_groups * N", "below 2^31 (fp8 TMA tactic: 32-bit row coordinates)",
                  std::to_string(int64_t(p.G) * p.N));
  if (rows_bound > int64_t(INT32_MAX) - kMaxTok)
    throw_invalid("total_rows_upper_bound", "below 2^31 - 128 (fp8 TMA tactic)", std::to_string(rows_bound));
  cu::check("grouped_gemm_fp8_blockwise",
            cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes),
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
  // Tiles: column blocks x passes over at most rows_bound rows spread over the groups.
  const int64_t tiles = int64_t(nblk) * (cu::ceil_div<int64_t>(rows_bound, kMaxTok) + p.G);
  const int grid = int(std::max<int64_t>(1, std::min<int64_t>(tiles, cu::current_sm_count())));
  kernel<<<grid, kThreads, kSmemBytes, stream>>>(tx, tw, p);
  cu::check_launch("grouped_gemm_fp8_blockwise", "fp8 TMA tactic launch");
}

}  // namespace fp8_tma

// fp32 or bf16 D (grouped_gemm_fp8_blockwise.cu checked the arguments).
void launch_fp8_tma(const fp8_gemm_detail::RunArgs& a, int num_groups, int64_t N, int64_t K, int64_t rows_bound,
                    bool bf16_out, cudaStream_t stream) {
  using namespace fp8_tma;
  const Params p = gemm_params(a, num_groups, N, K);
  const int nblk = int(cu::ceil_div<int64_t>(N, kBN));
  // The activation is a dummy of the plain kernels.
  const KernelFn kernel = bf16_out ? fp8_tma_kernel<Out::kBf16, Activation::kSwiGLU, false>
                                   : fp8_tma_kernel<Out::kF32, Activation::kSwiGLU, false>;
  launch(kernel, a.A, a.W, p, rows_bound, nblk, stream);
}

}  // namespace megamoe::sm90
