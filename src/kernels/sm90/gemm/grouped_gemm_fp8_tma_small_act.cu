// FC1 of the fp8_block MoE with the activation epilogue on the Narrow geometry of the kTma kernel
// (grouped_gemm_fp8_tma.cuh: one consumer warpgroup, 64-token passes, two CTAs per SM): the
// split_tma_small_act tactic, for experts of few rows. One instantiation per activation, with and
// without biases; launched by launch_fp8_tma_act (grouped_gemm_fp8_tma_act.cu).
#include "kernels/sm90/gemm/grouped_gemm_fp8_tma.cuh"

namespace megamoe::sm90::fp8_tma {

KernelFn narrow_act_kernel(Activation act, bool bias) { return act_kernel<Narrow>(act, bias); }

}  // namespace megamoe::sm90::fp8_tma
