// Shared pieces of the `megamoe` command-line tool: option parsing and the synthetic
// layer (preset -> config, weights, inputs) that run, check and bench all use.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <limits>
#include <string>
#include <vector>

#include "core/workload.h"
#include "formats/canonical_weights.h"
#include "megamoe/megamoe.h"
#include "reference/reference.h"

namespace megamoe::cli {

// --name value / --name=value / --flag options after the subcommand.
class Options {
 public:
  Options(int argc, char** argv, int first);
  // The whole command line (to start worker processes with the same arguments).
  int argc() const { return argc_; }
  char** argv() const { return argv_; }
  std::string get(const std::string& name, const std::string& fallback) const;
  int64_t get_int(const std::string& name, int64_t fallback) const;
  // get_int for options held in an int: a value outside [lo, hi] is an error naming the option.
  int get_int32(const std::string& name, int fallback, int lo = std::numeric_limits<int>::min(),
                int hi = std::numeric_limits<int>::max()) const;
  bool flag(const std::string& name) const;
  bool has(const std::string& name) const { return values_.count(name) != 0; }
  // Throws InvalidArgument for any option not in `known`.
  void allow_only(const std::vector<std::string>& known) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
  int argc_ = 0;
  char** argv_ = nullptr;
};

// The largest token count the CLI takes (routes and layer capacities are below 2^31).
constexpr int64_t kMaxCliTokens = std::numeric_limits<int32_t>::max();

// Parses "1,8,64" or "1-8192" (lo, 2 lo, 4 lo, ... up to hi) into token counts in
// [0, kMaxCliTokens]; anything else throws InvalidArgument naming --tokens.
std::vector<int64_t> parse_token_list(const std::string& text);

// Median of timings (0 for none).
double median(std::vector<double> v);

int gpu_count();  // 0 without CUDA or without a device
std::string gpu_name(int device);

// The rel-L2 a backend must reach against the CPU reference: 5e-3 (docs/DESIGN.md section 5) where
// activations stay bf16; 1e-2 where the recipe quantizes activations to FP8/FP4: Hopper's FP8
// MMA accumulates each 128-wide K block with reduced precision (~2e-4 rel-L2 on h), and
// re-quantizing a to e4m3 turns that into whole-code flips (measured 2-7e-3 end to end).
double rel_l2_limit(Recipe recipe);

// rel-L2 of bf16 outputs; NaN if either has a NaN.
double rel_l2_bf16(const std::vector<uint16_t>& out, const std::vector<uint16_t>& ref);
// Whether any element of a bf16 output is NaN (e.g. the 0xFFFF poison a kernel never overwrote).
bool has_nan_bf16(const std::vector<uint16_t>& out);
double max_abs_diff_bf16(const std::vector<uint16_t>& out, const std::vector<uint16_t>& ref);

// Host memory budget for materialising canonical weights: 40% of physical memory.
size_t host_weight_budget();

int cmd_run(const Options& opts);
int cmd_check(const Options& opts);
int cmd_bench(const Options& opts);
int cmd_tune(const Options& opts);

}  // namespace megamoe::cli
