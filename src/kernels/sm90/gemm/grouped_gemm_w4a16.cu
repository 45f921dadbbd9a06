// Grouped W4A16 GEMM (grouped_gemm_w4a16.h): argument checks, the tactic choice, the weight
// preparation (fragment order) and the scale tiles. The kernels are in
// grouped_gemm_w4a16_small.cu (mma.sync), grouped_gemm_w4a16_large.cu (wgmma) and
// grouped_gemm_w4a16_large_tma*.cu (warp-specialised wgmma with TMA).
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "core/env_int.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16_common.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

cudaError_t launch_w4a16_small(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y, int splits,
                               cudaStream_t stream);
bool w4a16_small_tma_form();
cudaError_t launch_w4a16_large(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y,
                               cudaStream_t stream);
cudaError_t launch_w4a16_large_tma(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y,
                                   cudaStream_t stream);

namespace {

// The large tactic pays off once experts have more rows than one 16-token pass of the small
// tactic: each further pass re-decodes the whole weight tile, while a 64-token wgmma pass decodes
// it once (and runs an MMA only as wide as the pass's rows). Measured on the H200 (mxfp4, every
// preset, forced tactics, one job, 2026-12-02, with the large tactic's per-pass MMA width): at a
// mean of 16 rows per expert the large tactic takes 0.96-0.99x the small one's time (deepseek-v3
// T = 512: 2.71 against 2.74 ms), at 8 rows 1.04-1.05x, at 4 and fewer 1.07-1.12x. The switch
// sits between 8 and 16. Re-measured after the large tactic's lean 5-stage K loop (same method,
// 2026-12-02): at 8 rows 0.99-1.03x (a tie), at 12 rows 0.965-0.969x, at 16 rows 0.92-0.96x.
constexpr int64_t kLargeMinMeanRows = 12;
// The TMA tactic (with FC1's activation in its epilogue) from a mean of 256 rows per expert. Measured
// on the H200 with its passes of up to 320 tokens (mxfp4, forced tactics, one job, 2026-12-02,
// docs/BENCHMARKS.md), its layer time against the large tactic's: at 256 rows 0.77-0.93x
// (deepseek-v3 and gpt-oss-120b T = 8192, qwen3-30b-a3b T = 4096, mixtral-8x7b T = 1024), at 512 and
// more 0.79-0.96x; at 128 rows 0.96x (deepseek-v3 T = 4096), 1.00x (gpt-oss-120b) and 1.14x
// (qwen3-30b-a3b T = 2048), at 32-64 rows 1.26-1.36x. `megamoe tune` measures it per shape.
constexpr int64_t kTmaMinMeanRows = 256;
// The small tactic splits K in two when its grid has at most this many CTAs per SM (of the
// device, queried): fewer than two per SM leaves too few warps to cover the decode's latency
// chains (H100/H200: 132 SMs, 264 CTAs).
constexpr int64_t kSplitMaxCtasPerSm = 2;
constexpr int kPrepareThreads = 256;
constexpr size_t kStepBytes = 32;  // one weight row's packed codes of a 64-wide K step

// Fragment order: within each 32-byte K step, byte 8t+2s+h takes canonical byte 8s+t+4h (t =
// lane % 4, s = k16 block, h = low / high k8 half). Then, in each 32-bit word, the nibbles of
// byte j (elements 2i low, 2i+1 high) move to where decode_pairs reads pair j: code bit b (0
// mantissa, 1-2 exponent, 3 sign) of the low / high element is the pair's bf16 bit 6, 7, 8, 15
// of the low / high half.
__global__ void fragment_order_kernel(uint8_t* __restrict__ W, size_t steps) {
  const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= steps) return;
  uint4* p = reinterpret_cast<uint4*>(W + i * 32);
  const uint4 a = p[0], b = p[1];
  const uint32_t in[8] = {a.x, a.y, a.z, a.w, b.x, b.y, b.z, b.w};
  uint32_t out[8] = {};
#pragma unroll
  for (int t = 0; t < 4; ++t)
#pragma unroll
    for (int s = 0; s < 4; ++s)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int src = 8 * s + t + 4 * h, dst = 8 * t + 2 * s + h;
        out[dst >> 2] |= ((in[src >> 2] >> (8 * (src & 3))) & 0xFFu) << (8 * (dst & 3));
      }
