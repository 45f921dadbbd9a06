// What the grouped-GEMM dispatchers (grouped_gemm_bf16.cu, grouped_gemm_fp8_blockwise.cu) share:
// one device workspace carved into a 256-byte aligned slice per prepared kernel, and one opaque
// state per kernel built once by the kernel's TacticOps::create. Host code; no CUTLASS header.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "megamoe/errors.h"

namespace megamoe::sm90::gemm_dispatch {

// The prepared kernels of one grouped GEMM. Ops: a TacticOps table (workspace_bytes, create,
// destroy); ops_for(i) gives kernel i's table.
template <class Ops, int kKernels>
struct PreparedKernels {
  void* workspace = nullptr;
  size_t workspace_bytes = 0;
  void* state[kKernels] = {};
  int device = 0;

  // On `device` (an sm_90 GPU, else Unsupported): sizes the slices for `num_groups` groups of an
  // [.., K] x [N, K]^T problem, allocates the workspace and creates every kernel's state; on a
  // failure destroys what was made and rethrows.
  void create(const char* who, const Ops& (*ops_for)(int), int num_groups, int64_t N, int64_t K, int dev) {
    device = dev;
    cu::DeviceGuard guard(who, dev);
    const int sm_count = cu::sm_count(dev);
    int major = 0;
    cu::check(who, cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "cudaDeviceGetAttribute(CC)");
    if (major != 9)
      throw Unsupported(std::string(who) + " needs an sm_90 (Hopper) GPU, got compute capability " +
                        std::to_string(major) + ".x");
    size_t offset[kKernels] = {};
    for (int i = 0; i < kKernels; ++i) {
      offset[i] = workspace_bytes;
      workspace_bytes += cu::align_up(ops_for(i).workspace_bytes(num_groups, sm_count));
    }
    try {
      cu::check(who, cudaMalloc(&workspace, workspace_bytes), "cudaMalloc(workspace)");
      for (int i = 0; i < kKernels; ++i)
        state[i] = ops_for(i).create(num_groups, N, K, dev, sm_count, static_cast<char*>(workspace) + offset[i]);
    } catch (...) {
      release(ops_for);
      throw;
    }
  }

  // Destroys the states and frees the workspace on its device (never throws).
  void release(const Ops& (*ops_for)(int)) {
    for (int i = 0; i < kKernels; ++i)
      if (state[i]) ops_for(i).destroy(state[i]);
    for (void*& s : state) s = nullptr;
    if (workspace) {
      int prev = 0;
      if (cudaGetDevice(&prev) == cudaSuccess) {
        if (prev != device) cudaSetDevice(device);
        cudaFree(workspace);
        if (prev != device) cudaSetDevice(prev);
      }
    }
    workspace = nullptr;
  }
};

}  // namespace megamoe::sm90::gemm_dispatch
