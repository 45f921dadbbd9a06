// CUDA helpers shared by the CLI commands (CUDA builds only).
#pragma once
#if defined(MEGAMOE_WITH_CUDA)
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "megamoe/errors.h"

namespace megamoe::cli {

inline void cuda_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaError(std::string(what) + ": " + cudaGetErrorString(e));
}

// An owning device allocation (at least 16 bytes, so empty tensors still get a pointer).
struct DeviceBuffer {
  void* ptr = nullptr;
  size_t bytes = 0;
  explicit DeviceBuffer(size_t n) : bytes(std::max<size_t>(n, 16)) { cuda_check(cudaMalloc(&ptr, bytes), "cudaMalloc"); }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// `body` (work enqueued on `s`, e.g. layer.forward) captured once into an instantiated graph;
// the graph is destroyed with this object.
struct CapturedGraph {
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  template <class Body>
  CapturedGraph(cudaStream_t s, Body body) {
    cuda_check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "begin capture");
    body();
    cuda_check(cudaStreamEndCapture(s, &graph), "end capture");
    cuda_check(cudaGraphInstantiate(&exec, graph, 0), "instantiate");
  }
  ~CapturedGraph() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  CapturedGraph(const CapturedGraph&) = delete;
  CapturedGraph& operator=(const CapturedGraph&) = delete;
};

}  // namespace megamoe::cli
#endif
