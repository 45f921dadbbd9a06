// bf16 grouped GEMM for large T without CUTLASS (grouped_gemm_bf16_large_tma.cuh; the bf16 split
// backend's `split_large_tma` tactic): for every expert g,
//   D[rows of g, 0:N] = A[rows of g, 0:K] . W[g, 0:N, 0:K]^T
// written as fp32 D, bf16 D (round to nearest even), or, as FC1, a = bf16(act(D + b13)) [rows, I]
// with the activation in the epilogue (W13 gate/up interleaved for a gated activation,
// common/gate_up_layout.h; relu2 canonical). Offsets [G + 1] on the device; asynchronous,
// allocation-free, graph-capturable.
// Needs: K % 8 == 0 (a partial last 64-wide K step is zero-filled), lda >= K and % 8 == 0, A and W
// 16-byte aligned; gated activation: N % 16 == 0.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "kernels/sm90/gemm/bf16_gemm_operands.h"

namespace megamoe::sm90::bf16_large {

enum class LargeTmaOut : uint8_t { kF32, kBf16, kAct };

// D: fp32 [rows, ldd] (kF32), bf16 [rows, ldd] (kBf16), bf16 a [rows, ldd] (kAct; `act` read only then).
struct Bf16LargeTmaArgs : Bf16GemmOperands {
  LargeTmaOut out = LargeTmaOut::kF32;
  // How an expert's rows are cut into passes (each a full K loop over the tile's weights, MMA widths
  // rounded up to 32 rows):
  //   0: passes of 256 rows, then the remainder;
  //   1: ceil(rows / 256) passes of about equal width;
  //   2: passes of 320 rows, then the remainder; a pass of 257..320 rows runs two MMAs of width 144
  //      (up to 288 rows) or 160 on its halves (one pass for experts of 256 +- 16 rows; the same
  //      padded columns as mode 0 for such experts, a third fewer weight streams);
  //  -1: MEGAMOE_BF16_LARGE_TMA_PASSES (read once per process), else 2.
  int pass_mode = -1;
  // How the epilogue stores (launch_store_mode: what runs):
  //   kStoresStaged (2): bf16 outputs of passes of > 96 rows (MMA width >= 128) through shared memory, 16 bytes a
  //     lane, where the output allows it (staged_stores_fit); every other pass and output as 1;
  //   kStoresPaired (1): two adjacent columns a store where the output allows it (paired_stores_fit),
  //     else one;
  //   kStoresSingle (0): one column a store;
  //   -1: MEGAMOE_BF16_LARGE_TMA_STORES (0, 1 or 2; read once per process), else 2 unless
  //     MEGAMOE_BF16_LARGE_TMA_PAIRED=0 (the older knob: then 0).
  int stores = -1;
  // The tile order: 0: static (CTA c runs tiles c, c + grid, ...); 1: dynamic, each CTA takes the
  // next tile index from `tile_counter` when it is ready for one (tiles of different pass widths take
  // different times; a fixed stride can hand one CTA all the wide ones); -1:
  // dynamic where tile_counter is given unless MEGAMOE_BF16_LARGE_TMA_DYNAMIC=0 (read once per
  // process), else static.
  int dynamic_tiles = -1;
  // 4 ints on the device, zero before the first launch that uses them: [0] the next ticket, [1] CTAs
  // done, [2] tiles run, all three left zero by every launch (its last CTA resets them), and [3] the
  // last launch's tile count. A launch that finds [0] non-zero, or shares the counter with another
  // running launch, traps (a launch error) instead of skipping tiles. One counter per GEMM that may
  // run at the same time as another.
  int* tile_counter = nullptr;
  // Dynamic order only: when the TMA lane draws the next ticket. 0: once the stage of the tile's
  // first step is free; 1: right after issuing the previous tile's last step (the atomic's round
  // trip overlaps the stage wait); -1: MEGAMOE_BF16_LARGE_TMA_EARLY_DRAW (read once per process),
  // else 0.
  int early_draw = -1;
  // Pass groups (grouped_gemm_bf16_large_tma_walk.h, TileWalk): an expert with more passes than P
  // runs them P at a time over all its weight blocks, so the tiles running at once share ~P passes of
  // tokens in L2. 0: off (every weight block x all the expert's passes); 1..kMaxPassGroup: that P;
  // kPassGroupAuto (-2): P for the launch's grid (auto_pass_group: 7 for 132 CTAs); -1:
  // MEGAMOE_BF16_LARGE_TMA_PASS_GROUP (read once per process: 0 off, 1 auto, 2.. that P; unset: auto).
  int pass_group = -1;
};

constexpr int kMaxPassGroup = 1 << 16, kPassGroupAuto = -2;

constexpr int kStoresSingle = 0, kStoresPaired = 1, kStoresStaged = 2;

// Whether the epilogue can store two adjacent columns at once (4-byte bf16 / 8-byte fp32 stores):
// an even column count (N, or N / 2 with a gated activation), an even row stride ldd and D aligned to
// two elements of `elem_bytes`.
inline bool paired_stores_fit(int64_t cols, int64_t ldd, const void* D, size_t elem_bytes) {
  return cols % 2 == 0 && ldd % 2 == 0 && reinterpret_cast<uintptr_t>(D) % (2 * elem_bytes) == 0;
}

// Whether bf16 outputs can be stored 16 bytes a lane (8 columns): a column count (N, or N / 2 with a
// gated activation) and ldd that are multiples of 8, D 16-byte aligned.
inline bool staged_stores_fit(int64_t cols, int64_t ldd, const void* D) {
  return cols % 8 == 0 && ldd % 8 == 0 && reinterpret_cast<uintptr_t>(D) % 16 == 0;
}

// The store mode a launch with these arguments runs (Bf16LargeTmaArgs::stores after the environment
// and what the output allows); throws InvalidArgument for a `stores` outside -1..2.
int launch_store_mode(const Bf16LargeTmaArgs& args);

// Throws InvalidArgument on bad shapes, CudaError on a launch failure; rows_bound == 0 launches nothing.
void launch_bf16_large_tma(const Bf16LargeTmaArgs& args, int64_t rows_bound, cudaStream_t stream);

}  // namespace megamoe::sm90::bf16_large
