// FC1 of the fp8_block MoE with the activation epilogue on the Narrow geometry of the kTma kernel
// (grouped_gemm_fp8_tma.cuh: one consumer warpgroup, 64-token passes, two CTAs per SM): the
// split_tma_small_act tactic, for experts of few rows. One instantiation per activation, with and
// without biases; launched by launch_fp8_tma_act (grouped_gemm_fp8_tma_act.cu).
#include "kernels/sm90/gemm/grouped_gemm_fp8_tma.cuh"

namespace megamoe::sm90::fp8_tma {

namespace {
template <Activation kAct>
KernelFn kernel_for(bool bias) {
  return bias ? fp8_tma_kernel<Narrow, Out::kAct, kAct, true> : fp8_tma_kernel<Narrow, Out::kAct, kAct, false>;
}
}  // namespace

KernelFn narrow_act_kernel(Activation act, bool bias) {
  switch (act) {
    case Activation::kSwiGLU: return kernel_for<Activation::kSwiGLU>(bias);
    case Activation::kSwiGLUOAI: return kernel_for<Activation::kSwiGLUOAI>(bias);
    case Activation::kGeGLU: return kernel_for<Activation::kGeGLU>(bias);
    case Activation::kReLU2: return kernel_for<Activation::kReLU2>(bias);
  }
  return kernel_for<Activation::kSwiGLU>(bias);  // unreachable: every Activation is listed
}

}  // namespace megamoe::sm90::fp8_tma
