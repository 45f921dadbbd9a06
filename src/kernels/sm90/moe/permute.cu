// Permute: gather x rows into expert order (see moe_kernels.h). One thread per 8 columns of
// one token: it loads the 8 bf16 values once (16 bytes) and stores them to each of the
// token's routed rows, so x is read once and x_perm written once.
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

struct Vec8 {
  uint16_t v[8];
};

template <bool kVec>
__global__ void permute_kernel(const uint16_t* __restrict__ x, int64_t ldx, int64_t T, int K, int64_t H,
                               const int32_t* __restrict__ route_to_row, uint16_t* __restrict__ x_perm) {
  pdl_wait_then_release();
  const int64_t vecs = H / 8;
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= T * vecs) return;
  const int64_t t = idx / vecs, c = (idx - t * vecs) * 8;
  const uint16_t* src = x + t * ldx + c;
  if constexpr (kVec) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(src));
    for (int k = 0; k < K; ++k) {
      const int32_t row = __ldg(route_to_row + t * K + k);
      if (row >= 0) *reinterpret_cast<uint4*>(x_perm + int64_t(row) * H + c) = v;
    }
  } else {
    Vec8 v;
#pragma unroll
    for (int j = 0; j < 8; ++j) v.v[j] = src[j];
    for (int k = 0; k < K; ++k) {
      const int32_t row = __ldg(route_to_row + t * K + k);
      if (row >= 0) {
        uint16_t* dst = x_perm + int64_t(row) * H + c;
#pragma unroll
        for (int j = 0; j < 8; ++j) dst[j] = v.v[j];
      }
    }
  }
}

}  // namespace

void launch_permute(const void* x, int64_t ldx, int64_t T, int64_t K, int64_t H, const int32_t* route_to_row,
                    void* x_perm, cudaStream_t stream) {
  launch_permute(x, ldx, T, K, H, route_to_row, x_perm, stream, false);
}

void launch_permute(const void* x, int64_t ldx, int64_t T, int64_t K, int64_t H, const int32_t* route_to_row,
                    void* x_perm, cudaStream_t stream, bool pdl) {
  if (T <= 0) return;
  const bool vec = H % 8 == 0 && ldx % 8 == 0 && reinterpret_cast<uintptr_t>(x) % 16 == 0 &&
                   reinterpret_cast<uintptr_t>(x_perm) % 16 == 0;
  const int64_t threads = T * (H / 8);
  constexpr int kBlock = 256;
  const unsigned grid = unsigned((threads + kBlock - 1) / kBlock);
  auto xs = static_cast<const uint16_t*>(x);
  auto xp = static_cast<uint16_t*>(x_perm);
  const int k = int(K);
  const cudaError_t e =
      vec ? launch_kernel_pdl(permute_kernel<true>, dim3(grid), dim3(kBlock), 0, stream, pdl, xs, ldx, T, k, H,
                              route_to_row, xp)
          : launch_kernel_pdl(permute_kernel<false>, dim3(grid), dim3(kBlock), 0, stream, pdl, xs, ldx, T, k, H,
                              route_to_row, xp);
  if (e != cudaSuccess) throw CudaError(std::string("permute kernel launch: ") + cudaGetErrorString(e));
}

}  // namespace megamoe::sm90
