// sm90_bf16_bf16_bf16_mega: bf16 weights and activations on Hopper; the one-launch Mega path at
// decode sizes, the split pipeline above them, both on ONE copy of the prepared weights.
//
// Which path runs (decided on the host per forward, from host-known values only):
//   Mega kernel (kernels/sm90/mega/mega_bf16.h), one launch, when ALL of
//     - T <= sm90::mega::kMaxTokens (64: one 64-row unit per expert, each weight byte streamed
//       once) and T * top_k <= MEGAMOE_MEGA_MAX_ROUTES (default and maximum
//       sm90::mega::kMaxRoutes = 512: the route plan lives in every CTA's shared memory);
//     - E_local <= sm90::mega::kMaxExperts (512);
//     - x is 16-byte aligned with a row stride that is a multiple of 8 elements, out 16-byte
//       aligned (the kernel gathers x rows with 16-byte cp.async);
//     - MEGAMOE_MEGA is not 0 (knob for A/B measurements).
//   Otherwise the split pipeline of sm90_bf16_bf16_bf16_split with its default knobs (route plan
//   with fused GEMM setup, permute, FC1 grouped GEMM, activation, FC2 grouped GEMM, combine; PDL
//   on created streams; bf16 y from the large-tile FC2 without b2): the same kernels and
//   arguments, so it computes the same bits as that backend.
// An expert with more than 64 routed rows is not a reason to leave the Mega path: the kernel
// cuts it into 64-row units (see mega_bf16.cu).
//
// Weights: canonical W13 [E_local, N13, H] and W2 [E_local, H, I] bf16, contiguous, exactly as
// the split backend stores them (the GEMMs and the Mega kernel read the same buffers; the
// kernel takes gate rows [0, I) and up rows [I, 2I) of W13 as two row ranges); biases as fp32
// by the shared base (sm90_common/sm90_backend_base.h).
// The split stages below repeat sm90_bf16_bf16_bf16_split's run_stages() at its default knobs
// (that class is private to its file); a shared helper there would remove the copy.
//
// Workspace: the base's SplitWorkspace (split path; its route plan's invalid-id word is the one
// the Mega kernel adds to, so invalid_id_count() covers both paths) plus the Mega workspace
// (sm90::mega::workspace_bytes: a [512, I] and y [512, H] bf16, 2 x 4 x grid split-K partial
// slots of 32 KiB, counters), zeroed once at construction; the kernel leaves its counters at zero
// after every launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>

#include "backends/sm90_common/requirements.h"
#include "backends/sm90_common/sm90_backend_base.h"
#include "core/backend.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16.h"
#include "kernels/sm90/mega/mega_bf16.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "routing/route_plan.h"

namespace megamoe {

namespace {

constexpr const char* kName = "sm90_bf16_bf16_bf16_mega";

int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v, &end, 0);
  return (end && *end == '\0') ? int64_t(x) : fallback;
}

class Sm90MegaBf16 final : public sm90_backend::Sm90BackendBase {
 public:
  explicit Sm90MegaBf16(const MoeConfig& c)
      : Sm90BackendBase(kName, c), w13_(kName, c.device), w2_(kName, c.device), mega_buf_(kName, c.device) {
    fc1_ = std::make_unique<sm90::GroupedGemmBf16>(int(EL_), N13_, H_, c.device);
    fc2_ = std::make_unique<sm90::GroupedGemmBf16>(int(EL_), H_, I_, c.device);
    mega_on_ = env_int("MEGAMOE_MEGA", 1) != 0;
    max_routes_ = std::min<int64_t>(env_int("MEGAMOE_MEGA_MAX_ROUTES", sm90::mega::kMaxRoutes), sm90::mega::kMaxRoutes);
    pdl_ = env_int("MEGAMOE_PDL", 1) != 0;
    if (mega_on_ && EL_ <= sm90::mega::kMaxExperts) {
      auto g = guard();
      grid_ = sm90::mega::persistent_grid();
      const int slots = sm90::mega::partial_slots(grid_);
      mega_buf_.allocate(sm90::mega::workspace_bytes(H_, I_, slots), "mega workspace");
      check(cudaMemset(mega_buf_.ptr, 0, mega_buf_.bytes), "mega workspace init");
      mega_ws_ = sm90::mega::carve_workspace(mega_buf_.ptr, H_, I_, slots);
    }
  }

  size_t workspace_bytes() const override {
    return Sm90BackendBase::workspace_bytes() + fc1_->workspace_bytes() + fc2_->workspace_bytes() + mega_buf_.bytes;
  }
  size_t weight_bytes() const override { return w13_.bytes + w2_.bytes + bias_bytes(); }

