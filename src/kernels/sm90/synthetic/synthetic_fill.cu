// Device-side generation of the synthetic layer's canonical weights (see synthetic_fill.h).
// bf16 and the biases: grid-stride fills, 256-thread CTAs, at most kCtasPerSm per SM of the
// current device. fp8_block and e2m1: the GPU quantizers' kernels (quantize/quantize_fp8_kernels.cuh,
// quantize/quantize_fp4_kernels.cuh) with a source that generates each bf16 master weight where it
// is loaded, so the codes and scales equal quantizing the bf16 tensor fill_synthetic_layer_bf16
// makes, byte for byte.
#include "kernels/sm90/synthetic/synthetic_fill.h"

#include <cuda_bf16.h>

#include <string>
#include <utility>

#include "core/synthetic.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/quantize/quantize_fp4_kernels.cuh"
#include "kernels/sm90/quantize/quantize_fp8_kernels.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

constexpr const char* kWho = "synthetic_fill";
constexpr int kThreads = 256;
constexpr int kCtasPerSm = 16;  // enough to fill the device; the fills grid-stride beyond

unsigned blocks_for(int64_t n) { return cu::grid_stride_ctas(n, kThreads, kCtasPerSm); }

// dst[i] = bf16(uniform(seed, stream, base + i, scale)) for i < n; grid-stride.
__global__ void fill_bf16_kernel(__nv_bfloat16* dst, int64_t n, uint64_t seed, uint64_t stream,
                                 uint64_t base, float scale) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = __float2bfloat16_rn(synthetic::uniform(seed, stream, base + uint64_t(i), scale));
}

// dst[i] = float(bf16(uniform(seed, stream, base + i, scale))): fp32 holding bf16 values.
__global__ void fill_bias_kernel(float* dst, int64_t n, uint64_t seed, uint64_t stream, uint64_t base,
                                 float scale) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = __bfloat162float(__float2bfloat16_rn(synthetic::uniform(seed, stream, base + uint64_t(i), scale)));
}

// b13 [E_local, N13] and b2 [E_local, H] (every recipe's biases are these fp32 tensors), when the
// config has biases and both pointers are set.
void fill_biases(const MoeConfig& c, uint64_t seed, float* b13, float* b2, cudaStream_t s) {
  if (!(c.has_bias && b13 && b2)) return;
  const int64_t E = c.local_experts(), e0 = c.first_local_expert(), H = c.hidden_size, N13 = c.fc1_rows();
  if (E * N13 > 0)
    fill_bias_kernel<<<blocks_for(E * N13), kThreads, 0, s>>>(b13, E * N13, seed, synthetic::kB13,
                                                              uint64_t(e0 * N13), synthetic::kBiasScale);
  if (E * H > 0)
    fill_bias_kernel<<<blocks_for(E * H), kThreads, 0, s>>>(b2, E * H, seed, synthetic::kB2, uint64_t(e0 * H),
                                                            synthetic::kBiasScale);
  cu::check_launch(kWho, "synthetic bias fill");
}

// The synthetic bf16 master weights (core/synthetic.h) as a source of the fp8_block weight
// quantizer: element (row, col) of the flattened [E_local * N, K] tensor is
// bf16(uniform(seed, stream, base + row * K + col, scale)).
struct Fp8SyntheticSource {
  uint64_t seed, stream, base;
  float scale;
  __device__ __forceinline__ void load4(int64_t row, int64_t col, int64_t K, float (&v)[4]) const {
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      v[j] = col + j < K ? __bfloat162float(__float2bfloat16_rn(synthetic::uniform(
                               seed, stream, base + uint64_t(row * K + col + j), scale)))
                         : 0.0f;
    }
  }
};

// The same weights as a source of the MX / NVFP4 quantizers: flat element i of the
// [E_local * N, K] tensor is bf16(uniform(seed, stream, base + i, scale)).
struct Fp4SyntheticSource {
  uint64_t seed, stream, base;
  float scale;
  __device__ __forceinline__ void load8(int64_t g, float (&v)[fp4::kGroup]) const {
#pragma unroll
    for (int j = 0; j < fp4::kGroup; ++j)
      v[j] = __bfloat162float(
          __float2bfloat16_rn(synthetic::uniform(seed, stream, base + uint64_t(g * fp4::kGroup + j), scale)));
  }
};

// See read_sweep: every thread XORs its 16-byte words; a store only for a sum of all ones.
__global__ void read_sweep_kernel(const uint4* src, int64_t n, unsigned* sink) {
  unsigned x = 0;
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    const uint4 v = __ldcg(src + i);
    x ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (x == 0xFFFFFFFFu) *sink = x;
}

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
  cu::check_launch(kWho, "fill_synthetic_layer_bf16");
  fill_biases(c, seed, b13, b2, s);
}

