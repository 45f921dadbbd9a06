// Grouped FP8 GEMM, kLargeTileM64 with bf16 D: the kernel of grouped_gemm_fp8_blockwise_m64.cu
// (64 x 128 x 128 ping-pong tiles) whose TMA epilogue rounds D to bf16 (FC2's y at large T without
// b2, as grouped_gemm_fp8_blockwise_large_bf16.cu for the 128-row tile). One CUTLASS instantiation.
#define MEGAMOE_FP8_GEMM_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise_impl.cuh"

namespace megamoe::sm90::fp8_gemm_detail {

using M64Bf16Config = Fp8TacticConfig<cute::Shape<cute::_64, cute::_128, cute::_128>, /*kSwapAB=*/false,
                                      RasterOrderOptions::AlongM, cutlass::bfloat16_t, /*kPingpong=*/true>;

const TacticOps& m64_bf16_ops() { return Fp8GroupedGemmImpl<M64Bf16Config>::ops(); }

}  // namespace megamoe::sm90::fp8_gemm_detail
