// EpBackend: expert parallelism as exchange kernels (kernels/sm90/ep/exchange.h) around the
// single-GPU backend of this rank's experts. Per forward, on the caller's stream, either
//   the inner backend's own one-launch kernel with the exchange inside (the Mega-EP kernel,
//   Backend::forward_ep_fused: the mega backends when the receive buffer fits it), or
//   plan -> dispatch -> receive -> inner backend (route_out = y_ret) -> return -> combine.
// Both speak the same protocol, so ranks may differ in which one runs.
// The inner backend sees the receive buffer as a batch of R * cap rows (cap = the bucketed
// max_tokens per rank) whose unused rows carry no route, so its kernels are sized by that bound
// and need no host knowledge of how many rows arrived (graph-capturable, no host sync).
#include "ep/ep_backend.h"

#include "megamoe/ep.h"
#include "megamoe/errors.h"

#if defined(MEGAMOE_WITH_NCCL)
#include <cuda_runtime.h>

#include <cmath>

#include "backends/sm90_common/cuda_resources.h"
#include "ep/nccl_api.h"
#include "ep/placement.h"
#include "kernels/sm90/ep/exchange.h"
#include "routing/route_plan.h"
#endif

namespace megamoe::ep {

namespace {
bool g_exchange_only = false;
}  // namespace
void set_exchange_only_for_benchmark(bool on) { g_exchange_only = on; }

#if defined(MEGAMOE_WITH_NCCL)

namespace {

using sm90_backend::DeviceBuffer;
constexpr const char* kWho = "ep";

class EpBackend final : public Backend {
 public:
  EpBackend(const MoeConfig& c, std::unique_ptr<Backend> inner)
      : c_(c), group_(c.ep_group), nccl_(nccl_or_throw()), inner_(std::move(inner)), state_(kWho, c.device),
        tables_(kWho, c.device) {
    cu::DeviceGuard g(kWho, c.device);
    R_ = c.ep_size;
    me_ = c.ep_rank;
    cap_ = routing::bucket_capacity(c.max_tokens);
    K_ = c.top_k;
    H_ = c.hidden_size;
    // "auto" = push: on two H200s pull was ahead in 8 of 20 cells by at most 2%, push in the
    // others by up to 2.9x (docs/EP.md, "Push vs pull, measured").
    push_ = c.ep_style != "pull";
    if (H_ % 8 != 0) throw_invalid("hidden_size", "a multiple of 8 for the EP exchange", std::to_string(H_));
    layout_ = sm90::ep::WindowLayout::make(R_, cap_, K_, H_);
    const PlacementTables pt = make_placement_tables(c);
    check_same_on_every_rank(c, pt);

    // The symmetric window: zeroed before the (collective) registration, so no peer can see a
    // stale flag: every rank's window is zero when the last rank returns from the registration.
    ncclResult_t r = nccl_.MemAlloc(&win_mem_, layout_.bytes);
    if (r != ncclSuccess)
      throw OutOfMemory("ncclMemAlloc of " + std::to_string(layout_.bytes) + " bytes for the EP window: " +
                        nccl_.GetErrorString(r));
    cu::check(kWho, cudaMemset(win_mem_, 0, layout_.bytes), "zero the EP window");
    cu::check(kWho, cudaDeviceSynchronize(), "zero the EP window");
    r = nccl_.CommWindowRegister(group_->comm(), win_mem_, layout_.bytes, &win_, NCCL_WIN_COLL_SYMMETRIC);
    if (r != ncclSuccess) {
      nccl_.MemFree(win_mem_);
      throw CommError(std::string("ncclCommWindowRegister: ") + nccl_.GetErrorString(r));
    }

    // Local state, one allocation: peers, counters, per-route plan arrays; the placement tables.
    size_t o = 0;
    auto take = [&](size_t bytes) {
      const size_t at = o;
      o += cu::align_up(bytes, 256);
      return at;
    };
    const size_t o_peers = take(sizeof(char*) * R_), o_epoch = take(8), o_err = take(8), o_cnt = take(16),
                 o_done = take(8), o_dest = take(4 * cap_ * K_), o_slot = take(4 * cap_ * K_),
                 o_pos = take(4 * cap_ * R_), o_recv = take(4 * R_);
    state_.allocate(o, "EP state");
    cu::check(kWho, cudaMemset(state_.ptr, 0, o), "zero EP state");
    std::vector<int32_t> t;
    t.insert(t.end(), pt.replica_begin.begin(), pt.replica_begin.end());
    t.insert(t.end(), pt.replica_rank.begin(), pt.replica_rank.end());
    t.insert(t.end(), pt.replica_slot.begin(), pt.replica_slot.end());
    tables_.allocate(t.size() * 4, "EP placement");
    cu::check(kWho, cudaMemcpy(tables_.ptr, t.data(), t.size() * 4, cudaMemcpyHostToDevice), "upload placement");

    char* s = state_.as<char>();
    p_.R = R_;
    p_.me = me_;
    p_.cap = cap_;
    p_.K = K_;
    p_.H = H_;
    p_.E = c.num_experts;
    p_.peers = reinterpret_cast<char* const*>(s + o_peers);
    p_.L = layout_;
    p_.epoch = reinterpret_cast<unsigned long long*>(s + o_epoch);
    p_.error = reinterpret_cast<unsigned*>(s + o_err);
    p_.counters = reinterpret_cast<unsigned long long*>(s + o_cnt);
    p_.done = reinterpret_cast<unsigned*>(s + o_done);
    p_.route_dest = reinterpret_cast<int32_t*>(s + o_dest);
    p_.route_slot = reinterpret_cast<int32_t*>(s + o_slot);
    p_.tok_pos = reinterpret_cast<int32_t*>(s + o_pos);
    p_.recv_counts = reinterpret_cast<int32_t*>(s + o_recv);
    const int32_t* tb = tables_.as<const int32_t>();
    p_.replica_begin = tb;
    p_.replica_rank = tb + pt.replica_begin.size();
    p_.replica_slot = tb + pt.replica_begin.size() + pt.replica_rank.size();
    p_.abort_word = reinterpret_cast<const volatile int*>(group_->device_abort_word());
    p_.timeout_ns = static_cast<unsigned long long>(c.ep_timeout_s * 1e9);
    sm90::ep::fill_peer_table(win_, R_, const_cast<char**>(p_.peers), nullptr);
    cu::check(kWho, cudaDeviceSynchronize(), "EP setup");
  }