#pragma unroll
  for (int q = 0; q < 8; ++q) out[q] = w4a16::place_pair_bits(out[q]);
  p[0] = make_uint4(out[0], out[1], out[2], out[3]);
  p[1] = make_uint4(out[4], out[5], out[6], out[7]);
}

constexpr uint8_t kE8m0NaN = 255;
using w4a16::kInfFactorMx;  // a NaN scale: an infinite factor over zeroed codes (w4a16_bits.h)
using w4a16::kInfFactorNv;

// What w4a16_fix_codes does to the codes of a block with scale code c: NaN scales (both formats)
// and zero nvfp4 scales zero them, negative nvfp4 scales flip their signs.
enum class BlockFix { kNone, kZero, kNegate };
BlockFix block_fix(Fp4Scale fmt, uint8_t c) {
  if (fmt == Fp4Scale::kMxfp4) return c == kE8m0NaN ? BlockFix::kZero : BlockFix::kNone;
  if ((c & 0x7F) == 0x7F || (c & 0x7F) == 0) return BlockFix::kZero;
  return (c & 0x80) ? BlockFix::kNegate : BlockFix::kNone;
}

// The small tactic's K parts for a grid of grid_y experts: MEGAMOE_W4A16_SMALL_SPLITS=1 or 2 (an A/B
// knob, read once; other values are ignored), else the caller's (a tactic), else the rule; 1 when K
// has fewer than two stages of 128 per split.
int small_split_count(const W4A16GemmArgs& a, int64_t grid_y) {
  static const int forced_splits = [] {
    const int v = int(env_int("MEGAMOE_W4A16_SMALL_SPLITS", 0));
    return v == 1 || v == 2 ? v : 0;
  }();
  int splits = forced_splits != 0 ? forced_splits : a.small_splits;
  if (splits == 0) {
    const int64_t ctas = cu::ceil_div<int64_t>(a.N, 128) * grid_y;
    splits = ctas <= kSplitMaxCtasPerSm * cu::current_sm_count() ? 2 : 1;
  }
  return a.K < 256 ? 1 : splits;
}

// W4A16GemmArgs::large_tma_staged in range: -1 (the environment), 0 or 1.
void check_large_tma_staged(const W4A16GemmArgs& a) {
  if (a.large_tma_staged < -1 || a.large_tma_staged > 1)
    throw_invalid("large_tma_staged", "-1 (the environment), 0 (direct stores) or 1 (staged; w4a16 GEMM)",
                  std::to_string(a.large_tma_staged));
}

}  // namespace

bool w4a16_large_tma_staged(const W4A16GemmArgs& a) {
  check_large_tma_staged(a);
  // MEGAMOE_W4A16_LARGE_TMA_STAGED=0: direct stores (an A/B knob, read once per process).
  static const bool env_staged = env_int("MEGAMOE_W4A16_LARGE_TMA_STAGED", 1) != 0;
  const bool want = a.large_tma_staged >= 0 ? a.large_tma_staged == 1 : env_staged;
  // The staged stores are 16 bytes of one token row: the output 16-byte aligned (its row stride, N
  // or I, and the groups' first columns are multiples of 64 and 8 bf16 anyway). fp32 D stores directly.
  const void* const out = a.act_out ? a.act_out : a.D16;
  return want && out != nullptr && reinterpret_cast<uintptr_t>(out) % 16 == 0;
}

bool w4a16_small_act_epilogue(const W4A16GemmArgs& a, int64_t total_rows_upper_bound) {
  if (total_rows_upper_bound <= 0 || a.num_groups <= 0 || !w4a16_small_tma_form()) return false;
  return small_split_count(a, std::min<int64_t>(a.num_groups, total_rows_upper_bound)) == 1;
}

W4A16Tactic w4a16_pick_tactic(int64_t total_rows_upper_bound, int num_groups) {
  if (num_groups <= 0) return W4A16Tactic::kSmall;
  if (total_rows_upper_bound >= kTmaMinMeanRows * num_groups) return W4A16Tactic::kLargeTma;
  return total_rows_upper_bound >= kLargeMinMeanRows * num_groups ? W4A16Tactic::kLarge : W4A16Tactic::kSmall;
}

