// MegaPath<Split>: a backend that runs the one-launch Mega kernel (kernels/sm90/mega/mega.h) at
// decode sizes and the split pipeline `Split` otherwise, both on ONE copy of the prepared
// weights (the kernel reads the split backend's buffers through TMA descriptors encoded once per
// prepare_weights). sm90_bf16_bf16_bf16_mega and sm90_bf16_{mxfp4,nvfp4}_bf16_mega are this
// template over their split backends, sm90_fp8_fp8_bf16_mega over the fp8_block one.
//
// Which path runs (decided on the host per forward, from host-known values only):
//   Mega kernel, one launch, when ALL of
//     - the tactic (core/tactics.h: forced, else the tactic cache's entry for T's bucket) is
//       "mega", "mega_rounds" (the kernel with the split-K choice of fewest rounds x steps,
//       mega_kernel.cuh choose_splits: measured better at T = 1 for most presets, worse for
//       others, so `megamoe tune` picks per shape), "mega_min8" or "mega_min16" (the kernel with
//       K splits of at least 8 / 16 steps instead of 4: fewer, longer items; measured 4-9%
//       faster on qwen3-30b-a3b at T = 1-2, slower on other shapes); a tactic of the split pipeline
//       says no; with none requested,
//       T <= MEGAMOE_MEGA_MAX_TOKENS (default: the backend's measured crossover); and always
//       T <= sm90::mega::kMaxTokens = 64;
//     - T * top_k <= MEGAMOE_MEGA_MAX_ROUTES (default and maximum sm90::mega::kMaxRoutes = 512:
//       the route plan lives in every CTA's shared memory);
//     - E_local <= sm90::mega::kMaxExperts (512); H and I multiples of 64 (the kernel's 64-row
//       weight halves; the fp8_block split pipeline also takes multiples of 16);
//     - x is 16-byte aligned with a row stride that is a multiple of 8 elements, out 16-byte
//       aligned (the kernel gathers x rows with 16-byte cp.async); no route_out (an expert-
//       parallel layer whose receive buffer is too large for the Mega-EP kernel runs the
//       exchange kernels around the split stages);
//     - MEGAMOE_MEGA is not 0 (knob for A/B measurements).
// Expert parallelism (forward_ep_fused): the Mega-EP kernel runs the whole EP forward when the
// receive buffer (ep_size x bucketed max_tokens rows) fits the kernel (<= 64 rows, <= 512 routes)
// and no split tactic is forced; MEGAMOE_EP_FUSED=0 turns it off (A/B).
// An expert with many routed rows is not a reason to leave the Mega path: the kernel cuts it into
// units of at most 16 rows (each streams the expert's weights once).
//
// Workspace: the split backend's plus the Mega workspace (sm90::mega::workspace_bytes: a
// [512, I] and y [512, H] bf16, split-K partial slots, counters), zeroed once at construction;
// the kernel leaves its counters at zero after every launch. The route plan's invalid-id word
// of the split workspace is the one the kernel adds to, so invalid_id_count() covers both paths.
// Knobs (read at construction): MEGAMOE_MEGA_STAGES, MEGAMOE_MEGA_EARLY,
// MEGAMOE_MEGA_MIN_SPLIT_STEPS, MEGAMOE_MEGA_SPLIT_TARGET, MEGAMOE_MEGA_SPLIT_ROUNDS (A/B),
// MEGAMOE_MEGA_TRACE=file.csv (the last launch's timeline; "%d" in the name: the device ordinal;
// written when the layer is destroyed).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "backends/sm90_common/sm90_backend_base.h"
#include "core/env_int.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/ep/exchange.h"
#include "kernels/sm90/mega/mega.h"

namespace megamoe::sm90_backend {

template <class Split>
class MegaPath : public Split {
 public:
  static constexpr const char* kMega = "mega";
  static constexpr const char* kMegaRounds = "mega_rounds";
  static constexpr const char* kMegaMin8 = "mega_min8";    // K splits of at least 8 steps
  static constexpr const char* kMegaMin16 = "mega_min16";  // ... of at least 16 steps
  static constexpr int64_t kMegaDimMultiple = 64;  // H, I of the kernel (mega.h "Limits")

