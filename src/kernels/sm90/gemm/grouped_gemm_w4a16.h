// Grouped W4A16 GEMM for the MoE split path (sm_90a): for every local expert g,
//   D[rows of g, 0:N] = alpha[g] * ( A[rows of g, 0:K] . dequant(W[g])^T )     (fp32 out)
// with dequant(W) = e2m1 * block scale, decoded to bf16 in registers inside the mainloop as
// e2m1 * scale * 2^-j, exact for every code and every scale w4a16_prepare_scales accepts (alpha
// carries the 2^j).
// A is the expert-ordered activation matrix [total_rows, K] bf16 (row stride K); rows of expert
// g are [offsets[g], offsets[g+1]) (device, G+1 int32; never read on the host). Asynchronous,
// allocation-free, graph-capturable. K % 64 == 0, N % 64 == 0; A, W and the scale tiles 16-byte
// aligned (TMA and 16-byte copies).
//
// Three tactics, one weight layout (swap-AB in all: weight rows are the MMA's M, tokens its N):
//   kSmall  mma.sync m16n8k16, 16 or 32 tokens per pass, the packed codes, activations and scale
//           tiles of four K steps a stage by TMA (eight for 16-token passes whose K part holds at
//           least 32 steps; one copy each; two CTAs per SM, or one with four stages: `small_deep`;
//           a cp.async form with MEGAMOE_W4A16_SMALL_TMA=0), K split in two when the grid is
//           small or `small_splits` says: decode-like T. FC1's activation in its epilogue
//           (act_out) when K is whole on the TMA form (w4a16_small_act_epilogue).
//   kLarge  wgmma m64nNk16 with the decoded weights as the register A operand and N = 64 or 128
//           tokens per pass from swizzled shared memory: experts with tens to hundreds of rows;
//           FC1's activation in its epilogue (act_out) as kLargeTma.
//   kLargeTma  the same MMA shape family warp-specialised: a producer warpgroup loads by TMA and
//           decodes into shared memory, two consumer warpgroups run wgmma m64nNk16 (N <= 256;
//           up to 320 tokens a pass), persistent tiles (grouped_gemm_w4a16_large_tma.cuh); FC1's activation
//           in its epilogue (act_out).
// kAuto picks by the mean rows per expert (w4a16_pick_tactic).
//
// Weight layouts (prepared once by the backend):
//   W      u8 [G, N, K/2]   packed e2m1 "fragment order": the canonical bytes (element 2j in
//          the low nibble of byte j) with the 32 bytes of every 64-wide K step permuted by
//          w4a16_prepare_weights so that the 8 bytes one MMA thread needs are contiguous, and the
//          32 bits of every word placed so that shifts and masks give bf16 pairs (the decode in
//          grouped_gemm_w4a16_common.cuh)
//   scales u8 [G, K/64, N, kScalesPer64]  "scale tiles" of "factor bytes": the canonical
//          [G, N, K/block] codes regrouped so one 64-wide K step of 128 rows is one contiguous,
//          16-byte aligned run, each code re-encoded by w4a16_prepare_scales into a byte that one
//          IMAD turns into the bf16 multiplier (2 per row per K step for kMxfp4, 4 for kNvfp4)
//   alpha  f32 [G] applied after accumulation (w4a16_prepare_scales: nvfp4's global scale times
//          2^9, mxfp4's 2^k for experts whose codes exceed 128); null = 1
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include <cuda_runtime.h>

#include "kernels/sm90/gemm/act_epilogue_args.h"

