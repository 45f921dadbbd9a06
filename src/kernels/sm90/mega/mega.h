// The Mega kernel at decode sizes: one persistent launch does the whole MoE block (route plan ->
// gathered x -> FC1 + activation -> FC2 -> fixed-order combine), computing exactly the function
// of docs/DESIGN.md section 1, for bf16 weights, for W4A16 (mxfp4 / nvfp4 packed weights,
// decoded to bf16 in registers) and for fp8_block (e4m3 weights with 128x128 block scales,
// activations quantized to e4m3 1x128 in the kernel, FP8 MMAs with per-128-K promotion).
// Design, budgets and every magic number: the comment block at the top of mega_kernel.cuh.
// Files: mega_kernel.cuh (the kernel, templated on the weight format), mega_bf16.cu,
// mega_w4a16.cu and mega_fp8.cu (its instantiations, built in parallel), mega_host.cu
// (workspace, TMA descriptors, checks and launch).
//
// Limits of this kernel (the backend runs the split pipeline outside them):
//   T * K <= kMaxRoutes routes, E_local <= kMaxExperts, H and I multiples of 64,
//   x rows 16-byte aligned (x pointer and row stride), out 16-byte aligned and contiguous.
// Asynchronous, allocates nothing, never synchronises with the host, graph-capturable; the
// counters in the workspace return to zero at the end of every launch (the last CTA resets
// them), so replays need no host work. One workspace must not be used by two launches at once.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "kernels/sm90/ep/exchange.h"
#include "megamoe/config.h"

