// Grouped FP8 GEMM tactic kSwapAB (small T, weight-bandwidth bound): 128 weight rows (wgmma M,
// split over the two consumer warpgroups) x 64 token rows x 128 K tiles, cooperative warp
// specialization, persistent group scheduler, raster along N (consecutive tiles of a CTA walk the
// token tiles under one weight slab). Scales: 128x128 weight blocks along M, 1x128 token groups
// along N, promoted every 128 K. One CUTLASS instantiation in this translation unit.
#define MEGAMOE_FP8_GEMM_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise_impl.cuh"

namespace megamoe::sm90::fp8_gemm_detail {

using SwapABConfig = Fp8TacticConfig<cute::Shape<cute::_128, cute::_64, cute::_128>, /*kSwapAB=*/true,
                                     RasterOrderOptions::AlongN>;

const TacticOps& swapab_ops() { return Fp8GroupedGemmImpl<SwapABConfig>::ops(); }

}  // namespace megamoe::sm90::fp8_gemm_detail
