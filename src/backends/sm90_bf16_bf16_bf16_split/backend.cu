// sm90_bf16_bf16_bf16_split: bf16 weights and activations on Hopper, split path.
//
//   route plan (routing/route_plan.cu)        ids -> counts, offsets, row <-> (t, k) maps
//   permute (kernels/sm90/moe/permute.cu)         x -> x_perm [rows, H] bf16, expert order
//   FC1 grouped GEMM (grouped_gemm_bf16.h)    x_perm . W13[e]^T + b13 -> act -> a [rows, I] bf16,
//                                             the activation in the GEMM's epilogue (act_epilogue.cuh)
//   FC2 grouped GEMM                          a . W2[e]^T -> y [rows, H] fp32 (bf16, see below)
//   (tactic split_tma_small: both GEMMs on our own small kernel, grouped_gemm_bf16_small_tma.h,
//   with the same epilogues; fp32 y. Tactic split_large_tma: both on our own large kernel,
//   grouped_gemm_bf16_large_tma.h, bf16 y as the large tile writes it; split_large_tma_fc1 / _fc2:
//   that GEMM on it, the other on CUTLASS's large tile)
//   combine (kernels/sm90/moe/combine.cu)         y + b2 -> bf16 -> fixed-order weighted sum -> out
//
// W13 is stored gate/up interleaved in groups of 8 rows (kernels/sm90/common/gate_up_layout.h; the
// Mega kernel reads the same buffer), so each epilogue thread holds both halves of its outputs.
// Launch structure (defaults; each can be switched off for A/B measurements, see Knobs):
//   - fused activation: FC1's epilogue applies the activation and writes bf16 a; no fp32 h goes
//     through memory (MEGAMOE_SPLIT_FUSED_ACT=0: FC1 writes fp32 h in the interleaved order and
//     the activation kernel reads it, the pipeline before the fusion);
//   - fused setup: the route plan's last kernel also writes both GEMMs' per-expert argument
//     arrays (problem shapes, pointers, strides), so the GEMMs need no setup kernels (6 launches
//     per forward instead of 8);
//   - PDL: permute, activation and combine are launched with programmatic dependent launch and
//     begin with griddepcontrol.wait (their launch overlaps the previous kernel's tail); the
//     GEMMs are not (measured slower at large T when launched early), but let their successor
//     launch early (griddepcontrol.launch_dependents after their own wait);
//   - bf16 y: with the large-tile FC2 and no b2, the FC2 epilogue writes y = bf16(acc) (the
//     same bits combine would round fp32 y to) and combine reads bf16 y (Sm90BackendBase::
//     fc2_bf16_y, shared with the fp8_block and W4A16 split paths; MEGAMOE_SPLIT_BF16_Y=0);
//   - plan permute (off by default): the single-block plan kernel can gather x itself for small
//     T; measured slower than the permute kernel (qwen3 T=8: 0.174 vs 0.157 ms).
// Measured on H200 (ncu, qwen3-30b-a3b T=1, kernels in isolation): plan 7.5 us, permute 2.9,
// FC1 23.9, activation 3.3, FC2 14.5, combine 6.6 (before its loads were batched): the small-T
// time sits inside the kernels (mostly the two GEMMs' fixed cost), not in launch gaps.
// Shared with every sm90 backend (sm90_common/sm90_backend_base.h): dimensions, device guard,
// workspace, weight upload and its synchronisation, the forward prologue, the invalid-id word.
// Workspace (sm90_backend::SplitWorkspace: one device allocation, sized at construction; every
// buffer 256-byte aligned):
//   cap  = bucket_capacity(max_tokens)            (next power of two)
//   R    = cap * K                                (routed rows at most)
//   plan = route_plan_workspace_bytes(cap, K, E_local)
//        = al(4 E_local) + al(4 (E_local+1)) + 3 al(4 R) + al(4 E_local ceil(R/256)) + al(8)
//   region = max(al(2 R H), al(4 R H))             x_perm [R,H] bf16 (+ h [R,N13] fp32 only with
//            MEGAMOE_SPLIT_FUSED_ACT=0); y [R,H] fp32 (or bf16) aliases the start of the region
//            (x_perm is dead once FC2 runs)
//   a    = al(2 R I)                               a [R,I] bf16
//   workspace_bytes() = plan + region + a + FC1 GEMM workspace + FC2 GEMM workspace + 32 bytes of
//   tile counters (our large kernel's dynamic order; a separate allocation the backend holds)
// (al(n) = n rounded up to 256.) deepseek-v3 (H 7168, I 2048, E 256, K 8) at max_tokens 8192:
// region = 1.88e9 (fp32 y; 2.01e9 with h), a = 0.27e9 -> about 2.0 GiB plus the GEMMs' small workspaces.
#include <cuda_runtime.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "backends/sm90_bf16_bf16_bf16_split/split_bf16.h"
#include "backends/sm90_common/requirements.h"
#include "backends/sm90_common/sm90_backend_base.h"
#include "core/backend.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_small_tma.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "routing/route_plan.h"

