// The tactic cache's host side (core/tactics.h, core/json.h): the JSON reader, token buckets,
// the cache's round trip, matching, stale and corrupt files, the default path, the shipped
// defaults, and the MoeLayer tactic API on a backend without tactics (the CPU reference).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>

#include "core/json.h"
#include "core/tactics.h"
#include "megamoe/megamoe.h"
#include "reference_test_util.h"

namespace megamoe {
namespace {

std::string temp_dir() {
  return "/tmp/megamoe_tactics_test_" + std::to_string(::getpid());
}

TacticEntry sample_entry(const std::string& gpu = "NVIDIA H200", int driver = 13000) {
  TacticEntry e;
  e.key.gpu = gpu;
  e.key.sm_count = 132;
  e.key.driver = driver;
  e.key.library = MEGAMOE_VERSION_STRING;
  e.key.backend = "sm90_bf16_bf16_bf16_mega";
  e.key.recipe = "bf16";
  e.key.activation = "swiglu";
  e.key.bias = false;
  e.key.experts = 128;
  e.key.top_k = 8;
  e.key.hidden = 2048;
  e.key.intermediate = 768;
  e.tactic[0] = "mega";
  e.tactic[3] = "split_swap_ab";
  e.measured[0] = {{"mega", 0.0522}, {"split_swap_ab", 0.0565}, {"split_large_tile", 0.0712}};
  return e;
}

TEST(Json, ParsesValuesAndRejectsMalformedText) {
  const Json v = parse_json(R"( {"a": [1, -2.5e3, true, false, null], "b": {"c": "x\"\\\n\u00e9\ud83d\ude00"}} )");
  ASSERT_TRUE(v.is_object());
  const Json* a = v.get("a");
  ASSERT_TRUE(a && a->is_array());
  ASSERT_EQ(a->array.size(), 5u);
  EXPECT_EQ(a->array[0].number, 1.0);
  EXPECT_EQ(a->array[1].number, -2500.0);
  EXPECT_TRUE(a->array[2].boolean);
  EXPECT_EQ(a->array[4].kind, Json::Kind::kNull);
  EXPECT_EQ(v.get("b")->get("c")->string, "x\"\\\n\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(v.get("missing"), nullptr);
  for (const char* bad : {"", "{", "[1,]", "{\"a\" 1}", "{\"a\": 1,}", "\"abc", "\"\\q\"", "\"\\ud800\"", "01x",
                          "tru", "[1] 2", "\"a\nb\"", "-", "1.", "1e"})
    EXPECT_THROW(parse_json(bad), JsonError) << bad;
  std::string deep(100, '[');
  EXPECT_THROW(parse_json(deep), JsonError) << "nesting limit";
  // json_quote round-trips through the parser.
  const std::string odd = std::string("q\"b\\s\n\t\x01 end");
  EXPECT_EQ(parse_json(json_quote(odd)).string, odd);
}

TEST(TacticBuckets, RoundUpToPowersOfTwoUpTo32768) {
  EXPECT_EQ(tactic_bucket_index(0), 0);
  EXPECT_EQ(tactic_bucket_index(1), 0);
  EXPECT_EQ(tactic_bucket_index(2), 1);
  EXPECT_EQ(tactic_bucket_index(3), 2);
  EXPECT_EQ(tactic_bucket_index(300), 9);
  EXPECT_EQ(tactic_bucket_index(8192), 13);
  EXPECT_EQ(tactic_bucket_index(8193), 14);
  EXPECT_EQ(tactic_bucket_index(12288), 14);
  EXPECT_EQ(tactic_bucket_index(32768), 15);
  EXPECT_EQ(tactic_bucket_index(100000), 15);
  EXPECT_EQ(tactic_bucket_tokens(13), 8192);
  EXPECT_EQ(tactic_bucket_tokens(kTacticBuckets - 1), 32768);
  EXPECT_EQ(tactic_bucket_tokens(kTacticBucketsTo8192 - 1), 8192);
}

// Buckets past 8192 left empty take the bucket below's tactic (an entry written before they existed
// runs T > 8192 as it did); named ones keep theirs; buckets up to 8192 are never filled in.
TEST(TacticBuckets, LargeBucketsInheritTheBucketBelow) {
  TacticTable t;
  t[size_t(tactic_bucket_index(8192))] = "a";
  TacticTable got = with_large_buckets_inherited(t);
  EXPECT_EQ(got[size_t(tactic_bucket_index(16384))], "a");
  EXPECT_EQ(got[size_t(tactic_bucket_index(32768))], "a");
  EXPECT_EQ(got[size_t(tactic_bucket_index(4096))], "") << "a gap below 8192 stays the heuristic";
  t[size_t(tactic_bucket_index(16384))] = "b";
  got = with_large_buckets_inherited(t);
  EXPECT_EQ(got[size_t(tactic_bucket_index(16384))], "b");
  EXPECT_EQ(got[size_t(tactic_bucket_index(32768))], "b");
  t[size_t(tactic_bucket_index(32768))] = "c";
  EXPECT_EQ(with_large_buckets_inherited(t)[size_t(tactic_bucket_index(32768))], "c");
  TacticTable empty;
  EXPECT_EQ(with_large_buckets_inherited(empty), empty) << "no entry: the heuristic everywhere";
}

// A cache file may name the new buckets; a bucket past 32768 is refused as before.
TEST(TacticCache, ParsesBucketsUpTo32768) {
  TacticEntry e = sample_entry();
  e.tactic[size_t(tactic_bucket_index(32768))] = "split_large_tile";
  e.measured[size_t(tactic_bucket_index(32768))] = {{"split_large_tile", 9.5}};
  TacticCache c;
  c.put(e);
  const TacticCache back = TacticCache::parse(c.to_json());
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_EQ(back.entries[0].tactic, e.tactic);
  EXPECT_EQ(back.entries[0].measured[15].size(), 1u);
  std::string text = c.to_json();
  const size_t at = text.find("\"32768\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 7, "\"65536\"");
  EXPECT_THROW(TacticCache::parse(text), Error);
}

TEST(TacticCache, RoundTripFindPutAndStale) {
  TacticCache c;
  c.put(sample_entry());
  c.put(sample_entry("NVIDIA H100 80GB HBM3"));
  TacticCache back = TacticCache::parse(c.to_json());
  ASSERT_EQ(back.entries.size(), 2u);
  const TacticEntry* e = back.find(sample_entry().key);
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->tactic[0], "mega");
  EXPECT_EQ(e->tactic[3], "split_swap_ab");
  EXPECT_EQ(e->tactic[1], "");
  ASSERT_EQ(e->measured[0].size(), 3u);
  EXPECT_EQ(e->measured[0][2].first, "split_large_tile");
  EXPECT_NEAR(e->measured[0][1].second, 0.0565, 1e-9);