void launch_grouped_gemm_w4a16(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t total_rows_upper_bound,
                               cudaStream_t stream) {
  if (total_rows_upper_bound <= 0 || a.num_groups <= 0) return;
  if (a.K % 64 != 0 || a.K <= 0) throw_invalid("K", "a positive multiple of 64 (w4a16 GEMM)", std::to_string(a.K));
  if (a.N % 64 != 0 || a.N <= 0) throw_invalid("N", "a positive multiple of 64 (w4a16 GEMM)", std::to_string(a.N));
  if (a.K > (int64_t(1) << 30) || a.N > (int64_t(1) << 30))
    throw_invalid("N, K", "below 2^30 (w4a16 GEMM, 32-bit indices)", std::to_string(a.N) + ", " + std::to_string(a.K));
  // Every tactic reads A, W and the scale tiles by TMA or 16-byte copies.
  const std::pair<const void*, const char*> operands[] = {{a.A, "A"}, {a.W, "W"}, {a.scales, "scales"}};
  for (const auto& [ptr, name] : operands) cu::require_aligned16(ptr, name, "w4a16 GEMM: TMA and 16-byte copies");
  // Only experts with rows get CTAs: at most min(G, rows) of them (grid.y <= 65535).
  const int64_t grid_y = std::min<int64_t>(a.num_groups, total_rows_upper_bound);
  if (grid_y > 65535) throw_invalid("num_groups", "at most 65535 (w4a16 GEMM)", std::to_string(a.num_groups));
  if (a.small_splits < 0 || a.small_splits > 2)
    throw_invalid("small_splits", "0 (the rule), 1 or 2 (w4a16 GEMM)", std::to_string(a.small_splits));
  if (a.small_deep < 0 || a.small_deep > 2)
    throw_invalid("small_deep", "0 (never), 1 (where the grid fits one CTA per SM) or 2 (always; w4a16 GEMM)",
                  std::to_string(a.small_deep));
  check_large_tma_staged(a);
  W4A16Tactic t = a.tactic;
  if (t == W4A16Tactic::kAuto) t = w4a16_pick_tactic(total_rows_upper_bound, a.num_groups);
  const int outputs = (a.D != nullptr) + (a.D16 != nullptr) + (a.act_out != nullptr);
  if (outputs != 1)
    throw_invalid("D, D16, act_out", "exactly one output (fp32 D, bf16 D16 or the activation's act_out)",
                  std::to_string(outputs) + " of them");
  if (a.D16 && t == W4A16Tactic::kSmall)
    throw_invalid("D16", "the large tactics (bf16 output; the small tactic may add split-K partials into fp32 D)",
                  "the small tactic");
  if (a.act_out && t == W4A16Tactic::kSmall && !w4a16_small_act_epilogue(a, total_rows_upper_bound))
    throw_invalid("act_out", "a large tactic, or the small one with K whole on its TMA form (w4a16_small_act_epilogue)",
                  "the small tactic with K split in two or its cp.async form");
  if (a.act_out && a.act.activation != Activation::kReLU2 && t != W4A16Tactic::kSmall && a.N % 128 != 0)
    throw_invalid("N", "2 * I with I a multiple of 64 (gated activation epilogue of a large tactic)",
                  std::to_string(a.N));
  cudaError_t e;
  if (t == W4A16Tactic::kLarge) {
    e = launch_w4a16_large(a, fmt, total_rows_upper_bound, int(grid_y), stream);
  } else if (t == W4A16Tactic::kLargeTma) {
    e = launch_w4a16_large_tma(a, fmt, total_rows_upper_bound, int(grid_y), stream);
  } else {
    const int splits = small_split_count(a, grid_y);
    e = cudaSuccess;
    if (splits > 1)  // the partial sums are added into D: rows [0, rows bound) start at zero
      e = cudaMemsetAsync(a.D, 0, size_t(total_rows_upper_bound) * size_t(a.N) * sizeof(float), stream);
    if (e == cudaSuccess) e = launch_w4a16_small(a, fmt, total_rows_upper_bound, int(grid_y), splits, stream);
  }
  cu::check("w4a16", e, "w4a16 grouped GEMM launch");
}

