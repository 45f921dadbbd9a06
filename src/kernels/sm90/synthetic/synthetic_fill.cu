#include "kernels/sm90/synthetic/synthetic_fill.h"

#include <cmath>
#include <string>

#include <cuda_bf16.h>

#include "core/synthetic.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {
void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaError(std::string(what) + ": " + cudaGetErrorString(e));
}

// dst[i] = bf16(uniform(seed, stream, base + i, scale)) for i < n; grid-stride.
__global__ void fill_bf16_kernel(__nv_bfloat16* dst, int64_t n, uint64_t seed, uint64_t stream,
                                 uint64_t base, float scale) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = __float2bfloat16_rn(synthetic::uniform(seed, stream, base + uint64_t(i), scale));
}

__global__ void fill_bias_kernel(float* dst, int64_t n, uint64_t seed, uint64_t stream, uint64_t base,
                                 float scale) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = __bfloat162float(__float2bfloat16_rn(synthetic::uniform(seed, stream, base + uint64_t(i), scale)));
}

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 132 * 16;  // enough to fill an H100/H200 (132 SMs), grid-stride beyond
int blocks_for(int64_t n) { return int(std::min<int64_t>((n + kThreads - 1) / kThreads, kMaxBlocks)); }
}  // namespace

void fill_synthetic_layer_bf16(const MoeConfig& c, uint64_t seed, void* w13, void* w2, float* b13, float* b2,
                               cudaStream_t s) {
  const int64_t E = c.local_experts(), e0 = c.first_local_expert(), H = c.hidden_size,
                I = c.intermediate_size, N13 = c.fc1_rows();
  // Local expert l is global expert e0 + l; the layouts are contiguous in the expert index,
  // so one launch per tensor starting at the first local expert's index covers all of them.
  const int64_t n13 = E * N13 * H, n2 = E * H * I;
  if (n13 > 0)
    fill_bf16_kernel<<<blocks_for(n13), kThreads, 0, s>>>(static_cast<__nv_bfloat16*>(w13), n13, seed,
        synthetic::kW13, synthetic::w13_index(e0, 0, 0, N13, H), synthetic::weight_scale(H));
  if (n2 > 0)
    fill_bf16_kernel<<<blocks_for(n2), kThreads, 0, s>>>(static_cast<__nv_bfloat16*>(w2), n2, seed,
        synthetic::kW2, synthetic::w2_index(e0, 0, 0, H, I), synthetic::weight_scale(I));
  if (c.has_bias && b13 && b2) {
    fill_bias_kernel<<<blocks_for(E * N13), kThreads, 0, s>>>(b13, E * N13, seed, synthetic::kB13,
                                                              uint64_t(e0 * N13), synthetic::kBiasScale);
    fill_bias_kernel<<<blocks_for(E * H), kThreads, 0, s>>>(b2, E * H, seed, synthetic::kB2, uint64_t(e0 * H), synthetic::kBiasScale);
  }
  check(cudaGetLastError(), "fill_synthetic_layer_bf16");
}

void fill_synthetic_x_bf16(int64_t T, int64_t H, uint64_t seed, void* x, cudaStream_t s) {
  if (T * H == 0) return;
  fill_bf16_kernel<<<blocks_for(T * H), kThreads, 0, s>>>(static_cast<__nv_bfloat16*>(x), T * H, seed,
                                                          synthetic::kX, 0, 1.0f);
  check(cudaGetLastError(), "fill_synthetic_x_bf16");
}

}  // namespace megamoe::sm90
