#include "core/tactics.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <sys/stat.h>

#include "core/json.h"
#include "megamoe/config.h"
#include "megamoe/errors.h"
#include "megamoe/version.h"

namespace megamoe {

namespace {
constexpr const char* kFormat = "megamoe-tactics";
constexpr int kVersion = 1;
}  // namespace

int tactic_bucket_index(int64_t T) {
  int i = 0;
  while (i < kTacticBuckets - 1 && tactic_bucket_tokens(i) < T) ++i;
  return i;
}

TacticTable with_large_buckets_inherited(TacticTable table) {
  for (int b = kTacticBucketsTo8192; b < kTacticBuckets; ++b)
    if (table[size_t(b)].empty()) table[size_t(b)] = table[size_t(b - 1)];
  return table;
}

bool TacticKey::same_layer(const TacticKey& o) const {
  return backend == o.backend && recipe == o.recipe && activation == o.activation && bias == o.bias &&
         experts == o.experts && top_k == o.top_k && hidden == o.hidden && intermediate == o.intermediate;
}
bool TacticKey::same_machine(const TacticKey& o) const {
  return gpu == o.gpu && sm_count == o.sm_count && driver == o.driver && library == o.library;
}
std::string TacticKey::describe() const {
  return backend + " " + recipe + " " + activation + (bias ? "+bias" : "") + " E_local=" + std::to_string(experts) +
         " K=" + std::to_string(top_k) + " H=" + std::to_string(hidden) + " I=" + std::to_string(intermediate) +
         " on " + gpu + " (" + std::to_string(sm_count) + " SMs, driver " + std::to_string(driver) + ", megamoe " +
         library + ")";
}

namespace {

[[noreturn]] void bad(const std::string& what) { throw Error("tactic cache: " + what); }

const Json& member(const Json& o, const char* key) {
  const Json* v = o.get(key);
  if (!v) bad(std::string("an entry lacks \"") + key + "\"");
  return *v;
}
std::string str_member(const Json& o, const char* key) {
  const Json& v = member(o, key);
  if (!v.is_string()) bad(std::string("\"") + key + "\" is not a string");
  return v.string;
}
int64_t int_member(const Json& o, const char* key) {
  const Json& v = member(o, key);
  if (!v.is_number() || v.number != std::floor(v.number) || std::fabs(v.number) > 9.0e15)
    bad(std::string("\"") + key + "\" is not an integer");
  return int64_t(v.number);
}
// A bucket name: the decimal token count of a power of two in [1, 32768].
int bucket_of(const std::string& name) {
  for (int i = 0; i < kTacticBuckets; ++i)
    if (name == std::to_string(tactic_bucket_tokens(i))) return i;
  bad("\"" + name + "\" is not a token bucket (1, 2, 4, ..., 32768)");
}

TacticEntry parse_entry(const Json& e) {
  if (!e.is_object()) bad("an entry is not an object");
  TacticEntry t;
  TacticKey& k = t.key;
  k.gpu = str_member(e, "gpu");
  const auto int32_member = [&e](const char* key) {
    const int64_t v = int_member(e, key);
    if (v < 0 || v > std::numeric_limits<int32_t>::max()) bad(std::string("\"") + key + "\" is out of range");
    return int(v);
  };
  k.sm_count = int32_member("sm_count");
  k.driver = int32_member("driver");
  k.library = str_member(e, "library");
  k.backend = str_member(e, "backend");
  k.recipe = str_member(e, "recipe");
  k.activation = str_member(e, "activation");
  const Json& b = member(e, "bias");
  if (b.kind != Json::Kind::kBool) bad("\"bias\" is not true/false");
  k.bias = b.boolean;
  k.experts = int_member(e, "experts");
  k.top_k = int_member(e, "top_k");
  k.hidden = int_member(e, "hidden");
  k.intermediate = int_member(e, "intermediate");
  const Json& tac = member(e, "tactics");
  if (!tac.is_object()) bad("\"tactics\" is not an object");
  for (const auto& [bucket, name] : tac.object) {
    if (!name.is_string() || name.string.empty()) bad("tactic of bucket " + bucket + " is not a name");
    t.tactic[size_t(bucket_of(bucket))] = name.string;
  }
  if (const Json* ms = e.get("measured_ms")) {
    if (!ms->is_object()) bad("\"measured_ms\" is not an object");
    for (const auto& [bucket, per] : ms->object) {
      if (!per.is_object()) bad("measured_ms of bucket " + bucket + " is not an object");
      auto& list = t.measured[size_t(bucket_of(bucket))];
      for (const auto& [name, v] : per.object) {
        if (!v.is_number()) bad("measured_ms of " + name + " is not a number");
        list.emplace_back(name, v.number);
      }
    }
  }
  return t;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// One warning per (path, text) and process: layers are constructed often.
void warn_once(const std::string& text) {
  static std::mutex m;
  static std::set<std::string> seen;
  std::lock_guard<std::mutex> lock(m);
  if (seen.insert(text).second) std::fprintf(stderr, "megamoe: warning: %s\n", text.c_str());
}

}  // namespace

TacticCache TacticCache::parse(const std::string& text) {
  const Json doc = parse_json(text);
  if (!doc.is_object()) bad("the document is not an object");
  const Json* f = doc.get("format");
  if (!f || !f->is_string() || f->string != kFormat) bad(std::string("\"format\" is not \"") + kFormat + "\"");
  const Json* v = doc.get("version");
  if (!v || !v->is_number() || v->number != kVersion)
    bad("\"version\" is not " + std::to_string(kVersion) + " (written by another megamoe version)");
  const Json* list = doc.get("entries");
  if (!list || !list->is_array()) bad("\"entries\" is not an array");
  TacticCache c;
  for (const Json& e : list->array) c.entries.push_back(parse_entry(e));
  return c;
}

TacticCache TacticCache::load(const std::string& path, std::string* warning) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};  // no cache yet
  std::stringstream ss;
  ss << in.rdbuf();
  try {
    return parse(ss.str());
  } catch (const std::exception& e) {
    if (warning) *warning = "ignoring the tactic cache " + path + ": " + e.what();
    return {};
  }
}

