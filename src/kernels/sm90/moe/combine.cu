// Combine: per token, the fixed-order (k = 0..K-1) weighted FP32 sum of its routes' bf16 y
// rows, rounded to bf16 once (see moe_kernels.h).
// Budget: kThreads = 256 threads a CTA, one role, no shared memory; the only "pipeline" is in
// registers: kChunk routes' loads are issued before any of them is used. One thread per
// kColsPerThread = 8 columns of one token: for each route 2 x 16-byte loads of fp32 y (and of b2),
// or one 16-byte load of bf16 y, and one 16-byte store of 8 bf16.
// Products and sums use __fmul_rn/__fadd_rn so no FMA contraction changes the rounding:
// the result equals the CPU reference's `acc += w * y` bit for bit given the same y.
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/common/vector_io.cuh"
#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

constexpr int kThreads = 256;
using vec::kBytesPerVectorLoad;
constexpr int kColsPerThread = 8;  // one 16-byte bf16 vector (out, bf16 y); two of fp32 y
static_assert(kColsPerThread * sizeof(__nv_bfloat16) == kBytesPerVectorLoad, "one 16-byte store of out");
static_assert(kColsPerThread * sizeof(float) == 2 * kBytesPerVectorLoad, "two 16-byte loads of fp32 y");

// Routes are taken kChunk at a time: their rows and weights are loaded first, then their y rows
// (independent loads in flight together instead of one dependent round trip per route: at T = 1
// a token's K = 8 routes took ~8 memory latencies), then accumulated in k order as before.
constexpr int kChunk = 4;

template <bool kBias>
__global__ void combine_kernel(const float* __restrict__ y, const float* __restrict__ b2,
                               const int32_t* __restrict__ row_expert, const int32_t* __restrict__ route_to_row,
                               const float* __restrict__ topk_weights, int64_t T, int K, int64_t H,
                               __nv_bfloat16* __restrict__ out) {
  ptx::pdl_wait_then_release();
  const int64_t vecs = H / kColsPerThread;
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= T * vecs) return;
  const int64_t t = idx / vecs, c = (idx - t * vecs) * kColsPerThread;
  float acc[kColsPerThread];
#pragma unroll
  for (int j = 0; j < kColsPerThread; ++j) acc[j] = 0.0f;
  for (int k0 = 0; k0 < K; k0 += kChunk) {
    int32_t row[kChunk];
    float w[kChunk];
#pragma unroll
    for (int q = 0; q < kChunk; ++q) {
      row[q] = k0 + q < K ? __ldg(route_to_row + t * K + k0 + q) : -1;
      w[q] = k0 + q < K ? __ldg(topk_weights + t * K + k0 + q) : 0.0f;
    }
    float v[kChunk][kColsPerThread];
#pragma unroll
    for (int q = 0; q < kChunk; ++q) {
      if (row[q] < 0) continue;
      vec::ldg_f32x8(y + int64_t(row[q]) * H + c, v[q]);
      if constexpr (kBias) {
        float b[kColsPerThread];
        vec::ldg_f32x8(b2 + int64_t(__ldg(row_expert + row[q])) * H + c, b);
#pragma unroll
        for (int j = 0; j < kColsPerThread; ++j) v[q][j] = __fadd_rn(v[q][j], b[j]);
      }
    }
#pragma unroll
    for (int q = 0; q < kChunk; ++q) {
      if (row[q] < 0) continue;
#pragma unroll
      for (int j = 0; j < kColsPerThread; ++j) {
        const float yb = __bfloat162float(__float2bfloat16_rn(v[q][j]));
        acc[j] = __fadd_rn(acc[j], __fmul_rn(w[q], yb));
      }
    }
  }
  alignas(kBytesPerVectorLoad) __nv_bfloat16 o[kColsPerThread];
#pragma unroll
  for (int j = 0; j < kColsPerThread; ++j) o[j] = __float2bfloat16_rn(acc[j]);
  *reinterpret_cast<uint4*>(out + t * H + c) = *reinterpret_cast<const uint4*>(o);
}

