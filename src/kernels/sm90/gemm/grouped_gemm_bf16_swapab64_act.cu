// FC1 at decode sizes with the activation in the epilogue, wide variant: the kernel of
// grouped_gemm_bf16_swapab64.cu (128 x 64 x 64 tiles) with the epilogue of
// grouped_gemm_bf16_swapab_act.cu (act_epilogue.cuh). One CUTLASS instantiation in this
// translation unit.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {

using SwapAB64ActConfig =
    TacticConfig<cute::Shape<cute::_128, cute::_64, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                 /*kSwapAB=*/true, RasterOrderOptions::AlongN, /*kPingpong=*/false, float, /*kActEpilogue=*/true>;

const TacticOps& swapab64_act_ops() { return GroupedGemmTacticImpl<SwapAB64ActConfig>::ops(); }

}  // namespace megamoe::sm90::grouped_gemm_detail