std::string TacticCache::to_json() const {
  std::string s = std::string("{\n  \"format\": \"") + kFormat + "\",\n  \"version\": " + std::to_string(kVersion) +
                  ",\n  \"entries\": [";
  for (size_t n = 0; n < entries.size(); ++n) {
    const TacticEntry& e = entries[n];
    const TacticKey& k = e.key;
    s += n ? ",\n    {" : "\n    {";
    s += "\"gpu\": " + json_quote(k.gpu) + ", \"sm_count\": " + std::to_string(k.sm_count) +
         ", \"driver\": " + std::to_string(k.driver) + ", \"library\": " + json_quote(k.library) + ",\n     " +
         "\"backend\": " + json_quote(k.backend) + ", \"recipe\": " + json_quote(k.recipe) +
         ", \"activation\": " + json_quote(k.activation) + ", \"bias\": " + (k.bias ? "true" : "false") +
         ", \"experts\": " + std::to_string(k.experts) + ", \"top_k\": " + std::to_string(k.top_k) +
         ", \"hidden\": " + std::to_string(k.hidden) + ", \"intermediate\": " + std::to_string(k.intermediate) +
         ",\n     \"tactics\": {";
    bool first = true;
    for (int i = 0; i < kTacticBuckets; ++i) {
      if (e.tactic[size_t(i)].empty()) continue;
      s += (first ? "\"" : ", \"") + std::to_string(tactic_bucket_tokens(i)) + "\": " + json_quote(e.tactic[size_t(i)]);
      first = false;
    }
    s += "},\n     \"measured_ms\": {";
    first = true;
    for (int i = 0; i < kTacticBuckets; ++i) {
      const auto& list = e.measured[size_t(i)];
      if (list.empty()) continue;
      s += (first ? "\"" : ", \"") + std::to_string(tactic_bucket_tokens(i)) + "\": {";
      for (size_t j = 0; j < list.size(); ++j) s += (j ? ", " : "") + json_quote(list[j].first) + ": " + num(list[j].second);
      s += "}";
      first = false;
    }
    s += "}}";
  }
  s += entries.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return s;
}

