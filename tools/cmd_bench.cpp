// `megamoe bench` and `megamoe tune`: see bench.cpp (GPU); without CUDA they explain why they
// cannot run.
#include <cstdio>

#include "cli_common.h"

namespace megamoe::cli {
#if !defined(MEGAMOE_WITH_CUDA)
int cmd_bench(const Options&) {
  throw Unsupported("bench: this build has no CUDA backends (nvcc was not found at configure time)");
}
int cmd_tune(const Options&) {
  throw Unsupported("tune: this build has no CUDA backends (nvcc was not found at configure time)");
}
#endif
}  // namespace megamoe::cli
