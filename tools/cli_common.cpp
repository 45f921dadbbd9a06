#include "cli_common.h"

#include "formats/codecs.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#if defined(MEGAMOE_WITH_CUDA)
#include <cuda_runtime.h>
#endif

namespace megamoe::cli {

Options::Options(int argc, char** argv, int first) : argc_(argc), argv_(argv) {
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) {
      positional_.push_back(a);
      continue;
    }
    a = a.substr(2);
    const auto eq = a.find('=');
    if (eq != std::string::npos) {
      values_[a.substr(0, eq)] = a.substr(eq + 1);
    } else if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
      values_[a] = argv[++i];
    } else {
      values_[a] = "";
    }
  }
}

std::string Options::get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

int64_t Options::get_int(const std::string& name, int64_t fallback) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  try {
    size_t used = 0;
    const int64_t v = std::stoll(it->second, &used);
    if (used == it->second.size()) return v;
  } catch (...) {
  }
  throw_invalid("--" + name, "an integer", "'" + it->second + "'");
}

int Options::get_int32(const std::string& name, int fallback, int lo, int hi) const {
  const int64_t v = get_int(name, fallback);
  if (v < lo || v > hi)
    throw_invalid("--" + name, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
                  get(name, std::to_string(fallback)));
  return int(v);
}

bool Options::flag(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) return false;
  // A word after a flag was taken as its value by the parser: say so instead of dropping it.
  if (!it->second.empty()) throw_invalid("--" + name, "no value (it is a flag)", "'" + it->second + "'");
  return true;
}

void Options::allow_only(const std::vector<std::string>& known) const {
  for (const auto& [k, v] : values_) {
    bool ok = k == "help";
    for (const auto& n : known) ok = ok || n == k;
    if (!ok) {
      std::string list;
      for (const auto& n : known) list += (list.empty() ? "--" : ", --") + n;
      throw_invalid("--" + k, "one of " + list, "an unknown option");
    }
  }
  if (!positional_.empty()) throw_invalid(positional_[0], "an option starting with --", "a bare word");
}

std::vector<int64_t> parse_token_list(const std::string& text) {
  const auto bad = [&text]() {
    throw_invalid("--tokens",
                  "a list like 1,8,64 or a doubling range like 1-8192 (lo, 2 lo, 4 lo, ... up to hi), counts in "
                  "[0, " + std::to_string(kMaxCliTokens) + "]",
                  "'" + text + "'");
  };
  // One whole number, nothing after it, inside [0, kMaxCliTokens].
  const auto number = [&bad](const std::string& s) -> int64_t {
    size_t used = 0;
    int64_t v = -1;
    try {
      v = std::stoll(s, &used);
    } catch (const std::exception&) {
      bad();
    }
    if (used != s.size() || v < 0 || v > kMaxCliTokens) bad();
    return v;
  };
  std::vector<int64_t> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    const auto dash = item.find('-', 1);  // a leading '-' is a sign: rejected as negative
    if (dash != std::string::npos) {
      const int64_t lo = number(item.substr(0, dash)), hi = number(item.substr(dash + 1));
      if (lo > hi) bad();
      for (int64_t t = lo; t <= hi; t = t ? t * 2 : 1) out.push_back(t);  // hi < 2^31: no overflow
    } else {
      out.push_back(number(item));
    }
  }
  if (out.empty()) throw_invalid("--tokens", "at least one token count", "'" + text + "'");
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

int gpu_count() {
#if defined(MEGAMOE_WITH_CUDA)
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

std::string gpu_name(int device) {
#if defined(MEGAMOE_WITH_CUDA)
  cudaDeviceProp p{};
  if (cudaGetDeviceProperties(&p, device) == cudaSuccess) return p.name;
#endif
  (void)device;
  return "cpu";
}

double rel_l2_limit(Recipe recipe) {
  switch (recipe) {
    case Recipe::kBF16: case Recipe::kW4A16MXFP4: case Recipe::kW4A16NVFP4: return 5e-3;
    default: return 1e-2;
  }
}

double rel_l2_bf16(const std::vector<uint16_t>& out, const std::vector<uint16_t>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const double a = formats::bf16_bits_to_float(out[i]), b = formats::bf16_bits_to_float(ref[i]);
    if (std::isnan(a) || std::isnan(b)) return NAN;
    num += (a - b) * (a - b);
    den += b * b;
  }
  return den > 0 ? std::sqrt(num / den) : std::sqrt(num);
}

bool has_nan_bf16(const std::vector<uint16_t>& out) {
  for (uint16_t b : out)
    if ((b & 0x7F80u) == 0x7F80u && (b & 0x007Fu) != 0) return true;
  return false;
}

double max_abs_diff_bf16(const std::vector<uint16_t>& out, const std::vector<uint16_t>& ref) {
  double m = 0;
  for (size_t i = 0; i < out.size(); ++i)
    m = std::max(m, std::fabs(double(formats::bf16_bits_to_float(out[i])) - formats::bf16_bits_to_float(ref[i])));
  return m;
}

size_t host_weight_budget() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return size_t(double(pages) * double(page) * 0.4);
}

}  // namespace megamoe::cli