  // default_max_tokens: the largest T that runs the kernel when no tactic is requested.
  MegaPath(const char* name, const MoeConfig& c, sm90::mega::WeightFormat fmt, int64_t default_max_tokens)
      : Split(name, c), mega_buf_(name, c.device), trace_buf_(name, c.device) {
    namespace mega = sm90::mega;
    const bool mega_on = env_int("MEGAMOE_MEGA", 1) != 0;
    max_tokens_ = std::clamp<int64_t>(env_int("MEGAMOE_MEGA_MAX_TOKENS", default_max_tokens), 0, mega::kMaxTokens);
    stages_ = int(env_int("MEGAMOE_MEGA_STAGES", 0));
    early_acts_ = env_int("MEGAMOE_MEGA_EARLY", 1) != 0;
    min_split_steps_ = int(env_int("MEGAMOE_MEGA_MIN_SPLIT_STEPS", 0));
    split_rounds_ = env_int("MEGAMOE_MEGA_SPLIT_ROUNDS", 0) != 0;
    split_target_ = int(std::clamp<int64_t>(env_int("MEGAMOE_MEGA_SPLIT_TARGET", 0), 0, mega::kMaxSplitTarget));
    max_routes_ = std::min<int64_t>(env_int("MEGAMOE_MEGA_MAX_ROUTES", mega::kMaxRoutes), mega::kMaxRoutes);
    ep_fused_ = env_int("MEGAMOE_EP_FUSED", 1) != 0;
    // 1 ms .. 1 hour; 0 (unset): the kernel's 1 s.
    wait_timeout_ns_ = 1000000ull * uint64_t(std::clamp<int64_t>(env_int("MEGAMOE_MEGA_WAIT_TIMEOUT_MS", 0), 0, 3600000));
    // Tests only (fault injection): the FC2 tiles of the launch's unit u wait for an FC1
    // completion that never comes, so they time out (the kernel resets the counter at its end).
    fault_lost_unit_ = int(std::clamp<int64_t>(env_int("MEGAMOE_MEGA_FAULT_LOST_UNIT", -1), -1, mega::kMaxRoutes - 1));
    if (mega_on && this->EL_ <= mega::kMaxExperts && this->H_ % kMegaDimMultiple == 0 &&
        this->I_ % kMegaDimMultiple == 0) {
      auto g = this->guard();
      grid_ = mega::persistent_grid(fmt);
      const int slots = mega::partial_slots(grid_, split_target_);
      mega_buf_.allocate_zeroed(mega::workspace_bytes(this->H_, this->I_, slots), "mega workspace");
      mega_ws_ = mega::carve_workspace(mega_buf_.ptr, this->H_, this->I_, slots);
      if (const char* t = std::getenv("MEGAMOE_MEGA_TRACE"); t && *t) {
        trace_path_ = t;  // "%d" becomes the device ordinal (expert-parallel ranks write one each)
        if (const size_t at = trace_path_.find("%d"); at != std::string::npos)
          trace_path_.replace(at, 2, std::to_string(c.device));
        trace_buf_.allocate_zeroed(sizeof(unsigned long long) * size_t(grid_) * mega::kTraceWords, "mega trace");
      }
    }
  }

  ~MegaPath() override { write_trace(); }

  size_t workspace_bytes() const override { return Split::workspace_bytes() + mega_buf_.bytes; }

  // Tactics: "mega", "mega_rounds", "mega_min8", "mega_min16" (the one-launch kernel), then the
  // split pipeline's.
  std::vector<std::string> tactic_names() const override {
    std::vector<std::string> names{kMega, kMegaRounds, kMegaMin8, kMegaMin16};
    for (const std::string& n : Split::tactic_names()) names.push_back(n);
    return names;
  }
  std::string tactic_for(int64_t T) const override {
    if (!mega_for(T)) return Split::tactic_for(T);
    return kernel_tactic(T);
  }
  std::string tactic_for_ep(int64_t rows) const override {
    if (!ep_fused_for(rows)) return Split::tactic_for(rows);
    return kernel_tactic(rows);
  }

  // The Mega-EP kernel (mega.h, MegaEp): the whole expert-parallel forward in one launch when
  // the receive buffer (R x cap rows) fits the kernel, unless a split tactic is forced or
  // MEGAMOE_EP_FUSED=0. Unlike one GPU, no token threshold: the alternative is the exchange's
  // kernels around the split pipeline (docs/EP.md, "Mega-EP").
  bool forward_ep_fused(const ForwardArgs& args, const void* exchange) override {
    const auto& fx = *static_cast<const sm90::ep::FusedExchange*>(exchange);
    const int64_t rows = int64_t(fx.p.R) * fx.p.cap;
    const int64_t ldx = args.x.ndim == 2 ? args.x.strides[0] : this->H_;
    if (!ep_fused_for(rows) || fx.p.R > sm90::mega::kMaxEpRanks || !cu::aligned(args.x.data, 16) || ldx % 8 != 0 ||
        !cu::aligned(args.out.data, 16))
      return false;
    auto g = this->guard();
    sm90::mega::MegaArgs m = mega_args(rows);
    m.x = fx.own + fx.p.L.recv_x;
    m.ldx = this->H_;
    m.ids = fx.own + fx.p.L.recv_ids;
    m.ids_i64 = false;
    m.invalid_count = fx.p.counters;  // the EP layer's invalid-id word (its invalid_id_count())
    sm90::mega::MegaEp& e = m.ep;
    e.on = true;
    e.push = fx.push;
    e.xp = fx.p;
    e.ids = args.topk_ids.data;
    e.ids_i64 = args.topk_ids.dtype == DType::kI64;
    e.x = args.x.data;
    e.ldx = ldx;
    e.topk_weights = args.topk_weights.template ptr<const float>();
    e.out = args.out.data;
    e.T = args.num_tokens;
    e.skip_experts = fx.skip_experts;
    sm90::mega::launch(m, maps_, mega_ws_, grid_, static_cast<cudaStream_t>(args.stream));
    return true;
  }

