// The backend registry, in "auto" preference order: GPU backends first (fastest that
// supports the device, recipe and shape), the CPU reference last.
#include "core/backend.h"
#include "megamoe/errors.h"

namespace megamoe {

BackendInfo cpu_reference_backend_info();
#if defined(MEGAMOE_WITH_CUDA)
BackendInfo sm90_fp8_fp8_bf16_mega_backend_info();
BackendInfo sm90_fp8_fp8_bf16_split_backend_info();
BackendInfo sm90_bf16_mxfp4_bf16_split_backend_info();
BackendInfo sm90_bf16_nvfp4_bf16_split_backend_info();
BackendInfo sm90_bf16_mxfp4_bf16_mega_backend_info();
BackendInfo sm90_bf16_nvfp4_bf16_mega_backend_info();
BackendInfo sm90_bf16_bf16_bf16_split_backend_info();
BackendInfo sm90_bf16_bf16_bf16_mega_backend_info();
#endif

const std::vector<BackendInfo>& backend_registry() {
  static const std::vector<BackendInfo> registry = [] {
    std::vector<BackendInfo> r;
#if defined(MEGAMOE_WITH_CUDA)
    // fp8_block: the mega backend (its one-launch kernel at decode sizes, the split stages
    // elsewhere, see its backend.cu), then the split backend.
    r.push_back(sm90_fp8_fp8_bf16_mega_backend_info());
    r.push_back(sm90_fp8_fp8_bf16_split_backend_info());
    // W4A16: "auto" takes the mega backends (the one-launch kernel where the shipped tactic table
    // or a tune measured it faster; without a table never (default crossover 0), see their
    // backend.cu; the same split stages elsewhere).
    r.push_back(sm90_bf16_mxfp4_bf16_mega_backend_info());
    r.push_back(sm90_bf16_nvfp4_bf16_mega_backend_info());
    r.push_back(sm90_bf16_mxfp4_bf16_split_backend_info());
    r.push_back(sm90_bf16_nvfp4_bf16_split_backend_info());
    // bf16: "auto" takes the mega backend: its one-launch kernel where it measured faster than the
    // split pipeline (T <= 2 by default, see its backend.cu), the same split stages elsewhere.
    r.push_back(sm90_bf16_bf16_bf16_mega_backend_info());
    r.push_back(sm90_bf16_bf16_bf16_split_backend_info());
#endif
    r.push_back(cpu_reference_backend_info());
    return r;
  }();
  return registry;
}

std::vector<std::string> registered_backends() {
  std::vector<std::string> names;
  for (const auto& b : backend_registry()) names.push_back(b.name);
  return names;
}

}  // namespace megamoe

namespace megamoe {

void Backend::force_tactic(const std::string& name) {
  if (!name.empty()) {
    const std::vector<std::string> names = tactic_names();
    std::string list;
    bool known = false;
    for (const auto& n : names) {
      known = known || n == name;
      list += list.empty() ? n : "|" + n;
    }
    if (!known)
      throw_invalid("tactic", names.empty() ? std::string("\"\" (this backend has no tactics)") : "\"\" or one of " + list,
                    "'" + name + "'");
  }
  forced_ = name;
}

}  // namespace megamoe
