// The public GPU weight quantizers (include/megamoe/quantize.h): argument checks on the host,
// then the sm90 kernels (kernels/sm90/quantize/quantize_fp8.h, quantize_fp4.h). A plain C++ file so the
// argument checks and the Unsupported error exist in CPU-only builds too (MEGAMOE_WITH_CUDA off).
#include "megamoe/quantize.h"

#include <initializer_list>
#include <string>
#include <vector>

#include "megamoe/errors.h"

#if defined(MEGAMOE_WITH_CUDA)
#include <cuda_runtime.h>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/quantize/quantize_fp4.h"
#include "kernels/sm90/quantize/quantize_fp8.h"
#endif

namespace megamoe {

namespace {

constexpr int64_t kFp8Block = 128;  // fp8_block: 128x128 weight blocks
constexpr int64_t kMxBlock = 32;    // MX: one e8m0 scale per 32 along K
constexpr int64_t kNvBlock = 16;    // NVFP4: one e4m3 scale per 16 along K

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

std::string shape_of(const std::vector<int64_t>& s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i) r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

std::string dtype_list(std::initializer_list<DType> ds) {
  std::string r;
  size_t i = 0;
  for (DType d : ds) r += (i++ ? (i == ds.size() ? " or " : ", ") : "") + std::string(dtype_name(d));
  return r;
}

// The source: [N, K] or [E, N, K], bf16 or f32, contiguous, on a CUDA device, K % block == 0.
struct SrcDims {
  int64_t E = 1, N = 0, K = 0;
  bool batched = false;
  std::vector<int64_t> lead(std::initializer_list<int64_t> tail) const {
    std::vector<int64_t> s;
    if (batched) s.push_back(E);
    s.insert(s.end(), tail);
    return s;
  }
};

SrcDims check_src(const std::string& fn, const TensorView& src, int64_t block) {
  const std::string arg = fn + ": src";
  if (src.ndim != 2 && src.ndim != 3)
    throw_invalid(arg, "a 2-D [N, K] or 3-D [E, N, K] tensor", std::to_string(src.ndim) + "-D " + src.shape_str());
  for (int d = 0; d < src.ndim; ++d)
    if (src.shape[d] < 0) throw_invalid(arg + " shape", "non-negative sizes", src.shape_str());
  if (src.dtype != DType::kBF16 && src.dtype != DType::kF32)
    throw_invalid_dtype(arg + " dtype", "bfloat16 or float32", dtype_name(src.dtype));
  if (src.device.type != DeviceType::kCUDA) throw_invalid(arg + " device", "a CUDA device", device_name(src.device));
  if (!src.is_contiguous()) throw_invalid(arg, "a contiguous (row-major) tensor", "strides that are not");
  if (src.numel() > 0 && src.data == nullptr) throw_invalid(arg + " data", "a device pointer", "null");
  SrcDims d;
  d.batched = src.ndim == 3;
  d.E = d.batched ? src.shape[0] : 1;
  d.N = src.shape[src.ndim - 2];
  d.K = src.shape[src.ndim - 1];
  if (block > 1 && d.K % block != 0)
    throw_invalid(arg + " K (last dim)", "a multiple of " + std::to_string(block), std::to_string(d.K));
  return d;
}

// An output (or the nvfp4 global-scale input): dtype in `dtypes`, exactly `shape`, contiguous, on
// src's device, non-null when not empty.
void check_out(const std::string& fn, const char* name, const TensorView& t, std::initializer_list<DType> dtypes,
               const std::vector<int64_t>& shape, const Device& device) {
  const std::string arg = fn + ": " + name;
  bool dtype_ok = false;
  for (DType d : dtypes) dtype_ok |= t.dtype == d;
  if (!dtype_ok) throw_invalid_dtype(arg + " dtype", dtype_list(dtypes), dtype_name(t.dtype));
  bool shape_ok = t.ndim == int(shape.size());
  for (int d = 0; shape_ok && d < t.ndim; ++d) shape_ok = t.shape[d] == shape[size_t(d)];
  if (!shape_ok) throw_invalid(arg + " shape", shape_of(shape), t.shape_str());
  if (t.device != device) throw_invalid(arg + " device", device_name(device) + " (src's device)", device_name(t.device));
  if (!t.is_contiguous()) throw_invalid(arg, "a contiguous (row-major) tensor", "strides that are not");
  if (t.numel() > 0 && t.data == nullptr) throw_invalid(arg + " data", "a device pointer", "null");
}

#if defined(MEGAMOE_WITH_CUDA)
// Makes `device` current for the call (the kernels launch on the current device), restoring the
// caller's current device afterwards.
struct DeviceScope : cu::DeviceGuard {
  DeviceScope(const std::string& fn, int device) : cu::DeviceGuard(fn.c_str(), device) {}
};
#else
[[noreturn]] void no_cuda(const std::string& fn) {
  throw Unsupported(fn + " runs on a CUDA GPU, and this build of megamoe has no CUDA (it was configured without "
                    "nvcc, so MEGAMOE_WITH_CUDA is off); quantize on the host with the CPU quantizers instead");
}
#endif

}  // namespace

void quantize_weights_fp8_block(const TensorView& src, const TensorView& codes, const TensorView& scales, bool ue8m0,
                                cudaStream_t stream) {
  const std::string fn = "quantize_weights_fp8_block";
  const SrcDims d = check_src(fn, src, 1);
  check_out(fn, "codes", codes, {DType::kE4M3, DType::kU8}, d.lead({d.N, d.K}), src.device);
  check_out(fn, "scales", scales, {DType::kF32}, d.lead({cdiv(d.N, kFp8Block), cdiv(d.K, kFp8Block)}), src.device);
#if defined(MEGAMOE_WITH_CUDA)
  if (src.numel() == 0) return;
  DeviceScope scope(fn, src.device.id);
  sm90::quantize_fp8_block_weight_gpu(src.data, src.dtype, d.E, d.N, d.K, codes.ptr<uint8_t>(), scales.ptr<float>(),
                                      ue8m0, stream);
#else
  (void)ue8m0;
  (void)stream;
  no_cuda(fn);
#endif
}

void quantize_weights_mxfp4(const TensorView& src, const TensorView& codes, const TensorView& scales,
                            cudaStream_t stream) {
  const std::string fn = "quantize_weights_mxfp4";
  const SrcDims d = check_src(fn, src, kMxBlock);
  check_out(fn, "codes", codes, {DType::kU8}, d.lead({d.N, d.K / 2}), src.device);
  check_out(fn, "scales", scales, {DType::kE8M0, DType::kU8}, d.lead({d.N, d.K / kMxBlock}), src.device);
#if defined(MEGAMOE_WITH_CUDA)
  if (src.numel() == 0) return;
  DeviceScope scope(fn, src.device.id);
  sm90::quantize_mx_e2m1_gpu(src.data, src.dtype, d.E, d.N, d.K, codes.ptr<uint8_t>(), scales.ptr<uint8_t>(),
                             stream);
#else
  (void)stream;
  no_cuda(fn);
#endif
}

void quantize_weights_mxfp8(const TensorView& src, const TensorView& codes, const TensorView& scales,
                            cudaStream_t stream) {
  const std::string fn = "quantize_weights_mxfp8";
  const SrcDims d = check_src(fn, src, kMxBlock);
  check_out(fn, "codes", codes, {DType::kE4M3, DType::kU8}, d.lead({d.N, d.K}), src.device);
  check_out(fn, "scales", scales, {DType::kE8M0, DType::kU8}, d.lead({d.N, d.K / kMxBlock}), src.device);
#if defined(MEGAMOE_WITH_CUDA)
  if (src.numel() == 0) return;
  DeviceScope scope(fn, src.device.id);
  sm90::quantize_mx_e4m3_gpu(src.data, src.dtype, d.E, d.N, d.K, codes.ptr<uint8_t>(), scales.ptr<uint8_t>(),
                             stream);
#else
  (void)stream;
  no_cuda(fn);
#endif
}

void quantize_weights_nvfp4(const TensorView& src, const TensorView& codes, const TensorView& scales,
                            const TensorView& global_scale, bool global_scale_is_input, cudaStream_t stream) {
  const std::string fn = "quantize_weights_nvfp4";
  const SrcDims d = check_src(fn, src, kNvBlock);
  check_out(fn, "codes", codes, {DType::kU8}, d.lead({d.N, d.K / 2}), src.device);
  check_out(fn, "scales", scales, {DType::kE4M3, DType::kU8}, d.lead({d.N, d.K / kNvBlock}), src.device);
  check_out(fn, "global_scale", global_scale, {DType::kF32}, {d.E}, src.device);
#if defined(MEGAMOE_WITH_CUDA)
  if (d.E == 0) return;
  DeviceScope scope(fn, src.device.id);
  if (!global_scale_is_input)
    sm90::nvfp4_global_scale_gpu(src.data, src.dtype, d.E, d.N, d.K, global_scale.ptr<float>(), stream);
  sm90::quantize_nvfp4_gpu(src.data, src.dtype, d.E, d.N, d.K, global_scale.ptr<float>(), codes.ptr<uint8_t>(),
                           scales.ptr<uint8_t>(), stream);
#else
  (void)global_scale_is_input;
  (void)stream;
  no_cuda(fn);
#endif
}

}  // namespace megamoe
