// The tactic cache on the GPU (core/tactics.h, docs/TUNING.md): an entry for the layer and this
// machine steers which tactic each token bucket runs (and the result stays the function); a
// stale entry (another driver) or a corrupt file is ignored and the heuristic runs. That every
// tactic of every backend computes the function is the conformance case `every_tactic`.
// This binary sets MEGAMOE_TACTIC_CACHE=off and MEGAMOE_MEGA_MAX_TOKENS=64 (test_mega_bf16.cpp);
// the layers here name their cache explicitly.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <unistd.h>

#include "backends/sm90_common/machine_key.h"
#include "core/tactics.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

constexpr const char* kMega = "sm90_bf16_bf16_bf16_mega";

std::string temp_path(const std::string& name) {
  return "/tmp/megamoe_test_" + std::to_string(::getpid()) + "_" + name + ".json";
}

MoeConfig mega_layer_config(const std::string& cache) {
  MoeConfig c = split_config(8, 2, 256, 512, 64, Activation::kSwiGLU, /*bias=*/true);
  c.backend = kMega;
  c.tactic_cache = cache;
  return c;
}

void expect_matches_reference(TestLayer& tl, int64_t T, const std::string& what) {
  const HostInputs in = make_inputs(tl.cfg, T, RouteKind::kUniform, case_seed(what));
  DeviceInputs d(in);
  const std::vector<uint16_t> out = run_layer(*tl.layer, d);
  EXPECT_EQ(count_nan(out), 0) << what;
  EXPECT_LE(rel_l2(out, run_reference(tl.cfg, *tl.ref, in)), 5e-3) << what;
}

TEST(TacticCacheGpu, EntrySteersTheLayerPerBucket) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const std::string path = temp_path("steer");
  TestLayer plain(mega_layer_config("off"), case_seed("weights"));
  EXPECT_EQ(plain.layer->tactic_source(), "none");
  EXPECT_EQ(plain.layer->tactic_for(1), "mega") << "the heuristic with MEGAMOE_MEGA_MAX_TOKENS=64";

  TacticEntry e;
  cuda_machine_key(0, &e.key);
  layer_tactic_key(plain.layer->config(), plain.layer->backend_name(), &e.key);
  e.tactic[size_t(tactic_bucket_index(1))] = "split_swap_ab";
  e.tactic[size_t(tactic_bucket_index(64))] = "split_large_tile";
  e.tactic[size_t(tactic_bucket_index(8192))] = "split_large_tile";
  e.tactic[size_t(tactic_bucket_index(32768))] = "split_swap_ab";
  TacticCache cache;
  cache.put(e);
  cache.save(path);

  TestLayer tuned(mega_layer_config(path), plain);
  // Buckets past 8192 that the entry leaves empty run the bucket below's tactic.
  EXPECT_EQ(tuned.layer->tactic_for(12288), "split_large_tile") << "bucket 16384 unnamed: 8192's";
  EXPECT_EQ(tuned.layer->tactic_for(16384), "split_large_tile");
  EXPECT_EQ(tuned.layer->tactic_for(32768), "split_swap_ab");
  EXPECT_EQ(tuned.layer->tactic_for(int64_t(1) << 20), "split_swap_ab") << "T > 32768: the last bucket";
  EXPECT_EQ(tuned.layer->tactic_source(), path);
  EXPECT_EQ(tuned.layer->tactic_for(1), "split_swap_ab");
  EXPECT_EQ(tuned.layer->tactic_for(64), "split_large_tile");
  EXPECT_EQ(tuned.layer->tactic_for(40), "split_large_tile") << "T = 40 rounds up to the 64 bucket";
  EXPECT_EQ(tuned.layer->tactic_for(2), "mega") << "no entry for bucket 2: the heuristic";
  for (int64_t T : {1, 2, 40, 64}) expect_matches_reference(tuned, T, "tuned T=" + std::to_string(T));
  // A forced tactic wins over the table, and "" gives the table back.
  tuned.layer->force_tactic("mega");
  EXPECT_EQ(tuned.layer->tactic_for(1), "mega");
  expect_matches_reference(tuned, 1, "forced mega");
  tuned.layer->force_tactic("");
  EXPECT_EQ(tuned.layer->tactic_for(1), "split_swap_ab");
  std::remove(path.c_str());
}

