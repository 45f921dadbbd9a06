// Inline-PTX wrappers shared by the sm90 kernels: programmatic dependent launch (griddepcontrol)
// and cp.async. Device code only.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace megamoe::ptx {

// ---- programmatic dependent launch (PDL) ---------------------------------------------------
// griddepcontrol.wait returns once the previous kernel in the stream has completed and its writes
// are visible (a no-op when this grid has no programmatic dependency, i.e. it was launched
// without the PDL attribute); launch_dependents lets the next kernel in the stream launch early.
__device__ __forceinline__ void griddep_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void griddep_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Wait for the previous kernel (no-op without a programmatic dependency), then let the next one
// launch. Call first in every kernel launched with PDL, before any early return, so that no
// block of the grid can finish before its predecessor.
__device__ __forceinline__ void pdl_wait_then_release() {
  griddep_wait();
  griddep_launch_dependents();
}

// ---- cp.async --------------------------------------------------------------------------------
constexpr int kCpAsyncBytes = 16;  // the .cg variant copies 16 bytes per instruction

// 16 bytes global -> shared (L2 only, .cg); `valid` false zero-fills the destination and reads
// nothing.
__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool valid) {
  const int n = valid ? kCpAsyncBytes : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(n) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Waits until at most N committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

}  // namespace megamoe::ptx
