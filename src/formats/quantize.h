// CPU quantizers and dequantizers for every recipe (docs/DESIGN.md section 2, docs/FORMATS.md).
// Inputs are float (already bf16-valued where the recipe starts from bf16). All row-major,
// K (the reduction dim) innermost. These define the contract: GPU quantizers must match
// them bit for bit. All arithmetic is float32 with RNE, in the order written here.
//
// Common rules
// - amax(block) = max |x| over the block's real elements.
// - Non-finite input: a block that holds any NaN or +-inf is "poisoned": its scale is NaN
//   (fp32 quiet NaN 0x7FC00000 / e8m0 0xFF / e4m3 0x7F) and each of its element codes is
//   the format's encoding of NaN (e4m3 0x7F, e2m1 0x7), so every element of that block
//   dequantizes to NaN. Other blocks are unaffected (the nvfp4 global scale ignores
//   non-finite elements).
// - Element codes saturate (e4m3 to +-448, e2m1 to +-6); ties round to even.
// - Invalid shapes (negative sizes, ld < K, K not a multiple of the MX/NVFP4 block) throw
//   megamoe::InvalidArgument. M == 0 or K == 0 is a no-op.
#pragma once
#include <cstdint>

namespace megamoe::formats {

constexpr float kE4M3Max = 448.0f;
constexpr float kE2M1Max = 6.0f;
constexpr int kFp8BlockSize = 128;  // DeepSeek-V3: 128x128 weight blocks, 1x128 activation groups
constexpr int kMxBlockSize = 32;    // OCP MX: one e8m0 scale per 32 elements along K
constexpr int kNvfp4BlockSize = 16; // NVFP4: one e4m3 scale per 16 elements along K

// --- fp8_block ------------------------------------------------------------------------
// scale s = amax(block) / 448 (one fp32 division). If s == 0 (an all-zero block, or amax
// so small that the quotient underflows) then s = 1. Else, with ue8m0, s is rounded up to
// a power of two: s = 2^ceil(log2(s)) (e8m0_ceil_log2), as DeepGEMM's ue8m0 scales.
// code = e4m3(x / s), saturating (one fp32 division, then RNE to e4m3). The block's amax
// element maps to 448 (code 0x7E) without ue8m0, to [224, 448] with it.
// Partial edge blocks use their real elements only. Poisoned block: s = NaN, codes 0x7F.
// dequant = e4m3_to_float(code) * s.
// Weights: src [N,K] -> codes [N,K], scales [ceil(N/128), ceil(K/128)].
void quantize_fp8_block_weight(const float* src, int64_t N, int64_t K, uint8_t* codes,
                               float* scales, bool ue8m0 = false);
void dequantize_fp8_block_weight(const uint8_t* codes, const float* scales, int64_t N,
                                 int64_t K, float* dst);
// Activations, per row per 128 columns: src [M,K] (row stride ld) -> codes [M,K],
// scales [M, ceil(K/128)]. Same scale and code rules as the weights.
void quantize_fp8_act_1x128(const float* src, int64_t M, int64_t K, int64_t ld, uint8_t* codes,
                            float* scales, bool ue8m0 = false);
void dequantize_fp8_act_1x128(const uint8_t* codes, const float* scales, int64_t M, int64_t K,
                              float* dst);
// The fp8_block scale rule above for one block's amax (finite, >= 0; NaN/inf -> NaN).
float fp8_block_scale(float amax, bool ue8m0);

// --- MX (OCP microscaling): e8m0 shared scale per 32 along K ------------------------------
// shared exponent e = floor(log2(amax)) - emax(elem) (emax: e2m1 2, e4m3 8), clamped to
// [-127, 127]; scale code = e + 127; amax == 0 -> code 0 (e = -127). Poisoned block (a
// NaN/inf in it) -> code 255 (NaN) and element codes NaN (e4m3 0x7F, e2m1 0x7), so every
// element of that block decodes to NaN.
// code = elem(x / 2^e), saturating (x / 2^e is exact unless it underflows, when it is
// the correctly rounded quotient; implemented as x * 2^-e, identical). The block's amax
// lands in [2^emax, 2^(emax+1)), so the largest elements may clip to 6 / 448 (as OCP says).
// dequant = elem_to_float(code) * e8m0_to_float(scale) (exact). K must be a multiple of 32.
enum class MxElem : uint8_t { kE2M1, kE4M3 };
// codes: e2m1 packed [M, K/2] (2 per byte, element 2j in the low nibble) or e4m3 [M, K];
// scales [M, K/32].
void quantize_mx(const float* src, int64_t M, int64_t K, int64_t ld, MxElem elem, uint8_t* codes,
                 uint8_t* scales);
void dequantize_mx(const uint8_t* codes, const uint8_t* scales, int64_t M, int64_t K, MxElem elem,
                   float* dst);
// The MX scale rule above for one block's amax (>= 0; NaN/inf -> 255).
uint8_t mx_scale_code(float amax, MxElem elem);

// --- NVFP4: e2m1 with an e4m3 scale per 16 along K and an fp32 global scale ---------------
// global = amax(tensor) / 2688 (= 448*6; NaN/inf elements are skipped), or 1 when that is 0.
// block scale code = e4m3((amax(block) / 6) / global), saturating (two fp32 divisions);
// s = e4m3_to_float(block scale) * global (fp32); code = e2m1(x / s), or code 0 for every
// element of a block whose s is 0. Poisoned block: scale code 0x7F, element codes 0x7.
// dequant = (e2m1 * e4m3) * global; the product e2m1 * e4m3 is exact, so passing
// global_scale = 1 gives the per-element values a GEMM uses before applying alpha = global.
// K must be a multiple of 16. quantize_nvfp4 requires a finite global_scale > 0 (else
// InvalidArgument); dequantize_nvfp4 takes any value.
float nvfp4_global_scale(const float* src, int64_t n);
// codes packed [M, K/2] (element 2j in the low nibble); scales e4m3 [M, K/16].
void quantize_nvfp4(const float* src, int64_t M, int64_t K, int64_t ld, float global_scale,
                    uint8_t* codes, uint8_t* scales);
void dequantize_nvfp4(const uint8_t* codes, const uint8_t* scales, float global_scale, int64_t M,
                      int64_t K, float* dst);

}  // namespace megamoe::formats