void fill_synthetic_x_bf16(int64_t T, int64_t H, uint64_t seed, void* x, cudaStream_t s) {
  if (T * H == 0) return;
  fill_bf16_kernel<<<blocks_for(T * H), kThreads, 0, s>>>(static_cast<__nv_bfloat16*>(x), T * H, seed,
                                                          synthetic::kX, 0, 1.0f);
  cu::check_launch(kWho, "fill_synthetic_x_bf16");
}

void fill_synthetic_layer_fp8_block(const MoeConfig& c, uint64_t seed, uint8_t* w13, float* w13_scale, uint8_t* w2,
                                    float* w2_scale, float* b13, float* b2, cudaStream_t stream) {
  const int64_t E = c.local_experts(), e0 = c.first_local_expert(), H = c.hidden_size, I = c.intermediate_size,
                N13 = c.fc1_rows();
  // Local expert l is global expert e0 + l and the tensors are contiguous in the expert index, so
  // the flat index of local element i is the global index of expert e0's first element plus i.
  Fp8SyntheticSource s13{seed, synthetic::kW13, synthetic::w13_index(e0, 0, 0, N13, H), synthetic::weight_scale(H)};
  fp8::launch_weight(s13, E, N13, H, w13, w13_scale, false, stream);
  Fp8SyntheticSource s2{seed, synthetic::kW2, synthetic::w2_index(e0, 0, 0, H, I), synthetic::weight_scale(I)};
  fp8::launch_weight(s2, E, H, I, w2, w2_scale, false, stream);
  fill_biases(c, seed, b13, b2, stream);
}

void fill_synthetic_layer_fp4(const MoeConfig& c, uint64_t seed, uint8_t* w13, uint8_t* w13_scale, uint8_t* w2,
                              uint8_t* w2_scale, float* w13_global, float* w2_global, float* b13, float* b2,
                              cudaStream_t stream) {
  constexpr const char* fn = "fill_synthetic_layer_fp4";
  const bool mx = c.recipe == Recipe::kW4A16MXFP4 || c.recipe == Recipe::kW4A8MXFP4;
  const bool nv = c.recipe == Recipe::kW4A16NVFP4 || c.recipe == Recipe::kNVFP4;
  if (!mx && !nv)
    throw_invalid(std::string(fn) + ": config.recipe", "w4a16_mxfp4, w4a8_mxfp4, w4a16_nvfp4 or nvfp4",
                  recipe_name(c.recipe));
  const int64_t E = c.local_experts(), e0 = c.first_local_expert(), H = c.hidden_size, I = c.intermediate_size,
                N13 = c.fc1_rows();
  const int64_t block = mx ? fp4::kMxBlock : fp4::kNvBlock;
  for (const auto& [name, k] : {std::pair<const char*, int64_t>{"config.hidden_size", H}, {"config.intermediate_size", I}})
    if (k <= 0 || k % block != 0)
      throw_invalid(std::string(fn) + ": " + name, "a positive multiple of " + std::to_string(block) + " for " +
                    recipe_name(c.recipe), std::to_string(k));
  if (E <= 0) return;
  fp4::check_ptr(fn, "w13", w13);
  fp4::check_ptr(fn, "w13_scale", w13_scale);
  fp4::check_ptr(fn, "w2", w2);
  fp4::check_ptr(fn, "w2_scale", w2_scale);
  // Local expert l is global expert e0 + l and the tensors are contiguous in the expert index, so
  // the flat index of local element i is the global index of expert e0's first element plus i.
  const Fp4SyntheticSource s13{seed, synthetic::kW13, synthetic::w13_index(e0, 0, 0, N13, H), synthetic::weight_scale(H)};
  const Fp4SyntheticSource s2{seed, synthetic::kW2, synthetic::w2_index(e0, 0, 0, H, I), synthetic::weight_scale(I)};
  if (mx) {
    fp4::launch_quant<fp4::Fmt::kMxE2M1>(s13, E, N13, H, nullptr, w13, w13_scale, stream);
    fp4::launch_quant<fp4::Fmt::kMxE2M1>(s2, E, H, I, nullptr, w2, w2_scale, stream);
  } else {
    fp4::check_ptr(fn, "w13_global", w13_global);
    fp4::check_ptr(fn, "w2_global", w2_global);
    fp4::launch_global(s13, E, N13, H, w13_global, stream);
    fp4::launch_quant<fp4::Fmt::kNvfp4>(s13, E, N13, H, w13_global, w13, w13_scale, stream);
    fp4::launch_global(s2, E, H, I, w2_global, stream);
    fp4::launch_quant<fp4::Fmt::kNvfp4>(s2, E, H, I, w2_global, w2, w2_scale, stream);
  }
  fill_biases(c, seed, b13, b2, stream);
}

void read_sweep(const void* src, size_t bytes, unsigned* sink, cudaStream_t stream) {
  const int64_t n = int64_t(bytes / sizeof(uint4));
  if (n == 0) return;
  read_sweep_kernel<<<blocks_for(n), kThreads, 0, stream>>>(static_cast<const uint4*>(src), n, sink);
  cu::check_launch(kWho, "read_sweep");
}

}  // namespace megamoe::sm90
