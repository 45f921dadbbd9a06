// Internal to the Mega kernel (mega.h is the interface): what the kernel instantiations
// (mega_bf16.cu, mega_w4a16.cu) and the host side (mega_host.cu) share -- the tile constants the
// workspace is sized by, the kernel's parameter block, and one entry point per weight format.
#pragma once
#include <cuda.h>
#include <cuda_runtime.h>

#include "kernels/sm90/mega/mega.h"

namespace megamoe::sm90::mega {

constexpr int kThreads = 256;               // 8 warps: every warp loads, computes and stores
constexpr int kHalfM = 64;                  // weight rows per half tile (one TMA box's rows)
constexpr int kTileM = 2 * kHalfM;          // weight rows per tile (the MMA's M)
constexpr int kMaxN = 16;                   // rows of one unit: tokens per tile (the MMA's N); with
                                            // two CTAs per SM (mega_kernel.cuh, Fmt) wider tiles
                                            // do not fit the registers and shared memory
constexpr int kSplitTarget = 2;             // split K until a phase has >= 2 x grid tiles
constexpr int kPartialFloats = kThreads * (kMaxN / 8) * 4;  // one split's accumulators (8 KiB)

// fp8_block: a quantized activation row of K columns in the workspace (xq, aq): its K e4m3 codes,
// then its ceil(K/128) fp32 scales, padded to 16 bytes (cp.async), so one offset locates both.
__host__ __device__ constexpr int64_t fp8_row_bytes(int64_t K) { return (K + 4 * ((K + 127) / 128) + 15) / 16 * 16; }

// The kernel's parameters (__grid_constant__): the weights as TMA tensors (see mega_kernel.cuh;
// ts13 / ts2 only for W4A16), the call and the workspace. CUtensorMap carries its own
// 128-byte alignment.
struct Params {
  CUtensorMap tm13;
  CUtensorMap tm2;
  CUtensorMap ts13;
  CUtensorMap ts2;
  MegaArgs a;
  MegaWorkspace ws;
};

// Per format: CTAs of the kernel one SM holds (sets the shared-memory attribute first), and the
// launch of `grid` CTAs. Defined by the instantiating translation units.
template <WeightFormat WF>
int kernel_blocks_per_sm();
template <WeightFormat WF>
void launch_kernel(const Params& p, int grid, cudaStream_t stream);

}  // namespace megamoe::sm90::mega
