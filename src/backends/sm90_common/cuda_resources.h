// An owning device allocation for the sm90 backends. The checks, the device guard and align_up
// are the shared CUDA helpers (kernels/sm90/common/cuda_helpers.h). Header-only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"

namespace megamoe::sm90_backend {

using cu::align_up;
using cu::DeviceGuard;

// An owning allocation on `device`, (re)sized by allocate(); freed on release or destruction,
// with `device` made current for the cudaFree, so the owner's destructor needs no device guard of
// its own and the order in which members are destroyed does not matter.
class DeviceBuffer {
 public:
  DeviceBuffer(const char* who, int device) : who_(who), device_(device) {}
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void allocate(size_t n, const std::string& what) {
    release();
    if (n == 0) return;
    DeviceGuard guard(who_, device_);
    cu::check(who_, cudaMalloc(&ptr, n), "cudaMalloc " + std::to_string(n) + " bytes for " + what);
    bytes = n;
  }
  // allocate(), then zero the bytes and wait for the zeros to land (cudaMemset runs on the legacy
  // default stream, and a later forward on a non-blocking stream is not ordered after it).
  void allocate_zeroed(size_t n, const std::string& what) {
    allocate(n, what);
    if (n == 0) return;
    DeviceGuard guard(who_, device_);
    cu::check(who_, cudaMemset(ptr, 0, n), "zero " + what);
    cu::check(who_, cudaStreamSynchronize(nullptr), "zero " + what);
  }
  // Allocates only when the size changes (weights re-prepared with the same shapes keep theirs).
  void ensure(size_t n, const std::string& what) {
    if (bytes != n) allocate(n, what);
  }
  void release() {
    if (ptr) {
      int prev = -1;
      const bool switched = cudaGetDevice(&prev) == cudaSuccess && prev != device_ && cudaSetDevice(device_) == cudaSuccess;
      cudaFree(ptr);
      if (switched) cudaSetDevice(prev);
    }
    ptr = nullptr;
    bytes = 0;
  }
  template <class T = void>
  T* as() const {
    return static_cast<T*>(ptr);
  }
  void* ptr = nullptr;
  size_t bytes = 0;

 private:
  const char* who_;
  int device_;
};

}  // namespace megamoe::sm90_backend
