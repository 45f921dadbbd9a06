// `megamoe bench`: see bench.cpp (GPU); without CUDA it explains why it cannot run.
#include <cstdio>

#include "cli_common.h"

namespace megamoe::cli {
#if !defined(MEGAMOE_WITH_CUDA)
int cmd_bench(const Options&) {
  throw Unsupported("bench: this build has no CUDA backends (nvcc was not found at configure time)");
}
#endif
}  // namespace megamoe::cli
