// sm90_bf16_mxfp4_bf16_mega and sm90_bf16_nvfp4_bf16_mega: W4A16 on Hopper; the one-launch Mega
// kernel (W4A16 instantiation, kernels/sm90/mega/mega_kernel.cuh) at decode sizes, the W4A16
// split pipeline (split_w4a16.h) above them, on ONE copy of the prepared weights: the kernel
// reads the split stages' packed codes (fragment order) and scale tiles through TMA descriptors,
// and nvfp4's per-expert global scales as the split GEMM's alpha. MegaPath
// (backends/sm90_common/mega_path.h) decides per forward which path runs.
//
// Default crossover (no tactic requested): T <= kDefaultMaxTokens (see below: 0, the split path);
// `megamoe tune` measures it per machine and shape (docs/TUNING.md).
//
// Kernel shape for W4A16 (mega_kernel.cuh, Fmt): two CTAs per SM, units of at most 16 rows, so a
// hot expert with more than 16 routed rows is streamed once per 16-row unit.
#include <string>

#include "backends/sm90_bf16_fp4_bf16_split/split_w4a16.h"
#include "backends/sm90_common/mega_path.h"
#include "backends/sm90_common/requirements.h"
#include "core/backend.h"
#include "kernels/sm90/mega/mega.h"

namespace megamoe {

namespace {

using sm90::Fp4Scale;
using sm90_backend::Names;

// Measured crossover (H200, 2026-12-02, `megamoe tune` of both recipes over the four presets,
// bench/results/2026-12-02_f126587_l2pf_tune_w4a16_1-4096/): since the split GEMMs' weight copies
// prefetch 128 bytes into L2, the split path beats the kernel in 19 of the 24 cells with T <= 4
// (deepseek-v3 T = 1 mxfp4: split_small 0.097 ms against 0.107); with the split_small_k1 / k2
// tactics (f2e5a39) the kernel wins only mixtral-8x7b T = 2, which the shipped tactic table
// (core/tactics_default.cpp) and `megamoe tune` keep. Without a table entry: the split path.
// (2026-11-30, before the prefetch: the kernel won 30 of 32 cells with T <= 4.)
constexpr int64_t kDefaultMaxTokens = 0;

template <Fp4Scale F>
class Sm90MegaW4A16 final : public sm90_backend::MegaPath<sm90_backend::Sm90SplitW4A16<F>> {
  using Base = sm90_backend::MegaPath<sm90_backend::Sm90SplitW4A16<F>>;
  static constexpr sm90::mega::WeightFormat kFormat =
      F == Fp4Scale::kMxfp4 ? sm90::mega::WeightFormat::kMxfp4 : sm90::mega::WeightFormat::kNvfp4;

 public:
  explicit Sm90MegaW4A16(const MoeConfig& c) : Base(Names<F>::kMega, c, kFormat, kDefaultMaxTokens) {}

 private:
  sm90::mega::WeightMaps encode_maps() const override {
    return sm90::mega::encode_fp4_weight_maps(kFormat, this->w13_.ptr, this->s13_.ptr, this->w2_.ptr, this->s2_.ptr,
                                              this->EL_, this->H_, this->I_, this->act_.activation);
  }
  void fill_format_args(sm90::mega::MegaArgs& m) const override {
    m.alpha13 = this->g13_.template as<const float>();  // null when every alpha is 1
    m.alpha2 = this->g2_.template as<const float>();
  }
};

// The split backend's requirements (the fallback runs its pipeline); the Mega path's own limits
// only decide which path runs.
template <Fp4Scale F>
std::string why_not(const MoeConfig& c) {
  return sm90_backend::split_why_not(c, Names<F>::kRecipe, 64, " (the W4A16 GEMM's K step)");
}

}  // namespace

BackendInfo sm90_bf16_mxfp4_bf16_mega_backend_info() {
  return sm90_backend::backend_info<Sm90MegaW4A16<Fp4Scale::kMxfp4>>(Names<Fp4Scale::kMxfp4>::kMega, why_not<Fp4Scale::kMxfp4>);
}
BackendInfo sm90_bf16_nvfp4_bf16_mega_backend_info() {
  return sm90_backend::backend_info<Sm90MegaW4A16<Fp4Scale::kNvfp4>>(Names<Fp4Scale::kNvfp4>::kMega, why_not<Fp4Scale::kNvfp4>);
}

}  // namespace megamoe
