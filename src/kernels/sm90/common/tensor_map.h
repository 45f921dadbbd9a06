// TMA descriptors (CUtensorMap) for the sm90 kernels, encoded on the host through the runtime's
// driver entry point: linking libcuda directly would make every binary (the CPU-only CLI and
// tests included) need a driver to load. Host code only.
#pragma once
#include <cuda.h>

namespace megamoe::cu {

// A `rank`-D tensor (dims[0] innermost and contiguous; strides[i] in bytes between consecutive
// indices of dims[i + 1]), boxes of box[0] x ... x box[rank-1] elements, zero fill out of bounds.
// Pure host work (no device call). Throws InvalidArgument naming `what` for a base that is not
// 16-byte aligned, CudaError ("<who>: cuTensorMapEncodeTiled(<what>) failed ...") when the driver
// refuses the shape.
CUtensorMap encode_tensor_map(const void* base, CUtensorMapDataType type, int rank, const cuuint64_t* dims,
                              const cuuint64_t* strides, const cuuint32_t* box, CUtensorMapSwizzle swizzle,
                              const char* who, const char* what);

}  // namespace megamoe::cu