// y already bf16 (rounded by the FC2 GEMM's epilogue), no bias: one 16-byte load per route.
__global__ void combine_bf16y_kernel(const uint16_t* __restrict__ y, const int32_t* __restrict__ route_to_row,
                                     const float* __restrict__ topk_weights, int64_t T, int K, int64_t H,
                                     __nv_bfloat16* __restrict__ out) {
  ptx::pdl_wait_then_release();
  const int64_t vecs = H / kColsPerThread;
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= T * vecs) return;
  const int64_t t = idx / vecs, c = (idx - t * vecs) * kColsPerThread;
  float acc[kColsPerThread];
#pragma unroll
  for (int j = 0; j < kColsPerThread; ++j) acc[j] = 0.0f;
  for (int k0 = 0; k0 < K; k0 += kChunk) {
    int32_t row[kChunk];
    float w[kChunk];
#pragma unroll
    for (int q = 0; q < kChunk; ++q) {
      row[q] = k0 + q < K ? __ldg(route_to_row + t * K + k0 + q) : -1;
      w[q] = k0 + q < K ? __ldg(topk_weights + t * K + k0 + q) : 0.0f;
    }
    uint4 raw[kChunk];
#pragma unroll
    for (int q = 0; q < kChunk; ++q)
      if (row[q] >= 0) raw[q] = __ldg(reinterpret_cast<const uint4*>(y + int64_t(row[q]) * H + c));
#pragma unroll
    for (int q = 0; q < kChunk; ++q) {
      if (row[q] < 0) continue;
      vec::accumulate_weighted_bf16x8(acc, raw[q], w[q]);
    }
  }
  alignas(kBytesPerVectorLoad) __nv_bfloat16 o[kColsPerThread];
#pragma unroll
  for (int j = 0; j < kColsPerThread; ++j) o[j] = __float2bfloat16_rn(acc[j]);
  *reinterpret_cast<uint4*>(out + t * H + c) = *reinterpret_cast<const uint4*>(o);
}

// Expert parallelism's owner side: no weighted sum; route (t, k)'s y row, rounded to bf16 as
// combine rounds it, goes to route_out[t*K + k]. One thread per 8 columns of one route.
template <bool kBf16Y, bool kBias>
__global__ void route_rows_kernel(const void* __restrict__ y, const float* __restrict__ b2,
                                  const int32_t* __restrict__ row_expert, const int32_t* __restrict__ route_to_row,
                                  int64_t routes, int64_t H, __nv_bfloat16* __restrict__ route_out) {
  ptx::pdl_wait_then_release();
  const int64_t vecs = H / kColsPerThread;
  const int64_t idx = int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (idx >= routes * vecs) return;
  const int64_t r = idx / vecs, c = (idx - r * vecs) * kColsPerThread;
  const int32_t row = __ldg(route_to_row + r);
  if (row < 0) return;
  uint4 o4;
  if constexpr (kBf16Y) {
    o4 = __ldg(reinterpret_cast<const uint4*>(static_cast<const uint16_t*>(y) + int64_t(row) * H + c));
  } else {
    float v[kColsPerThread];
    vec::ldg_f32x8(static_cast<const float*>(y) + int64_t(row) * H + c, v);
    if constexpr (kBias) {
      float b[kColsPerThread];
      vec::ldg_f32x8(b2 + int64_t(__ldg(row_expert + row)) * H + c, b);
#pragma unroll
      for (int j = 0; j < kColsPerThread; ++j) v[j] = __fadd_rn(v[j], b[j]);
    }
    alignas(kBytesPerVectorLoad) __nv_bfloat16 o[kColsPerThread];
#pragma unroll
    for (int j = 0; j < kColsPerThread; ++j) o[j] = __float2bfloat16_rn(v[j]);
    o4 = *reinterpret_cast<const uint4*>(o);
  }
  *reinterpret_cast<uint4*>(route_out + r * H + c) = o4;
}

