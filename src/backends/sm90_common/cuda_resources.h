// CUDA resource helpers shared by the sm90 backends: error checks that name the backend,
// a scoped current-device guard and an owning device allocation. Header-only.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "megamoe/errors.h"

namespace megamoe::sm90_backend {

// Workspace carving aligns every buffer to 256 bytes (cudaMalloc's own alignment), so TMA
// (16 B) and vector accesses (16 B) are aligned whatever the buffer sizes are.
constexpr size_t kAlign = 256;
inline size_t align_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// Throws OutOfMemory for a failed allocation, CudaError otherwise; `who` names the backend.
inline void check_cuda(const char* who, cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  if (e == cudaErrorMemoryAllocation) throw OutOfMemory(std::string(who) + ": " + what);
  throw CudaError(std::string(who) + ": " + what + ": " + cudaGetErrorString(e));
}

// Makes `device` current for the scope, restoring the caller's device afterwards.
class DeviceGuard {
 public:
  DeviceGuard(const char* who, int device) {
    check_cuda(who, cudaGetDevice(&prev_), "cudaGetDevice");
    if (prev_ != device)
      check_cuda(who, cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
  }
  ~DeviceGuard() {
    int cur = -1;
    if (cudaGetDevice(&cur) == cudaSuccess && cur != prev_) cudaSetDevice(prev_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int prev_ = 0;
};

// An owning device allocation, (re)sized by allocate(); freed on release or destruction.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(const char* who) : who_(who) {}
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void allocate(size_t n, const std::string& what) {
    release();
    if (n == 0) return;
    check_cuda(who_, cudaMalloc(&ptr, n), "cudaMalloc " + std::to_string(n) + " bytes for " + what);
    bytes = n;
  }
  void release() {
    if (ptr) cudaFree(ptr);
    ptr = nullptr;
    bytes = 0;
  }
  void* ptr = nullptr;
  size_t bytes = 0;

 private:
  const char* who_;
};

}  // namespace megamoe::sm90_backend
