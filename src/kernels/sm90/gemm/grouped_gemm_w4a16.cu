// Grouped W4A16 GEMM (grouped_gemm_w4a16.h): argument checks, the tactic choice, the weight
// preparation (fragment order) and the scale tiles. The kernels are in
// grouped_gemm_w4a16_small.cu (mma.sync) and grouped_gemm_w4a16_large.cu (wgmma).
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

cudaError_t launch_w4a16_small(const W4A16GemmArgs& a, Fp4Scale fmt, int grid_y, int splits, cudaStream_t stream);
cudaError_t launch_w4a16_large(const W4A16GemmArgs& a, Fp4Scale fmt, int grid_y, cudaStream_t stream);

namespace {

// The large tactic pays off once an expert has more rows than one 16-token pass of the small
// tactic: each further pass re-decodes the whole weight tile, while a 128-token wgmma pass
// decodes it once. Measured on the H200 (deepseek-v3, mxfp4, bench/results 2026-11-29 w4a16):
// mean 16 rows per expert: small 5.17 ms; mean 32: small 8.34 ms (two passes) vs large 6.08 ms
// at mean 64. The switch sits between one and two small passes.
constexpr int64_t kLargeMinMeanRows = 24;
// The small tactic splits K in two when its grid has at most this many CTAs per SM (of the
// device, queried): fewer than two per SM leaves too few warps to cover the decode's latency
// chains (H100/H200: 132 SMs, 264 CTAs).
constexpr int64_t kSplitMaxCtasPerSm = 2;
constexpr int kPrepareThreads = 256;
constexpr size_t kStepBytes = 32;  // one weight row's packed codes of a 64-wide K step

// Fragment order (grouped_gemm_w4a16_common.cuh): within each 32-byte K step, byte 8t+2s+h
// takes canonical byte 8s+t+4h (t = lane % 4, s = k16 block, h = low / high k8 half).
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
  p[0] = make_uint4(out[0], out[1], out[2], out[3]);
  p[1] = make_uint4(out[4], out[5], out[6], out[7]);
}

}  // namespace

W4A16Tactic w4a16_pick_tactic(int64_t total_rows_upper_bound, int num_groups) {
  if (num_groups <= 0) return W4A16Tactic::kSmall;
  return total_rows_upper_bound >= kLargeMinMeanRows * num_groups ? W4A16Tactic::kLarge : W4A16Tactic::kSmall;
}

void launch_grouped_gemm_w4a16(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t total_rows_upper_bound,
                               cudaStream_t stream) {
  if (total_rows_upper_bound <= 0 || a.num_groups <= 0) return;
  if (a.K % 64 != 0 || a.K <= 0) throw_invalid("K", "a positive multiple of 64 (w4a16 GEMM)", std::to_string(a.K));
  if (a.N % 64 != 0 || a.N <= 0) throw_invalid("N", "a positive multiple of 64 (w4a16 GEMM)", std::to_string(a.N));
  if (a.K > (int64_t(1) << 30) || a.N > (int64_t(1) << 30))
    throw_invalid("N, K", "below 2^30 (w4a16 GEMM, 32-bit indices)", std::to_string(a.N) + ", " + std::to_string(a.K));
  // Only experts with rows get CTAs: at most min(G, rows) of them (grid.y <= 65535).
  const int64_t grid_y = std::min<int64_t>(a.num_groups, total_rows_upper_bound);
  if (grid_y > 65535) throw_invalid("num_groups", "at most 65535 (w4a16 GEMM)", std::to_string(a.num_groups));
  W4A16Tactic t = a.tactic;
  if (t == W4A16Tactic::kAuto) t = w4a16_pick_tactic(total_rows_upper_bound, a.num_groups);
  cudaError_t e;
  if (t == W4A16Tactic::kLarge) {
    e = launch_w4a16_large(a, fmt, int(grid_y), stream);
  } else {
    const int64_t ctas = cu::ceil_div<int64_t>(a.N, 128) * grid_y;
    const int64_t split_max_ctas = kSplitMaxCtasPerSm * cu::current_sm_count();
    const int splits = ctas <= split_max_ctas && a.K >= 256 ? 2 : 1;  // >= 2 stages of 128 per split
    e = cudaSuccess;
    if (splits > 1)  // the partial sums are added into D: rows [0, rows bound) start at zero
      e = cudaMemsetAsync(a.D, 0, size_t(total_rows_upper_bound) * size_t(a.N) * sizeof(float), stream);
    if (e == cudaSuccess) e = launch_w4a16_small(a, fmt, int(grid_y), splits, stream);
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

void w4a16_scale_tiles(const uint8_t* canonical, int64_t G, int64_t N, int64_t K, Fp4Scale fmt,
                       std::vector<uint8_t>& tiles) {
  const int64_t spb = fp4_scales_per64(fmt), per_row = K / fp4_scale_block(fmt), KT = K / 64;
  tiles.assign(size_t(G * N * per_row), 0);
  for (int64_t g = 0; g < G; ++g)
    for (int64_t n = 0; n < N; ++n) {
      const uint8_t* src = canonical + (g * N + n) * per_row;
      for (int64_t kt = 0; kt < KT; ++kt)
        for (int64_t j = 0; j < spb; ++j) tiles[size_t(((g * KT + kt) * N + n) * spb + j)] = src[kt * spb + j];
    }
}

}  // namespace megamoe::sm90
