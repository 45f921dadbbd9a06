// The Mega kernel's W4A16 instantiations, mxfp4 and nvfp4 (mega_kernel.cuh).
#include "kernels/sm90/mega/mega_kernel.cuh"

namespace megamoe::sm90::mega {
MEGAMOE_MEGA_DEFINE_ENTRY_POINTS(WeightFormat::kMxfp4)
MEGAMOE_MEGA_DEFINE_ENTRY_POINTS(WeightFormat::kNvfp4)
}  // namespace megamoe::sm90::mega
