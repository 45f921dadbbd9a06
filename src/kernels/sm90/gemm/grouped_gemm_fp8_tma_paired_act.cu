// FC1 of the fp8_block MoE with the activation epilogue on the WidePaired geometry of the kTma kernel
// (grouped_gemm_fp8_tma.cuh: a step loads a gate block and its up block, one K loop per output
// block): split_tma_act's FC1 with MEGAMOE_FP8_TMA_ACT_PAIRED=1, for the gated activations (relu2
// has no up block and keeps the Wide geometry). One instantiation per gated activation, with and
// without biases; launched by launch_fp8_tma_act (grouped_gemm_fp8_tma_act.cu).
#include "kernels/sm90/gemm/grouped_gemm_fp8_tma.cuh"

namespace megamoe::sm90::fp8_tma {

KernelFn paired_act_kernel(Activation act, bool bias) {
  switch (act) {
    case Activation::kSwiGLU: return act_kernel<WidePaired, Activation::kSwiGLU>(bias);
    case Activation::kSwiGLUOAI: return act_kernel<WidePaired, Activation::kSwiGLUOAI>(bias);
    case Activation::kGeGLU: return act_kernel<WidePaired, Activation::kGeGLU>(bias);
    case Activation::kReLU2: return nullptr;  // not gated: launch_fp8_tma_act keeps Wide
  }
  return nullptr;  // unreachable: every Activation is listed
}

}  // namespace megamoe::sm90::fp8_tma
