// Quantize bf16 (or float32) expert weights on the GPU into the canonical tensors that
// MoeLayer::prepare_weights accepts (include/megamoe/weights.h, docs/FORMATS.md), for users who
// start from a bf16 checkpoint. The results equal the CPU quantizers' bit for bit (the rules are
// in docs/FORMATS.md section 2), so the weights a layer sees do not depend on where they were
// quantized.
//
// Every tensor is a CUDA tensor on the same device, contiguous. src is [N, K] or [E, N, K]
// (E experts, N output rows, K the reduction dim innermost) of dtype bfloat16 or float32; the
// outputs have the same leading dims. Each call is asynchronous on `stream` (a stream of
// src's device; nullptr = the legacy default stream), allocates nothing and is graph-capturable.
// Bad arguments throw megamoe::InvalidArgument naming the argument, what was expected and what
// came. A build without CUDA throws megamoe::Unsupported (after checking the arguments).
#pragma once
#include "megamoe/stream.h"
#include "megamoe/tensor.h"

namespace megamoe {

// fp8_block (DeepSeek-V3): codes e4m3 (or uint8) [.., N, K], scales float32
// [.., ceil(N/128), ceil(K/128)] (one per 128x128 block; partial edge blocks allowed, any K).
// ue8m0 rounds every scale up to a power of two (DeepGEMM style); checkpoints use false.
void quantize_weights_fp8_block(const TensorView& src, const TensorView& codes, const TensorView& scales,
                                bool ue8m0 = false, cudaStream_t stream = nullptr);

// MXFP4 (w4a16_mxfp4, w4a8_mxfp4): codes uint8 [.., N, K/2] (packed e2m1, element 2j in the low
// nibble of byte j), scales float8_e8m0fnu (or uint8) codes [.., N, K/32]. K % 32 == 0.
void quantize_weights_mxfp4(const TensorView& src, const TensorView& codes, const TensorView& scales,
                            cudaStream_t stream = nullptr);

// MXFP8 (mxfp8): codes e4m3 (or uint8) [.., N, K], scales e8m0 (or uint8) codes [.., N, K/32].
// K % 32 == 0.
void quantize_weights_mxfp8(const TensorView& src, const TensorView& codes, const TensorView& scales,
                            cudaStream_t stream = nullptr);

// NVFP4 (w4a16_nvfp4, nvfp4): codes uint8 [.., N, K/2] (packed e2m1), scales e4m3 (or uint8)
// codes [.., N, K/16], global_scale float32 [E] ([1] for a 2-D src): the per-expert `alpha`
// (MoeWeights::w13_global_scale / w2_global_scale). K % 16 == 0.
// global_scale_is_input = false: global_scale is written, amax(expert's finite |x|) / 2688 (or 1
//   when that is 0), as the CPU quantizer derives it.
// global_scale_is_input = true: global_scale is read (e.g. kept from a checkpoint); it must be
//   finite and > 0: the device cannot report a bad value, so every block of an expert whose
//   global scale is not gets NaN scales (0x7F) and NaN codes (0x7) instead.
void quantize_weights_nvfp4(const TensorView& src, const TensorView& codes, const TensorView& scales,
                            const TensorView& global_scale, bool global_scale_is_input = false,
                            cudaStream_t stream = nullptr);

}  // namespace megamoe
