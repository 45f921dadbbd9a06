// The Mega kernel's W4A16 instantiations, mxfp4 and nvfp4 (mega_kernel.cuh).
#include "kernels/sm90/mega/mega_kernel.cuh"

namespace megamoe::sm90::mega {

template <>
int kernel_blocks_per_sm<WeightFormat::kMxfp4>() {
  return blocks_per_sm_impl<WeightFormat::kMxfp4>();
}
template <>
void launch_kernel<WeightFormat::kMxfp4>(const Params& p, int grid, cudaStream_t stream) {
  launch_impl<WeightFormat::kMxfp4>(p, grid, stream);
}
template <>
int kernel_blocks_per_sm<WeightFormat::kNvfp4>() {
  return blocks_per_sm_impl<WeightFormat::kNvfp4>();
}
template <>
void launch_kernel<WeightFormat::kNvfp4>(const Params& p, int grid, cudaStream_t stream) {
  launch_impl<WeightFormat::kNvfp4>(p, grid, stream);
}

}  // namespace megamoe::sm90::mega
