// Seeds for tests that draw fresh random data every run: a base seed per process (from the OS unless
// MEGAMOE_TEST_SEED pins it), and a case's seed as FNV-1a of its name xor the base, so a case's
// data does not change when other cases are added. A failing test prints the base seed (the
// TRACE macro below); rerun with MEGAMOE_TEST_SEED=<that value> to get the same data.
// Shared by the CPU, GPU and multi-GPU suites.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>

namespace megamoe::testseed {

inline uint64_t base_seed() {
  static const uint64_t seed = [] {
    if (const char* s = std::getenv("MEGAMOE_TEST_SEED")) return uint64_t(std::strtoull(s, nullptr, 0));
    std::random_device rd;
    return (uint64_t(rd()) << 32) ^ uint64_t(rd());
  }();
  return seed;
}

// FNV-1a of `name` xor `base` (a fixed base replays a recorded run's data).
inline uint64_t seed_of(const std::string& name, uint64_t base) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a 64-bit offset basis
  for (char ch : name) h = (h ^ uint8_t(ch)) * 1099511628211ull;  // FNV-1a 64-bit prime
  return h ^ base;
}

inline uint64_t case_seed(const std::string& name) { return seed_of(name, base_seed()); }

}  // namespace megamoe::testseed

#define MEGAMOE_TRACE_SEED() SCOPED_TRACE("MEGAMOE_TEST_SEED=" + std::to_string(::megamoe::testseed::base_seed()))
