// FC1 of the fp8_block MoE with the activation and FC2's input quantization in the kTma kernel's
// epilogue (grouped_gemm_fp8_tma.cuh, Out::kAct): one instantiation per activation, with and
// without biases, in this translation unit so that they build beside the plain ones (the Narrow
// geometry's: grouped_gemm_fp8_tma_small_act.cu; the WidePaired one's: grouped_gemm_fp8_tma_paired.cu),
// and the host launch that picks the geometry.
#include <cstdint>
#include <string>

#include "core/env_int.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_tma.cuh"

namespace megamoe::sm90 {
namespace {
// The gated activations' FC1 runs on the WidePaired geometry (a gate block and its up block a step);
// MEGAMOE_FP8_TMA_ACT_PAIRED=0 keeps Wide (two sub-tiles of 64 gate + 64 up rows and the stash), an
// A/B knob read once per process. Session 58 on one H100 (forced split_tma_act /
// split_tma_act_large_fc2, T = 2048 / 8192, four presets): 1.021x over Wide, T = 8192 1.02-1.12x
// (deepseek-v3 1.11x), T = 2048 0.96-1.05x (bench/results/2026-12-06_session58/run2_paired/).
bool fp8_tma_act_paired() {
  static const bool on = env_int("MEGAMOE_FP8_TMA_ACT_PAIRED", 1) != 0;
  return on;
}
// FC2's codes through shared memory, 16 bytes a store, where the geometry has the scratch (WidePaired)
// and the rows allow it; MEGAMOE_FP8_TMA_STAGED_CODES=0 keeps the 2-byte stores (A/B knob).
bool fp8_tma_stages_codes(int64_t I, const uint8_t* aq) {
  static const bool on = env_int("MEGAMOE_FP8_TMA_STAGED_CODES", 1) != 0;
  return on && I % 16 == 0 && reinterpret_cast<uintptr_t>(aq) % 16 == 0;
}
}  // namespace

// grouped_gemm_fp8_blockwise.cu checked the arguments.
void launch_fp8_tma_act(const fp8_gemm_detail::RunArgs& a, const ActEpilogueArgs& act, int64_t I, uint8_t* aq,
                        float* sa_out, int num_groups, int64_t N, int64_t K, int64_t rows_bound, bool narrow,
                        cudaStream_t stream) {
  using namespace fp8_tma;
  Params p = gemm_params(a, num_groups, N, K, narrow);
  p.I = int(I);
  p.b13 = act.b13;
  p.aq = aq;
  p.sa_out = sa_out;
  p.limit = act.limit;
  p.alpha = act.alpha;
  p.staged_codes = fp8_tma_stages_codes(I, aq);
  const bool bias = act.b13 != nullptr;
  const int nblk = int(cu::ceil_div<int64_t>(I, kBN));
  if (narrow) {
    launch(narrow_act_kernel(act.activation, bias), launch_shape<Narrow>(), a.A, a.W, p, rows_bound, nblk, stream);
  } else if (act.activation != Activation::kReLU2 && fp8_tma_act_paired()) {
    launch(paired_act_kernel(act.activation, bias), launch_shape<WidePaired>(), a.A, a.W, p, rows_bound, nblk, stream);
  } else {
    launch(act_kernel<Wide>(act.activation, bias), launch_shape<Wide>(), a.A, a.W, p, rows_bound, nblk, stream);
  }
}

}  // namespace megamoe::sm90