void check_combine_args(int64_t H, const void* out) {
  if (H % kColsPerThread != 0)
    throw_invalid("hidden_size", "a multiple of " + std::to_string(kColsPerThread) + " (combine kernel)",
                  std::to_string(H));
  if (!cu::aligned(out, kBytesPerVectorLoad))
    throw_invalid("out", "a 16-byte aligned pointer", std::to_string(reinterpret_cast<uintptr_t>(out)));
}

}  // namespace

void launch_combine(const float* y, const float* b2, const int32_t* row_expert, const int32_t* route_to_row,
                    const float* topk_weights, int64_t T, int64_t K, int64_t H, void* out, cudaStream_t stream) {
  launch_combine(y, b2, row_expert, route_to_row, topk_weights, T, K, H, out, stream, false);
}

void launch_combine_bf16y(const void* y_bf16, const int32_t* route_to_row, const float* topk_weights, int64_t T,
                          int64_t K, int64_t H, void* out, cudaStream_t stream, bool pdl) {
  if (T <= 0) return;
  check_combine_args(H, out);
  if (!cu::aligned(y_bf16, kBytesPerVectorLoad)) throw_invalid("y", "a 16-byte aligned pointer", "misaligned");
  const int64_t threads = T * (H / kColsPerThread);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(threads, kThreads));
  const cudaError_t e = cu::launch_kernel_pdl(combine_bf16y_kernel, dim3(grid), dim3(kThreads), 0, stream, pdl,
                                              static_cast<const uint16_t*>(y_bf16), route_to_row, topk_weights, T,
                                              int(K), H, static_cast<__nv_bfloat16*>(out));
  cu::check("combine", e, "combine kernel launch");
}

void launch_combine(const float* y, const float* b2, const int32_t* row_expert, const int32_t* route_to_row,
                    const float* topk_weights, int64_t T, int64_t K, int64_t H, void* out, cudaStream_t stream,
                    bool pdl) {
  if (T <= 0) return;
  check_combine_args(H, out);
  const int64_t threads = T * (H / kColsPerThread);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(threads, kThreads));
  auto op = static_cast<__nv_bfloat16*>(out);
  const cudaError_t e =
      b2 ? cu::launch_kernel_pdl(combine_kernel<true>, dim3(grid), dim3(kThreads), 0, stream, pdl, y, b2, row_expert,
                                 route_to_row, topk_weights, T, int(K), H, op)
         : cu::launch_kernel_pdl(combine_kernel<false>, dim3(grid), dim3(kThreads), 0, stream, pdl, y, b2, row_expert,
                                 route_to_row, topk_weights, T, int(K), H, op);
  cu::check("combine", e, "combine kernel launch");
}

void launch_route_rows(const void* y, bool y_is_bf16, const float* b2, const int32_t* row_expert,
                       const int32_t* route_to_row, int64_t T, int64_t K, int64_t H, void* route_out,
                       cudaStream_t stream, bool pdl) {
  if (T <= 0) return;
  check_combine_args(H, route_out);
  if (y_is_bf16 && b2) throw Error("megamoe: route_rows: bf16 y cannot take a bias (it is added before rounding)");
  const int64_t routes = T * K;
  const int64_t threads = routes * (H / kColsPerThread);
  const unsigned grid = unsigned(cu::ceil_div<int64_t>(threads, kThreads));
  auto op = static_cast<__nv_bfloat16*>(route_out);
  auto kernel = y_is_bf16 ? route_rows_kernel<true, false> : b2 ? route_rows_kernel<false, true> : route_rows_kernel<false, false>;
  const cudaError_t e = cu::launch_kernel_pdl(kernel, dim3(grid), dim3(kThreads), 0, stream, pdl, y, b2, row_expert,
                                              route_to_row, routes, H, op);
  cu::check("route_rows", e, "route rows kernel launch");
}

}  // namespace megamoe::sm90