TEST(TacticCacheGpu, StaleEntryAndCorruptFileAreIgnored) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const std::string path = temp_path("stale");
  TestLayer plain(mega_layer_config("off"), case_seed("weights"));
  TacticEntry e;
  cuda_machine_key(0, &e.key);
  layer_tactic_key(plain.layer->config(), plain.layer->backend_name(), &e.key);
  e.key.driver += 1;  // measured under another driver
  e.tactic[0] = "split_large_tile";
  TacticCache cache;
  cache.put(e);
  cache.save(path);
  TestLayer stale(mega_layer_config(path), plain);
  EXPECT_EQ(stale.layer->tactic_source(), "none");
  EXPECT_EQ(stale.layer->tactic_for(1), "mega");

  { std::ofstream(path) << "{\"format\": \"megamoe-tactics\", \"version\": 1, \"entries\": [ {\"gpu\": 3"; }
  TestLayer corrupt(mega_layer_config(path), plain);
  EXPECT_EQ(corrupt.layer->tactic_source(), "none");
  EXPECT_EQ(corrupt.layer->tactic_for(1), "mega");
  expect_matches_reference(corrupt, 1, "after a corrupt cache");
  std::remove(path.c_str());
}

// A split backend without an entry of its own borrows the one measured for the Mega backend of its
// recipe (Backend::tactic_table_donor): per bucket the fastest split tactic that entry timed, or
// its chosen tactic when that is a split one; the kernel's tactics are skipped. An entry of its
// own wins.
TEST(TacticCacheGpu, SplitBackendBorrowsTheMegaEntry) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const std::string path = temp_path("donor");
  MoeConfig split_cfg = mega_layer_config("off");
  split_cfg.backend = "sm90_bf16_bf16_bf16_split";
  TestLayer plain(split_cfg, case_seed("weights"));
  EXPECT_EQ(plain.layer->tactic_source(), "none");
  const std::string heuristic_T1 = plain.layer->tactic_for(1);
  const std::string heuristic_T2 = plain.layer->tactic_for(2);
  ASSERT_EQ(heuristic_T1, "split_swap_ab") << "the heuristic at T = 1; the table below must change it";

  TacticEntry mega;
  cuda_machine_key(0, &mega.key);
  layer_tactic_key(plain.layer->config(), kMega, &mega.key);
  const size_t b1 = size_t(tactic_bucket_index(1)), b64 = size_t(tactic_bucket_index(64));
  mega.tactic[b1] = "mega";
  mega.measured[b1] = {{"mega", 0.050}, {"split_swap_ab", 0.070}, {"split_large_tile", 0.060}};
  mega.tactic[b64] = "split_large_tile";  // no timings kept: the chosen tactic
  TacticCache cache;
  cache.put(mega);
  cache.save(path);

  split_cfg.tactic_cache = path;
  TestLayer borrowed(split_cfg, plain);
  EXPECT_EQ(borrowed.layer->tactic_source(), path + " (measured for " + kMega + ")");
  EXPECT_EQ(borrowed.layer->tactic_for(1), "split_large_tile") << "the fastest split tactic timed at T = 1";
  EXPECT_EQ(borrowed.layer->tactic_for(64), "split_large_tile");
  EXPECT_EQ(borrowed.layer->tactic_for(2), heuristic_T2) << "no entry for bucket 2: the heuristic";
  for (int64_t T : {1, 64}) expect_matches_reference(borrowed, T, "borrowed T=" + std::to_string(T));

  TacticEntry own;
  own.key = mega.key;
  own.key.backend = split_cfg.backend;
  own.tactic[b1] = "split_swap_ab";
  cache.put(own);
  cache.save(path);
  TestLayer tuned(split_cfg, plain);
  EXPECT_EQ(tuned.layer->tactic_source(), path);
  EXPECT_EQ(tuned.layer->tactic_for(1), "split_swap_ab") << "its own entry wins";
  EXPECT_EQ(tuned.layer->tactic_for(64), plain.layer->tactic_for(64)) << "its own entry has no bucket 64";
  std::remove(path.c_str());
}

}  // namespace
}  // namespace megamoe::gputest
