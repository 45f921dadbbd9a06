// Grouped FP8 GEMM tactic kLargeTile (large T, compute bound): 128 token rows x 128 weight rows x
// 128 K tiles (two consumer warpgroups of 64 x 128), cooperative warp specialization, persistent
// group scheduler, raster along M (consecutive tiles walk a group's rows under one weight block,
// so each weight block is read from HBM about once). Scales: 1x128 token groups along M, 128x128
// weight blocks along N, promoted every 128 K. One CUTLASS instantiation in this translation unit.
#define MEGAMOE_FP8_GEMM_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise_impl.cuh"

namespace megamoe::sm90::fp8_gemm_detail {

using LargeTileConfig = Fp8TacticConfig<cute::Shape<cute::_128, cute::_128, cute::_128>, /*kSwapAB=*/false,
                                        RasterOrderOptions::AlongM>;

const TacticOps& large_ops() { return Fp8GroupedGemmImpl<LargeTileConfig>::ops(); }

}  // namespace megamoe::sm90::fp8_gemm_detail
