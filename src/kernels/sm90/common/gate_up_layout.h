// How the bf16 sm90 backends store a gated FC1 weight (W13 [E_local, 2I, H]): gate and up rows
// interleaved in groups of kGroup = 8. Physical rows [16g, 16g + 8) are gate rows [8g, 8g + 8)
// and physical rows [16g + 8, 16g + 16) the matching up rows:
//
//   logical (canonical) row  j      (gate, j < I)  ->  physical 16 (j / 8) + j % 8
//   logical (canonical) row  I + j  (up)           ->  physical 16 (j / 8) + 8 + j % 8
//
// Why 8: it is the row / column distance at which Hopper's MMA accumulators hold a second value
// in the same thread. wgmma and mma.sync give each thread two columns of every 8-column block and
// two rows 8 apart. So with this layout a thread that holds h[gate j] also holds h[up j]:
//   - FC1 as D = x . W13^T (columns are W13 rows): n-blocks 2b and 2b + 1 of one thread;
//   - swap-AB, D^T = W13 . x^T (rows are W13 rows): rows r and r + 8 of one thread.
// The GEMM epilogue then applies the activation in registers and writes bf16 a [rows, I] once
// (gemm/act_epilogue.cuh): no FP32 h in memory. The Mega kernel reads the same buffer (its warp
// w pairs gate rows 8w.. 8w+7 with up rows 8w..8w+7, exactly one group). One layout for every
// bf16 path, made at upload (Sm90BackendBase::upload_gate_up_interleaved); relu2 (not gated, I
// rows) stays canonical. Needs I % 8 == 0 (the bf16 backends require I % 64 == 0).
#pragma once
#include <cstdint>

#include "core/host_device.h"

namespace megamoe::sm90::gate_up {

constexpr int kGroup = 8;

// Physical row of gate row j (up = false) or up row j (up = true), j in [0, I).
MEGAMOE_HD int64_t physical_row(int64_t j, bool up) {
  return (j / kGroup) * (2 * kGroup) + (up ? kGroup : 0) + j % kGroup;
}

// Output column j of a (gate / up row j) of physical row n, and whether n is an up row.
MEGAMOE_HD int64_t output_col(int64_t n) { return (n / (2 * kGroup)) * kGroup + n % kGroup; }
MEGAMOE_HD bool is_up_row(int64_t n) { return (n / kGroup) % 2 == 1; }

}  // namespace megamoe::sm90::gate_up
