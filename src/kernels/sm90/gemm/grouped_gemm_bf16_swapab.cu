// Grouped GEMM tactic kSwapAB (small T / decode), narrow variant: D^T = W[g] . A_g^T, so the
// weight rows fill the MMA's M (128-row tiles, two consumer warpgroups of wgmma m64) and the
// group's few tokens sit in N (32-wide tiles). Used for <= 8 rows per group on average (see
// choose_kernel in grouped_gemm_bf16.cu). The kernel is weight-bandwidth bound; each CTA streams a
// 128 x K weight slab through a deep TMA pipeline (K tile 64: 20 KB a stage, 10 stages).
// Raster along N: when a group has more than 32 rows, the tiles that share a weight slab are
// consecutive in the schedule, so they run at the same time on neighbouring SMs and the repeat
// reads of that slab hit L2. One CUTLASS instantiation in this translation unit.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {

using SwapAB32Config = TacticConfig<cute::Shape<cute::_128, cute::_32, cute::_64>, cute::Shape<cute::_1, cute::_1, cute::_1>,
                                    /*kSwapAB=*/true, RasterOrderOptions::AlongN>;

const TacticOps& swapab32_ops() { return GroupedGemmTacticImpl<SwapAB32Config>::ops(); }

}  // namespace megamoe::sm90::grouped_gemm_detail
