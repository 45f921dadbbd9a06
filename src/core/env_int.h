// env_int: an integer knob from the environment, for the backends' and kernels' A/B switches.
#pragma once
#include <cstdint>
#include <cstdlib>

namespace megamoe {

// Decimal, or hex with 0x; `fallback` when unset or not a number. Read at layer construction
// or once per process (a static), never per forward.
inline int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const long long x = std::strtoll(v, &end, 0);
  return (end && *end == '\0') ? int64_t(x) : fallback;
}

}  // namespace megamoe
