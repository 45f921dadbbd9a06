// Grouped FP8 GEMM tactic kLargeTileM64 (large T with uneven experts): 64 token rows x 128 weight
// rows x 128 K tiles, ping-pong warp specialization (the two consumer warpgroups take alternate
// tiles, so one's promotion and epilogue overlap the other's MMAs), persistent group scheduler,
// raster along M (consecutive tiles walk a group's rows under one weight block: the second reader
// of the block finds it in L2). Why 64 rows: an expert's last tile holds rows % 128 tokens, and
// the 128-row tile multiplies all 128; with uniform routing at deepseek-v3 T = 8192 (about 256 +-
// 16 rows per expert) 18% of the 128-row tiles' MMA work is on rows that do not exist, 10% with
// 64-row tiles. The price: every tile loads its own weight block, 1.5x the shared-memory fill bytes
// per MMA of the 128-row tile. Same scales and promotion as kLargeTile. One CUTLASS instantiation.
#define MEGAMOE_FP8_GEMM_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise_impl.cuh"

namespace megamoe::sm90::fp8_gemm_detail {

using M64Config = Fp8TacticConfig<cute::Shape<cute::_64, cute::_128, cute::_128>, /*kSwapAB=*/false,
                                  RasterOrderOptions::AlongM, float, /*kPingpong=*/true>;

const TacticOps& m64_ops() { return Fp8GroupedGemmImpl<M64Config>::ops(); }

}  // namespace megamoe::sm90::fp8_gemm_detail