namespace megamoe::sm90::mega {

// How the weights are stored (each format is one instantiation of the kernel):
//   kBf16   bf16 W13 [E_local, N13, H] (gated: gate/up interleaved in groups of 8 rows,
//           common/gate_up_layout.h, as the split backend stores it; relu2: canonical) and
//           canonical W2 [E_local, H, I];
//   kMxfp4 / kNvfp4   the W4A16 split backend's prepared weights (grouped_gemm_w4a16.h):
//           packed e2m1 in fragment order [E_local, N, K/2], scale tiles [E_local, K/64, N, s]
//           (s = 2 e8m0 / 4 e4m3 codes per 64-wide K step), nvfp4's per-expert fp32 alpha;
//   kFp8    fp8_block: canonical e4m3 W13 [E_local, N13, H] and W2 [E_local, H, I] and the fp32
//           scales per 128x128 block in the split backend's MN-major layout
//           [E_local, ceil(K/128), ceil(N/128)] (MegaArgs::wscale13 / wscale2).
enum class WeightFormat : uint8_t { kBf16, kMxfp4, kNvfp4, kFp8 };

constexpr int64_t kMaxRoutes = 512;   // T*K of the mega path (the route plan lives in shared memory)
// T of the mega path: at most 64 tokens. An expert's rows go in units of at most 16 (the kernel's
// tile N, mega_kernel.cuh), and each unit streams the expert's weights, so larger T re-streams
// them: measured on H200 (2026-11-30), mixtral-8x7b (K = 2) at T = 128 / 256 ran 0.88 / 1.51 ms
// on the mega path with 64-row units against 0.73 / 0.77 ms on the split path, and T = 64 0.92
// ms with 16-row units against 0.72. The backends run the kernel at decode sizes only.
constexpr int64_t kMaxTokens = 64;
constexpr int64_t kMaxExperts = 512;  // E_local of the mega path (per-expert cursors in shared memory)

// A dependency that has not arrived after this long (device global timer) is abandoned: the
// waiting CTA adds kTimeoutMark to the invalid-id word and leaves (no hung GPU).
constexpr unsigned long long kTimeoutMark = 1ull << 40;

// Device memory the kernel uses besides the weights (carve_workspace lays it out).
struct MegaWorkspace {
  void* a = nullptr;             // bf16 [kMaxRoutes, I]: activations, plan-row order
  void* y = nullptr;             // bf16 [kMaxRoutes, H]: FC2 outputs (bias added, rounded)
  float* part1 = nullptr;        // fp32 [slots, kPartialFloats]: FC1 split-K partials
  float* part2 = nullptr;        // fp32 [slots, kPartialFloats]: FC2 split-K partials
  int* arrive1 = nullptr;        // [slots] per FC1 tile: splits arrived
  int* arrive2 = nullptr;        // [slots] per FC2 tile
  int* unit_done = nullptr;      // [kMaxRoutes] per unit: FC1 tiles finished
  int* hblock_done = nullptr;    // [hblocks] per 128-row block of H: FC2 tiles finished
  // fp8_block (unused by the other formats; a few MB at most): the activations quantized to e4m3
  // with one fp32 scale per row per 128 columns -- x by token, `a` by plan row; each row holds
  // its codes, then its scales (mega_params.h, fp8_row_bytes) -- and per (unit, 128-column block
  // of `a`) the FC1 tiles that wrote it (the last one quantizes it).
  void* xq = nullptr;            // [kMaxTokens] rows of fp8_row_bytes(H)
  void* aq = nullptr;            // [kMaxRoutes] rows of fp8_row_bytes(I)
  int* ablock_arrive = nullptr;  // [kMaxRoutes, ceil(I/128)]
  unsigned* counters = nullptr;  // [0] work counter, [1] CTAs exited, [2] x blocks quantized (fp8),
                                 // [3] EP pull: CTAs past the receive, [4] EP: return tiles done
  int slots = 0, hblocks = 0;
};

// Bytes of the workspace for a layer (every buffer 256-byte aligned); `slots` =
// partial_slots(grid, split_target) of the launches it serves (MegaArgs::split_target).
size_t workspace_bytes(int64_t H, int64_t I, int slots);
int partial_slots(int grid, int split_target = 0);
constexpr int kMaxSplitTarget = 8;
// Lays the buffers out in `base` (device memory of workspace_bytes bytes, zeroed once before the
// first launch: the counters must start at zero).
MegaWorkspace carve_workspace(void* base, int64_t H, int64_t I, int slots);

// The persistent grid: co-resident CTAs (occupancy x SMs) of the current device for the kernel
// of format `fmt`. Host only; sets the kernel's shared-memory attribute.
int persistent_grid(WeightFormat fmt);

// Expert parallelism inside the kernel (the Mega-EP kernel; protocol in kernels/sm90/ep/exchange.h,
// docs/EP.md). MegaArgs::x / ids / T are then this rank's receive buffer (R * cap rows of the
// window, ids = local slots), and these fields are the rank's own tokens:
//   CTA d < R plans them for owner d and dispatches their rows (dispatch_to_owner); every CTA
//   waits for all sources' dispatch flags and builds its route plan from the rows that
//   arrived (pull: the CTAs first copy them from the sources' send windows, then meet at a
//   grid barrier); FC1 / FC2 as without EP; then per 128 columns a return tile (after that
//   block's FC2 tiles) stores each route's y row where its source reads it (route_y_dst) and
//   releases that block's return flag, the last one also the whole return flag; the combine
//   tile of a block waits for that block's flag of every owner and combines this rank's
//   tokens (combine_one). The epoch is read at entry and
//   advanced by the last CTA, so the same windows serve the split EP kernels on another
//   forward (or on another rank) unchanged.
struct MegaEp {
  bool on = false;
  bool push = true;
  ep::ExchangeParams xp;               // this rank's exchange state and window pointers
  const void* ids = nullptr;           // this rank's topk ids [T, K], int32 or int64
  bool ids_i64 = false;
  const void* x = nullptr;             // bf16 [T, H], row stride ldx (16-byte aligned rows)
  int64_t ldx = 0;
  const float* topk_weights = nullptr;  // [T, K]
  void* out = nullptr;                 // bf16 [T, H], 16-byte aligned
  int64_t T = 0;
  // Benchmarks (`megamoe bench --ep` exchange column): every received row counts as not arrived,
  // so the launch is dispatch, return (of nothing) and combine (of whatever y is in the window).
  bool skip_experts = false;
};
constexpr int kMaxEpRanks = 64;

struct MegaArgs {
  const void* x = nullptr;  // bf16 [T, H], row stride ldx elements
  int64_t ldx = 0;
  const void* ids = nullptr;  // int32/int64 [T, K], contiguous
  bool ids_i64 = false;
  const float* topk_weights = nullptr;  // [T, K] contiguous
  void* out = nullptr;                  // bf16 [T, H] contiguous
  const float* b13 = nullptr;           // fp32 [E_local, N13] or null
  const float* b2 = nullptr;            // fp32 [E_local, H] or null
  const float* alpha13 = nullptr;       // nvfp4: fp32 [E_local] global scales, applied to the
  const float* alpha2 = nullptr;        // accumulators before the bias; null otherwise (= 1)
  const float* wscale13 = nullptr;      // fp8: the weights' block scales, [E_local, ceil(K/128),
  const float* wscale2 = nullptr;       // ceil(N/128)] fp32 (MN-major); null otherwise
  unsigned long long* invalid_count = nullptr;  // the route plan's invalid-id word
  int64_t T = 0, K = 0, E = 0, first_local = 0, EL = 0, H = 0, I = 0;
  Activation activation = Activation::kSwiGLU;
  float limit = 0.0f, alpha = 1.702f;
  // Tuning knobs for A/B measurements (the backend reads MEGAMOE_MEGA_STAGES /
  // MEGAMOE_MEGA_EARLY): ring depth (0: by the launch's widest unit, else clamped to what fits)
  // and whether a tile's activations may be loaded with the previous tile's steps.
  int stages = 0;
  bool early_acts = true;
  int min_split_steps = 0;  // MEGAMOE_MEGA_MIN_SPLIT_STEPS: 0 = the kernel's default
  // MEGAMOE_MEGA_SPLIT_TARGET: split K until a phase has this many tiles per CTA (0 = the
  // kernel's default, 2; at most kMaxSplitTarget; the workspace's slots must cover it).
  int split_target = 0;
  // MEGAMOE_MEGA_SPLIT_ROUNDS: of the splits allowed, take the one with the fewest rounds x steps
  // (mega_kernel.cuh, choose_splits) instead of the most.
  bool split_rounds = false;
  // MEGAMOE_MEGA_WAIT_TIMEOUT_MS: how long a CTA waits for a dependency (another CTA's tile)
  // before it reports a timeout instead of hanging (0 = the kernel's default, kTimeoutNs = 1 s).
  // Tools that slow the kernel 100x or more (compute-sanitizer racecheck) need a longer bound.
  unsigned long long wait_timeout_ns = 0;
  // Optional timeline (MEGAMOE_MEGA_TRACE): when non-null, thread 0 of each CTA writes
  // kTraceWords u64 at trace + cta * kTraceWords: [0] entry time, [1] plan built, (EP) [2] rows
  // received and [3] exit, then per work item (at most kTraceItems) {item << 8 | kind, claimed,
  // first step ready, finished} in
  // %globaltimer nanoseconds. For finding where a launch's time goes; off by default.
  unsigned long long* trace = nullptr;
  MegaEp ep;  // expert parallelism inside the kernel (off: the one-GPU kernel)
};
constexpr int kTraceItems = 63;
constexpr int kTraceWords = 4 + 4 * kTraceItems;

// The weights as TMA descriptors (CUtensorMap, opaque here), encoded on the host (no device
// work) once per prepared weights, then handed to every launch; the encoders throw
// InvalidArgument for a misaligned buffer, CudaError when the driver cannot encode them.
struct WeightMaps {
  alignas(128) unsigned char tm13[128];  // W13 (bf16 elements or packed bytes)
  alignas(128) unsigned char tm2[128];   // W2
  alignas(128) unsigned char ts13[128];  // W4A16: W13's scale tiles (unused for bf16)
  alignas(128) unsigned char ts2[128];   // W4A16: W2's scale tiles
  WeightFormat format = WeightFormat::kBf16;
};
// bf16: W13 [E_local, N13, H] and W2 [E_local, H, I], contiguous and 16-byte aligned.
WeightMaps encode_weight_maps(const void* w13, const void* w2, int64_t EL, int64_t H, int64_t I, Activation act);
// fp8_block: e4m3 W13 [E_local, N13, H] and W2 [E_local, H, I] bytes, contiguous, 16-byte aligned
// (the scales go to the kernel as MegaArgs::wscale13 / wscale2).
WeightMaps encode_fp8_weight_maps(const void* w13, const void* w2, int64_t EL, int64_t H, int64_t I, Activation act);
// W4A16 (fmt kMxfp4 or kNvfp4): packed W13 [E_local, N13, H/2] and W2 [E_local, H, I/2] bytes in
// fragment order, and their scale tiles (grouped_gemm_w4a16.h), contiguous, 16-byte aligned.
WeightMaps encode_fp4_weight_maps(WeightFormat fmt, const void* w13, const void* s13, const void* w2, const void* s2,
                                  int64_t EL, int64_t H, int64_t I, Activation act);

// Checks the limits above (throws InvalidArgument) and launches `grid` CTAs of the kernel of
// maps.format on `stream` (grid: persistent_grid(maps.format)).
void launch(const MegaArgs& args, const WeightMaps& maps, const MegaWorkspace& ws, int grid, cudaStream_t stream);

}  // namespace megamoe::sm90::mega
