// Grouped FP8 GEMM, kLargeTile with bf16 D: the kLargeTile kernel (grouped_gemm_fp8_blockwise_large.cu:
// 128 x 128 x 128 tiles, cooperative, raster along M, the same mainloop and promotion) whose TMA
// epilogue rounds D to bf16. The fp8_block split path's FC2 at large T when no bias is added to y
// (y is rounded to bf16 before the combine anyway): half the bytes out of FC2 and into the combine.
// One CUTLASS instantiation in this translation unit.
#define MEGAMOE_FP8_GEMM_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise_impl.cuh"

namespace megamoe::sm90::fp8_gemm_detail {

using LargeTileBf16Config = Fp8TacticConfig<cute::Shape<cute::_128, cute::_128, cute::_128>, /*kSwapAB=*/false,
                                            RasterOrderOptions::AlongM, cutlass::bfloat16_t>;

const TacticOps& large_bf16_ops() { return Fp8GroupedGemmImpl<LargeTileBf16Config>::ops(); }

}  // namespace megamoe::sm90::fp8_gemm_detail
