// sm90_fp8_fp8_bf16_split: recipe fp8_block (DeepSeek-V3 style) on Hopper, split path (the
// pipeline is Sm90SplitFp8 in split_fp8.h).
#include <string>

#include "backends/sm90_common/requirements.h"
#include "backends/sm90_fp8_fp8_bf16_split/split_fp8.h"
#include "core/backend.h"

namespace megamoe {

namespace {

constexpr const char* kName = "sm90_fp8_fp8_bf16_split";

class Sm90SplitFp8Backend final : public sm90_backend::Sm90SplitFp8 {
 public:
  explicit Sm90SplitFp8Backend(const MoeConfig& c) : Sm90SplitFp8(kName, c) {}
  // The Mega backend runs this pipeline above its kernel's sizes: its tune times these tactics.
  std::string tactic_table_donor() const override { return "sm90_fp8_fp8_bf16_mega"; }
};

// 16: TMA, which loads the e4m3 GEMM operands, needs 16-byte aligned row strides, and the rows
// are H (FC1) and I (FC2) bytes long. Partial 128-blocks are handled (see split_fp8.h).
std::string why_not(const MoeConfig& c) {
  return sm90_backend::split_why_not(c, Recipe::kFP8Block, 16, " (16-byte TMA row strides of the e4m3 GEMM operands)");
}

}  // namespace

BackendInfo sm90_fp8_fp8_bf16_split_backend_info() { return sm90_backend::backend_info<Sm90SplitFp8Backend>(kName, why_not); }

}  // namespace megamoe
