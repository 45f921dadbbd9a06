// sm90_bf16_bf16_bf16_mega: bf16 weights and activations on Hopper; the one-launch Mega path at
// decode sizes, the split pipeline above them, both on ONE copy of the prepared weights.
//
// Which path runs (decided on the host per forward, from host-known values only):
//   Mega kernel (kernels/sm90/mega/mega_bf16.h), one launch, when ALL of
//     - the tactic (core/tactics.h: forced, else the tactic cache's entry for T's bucket) is
//       "mega"; with no tactic requested, T <= MEGAMOE_MEGA_MAX_TOKENS (default 2); and always
//       T <= sm90::mega::kMaxTokens = 64 (one 64-row
//       unit per expert, each weight byte streamed once). The default is the measured crossover
//       (H200, 2026-11-30, commits 25710f8 and a3fc8fa, docs/BENCHMARKS.md): over the four
//       presets the kernel was faster than the split pipeline in 15 of the 16 cells with T <= 2
//       of two jobs (0.88-1.01x its time) and slower in most cells above (up to 1.11x), where
//       the split pipeline already streams at 90-100% of the floor;
//     - T * top_k <= MEGAMOE_MEGA_MAX_ROUTES (default and maximum sm90::mega::kMaxRoutes = 512:
//       the route plan lives in every CTA's shared memory);
//     - E_local <= sm90::mega::kMaxExperts (512);
//     - x is 16-byte aligned with a row stride that is a multiple of 8 elements, out 16-byte
//       aligned (the kernel gathers x rows with 16-byte cp.async);
//     - MEGAMOE_MEGA is not 0 (knob for A/B measurements).
//   Otherwise the split pipeline: this backend derives from sm90_bf16_bf16_bf16_split's
//   Sm90SplitBf16 (backends/sm90_bf16_bf16_bf16_split/split_bf16.h) and calls its run_stages(),
//   so it runs the same kernels with the same arguments and knobs and computes the same bits.
// An expert with more than 64 routed rows is not a reason to leave the Mega path: the kernel
// cuts it into 64-row units (see mega_bf16.cu).
//
// Weights: canonical W13 [E_local, N13, H] and W2 [E_local, H, I] bf16, contiguous, exactly as
// the split backend stores them (the GEMMs and the Mega kernel read the same buffers; the
// kernel takes gate rows [0, I) and up rows [I, 2I) of W13 as two row ranges); biases as fp32
// by the shared base (sm90_common/sm90_backend_base.h).
//
// Workspace: the base's SplitWorkspace (split path; its route plan's invalid-id word is the one
// the Mega kernel adds to, so invalid_id_count() covers both paths) plus the Mega workspace
// (sm90::mega::workspace_bytes: a [512, I] and y [512, H] bf16, 2 x 4 x grid split-K partial
// slots of 32 KiB, counters), zeroed once at construction; the kernel leaves its counters at zero
// after every launch.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "backends/sm90_bf16_bf16_bf16_split/split_bf16.h"
#include "backends/sm90_common/requirements.h"
#include "backends/sm90_common/sm90_backend_base.h"
#include "core/backend.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16.h"
#include "kernels/sm90/mega/mega_bf16.h"

namespace megamoe {

namespace {

constexpr const char* kName = "sm90_bf16_bf16_bf16_mega";
constexpr int64_t kDefaultMaxTokens = 2;  // measured crossover, see the top of this file

class Sm90MegaBf16 final : public sm90_backend::Sm90SplitBf16 {
 public:
  explicit Sm90MegaBf16(const MoeConfig& c)
      : Sm90SplitBf16(kName, c), mega_buf_(kName, c.device), trace_buf_(kName, c.device) {
    const bool mega_on = sm90_backend::env_int("MEGAMOE_MEGA", 1) != 0;
    max_tokens_ = std::clamp<int64_t>(sm90_backend::env_int("MEGAMOE_MEGA_MAX_TOKENS", kDefaultMaxTokens), 0,
                                      sm90::mega::kMaxTokens);
    stages_ = int(sm90_backend::env_int("MEGAMOE_MEGA_STAGES", 0));
    early_acts_ = sm90_backend::env_int("MEGAMOE_MEGA_EARLY", 1) != 0;
    min_split_steps_ = int(sm90_backend::env_int("MEGAMOE_MEGA_MIN_SPLIT_STEPS", 0));
    max_routes_ = std::min<int64_t>(sm90_backend::env_int("MEGAMOE_MEGA_MAX_ROUTES", sm90::mega::kMaxRoutes), sm90::mega::kMaxRoutes);
    if (mega_on && EL_ <= sm90::mega::kMaxExperts) {
      auto g = guard();
      grid_ = sm90::mega::persistent_grid();
      const int slots = sm90::mega::partial_slots(grid_);
      mega_buf_.allocate(sm90::mega::workspace_bytes(H_, I_, slots), "mega workspace");
      check(cudaMemset(mega_buf_.ptr, 0, mega_buf_.bytes), "mega workspace init");
      mega_ws_ = sm90::mega::carve_workspace(mega_buf_.ptr, H_, I_, slots);
      if (const char* t = std::getenv("MEGAMOE_MEGA_TRACE"); t && *t) {
        trace_path_ = t;
        trace_buf_.allocate(sizeof(unsigned long long) * size_t(grid_) * sm90::mega::kTraceWords, "mega trace");
        check(cudaMemset(trace_buf_.ptr, 0, trace_buf_.bytes), "mega trace init");
      }
    }
  }

