// FC1 at decode sizes with the activation in the epilogue: the swap-AB kernel of
// grouped_gemm_bf16_swapab.cu (128 x 32 x 64 tiles, weight rows in M) whose epilogue
// (act_epilogue.cuh) pairs each gate row with its up row 8 rows below (same thread), adds b13,
// applies the activation and writes bf16 a [rows, I]. One CUTLASS instantiation in this
// translation unit.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {

using SwapAB32ActConfig =
    TacticConfig<cute::Shape<cute::_128, cute::_32, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                 /*kSwapAB=*/true, RasterOrderOptions::AlongN, /*kPingpong=*/false, float, /*kActEpilogue=*/true>;

const TacticOps& swapab32_act_ops() { return GroupedGemmTacticImpl<SwapAB32ActConfig>::ops(); }

}  // namespace megamoe::sm90::grouped_gemm_detail
