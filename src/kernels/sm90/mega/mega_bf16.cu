// The Mega kernel's bf16 instantiation (mega_kernel.cuh; one translation unit per format so they
// build in parallel).
#include "kernels/sm90/mega/mega_kernel.cuh"

namespace megamoe::sm90::mega {

template <>
int kernel_blocks_per_sm<WeightFormat::kBf16>() {
  return blocks_per_sm_impl<WeightFormat::kBf16>();
}
template <>
void launch_kernel<WeightFormat::kBf16>(const Params& p, int grid, cudaStream_t stream) {
  launch_impl<WeightFormat::kBf16>(p, grid, stream);
}

}  // namespace megamoe::sm90::mega
