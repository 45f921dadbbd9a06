// GPU fp8_block quantizers (see quantize_fp8.h); the per-element rules are the device twins in
// quantize_fp8.cuh.
//   weights: one 256-thread CTA per 128x128 block; warp w holds rows w, w+8, .., lane l columns
//            4l..4l+3 of the block in registers (one read of the source), CTA-wide amax, then the
//            codes are written from registers (4 packed codes per 32-bit store when K % 4 == 0).
//   activations: one warp per (row, 128-column group), lane l holds columns 4l..4l+3.
#include "kernels/sm90/quantize/quantize_fp8.h"

#include <cuda_bf16.h>

#include <algorithm>
#include <string>

#include "core/synthetic.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

using namespace fp8;

void check_launch(const char* what) {
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) throw CudaError(std::string(what) + ": " + cudaGetErrorString(e));
}

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

__device__ __forceinline__ float bf16_bits_to_float(uint16_t b) { return __uint_as_float(uint32_t(b) << 16); }

// Sources of the [rows, K] matrix being quantized: load4 fills v[j] with element (row, col + j)
// for col + j < K and 0 beyond (zeros never raise an amax).
template <class T>
struct PtrSource {
  const T* p;
  int64_t ld;
  bool vec;  // 4 consecutive elements of a row may be loaded at once (alignment checked on the host)
  __device__ __forceinline__ float value(int64_t row, int64_t col) const {
    if constexpr (sizeof(T) == 2) {
      return bf16_bits_to_float(p[row * ld + col]);
    } else {
      return p[row * ld + col];
    }
  }
  __device__ __forceinline__ void load4(int64_t row, int64_t col, int64_t K, float (&v)[4]) const {
    if (vec && col + 3 < K) {
      if constexpr (sizeof(T) == 2) {
        const uint2 w = *reinterpret_cast<const uint2*>(p + row * ld + col);
        v[0] = __uint_as_float(w.x << 16);
        v[1] = __uint_as_float(w.x & 0xFFFF0000u);
        v[2] = __uint_as_float(w.y << 16);
        v[3] = __uint_as_float(w.y & 0xFFFF0000u);
      } else {
        const float4 w = *reinterpret_cast<const float4*>(p + row * ld + col);
        v[0] = w.x; v[1] = w.y; v[2] = w.z; v[3] = w.w;
      }
      return;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) v[j] = col + j < K ? value(row, col + j) : 0.0f;
  }
};

// The synthetic bf16 master weights (core/synthetic.h): element (row, col) of the flattened
// [E_local * N, K] tensor is bf16(uniform(seed, stream, base + row * K + col, scale)).
struct SyntheticSource {
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

constexpr int kWeightThreads = 256;
constexpr int kWeightRowsPerWarp = kBlock / (kWeightThreads / 32);  // 16

// One CTA per 128x128 block (b, nb, kb) of a [batch, N, K] tensor.
template <class Src>
__global__ void __launch_bounds__(kWeightThreads) weight_quant_kernel(Src src, int64_t N, int64_t K, int64_t NB,
                                                                       int64_t KB, uint8_t* __restrict__ codes,
                                                                       float* __restrict__ scales, bool ue8m0,
                                                                       bool vec_store) {
  const int64_t blk = blockIdx.x;
  const int64_t b = blk / (NB * KB), rem = blk - b * (NB * KB);
  const int64_t nb = rem / KB, kb = rem - nb * KB;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int64_t c = kb * kBlock + lane * 4;
  float v[kWeightRowsPerWarp][4];
  uint32_t am = 0;
#pragma unroll
  for (int i = 0; i < kWeightRowsPerWarp; ++i) {
    const int64_t r = nb * kBlock + warp + 8 * i;
    if (r < N) {
      src.load4(b * N + r, c, K, v[i]);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j) v[i][j] = 0.0f;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j) am = max(am, abs_bits(v[i][j]));
  }
  am = warp_max(am);
  __shared__ uint32_t warp_am[kWeightThreads / 32];
  if (lane == 0) warp_am[warp] = am;
  __syncthreads();
  am = 0;
#pragma unroll
  for (int w = 0; w < kWeightThreads / 32; ++w) am = max(am, warp_am[w]);
  const float s = block_scale(am, ue8m0);
  const bool poisoned = am >= kInfBits;
  if (threadIdx.x == 0) scales[(b * NB + nb) * KB + kb] = s;
  if (c >= K) return;
#pragma unroll
  for (int i = 0; i < kWeightRowsPerWarp; ++i) {
    const int64_t r = nb * kBlock + warp + 8 * i;
    if (r >= N) break;
    uint8_t* dst = codes + (b * N + r) * K + c;
    if (vec_store && c + 3 < K) {
      *reinterpret_cast<uint32_t*>(dst) = encode4(v[i], s, poisoned);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j)
        if (c + j < K) dst[j] = encode(v[i][j], s, poisoned);
    }
  }
}