  // put replaces the entry of the same layer and machine.
  TacticEntry changed = sample_entry();
  changed.tactic[0] = "split_large_tile";
  back.put(changed);
  EXPECT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.find(changed.key)->tactic[0], "split_large_tile");

  // Another driver: no match, but reported as stale.
  const TacticEntry* stale = nullptr;
  EXPECT_EQ(back.find(sample_entry("NVIDIA H200", 12080).key, &stale), nullptr);
  ASSERT_NE(stale, nullptr);
  EXPECT_EQ(stale->key.driver, 13000);
  // Another layer: neither.
  TacticKey other = sample_entry().key;
  other.hidden = 4096;
  EXPECT_EQ(back.find(other, &stale), nullptr);
  EXPECT_EQ(stale, nullptr);
}

TEST(TacticCache, RejectsMalformedCaches) {
  const std::string good = [] {
    TacticCache c;
    c.put(sample_entry());
    return c.to_json();
  }();
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const size_t p = s.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    return s.replace(p, from.size(), to);
  };
  EXPECT_NO_THROW(TacticCache::parse(good));
  for (const std::string& bad :
       {replaced("\"version\": 1", "\"version\": 2"), replaced("megamoe-tactics", "something-else"),
        replaced("\"sm_count\": 132", "\"sm_count\": \"132\""), replaced("\"1\": \"mega\"", "\"3\": \"mega\""),
        replaced("\"1\": \"mega\"", "\"1\": 5"), replaced("\"bias\": false", "\"bias\": 0"),
        replaced("\"top_k\": 8", "\"top_k\": 8.5"), replaced("\"sm_count\": 132", "\"sm_count\": 9000000000000000"),
        replaced("\"sm_count\": 132", "\"sm_count\": -1"), std::string("[]"), good.substr(0, good.size() / 2)})
    EXPECT_ANY_THROW(TacticCache::parse(bad)) << bad;
}

