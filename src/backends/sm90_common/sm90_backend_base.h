// Sm90BackendBase: what every sm90 GPU backend shares, so that a backend keeps only its stages.
//
//   dimensions      E_local, H, I, N13, K and the bucketed token capacity, from the config
//   device guard    every entry point runs with the layer's device current (guard())
//   workspace       one SplitWorkspace (plan, GEMM operands, h, y), carved at construction
//   weights         prepare_weights(): the backend's upload_weights() stages (upload helpers
//                   below), then the biases, then ONE synchronisation (see "Weight upload")
//   forward         forward(): the prologue (prepare_weights() done, T within the capacity,
//                   T = 0 returns before touching the device, device guard, stream cast, route
//                   dims, x's row stride, PDL eligibility) then the backend's run_stages()
//   invalid ids     the route plan's device word: invalid_id_count() reads and resets it on the
//                   caller's stream and synchronises that stream
//
// Weight upload: every copy and preparation kernel of prepare_weights() runs on the caller's
// stream (upload_stream(); a null stream means the legacy default stream, cudaStreamLegacy, what
// cudaMemcpy uses), so it is ordered after the caller's work that may still be writing
// device-resident weights; prepare_weights() then synchronises that stream only (not the whole
// device) and returns with the weights in place, so the caller may free or overwrite its
// tensors at once.
//
// Adding a backend: derive from Sm90BackendBase, pass the name and the activation format of the
// workspace to the constructor, implement upload_weights(), run_stages() and weight_bytes()
// (plus workspace_bytes() when the stages own extra device memory), return backend_info<B>(...)
// from a <name>_backend_info() function and add that function to src/core/registry.cpp.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backends/sm90_common/cuda_resources.h"
#include "backends/sm90_common/split_workspace.h"
#include "core/backend.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/config.h"
#include "routing/route_plan.h"

namespace megamoe::sm90_backend {

class Sm90BackendBase : public Backend {
 public:
  ~Sm90BackendBase() override = default;  // every DeviceBuffer frees itself on the layer's device

  void prepare_weights(const MoeWeights& w, void* stream) final;
  void forward(const ForwardArgs& args) final;
  int64_t invalid_id_count(void* stream) final;
  size_t workspace_bytes() const override { return sw_.bytes(); }
  bool supports_route_out() const final { return true; }
  // GPU name, SM count and driver version of the layer's device (the tactic cache's key).
  void machine_key(TacticKey* key) const final;

 protected:
  // `name` names the backend in every error; `act` is the format of the GEMM operands in the
  // workspace (bf16 by default).
  Sm90BackendBase(const char* name, const MoeConfig& c, SplitActivations act = {});

  // What one forward's stages need besides the ForwardArgs (already checked; T > 0).
  struct ForwardContext {
    int64_t T = 0;           // tokens
    int64_t ldx = 0;         // x's row stride (elements)
    int64_t rows_bound = 0;  // T * K: a host-known bound on the routed rows
    routing::RouteDims dims;
    cudaStream_t stream = nullptr;
    bool created_stream = false;  // a stream the caller created: PDL may be used on it
  };

  // The backend's own weights. The biases are uploaded by the base before it, so b13() / b2()
  // and has_b13_ / has_b2_ are already set (pointers for kernel parameters built here).
  virtual void upload_weights(const MoeWeights& w) = 0;
  // The forward's kernels, from the route plan to combine, on ctx.stream.
  virtual void run_stages(const ForwardArgs& args, const ForwardContext& ctx) = 0;
  // The last stage: the fixed-order combine into args.out, or, when args.route_out is set (the
  // expert-parallel owner side), each route's bf16 y row into args.route_out. y is fp32 [rows, H]
  // (b2 added here when present) or bf16 (y_is_bf16: already rounded, no b2).
  void combine_or_route_rows(const ForwardArgs& args, const ForwardContext& f, const void* y, bool y_is_bf16,
                             bool pdl) const;
  // Bytes of the biases (the backends add their own weights).
  size_t bias_bytes() const { return b13_.bytes + b2_.bytes; }

  // ---- helpers for upload_weights() (all on upload_stream(), unsynchronised) ----
  DeviceGuard guard() const { return DeviceGuard(name_, c_.device); }
  void check(cudaError_t e, const std::string& what) const { cu::check(name_, e, what); }
  cudaStream_t upload_stream() const { return upload_stream_; }
  // t (host or device; contiguous, or rows with a unit innermost stride) -> contiguous `dst`,
  // sized to the tensor's bytes.
  void upload_tensor(const TensorView& t, DeviceBuffer& dst, const std::string& name) const;
  // A gated W13 [E_local, 2I, H] (host or device; rows with a unit innermost stride) -> `dst` in
  // the gate/up interleaved row order of kernels/sm90/common/gate_up_layout.h (DMA copies, two
  // per expert; no staging).
  void upload_gate_up_interleaved(const TensorView& w13, DeviceBuffer& dst, const std::string& name) const;
  // Host bytes -> `dst`, sized to them.
  void upload_bytes(const void* host, size_t bytes, DeviceBuffer& dst, const std::string& name) const;
  // t (host or device; a unit innermost stride, or 1-D strided) -> contiguous host bytes.
  std::vector<uint8_t> stage_to_host(const TensorView& t, const std::string& name) const;
  // t (f32 or bf16) -> host fp32 values (bf16 widened exactly).
  std::vector<float> to_host_f32(const TensorView& t, const std::string& name) const;

  MoeConfig c_;
  const char* name_;
  int64_t EL_ = 0, H_ = 0, I_ = 0, N13_ = 0, K_ = 0, cap_ = 0;
  DeviceBuffer ws_;
  SplitWorkspace sw_;  // plan, x_perm (+ scales), h, y, a (+ scales)
  sm90::ActivationParams act_;
  DeviceBuffer b13_, b2_;  // fp32 [E_local, N13] / [E_local, H] when present
  bool has_b13_ = false, has_b2_ = false;
  const float* b13() const { return has_b13_ ? b13_.as<const float>() : nullptr; }
  const float* b2() const { return has_b2_ ? b2_.as<const float>() : nullptr; }
  // Whether FC2 writes y in bf16: a kernel with a bf16 epilogue (`bf16_kernel`: the large tile)
  // and no b2 to add before the rounding (the combine rounds y to bf16 first anyway, so the
  // output bits are the same). MEGAMOE_SPLIT_BF16_Y=0 (read at construction) keeps fp32 y.
  bool fc2_bf16_y(bool bf16_kernel) const { return bf16_y_allowed_ && !has_b2_ && bf16_kernel; }

 private:
  void upload_bias(bool has, const TensorView& t, DeviceBuffer& dst, const char* name);
  bool ready_ = false;
  bool bf16_y_allowed_ = true;
  // The stream of the prepare_weights() call in progress (see "Weight upload" above).
  cudaStream_t upload_stream_ = cudaStreamLegacy;
};

// The registry entry of backend class B (constructed from the config) under `name`.
template <class B>
BackendInfo backend_info(const char* name, std::string (*why_not)(const MoeConfig&)) {
  BackendInfo info;
  info.name = name;
  info.why_not = why_not;
  info.create = [](const MoeConfig& c) -> std::unique_ptr<Backend> { return std::make_unique<B>(c); };
  return info;
}

}  // namespace megamoe::sm90_backend
