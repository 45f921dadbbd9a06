// Canonical (checkpoint-like) expert weights, as accepted by MoeLayer::prepare_weights.
// All tensors hold this rank's E_local experts. The reduction dimension K is innermost.
// N13 = 2I for gated activations (gate rows 0..I-1, then up rows I..2I-1), I for relu2.
//
// recipe       w13 / w2 dtype, shape                       scales (w13_scale / w2_scale)
// bf16         bf16 [E,N13,H] / [E,H,I]                    -
// fp8_block    e4m3 [E,N13,H] / [E,H,I]                    f32 [E,ceil(N/128),ceil(K/128)]
// mxfp8        e4m3 [E,N13,H] / [E,H,I]                    e8m0 (or u8 codes) [E,N,K/32]
// w4a16_mxfp4  u8 [E,N13,H/2] / [E,H,I/2] (2 x e2m1/byte)  e8m0 (or u8 codes) [E,N,K/32]
// w4a8_mxfp4   as w4a16_mxfp4                              as w4a16_mxfp4
// w4a16_nvfp4  as w4a16_mxfp4                              e4m3 [E,N,K/16] + global f32 [E]
// nvfp4        as w4a16_mxfp4                              e4m3 [E,N,K/16] + global f32 [E]
// Packed FP4: element 2j in the low nibble of byte j, element 2j+1 in the high nibble.
// Biases (when MoeConfig::has_bias): b13 [E,N13], b2 [E,H], float32 or bf16.
#pragma once
#include "megamoe/tensor.h"

namespace megamoe {

struct MoeWeights {
  TensorView w13;
  TensorView w2;
  TensorView w13_scale;
  TensorView w2_scale;
  TensorView w13_global_scale;  // nvfp4 recipes: f32 [E]; dequant = e2m1 * e4m3 * global (= alpha)
  TensorView w2_global_scale;
  TensorView b13;
  TensorView b2;
  // nvfp4 (W4A4) only: fp32 global scales of the quantized activations into FC1 / FC2
  // (one per layer, as calibrated checkpoints store them); dequant = e2m1 * e4m3 * global.
  float fc1_input_global_scale = 1.0f;
  float fc2_input_global_scale = 1.0f;
};

}  // namespace megamoe