// Random edits of a valid cache (bytes removed, inserted, replaced; a fixed seed) either parse or
// throw an std::exception (JsonError / Error): never a crash, a hang or another exception. The test
// command also runs this under ASan + UBSan (scripts/test_sanitizers.sh), which ran 300,000 edits of
// JSON values and 20,000 of a tune's cache clean when it was written.
TEST(TacticCache, EditedCachesParseOrThrow) {
  TacticCache c;
  c.put(sample_entry());
  c.put(sample_entry("NVIDIA H100 80GB HBM3", 12080));
  const std::string good = c.to_json();
  ASSERT_EQ(TacticCache::parse(good).entries.size(), 2u);
  std::mt19937_64 rng(20261204);
  const char alphabet[] = "{}[]\":,.-+eE0123456789tfnrlsuax\\/ \n\t";
  int parsed = 0, refused = 0;
  for (int it = 0; it < 3000; ++it) {
    std::string s = good;
    for (int m = 1 + int(rng() % 4); m > 0 && !s.empty(); --m) {
      const size_t pos = rng() % s.size();
      switch (rng() % 4) {
        case 0: s.erase(pos, 1 + rng() % 8); break;
        case 1: s.insert(pos, 1, alphabet[rng() % (sizeof(alphabet) - 1)]); break;
        case 2: s[pos] = char(rng()); break;
        default: s.resize(pos); break;
      }
    }
    try {
      const TacticCache back = TacticCache::parse(s);
      EXPECT_NO_THROW(TacticCache::parse(back.to_json())) << "a parsed cache writes a parsable one";
      ++parsed;
    } catch (const std::exception&) {
      ++refused;
    }
  }
  EXPECT_GT(parsed, 0);
  EXPECT_GT(refused, 0);
  // Nesting deeper than the reader's limit is refused, not a stack overflow.
  EXPECT_THROW(parse_json(std::string(100000, '[')), JsonError);
}

TEST(TacticCache, UnknownTacticNamesFallBackToTheHeuristic) {
  TacticTable t{};
  t[0] = "mega";
  t[3] = "no_such_tactic";
  t[5] = "split_swap_ab";
  const TacticTable kept = known_tactics_only(t, {"mega", "split_swap_ab"}, "test.json");
  EXPECT_EQ(kept[0], "mega");
  EXPECT_EQ(kept[3], "");  // dropped (with a warning on stderr): the backend's heuristic decides
  EXPECT_EQ(kept[5], "split_swap_ab");
  EXPECT_EQ(kept[1], "");
}

