// Sm90SplitBf16: the bf16 split pipeline on Hopper (the stages and knobs are described in
// backend.cu next to this file). Declared here so that a backend which runs another path for
// some calls (sm90_bf16_bf16_bf16_mega at decode sizes) reuses these stages, the weights they
// read and the workspace, instead of a copy of them.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <memory>

#include "backends/sm90_common/sm90_backend_base.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16.h"

namespace megamoe::sm90_backend {

// An integer knob from the environment (decimal, hex with 0x); `fallback` when unset or not a
// number. Read at layer construction only, never inside forward.
inline int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v, &end, 0);
  return (end && *end == '\0') ? int64_t(x) : fallback;
}

// Launch-structure switches, read once per layer at construction from the environment (see
// backend.cu): for A/B measurements and tests.
struct SplitBf16Knobs {
  bool pdl = true, fused_setup = true, bf16_y = true, gemm_pdl = false, gemm_early_trigger = true;
  int64_t plan_permute_bytes = 0;
  static SplitBf16Knobs from_env();
};

class Sm90SplitBf16 : public Sm90BackendBase {
 public:
  // `name`: the registered backend name (errors and messages carry it).
  Sm90SplitBf16(const char* name, const MoeConfig& c);

  size_t workspace_bytes() const override;
  size_t weight_bytes() const override;

 protected:
  void upload_weights(const MoeWeights& w) override;
  void run_stages(const ForwardArgs& args, const ForwardContext& f) override;

  // Canonical W13 [E_local, N13, H] and W2 [E_local, H, I] bf16, contiguous.
  DeviceBuffer w13_, w2_;
  std::unique_ptr<sm90::GroupedGemmBf16> fc1_, fc2_;
  SplitBf16Knobs knobs_;
};

}  // namespace megamoe::sm90_backend
