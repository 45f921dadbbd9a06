// sm90_fp8_fp8_bf16_mega: recipe fp8_block (DeepSeek-V3 style) on Hopper; the one-launch Mega
// kernel (fp8 instantiation, kernels/sm90/mega/mega_kernel.cuh: e4m3 weights streamed by TMA, x
// and `a` quantized to e4m3 with 1x128 scales inside the kernel by the CPU quantizer's rule,
// mma.sync e4m3 with per-128-K promotion) at decode sizes, the fp8_block split pipeline
// (split_fp8.h) above them, on ONE copy of the prepared weights: the kernel reads the split
// stages' e4m3 codes through TMA descriptors and their MN-major block scales directly. MegaPath
// (backends/sm90_common/mega_path.h) decides per forward which path runs.
//
// Shapes: everything the split backend accepts (H, I multiples of 16); the kernel runs when H and
// I are multiples of 64 (MegaPath), the split pipeline otherwise.
//
// Default crossover (no tactic requested): T <= kDefaultMaxTokens (see below); `megamoe tune`
// measures it per machine and shape (docs/TUNING.md).
#include <string>

#include "backends/sm90_common/mega_path.h"
#include "backends/sm90_common/requirements.h"
#include "backends/sm90_fp8_fp8_bf16_split/split_fp8.h"
#include "core/backend.h"
#include "kernels/sm90/mega/mega.h"

namespace megamoe {

namespace {

constexpr const char* kName = "sm90_fp8_fp8_bf16_mega";
// Measured (H200, `megamoe tune` at 2cc67cf, bench/results/2026-11-30_2cc67cf_tune_fp8_block.txt):
// the kernel beat the split pipeline at every T <= 4 on the four presets (by 1.05-1.22x), and up
// to T = 8 (deepseek-v3, gpt-oss-120b) or 16 (qwen3-30b-a3b, mixtral-8x7b); the shipped table
// has those per-preset crossovers, this is the default for other shapes.
constexpr int64_t kDefaultMaxTokens = 4;

class Sm90MegaFp8 final : public sm90_backend::MegaPath<sm90_backend::Sm90SplitFp8> {
 public:
  explicit Sm90MegaFp8(const MoeConfig& c) : MegaPath(kName, c, sm90::mega::WeightFormat::kFp8, kDefaultMaxTokens) {}

 private:
  sm90::mega::WeightMaps encode_maps() const override {
    return sm90::mega::encode_fp8_weight_maps(w13_.ptr, w2_.ptr, EL_, H_, I_, act_.activation);
  }
  void fill_format_args(sm90::mega::MegaArgs& m) const override {
    m.wscale13 = s13_.as<const float>();
    m.wscale2 = s2_.as<const float>();
  }
};

// The split backend's requirements (the fallback runs its pipeline); the Mega path's own limits
// only decide which path runs.
std::string why_not(const MoeConfig& c) {
  return sm90_backend::split_why_not(c, Recipe::kFP8Block, 16, " (16-byte TMA row strides of the e4m3 GEMM operands)");
}

}  // namespace

BackendInfo sm90_fp8_fp8_bf16_mega_backend_info() { return sm90_backend::backend_info<Sm90MegaFp8>(kName, why_not); }

}  // namespace megamoe