// A backend without its own entry borrows its donor's (lookup_donor_tactics): per bucket the
// fastest of its own tactics the donor timed (non-positive times skipped), else the donor's
// chosen tactic when it is one of them, else nothing.
TEST(TacticCache, DonorEntryGivesTheFastestTimedKnownTactic) {
  const std::string dir = temp_dir() + "_donor";
  const std::string path = dir + "/tactics.json";
  TacticEntry e = sample_entry();  // bucket 0: "mega" won, split_swap_ab 0.0565, split_large_tile 0.0712
  e.tactic[5] = "mega_rounds";     // no timings, not a split tactic
  e.tactic[6] = "split_large_tile";
  e.measured[6] = {{"split_large_tile", 0.0}, {"split_swap_ab", 0.31}, {"mega", 0.2}};
  TacticCache c;
  c.put(e);
  c.save(path);
  const std::vector<std::string> split{"split_swap_ab", "split_large_tile"};
  std::string source;
  const TacticTable t = lookup_donor_tactics(e.key, split, path, &source);
  EXPECT_EQ(source, path + " (measured for sm90_bf16_bf16_bf16_mega)");
  EXPECT_EQ(t[0], "split_swap_ab") << "the faster of the two split tactics timed";
  EXPECT_EQ(t[3], "split_swap_ab") << "no timings: the donor's choice, a split tactic";
  EXPECT_EQ(t[5], "") << "the donor's choice is not one of ours: the heuristic";
  EXPECT_EQ(t[6], "split_swap_ab") << "a time of 0 is not a measurement";
  EXPECT_EQ(t[1], "");
  EXPECT_EQ(lookup_donor_tactics(e.key, split, "off", &source), TacticTable{});
  EXPECT_EQ(source, "none");
  TacticKey other = e.key;
  other.hidden = 96;  // no entry for this layer
  EXPECT_EQ(lookup_donor_tactics(other, split, path, &source), TacticTable{});
  EXPECT_EQ(source, "none");
  std::remove(path.c_str());
  ::rmdir(dir.c_str());
}

TEST(TacticCache, LoadSaveAndLookup) {
  const std::string dir = temp_dir();
  const std::string path = dir + "/sub/tactics.json";
  std::string warning;
  EXPECT_TRUE(TacticCache::load(path, &warning).entries.empty());
  EXPECT_EQ(warning, "") << "a missing cache is not an error";

  TacticCache c;
  c.put(sample_entry());
  c.save(path);  // creates dir/sub
  const TacticCache back = TacticCache::load(path, &warning);
  EXPECT_EQ(warning, "");
  ASSERT_EQ(back.entries.size(), 1u);

  std::string source;
  TacticTable t = lookup_tactics(sample_entry().key, path, &source);
  EXPECT_EQ(source, path);
  EXPECT_EQ(t[0], "mega");
  t = lookup_tactics(sample_entry().key, "off", &source);
  EXPECT_EQ(source, "none");
  EXPECT_EQ(t[0], "");
  // Stale (another driver) and unknown layers fall through to the shipped defaults / nothing.
  t = lookup_tactics(sample_entry("NVIDIA H200", 1).key, path, &source);
  EXPECT_NE(source, path);

  { std::ofstream(path) << "{ not json"; }
  EXPECT_TRUE(TacticCache::load(path, &warning).entries.empty());
  EXPECT_NE(warning.find("ignoring the tactic cache"), std::string::npos) << warning;
  TacticKey unknown = sample_entry().key;
  unknown.hidden = 96;
  t = lookup_tactics(unknown, path, &source);
  EXPECT_EQ(source, "none");
  std::remove(path.c_str());
  ::rmdir((dir + "/sub").c_str());
  ::rmdir(dir.c_str());
}

TEST(TacticCache, DefaultPathFollowsTheEnvironment) {
  const char* old = std::getenv("MEGAMOE_TACTIC_CACHE");
  const std::string saved = old ? old : "";
  ::setenv("MEGAMOE_TACTIC_CACHE", "/some/where.json", 1);
  EXPECT_EQ(default_tactic_cache_path(), "/some/where.json");
  ::unsetenv("MEGAMOE_TACTIC_CACHE");
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string p = default_tactic_cache_path();
  if (xdg && *xdg)
    EXPECT_EQ(p, std::string(xdg) + "/megamoe/tactics.json");
  else if (home && *home)
    EXPECT_EQ(p, std::string(home) + "/.cache/megamoe/tactics.json");
  if (old) ::setenv("MEGAMOE_TACTIC_CACHE", saved.c_str(), 1);
}

// Whether a shipped entry names every bucket up to 8192 (a complete table; a GPU's entry may be
// partial where a complete entry of another GPU with the same SM count serves its other buckets).
bool names_every_bucket_to_8192(const TacticEntry& e) {
  for (int b = 0; b < kTacticBucketsTo8192; ++b)
    if (e.tactic[size_t(b)].empty()) return false;
  return true;
}

