// Device helpers of the grouped GEMMs that walk experts' row ranges (offsets[G + 1], rows of expert
// g in [offsets[g], offsets[g + 1])): which expert a CTA of blockIdx.y serves, and a K loop
// specialised by its pass's count of token tiles. Used by the small-T bf16 and the W4A16 GEMMs.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

namespace megamoe::sm90 {

// The index of the j-th expert (in expert order) with at least one row, or -1 when fewer than
// j+1 experts have rows. Grids are sized by the number of experts that can have rows, not by
// G: at decode sizes 8 of 256 experts are active and idle CTAs would dominate the launch.
// Block-uniform; uses two __syncthreads per 256 experts scanned. `scratch` holds 9 ints.
__device__ __forceinline__ int nth_active_expert(const int32_t* __restrict__ offsets, int G, int j, int* scratch) {
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, nwarps = blockDim.x >> 5;
  int before = 0;
  if (tid == 0) scratch[8] = -1;
  for (int base = 0; base < G; base += blockDim.x) {
    const int g = base + tid;
    const bool ne = g < G && __ldg(offsets + g + 1) > __ldg(offsets + g);
    const unsigned m = __ballot_sync(0xffffffffu, ne);
    if (lane == 0) scratch[warp] = __popc(m);
    __syncthreads();
    int rank = before, total = 0;
    for (int w = 0; w < nwarps; ++w) {
      if (w < warp) rank += scratch[w];
      total += scratch[w];
    }
    rank += __popc(m & ((1u << lane) - 1u));
    if (ne && rank == j) scratch[8] = g;
    before += total;
    __syncthreads();
    if (scratch[8] >= 0 || before > j) break;
  }
  return scratch[8];
}

// Runs k_loop(std::integral_constant<int, NTA>) for a pass with nta active n8 token tiles (1 .. NT):
// each K loop gets its tile count at compile time, so it has no per-tile branch and the MMAs of a
// k16 block go to the NTA accumulators back to back. NT = 2 or 4: every count; NT = 8 (the bf16
// small kernel's 64-token passes): even counts (2, 4, 6, 8), the odd tile's MMAs on zero rows.
template <int NT, class F>
__device__ __forceinline__ void with_active_tiles(int nta, F&& k_loop) {
  if constexpr (NT == 2) {
    if (nta == 1) k_loop(std::integral_constant<int, 1>{});
    else k_loop(std::integral_constant<int, 2>{});
  } else if constexpr (NT == 4) {
    switch (nta) {
      case 1: k_loop(std::integral_constant<int, 1>{}); break;
      case 2: k_loop(std::integral_constant<int, 2>{}); break;
      case 3: k_loop(std::integral_constant<int, 3>{}); break;
      default: k_loop(std::integral_constant<int, 4>{}); break;
    }
  } else {
    static_assert(NT == 8, "passes of 16, 32 or 64 tokens");
    switch ((nta + 1) / 2) {
      case 1: k_loop(std::integral_constant<int, 2>{}); break;
      case 2: k_loop(std::integral_constant<int, 4>{}); break;
      case 3: k_loop(std::integral_constant<int, 6>{}); break;
      default: k_loop(std::integral_constant<int, 8>{}); break;
    }
  }
}

}  // namespace megamoe::sm90
