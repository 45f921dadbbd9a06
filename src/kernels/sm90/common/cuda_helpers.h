// The CUDA helpers every sm90 kernel, GEMM dispatcher and backend uses, in one place: error
// checks that name the component, a scoped current-device guard, ceil-div and align-up, the
// device's SM count (queried once per device, never hard-coded) and the launch helper for
// programmatic dependent launch (PDL). The device half of PDL (griddepcontrol) is in ptx.cuh.
//
// Why here and not in src/backends/sm90_common: the kernels below src/kernels/sm90/ need the same
// checks, ceil-div, SM count and PDL launch as the backends, and a kernel file must not depend on
// a backend folder. Host code only (plain C++ can include it, e.g. src/formats/quantize_gpu.cpp),
// apart from constexpr ceil_div/align_up, which device code may call too.
#pragma once
#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/workspace_carver.h"
#include "megamoe/errors.h"

#if defined(__CUDACC__)
#define MEGAMOE_HOST_DEVICE __host__ __device__
#else
#define MEGAMOE_HOST_DEVICE
#endif

namespace megamoe::cu {

// ceil(a / b) for a >= 0, b > 0.
template <class T>
MEGAMOE_HOST_DEVICE constexpr T ceil_div(T a, T b) {
  return (a + b - 1) / b;
}

// Every buffer carved out of a workspace starts on this boundary (core/workspace_carver.h).
constexpr size_t kWorkspaceAlign = megamoe::kWorkspaceAlign;
MEGAMOE_HOST_DEVICE constexpr size_t align_up(size_t n, size_t a = kWorkspaceAlign) { return ceil_div(n, a) * a; }

inline bool aligned(const void* p, size_t bytes) { return reinterpret_cast<uintptr_t>(p) % bytes == 0; }
// Throws InvalidArgument naming `name` unless p is 16-byte aligned (what TMA and 16-byte copies
// need); `use` says who reads it that way, the actual value where p falls ("an address 16k + 4").
inline void require_aligned16(const void* p, const char* name, const char* use) {
  const uintptr_t r = reinterpret_cast<uintptr_t>(p) % 16;
  if (r != 0)
    throw_invalid(name, std::string("a 16-byte aligned device pointer (") + use + ")",
                  "an address 16k + " + std::to_string(r));
}

// Throws OutOfMemory for a failed allocation, CudaError otherwise: "<who>: <what>: <CUDA's text>".
// `who` names the component (a backend, "grouped_gemm_bf16", "permute", ...).
inline void check(const char* who, cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  if (e == cudaErrorMemoryAllocation) throw OutOfMemory(std::string(who) + ": " + what);
  throw CudaError(std::string(who) + ": " + what + ": " + cudaGetErrorString(e));
}

// After a <<<...>>> launch: the launch's own error (configuration, resources), if any.
inline void check_launch(const char* who, const std::string& what) { check(who, cudaGetLastError(), what); }

// Makes `device` current for the scope and restores the caller's device afterwards (host-only
// calls; capture-safe). Nothing is switched when `device` is already current.
class DeviceGuard {
 public:
  DeviceGuard(const char* who, int device) {
    check(who, cudaGetDevice(&prev_), "cudaGetDevice");
    if (prev_ != device) check(who, cudaSetDevice(device), "cudaSetDevice(" + std::to_string(device) + ")");
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

// Streaming multiprocessors of `device` (cudaDevAttrMultiProcessorCount), queried on first use
// and cached per device (the attribute cannot change while the process runs).
inline int sm_count(int device) {
  constexpr int kCachedDevices = 64;
  static std::atomic<int> cache[kCachedDevices] = {};
  if (device >= 0 && device < kCachedDevices) {
    const int cached = cache[device].load(std::memory_order_relaxed);
    if (cached > 0) return cached;
  }
  int n = 0;
  check("sm_count", cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute(MultiProcessorCount, device " + std::to_string(device) + ")");
  if (device >= 0 && device < kCachedDevices) cache[device].store(n, std::memory_order_relaxed);
  return n;
}

// The SM count of the current device (kernels launched on a stream run on its device, which is
// the current one for every launch in this library).
inline int current_sm_count() {
  int device = 0;
  check("sm_count", cudaGetDevice(&device), "cudaGetDevice");
  return sm_count(device);
}

// A grid-stride kernel's grid: enough CTAs of `threads` for n items, at most `ctas_per_sm` per SM
// of the current device (the kernel strides beyond).
inline unsigned grid_stride_ctas(int64_t n, int threads, int ctas_per_sm) {
  const int64_t need = ceil_div<int64_t>(n, threads), cap = int64_t(current_sm_count()) * ctas_per_sm;
  return unsigned(need < cap ? need : cap);
}

// Work units per warp for a kernel whose warps each take consecutive units of one row (rows x
// units_per_row in all): as many as keep about kTargetWarps warps busy, at least 1 and at most
// `cap`. kTargetWarps = 8192: ~62 warps per SM on 132 SMs (full occupancy is 64), so at small
// sizes every warp takes one unit and the warps still cover every SM.
inline int64_t units_per_warp(int64_t rows, int64_t units_per_row, int64_t cap) {
  constexpr int64_t kTargetWarps = 8192;
  const int64_t n = rows * units_per_row / kTargetWarps;
  return n < 1 ? 1 : n > cap ? cap : n;
}

// cudaLaunchKernelEx with the programmatic-stream-serialization attribute when `pdl` (the kernel
// may start before the previous kernel in the stream has finished; it must begin with
// griddepcontrol.wait, ptx.cuh). Returns the launch's error.
template <typename... KArgs, typename... Args>
inline cudaError_t launch_kernel_pdl(void (*kernel)(KArgs...), dim3 grid, dim3 block, size_t smem,
                                     cudaStream_t stream, bool pdl, Args... args) {
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cfg.attrs = attr;
  cfg.numAttrs = pdl ? 1 : 0;
  return cudaLaunchKernelEx(&cfg, kernel, args...);
}

// PDL only on streams the caller created: the legacy and per-thread default streams keep plain
// ordering.
inline bool is_created_stream(cudaStream_t s) {
  return s != nullptr && s != cudaStreamLegacy && s != cudaStreamPerThread;
}

}  // namespace megamoe::cu
