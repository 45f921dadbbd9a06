#if defined(MEGAMOE_WITH_CUDA)
#include "device_weights.h"

#include "cli_common.h"
#include "cuda_util.h"
#include "kernels/sm90/quantize/quantize_fp4.h"
#include "kernels/sm90/quantize/quantize_fp8.h"
#include "kernels/sm90/synthetic/synthetic_fill.h"
#include "reference/reference.h"

namespace megamoe::cli {

void prepare_synthetic_weights(MoeLayer& layer, uint64_t seed, cudaStream_t stream) {
  const MoeConfig& c = layer.config();
  const int64_t E = c.local_experts(), H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows();
  const Device dev = Device::cuda(c.device);
  auto cdiv = [](int64_t a, int64_t b) { return (a + b - 1) / b; };
  DeviceBuffer b13(c.has_bias ? size_t(E * N13 * 4) : 0), b2(c.has_bias ? size_t(E * H * 4) : 0);
  MoeWeights w;
  if (c.has_bias) {
    w.b13 = TensorView::contiguous(b13.ptr, DType::kF32, {E, N13}, dev);
    w.b2 = TensorView::contiguous(b2.ptr, DType::kF32, {E, H}, dev);
  }
  float* b13p = c.has_bias ? static_cast<float*>(b13.ptr) : nullptr;
  float* b2p = c.has_bias ? static_cast<float*>(b2.ptr) : nullptr;
  if (c.recipe == Recipe::kBF16) {
    DeviceBuffer w13(size_t(E * N13 * H * 2)), w2(size_t(E * H * I * 2));
    sm90::fill_synthetic_layer_bf16(c, seed, w13.ptr, w2.ptr, b13p, b2p, stream);
    cuda_check(cudaStreamSynchronize(stream), "fill_synthetic_layer_bf16");
    w.w13 = TensorView::contiguous(w13.ptr, DType::kBF16, {E, N13, H}, dev);
    w.w2 = TensorView::contiguous(w2.ptr, DType::kBF16, {E, H, I}, dev);
    layer.prepare_weights(w);
  } else if (c.recipe == Recipe::kFP8Block) {
    const int64_t s13 = E * cdiv(N13, 128) * cdiv(H, 128), s2 = E * cdiv(H, 128) * cdiv(I, 128);
    DeviceBuffer w13(size_t(E * N13 * H)), w2(size_t(E * H * I)), sc13(size_t(s13 * 4)), sc2(size_t(s2 * 4));
    sm90::fill_synthetic_layer_fp8_block(c, seed, static_cast<uint8_t*>(w13.ptr), static_cast<float*>(sc13.ptr),
                                         static_cast<uint8_t*>(w2.ptr), static_cast<float*>(sc2.ptr), b13p, b2p,
                                         stream);
    cuda_check(cudaStreamSynchronize(stream), "fill_synthetic_layer_fp8_block");
    w.w13 = TensorView::contiguous(w13.ptr, DType::kE4M3, {E, N13, H}, dev);
    w.w2 = TensorView::contiguous(w2.ptr, DType::kE4M3, {E, H, I}, dev);
    w.w13_scale = TensorView::contiguous(sc13.ptr, DType::kF32, {E, cdiv(N13, 128), cdiv(H, 128)}, dev);
    w.w2_scale = TensorView::contiguous(sc2.ptr, DType::kF32, {E, cdiv(H, 128), cdiv(I, 128)}, dev);
    layer.prepare_weights(w);
  } else if (c.recipe == Recipe::kW4A16MXFP4 || c.recipe == Recipe::kW4A8MXFP4 || c.recipe == Recipe::kW4A16NVFP4 ||
             c.recipe == Recipe::kNVFP4) {
    // The four recipes with packed e2m1 weights: MX (e8m0 scale per 32) or NVFP4 (e4m3 scale per
    // 16 and an f32 global scale per expert per FC).
    const bool nv = c.recipe == Recipe::kW4A16NVFP4 || c.recipe == Recipe::kNVFP4;
    const int64_t block = nv ? 16 : 32;
    DeviceBuffer w13(size_t(E * N13 * H / 2)), w2(size_t(E * H * I / 2)), sc13(size_t(E * N13 * (H / block))),
        sc2(size_t(E * H * (I / block))), g13(nv ? size_t(E * 4) : 0), g2(nv ? size_t(E * 4) : 0);
    sm90::fill_synthetic_layer_fp4(c, seed, static_cast<uint8_t*>(w13.ptr), static_cast<uint8_t*>(sc13.ptr),
                                   static_cast<uint8_t*>(w2.ptr), static_cast<uint8_t*>(sc2.ptr),
                                   nv ? static_cast<float*>(g13.ptr) : nullptr, nv ? static_cast<float*>(g2.ptr) : nullptr,
                                   b13p, b2p, stream);
    cuda_check(cudaStreamSynchronize(stream), "fill_synthetic_layer_fp4");
    const DType scale_dtype = nv ? DType::kE4M3 : DType::kE8M0;
    w.w13 = TensorView::contiguous(w13.ptr, DType::kU8, {E, N13, H / 2}, dev);
    w.w2 = TensorView::contiguous(w2.ptr, DType::kU8, {E, H, I / 2}, dev);
    w.w13_scale = TensorView::contiguous(sc13.ptr, scale_dtype, {E, N13, H / block}, dev);
    w.w2_scale = TensorView::contiguous(sc2.ptr, scale_dtype, {E, H, I / block}, dev);
    if (nv) {
      w.w13_global_scale = TensorView::contiguous(g13.ptr, DType::kF32, {E}, dev);
      w.w2_global_scale = TensorView::contiguous(g2.ptr, DType::kF32, {E}, dev);
    }
    if (c.recipe == Recipe::kNVFP4) {  // W4A4: the calibrated activation globals of the synthetic layer
      w.fc1_input_global_scale = reference::kSyntheticNvfp4InputGlobalScale;
      w.fc2_input_global_scale = reference::kSyntheticNvfp4InputGlobalScale;
    }
    layer.prepare_weights(w);
  } else {
    const auto canonical = reference::synthetic_canonical_weights(c, seed, host_weight_budget());
    layer.prepare_weights(canonical.view(c));
  }
}

}  // namespace megamoe::cli
#endif