 protected:
  // The kernel's TMA descriptors of the weights the split stages just prepared.
  virtual sm90::mega::WeightMaps encode_maps() const = 0;
  // Format-specific kernel arguments (nvfp4: the per-expert global scales).
  virtual void fill_format_args(sm90::mega::MegaArgs& m) const { (void)m; }

  // The descriptors follow the weights (re-preparing may move the buffers).
  void upload_weights(const MoeWeights& w) override {
    Split::upload_weights(w);
    if (grid_ > 0) maps_ = encode_maps();
  }

  void run_stages(const ForwardArgs& args, const typename Split::ForwardContext& f) override {
    if (use_mega(args, f))
      run_mega(args, f);
    else
      Split::run_stages(args, f);
  }

 private:
  // Whether a forward of T tokens runs the kernel: requested ("mega"; a split tactic says no),
  // else T <= max_tokens_; always within the kernel's limits.
  bool mega_for(int64_t T) const {
    if (grid_ == 0 || T > sm90::mega::kMaxTokens || T * this->K_ > max_routes_) return false;
    const std::string& r = this->requested_tactic(T);
    if (is_kernel_tactic(r)) return true;
    for (const std::string& n : Split::tactic_names())
      if (r == n) return false;
    return T <= max_tokens_;  // none requested (or a name unknown here): the heuristic
  }

  // EP (forward_ep_fused): the kernel fits `rows` receive rows and no split tactic is forced.
  bool ep_fused_for(int64_t rows) const {
    if (!ep_fused_ || grid_ == 0 || rows > sm90::mega::kMaxTokens || rows * this->K_ > max_routes_) return false;
    const std::string& r = this->requested_tactic(rows);
    for (const std::string& n : Split::tactic_names())
      if (r == n) return false;
    return true;
  }

  // The kernel's split-K rule for T: "mega_rounds" requested, or MEGAMOE_MEGA_SPLIT_ROUNDS set
  // and none of the kernel's other tactics requested.
  bool rounds_for(int64_t T) const {
    const std::string& r = this->requested_tactic(T);
    return r == kMegaRounds || (split_rounds_ && !is_kernel_tactic(r));
  }

  // "mega", "mega_rounds", "mega_min8" or "mega_min16": a name that runs the kernel.
  static bool is_kernel_tactic(const std::string& r) {
    return r == kMega || r == kMegaRounds || r == kMegaMin8 || r == kMegaMin16;
  }

  // Which of the kernel's tactics a launch for T runs (the kernel runs).
  std::string kernel_tactic(int64_t T) const {
    const std::string& r = this->requested_tactic(T);
    if (r == kMegaMin8 || r == kMegaMin16) return r;
    return rounds_for(T) ? kMegaRounds : kMega;
  }

  // The kernel's shortest K split for T (0: its default): "mega_min8" / "mega_min16" requested,
  // else MEGAMOE_MEGA_MIN_SPLIT_STEPS.
  int min_split_steps_for(int64_t T) const {
    const std::string& r = this->requested_tactic(T);
    if (r == kMegaMin8) return 8;
    if (r == kMegaMin16) return 16;
    return min_split_steps_;
  }

  bool use_mega(const ForwardArgs& args, const typename Split::ForwardContext& f) const {
    return mega_for(f.T) && args.route_out == nullptr && cu::aligned(args.x.data, 16) && f.ldx % 8 == 0 &&
           cu::aligned(args.out.data, 16);
  }

  // The launch's arguments that do not depend on where x, ids and out are.
  sm90::mega::MegaArgs mega_args(int64_t T) const {
    sm90::mega::MegaArgs m;
    m.b13 = this->b13();
    m.b2 = this->b2();
    m.invalid_count = this->sw_.plan.invalid_count;
    m.T = T;
    m.K = this->K_;
    m.E = this->c_.num_experts;
    m.first_local = this->c_.first_local_expert();
    m.EL = this->EL_;
    m.H = this->H_;
    m.I = this->I_;
    m.activation = this->act_.activation;
    m.limit = this->act_.limit;
    m.alpha = this->act_.alpha;
    m.stages = stages_;
    m.early_acts = early_acts_;
    m.min_split_steps = min_split_steps_for(T);
    m.split_target = split_target_;
    m.split_rounds = rounds_for(T);
    m.wait_timeout_ns = wait_timeout_ns_;
    m.trace = static_cast<unsigned long long*>(trace_buf_.ptr);
    fill_format_args(m);
    return m;
  }