  // The windows are symmetric (same layout on every rank) and the exchange assumes the same
  // model: one all-reduce at construction compares what must agree, so a mismatch is an error
  // on every rank instead of a hang or out-of-bounds peer stores.
  void check_same_on_every_rank(const MoeConfig& c, const PlacementTables& pt) {
    uint64_t placement_hash = 1469598103934665603ull;  // FNV-1a over the replica tables
    for (const auto* v : {&pt.replica_begin, &pt.replica_rank, &pt.replica_slot})
      for (int32_t x : *v) placement_hash = (placement_hash ^ uint64_t(uint32_t(x))) * 1099511628211ull;
    const char* names[] = {"max_tokens (bucketed)", "num_experts", "top_k", "hidden_size", "intermediate_size",
                           "recipe", "activation", "has_bias", "expert_placement", "ep_style"};
    const int64_t vals[] = {cap_, c.num_experts, c.top_k, c.hidden_size, c.intermediate_size, int64_t(c.recipe),
                            int64_t(c.activation), int64_t(c.has_bias), int64_t(placement_hash >> 1),
                            int64_t(push_)};
    constexpr int n = int(sizeof(vals) / sizeof(vals[0]));
    int64_t host[2 * n];
    for (int i = 0; i < n; ++i) {
      host[i] = vals[i];
      host[n + i] = -vals[i];  // max of -v = -min of v
    }
    DeviceBuffer buf(kWho, c.device);
    buf.allocate(sizeof host, "EP config check");
    cu::check(kWho, cudaMemcpy(buf.ptr, host, sizeof host, cudaMemcpyHostToDevice), "EP config check");
    const ncclResult_t r = nccl_.AllReduce(buf.ptr, buf.ptr, 2 * n, ncclInt64, ncclMax, group_->comm(), nullptr);
    if (r != ncclSuccess) throw CommError(std::string("ncclAllReduce (EP config check): ") + nccl_.GetErrorString(r));
    cu::check(kWho, cudaMemcpy(host, buf.ptr, sizeof host, cudaMemcpyDeviceToHost), "EP config check");
    for (int i = 0; i < n; ++i)
      if (host[i] != -host[n + i])
        throw_invalid(names[i], "the same value on every rank of the EP group (layer construction is collective)",
                      "this rank " + std::to_string(vals[i]) + ", others between " + std::to_string(-host[n + i]) +
                          " and " + std::to_string(host[i]));
  }

