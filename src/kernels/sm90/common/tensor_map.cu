// TMA descriptor encoding (tensor_map.h).
#include "kernels/sm90/common/tensor_map.h"

#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "megamoe/errors.h"

namespace megamoe::cu {

namespace {
PFN_cuTensorMapEncodeTiled_v12000 encode_tiled() {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q{};
    check("tensor_map", cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q),
          "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (p == nullptr || q != cudaDriverEntryPointSuccess)
      throw CudaError("tensor_map: the driver has no cuTensorMapEncodeTiled (needs CUDA 12 or newer)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}
}  // namespace

CUtensorMap encode_tensor_map(const void* base, CUtensorMapDataType type, int rank, const cuuint64_t* dims,
                              const cuuint64_t* strides, const cuuint32_t* box, CUtensorMapSwizzle swizzle,
                              const char* who, const char* what) {
  if (!aligned(base, 16))
    throw_invalid(what, std::string("a 16-byte aligned buffer (") + who + ", TMA)", "misaligned");
  CUtensorMap m;
  const cuuint32_t elem_strides[5] = {1, 1, 1, 1, 1};
  const CUresult r = encode_tiled()(&m, type, cuuint32_t(rank), const_cast<void*>(base), dims, strides, box,
                                    elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle,
                                    CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS)
    throw CudaError(std::string(who) + ": cuTensorMapEncodeTiled(" + what + ") failed: CUresult " +
                    std::to_string(int(r)));
  return m;
}

}  // namespace megamoe::cu
