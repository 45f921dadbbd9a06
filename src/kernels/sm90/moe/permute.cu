// Permute: gather x rows into expert order (see moe_kernels.h).
// Budget: kThreads = 256 threads a CTA, one role (every thread loads then stores), no shared
// memory, no pipeline. One thread per kColsPerThread = 8 columns of one token: it loads the 8 bf16
// values once (kBytesPerVectorLoad = 16 bytes) and stores them to each of the token's routed rows,
// so x is read once and x_perm written once.
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

constexpr int kThreads = 256;
constexpr int kBytesPerVectorLoad = 16;  // one uint4 access
constexpr int kColsPerThread = kBytesPerVectorLoad / int(sizeof(uint16_t));  // 8 bf16
static_assert(kColsPerThread == 8, "permute_kernel's scalar path copies 8 columns");
static_assert(kThreads % 32 == 0, "whole warps");
constexpr int kChunk = 8;  // routes whose row indices are loaded before any of their stores

struct Vec8 {
  uint16_t v[kColsPerThread];
};

template <bool kVec>
__global__ void permute_kernel(const uint16_t* __restrict__ x, int64_t ldx, int64_t T, int K, int64_t H,
                               const int32_t* __restrict__ route_to_row, uint16_t* __restrict__ x_perm) {
  ptx::pdl_wait_then_release();
  const int64_t vecs = H / kColsPerThread;
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= T * vecs) return;
  const int64_t t = idx / vecs, c = (idx - t * vecs) * kColsPerThread;
  const uint16_t* src = x + t * ldx + c;
  if constexpr (kVec) {
    const uint4 v = __ldg(reinterpret_cast<const uint4*>(src));
    // The token's row indices are loaded kChunk at a time before any of their stores: the
    // loop that stored after each index load waited for one index round trip per route
    // (kernel timelines, H200, bf16 T = 8192: qwen3-30b-a3b 98.9 -> 91.8 us, deepseek-v3 347 -> 316 us).
    for (int k0 = 0; k0 < K; k0 += kChunk) {
      int32_t row[kChunk];
#pragma unroll
      for (int q = 0; q < kChunk; ++q) row[q] = k0 + q < K ? __ldg(route_to_row + t * K + k0 + q) : -1;
#pragma unroll
      for (int q = 0; q < kChunk; ++q)
        if (row[q] >= 0) *reinterpret_cast<uint4*>(x_perm + int64_t(row[q]) * H + c) = v;
    }
  } else {
    Vec8 v;
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j) v.v[j] = src[j];
    for (int k = 0; k < K; ++k) {
      const int32_t row = __ldg(route_to_row + t * K + k);
      if (row >= 0) {
        uint16_t* dst = x_perm + int64_t(row) * H + c;
#pragma unroll
        for (int j = 0; j < kColsPerThread; ++j) dst[j] = v.v[j];
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
  const bool vec = H % kColsPerThread == 0 && ldx % kColsPerThread == 0 && cu::aligned(x, kBytesPerVectorLoad) &&
                   cu::aligned(x_perm, kBytesPerVectorLoad);
  const int64_t threads = T * (H / kColsPerThread);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(threads, kThreads));
  auto xs = static_cast<const uint16_t*>(x);
  auto xp = static_cast<uint16_t*>(x_perm);
  const int k = int(K);
  const cudaError_t e =
      vec ? cu::launch_kernel_pdl(permute_kernel<true>, dim3(grid), dim3(kThreads), 0, stream, pdl, xs, ldx, T, k, H,
                                  route_to_row, xp)
          : cu::launch_kernel_pdl(permute_kernel<false>, dim3(grid), dim3(kThreads), 0, stream, pdl, xs, ldx, T, k, H,
                                  route_to_row, xp);
  cu::check("permute", e, "permute kernel launch");
}

}  // namespace megamoe::sm90
