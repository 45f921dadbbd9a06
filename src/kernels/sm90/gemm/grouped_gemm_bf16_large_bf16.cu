// Grouped GEMM kLargeTile with a bf16 output: the kernel of grouped_gemm_bf16_large.cu (128 x 256 x 64
// tiles, cooperative, persistent group scheduler, raster along M) whose epilogue stores
// D = bf16(accumulator) (round to nearest even: the bits the fp32 kernel's output would round to).
// The split backend's FC2 uses it at large T when there is no b2, so y travels as bf16 (half the
// bytes of fp32 y written by the GEMM and read by combine). One CUTLASS instantiation in this
// translation unit.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {

using LargeTileBf16Config =
    TacticConfig<cute::Shape<cute::_128, cute::_256, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                 /*kSwapAB=*/false, RasterOrderOptions::AlongM, /*kPingpong=*/false, cutlass::bfloat16_t>;

const TacticOps& large_bf16_ops() { return GroupedGemmTacticImpl<LargeTileBf16Config>::ops(); }

}  // namespace megamoe::sm90::grouped_gemm_detail
