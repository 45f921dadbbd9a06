// GPU MX / NVFP4 quantizers (see quantize_fp4.h).
//   quantize: one thread per 8 consecutive elements of a row (16 bytes of bf16 in, one 32-bit
//             word of packed e2m1 or 8 e4m3 codes out); the 4 (MX, 32-element blocks) or 2
//             (NVFP4, 16-element blocks) neighbouring lanes of one scale block share its amax by
//             warp shuffles, the first of them writes the scale code. K is a multiple of the block,
//             so blocks never straddle rows and the tensor is treated as a flat run of groups.
//   NVFP4 global scale: a grid-stride max over each batch entry's finite |x| bits, one atomicMax
//             per CTA into the output array (zeroed first), then a tiny kernel turning the amax
//             bits into amax / 2688 (or 1).
// The kernels and the device twins of the CPU rules are in quantize_fp4_kernels.cuh (shared with
// the synthetic-weight generator); the twins follow formats::detail's branch-free encoders
// (codecs.h uses std::bit_cast, which the C++17 CUDA build does not have) and use __fdiv_rn /
// __fmul_rn so nvcc neither contracts nor approximates.
#include "kernels/sm90/quantize/quantize_fp4.h"

#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/quantize/quantize_fp4_kernels.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace {

using namespace fp4;

// Calls f(source) with the typed pointer source over a [.., K] tensor.
template <class F>
void with_source(const void* src, DType d, F&& f) {
  if (d == DType::kBF16) {
    f(PtrSource<uint16_t>{static_cast<const uint16_t*>(src), cu::aligned(src, 16)});
  } else {
    f(PtrSource<float>{static_cast<const float*>(src), cu::aligned(src, 16)});
  }
}

template <Fmt F>
void quantize_mx_gpu(const char* fn, const void* src, DType d, int64_t batch, int64_t N, int64_t K, uint8_t* codes,
                     uint8_t* scales, cudaStream_t stream) {
  check_args(fn, d, batch, N, K, kMxBlock);
  if (batch * N * K == 0) return;
  check_ptr(fn, "src", src);
  check_ptr(fn, "codes", codes);
  check_ptr(fn, "scales", scales);
  with_source(src, d, [&](const auto& s) { launch_quant<F>(s, batch, N, K, nullptr, codes, scales, stream); });
}

}  // namespace

void quantize_mx_e2m1_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, uint8_t* codes,
                          uint8_t* scales, cudaStream_t stream) {
  quantize_mx_gpu<Fmt::kMxE2M1>("quantize_mx_e2m1_gpu", src, src_dtype, batch, N, K, codes, scales, stream);
}

void quantize_mx_e4m3_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, uint8_t* codes,
                          uint8_t* scales, cudaStream_t stream) {
  quantize_mx_gpu<Fmt::kMxE4M3>("quantize_mx_e4m3_gpu", src, src_dtype, batch, N, K, codes, scales, stream);
}

void nvfp4_global_scale_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, float* global,
                            cudaStream_t stream) {
  constexpr const char* fn = "nvfp4_global_scale_gpu";
  check_args(fn, src_dtype, batch, N, K, kNvBlock);
  if (batch == 0) return;
  check_ptr(fn, "global", global);
  if (N * K > 0) check_ptr(fn, "src", src);
  with_source(src, src_dtype, [&](const auto& s) { launch_global(s, batch, N, K, global, stream); });
}

void quantize_nvfp4_gpu(const void* src, DType src_dtype, int64_t batch, int64_t N, int64_t K, const float* global,
                        uint8_t* codes, uint8_t* scales, cudaStream_t stream) {
  constexpr const char* fn = "quantize_nvfp4_gpu";
  check_args(fn, src_dtype, batch, N, K, kNvBlock);
  if (batch * N * K == 0) return;
  check_ptr(fn, "src", src);
  check_ptr(fn, "global", global);
  check_ptr(fn, "codes", codes);
  check_ptr(fn, "scales", scales);
  with_source(src, src_dtype,
              [&](const auto& s) { launch_quant<Fmt::kNvfp4>(s, batch, N, K, global, codes, scales, stream); });
}

}  // namespace megamoe::sm90
