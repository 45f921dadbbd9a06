// cudaStream_t for the public API, without requiring the CUDA toolkit.
//
// The stream parameters of MoeLayer::forward / invalid_id_count and of the GPU quantizers are
// cudaStream_t, so callers pass their streams without casts. A CPU-only consumer (or a build
// machine without CUDA headers) still has to compile these headers, so outside nvcc the type is
// forward-declared here exactly as CUDA's driver_types.h declares it: a pointer to the opaque
// struct CUstream_st. C++ allows a typedef to be repeated for the same type, so <cuda_runtime.h>
// may be included before or after this header (on host compilers CUDA's __device_builtin__
// marker expands to nothing). Under nvcc/clang-CUDA the toolkit's own declaration is used, since
// there it carries compiler attributes. nullptr means the legacy default stream, as in CUDA.
#pragma once

#if defined(__CUDACC__)
#include <cuda_runtime_api.h>
#else
struct CUstream_st;
typedef struct CUstream_st* cudaStream_t;
#endif