namespace megamoe::sm90 {

enum class Fp4Scale : uint8_t { kMxfp4, kNvfp4 };
inline int fp4_scale_block(Fp4Scale s) { return s == Fp4Scale::kMxfp4 ? 32 : 16; }
inline int fp4_scales_per64(Fp4Scale s) { return 64 / fp4_scale_block(s); }

enum class W4A16Tactic : uint8_t { kAuto, kSmall, kLarge, kLargeTma };

struct W4A16GemmArgs {
  const void* A = nullptr;        // bf16 [rows, K]
  const uint8_t* W = nullptr;     // [G, N, K/2], fragment order (w4a16_prepare_weights)
  const uint8_t* scales = nullptr;  // scale tiles, see above
  const float* alpha = nullptr;   // [G] or null
  const int32_t* offsets = nullptr;  // [G+1], device
  float* D = nullptr;             // [rows, N] fp32
  // Instead of D: [rows, N] bf16, each element the fp32 result rounded to nearest (bit for bit
  // bf16(D)). kLarge / kLargeTma only (the small tactic may split K and add partial sums into fp32 D).
  void* D16 = nullptr;
  // Instead of D / D16, FC1 with the activation in the epilogue (kLarge, kLargeTma, and kSmall where
  // w4a16_small_act_epilogue holds): W is canonical
  // W13 ([gate | up] rows, N = 2I; relu2: N = I) and act_out [rows, I] bf16 receives
  // bf16(act(h[gate i] + b13[gate i], h[up i] + b13[up i])) with h = alpha * acc, the float
  // operations of fp32 D followed by launch_activation, bit for bit (act.b13 may be null).
  void* act_out = nullptr;
  ActEpilogueArgs act;
  int64_t N = 0, K = 0;
  int num_groups = 0;
  W4A16Tactic tactic = W4A16Tactic::kAuto;
  // kSmall's K split: 0 = its rule (two halves when the grid has at most two CTAs per SM), 1 or
  // 2 = that many (2 needs K >= 256; the fp32 partial sums are added into a zeroed D).
  int small_splits = 0;
  // kSmall's deep ring (TMA form, 16-token passes, K parts of at least 32 steps; otherwise ignored):
  // one CTA per SM with four 8-step stages, three in flight, instead of two CTAs with one each.
  //   0: never; 1: where the grid (128-row tiles x experts x K parts) fits one CTA per SM; 2: always.
  int small_deep = 0;
  // kLargeTma's bf16 stores (D16 or act_out; w4a16_large_tma_staged says what a launch runs). A
  // direct store writes one bf16 a lane (a warp instruction touches 8 token rows x 2 bytes); staged,
  // passes of at least 128 tokens go through shared memory (the warp's rows of the pass's last
  // decoded-weight buffer) and store 16 bytes (8 columns of a token) a lane.
  //   1: staged where the output allows it (16-byte aligned); 0: direct stores;
  //  -1: MEGAMOE_W4A16_LARGE_TMA_STAGED (0 or not; read once per process), else 1.
  int large_tma_staged = -1;
  // kSmall (TMA form, K whole): a programmatic dependent launch whose codes and scales of its first
  // stages go out before it waits for the previous kernel in the stream; only A waits. The caller
  // promises that the stream is one it created (PDL) and that offsets, W, scales and alpha were
  // complete before the previous kernel began: written two or more kernels back, since each of our
  // kernels waits for its predecessor before it lets the next one start. MEGAMOE_W4A16_SMALL_EARLY=0
  // turns it off (an A/B knob). The other tactics launch plainly.
  bool pdl = false;
};

// Whether the small tactic accepts act_out for these arguments (K, N, num_groups, small_splits) and
// this row bound: it runs K whole (small_splits 1, or MEGAMOE_W4A16_SMALL_SPLITS / the rule giving
// one part) on its TMA form. Otherwise its K halves add fp32 partial sums into D and the caller runs
// the activation kernel after it.
bool w4a16_small_act_epilogue(const W4A16GemmArgs& args, int64_t total_rows_upper_bound);
// Whether a kLargeTma launch of these arguments stages its stores (W4A16GemmArgs::large_tma_staged
// after the environment, a bf16 output: D16 or act_out, and that output 16-byte aligned). Throws
// InvalidArgument for a large_tma_staged outside -1..1.
bool w4a16_large_tma_staged(const W4A16GemmArgs& args);
// The tactic kAuto runs for total_rows_upper_bound rows over num_groups experts.
W4A16Tactic w4a16_pick_tactic(int64_t total_rows_upper_bound, int num_groups);

// Launches the GEMM on `stream`. total_rows_upper_bound (host, e.g. T*K) == 0 launches nothing.
// D must hold total_rows_upper_bound rows: when the small tactic splits K it zeroes them first.
// Throws CudaError on a launch failure, InvalidArgument on bad shapes.
void launch_grouped_gemm_w4a16(const W4A16GemmArgs& args, Fp4Scale fmt, int64_t total_rows_upper_bound,
                               cudaStream_t stream);

// Canonical packed codes -> fragment order with the decode's bit placement, in place on the
// device (bytes % 32 == 0: whole 64-wide K steps). Asynchronous on `stream`.
void w4a16_prepare_weights(uint8_t* W, size_t bytes, cudaStream_t stream);

// Host: canonical block-scale codes [G, N, K/block] (contiguous) and, for nvfp4, the per-expert
// global scales [G] -> the scale tiles of factor bytes and the per-expert alpha the kernels
// apply after accumulation. The products the kernels form are exactly e2m1 * scale (times a
// power of two that alpha undoes), so results equal the dequantize-then-multiply definition;
// a NaN scale poisons its block (inf factor over zeroed codes: NaN products). Throws
// InvalidArgument (naming `name`, the expert and the code) for an mxfp4 expert whose non-NaN
// codes span more than 128 (2^128: no common power of two keeps every product a bf16 value).
struct W4A16Scales {
  std::vector<uint8_t> tiles;   // [G, K/64, N, kScalesPer64] factor bytes
  std::vector<float> alpha;     // [G]
  bool alpha_is_one = true;     // every alpha is 1: the kernels may take a null alpha
  bool fix_codes = false;       // some scale is NaN (or nvfp4 zero / negative): run w4a16_fix_codes
};
W4A16Scales w4a16_prepare_scales(const uint8_t* canonical, const float* global_scale, int64_t G, int64_t N,
                                 int64_t K, Fp4Scale fmt, const char* name);

// Host, canonical packed codes [G, N, K/2] (before w4a16_prepare_weights): the codes of every
// block whose scale is NaN, or zero (nvfp4), become +0, those whose nvfp4 scale is negative
// change sign, so that the factor bytes (|scale|, never zero; inf for NaN) give the same products.
void w4a16_fix_codes(uint8_t* packed, const uint8_t* canonical_scales, int64_t G, int64_t N, int64_t K,
                     Fp4Scale fmt);

}  // namespace megamoe::sm90
