// The W4A16 TMA tactic with FC1's activation in its epilogue (W4A16GemmArgs::act_out): one
// instantiation per activation and scale format (grouped_gemm_w4a16_large_tma.cuh).
#include "kernels/sm90/gemm/grouped_gemm_w4a16_large_tma.cuh"

namespace megamoe::sm90 {

namespace {

template <Fp4Scale F>
cudaError_t launch_act(const W4A16GemmArgs& a, int64_t rows_bound, int grid_y, cudaStream_t stream) {
  using w4a16_tma::Epi;
  using w4a16_tma::launch_tma;
  const w4a16_tma::EpiArgs ep{a.act_out, a.act.b13, a.act.limit, a.act.alpha, w4a16_large_tma_staged(a)};
  switch (a.act.activation) {
    case Activation::kSwiGLU: return launch_tma<F, Epi::kSwiGLU>(a, ep, rows_bound, grid_y, stream);
    case Activation::kSwiGLUOAI: return launch_tma<F, Epi::kSwiGLUOAI>(a, ep, rows_bound, grid_y, stream);
    case Activation::kGeGLU: return launch_tma<F, Epi::kGeGLU>(a, ep, rows_bound, grid_y, stream);
    case Activation::kReLU2: return launch_tma<F, Epi::kReLU2>(a, ep, rows_bound, grid_y, stream);
  }
  return cudaErrorInvalidValue;
}

}  // namespace

cudaError_t launch_w4a16_large_tma_act(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y,
                                       cudaStream_t stream) {
  return fmt == Fp4Scale::kMxfp4 ? launch_act<Fp4Scale::kMxfp4>(a, rows_bound, grid_y, stream)
                                 : launch_act<Fp4Scale::kNvfp4>(a, rows_bound, grid_y, stream);
}

}  // namespace megamoe::sm90
