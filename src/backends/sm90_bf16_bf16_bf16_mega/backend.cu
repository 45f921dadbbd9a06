// sm90_bf16_bf16_bf16_mega: bf16 weights and activations on Hopper; the one-launch Mega kernel
// at decode sizes, the bf16 split pipeline above them, on ONE copy of the prepared weights.
// MegaPath (backends/sm90_common/mega_path.h) decides per forward which path runs and owns the
// kernel's workspace and knobs; this file only names the weights the kernel reads.
//
// Default crossover (no tactic requested): T <= 2. Measured on H200 (2026-11-30, the kernel with
// two CTAs per SM, one job; docs/BENCHMARKS.md): over the four presets the kernel was faster
// than the split pipeline in all 8 cells with T <= 2 (by 3.6-12%) and in 6 of the 12 cells from
// T = 4 to 16 (qwen3-30b-a3b up to T = 16), slower above, where the split pipeline already
// streams at 86-105% of the floor. `megamoe tune` measures the crossover per machine and shape (docs/TUNING.md).
//
// Weights: W13 [E_local, N13, H] (gated: gate/up interleaved in groups of 8 rows,
// kernels/sm90/common/gate_up_layout.h) and W2 [E_local, H, I] bf16, contiguous, exactly as the
// split backend stores them (one copy serves both paths: the kernel reads a tile's gate and up
// halves through a 4-D tensor map); biases as fp32 by the shared base
// (sm90_common/sm90_backend_base.h).
#include <string>

#include "backends/sm90_bf16_bf16_bf16_split/split_bf16.h"
#include "backends/sm90_common/mega_path.h"
#include "backends/sm90_common/requirements.h"
#include "core/backend.h"
#include "kernels/sm90/mega/mega.h"

namespace megamoe {

namespace {

constexpr const char* kName = "sm90_bf16_bf16_bf16_mega";
constexpr int64_t kDefaultMaxTokens = 2;  // measured crossover, see the top of this file

class Sm90MegaBf16 final : public sm90_backend::MegaPath<sm90_backend::Sm90SplitBf16> {
 public:
  explicit Sm90MegaBf16(const MoeConfig& c) : MegaPath(kName, c, sm90::mega::WeightFormat::kBf16, kDefaultMaxTokens) {}

 private:
  sm90::mega::WeightMaps encode_maps() const override {
    return sm90::mega::encode_weight_maps(w13_.ptr, w2_.ptr, EL_, H_, I_, act_.activation);
  }
};

// The split backend's requirements (the fallback runs its pipeline); the Mega path's own limits
// only decide which path runs.
std::string why_not(const MoeConfig& c) { return sm90_backend::split_why_not(c, Recipe::kBF16, 64, ""); }

}  // namespace

BackendInfo sm90_bf16_bf16_bf16_mega_backend_info() { return sm90_backend::backend_info<Sm90MegaBf16>(kName, why_not); }

}  // namespace megamoe