 private:
  void upload_weights(const MoeWeights& w) override {
    upload_tensor(w.w13, w13_, "w13");
    upload_tensor(w.w2, w2_, "w2");
  }

  bool use_mega(const ForwardArgs& args, const ForwardContext& f) const {
    return grid_ > 0 && f.T <= sm90::mega::kMaxTokens && f.rows_bound <= max_routes_ && cu::aligned(args.x.data, 16) && f.ldx % 8 == 0 &&
           cu::aligned(args.out.data, 16);
  }

  void run_stages(const ForwardArgs& args, const ForwardContext& f) override {
    if (use_mega(args, f))
      run_mega(args, f);
    else
      run_split(args, f);
  }

  void run_mega(const ForwardArgs& args, const ForwardContext& f) {
    sm90::mega::MegaArgs m;
    m.x = args.x.data;
    m.ldx = f.ldx;
    m.ids = args.topk_ids.data;
    m.ids_i64 = args.topk_ids.dtype == DType::kI64;
    m.topk_weights = args.topk_weights.ptr<const float>();
    m.out = args.out.data;
    m.w13 = w13_.ptr;
    m.w2 = w2_.ptr;
    m.b13 = b13();
    m.b2 = b2();
    m.invalid_count = sw_.plan.invalid_count;
    m.T = f.T;
    m.K = K_;
    m.E = c_.num_experts;
    m.first_local = c_.first_local_expert();
    m.EL = EL_;
    m.H = H_;
    m.I = I_;
    m.activation = act_.activation;
    m.limit = act_.limit;
    m.alpha = act_.alpha;
    sm90::mega::launch(m, mega_ws_, grid_, f.stream);
  }

  // sm90_bf16_bf16_bf16_split's stages at its default knobs (see the header comment).
  void run_split(const ForwardArgs& args, const ForwardContext& f) {
    const int64_t T = f.T, rows_bound = f.rows_bound;
    const cudaStream_t stream = f.stream;
    const sm90::GroupedGemmTactic tactic = sm90::choose_tactic(rows_bound, int(EL_));
    const bool y_bf16 = !has_b2_ && tactic == sm90::GroupedGemmTactic::kLargeTile;
    const auto out2 = y_bf16 ? sm90::GroupedGemmOutput::kBF16 : sm90::GroupedGemmOutput::kF32;
    const bool pdl = pdl_ && f.created_stream;
    routing::PlanExtras ex;
    ex.pdl_first = pdl;
    ex.gemm[0] = fc1_->prepare_writes(sw_.x_perm, H_, w13_.ptr, sw_.h, N13_, rows_bound, tactic,
                                      sm90::GroupedGemmOutput::kF32);
    ex.gemm[1] = fc2_->prepare_writes(sw_.a, I_, w2_.ptr, sw_.y, H_, rows_bound, tactic, out2);
    routing::build_route_plan_gpu(args.topk_ids, f.dims, sw_.plan, ex, stream);
    sm90::launch_permute(args.x.data, f.ldx, T, K_, H_, sw_.plan.route_to_row, sw_.x_perm, stream, pdl);
    fc1_->launch_prepared(rows_bound, tactic, sm90::GroupedGemmOutput::kF32, stream, false, true);
    sm90::launch_activation(sw_.h, b13(), sw_.plan.row_expert, sw_.plan.offsets + EL_, rows_bound, I_, act_, sw_.a,
                            stream, pdl);
    fc2_->launch_prepared(rows_bound, tactic, out2, stream, false, true);
    if (y_bf16)
      sm90::launch_combine_bf16y(sw_.y, sw_.plan.route_to_row, args.topk_weights.ptr<const float>(), T, K_, H_,
                                 args.out.data, stream, pdl);
    else
      sm90::launch_combine(static_cast<const float*>(sw_.y), b2(), sw_.plan.row_expert, sw_.plan.route_to_row,
                           args.topk_weights.ptr<const float>(), T, K_, H_, args.out.data, stream, pdl);
  }

  sm90_backend::DeviceBuffer w13_, w2_, mega_buf_;
  std::unique_ptr<sm90::GroupedGemmBf16> fc1_, fc2_;
  sm90::mega::MegaWorkspace mega_ws_;
  int grid_ = 0;  // 0: the Mega path is off for this layer
  int64_t max_routes_ = 0;
  bool mega_on_ = true, pdl_ = true;
};

// The split backend's requirements (the fallback runs its pipeline); the Mega path's own limits
// only decide which path runs.
std::string why_not(const MoeConfig& c) { return sm90_backend::split_why_not(c, Recipe::kBF16, 64, ""); }

}  // namespace

BackendInfo sm90_bf16_bf16_bf16_mega_backend_info() { return sm90_backend::backend_info<Sm90MegaBf16>(kName, why_not); }

}  // namespace megamoe
