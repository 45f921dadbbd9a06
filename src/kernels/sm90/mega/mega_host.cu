// The Mega kernel's host side (mega.h): workspace layout, TMA descriptors of the weights,
// argument checks and the launch of the format's instantiation (mega_bf16.cu, mega_w4a16.cu,
// mega_fp8.cu).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstring>
#include <string>

#include "core/workspace_carver.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"
#include "kernels/sm90/mega/mega_params.h"
#include "megamoe/errors.h"

namespace megamoe::sm90::mega {

namespace {
constexpr int kBoxK = 64;             // bf16: K elements per TMA box (128 bytes); H, I multiples of it
constexpr int kPackedStepBytes = 128;  // W4A16: a row's packed codes of one step (256 K)
constexpr int kSubStepsPerStep = 4;    // W4A16: 64-wide K sub-steps (scale-tile rows) per step
}  // namespace

int partial_slots(int grid, int split_target) {  // tiles * S < 2 * target * grid
  return 2 * (split_target > 0 ? split_target : kSplitTarget) * grid;
}

namespace {
// The one layout of the workspace: sizes it when the carver only counts, else points into it.
MegaWorkspace lay_out(WorkspaceCarver& w, int64_t H, int64_t I, int slots) {
  MegaWorkspace ws;
  ws.slots = slots;
  ws.hblocks = int((H + kTileM - 1) / kTileM);
  ws.a = w.take(2 * size_t(kMaxRoutes) * I);
  ws.y = w.take(2 * size_t(kMaxRoutes) * H);
  ws.part1 = w.take<float>(sizeof(float) * size_t(slots) * kPartialFloats);
  ws.part2 = w.take<float>(sizeof(float) * size_t(slots) * kPartialFloats);
  ws.arrive1 = w.take<int>(sizeof(int) * size_t(slots));
  ws.arrive2 = w.take<int>(sizeof(int) * size_t(slots));
  ws.unit_done = w.take<int>(sizeof(int) * size_t(kMaxRoutes));
  ws.hblock_done = w.take<int>(sizeof(int) * size_t(ws.hblocks));
  const int64_t IB = (I + 127) / 128;  // fp8_block's 128-column blocks of `a`
  ws.xq = w.take(size_t(kMaxTokens) * size_t(fp8_row_bytes(H)));
  ws.aq = w.take(size_t(kMaxRoutes) * size_t(fp8_row_bytes(I)));
  ws.ablock_arrive = w.take<int>(sizeof(int) * size_t(kMaxRoutes) * IB);
  ws.counters = w.take<unsigned>(5 * sizeof(unsigned));
  return ws;
}
}  // namespace

size_t workspace_bytes(int64_t H, int64_t I, int slots) {
  WorkspaceCarver count;
  lay_out(count, H, I, slots);
  return count.bytes();
}

MegaWorkspace carve_workspace(void* base, int64_t H, int64_t I, int slots) {
  WorkspaceCarver w(base);
  return lay_out(w, H, I, slots);
}

static_assert(sizeof(CUtensorMap) == sizeof(WeightMaps::tm13) && alignof(CUtensorMap) <= alignof(WeightMaps),
              "WeightMaps holds CUtensorMap");

namespace {
// Weight descriptors are encoded once per prepared weights, not per forward.
CUtensorMap encode(const void* base, CUtensorMapDataType type, int rank, const cuuint64_t* dims,
                   const cuuint64_t* strides, const cuuint32_t* box, CUtensorMapSwizzle swizzle, const char* what) {
  return cu::encode_tensor_map(base, type, rank, dims, strides, box, swizzle, "mega", what);
}

// A 3-D tensor [outer, rows, inner] (contiguous, `elem` bytes per element), boxes of box_inner x
// box_rows x 1.
CUtensorMap tensor_map(const void* base, CUtensorMapDataType type, int64_t elem, int64_t inner, int64_t rows,
                       int64_t outer, int box_inner, int box_rows, CUtensorMapSwizzle swizzle, const char* what) {
  const cuuint64_t dims[3] = {cuuint64_t(inner), cuuint64_t(rows), cuuint64_t(outer)};
  const cuuint64_t strides[2] = {cuuint64_t(inner * elem), cuuint64_t(rows * inner * elem)};
  const cuuint32_t box[3] = {cuuint32_t(box_inner), cuuint32_t(box_rows), 1};
  return encode(base, type, 3, dims, strides, box, swizzle, what);
}

// A gated bf16 W13 [E_local, 2I, K] in the gate/up interleaved row order (common/gate_up_layout.h)
// as 4-D (K, 8 rows, gate / up, E_local * I / 8 groups of 16 rows; experts are whole groups, so
// they flatten into the group index): a box of 64 K x 8 rows x 1 x 8 groups is 64 gate (or up)
// rows of one tile half, landing in shared memory exactly as the canonical 64-row box did.
CUtensorMap gate_up_map(const void* base, int64_t K, int64_t I, int64_t EL, int box_inner, const char* what) {
  constexpr int64_t g = gate_up::kGroup, elem = 2;
  const cuuint64_t dims[4] = {cuuint64_t(K), cuuint64_t(g), 2, cuuint64_t(EL * (I / g))};
  const cuuint64_t strides[3] = {cuuint64_t(K * elem), cuuint64_t(g * K * elem), cuuint64_t(2 * g * K * elem)};
  const cuuint32_t box[4] = {cuuint32_t(box_inner), cuuint32_t(g), 1, cuuint32_t(kHalfM / g)};
  return encode(base, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_128B, what);
}

// bf16 / e4m3 weights [E_local, N, K]: boxes of 64 rows x 128 bytes (64 bf16 or 128 e4m3: one
// step) with the 128-byte swizzle the kernel's ldmatrix addressing assumes.
WeightMaps row_major_maps(WeightFormat fmt, const void* w13, const void* w2, int64_t EL, int64_t H, int64_t I,
                          Activation act) {
  const bool e4m3 = fmt == WeightFormat::kFp8;
  const int64_t elem = e4m3 ? 1 : 2;
  auto map = [&](const void* w, int64_t K, int64_t N, const char* what) {
    return tensor_map(w, e4m3 ? CU_TENSOR_MAP_DATA_TYPE_UINT8 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, elem, K, N, EL,
                      int(2 * kBoxK / elem), kHalfM, CU_TENSOR_MAP_SWIZZLE_128B, what);
  };
  const bool gated = act != Activation::kReLU2;
  // bf16 gated W13 is gate/up interleaved (the split backend's layout); fp8 keeps it canonical.
  const CUtensorMap m13 = gated && !e4m3 ? gate_up_map(w13, H, I, EL, int(2 * kBoxK / elem), "w13")
                                         : map(w13, H, gated ? 2 * I : I, "w13");
  const CUtensorMap m2 = map(w2, I, H, "w2");
  WeightMaps maps;
  std::memcpy(maps.tm13, &m13, sizeof m13);
  std::memcpy(maps.tm2, &m2, sizeof m2);
  maps.format = fmt;
  return maps;
}

}  // namespace

WeightMaps encode_weight_maps(const void* w13, const void* w2, int64_t EL, int64_t H, int64_t I, Activation act) {
  return row_major_maps(WeightFormat::kBf16, w13, w2, EL, H, I, act);
}

WeightMaps encode_fp8_weight_maps(const void* w13, const void* w2, int64_t EL, int64_t H, int64_t I, Activation act) {
  return row_major_maps(WeightFormat::kFp8, w13, w2, EL, H, I, act);
}

WeightMaps encode_fp4_weight_maps(WeightFormat fmt, const void* w13, const void* s13, const void* w2, const void* s2,
                                  int64_t EL, int64_t H, int64_t I, Activation act) {
  if (fmt != WeightFormat::kMxfp4 && fmt != WeightFormat::kNvfp4)
    throw_invalid("fmt", "kMxfp4 or kNvfp4 (encode_fp4_weight_maps)", fmt == WeightFormat::kBf16 ? "kBf16" : "kFp8");
  const int64_t per_row = fp4_scales_per64(fmt == WeightFormat::kMxfp4 ? Fp4Scale::kMxfp4 : Fp4Scale::kNvfp4);
  const int64_t N13 = act != Activation::kReLU2 ? 2 * I : I;
  // Packed codes: boxes of 64 rows x 128 bytes (one step), 128-byte swizzle (mega_kernel.cuh).
  auto packed = [](const void* w, int64_t K, int64_t N, int64_t experts, const char* what) {
    return tensor_map(w, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, K / 2, N, experts, kPackedStepBytes, kHalfM,
                      CU_TENSOR_MAP_SWIZZLE_128B, what);
  };
  // Scale tiles [E, K/64, N, per_row] as {N * per_row, K / 64, E}: boxes of 64 rows' codes x the
  // step's 4 sub-steps.
  auto tiles = [per_row](const void* s, int64_t K, int64_t N, int64_t experts, const char* what) {
    return tensor_map(s, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, N * per_row, K / 64, experts, int(kHalfM * per_row),
                      kSubStepsPerStep, CU_TENSOR_MAP_SWIZZLE_NONE, what);
  };
  const CUtensorMap m13 = packed(w13, H, N13, EL, "w13"), m2 = packed(w2, I, H, EL, "w2");
  const CUtensorMap t13 = tiles(s13, H, N13, EL, "w13_scale"), t2 = tiles(s2, I, H, EL, "w2_scale");
  WeightMaps maps;
  std::memcpy(maps.tm13, &m13, sizeof m13);
  std::memcpy(maps.tm2, &m2, sizeof m2);
  std::memcpy(maps.ts13, &t13, sizeof t13);
  std::memcpy(maps.ts2, &t2, sizeof t2);
  maps.format = fmt;
  return maps;
}

int persistent_grid(WeightFormat fmt) {
  int per_sm = 0;
  switch (fmt) {
    case WeightFormat::kBf16: per_sm = kernel_blocks_per_sm<WeightFormat::kBf16>(); break;
    case WeightFormat::kMxfp4: per_sm = kernel_blocks_per_sm<WeightFormat::kMxfp4>(); break;
    case WeightFormat::kNvfp4: per_sm = kernel_blocks_per_sm<WeightFormat::kNvfp4>(); break;
    case WeightFormat::kFp8: per_sm = kernel_blocks_per_sm<WeightFormat::kFp8>(); break;
  }
  if (per_sm < 1) throw CudaError("mega: the kernel cannot be resident on this device (occupancy 0)");
  return per_sm * cu::current_sm_count();
}

void launch(const MegaArgs& args, const WeightMaps& maps, const MegaWorkspace& ws, int grid, cudaStream_t stream) {
  if (args.T <= 0) return;
  if (args.T * args.K > kMaxRoutes)
    throw_invalid("T * top_k", "at most " + std::to_string(kMaxRoutes) + " (mega kernel)", std::to_string(args.T * args.K));
  if (args.EL < 1 || args.EL > kMaxExperts)
    throw_invalid("local experts", "in [1, " + std::to_string(kMaxExperts) + "] (mega kernel)", std::to_string(args.EL));
  if (args.H % kBoxK != 0 || args.I % kBoxK != 0)
    throw_invalid("hidden_size / intermediate_size", "multiples of 64 (mega kernel)",
                  std::to_string(args.H) + " / " + std::to_string(args.I));
  if (!cu::aligned(args.x, 16) || args.ldx % 8 != 0)
    throw_invalid("x", "16-byte aligned rows (mega kernel)", "misaligned");
  if (args.ep.on) {
    const MegaEp& e = args.ep;
    if (e.xp.R < 1 || e.xp.R > kMaxEpRanks)
      throw_invalid("ep_size", "in [1, " + std::to_string(kMaxEpRanks) + "] (Mega-EP kernel)", std::to_string(e.xp.R));
    if (args.T != int64_t(e.xp.R) * e.xp.cap || args.T > kMaxTokens)
      throw_invalid("T", "the receive buffer's ep_size x capacity rows, at most " + std::to_string(kMaxTokens) +
                             " (Mega-EP kernel)", std::to_string(args.T));
    if (e.T < 0 || e.T > e.xp.cap)
      throw_invalid("x", "at most " + std::to_string(e.xp.cap) + " rows (EP capacity per rank)", std::to_string(e.T));
    if (!cu::aligned(e.x, 16) || e.ldx % 8 != 0)
      throw_invalid("x", "16-byte aligned rows (Mega-EP kernel)", "misaligned");
    if (!cu::aligned(e.out, 16)) throw_invalid("out", "a 16-byte aligned pointer (Mega-EP kernel)", "misaligned");
    if (grid < e.xp.R)  // CTA d < R dispatches to owner d
      throw_invalid("grid", "at least ep_size CTAs (Mega-EP kernel)", std::to_string(grid));
  } else if (!cu::aligned(args.out, 16)) {
    throw_invalid("out", "a 16-byte aligned pointer (mega kernel)", "misaligned");
  }
  if (args.split_target < 0 || args.split_target > kMaxSplitTarget)
    throw_invalid("split_target", "in [0, " + std::to_string(kMaxSplitTarget) + "] (mega kernel)",
                  std::to_string(args.split_target));
  if (grid < 1 || partial_slots(grid, args.split_target) > ws.slots)
    throw_invalid("grid", "at most the workspace's slots / (2 x split target) (mega kernel)", std::to_string(grid));
  if ((args.alpha13 || args.alpha2) && maps.format != WeightFormat::kNvfp4)
    throw_invalid("alpha13 / alpha2", "null unless the weights are nvfp4 (mega kernel)", "a pointer");
  const bool fp8 = maps.format == WeightFormat::kFp8;
  if (fp8 && (args.wscale13 == nullptr || args.wscale2 == nullptr))
    throw_invalid("wscale13 / wscale2", "the fp8 weights' block scales (mega kernel)", "null");
  if (!fp8 && (args.wscale13 || args.wscale2))
    throw_invalid("wscale13 / wscale2", "null unless the weights are fp8 (mega kernel)", "a pointer");
  Params p;
  std::memcpy(&p.tm13, maps.tm13, sizeof p.tm13);
  std::memcpy(&p.tm2, maps.tm2, sizeof p.tm2);
  std::memcpy(&p.ts13, maps.ts13, sizeof p.ts13);
  std::memcpy(&p.ts2, maps.ts2, sizeof p.ts2);
  p.a = args;
  p.ws = ws;
  switch (maps.format) {
    case WeightFormat::kBf16: launch_kernel<WeightFormat::kBf16>(p, grid, stream); break;
    case WeightFormat::kMxfp4: launch_kernel<WeightFormat::kMxfp4>(p, grid, stream); break;
    case WeightFormat::kNvfp4: launch_kernel<WeightFormat::kNvfp4>(p, grid, stream); break;
    case WeightFormat::kFp8: launch_kernel<WeightFormat::kFp8>(p, grid, stream); break;
  }
  cu::check_launch("mega", "mega kernel launch");
}

}  // namespace megamoe::sm90::mega
