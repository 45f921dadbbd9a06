// sm90_bf16_mxfp4_bf16_split and sm90_bf16_nvfp4_bf16_split: W4A16 on Hopper, split path
// (the pipeline is Sm90SplitW4A16 in split_w4a16.h).
#include <string>

#include "backends/sm90_bf16_fp4_bf16_split/split_w4a16.h"
#include "backends/sm90_common/requirements.h"
#include "core/backend.h"

namespace megamoe {

namespace {

using sm90::Fp4Scale;
using sm90_backend::Names;

template <Fp4Scale F>
class Sm90SplitW4A16Backend final : public sm90_backend::Sm90SplitW4A16<F> {
 public:
  explicit Sm90SplitW4A16Backend(const MoeConfig& c) : sm90_backend::Sm90SplitW4A16<F>(Names<F>::kSplit, c) {}
  // The Mega backend runs this pipeline above its kernel's sizes: its tune times these tactics.
  std::string tactic_table_donor() const override { return Names<F>::kMega; }
};

template <Fp4Scale F>
std::string why_not(const MoeConfig& c) {
  return sm90_backend::split_why_not(c, Names<F>::kRecipe, 64, " (the W4A16 GEMM's K step)");
}

template <Fp4Scale F>
BackendInfo make_info() {
  return sm90_backend::backend_info<Sm90SplitW4A16Backend<F>>(Names<F>::kSplit, why_not<F>);
}

}  // namespace

BackendInfo sm90_bf16_mxfp4_bf16_split_backend_info() { return make_info<Fp4Scale::kMxfp4>(); }
BackendInfo sm90_bf16_nvfp4_bf16_split_backend_info() { return make_info<Fp4Scale::kNvfp4>(); }

}  // namespace megamoe