// One warp per (row, 128-column group).
template <class Src>
__global__ void act_quant_kernel(Src src, int64_t M, int64_t K, int64_t KB, uint8_t* __restrict__ codes,
                                 float* __restrict__ scales, bool ue8m0, bool vec_store) {
  const int64_t wid = (int64_t(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  const int lane = threadIdx.x & 31;
  if (wid >= M * KB) return;  // whole warps exit together
  const int64_t row = wid / KB, kb = wid - row * KB;
  const int64_t c = kb * kBlock + lane * 4;
  float v[4];
  src.load4(row, c, K, v);
  uint32_t am = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j) am = max(am, abs_bits(v[j]));
  am = warp_max(am);
  const float s = block_scale(am, ue8m0);
  const bool poisoned = am >= kInfBits;
  if (lane == 0) scales[row * KB + kb] = s;
  if (c >= K) return;
  uint8_t* dst = codes + row * K + c;
  if (vec_store && c + 3 < K) {
    *reinterpret_cast<uint32_t*>(dst) = encode4(v, s, poisoned);
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (c + j < K) dst[j] = encode(v[j], s, poisoned);
  }
}

__global__ void bias_fill_kernel(float* dst, int64_t n, uint64_t seed, uint64_t stream, uint64_t base) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x)
    dst[i] = __bfloat162float(__float2bfloat16_rn(synthetic::uniform(seed, stream, base + uint64_t(i), synthetic::kBiasScale)));
}

bool aligned(const void* p, size_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

template <class Src>
void launch_weight(const Src& src, int64_t batch, int64_t N, int64_t K, uint8_t* codes, float* scales, bool ue8m0,
                   cudaStream_t stream) {
  const int64_t NB = cdiv(N, kBlock), KB = cdiv(K, kBlock);
  const int64_t blocks = batch * NB * KB;
  if (blocks == 0) return;
  if (blocks > int64_t(INT32_MAX)) throw_invalid("batch * ceil(N/128) * ceil(K/128)", "< 2^31", std::to_string(blocks));
  const bool vec_store = K % 4 == 0 && aligned(codes, 4);
  weight_quant_kernel<Src><<<unsigned(blocks), kWeightThreads, 0, stream>>>(src, N, K, NB, KB, codes, scales, ue8m0,
                                                                            vec_store);
  check_launch("fp8_block weight quantize kernel launch");
}

void check_dtype(DType d, const char* fn) {
  if (d != DType::kBF16 && d != DType::kF32)
    throw_invalid(std::string(fn) + ": src_dtype", "bf16 or float32", dtype_name(d));
}

}  // namespace

