// Argument validation shared by MoeLayer and the tools: every check names the argument,
// the expected and the actual value (megamoe::InvalidArgument).
#pragma once
#include <initializer_list>
#include <string>
#include <vector>

#include "megamoe/config.h"
#include "megamoe/tensor.h"
#include "megamoe/weights.h"

namespace megamoe {

// Expected shape entry -1 means "any size" (printed as `name_for_any`).
struct ShapeSpec {
  std::vector<int64_t> dims;
  std::vector<std::string> names;  // printed form of each dim, e.g. {"T", "7168"}
  std::string str() const;
};

void check_dtype(const TensorView& t, const std::string& name, std::initializer_list<DType> allowed);
void check_shape(const TensorView& t, const std::string& name, const ShapeSpec& spec);
void check_device(const TensorView& t, const std::string& name, const std::vector<Device>& allowed);
void check_contiguous(const TensorView& t, const std::string& name);
// Rows may be padded: stride[ndim-1] == 1 and stride[ndim-2] >= shape[ndim-1].
void check_row_major(const TensorView& t, const std::string& name);

// Validates forward() arguments against the config; returns T.
int64_t validate_forward(const MoeConfig& c, Device device, const TensorView& x,
                         const TensorView& topk_ids, const TensorView& topk_weights,
                         const TensorView& out);
// Checks host-resident ids for values other than -1 and [0, E) (throws naming the first).
void check_host_ids(const TensorView& topk_ids, int64_t num_experts, int64_t T, int64_t K);
// MoeConfig::ep_style and the tools' --ep-style: auto, push or pull (`name` is the argument named).
void check_ep_style(const std::string& style, const std::string& name);
// Validates canonical weights for the config's recipe (include/megamoe/weights.h).
// `allowed` lists the devices weights may live on.
void validate_weights(const MoeConfig& c, const MoeWeights& w, const std::vector<Device>& allowed);

}  // namespace megamoe