  // Writes the trace of the last launch (MEGAMOE_MEGA_TRACE; a diagnostic, never throws).
  ~Sm90MegaBf16() override {
    if (trace_path_.empty() || trace_buf_.ptr == nullptr) return;
    std::vector<unsigned long long> h(size_t(grid_) * sm90::mega::kTraceWords);
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(h.data(), trace_buf_.ptr, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost) != cudaSuccess)
      return;
    unsigned long long t0 = ~0ull;
    for (int b = 0; b < grid_; ++b)
      if (h[size_t(b) * sm90::mega::kTraceWords]) t0 = std::min(t0, h[size_t(b) * sm90::mega::kTraceWords]);
    auto rel = [t0](unsigned long long t) { return t ? static_cast<long long>(t - t0) : -1ll; };
    if (FILE* f = std::fopen(trace_path_.c_str(), "w")) {
      std::fprintf(f, "cta,item,kind,claimed_ns,first_step_ns,done_ns,entry_ns,plan_ns\n");
      for (int b = 0; b < grid_; ++b) {
        const unsigned long long* r = h.data() + size_t(b) * sm90::mega::kTraceWords;
        for (int i = 0; i < sm90::mega::kTraceItems; ++i) {
          const unsigned long long* e = r + 4 + 4 * i;
          if (e[1] == 0) break;
          std::fprintf(f, "%d,%llu,%llu,%lld,%lld,%lld,%lld,%lld\n", b, e[0] >> 8, e[0] & 0xff, rel(e[1]), rel(e[2]),
                       rel(e[3]), rel(r[0]), rel(r[1]));
        }
      }
      std::fclose(f);
    }
  }

  size_t workspace_bytes() const override { return Sm90SplitBf16::workspace_bytes() + mega_buf_.bytes; }

  // Tactics: "mega" (the one-launch kernel) or the split pipeline's two GEMM tactics.
  std::vector<std::string> tactic_names() const override { return {kMega, kSwapAB, kLargeTile}; }
  std::string tactic_for(int64_t T) const override { return mega_for(T) ? kMega : Sm90SplitBf16::tactic_for(T); }

  static constexpr const char* kMega = "mega";

 private:
  // Whether a forward of T tokens runs the kernel: requested ("mega"; a split tactic says no),
  // else T <= MEGAMOE_MEGA_MAX_TOKENS; always within the kernel's limits.
  bool mega_for(int64_t T) const {
    if (grid_ == 0 || T > sm90::mega::kMaxTokens || T * K_ > max_routes_) return false;
    const std::string& r = requested_tactic(T);
    if (r == kMega) return true;
    if (r == kSwapAB || r == kLargeTile) return false;
    return T <= max_tokens_;  // none requested (or a name unknown here): the heuristic
  }

  bool use_mega(const ForwardArgs& args, const ForwardContext& f) const {
    // The mega kernel combines in place; the EP owner side (route_out) runs the split stages,
    // and so do calls whose x / out the kernel's 16-byte loads and stores cannot take.
    return mega_for(f.T) && args.route_out == nullptr && cu::aligned(args.x.data, 16) && f.ldx % 8 == 0 &&
           cu::aligned(args.out.data, 16);
  }

  // The kernel's TMA descriptors follow the weights (re-preparing may move the buffers).
  void upload_weights(const MoeWeights& w) override {
    Sm90SplitBf16::upload_weights(w);
    if (grid_ > 0) maps_ = sm90::mega::encode_weight_maps(w13_.ptr, w2_.ptr, EL_, H_, I_, act_.activation);
  }

  void run_stages(const ForwardArgs& args, const ForwardContext& f) override {
    if (use_mega(args, f))
      run_mega(args, f);
    else
      Sm90SplitBf16::run_stages(args, f);
  }

  void run_mega(const ForwardArgs& args, const ForwardContext& f) {
    sm90::mega::MegaArgs m;
    m.x = args.x.data;
    m.ldx = f.ldx;
    m.ids = args.topk_ids.data;
    m.ids_i64 = args.topk_ids.dtype == DType::kI64;
    m.topk_weights = args.topk_weights.ptr<const float>();
    m.out = args.out.data;
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
    m.stages = stages_;
    m.early_acts = early_acts_;
    m.min_split_steps = min_split_steps_;
    m.trace = static_cast<unsigned long long*>(trace_buf_.ptr);
    sm90::mega::launch(m, maps_, mega_ws_, grid_, f.stream);
  }

  sm90_backend::DeviceBuffer mega_buf_;
  sm90::mega::MegaWorkspace mega_ws_;
  sm90::mega::WeightMaps maps_{};  // of the prepared w13_ / w2_ (upload_weights)
  int grid_ = 0;  // 0: the Mega path is off for this layer
  int64_t max_routes_ = 0;
  int64_t max_tokens_ = 0;   // MEGAMOE_MEGA_MAX_TOKENS
  int stages_ = 0;           // MEGAMOE_MEGA_STAGES (A/B knob; 0: the kernel's choice)
  std::string trace_path_;   // MEGAMOE_MEGA_TRACE: CSV of the last launch's timeline, written at destruction
  sm90_backend::DeviceBuffer trace_buf_;
  bool early_acts_ = true;   // MEGAMOE_MEGA_EARLY (A/B knob)
  int min_split_steps_ = 0;  // MEGAMOE_MEGA_MIN_SPLIT_STEPS (A/B knob; 0: the kernel's default)
};

// The split backend's requirements (the fallback runs its pipeline); the Mega path's own limits
// only decide which path runs.
std::string why_not(const MoeConfig& c) { return sm90_backend::split_why_not(c, Recipe::kBF16, 64, ""); }

}  // namespace

BackendInfo sm90_bf16_bf16_bf16_mega_backend_info() { return sm90_backend::backend_info<Sm90MegaBf16>(kName, why_not); }

}  // namespace megamoe
