// Sm90SplitBf16: the bf16 split pipeline on Hopper (the stages and knobs are described in
// backend.cu next to this file). Declared here so that a backend which runs another path for
// some calls (sm90_bf16_bf16_bf16_mega at decode sizes) reuses these stages, the weights they
// read and the workspace, instead of a copy of them.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "backends/sm90_common/sm90_backend_base.h"
#include "core/env_int.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16.h"

namespace megamoe::sm90_backend {

// Launch-structure switches, read once per layer at construction from the environment (see
// backend.cu): for A/B measurements and tests.
struct SplitBf16Knobs {
  bool pdl = true, fused_setup = true, gemm_pdl = false, gemm_early_trigger = true, fused_act = true;
  int64_t plan_permute_bytes = 0;
  static SplitBf16Knobs from_env();
};

class Sm90SplitBf16 : public Sm90BackendBase {
 public:
  // `name`: the registered backend name (errors and messages carry it).
  Sm90SplitBf16(const char* name, const MoeConfig& c);

  size_t workspace_bytes() const override;
  size_t weight_bytes() const override;
  // Tactics: the grouped GEMMs' CUTLASS swap-AB (decode) or 128x256 (prefill) kernels, or our own
  // TMA-fed kernels for both GEMMs: split_tma_small (128 weight rows a CTA, tokens in 32- or 64-row
  // passes, two CTAs per SM; kernels/sm90/gemm/grouped_gemm_bf16_small_tma.h) and split_large_tma
  // (persistent, wgmma, passes of up to 320 tokens only as wide as the expert's rows;
  // kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h), or per GEMM (split_large_tma_fc1 / _fc2: that
  // GEMM on our large kernel, the other on CUTLASS's large tile).
  std::vector<std::string> tactic_names() const override {
    return {kSwapAB, kLargeTile, kTmaSmall, kLargeTma, kLargeTmaFc1, kLargeTmaFc2};
  }
  std::string tactic_for(int64_t T) const override {
    if (gemm_kernel(T, 1) != GemmKernel::kCutlass || gemm_kernel(T, 2) != GemmKernel::kCutlass)
      return requested_tactic(T);  // one of our kernels' tactics
    return split_tactic_name(split_gemm_tactic(T));
  }

  static constexpr const char* kSwapAB = "split_swap_ab";
  static constexpr const char* kLargeTile = "split_large_tile";
  static constexpr const char* kTmaSmall = "split_tma_small";
  static constexpr const char* kLargeTma = "split_large_tma";
  static constexpr const char* kLargeTmaFc1 = "split_large_tma_fc1";
  static constexpr const char* kLargeTmaFc2 = "split_large_tma_fc2";

 protected:
  // The CUTLASS GEMM tactic of a forward of T tokens: the requested one when it is one of the two
  // (the large tile for split_large_tma_fc1 / _fc2's other GEMM), else sm90::choose_tactic's
  // heuristic (never our kernels: only the table or a forced tactic picks them).
  sm90::GroupedGemmTactic split_gemm_tactic(int64_t T) const;
  // The kernel that runs GEMM `which` (1: FC1, 2: FC2) of a forward of T tokens.
  enum class GemmKernel { kCutlass, kSmall, kLarge };
  GemmKernel gemm_kernel(int64_t T, int which) const {
    const std::string& r = requested_tactic(T);
    if (r == kTmaSmall) return GemmKernel::kSmall;
    if (r == kLargeTma || r == (which == 1 ? kLargeTmaFc1 : kLargeTmaFc2)) return GemmKernel::kLarge;
    return GemmKernel::kCutlass;
  }
  static const char* split_tactic_name(sm90::GroupedGemmTactic t) {
    return t == sm90::GroupedGemmTactic::kSwapAB ? kSwapAB : kLargeTile;
  }

  void upload_weights(const MoeWeights& w) override;
  void run_stages(const ForwardArgs& args, const ForwardContext& f) override;

  // W13 [E_local, N13, H] (gated: gate/up interleaved, kernels/sm90/common/gate_up_layout.h;
  // relu2: canonical) and canonical W2 [E_local, H, I], bf16, contiguous.
  DeviceBuffer w13_, w2_;
  // Our large kernel's tile counters (FC1: ints 0-3, FC2: 4-7), zeroed once; each launch leaves its
  // counter zero (Bf16LargeTmaArgs::tile_counter).
  DeviceBuffer tile_counters_;
  std::unique_ptr<sm90::GroupedGemmBf16> fc1_, fc2_;
  SplitBf16Knobs knobs_;

 private:
  Sm90SplitBf16(const char* name, const MoeConfig& c, const SplitBf16Knobs& knobs);
};

}  // namespace megamoe::sm90_backend