void TacticCache::save(const std::string& path) const {
  if (path.empty()) throw_invalid("tactic cache path", "a file path", "an empty string (no default location: set $HOME or $MEGAMOE_TACTIC_CACHE)");
  // Create the parent directories (one level at a time; existing ones are fine).
  for (size_t p = path.find('/', 1); p != std::string::npos; p = path.find('/', p + 1)) {
    const std::string dir = path.substr(0, p);
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
      throw Error("tactic cache: cannot create directory " + dir + ": " + std::to_string(errno));
  }
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("tactic cache: cannot write " + tmp);
    out << to_json();
    if (!out) throw Error("tactic cache: write to " + tmp + " failed");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) throw Error("tactic cache: cannot rename " + tmp + " to " + path);
}

const TacticEntry* TacticCache::find(const TacticKey& key, const TacticEntry** stale_other) const {
  if (stale_other) *stale_other = nullptr;
  for (const TacticEntry& e : entries) {
    if (!e.key.same_layer(key)) continue;
    if (e.key.same_machine(key)) return &e;
    if (stale_other && !*stale_other) *stale_other = &e;
  }
  return nullptr;
}

void TacticCache::put(const TacticEntry& e) {
  for (TacticEntry& old : entries)
    if (old.key.same_layer(e.key) && old.key.same_machine(e.key)) {
      old = e;
      return;
    }
  entries.push_back(e);
}

void layer_tactic_key(const MoeConfig& c, const std::string& backend, TacticKey* key) {
  key->library = MEGAMOE_VERSION_STRING;
  key->backend = backend;
  key->recipe = recipe_name(c.recipe);
  key->activation = activation_name(c.activation);
  key->bias = c.has_bias;
  key->experts = c.local_experts();
  key->top_k = c.top_k;
  key->hidden = c.hidden_size;
  key->intermediate = c.intermediate_size;
}

std::string default_tactic_cache_path() {
  if (const char* p = std::getenv("MEGAMOE_TACTIC_CACHE"); p && *p) return p;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/megamoe/tactics.json";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/megamoe/tactics.json";
  return "";
}

