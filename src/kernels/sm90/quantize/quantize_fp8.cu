// GPU fp8_block quantizers (see quantize_fp8.h); the per-element rules are the device twins in
// quantize_fp8.cuh.
//   weights: weight_quant_kernel (quantize_fp8_kernels.cuh).
//   activations: act_quant_kernel below: one warp per (row, 128-column group), lane l holds
//            columns 4l..4l+3; 256-thread CTAs of 8 such warps, no shared memory, one role.
#include "kernels/sm90/quantize/quantize_fp8.h"

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/quantize/quantize_fp8.cuh"
#include "kernels/sm90/quantize/quantize_fp8_kernels.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

using namespace fp8;

constexpr int kActThreads = 256;
static_assert(kActThreads % 32 == 0, "act_quant_kernel: whole warps, one per (row, group)");

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
  bool poisoned;
  const float s = warp_group_scale(v, ue8m0, poisoned);
  const ScaleDivisor d = scale_divisor(s);
  if (lane == 0) scales[row * KB + kb] = s;
  if (c >= K) return;
  uint8_t* dst = codes + row * K + c;
  if (vec_store && c + 3 < K) {
    *reinterpret_cast<uint32_t*>(dst) = encode4(v, d, poisoned);
  } else {
#pragma unroll
    for (int j = 0; j < 4; ++j)
      if (c + j < K) dst[j] = encode(v[j], d, poisoned);
  }
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
    PtrSource<uint16_t> s{static_cast<const uint16_t*>(src), K, K % 4 == 0 && cu::aligned(src, 8)};
    launch_weight(s, batch, N, K, codes, scales, ue8m0, stream);
  } else {
    PtrSource<float> s{static_cast<const float*>(src), K, K % 4 == 0 && cu::aligned(src, 16)};
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
  const int64_t KB = cu::ceil_div<int64_t>(K, kBlock);
  const int64_t blocks = cu::ceil_div<int64_t>(M * KB * 32, kActThreads);
  const bool vec_store = K % 4 == 0 && cu::aligned(codes, 4);
  if (src_dtype == DType::kBF16) {
    PtrSource<uint16_t> s{static_cast<const uint16_t*>(src), ld, ld % 4 == 0 && cu::aligned(src, 8)};
    act_quant_kernel<<<unsigned(blocks), kActThreads, 0, stream>>>(s, M, K, KB, codes, scales, ue8m0, vec_store);
  } else {
    PtrSource<float> s{static_cast<const float*>(src), ld, ld % 4 == 0 && cu::aligned(src, 16)};
    act_quant_kernel<<<unsigned(blocks), kActThreads, 0, stream>>>(s, M, K, KB, codes, scales, ue8m0, vec_store);
  }
  cu::check_launch("quantize_fp8", "fp8_block activation quantize kernel launch");
}

}  // namespace megamoe::sm90