void quantize_fp8_block_weight_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K,
                                   uint8_t* codes, float* scales, bool ue8m0, cudaStream_t stream) {
  check_dtype(src_dtype, "quantize_fp8_block_weight_gpu");
  if (batch < 0 || N < 0 || K < 0)
    throw_invalid("quantize_fp8_block_weight_gpu: batch, N, K", ">= 0",
                  std::to_string(batch) + ", " + std::to_string(N) + ", " + std::to_string(K));
  if (batch == 0 || N == 0 || K == 0) return;
  if (src_dtype == DType::kBF16) {
    PtrSource<uint16_t> s{static_cast<const uint16_t*>(src), K, K % 4 == 0 && aligned(src, 8)};
    launch_weight(s, batch, N, K, codes, scales, ue8m0, stream);
  } else {
    PtrSource<float> s{static_cast<const float*>(src), K, K % 4 == 0 && aligned(src, 16)};
    launch_weight(s, batch, N, K, codes, scales, ue8m0, stream);
  }
}

void quantize_fp8_act_1x128_gpu(const void* src, DType src_dtype, int64_t M, int64_t K, int64_t ld, uint8_t* codes,
                                float* scales, bool ue8m0, cudaStream_t stream) {
  check_dtype(src_dtype, "quantize_fp8_act_1x128_gpu");
  if (M < 0 || K < 0 || ld < K)
    throw_invalid("quantize_fp8_act_1x128_gpu: M, K, ld", "M >= 0, K >= 0, ld >= K",
                  std::to_string(M) + ", " + std::to_string(K) + ", " + std::to_string(ld));
  if (M == 0 || K == 0) return;
  const int64_t KB = cdiv(K, kBlock);
  constexpr int kThreads = 256;
  const int64_t blocks = cdiv(M * KB * 32, kThreads);
  const bool vec_store = K % 4 == 0 && aligned(codes, 4);
  if (src_dtype == DType::kBF16) {
    PtrSource<uint16_t> s{static_cast<const uint16_t*>(src), ld, ld % 4 == 0 && aligned(src, 8)};
    act_quant_kernel<<<unsigned(blocks), kThreads, 0, stream>>>(s, M, K, KB, codes, scales, ue8m0, vec_store);
  } else {
    PtrSource<float> s{static_cast<const float*>(src), ld, ld % 4 == 0 && aligned(src, 16)};
    act_quant_kernel<<<unsigned(blocks), kThreads, 0, stream>>>(s, M, K, KB, codes, scales, ue8m0, vec_store);
  }
  check_launch("fp8_block activation quantize kernel launch");
}

void fill_synthetic_layer_fp8_block(const MoeConfig& c, uint64_t seed, uint8_t* w13, float* w13_scale, uint8_t* w2,
                                    float* w2_scale, float* b13, float* b2, cudaStream_t stream) {
  const int64_t E = c.local_experts(), e0 = c.first_local_expert(), H = c.hidden_size, I = c.intermediate_size,
                N13 = c.fc1_rows();
  // Local expert l is global expert e0 + l and the tensors are contiguous in the expert index, so
  // the flat index of local element i is the global index of expert e0's first element plus i.
  SyntheticSource s13{seed, synthetic::kW13, synthetic::w13_index(e0, 0, 0, N13, H), synthetic::weight_scale(H)};
  launch_weight(s13, E, N13, H, w13, w13_scale, false, stream);
  SyntheticSource s2{seed, synthetic::kW2, synthetic::w2_index(e0, 0, 0, H, I), synthetic::weight_scale(I)};
  launch_weight(s2, E, H, I, w2, w2_scale, false, stream);
  if (c.has_bias && b13 && b2) {
    constexpr int kThreads = 256;
    auto blocks = [](int64_t n) { return unsigned(std::min<int64_t>(cdiv(n, kThreads), 132 * 16)); };
    if (E * N13 > 0)
      bias_fill_kernel<<<blocks(E * N13), kThreads, 0, stream>>>(b13, E * N13, seed, synthetic::kB13, uint64_t(e0 * N13));
    if (E * H > 0) bias_fill_kernel<<<blocks(E * H), kThreads, 0, stream>>>(b2, E * H, seed, synthetic::kB2, uint64_t(e0 * H));
    check_launch("fp8_block synthetic bias fill");
  }
}

}  // namespace megamoe::sm90
