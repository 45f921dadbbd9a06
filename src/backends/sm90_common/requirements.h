// What every sm90 split backend requires of a configuration, checked in one place.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <limits>
#include <string>

#include "megamoe/config.h"
#include "routing/route_plan.h"

namespace megamoe::sm90_backend {

// "" when `c` can run on a backend for `recipe` whose GEMMs need H and I to be multiples of
// `multiple` (`why_multiple` says why, e.g. " (16-byte TMA row strides of the e4m3 GEMM operands)");
// else the reason.
inline std::string split_why_not(const MoeConfig& c, Recipe recipe, int64_t multiple, const std::string& why_multiple) {
  if (c.device < 0) return "needs a CUDA device (config.device >= 0), got device " + std::to_string(c.device);
  if (c.recipe != recipe) return std::string("needs recipe ") + recipe_name(recipe) + ", got " + recipe_name(c.recipe);
  if (c.ep_size != 1)
    return "ep_size " + std::to_string(c.ep_size) +
           " without a communicator: expert parallelism on GPUs needs config.ep_group (megamoe/ep.h)";
  const std::string m = std::to_string(multiple);
  if (c.hidden_size % multiple != 0)
    return "needs hidden_size a multiple of " + m + why_multiple + ", got " + std::to_string(c.hidden_size);
  if (c.intermediate_size % multiple != 0)
    return "needs intermediate_size a multiple of " + m + why_multiple + ", got " + std::to_string(c.intermediate_size);
  if (c.local_experts() > routing::max_gpu_local_experts())
    return "needs at most " + std::to_string(routing::max_gpu_local_experts()) + " local experts, got " +
           std::to_string(c.local_experts());
  const int64_t cap = routing::bucket_capacity(c.max_tokens);
  if (cap * c.top_k > int64_t(std::numeric_limits<int32_t>::max()))
    return "max_tokens * top_k (bucketed: " + std::to_string(cap * c.top_k) + ") must stay below 2^31";
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    cudaGetLastError();
    return "no CUDA device is present";
  }
  if (c.device >= count)
    return "CUDA device " + std::to_string(c.device) + " does not exist (" + std::to_string(count) + " present)";
  int major = 0, minor = 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, c.device) != cudaSuccess ||
      cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, c.device) != cudaSuccess) {
    cudaGetLastError();
    return "cannot query CUDA device " + std::to_string(c.device);
  }
  if (major != 9 || minor != 0)
    return "needs compute capability 9.0 (sm_90a: H100/H200), device " + std::to_string(c.device) + " is " +
           std::to_string(major) + "." + std::to_string(minor);
  return "";
}

}  // namespace megamoe::sm90_backend
