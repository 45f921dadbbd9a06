// Tactics: the alternatives a GPU backend can run for one forward (the one-launch kernel or
// the split pipeline, a GEMM's tile shape or swap-AB form), and the tactic cache that
// `megamoe tune` writes and MoeLayer reads (docs/TUNING.md).
//
// A backend names its tactics (Backend::tactic_names) and runs, for T tokens: the tactic forced
// with MoeLayer::force_tactic, else the cache's tactic of T's token bucket, else its own
// heuristic. Buckets are powers of two, 1 .. 32768; T rounds up (T = 300 -> 512, T = 12288 ->
// 16384, T > 32768 -> 32768). A cache entry holds one tactic per bucket for one key: the machine
// (GPU name, SM count, CUDA driver version, megamoe version) and the layer (backend, recipe,
// activation, biases, local experts, top_k, H, I).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace megamoe {

constexpr int kTacticBuckets = 16;  // T = 1, 2, 4, ..., 32768
// Buckets 1 .. 8192: what a cache entry covered before the 16384 and 32768 buckets existed, and
// what every shipped entry names (tests/cpu/test_tactics.cpp).
constexpr int kTacticBucketsTo8192 = 14;
using TacticTable = std::array<std::string, kTacticBuckets>;  // "" = no entry (heuristic)

int tactic_bucket_index(int64_t T);  // ceil(log2(T)) clamped to [0, 15]; T <= 1 -> 0
inline int64_t tactic_bucket_tokens(int index) { return int64_t(1) << index; }

// The table a layer runs from an entry's table: a bucket past 8192 that names no tactic takes the
// bucket below's (16384 from 8192, 32768 from 16384), so an entry measured up to 8192 -- every
// cache written before those buckets existed, and the shipped defaults where they were not
// measured -- runs T > 8192 as it always did (with the 8192 bucket's tactic), and a tune of 16384
// alone also covers T > 16384. Buckets up to 8192 are kept as they are ("" = the heuristic).
TacticTable with_large_buckets_inherited(TacticTable table);

struct TacticKey {
  // machine
  std::string gpu;      // cudaDeviceProp::name
  int sm_count = 0;
  int driver = 0;       // cudaDriverGetVersion
  std::string library;  // megamoe version
  // layer
  std::string backend, recipe, activation;
  bool bias = false;
  int64_t experts = 0, top_k = 0, hidden = 0, intermediate = 0;  // experts: this rank's

  bool same_layer(const TacticKey& o) const;
  bool same_machine(const TacticKey& o) const;
  std::string describe() const;  // one line, for warnings and tables
};

struct TacticEntry {
  TacticKey key;
  TacticTable tactic;
  // What tune measured per bucket: (tactic, median ms), in the order tried.
  std::array<std::vector<std::pair<std::string, double>>, kTacticBuckets> measured;
};

struct TacticCache {
  std::vector<TacticEntry> entries;

  // The cache in `path`. A missing file is an empty cache. A file that is not a valid cache
  // (bad JSON, wrong version, a malformed entry) is an empty cache with *warning set; never
  // throws. Entries with unknown extra members are kept (forward compatible).
  static TacticCache load(const std::string& path, std::string* warning);
  // Parses text; throws JsonError / Error with what is wrong (load() catches).
  static TacticCache parse(const std::string& text);
  std::string to_json() const;
  // Writes atomically (temporary file + rename), creating the directory; throws Error.
  void save(const std::string& path) const;
  // The entry for the layer and machine of `key`, or null. *stale_other: set to the first entry
  // for the same layer measured on another machine / driver / megamoe version.
  const TacticEntry* find(const TacticKey& key, const TacticEntry** stale_other = nullptr) const;
  // Replaces the entry with the same layer and machine, or appends.
  void put(const TacticEntry& e);
};

// Fills the layer part of `key` (and the library version) from a layer's config and backend
// name: what MoeLayer looks up and what `megamoe tune` writes.
struct MoeConfig;
void layer_tactic_key(const MoeConfig& c, const std::string& backend, TacticKey* key);

// $MEGAMOE_TACTIC_CACHE, else $XDG_CACHE_HOME/megamoe/tactics.json, else
// $HOME/.cache/megamoe/tactics.json ("" when none of those is set).
std::string default_tactic_cache_path();

// The tactic table a layer uses. `option` is MoeConfig::tactic_cache: "" = the default path,
// "off" = no cache and no shipped defaults (also when $MEGAMOE_TACTIC_CACHE is "off"), else a
// file path. Order: the cache's entry for this
// machine; else the defaults shipped with megamoe (tactics_default.cpp: measured entries that
// match the GPU name and SM count, whatever the driver); else an empty table. A corrupt cache or
// a stale entry (this layer measured on another machine or version) prints one warning to
// stderr per path and process and is ignored. *source says where the table came from.
TacticTable lookup_tactics(const TacticKey& key, const std::string& option, std::string* source);
// The shipped defaults alone (no cache, no warning), buckets past 8192 inherited as a layer runs
// them: what a layer of `key` runs on this GPU without a tactic cache (`megamoe tune` compares its
// winners with it). Empty when no shipped entry serves the key; *source as lookup_tactics says it.
TacticTable lookup_shipped_tactics(const TacticKey& key, std::string* source);
// The table of a backend that has none of its own, borrowed from the backend it names as its
// donor (Backend::tactic_table_donor: the Mega backend of the same recipe, whose fallback is this
// split pipeline on the same prepared weights and whose `megamoe tune` times the same split
// tactics). `donor_key` is the layer's key with the donor's name. Per bucket: the fastest of
// `known` that the donor's entry measured, else the donor's chosen tactic when it is one of
// `known`, else "" (the heuristic). The donor's other tactics are skipped without a warning.
// *source: "<where the donor's entry came from> (measured for <donor>)", or "none".
TacticTable lookup_donor_tactics(const TacticKey& donor_key, const std::vector<std::string>& known,
                                 const std::string& option, std::string* source);
// The table without the names `known` (the backend's tactic_names()) lacks: each dropped entry
// (a hand-edited cache, a tactic a later version removed) warns once; its bucket falls back to the
// backend's heuristic.
TacticTable known_tactics_only(const TacticTable& table, const std::vector<std::string>& known,
                               const std::string& source);

// The defaults shipped with the library, as a cache text (tactics_default.cpp).
const char* shipped_tactics_json();

}  // namespace megamoe
