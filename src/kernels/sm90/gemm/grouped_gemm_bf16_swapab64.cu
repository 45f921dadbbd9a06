// Grouped GEMM tactic kSwapAB, wide variant: as grouped_gemm_bf16_swapab.cu but with 64-wide token
// tiles (128 x 64 x 64, 24 KB a stage), used for 9..32 rows per group on average: one weight-slab
// pass covers up to 64 rows, where the 32-wide tile would stream the slab (from L2) twice or more
// and pay its per-tile overheads twice (measured on H200: 8-14% faster at 16-32 rows per group for
// gpt-oss FC1, 1% slower for deepseek FC1). One CUTLASS instantiation in this translation unit.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {

using SwapAB64Config = TacticConfig<cute::Shape<cute::_128, cute::_64, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                                    /*kSwapAB=*/true, RasterOrderOptions::AlongN>;

const TacticOps& swapab64_ops() { return GroupedGemmTacticImpl<SwapAB64Config>::ops(); }

}  // namespace megamoe::sm90::grouped_gemm_detail