// The complete shipped entry of another GPU with the same layer and SM count as `e`, or null.
const TacticEntry* complete_sibling(const TacticCache& shipped, const TacticEntry& e) {
  for (const TacticEntry& o : shipped.entries)
    if (&o != &e && o.key.gpu != e.key.gpu && o.key.sm_count == e.key.sm_count && o.key.same_layer(e.key) &&
        names_every_bucket_to_8192(o))
      return &o;
  return nullptr;
}

// Every shipped entry serves its own GPU: a complete entry as it is, a partial one (an H100's, where
// its tune beat the H200's tactic) with its own buckets and the complete sibling's everywhere else.
TEST(TacticCache, ShippedDefaultsParseAndMatchTheirLayers) {
  const TacticCache shipped = TacticCache::parse(shipped_tactics_json());
  ASSERT_FALSE(shipped.entries.empty());
  int partial = 0;
  for (const TacticEntry& e : shipped.entries) {
    SCOPED_TRACE(e.key.describe());
    EXPECT_EQ(e.key.driver, 0) << "shipped entries match any driver";
    EXPECT_EQ(e.key.library, "*");
    TacticKey k = e.key;
    k.driver = 13000;
    k.library = MEGAMOE_VERSION_STRING;
    std::string source;
    const TacticTable t = lookup_tactics(k, "/nonexistent/megamoe/tactics.json", &source);
    if (names_every_bucket_to_8192(e)) {
      EXPECT_EQ(source, "shipped defaults");
      EXPECT_EQ(t, e.tactic);
    } else {
      ++partial;
      const TacticEntry* sib = complete_sibling(shipped, e);
      ASSERT_NE(sib, nullptr) << "a partial entry needs a complete one of the same SM count";
      EXPECT_EQ(source, "shipped defaults (the buckets it does not name: measured on " + sib->key.gpu + ")");
      for (size_t b = 0; b < t.size(); ++b)
        EXPECT_EQ(t[b], e.tactic[b].empty() ? sib->tactic[b] : e.tactic[b]) << "T = " << tactic_bucket_tokens(int(b));
    }
    k.sm_count = 114;  // another GPU of the same name (e.g. a cut-down part): no default
    lookup_tactics(k, "/nonexistent/megamoe/tactics.json", &source);
    EXPECT_EQ(source, "none");
  }
  EXPECT_GT(partial, 0) << "the H100's entries (session 53) are partial";
}

// lookup_shipped_tactics (what `megamoe tune` compares its winners with): the shipped entry as a
// layer runs it, buckets past 8192 inherited, whatever cache the environment names; nothing for a
// layer or SM count without one.
TEST(TacticCache, ShippedLookupIgnoresCachesAndInheritsLargeBuckets) {
  const TacticCache shipped = TacticCache::parse(shipped_tactics_json());
  for (const TacticEntry& e : shipped.entries) {
    SCOPED_TRACE(e.key.describe());
    TacticKey k = e.key;
    k.driver = 13000;
    k.library = MEGAMOE_VERSION_STRING;
    std::string source, via_lookup;
    const TacticTable t = lookup_shipped_tactics(k, &source);
    EXPECT_EQ(t, with_large_buckets_inherited(lookup_tactics(k, "/nonexistent/megamoe/tactics.json", &via_lookup)));
    EXPECT_EQ(source, via_lookup);
    for (int b = kTacticBucketsTo8192; b < kTacticBuckets; ++b) EXPECT_FALSE(t[size_t(b)].empty());
    k.hidden += 64;
    EXPECT_EQ(lookup_shipped_tactics(k, &source), TacticTable{});
    EXPECT_EQ(source, "none");
  }
}

