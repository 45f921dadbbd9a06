// The fp8_block weight quantizer's kernel and launcher, generic over the source of the values:
// quantize_fp8.cu instantiates it for tensors in memory (PtrSource), synthetic/synthetic_fill.cu
// for the synthetic layer's weights generated on the fly. Rules: the device twins in
// quantize_fp8.cuh.
//
// weight_quant_kernel: one CTA per 128x128 block, kWeightThreads = 256 threads = 8 warps, all of
// the same role (load, reduce, encode, store); no pipeline and no dynamic shared memory. Warp w
// holds rows w, w+8, .., lane l columns 4l..4l+3 of the block in registers (kWeightRowsPerWarp x 4
// floats: one read of the source), the CTA-wide amax goes through 8 words of static shared memory,
// then the codes are written from registers (4 packed codes per 32-bit store when K % 4 == 0).
#pragma once
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90::fp8 {

constexpr int kLanesPerGroup = 32;                     // one warp spans a 128-column group ...
constexpr int kColsPerLane = kBlock / kLanesPerGroup;  // ... 4 columns per lane
static_assert(kColsPerLane == 4, "load4 / encode4 handle 4 columns per lane");

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

constexpr int kWeightThreads = 256;
constexpr int kWeightWarps = kWeightThreads / 32;
constexpr int kWeightRowsPerWarp = kBlock / kWeightWarps;  // 16
static_assert(kWeightRowsPerWarp * kWeightWarps == kBlock, "the warps cover the 128 rows of a block");
// Shared memory: one amax word per warp (static), far below any limit.
static_assert(kWeightWarps * sizeof(uint32_t) <= 1024, "weight_quant_kernel's shared-memory budget");

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
    const int64_t r = nb * kBlock + warp + kWeightWarps * i;
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
  __shared__ uint32_t warp_am[kWeightWarps];
  if (lane == 0) warp_am[warp] = am;
  __syncthreads();
  am = 0;
#pragma unroll
  for (int w = 0; w < kWeightWarps; ++w) am = max(am, warp_am[w]);
  const float s = block_scale(am, ue8m0);
  const ScaleDivisor d = scale_divisor(s);
  const bool poisoned = am >= kInfBits;
  if (threadIdx.x == 0) scales[(b * NB + nb) * KB + kb] = s;
  if (c >= K) return;
#pragma unroll
  for (int i = 0; i < kWeightRowsPerWarp; ++i) {
    const int64_t r = nb * kBlock + warp + kWeightWarps * i;
    if (r >= N) break;
    uint8_t* dst = codes + (b * N + r) * K + c;
    if (vec_store && c + 3 < K) {
      *reinterpret_cast<uint32_t*>(dst) = encode4(v[i], d, poisoned);
    } else {
#pragma unroll
      for (int j = 0; j < 4; ++j)
        if (c + j < K) dst[j] = encode(v[i][j], d, poisoned);
    }
  }
}

template <class Src>
inline void launch_weight(const Src& src, int64_t batch, int64_t N, int64_t K, uint8_t* codes, float* scales, bool ue8m0,
                   cudaStream_t stream) {
  const int64_t NB = cu::ceil_div<int64_t>(N, kBlock), KB = cu::ceil_div<int64_t>(K, kBlock);
  const int64_t blocks = batch * NB * KB;
  if (blocks == 0) return;
  if (blocks > int64_t(INT32_MAX)) throw_invalid("batch * ceil(N/128) * ceil(K/128)", "< 2^31", std::to_string(blocks));
  const bool vec_store = K % 4 == 0 && cu::aligned(codes, 4);
  weight_quant_kernel<Src><<<unsigned(blocks), kWeightThreads, 0, stream>>>(src, N, K, NB, KB, codes, scales, ue8m0,
                                                                            vec_store);
  cu::check_launch("quantize_fp8", "fp8_block weight quantize kernel launch");
}

}  // namespace megamoe::sm90::fp8