  ~EpBackend() override {
    cudaSetDevice(c_.device);
    cudaDeviceSynchronize();
    inner_.reset();
    // Collective (every rank destroys its layers in the same order), unless the group is
    // aborted: then the peers may be gone and the memory is only freed locally.
    if (!group_->aborted()) nccl_.CommWindowDeregister(group_->comm(), win_);
    nccl_.MemFree(win_mem_);
  }

  void prepare_weights(const MoeWeights& w, void* stream) override { inner_->prepare_weights(w, stream); }

  void forward(const ForwardArgs& a) override {
    cu::DeviceGuard g(kWho, c_.device);
    const auto stream = static_cast<cudaStream_t>(a.stream);
    const int64_t T = a.num_tokens;
    if (T > cap_)
      throw_invalid("x", "at most " + std::to_string(cap_) + " rows (EP capacity per rank)", std::to_string(T));
    // The Mega-EP kernel when the inner backend has one that fits (one launch; same protocol).
    const sm90::ep::FusedExchange fx{p_, static_cast<char*>(win_mem_), push_, g_exchange_only};
    if (inner_->forward_ep_fused(a, &fx)) return;
    const int64_t ldx = a.x.ndim == 2 ? a.x.strides[0] : H_;
    sm90::ep::launch_plan_dispatch(p_, push_, a.topk_ids.data, a.topk_ids.dtype == DType::kI64, a.x.data, ldx, T,
                                   stream);
    sm90::ep::launch_receive(p_, push_, stream);
    char* own = static_cast<char*>(win_mem_);
    const Device dev = Device::cuda(c_.device);
    ForwardArgs in;
    in.num_tokens = int64_t(R_) * cap_;
    in.x = TensorView::contiguous(own + layout_.recv_x, DType::kBF16, {in.num_tokens, H_}, dev);
    in.topk_ids = TensorView::contiguous(own + layout_.recv_ids, DType::kI32, {in.num_tokens, K_}, dev);
    in.topk_weights = TensorView::contiguous(a.topk_weights.data, DType::kF32, {0, K_}, dev);  // not read
    in.out = TensorView::contiguous(nullptr, DType::kBF16, {0, H_}, dev);                     // not written
    in.route_out = own + layout_.y_ret;
    in.stream = a.stream;
    if (!g_exchange_only) inner_->forward(in);
    sm90::ep::launch_return_combine(p_, push_, a.topk_weights.ptr<const float>(), T, a.out.data, stream);
  }

  size_t workspace_bytes() const override { return inner_->workspace_bytes() + layout_.bytes + state_.bytes; }

  // Tactics are the inner backend's, for the R * cap rows it serves.
  std::vector<std::string> tactic_names() const override { return inner_->tactic_names(); }
  std::string tactic_for(int64_t T) const override {
    (void)T;
    return inner_->tactic_for_ep(int64_t(R_) * cap_);
  }
  void force_tactic(const std::string& name) override { inner_->force_tactic(name); }
  size_t weight_bytes() const override { return inner_->weight_bytes(); }

  int64_t invalid_id_count(void* stream) override { return read_counter(0, stream); }
  int64_t unrouted_count(void* stream) override { return read_counter(1, stream); }