  void run_mega(const ForwardArgs& args, const typename Split::ForwardContext& f) {
    sm90::mega::MegaArgs m = mega_args(f.T);
    m.x = args.x.data;
    m.ldx = f.ldx;
    m.ids = args.topk_ids.data;
    m.ids_i64 = args.topk_ids.dtype == DType::kI64;
    m.topk_weights = args.topk_weights.template ptr<const float>();
    m.out = args.out.data;
    if (fault_lost_unit_ >= 0)  // tests: unit_done[u] = -1, so it stops one short of its FC2 tiles' target
      this->check(cudaMemsetAsync(mega_ws_.unit_done + fault_lost_unit_, 0xFF, sizeof(int), f.stream),
                  "MEGAMOE_MEGA_FAULT_LOST_UNIT");
    sm90::mega::launch(m, maps_, mega_ws_, grid_, f.stream);
  }

  // MEGAMOE_MEGA_TRACE: the last launch's timeline as CSV (a diagnostic, never throws).
  void write_trace() const {
    namespace mega = sm90::mega;
    if (trace_path_.empty() || trace_buf_.ptr == nullptr) return;
    std::vector<unsigned long long> h(size_t(grid_) * mega::kTraceWords);
    if (cudaDeviceSynchronize() != cudaSuccess ||
        cudaMemcpy(h.data(), trace_buf_.ptr, h.size() * sizeof(h[0]), cudaMemcpyDeviceToHost) != cudaSuccess)
      return;
    unsigned long long t0 = ~0ull;
    for (int b = 0; b < grid_; ++b)
      if (h[size_t(b) * mega::kTraceWords]) t0 = std::min(t0, h[size_t(b) * mega::kTraceWords]);
    auto rel = [t0](unsigned long long t) { return t ? static_cast<long long>(t - t0) : -1ll; };
    FILE* f = std::fopen(trace_path_.c_str(), "w");
    if (f == nullptr) return;
    std::fprintf(f, "cta,item,kind,claimed_ns,first_step_ns,done_ns,entry_ns,plan_ns,ep_received_ns,ep_exit_ns\n");
    for (int b = 0; b < grid_; ++b) {
      const unsigned long long* r = h.data() + size_t(b) * mega::kTraceWords;
      for (int i = 0; i < mega::kTraceItems; ++i) {
        const unsigned long long* e = r + 4 + 4 * i;
        if (e[1] == 0) continue;
        std::fprintf(f, "%d,%llu,%llu,%lld,%lld,%lld,%lld,%lld,%lld,%lld\n", b, e[0] >> 8, e[0] & 0xff, rel(e[1]),
                     rel(e[2]), rel(e[3]), rel(r[0]), rel(r[1]), rel(r[2]), rel(r[3]));
      }
    }
    std::fclose(f);
  }

  DeviceBuffer mega_buf_;
  sm90::mega::MegaWorkspace mega_ws_;
  sm90::mega::WeightMaps maps_{};  // of the prepared weights (upload_weights)
  int grid_ = 0;                    // 0: the Mega path is off for this layer
  int64_t max_routes_ = 0;
  int64_t max_tokens_ = 0;   // MEGAMOE_MEGA_MAX_TOKENS
  int stages_ = 0;           // MEGAMOE_MEGA_STAGES (A/B knob; 0: the kernel's choice)
  std::string trace_path_;   // MEGAMOE_MEGA_TRACE
  DeviceBuffer trace_buf_;
  bool early_acts_ = true;   // MEGAMOE_MEGA_EARLY (A/B knob)
  int min_split_steps_ = 0;  // MEGAMOE_MEGA_MIN_SPLIT_STEPS (A/B knob; 0: the kernel's default)
  int split_target_ = 0;     // MEGAMOE_MEGA_SPLIT_TARGET (A/B knob; 0: the kernel's default)
  unsigned long long wait_timeout_ns_ = 0;  // MEGAMOE_MEGA_WAIT_TIMEOUT_MS (0: the kernel's 1 s)
  int fault_lost_unit_ = -1;                // MEGAMOE_MEGA_FAULT_LOST_UNIT (tests: a lost dependency)
  bool split_rounds_ = false;  // MEGAMOE_MEGA_SPLIT_ROUNDS (A/B knob)
  bool ep_fused_ = true;       // MEGAMOE_EP_FUSED (A/B knob: 0 runs the exchange kernels instead)
};

}  // namespace megamoe::sm90_backend
