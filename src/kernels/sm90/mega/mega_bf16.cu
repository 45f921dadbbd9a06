// The Mega kernel's bf16 instantiation (mega_kernel.cuh; one translation unit per format so they
// build in parallel).
#include "kernels/sm90/mega/mega_kernel.cuh"

namespace megamoe::sm90::mega {
MEGAMOE_MEGA_DEFINE_ENTRY_POINTS(WeightFormat::kBf16)
}  // namespace megamoe::sm90::mega