  void check_errors(void* stream) override {
    cu::DeviceGuard g(kWho, c_.device);
    auto s = static_cast<cudaStream_t>(stream);
    unsigned e[2] = {0, 0};
    cu::check(kWho, cudaMemcpyAsync(e, p_.error, sizeof e, cudaMemcpyDeviceToHost, s), "read EP error word");
    cu::check(kWho, cudaMemsetAsync(p_.error, 0, sizeof e, s), "reset EP error word");
    cu::check(kWho, cudaStreamSynchronize(s), "check_errors sync");
    if (e[0] == 0) return;
    const unsigned phase = e[1] >> 16, peer = e[1] & 0xFFFFu;
    if (phase == sm90::ep::kPhaseExperts)
      throw CommError("rank " + std::to_string(me_) + ": a dependency inside the Mega-EP kernel did not arrive (an "
                      "internal error, or the GPU was starved for more than a second); outputs of this forward are "
                      "not valid");
    const std::string what = phase == sm90::ep::kPhaseDispatch ? "its tokens (dispatch)" : "its expert results (return)";
    if (e[0] & sm90::ep::kErrAborted)
      throw CommError("rank " + std::to_string(me_) + ": the EP group was aborted while waiting for rank " +
                      std::to_string(peer) + "'s " + what);
    throw CommError("rank " + std::to_string(me_) + " waited more than " + std::to_string(c_.ep_timeout_s) +
                    " s for rank " + std::to_string(peer) + "'s " + what +
                    ": that rank died, raised before the exchange or did not call forward; outputs of this "
                    "forward are NaN");
  }

 private:
  int64_t read_counter(int i, void* stream) {
    cu::DeviceGuard g(kWho, c_.device);
    auto s = static_cast<cudaStream_t>(stream);
    unsigned long long v = 0;
    cu::check(kWho, cudaMemcpyAsync(&v, p_.counters + i, sizeof v, cudaMemcpyDeviceToHost, s), "read EP counter");
    cu::check(kWho, cudaMemsetAsync(p_.counters + i, 0, sizeof v, s), "reset EP counter");
    cu::check(kWho, cudaStreamSynchronize(s), "EP counter sync");
    return int64_t(v);
  }

  MoeConfig c_;
  std::shared_ptr<EpGroup> group_;
  const NcclApi& nccl_;
  std::unique_ptr<Backend> inner_;
  int R_ = 1, me_ = 0;
  int64_t cap_ = 0, K_ = 0, H_ = 0;
  bool push_ = true;
  sm90::ep::WindowLayout layout_;
  void* win_mem_ = nullptr;
  ncclWindow_t win_ = nullptr;
  DeviceBuffer state_, tables_;
  sm90::ep::ExchangeParams p_;
};

}  // namespace

std::unique_ptr<Backend> create_ep_backend(const MoeConfig& c, const InnerFactory& make_inner, std::string* name) {
  if (c.device < 0) throw_invalid("device", "a CUDA device for expert parallelism over an EpGroup", "-1 (CPU)");
  if (c.ep_style != "auto" && c.ep_style != "push" && c.ep_style != "pull")
    throw_invalid("ep_style", "\"auto\", \"push\" or \"pull\"", "'" + c.ep_style + "'");
  MoeConfig in = c;
  in.num_experts = c.local_experts();
  in.ep_size = 1;
  in.ep_rank = 0;
  in.ep_group = nullptr;
  in.expert_placement.clear();
  in.max_tokens = int64_t(c.ep_size) * routing::bucket_capacity(c.max_tokens);
  in.top_k = c.top_k;
  std::string inner_name;
  std::unique_ptr<Backend> inner = make_inner(in, &inner_name);
  if (!inner->supports_route_out())
    throw Unsupported("backend '" + inner_name + "' cannot run the experts of an expert-parallel layer (no per-route "
                      "output); choose an sm90 backend");
  const std::string style = c.ep_style == "pull" ? "pull" : "push";
  *name = inner_name + "+ep" + std::to_string(c.ep_size) + "_" + style;
  return std::make_unique<EpBackend>(c, std::move(inner));
}

#else

std::unique_ptr<Backend> create_ep_backend(const MoeConfig&, const InnerFactory&, std::string*) {
  throw Unsupported("expert parallelism on GPUs needs NCCL; this megamoe build has none");
}

#endif

}  // namespace megamoe::ep
