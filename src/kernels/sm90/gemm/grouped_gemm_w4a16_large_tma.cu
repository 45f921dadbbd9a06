// The W4A16 TMA tactic's entry (grouped_gemm_w4a16.h, kLargeTma) and its plain epilogues (fp32 D,
// bf16 D); the activation epilogues are instantiated in grouped_gemm_w4a16_large_tma_act.cu. The
// kernel: grouped_gemm_w4a16_large_tma.cuh.
#include <string>

#include "kernels/sm90/gemm/grouped_gemm_w4a16_large_tma.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

cudaError_t launch_w4a16_large_tma_act(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y,
                                       cudaStream_t stream);

cudaError_t launch_w4a16_large_tma(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y,
                                   cudaStream_t stream) {
  using w4a16_tma::Epi;
  using w4a16_tma::launch_tma;
  if (int64_t(a.num_groups) * a.N > int64_t(INT32_MAX))
    throw_invalid("num_groups * N", "below 2^31 (w4a16 TMA tactic: 32-bit row coordinates)",
                  std::to_string(int64_t(a.num_groups) * a.N));
  if (rows_bound > int64_t(INT32_MAX))
    throw_invalid("rows", "below 2^31 (w4a16 TMA tactic)", std::to_string(rows_bound));
  if (a.act_out) return launch_w4a16_large_tma_act(a, fmt, rows_bound, grid_y, stream);
  const w4a16_tma::EpiArgs ep{a.D16 ? a.D16 : static_cast<void*>(a.D), nullptr, 0.0f, 0.0f,
                              w4a16_large_tma_staged(a)};
  const bool mx = fmt == Fp4Scale::kMxfp4;
  if (a.D16)
    return mx ? launch_tma<Fp4Scale::kMxfp4, Epi::kBf16>(a, ep, rows_bound, grid_y, stream)
              : launch_tma<Fp4Scale::kNvfp4, Epi::kBf16>(a, ep, rows_bound, grid_y, stream);
  return mx ? launch_tma<Fp4Scale::kMxfp4, Epi::kF32>(a, ep, rows_bound, grid_y, stream)
            : launch_tma<Fp4Scale::kNvfp4, Epi::kF32>(a, ep, rows_bound, grid_y, stream);
}

}  // namespace megamoe::sm90
