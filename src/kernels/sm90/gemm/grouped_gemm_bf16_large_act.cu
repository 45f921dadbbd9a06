// FC1 at large T with the activation in the epilogue (act_epilogue.cuh: b13, the activation on
// the gate/up pairs each thread holds, bf16 a [rows, I] written from registers; 128 columns of a
// per 256-column tile of h). 64 x 256 x 64 tiles with ping-pong consumer warpgroups: the two
// warpgroups take alternate tiles, so one's epilogue (the activation's expf and division, ~3% of
// a deepseek-v3 tile's MMA time) runs while the other's MMAs do. Measured on H200 (split backend,
// T = 1024..8192, all four presets, one job): against FC1 -> fp32 h -> activation kernel 1.01-1.25x
// (deepseek-v3 T = 8192 12.38 -> 11.70 ms); the cooperative 128 x 256 kernel of
// grouped_gemm_bf16_large.cu with the same epilogue was 0.93-1.15x (its two warpgroups run the
// epilogue together while the tensor cores wait). Persistent group scheduler, raster along M
// (consecutive tiles share a weight block, so its repeat reads hit L2). No epilogue shared
// memory: the mainloop gets the stages. One CUTLASS instantiation in this translation unit.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {

using LargeTileActConfig =
    TacticConfig<cute::Shape<cute::_64, cute::_256, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                 /*kSwapAB=*/false, RasterOrderOptions::AlongM, /*kPingpong=*/true, float, /*kActEpilogue=*/true>;

const TacticOps& large_act_ops() { return GroupedGemmTacticImpl<LargeTileActConfig>::ops(); }

}  // namespace megamoe::sm90::grouped_gemm_detail
