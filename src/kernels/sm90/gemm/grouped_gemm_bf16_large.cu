// Grouped GEMM tactic kLargeTile (large T): D_g = A_g . W[g]^T with 128 (rows) x 256 (N_out) x 64
// tiles, cooperative warp specialization (one TMA producer warpgroup, two wgmma consumer
// warpgroups of 64 x 256 each), a 4-stage mbarrier pipeline (48 KB a stage) and the persistent
// group scheduler. No cluster: measured on H200 (deepseek FC1, 65536 rows) a 1x2 cluster with
// activation multicast was slower (545 vs 620 TFLOP/s at 256 rows per group, 505 vs 516 with
// random routing), and clustering along M would round each group's ragged row-tile count up to
// even. Raster along M: consecutive tiles walk the group's rows under one weight block, so each
// weight block is read from HBM about once. One CUTLASS instantiation in this translation unit.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {

using LargeTileConfig = TacticConfig<cute::Shape<cute::_128, cute::_256, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                                     /*kSwapAB=*/false, RasterOrderOptions::AlongM>;

const TacticOps& large_ops() { return GroupedGemmTacticImpl<LargeTileConfig>::ops(); }

}  // namespace megamoe::sm90::grouped_gemm_detail