namespace megamoe {

namespace sm90_backend {

SplitBf16Knobs SplitBf16Knobs::from_env() {
  SplitBf16Knobs k;
  k.pdl = env_int("MEGAMOE_PDL", 1) != 0;
  k.gemm_pdl = env_int("MEGAMOE_SPLIT_GEMM_PDL", 0) != 0;
  k.gemm_early_trigger = env_int("MEGAMOE_SPLIT_GEMM_EARLY_TRIGGER", 1) != 0;
  k.fused_setup = env_int("MEGAMOE_SPLIT_FUSED_SETUP", 1) != 0;
  k.plan_permute_bytes = env_int("MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES", k.plan_permute_bytes);
  k.fused_act = env_int("MEGAMOE_SPLIT_FUSED_ACT", 1) != 0;
  return k;
}

Sm90SplitBf16::Sm90SplitBf16(const char* name, const MoeConfig& c) : Sm90SplitBf16(name, c, SplitBf16Knobs::from_env()) {}

// The workspace holds fp32 h only for the unfused pipeline.
Sm90SplitBf16::Sm90SplitBf16(const char* name, const MoeConfig& c, const SplitBf16Knobs& knobs)
  : Sm90BackendBase(name, c, SplitActivations{2, 0, /*fp32_h=*/!knobs.fused_act}),
    w13_(name, c.device),
    w2_(name, c.device),
    tile_counters_(name, c.device),
    knobs_(knobs) {
  tile_counters_.allocate_zeroed(8 * sizeof(int), "large GEMM tile counters");
  fc1_ = std::make_unique<sm90::GroupedGemmBf16>(int(EL_), N13_, H_, c.device);
  fc2_ = std::make_unique<sm90::GroupedGemmBf16>(int(EL_), H_, I_, c.device);
  act_.gate_up_interleaved = act_.activation != Activation::kReLU2;
}

size_t Sm90SplitBf16::workspace_bytes() const {
  return Sm90BackendBase::workspace_bytes() + fc1_->workspace_bytes() + fc2_->workspace_bytes() + tile_counters_.bytes;
}
size_t Sm90SplitBf16::weight_bytes() const { return w13_.bytes + w2_.bytes + bias_bytes(); }

void Sm90SplitBf16::upload_weights(const MoeWeights& w) {
  if (act_.gate_up_interleaved)
    upload_gate_up_interleaved(w.w13, w13_, "w13");
  else
    upload_tensor(w.w13, w13_, "w13");
  upload_tensor(w.w2, w2_, "w2");
  // The activation epilogue's per-layer values (b13 is uploaded by now): host-side kernel
  // parameters, set once here instead of in every forward.
  if (knobs_.fused_act) fc1_->set_activation({act_.activation, act_.limit, act_.alpha, b13()});
}

sm90::GroupedGemmTactic Sm90SplitBf16::split_gemm_tactic(int64_t T) const {
  const std::string& r = requested_tactic(T);
  if (r == kSwapAB) return sm90::GroupedGemmTactic::kSwapAB;
  if (r == kLargeTile || r == kLargeTmaFc1 || r == kLargeTmaFc2) return sm90::GroupedGemmTactic::kLargeTile;
  return sm90::choose_tactic(T * K_, int(EL_));
}

void Sm90SplitBf16::run_stages(const ForwardArgs& args, const ForwardContext& f) {
  const int64_t T = f.T, ldx = f.ldx, rows_bound = f.rows_bound;
  const cudaStream_t stream = f.stream;
  // The kernel of each GEMM: CUTLASS's `tactic`, or ours (no per-expert CUTLASS arguments):
  // split_tma_small both on the small kernel (fp32 y), split_large_tma both on the large one,
  // split_large_tma_fc1 / _fc2 that GEMM on the large kernel and the other on CUTLASS's large tile.
  const sm90::GroupedGemmTactic tactic = split_gemm_tactic(T);
  const GemmKernel k1 = gemm_kernel(T, 1), k2 = gemm_kernel(T, 2);
  // y as bf16 straight from the FC2 epilogue when no bias must be added first.
  const bool y_bf16 =
      fc2_bf16_y(k2 == GemmKernel::kLarge || (k2 == GemmKernel::kCutlass && tactic == sm90::GroupedGemmTactic::kLargeTile));
  const auto out2 = y_bf16 ? sm90::GroupedGemmOutput::kBF16 : sm90::GroupedGemmOutput::kF32;
  // PDL on created streams only (the legacy/per-thread default streams keep plain ordering).
  const bool pdl = knobs_.pdl && f.created_stream;
  // FC1 writes a (the activation in its epilogue, set in upload_weights) or fp32 h for the
  // activation kernel.
  const bool fused_act = knobs_.fused_act;
  const auto out1 = fused_act ? sm90::GroupedGemmOutput::kAct : sm90::GroupedGemmOutput::kF32;
  void* const d1 = fused_act ? sw_.a : static_cast<void*>(sw_.h);
  const int64_t ld1 = fused_act ? I_ : N13_;
  routing::PlanExtras ex;
  ex.pdl_first = pdl;
  ex.permute = routing::plan_permute_within(args.x.data, ldx, H_, sw_.x_perm, rows_bound, knobs_.plan_permute_bytes);
  if (knobs_.fused_setup && k1 == GemmKernel::kCutlass)
    ex.gemm[0] = fc1_->prepare_writes(sw_.x_perm, H_, w13_.ptr, d1, ld1, rows_bound, tactic, out1);
  if (knobs_.fused_setup && k2 == GemmKernel::kCutlass)
    ex.gemm[1] = fc2_->prepare_writes(sw_.a, I_, w2_.ptr, sw_.y, H_, rows_bound, tactic, out2);
  routing::build_route_plan_gpu(args.topk_ids, f.dims, sw_.plan, ex, stream);
  if (ex.permute.x == nullptr)
    sm90::launch_permute(args.x.data, ldx, T, K_, H_, sw_.plan.route_to_row, sw_.x_perm, stream, pdl);
  // Our kernels: D [rows, ldd] = A [rows, K] . W[e]^T per expert (a with the activation; bf16 D for
  // the large kernel's FC2 when y_bf16).
  const auto our_gemm = [&](int which, GemmKernel k, const void* A, const void* W, void* D, int64_t ldd, int64_t N, int64_t K,
                            bool act, bool bf16_out) {
    sm90::Bf16GemmOperands ops;  // what both kernels' arguments share
    ops.A = A;
    ops.lda = K;
    ops.W = W;
    ops.D = D;
    ops.ldd = ldd;
    ops.offsets = sw_.plan.offsets;
    ops.num_groups = int(EL_);
    ops.N = N;
    ops.K = K;
    if (act) ops.act = {act_.activation, act_.limit, act_.alpha, b13()};
    if (k == GemmKernel::kLarge) {
      sm90::bf16_large::Bf16LargeTmaArgs g;
      static_cast<sm90::Bf16GemmOperands&>(g) = ops;
      g.out = act ? sm90::bf16_large::LargeTmaOut::kAct
                  : (bf16_out ? sm90::bf16_large::LargeTmaOut::kBf16 : sm90::bf16_large::LargeTmaOut::kF32);
      g.tile_counter = static_cast<int*>(tile_counters_.ptr) + 4 * (which - 1);
      sm90::bf16_large::launch_bf16_large_tma(g, rows_bound, stream);
    } else {
      sm90::bf16_small::Bf16SmallTmaArgs g;
      static_cast<sm90::Bf16GemmOperands&>(g) = ops;
      g.act_out = act;
      sm90::bf16_small::launch_bf16_small_tma(g, rows_bound, stream);
    }
  };
  if (k1 != GemmKernel::kCutlass)
    our_gemm(1, k1, sw_.x_perm, w13_.ptr, d1, ld1, N13_, H_, fused_act, false);
  else if (knobs_.fused_setup)
    fc1_->launch_prepared(rows_bound, tactic, out1, stream, pdl && knobs_.gemm_pdl, knobs_.gemm_early_trigger);
  else if (fused_act)
    fc1_->run_act(sw_.x_perm, H_, w13_.ptr, sw_.a, I_, sw_.plan.offsets, rows_bound, stream, tactic);
  else
    fc1_->run(sw_.x_perm, H_, w13_.ptr, sw_.h, N13_, sw_.plan.offsets, rows_bound, stream, tactic);
  if (!fused_act)
    sm90::launch_activation(sw_.h, b13(), sw_.plan.row_expert, sw_.plan.offsets + EL_, rows_bound, I_, act_, sw_.a,
                            stream, pdl);
  if (k2 != GemmKernel::kCutlass)
    our_gemm(2, k2, sw_.a, w2_.ptr, sw_.y, H_, H_, I_, false, y_bf16);
  else if (knobs_.fused_setup)
    fc2_->launch_prepared(rows_bound, tactic, out2, stream, pdl && knobs_.gemm_pdl, knobs_.gemm_early_trigger);
  else if (y_bf16)
    fc2_->run_bf16_out(sw_.a, I_, w2_.ptr, sw_.y, H_, sw_.plan.offsets, rows_bound, stream);
  else
    fc2_->run(sw_.a, I_, w2_.ptr, static_cast<float*>(sw_.y), H_, sw_.plan.offsets, rows_bound, stream, tactic);
  combine_or_route_rows(args, f, sw_.y, y_bf16, pdl);
}

}  // namespace sm90_backend

namespace {

constexpr const char* kName = "sm90_bf16_bf16_bf16_split";

class Sm90SplitBf16Backend final : public sm90_backend::Sm90SplitBf16 {
 public:
  explicit Sm90SplitBf16Backend(const MoeConfig& c) : Sm90SplitBf16(kName, c) {}
  // The Mega backend runs this pipeline above its kernel's sizes: its tune times these tactics.
  std::string tactic_table_donor() const override { return "sm90_bf16_bf16_bf16_mega"; }
};

std::string why_not(const MoeConfig& c) { return sm90_backend::split_why_not(c, Recipe::kBF16, 64, ""); }

}  // namespace

BackendInfo sm90_bf16_bf16_bf16_split_backend_info() { return sm90_backend::backend_info<Sm90SplitBf16Backend>(kName, why_not); }

}  // namespace megamoe