// A GPU the table was not measured on but with the same SM count (an H100 SXM beside the H200)
// takes the entry of the GPU that has one, and says where it came from; another SM count gets none,
// and an exact entry (here: from a cache) still wins.
TEST(TacticCache, ShippedDefaultsServeAnotherGpuWithTheSameSmCount) {
  const TacticCache shipped = TacticCache::parse(shipped_tactics_json());
  ASSERT_FALSE(shipped.entries.empty());
  const TacticEntry& e = shipped.entries.front();
  TacticKey k = e.key;
  k.gpu = "NVIDIA H800";  // a GPU without entries of its own
  k.driver = 13000;
  k.library = MEGAMOE_VERSION_STRING;
  std::string source;
  const std::string no_cache = "/nonexistent/megamoe/tactics.json";
  TacticTable t = lookup_tactics(k, no_cache, &source);
  EXPECT_EQ(source, "shipped defaults (measured on " + e.key.gpu + ")");
  EXPECT_EQ(t, e.tactic);
  k.sm_count = 114;  // an H100 PCIe's SM count: no entry of that SM count
  t = lookup_tactics(k, no_cache, &source);
  EXPECT_EQ(source, "none");
  EXPECT_EQ(t, TacticTable{});
  k.sm_count = e.key.sm_count;
  TacticKey other_layer = k;
  other_layer.hidden += 64;  // a layer without any entry
  lookup_tactics(other_layer, no_cache, &source);
  EXPECT_EQ(source, "none");

  const std::string dir = temp_dir();
  const std::string path = dir + "/tactics.json";
  TacticEntry mine = e;
  mine.key = k;
  for (auto& name : mine.tactic) name = "split_swap_ab";
  TacticCache c;
  c.put(mine);
  c.save(path);
  t = lookup_tactics(k, path, &source);
  EXPECT_EQ(source, path) << "the GPU's own cache entry comes before another GPU's defaults";
  EXPECT_EQ(t, mine.tactic);
  std::remove(path.c_str());
  ::rmdir(dir.c_str());
}

// The shipped table is measured data: every complete entry names a tactic for every token bucket
// up to 8192 (a partial one only where its GPU's tune beat the complete sibling's tactic), and
// each named tactic is the fastest one its `megamoe tune` run measured for the bucket (a hand edit
// that picks another, or drops a bucket's measurements, fails here).
TEST(TacticCache, ShippedDefaultsAreTheMeasuredWinnersOfEveryBucket) {
  const TacticCache shipped = TacticCache::parse(shipped_tactics_json());
  for (const TacticEntry& e : shipped.entries) {
    const bool partial = !names_every_bucket_to_8192(e);
    if (partial) EXPECT_NE(complete_sibling(shipped, e), nullptr) << e.key.describe();
    for (int b = 0; b < kTacticBuckets; ++b) {
      SCOPED_TRACE(e.key.describe() + " T = " + std::to_string(tactic_bucket_tokens(b)));
      if ((partial || b >= kTacticBucketsTo8192) && e.tactic[size_t(b)].empty()) {
        EXPECT_TRUE(e.measured[size_t(b)].empty()) << "times without a tactic";
        continue;  // named only where measured (else the sibling's or the bucket below's tactic runs)
      }
      ASSERT_FALSE(e.tactic[size_t(b)].empty());
      const auto& m = e.measured[size_t(b)];
      ASSERT_FALSE(m.empty());
      size_t best = 0;
      for (size_t i = 1; i < m.size(); ++i)
        if (m[i].second < m[best].second) best = i;
      EXPECT_EQ(e.tactic[size_t(b)], m[best].first);
      EXPECT_GT(m[best].second, 0.0);
    }
  }
}

TEST(TacticApi, BackendWithoutTacticsRejectsNames) {
  MoeConfig c = reftest::make_config(4, 2, 64, 32);
  c.max_tokens = 8;
  MoeLayer layer(c);
  EXPECT_TRUE(layer.tactic_names().empty());
  EXPECT_EQ(layer.tactic_for(4), "");
  EXPECT_EQ(layer.tactic_source(), "none");
  EXPECT_NO_THROW(layer.force_tactic(""));
  EXPECT_THROW(layer.force_tactic("mega"), InvalidArgument);
  EXPECT_THROW(layer.tactic_for(-1), InvalidArgument);
}

}  // namespace
}  // namespace megamoe