namespace {

// The shipped defaults' entry for `key` (tactics_default.cpp), if any; *source as lookup_tactics says
// it. warn: the one-time warning when another GPU's entry serves this one.
std::optional<TacticEntry> shipped_entry(const TacticKey& key, std::string* source, bool warn) {
  if (source) *source = "none";
  // The shipped defaults: measured on a GPU of this name and SM count (any driver / version).
  static const TacticCache shipped = [] {
    try {
      return TacticCache::parse(shipped_tactics_json());
    } catch (const std::exception& e) {
      warn_once(std::string("ignoring the shipped tactic defaults: ") + e.what());
      return TacticCache{};
    }
  }();
  // This GPU's entry, and the first complete entry (every bucket up to 8192 named) of another GPU
  // with the same SM count (the backends run on sm_90a only: an H100 SXM or H800 next to the H200
  // the table was first measured on): the tactics' tile counts and waves depend on the SM count, and
  // a measured table beats the fixed heuristic more often than not.
  auto complete = [](const TacticEntry& e) {
    for (int b = 0; b < kTacticBucketsTo8192; ++b)
      if (e.tactic[size_t(b)].empty()) return false;
    return true;
  };
  const TacticEntry* own = nullptr;
  const TacticEntry* sibling = nullptr;
  for (const TacticEntry& e : shipped.entries) {
    if (!e.key.same_layer(key) || e.key.sm_count != key.sm_count) continue;
    if (e.key.gpu == key.gpu) {
      if (!own) own = &e;
    } else if (!sibling && complete(e)) {
      sibling = &e;
    }
  }
  // A GPU's own entry may name only the buckets where its `megamoe tune` beat the sibling's tactic
  // (scripts/merge_tune.py --add): the buckets it leaves empty run the sibling's.
  if (own) {
    TacticEntry out = *own;
    bool filled = false;
    if (sibling)
      for (size_t b = 0; b < out.tactic.size(); ++b)
        if (out.tactic[b].empty() && !sibling->tactic[b].empty()) {
          out.tactic[b] = sibling->tactic[b];
          out.measured[b] = sibling->measured[b];
          filled = true;
        }
    if (source)
      *source = filled ? "shipped defaults (the buckets it does not name: measured on " + sibling->key.gpu + ")"
                       : "shipped defaults";
    return out;
  }
  // Not measured on this GPU at all: say so once; `megamoe tune` replaces it.
  if (sibling) {
    if (warn)
      warn_once("no tactic table measured on " + key.gpu + "; using the shipped one measured on " + sibling->key.gpu +
                " (same SM count, " + std::to_string(key.sm_count) + ") for " + key.describe() +
                "; run `megamoe tune` on this GPU for its own (docs/TUNING.md)");
    if (source) *source = "shipped defaults (measured on " + sibling->key.gpu + ")";
    return *sibling;
  }
  return std::nullopt;
}

// The entry lookup_tactics() uses for `key` (cache, then shipped defaults), if any; *source says
// where it came from ("none" when there is none).
std::optional<TacticEntry> find_tactic_entry(const TacticKey& key, const std::string& option, std::string* source) {
  if (source) *source = "none";
  const std::string path = option.empty() ? default_tactic_cache_path() : option;
  if (path == "off") return std::nullopt;  // MoeConfig::tactic_cache or $MEGAMOE_TACTIC_CACHE
  if (!path.empty()) {
    std::string warning;
    const TacticCache cache = TacticCache::load(path, &warning);
    if (!warning.empty()) warn_once(warning);
    const TacticEntry* stale = nullptr;
    if (const TacticEntry* e = cache.find(key, &stale)) {
      if (source) *source = path;
      return *e;
    }
    if (stale)
      warn_once("ignoring the stale tactic-cache entry in " + path + " for " + stale->key.describe() +
                ": this is " + key.gpu + " (" + std::to_string(key.sm_count) + " SMs, driver " +
                std::to_string(key.driver) + ", megamoe " + key.library + "); run `megamoe tune` again");
  }
  return shipped_entry(key, source, true);
}

bool is_known(const std::vector<std::string>& known, const std::string& name) {
  return std::find(known.begin(), known.end(), name) != known.end();
}

}  // namespace

TacticTable lookup_tactics(const TacticKey& key, const std::string& option, std::string* source) {
  const std::optional<TacticEntry> e = find_tactic_entry(key, option, source);
  return e ? e->tactic : TacticTable{};
}

TacticTable lookup_shipped_tactics(const TacticKey& key, std::string* source) {
  const std::optional<TacticEntry> e = shipped_entry(key, source, false);
  return e ? with_large_buckets_inherited(e->tactic) : TacticTable{};
}

TacticTable lookup_donor_tactics(const TacticKey& donor_key, const std::vector<std::string>& known,
                                 const std::string& option, std::string* source) {
  std::string from;
  const std::optional<TacticEntry> e = find_tactic_entry(donor_key, option, &from);
  if (source) *source = e ? from + " (measured for " + donor_key.backend + ")" : "none";
  TacticTable out{};
  if (!e) return out;
  for (size_t b = 0; b < out.size(); ++b) {
    double best_ms = 0.0;
    for (const auto& [name, ms] : e->measured[b])
      if (is_known(known, name) && ms > 0.0 && (out[b].empty() || ms < best_ms)) {
        out[b] = name;
        best_ms = ms;
      }
    if (out[b].empty() && is_known(known, e->tactic[b])) out[b] = e->tactic[b];  // no timings kept
  }
  return out;
}

TacticTable known_tactics_only(const TacticTable& table, const std::vector<std::string>& known,
                               const std::string& source) {
  TacticTable out = table;
  for (size_t b = 0; b < out.size(); ++b) {
    if (out[b].empty() || is_known(known, out[b])) continue;
    warn_once("ignoring tactic '" + out[b] + "' for T = " + std::to_string(tactic_bucket_tokens(int(b))) + " from " +
              source + ": not a tactic of this backend");
    out[b].clear();
  }
  return out;
}

}  // namespace megamoe
