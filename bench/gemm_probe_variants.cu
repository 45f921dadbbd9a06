// Experimental tile configurations for bench/gemm_probe.cu (not part of the library). Compile once
// per variant with -DMEGAMOE_PROBE_VARIANT=<1|2> (each is one CUTLASS instantiation) and link the
// objects into gemm_probe built with -DMEGAMOE_PROBE_VARIANTS. Measured on H200 (2026-11-29,
// deepseek FC1 G=256 N=4096 K=7168, 65536 rows): v1 505 TFLOP/s random routing / 545 uniform
// 256 rows per group; v2 362 / 543; the library's large tile (128x256, no cluster) 516 / 620.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/gemm/grouped_gemm_bf16_impl.cuh"

namespace megamoe::sm90::grouped_gemm_detail {
using namespace cute;
#if MEGAMOE_PROBE_VARIANT == 1
// large tile with a 1x2 cluster (activation tile multicast to the two CTAs)
using VariantConfig = TacticConfig<Shape<_128, _256, _64>, Shape<_1, _2, _1>, false, RasterOrderOptions::AlongM>;
const TacticOps& probe_variant_1() { return GroupedGemmTacticImpl<VariantConfig>::ops(); }
#elif MEGAMOE_PROBE_VARIANT == 2
// ping-pong 128x128 (epilogue of one warpgroup overlaps the other's mainloop)
using VariantConfig = TacticConfig<Shape<_128, _128, _64>, Shape<_1, _2, _1>, false, RasterOrderOptions::AlongM, true>;
const TacticOps& probe_variant_2() { return GroupedGemmTacticImpl<VariantConfig>::ops(); }
#endif
}  // namespace megamoe::sm90::grouped_gemm_detail
