// Grouped GEMM kLargeTile with a bf16 output and ping-pong consumer warpgroups (64 x 256 x 64
// tiles): the split backend's FC2 at large T when K (= I) is at most 1024 (kPingpongMaxK in
// grouped_gemm_bf16.cu). With a short K a tile's mainloop is a few dozen k-blocks, so its epilogue
// weighs; ping-pong overlaps one warpgroup's epilogue with the other's MMAs. Measured on H200
// (2026-12-01, against the cooperative 128 x 256 kernel of grouped_gemm_bf16_large_bf16.cu, two
// jobs): qwen3-30b-a3b (K 768) 0.999-1.024x at T = 128..8192 in one, 1.031-1.084x at T =
// 1024..8192 in the other; deepseek-v3 (K 2048) 1.000-1.017x and 0.971-1.019x (noise: the same
// binary moved 3.5% between runs of that job), gpt-oss-120b (K 2880) 0.986-1.016x, mixtral-8x7b
// (K 14336) 0.992-1.071x: those keep the cooperative kernel. One CUTLASS instantiation in this
// translation unit.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {

using LargeTileBf16PingpongConfig =
    TacticConfig<cute::Shape<cute::_64, cute::_256, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                 /*kSwapAB=*/false, RasterOrderOptions::AlongM, /*kPingpong=*/true, cutlass::bfloat16_t>;

const TacticOps& large_bf16_pingpong_ops() { return GroupedGemmTacticImpl<LargeTileBf16PingpongConfig>::ops(); }

}  // namespace megamoe::sm90::grouped_gemm_detail
