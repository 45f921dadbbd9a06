// The bf16 large TMA GEMM (grouped_gemm_bf16_large_tma.cuh): the arguments' checks, the pass
// mode's knob, and the fp32 / bf16 D kernels (the activation kernel is in
// grouped_gemm_bf16_large_tma_act.cu).
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.cuh"

#include <cstdlib>
#include <string>

#include "core/env_int.h"
#include "megamoe/errors.h"

namespace megamoe::sm90::bf16_large {

cudaError_t launch_plain(const Bf16LargeTmaArgs& a, int64_t rows_bound, int mode, int pgroup, int stores, int* sched,
                         bool early_draw, cudaStream_t stream) {
  return a.out == LargeTmaOut::kF32
             ? launch_impl<LargeTmaOut::kF32>(a, rows_bound, mode, pgroup, stores, sched, early_draw, stream)
             : launch_impl<LargeTmaOut::kBf16>(a, rows_bound, mode, pgroup, stores, sched, early_draw, stream);
}

int launch_store_mode(const Bf16LargeTmaArgs& a) {
  if (a.stores < -1 || a.stores > 2)
    throw_invalid("stores", "-1 (the environment), 0 (single), 1 (paired) or 2 (staged)", std::to_string(a.stores));
  // MEGAMOE_BF16_LARGE_TMA_STORES: the store mode for A/B measurements, read once per process (a value
  // other than 0, 1 or 2: 2); unset, MEGAMOE_BF16_LARGE_TMA_PAIRED=0 (the knob before the staged
  // epilogue) asks for single stores.
  static const int env_stores = [] {
    if (std::getenv("MEGAMOE_BF16_LARGE_TMA_STORES") == nullptr)
      return env_int("MEGAMOE_BF16_LARGE_TMA_PAIRED", 1) != 0 ? kStoresStaged : kStoresSingle;
    const int64_t m = env_int("MEGAMOE_BF16_LARGE_TMA_STORES", kStoresStaged);
    return m >= 0 && m <= 2 ? int(m) : kStoresStaged;
  }();
  const int want = a.stores >= 0 ? a.stores : env_stores;
  const bool gated = a.out == LargeTmaOut::kAct && a.act.activation != Activation::kReLU2;
  const int64_t cols = gated ? a.N / 2 : a.N;
  const size_t elem = a.out == LargeTmaOut::kF32 ? 4 : 2;
  if (want == kStoresStaged && a.out != LargeTmaOut::kF32 && staged_stores_fit(cols, a.ldd, a.D)) return kStoresStaged;
  return want != kStoresSingle && paired_stores_fit(cols, a.ldd, a.D, elem) ? kStoresPaired : kStoresSingle;
}

void launch_bf16_large_tma(const Bf16LargeTmaArgs& a, int64_t rows_bound, cudaStream_t stream) {
  if (rows_bound <= 0 || a.num_groups <= 0) return;
  const char* who = "bf16 large GEMM";
  const bool act = a.out == LargeTmaOut::kAct;
  const bool gated = act && a.act.activation != Activation::kReLU2;
  const size_t elem = a.out == LargeTmaOut::kF32 ? 4 : 2;
  check_bf16_gemm_operands(a, who, gated, elem);
  // rows_bound below 2^31 - 320: a pass count (rows + pass - 1) / pass stays in int.
  if (rows_bound > int64_t(INT32_MAX) - 320 || int64_t(a.num_groups) * a.N > int64_t(INT32_MAX))
    throw_invalid("rows_bound, num_groups * N", "below 2^31 - 320 and 2^31 (bf16 large GEMM)",
                  std::to_string(rows_bound) + ", " + std::to_string(int64_t(a.num_groups) * a.N));
  // The tile walk counts tiles in int (t + gridDim.x must not wrap).
  if (max_tiles(a.N, a.num_groups, rows_bound) > int64_t(INT32_MAX) / 2)
    throw_invalid("rows_bound, N", "at most 2^30 tiles of 128 weight rows x a pass of <= 256 tokens (bf16 large GEMM)",
                  std::to_string(max_tiles(a.N, a.num_groups, rows_bound)) + " tiles");
  const int stores = launch_store_mode(a);
  if (a.pass_mode < -1 || a.pass_mode > 2)
    throw_invalid("pass_mode", "-1 (the environment), 0, 1 or 2", std::to_string(a.pass_mode));
  // MEGAMOE_BF16_LARGE_TMA_PASSES: the pass mode for A/B measurements, read once per process (unset,
  // or a value other than 0, 1 or 2: mode 2).
  static const int env_mode = [] {
    const int64_t m = env_int("MEGAMOE_BF16_LARGE_TMA_PASSES", 2);
    return m >= 0 && m <= 2 ? int(m) : 2;
  }();
  const int mode = a.pass_mode >= 0 ? a.pass_mode : env_mode;
  if (a.dynamic_tiles < -1 || a.dynamic_tiles > 1)
    throw_invalid("dynamic_tiles", "-1 (the environment), 0 or 1", std::to_string(a.dynamic_tiles));
  if (a.dynamic_tiles == 1 && a.tile_counter == nullptr)
    throw_invalid("tile_counter", "a device pointer to 4 ints, zero before the first launch (dynamic_tiles = 1)",
                  "null");
  if (a.tile_counter != nullptr && !cu::aligned(a.tile_counter, alignof(int)))
    throw_invalid("tile_counter", "a 4-byte aligned device pointer", "misaligned");
  // Dynamic order by default where a counter is given (measured 2026-12-05, one H200: 1.035x the static
  // order's geomean over 24 forced cells, 1.20x / 1.19x at deepseek-v3 / gpt-oss-120b T = 12288,
  // where experts need two passes; docs/BENCHMARKS.md); MEGAMOE_BF16_LARGE_TMA_DYNAMIC=0 turns it off
  // (A/B; read once per process).
  static const bool env_dynamic = env_int("MEGAMOE_BF16_LARGE_TMA_DYNAMIC", 1) != 0;
  const bool dynamic = a.tile_counter != nullptr && (a.dynamic_tiles >= 0 ? a.dynamic_tiles == 1 : env_dynamic);
  int* const sched = dynamic ? a.tile_counter : nullptr;
  if (a.early_draw < -1 || a.early_draw > 1)
    throw_invalid("early_draw", "-1 (the environment), 0 or 1", std::to_string(a.early_draw));
  // MEGAMOE_BF16_LARGE_TMA_EARLY_DRAW=1: the early ticket draw for A/B measurements (read once per
  // process; off by default until measured).
  static const bool env_early = env_int("MEGAMOE_BF16_LARGE_TMA_EARLY_DRAW", 0) != 0;
  const bool early = a.early_draw >= 0 ? a.early_draw == 1 : env_early;
  if (a.pass_group < kPassGroupAuto || a.pass_group > kMaxPassGroup)
    throw_invalid("pass_group",
                  "-2 (for the grid), -1 (the environment), 0 (off) or a pass count 1.." + std::to_string(kMaxPassGroup),
                  std::to_string(a.pass_group));
  // MEGAMOE_BF16_LARGE_TMA_PASS_GROUP: pass groups for A/B measurements (read once per process; 1, the
  // default: auto_pass_group of the grid -- session 52 on the H200: mixtral-8x7b T = 16384 / 32768
  // 1.07x / 1.14x with both GEMMs on this kernel, the experts of at most 7 passes unchanged; 0: every
  // pass of an expert together; a larger value: that many passes; outside 0..kMaxPassGroup: 0).
  static const int env_group = [] {
    const int64_t v = env_int("MEGAMOE_BF16_LARGE_TMA_PASS_GROUP", 1);
    return v == 1 ? kPassGroupAuto : v >= 2 && v <= kMaxPassGroup ? int(v) : 0;
  }();
  const int pgroup = a.pass_group == -1 ? env_group : a.pass_group;  // kPassGroupAuto: the launch picks
  const cudaError_t e = act ? launch_act(a, rows_bound, mode, pgroup, stores, sched, early, stream)
                            : launch_plain(a, rows_bound, mode, pgroup, stores, sched, early, stream);
  cu::check(who, e, "bf16 large GEMM launch");
}

}  // namespace megamoe::sm90::bf16_large
