// Grouped FP8 GEMM tactic kSwapAB, the narrow token tile (a few rows per group): 128 weight rows
// (wgmma M, split over the two consumer warpgroups) x 32 token rows x 128 K tiles, cooperative warp
// specialization, persistent group scheduler, raster along N. Against the 64-wide token tile a stage
// is 20 instead of 24 KiB, so the automatic carve-out fits more stages and keeps more weight bytes in
// flight per SM (measured in grouped_gemm_fp8_blockwise.cu, choose_fp8_swap_tile). One CUTLASS
// instantiation in this translation unit.
#define MEGAMOE_FP8_GEMM_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise_impl.cuh"

namespace megamoe::sm90::fp8_gemm_detail {

using SwapAB32Config = Fp8TacticConfig<cute::Shape<cute::_128, cute::_32, cute::_128>, /*kSwapAB=*/true,
                                       RasterOrderOptions::AlongN>;

const TacticOps& swapab32_ops() { return Fp8GroupedGemmImpl<SwapAB32Config>::ops(); }

}  // namespace megamoe::sm90::fp8_gemm_detail
