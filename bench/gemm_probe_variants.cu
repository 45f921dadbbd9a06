// Experimental tile configurations for bench/gemm_probe.cu (not part of the library). Compile once
// per variant with -DMEGAMOE_PROBE_VARIANT=<1..3> (each is one CUTLASS instantiation) and link the
// objects into gemm_probe built with -DMEGAMOE_PROBE_VARIANTS.
#define MEGAMOE_GG_TACTIC_TU 1
#include "kernels/sm90/grouped_gemm_bf16_impl.cu"

namespace megamoe::sm90::grouped_gemm_detail {
using namespace cute;
#if MEGAMOE_PROBE_VARIANT == 1
// large tile without the cluster (does the activation multicast pay?)
using VariantConfig = TacticConfig<Shape<_128, _256, _64>, Shape<_1, _1, _1>, false, RasterOrderOptions::AlongM>;
const TacticOps& probe_variant_1() { return GroupedGemmTacticImpl<VariantConfig>::ops(); }
#elif MEGAMOE_PROBE_VARIANT == 2
// ping-pong 128x128 (epilogue of one warpgroup overlaps the other's mainloop)
using VariantConfig = TacticConfig<Shape<_128, _128, _64>, Shape<_1, _2, _1>, false, RasterOrderOptions::AlongM, true>;
const TacticOps& probe_variant_2() { return GroupedGemmTacticImpl<VariantConfig>::ops(); }
#elif MEGAMOE_PROBE_VARIANT == 3
// swap-AB with 64-wide token tiles
using VariantConfig = TacticConfig<Shape<_128, _64, _64>, Shape<_1, _1, _1>, true, RasterOrderOptions::AlongN>;
const TacticOps& probe_variant_3() { return GroupedGemmTacticImpl<VariantConfig>::ops(); }
#endif
}  // namespace megamoe::sm90::grouped_gemm_detail