void w4a16_prepare_weights(uint8_t* W, size_t bytes, cudaStream_t stream) {
  if (bytes % kStepBytes != 0)
    throw_invalid("W", "a whole number of 64-wide K steps (bytes % 32 == 0)", std::to_string(bytes) + " bytes");
  if (bytes == 0) return;
  const size_t steps = bytes / kStepBytes;
  fragment_order_kernel<<<unsigned(cu::ceil_div<size_t>(steps, kPrepareThreads)), kPrepareThreads, 0, stream>>>(W, steps);
  cu::check_launch("w4a16", "w4a16 weight preparation launch");
}

W4A16Scales w4a16_prepare_scales(const uint8_t* canonical, const float* global_scale, int64_t G, int64_t N,
                                 int64_t K, Fp4Scale fmt, const char* name) {
  const bool nv = fmt == Fp4Scale::kNvfp4;
  const int64_t spb = fp4_scales_per64(fmt), per_row = K / fp4_scale_block(fmt), KT = K / 64;
  const int64_t per_expert = N * per_row;
  W4A16Scales r;
  r.tiles.assign(size_t(G * per_expert), 0);
  r.alpha.assign(size_t(G), 1.0f);
  auto bad = [&](int64_t g, int v, const char* why) {
    throw_invalid(name, std::string("block scales the sm90 W4A16 kernels can apply exactly (") + why + ")",
                  "expert " + std::to_string(g) + ": code " + std::to_string(v));
  };
  for (int64_t g = 0; g < G; ++g) {
    const uint8_t* src = canonical + g * per_expert;
    int shift = 0;  // mxfp4: factor byte = code - shift, alpha = 2^shift
    if (!nv) {
      int lo = 255, hi = 0;  // over the non-NaN codes
      for (int64_t i = 0; i < per_expert; ++i) {
        if (src[i] == kE8m0NaN) continue;
        lo = std::min<int>(lo, src[i]);
        hi = std::max<int>(hi, src[i]);
      }
      shift = std::max(0, hi - w4a16::kMxMaxFactorByte);  // factor 2^(byte - 1) must stay a bf16 value
      if (lo < shift) bad(g, lo, "an expert's e8m0 codes may span at most 128");
      r.alpha[size_t(g)] = std::ldexp(1.0f, shift);
    } else {
      const float gs = global_scale ? global_scale[g] : 1.0f;
      r.alpha[size_t(g)] = gs * 512.0f;  // the factor bytes carry |scale| * 2^-9
      if (std::isfinite(gs) && !std::isfinite(r.alpha[size_t(g)]))
        throw_invalid(name, "global scales below 2^118 (the kernels apply them times 2^9)",
                      "expert " + std::to_string(g) + ": " + std::to_string(gs));
    }
    if (r.alpha[size_t(g)] != 1.0f) r.alpha_is_one = false;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t kt = 0; kt < KT; ++kt)
        for (int64_t j = 0; j < spb; ++j) {
          const uint8_t c = src[n * per_row + kt * spb + j];
          uint8_t b;
          if (!nv) {
            b = c == kE8m0NaN ? kInfFactorMx : uint8_t(c - shift);
          } else if ((c & 0x7F) == 0x7F) {
            b = kInfFactorNv;
          } else {
            b = (c & 0x7F) == 0 ? uint8_t(0) : w4a16::nvfp4_factor_byte(uint8_t(c & 0x7F));
          }
          if (block_fix(fmt, c) != BlockFix::kNone) r.fix_codes = true;
          r.tiles[size_t(((g * KT + kt) * N + n) * spb + j)] = b;
        }
  }
  return r;
}

void w4a16_fix_codes(uint8_t* packed, const uint8_t* canonical_scales, int64_t G, int64_t N, int64_t K,
                     Fp4Scale fmt) {
  const int64_t blk = fp4_scale_block(fmt), per_row = K / blk;
  for (int64_t r = 0; r < G * N; ++r)
    for (int64_t j = 0; j < per_row; ++j) {
      const BlockFix fix = block_fix(fmt, canonical_scales[r * per_row + j]);
      if (fix == BlockFix::kNone) continue;
      uint8_t* bytes = packed + r * (K / 2) + j * (blk / 2);
      for (int64_t i = 0; i < blk / 2; ++i)  // zero: +0 codes; negate: both sign bits flipped
        bytes[i] = fix == BlockFix::kZero ? uint8_t(0) : uint8_t(bytes[i] ^ 0x88u);
    }
}

}  // namespace megamoe::sm90
