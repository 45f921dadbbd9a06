// The kTma kernel's WidePaired geometry (grouped_gemm_fp8_tma.cuh: a K step loads two 128-row weight
// blocks beside the 128-row token tile), in a translation unit of its own so that it builds beside
// the Wide and Narrow instantiations:
//  - FC1 of the fp8_block MoE with the activation epilogue for the gated activations (a gate block
//    and its up block a step: one K loop per output block; relu2 has no up block and keeps Wide),
//    with and without biases; launched by launch_fp8_tma_act (grouped_gemm_fp8_tma_act.cu);
//  - the plain fp32 / bf16 D kernels (256 output columns a tile); launched by launch_fp8_tma
//    (grouped_gemm_fp8_tma.cu).
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

KernelFn paired_plain_kernel(bool bf16_out) {
  return bf16_out ? fp8_tma_kernel<WidePaired, Out::kBf16, Activation::kSwiGLU, false>
                  : fp8_tma_kernel<WidePaired, Out::kF32, Activation::kSwiGLU, false>;
}

}  // namespace megamoe::sm90::fp8_tma
