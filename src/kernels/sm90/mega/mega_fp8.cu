// The Mega kernel's fp8_block instantiation (mega_kernel.cuh, Fmt<kFp8>).
#include "kernels/sm90/mega/mega_kernel.cuh"

namespace megamoe::sm90::mega {
MEGAMOE_MEGA_DEFINE_ENTRY_POINTS(WeightFormat::kFp8)
}  // namespace megamoe::sm90::mega
