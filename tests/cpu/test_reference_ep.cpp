// CPU reference: bitwise determinism (repeats, thread counts), the EP simulation against one
// rank (contiguous, non-contiguous, replicated and incomplete expert placements; the routing
// rule of src/ep/placement.h), single-rank EP shards, weight providers (canonical, synthetic),
// full-size presets at small T, and the cpu_reference backend through MoeLayer.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/synthetic.h"
#include "cpu/reference_test_util.h"
#include "ep/placement.h"

namespace megamoe::reftest {
namespace {

// ---- determinism ------------------------------------------------------------------------

TEST(ReferenceDeterminism, BitwiseAcrossRepeatsAndThreadCounts) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kFP8Block, Recipe::kNVFP4}) {
    MoeConfig c = make_config(8, 2, 64, 64, r, Activation::kSwiGLUOAI, true);
    const uint64_t seed = case_seed(std::string("det") + recipe_name(r));
    Problem p;
    random_problem(p, 150, 64, 2, 8, seed);  // ~37 routes per expert: several chunks
    auto wp = reference::synthetic_weights(c, seed);
    reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), 1);
    const std::vector<uint16_t> first = p.out;
    for (int threads : {1, 2, 3, 0, 8, 2}) {
      p.poison();
      reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), threads);
      EXPECT_TRUE(bitwise_equal(first, p.out)) << recipe_name(r) << " threads=" << threads;
    }
  }
}

// ---- EP simulation ----------------------------------------------------------------------

using Placement = std::vector<std::vector<int32_t>>;

// The routing rule of docs/EP.md, written out independently of ep::ep_route_target: the
// holders of e in ascending rank order; the source's own replica if it holds one, else holder
// (t + src) mod n. {-1, -1} when no rank holds e.
std::pair<int, int> expected_target(const Placement& pl, int32_t e, int src, int64_t t) {
  std::vector<std::pair<int, int>> holders;  // (rank, slot)
  for (size_t r = 0; r < pl.size(); ++r)
    for (size_t i = 0; i < pl[r].size(); ++i)
      if (pl[r][i] == e) holders.emplace_back(int(r), int(i));
  if (holders.empty()) return {-1, -1};
  for (const auto& h : holders)
    if (h.first == src) return h;
  return holders[size_t((t + src) % int64_t(holders.size()))];
}

Placement contiguous_placement(int64_t E, int R) {
  Placement pl(static_cast<size_t>(R));
  for (int r = 0; r < R; ++r)
    for (int64_t e = r * (E / R); e < (r + 1) * (E / R); ++e) pl[size_t(r)].push_back(int32_t(e));
  return pl;
}

// Runs R ranks with the given token counts (tokens of rank r are the next T_r rows of the
// global problem) and the given placement (empty: contiguous), and compares every rank's
// output with the R = 1 run on all tokens, where routes to experts no rank holds are -1.
// Also checks the simulation's stats against expected_target: unrouted routes, routes and
// x rows per (source, destination) pair (a token once per destination). Returns the number
// of unrouted routes.
int64_t check_ep(const MoeConfig& base, int R, const std::vector<int64_t>& tokens, uint64_t seed,
                 bool concentrate = false, const Placement& placement = {}) {
  int64_t T = 0;
  for (int64_t t : tokens) T += t;
  const Placement pl = placement.empty() ? contiguous_placement(base.num_experts, R) : placement;
  Problem all;
  std::vector<int32_t> pool;
  if (concentrate) pool = pl[0];  // every route on rank 0's experts: other ranks receive nothing
  random_problem(all, T, base.hidden_size, base.top_k, base.num_experts, seed, 2.0f, pool);
  for (int64_t t = 0; t < T; t += 4) all.ids[size_t(t * base.top_k)] = -1;
  const int64_t K = base.top_k;

  // Expected exchange, and the R = 1 problem with unheld experts' routes dropped.
  Problem masked = all;
  int64_t unrouted = 0;
  std::vector<int64_t> unrouted_by_rank(size_t(R), 0), routes(size_t(R * R), 0), rows(size_t(R * R), 0);
  {
    int64_t t_global = 0;
    for (int s = 0; s < R; ++s)
      for (int64_t t = 0; t < tokens[size_t(s)]; ++t, ++t_global) {
        std::vector<char> hit(size_t(R), 0);
        for (int64_t k = 0; k < K; ++k) {
          int32_t& id = masked.ids[size_t(t_global * K + k)];
          if (id < 0) continue;
          const int d = expected_target(pl, id, s, t).first;  // t: the source-local index
          if (d < 0) {
            id = -1;
            ++unrouted;
            ++unrouted_by_rank[size_t(s)];
            continue;
          }
          ++routes[size_t(s * R + d)];
          if (!hit[size_t(d)]) ++rows[size_t(s * R + d)];
          hit[size_t(d)] = 1;
        }
      }
  }
  MoeConfig c1 = base;
  c1.ep_size = 1;
  c1.ep_rank = 0;
  c1.expert_placement.clear();
  auto wp1 = reference::synthetic_weights(c1, seed);
  reference::moe_forward(c1, *wp1, masked.xv(), masked.idv(), masked.wv(), masked.outv(), 2);

  MoeConfig cR = base;
  cR.ep_size = R;
  cR.expert_placement = placement;
  std::vector<std::unique_ptr<reference::WeightProvider>> wps;
  std::vector<Problem> parts(static_cast<size_t>(R));
  std::vector<reference::EpRankIO> ranks(static_cast<size_t>(R));
  int64_t t0 = 0;
  for (int r = 0; r < R; ++r) {
    MoeConfig cr = cR;
    cr.ep_rank = r;
    wps.push_back(reference::synthetic_weights(cr, seed));
    Problem& q = parts[size_t(r)];
    q.resize(tokens[size_t(r)], base.hidden_size, base.top_k);
    // std::copy_n, not memcpy: a rank with no tokens has empty vectors (data() may be null, which
    // memcpy must not be given even for 0 bytes; UBSan flags it).
    std::copy_n(all.x.begin() + t0 * q.H, q.x.size(), q.x.begin());
    std::copy_n(all.ids.begin() + t0 * q.K, q.ids.size(), q.ids.begin());
    std::copy_n(all.w.begin() + t0 * q.K, q.w.size(), q.w.begin());
    t0 += q.T;
    ranks[size_t(r)] = {wps.back().get(), q.xv(), q.idv(), q.wv(), q.outv()};
  }
  reference::EpSimulationStats st;
  st.unrouted = -7;  // overwritten
  reference::moe_forward_ep_simulated(cR, ranks, 3, &st);
  t0 = 0;
  for (int r = 0; r < R; ++r) {
    const Problem& q = parts[size_t(r)];
    EXPECT_TRUE(std::equal(q.out.begin(), q.out.end(), masked.out.begin() + t0 * q.H))
        << "R=" << R << " rank " << r << " differs from R=1";
    t0 += q.T;
  }
  EXPECT_EQ(st.unrouted, unrouted);
  EXPECT_EQ(st.unrouted_by_rank, unrouted_by_rank);
  EXPECT_EQ(st.routes, routes) << "routes per (source, destination) differ from the routing rule";
  EXPECT_EQ(st.rows, rows) << "x rows per (source, destination): a token goes once to each destination";
  return unrouted;
}

TEST(ReferenceEp, SimulatedEqualsOneRankBitwise) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kFP8Block, Recipe::kW4A16NVFP4, Recipe::kW4A8MXFP4}) {
    MoeConfig c = make_config(16, 4, 64, 96, r, Activation::kSwiGLU, true);
    const uint64_t seed = case_seed(std::string("ep") + recipe_name(r));
    check_ep(c, 2, {23, 41}, seed);
    check_ep(c, 4, {10, 1, 33, 7}, seed + 1);
  }
}

TEST(ReferenceEp, RanksWithZeroTokensAndRanksWithNoWork) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(8, 2, 64, 64, Recipe::kMXFP8, Activation::kGeGLU);
  const uint64_t seed = case_seed("ep0");
  check_ep(c, 4, {0, 19, 0, 5}, seed);          // ranks 0 and 2 hold no tokens
  check_ep(c, 4, {6, 0, 9, 0}, seed + 1, true);  // ranks 1..3 receive no routes
  check_ep(c, 2, {0, 0}, seed + 2);              // nobody has tokens
}

// Issue 16 (EP at 4 and 8 GPUs) where only CPUs are lent: R = 8 with deepseek-v3's
// proportions (K = 8 of E = 64, 8 experts per rank): uneven and zero token counts, every route
// on rank 0's experts, and a placement with a hot expert replicated on every rank.
TEST(ReferenceEp, EightRanksEqualOneRankBitwise) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(64, 8, 64, 32, Recipe::kBF16, Activation::kSwiGLU, false);
  const uint64_t seed = case_seed("ep8");
  check_ep(c, 8, {5, 0, 17, 1, 0, 9, 30, 2}, seed);
  check_ep(c, 8, {3, 4, 0, 6, 2, 0, 1, 8}, seed + 1, true);  // only rank 0 receives routes
  std::vector<std::vector<int32_t>> placement(8);
  for (int32_t e = 0; e < 64; ++e) placement[size_t(e % 8)].push_back(e);  // round-robin
  for (int r = 1; r < 8; ++r) placement[size_t(r)].push_back(0);          // expert 0 hot: everywhere
  EXPECT_EQ(check_ep(c, 8, {7, 11, 0, 4, 13, 2, 9, 6}, seed + 2, false, placement), 0);
}

TEST(ReferenceEp, SingleRankComputesOnlyItsExperts) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(8, 4, 64, 64, Recipe::kBF16, Activation::kSwiGLU, true);
  c.ep_size = 4;
  c.ep_rank = 2;  // experts 4 and 5
  const uint64_t seed = case_seed("ep_shard");
  Problem p;
  random_problem(p, 25, 64, 4, 8, seed);
  auto cw = random_canonical(c, seed + 1);
  const double err = check_against_f64(c, cw, p);  // the f64 loop skips other ranks' experts
  EXPECT_LT(err, 5e-3);
  // Tokens with no route to experts 4/5 are zero.
  int zero_tokens = 0;
  for (int64_t t = 0; t < p.T; ++t) {
    bool mine = false;
    for (int64_t k = 0; k < 4; ++k) mine |= (p.ids[size_t(t * 4 + k)] / 2 == 2);
    if (!mine) {
      ++zero_tokens;
      for (int64_t h = 0; h < 64; ++h) ASSERT_EQ(p.out[size_t(t * 64 + h)], 0);
    }
  }
  std::printf("[ info   ] %d of %lld tokens have no route on rank 2\n", zero_tokens, (long long)p.T);
}

// ---- the placement tables and the routing rule (src/ep/placement.h) ----------------------

MoeConfig placed_config(int64_t E, int R, const Placement& pl) {
  MoeConfig c = make_config(E, 1, 32, 32);
  c.ep_size = R;
  c.expert_placement = pl;
  return c;
}

TEST(EpPlacementTables, ContiguousAndExplicit) {
  MoeConfig c = make_config(8, 2, 32, 32);
  c.ep_size = 4;
  ep::PlacementTables t = ep::make_placement_tables(c);
  EXPECT_EQ(t.ranks, 4);
  EXPECT_EQ(t.experts, 8);
  EXPECT_EQ(t.replica_begin, (std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(t.replica_rank, (std::vector<int32_t>{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(t.replica_slot, (std::vector<int32_t>{0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(t.local_count, (std::vector<int32_t>{2, 2, 2, 2}));
  // Replicas (1 on ranks 0 and 2, 4 on all three), expert 3 and 5 on no rank.
  t = ep::make_placement_tables(placed_config(6, 3, {{4, 1}, {0, 4, 2}, {1, 4}}));
  EXPECT_EQ(t.replica_begin, (std::vector<int32_t>{0, 1, 3, 4, 4, 7, 7}));
  EXPECT_EQ(t.replica_rank, (std::vector<int32_t>{1, 0, 2, 1, 0, 1, 2}));
  EXPECT_EQ(t.replica_slot, (std::vector<int32_t>{0, 1, 0, 2, 0, 1, 1}));
  EXPECT_EQ(t.local_count, (std::vector<int32_t>{2, 3, 2}));
  // Errors name the entry.
  try {
    ep::make_placement_tables(placed_config(6, 3, {{4, 1}, {0, 6}, {1}}));
    ADD_FAILURE() << "no exception";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), "expert_placement[1][1]");
  }
}

TEST(EpRouteTarget, SourceReplicaFirstElseTokenPlusSourceModuloHolders) {
  // Holders (ascending rank): e0 {1,3}, e1 {0,2,3}, e2 {2}, e3 none, e4 {0,1,2,3}.
  const Placement pl = {{1, 4}, {4, 0}, {2, 1, 4}, {0, 1, 4}};
  const ep::PlacementTables t = ep::make_placement_tables(placed_config(5, 4, pl));
  auto target = [&](int32_t e, int32_t src, int64_t tok) {
    int32_t rank = -9, slot = -9;
    const bool ok = ep::ep_route_target(t.replica_begin.data(), t.replica_rank.data(), t.replica_slot.data(), e,
                                        src, tok, &rank, &slot);
    return ok ? std::make_pair(rank, slot) : std::make_pair(-1, -1);
  };
  using P = std::pair<int32_t, int32_t>;
  // Expert 0 on ranks 1 (slot 1) and 3 (slot 0).
  EXPECT_EQ(target(0, 1, 0), P(1, 1));  // local
  EXPECT_EQ(target(0, 1, 7), P(1, 1));
  EXPECT_EQ(target(0, 3, 4), P(3, 0));
  EXPECT_EQ(target(0, 0, 0), P(1, 1));  // (0 + 0) % 2 = 0
  EXPECT_EQ(target(0, 0, 1), P(3, 0));  // (1 + 0) % 2 = 1
  EXPECT_EQ(target(0, 2, 0), P(1, 1));  // (0 + 2) % 2 = 0
  EXPECT_EQ(target(0, 2, 3), P(3, 0));  // (3 + 2) % 2 = 1
  // Expert 1 on ranks 0 (slot 0), 2 (slot 1), 3 (slot 1); source 1 holds none.
  EXPECT_EQ(target(1, 1, 0), P(2, 1));  // (0 + 1) % 3 = 1
  EXPECT_EQ(target(1, 1, 1), P(3, 1));  // 2
  EXPECT_EQ(target(1, 1, 2), P(0, 0));  // 0
  EXPECT_EQ(target(1, 1, 1000001), P(0, 0));  // (1000001 + 1) % 3 = 0
  EXPECT_EQ(target(1, 2, 5), P(2, 1));  // local
  // Expert 2: one holder, from anywhere.
  for (int32_t s = 0; s < 4; ++s)
    for (int64_t tok : {0, 1, 5}) EXPECT_EQ(target(2, s, tok), P(2, 0));
  // Expert 3: no holder, no route.
  EXPECT_EQ(target(3, 0, 0), P(-1, -1));
  EXPECT_EQ(target(3, 2, 9), P(-1, -1));
  // Expert 4 everywhere: always local, in that rank's slot.
  EXPECT_EQ(target(4, 0, 3), P(0, 1));
  EXPECT_EQ(target(4, 1, 3), P(1, 0));
  EXPECT_EQ(target(4, 2, 3), P(2, 2));
  EXPECT_EQ(target(4, 3, 3), P(3, 2));
}

TEST(EpRouteTarget, RandomPlacementsMatchTheRule) {
  REFTEST_TRACE_SEED();
  std::mt19937_64 rng(case_seed("eprule"));
  int64_t remote_multi = 0;
  for (int iter = 0; iter < 200; ++iter) {
    const int R = 1 + int(rng() % 6);
    const int64_t E = 1 + int64_t(rng() % 12);
    Placement pl(static_cast<size_t>(R));
    for (int r = 0; r < R; ++r) {
      std::vector<int32_t> all(static_cast<size_t>(E));
      for (int64_t e = 0; e < E; ++e) all[size_t(e)] = int32_t(e);
      std::shuffle(all.begin(), all.end(), rng);
      all.resize(size_t(1 + rng() % uint64_t(E)));
      pl[size_t(r)] = all;
    }
    const ep::PlacementTables t = ep::make_placement_tables(placed_config(E, R, pl));
    for (int32_t e = 0; e < E; ++e)
      for (int32_t s = 0; s < R; ++s)
        for (int64_t tok = 0; tok < 9; ++tok) {
          int32_t rank = -9, slot = -9;
          const bool ok = ep::ep_route_target(t.replica_begin.data(), t.replica_rank.data(), t.replica_slot.data(),
                                              e, s, tok, &rank, &slot);
          const auto want = expected_target(pl, e, s, tok);
          ASSERT_EQ(ok, want.first >= 0) << "e=" << e << " src=" << s;
          if (!ok) continue;
          ASSERT_EQ(rank, want.first) << "e=" << e << " src=" << s << " t=" << tok;
          ASSERT_EQ(slot, want.second) << "e=" << e << " src=" << s << " t=" << tok;
          ASSERT_EQ(pl[size_t(rank)][size_t(slot)], e);
          remote_multi += rank != s && t.replica_begin[size_t(e) + 1] - t.replica_begin[size_t(e)] > 1;
        }
  }
  EXPECT_GT(remote_multi, 100);  // the modulo branch was exercised
}

// ---- placements: non-contiguous, replicas, missing experts ------------------------------

TEST(ReferenceEpPlacement, NonContiguousEqualsOneRankBitwise) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kFP8Block, Recipe::kW4A16NVFP4, Recipe::kNVFP4}) {
    MoeConfig c = make_config(8, 3, 64, 96, r, Activation::kSwiGLU, true);
    const uint64_t seed = case_seed(std::string("epnc") + recipe_name(r));
    EXPECT_EQ(check_ep(c, 2, {23, 41}, seed, false, {{5, 1, 6, 2}, {0, 3, 4, 7}}), 0);
    // E % R != 0, uneven lists, a rank without tokens.
    EXPECT_EQ(check_ep(c, 3, {17, 0, 29}, seed + 1, false, {{7, 0, 3}, {1, 6}, {2, 4, 5}}), 0);
  }
  // Every route on rank 0's (non-contiguous) experts: rank 1 receives nothing.
  MoeConfig c = make_config(8, 2, 64, 64, Recipe::kMXFP8, Activation::kGeGLU);
  EXPECT_EQ(check_ep(c, 2, {9, 14}, case_seed("epnc0"), true, {{6, 1, 3}, {0, 2, 4, 5, 7}}), 0);
}

TEST(ReferenceEpPlacement, ReplicasEqualOneRankBitwise) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kFP8Block, Recipe::kW4A8MXFP4}) {
    MoeConfig c = make_config(8, 3, 64, 64, r, Activation::kSwiGLUOAI, true);
    const uint64_t seed = case_seed(std::string("eprep") + recipe_name(r));
    // Experts 0, 3 and 6 on both ranks.
    EXPECT_EQ(check_ep(c, 2, {31, 26}, seed, false, {{5, 1, 6, 2, 0, 3}, {0, 3, 4, 7, 6}}), 0);
    // Rank 0 holds everything; experts on 2..3 ranks, holders not containing the source.
    EXPECT_EQ(check_ep(c, 4, {12, 19, 7, 22}, seed + 1, false,
                       {{0, 1, 2, 3, 4, 5, 6, 7}, {1, 3, 5, 7}, {7, 6}, {2, 4, 6, 0}}),
              0);
    // Every expert on every rank, in different slot orders: all routes stay local.
    EXPECT_EQ(check_ep(c, 2, {15, 20}, seed + 2, false, {{7, 6, 5, 4, 3, 2, 1, 0}, {0, 1, 2, 3, 4, 5, 6, 7}}), 0);
  }
}

TEST(ReferenceEpPlacement, MissingExpertsAreUnroutedAndCounted) {
  REFTEST_TRACE_SEED();
  MoeConfig c = make_config(8, 3, 64, 64, Recipe::kFP8Block, Activation::kSwiGLU, true);
  const uint64_t seed = case_seed("epmiss");
  // Experts 2, 6, 7 on no rank.
  const int64_t u1 = check_ep(c, 2, {40, 33}, seed, false, {{5, 1}, {0, 3, 4}});
  EXPECT_GT(u1, 20);  // ~3/8 of ~200 valid routes
  // Replicas and missing experts together (3..7 on no rank; 0..2 on two ranks each).
  const int64_t u2 = check_ep(c, 3, {21, 5, 30}, seed + 1, false, {{0, 1}, {2, 1}, {0, 2}});
  EXPECT_GT(u2, 40);
  // Every route of every token unrouted: the output is all zeros, still written.
  MoeConfig cz = make_config(4, 2, 32, 32);
  cz.ep_size = 2;
  cz.expert_placement = {{0}, {1}};
  Problem p;
  random_problem(p, 5, 32, 2, 4, seed + 3, 2.0f, {2, 3});
  MoeConfig c0 = cz, c1 = cz;
  c1.ep_rank = 1;
  auto w0 = reference::synthetic_weights(c0, seed), w1 = reference::synthetic_weights(c1, seed);
  Problem none;
  none.resize(0, 32, 2);
  reference::EpSimulationStats st;
  reference::moe_forward_ep_simulated(cz, {{w0.get(), p.xv(), p.idv(), p.wv(), p.outv()},
                                           {w1.get(), none.xv(), none.idv(), none.wv(), none.outv()}},
                                      2, &st);
  EXPECT_EQ(st.unrouted, 10);
  EXPECT_EQ(st.unrouted_by_rank, (std::vector<int64_t>{10, 0}));
  EXPECT_EQ(st.routes, (std::vector<int64_t>{0, 0, 0, 0}));
  for (uint16_t v : p.out) ASSERT_EQ(v, 0);
}

TEST(ReferenceEpPlacement, DispatchSendsATokenOncePerRank) {
  // Hand-made: E = 4, contiguous over R = 2 (rank 0: 0, 1; rank 1: 2, 3), K = 3.
  MoeConfig c = make_config(4, 3, 32, 32);
  c.ep_size = 2;
  const uint64_t seed = case_seed("eponce");
  Problem a, b;
  random_problem(a, 3, 32, 3, 4, seed);
  random_problem(b, 2, 32, 3, 4, seed + 1);
  a.ids = {0, 1, 2,    // rank 0 token 0: two routes stay home (one row), one goes to rank 1
           3, 2, -1,   // token 1: one row to rank 1 carrying two routes
           -1, -1, -1};
  b.ids = {1, 0, 3,    // rank 1 token 0: one row to rank 0 (two routes), one local
           2, -1, 0};
  MoeConfig c0 = c, c1 = c;
  c1.ep_rank = 1;
  auto w0 = reference::synthetic_weights(c0, seed), w1 = reference::synthetic_weights(c1, seed);
  reference::EpSimulationStats st;
  reference::moe_forward_ep_simulated(c, {{w0.get(), a.xv(), a.idv(), a.wv(), a.outv()},
                                          {w1.get(), b.xv(), b.idv(), b.wv(), b.outv()}},
                                      1, &st);
  EXPECT_EQ(st.routes, (std::vector<int64_t>{2, 3, 3, 2}));  // [s*R + d]
  EXPECT_EQ(st.rows, (std::vector<int64_t>{1, 2, 2, 2}));
  EXPECT_EQ(st.unrouted, 0);
  // Token 2 of rank 0 has no route: zeros.
  for (int64_t h = 0; h < 32; ++h) ASSERT_EQ(a.out[size_t(2 * 32 + h)], 0);
}

// K = 1 and replicas with *different* weights on each rank (random canonical weights seeded
// per rank): a token's output equals the output of the one rank the routing rule picks, so
// this sees which replica the simulation used.
TEST(ReferenceEpPlacement, ReplicaChoiceFollowsTheRoutingRule) {
  REFTEST_TRACE_SEED();
  // Holders: e0 {0,1,2}, e1 {0,2}, e2 {0,1}, e3 {1}, e4 {1,2}, e5 {2}; slot orders shuffled.
  const Placement pl = {{1, 0, 2}, {3, 4, 0, 2}, {5, 4, 0, 1}};
  const int R = 3;
  MoeConfig c = make_config(6, 1, 64, 64, Recipe::kBF16, Activation::kSwiGLU, true);
  c.ep_size = R;
  c.expert_placement = pl;
  const uint64_t seed = case_seed("epchoice");
  std::vector<formats::CanonicalWeights> cws;
  std::vector<std::unique_ptr<reference::WeightProvider>> wps;
  std::vector<MoeConfig> cr(static_cast<size_t>(R), c);
  for (int r = 0; r < R; ++r) {
    cr[size_t(r)].ep_rank = r;
    cws.push_back(random_canonical(cr[size_t(r)], seed + 1000 * uint64_t(r)));
  }
  for (int r = 0; r < R; ++r)
    wps.push_back(reference::copy_canonical_weights(cr[size_t(r)], cws[size_t(r)].view(cr[size_t(r)])));
  const std::vector<int64_t> tokens = {40, 37, 44};
  std::vector<Problem> parts(static_cast<size_t>(R));
  std::vector<reference::EpRankIO> io(static_cast<size_t>(R));
  for (int s = 0; s < R; ++s) {
    Problem& p = parts[size_t(s)];
    random_problem(p, tokens[size_t(s)], 64, 1, 6, seed + 7 + uint64_t(s));
    // Every expert on tokens of both parities (the choice among remote replicas is by t).
    for (int64_t t = 0; t < p.T; ++t) p.ids[size_t(t)] = int32_t((t / 2 + s) % 6);
    for (auto& w : p.w) w = 0.75f;  // K = 1 normalises to 1; any weight will do
    io[size_t(s)] = {wps[size_t(s)].get(), parts[size_t(s)].xv(), parts[size_t(s)].idv(), parts[size_t(s)].wv(),
                     parts[size_t(s)].outv()};
  }
  reference::moe_forward_ep_simulated(c, io, 2);
  int64_t remote_replica_routes = 0, distinguishing = 0;
  for (int s = 0; s < R; ++s) {
    const Problem& p = parts[size_t(s)];
    // What each rank computes for source s's tokens (its own experts only).
    std::vector<Problem> single(static_cast<size_t>(R), p);
    for (int d = 0; d < R; ++d)
      reference::moe_forward(cr[size_t(d)], *wps[size_t(d)], single[size_t(d)].xv(), single[size_t(d)].idv(),
                             single[size_t(d)].wv(), single[size_t(d)].outv(), 1);
    for (int64_t t = 0; t < p.T; ++t) {
      const int32_t e = p.ids[size_t(t)];
      const int want = expected_target(pl, e, s, t).first;
      ASSERT_GE(want, 0);
      const auto row = [&](const Problem& q) { return std::vector<uint16_t>(q.out.begin() + t * 64, q.out.begin() + (t + 1) * 64); };
      EXPECT_EQ(row(p), row(single[size_t(want)])) << "source " << s << " token " << t << " expert " << e
                                                   << ": not rank " << want << "'s result";
      bool holds_src = false;
      for (int32_t x : pl[size_t(s)]) holds_src |= x == e;
      if (!holds_src) {
        for (int d = 0; d < R; ++d) {
          if (d == want || std::find(pl[size_t(d)].begin(), pl[size_t(d)].end(), e) == pl[size_t(d)].end()) continue;
          ++remote_replica_routes;
          distinguishing += row(single[size_t(d)]) != row(p);
        }
      }
    }
  }
  // Routes with a choice between remote replicas exist, and the replicas' results differ.
  EXPECT_GT(remote_replica_routes, 10);
  EXPECT_EQ(distinguishing, remote_replica_routes);
}

TEST(ReferenceEpPlacement, SingleRankComputesTheExpertsItHolds) {
  REFTEST_TRACE_SEED();
  // Rank 1 holds 7, 2, 5 (slot order), expert 5 is also on rank 0.
  MoeConfig c = make_config(8, 3, 64, 64, Recipe::kFP8Block, Activation::kSwiGLU, true);
  c.ep_size = 2;
  c.ep_rank = 1;
  c.expert_placement = {{0, 1, 3, 4, 5, 6}, {7, 2, 5}};
  const uint64_t seed = case_seed("epsingle");
  Problem p;
  random_problem(p, 37, 64, 3, 8, seed);
  auto wp = reference::synthetic_weights(c, seed);
  reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), 2);
  // Equal to one rank holding everything, with routes to other experts dropped.
  MoeConfig c1 = c;
  c1.ep_size = 1;
  c1.ep_rank = 0;
  c1.expert_placement.clear();
  Problem q = p;
  int64_t kept = 0;
  for (auto& id : q.ids) {
    if (id == 7 || id == 2 || id == 5) ++kept;
    else id = -1;
  }
  EXPECT_GT(kept, 20);
  reference::moe_forward(c1, *reference::synthetic_weights(c1, seed), q.xv(), q.idv(), q.wv(), q.outv(), 1);
  EXPECT_TRUE(bitwise_equal(p.out, q.out));
  // And the float64 loop with canonical weights in the placement's slot order.
  auto cw = random_canonical(c, seed + 1);
  Problem r = p;
  EXPECT_LT(check_against_f64(c, cw, r), 1e-2);
}

// ---- weight providers -------------------------------------------------------------------

void expect_same_expert(const reference::ExpertWeightsF32& a, const reference::ExpertWeightsF32& b,
                        const std::string& what) {
  auto same = [](const std::vector<float>& x, const std::vector<float>& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * 4) == 0;
  };
  EXPECT_TRUE(same(a.w13, b.w13)) << what << " w13";
  EXPECT_TRUE(same(a.w2, b.w2)) << what << " w2";
  EXPECT_TRUE(same(a.b13, b.b13)) << what << " b13";
  EXPECT_TRUE(same(a.b2, b.b2)) << what << " b2";
  EXPECT_EQ(a.alpha13, b.alpha13) << what;
  EXPECT_EQ(a.alpha2, b.alpha2) << what;
}

TEST(ReferenceWeights, SyntheticEqualsItsCanonicalWeightsCopied) {
  const Recipe recipes[] = {Recipe::kBF16,  Recipe::kFP8Block,  Recipe::kW4A16MXFP4, Recipe::kW4A16NVFP4,
                            Recipe::kMXFP8, Recipe::kW4A8MXFP4, Recipe::kNVFP4};
  for (Recipe r : recipes) {
    // N13 = 320 and H = 160: partial fp8 blocks in both dimensions.
    MoeConfig c = make_config(6, 2, 160, 160, r, Activation::kSwiGLU, true);
    c.ep_size = 2;
    c.ep_rank = 1;
    auto syn = reference::synthetic_weights(c, 77);
    formats::CanonicalWeights cw = reference::synthetic_canonical_weights(c, 77);
    auto can = reference::copy_canonical_weights(c, cw.view(c));
    EXPECT_GT(can->bytes(), 0u);
    EXPECT_EQ(syn->fc1_input_global_scale(), can->fc1_input_global_scale()) << recipe_name(r);
    EXPECT_EQ(syn->fc2_input_global_scale(), can->fc2_input_global_scale()) << recipe_name(r);
    for (int64_t e = 0; e < c.local_experts(); ++e) {
      reference::ExpertWeightsF32 a, b, bf;
      syn->load(e, &a);
      can->load(e, &b);
      expect_same_expert(a, b, std::string(recipe_name(r)) + " expert " + std::to_string(e));
      // Quantization really happened (except bf16), and nvfp4 globals went to alpha.
      reference::synthetic_expert_bf16(c, 77, c.first_local_expert() + e, &bf);
      size_t changed = 0;
      for (size_t i = 0; i < bf.w13.size(); ++i) changed += bf.w13[i] != a.w13[i] * a.alpha13;
      if (r == Recipe::kBF16) {
        EXPECT_EQ(changed, 0u);
      } else {
        EXPECT_GT(changed, bf.w13.size() / 10) << recipe_name(r);
      }
      if (r == Recipe::kW4A16NVFP4 || r == Recipe::kNVFP4) {
        EXPECT_EQ(a.alpha13, cw.w13_global[size_t(e)]);
        EXPECT_EQ(a.alpha2, cw.w2_global[size_t(e)]);
        EXPECT_NE(a.alpha13, 1.0f);
        // Not folded: the weights are e2m1 x e4m3 products (at most 6 x 448).
        float amax = 0;
        for (float v : a.w13) amax = std::max(amax, std::fabs(v));
        EXPECT_GT(amax, 1.0f) << "w13 looks scaled by the global scale";
      } else {
        EXPECT_EQ(a.alpha13, 1.0f);
        EXPECT_EQ(a.alpha2, 1.0f);
      }
    }
  }
}

TEST(ReferenceWeights, SyntheticFollowsTheDocumentedFormula) {
  MoeConfig c = make_config(16, 2, 96, 64, Recipe::kBF16, Activation::kSwiGLU, true);
  reference::ExpertWeightsF32 w;
  const uint64_t seed = 1234;
  const int64_t g = 11, N13 = 128, H = 96, I = 64;
  reference::synthetic_expert_bf16(c, seed, g, &w);
  for (int64_t n : {0, 5, 127})
    for (int64_t h : {0, 33, 95})
      ASSERT_EQ(w.w13[size_t(n * H + h)],
                bf16(synthetic::uniform(seed, synthetic::kW13, uint64_t((g * N13 + n) * H + h), 1.0f / std::sqrt(96.0f))));
  for (int64_t n : {0, 95})
    for (int64_t i : {0, 63})
      ASSERT_EQ(w.w2[size_t(n * I + i)],
                bf16(synthetic::uniform(seed, synthetic::kW2, uint64_t((g * H + n) * I + i), 1.0f / std::sqrt(64.0f))));
  ASSERT_EQ(w.b13[7], bf16(synthetic::uniform(seed, synthetic::kB13, uint64_t(g * N13 + 7), 0.1f)));
  ASSERT_EQ(w.b2[9], bf16(synthetic::uniform(seed, synthetic::kB2, uint64_t(g * H + 9), 0.1f)));
  // An EP rank's provider sees the global expert's weights.
  MoeConfig c4 = c;
  c4.ep_size = 4;
  c4.ep_rank = 2;  // experts 8..11
  reference::ExpertWeightsF32 a, b;
  reference::synthetic_weights(c4, seed)->load(3, &a);
  reference::synthetic_weights(c, seed)->load(11, &b);
  expect_same_expert(a, b, "rank 2 local 3 vs global 11");
}

TEST(ReferenceWeights, PlacementSlotsHoldTheirGlobalExperts) {
  for (Recipe r : {Recipe::kBF16, Recipe::kNVFP4, Recipe::kFP8Block}) {
    MoeConfig c = make_config(8, 2, 64, 64, r, Activation::kSwiGLU, true);
    c.ep_size = 2;
    c.expert_placement = {{5, 1, 6, 2}, {0, 6, 3}};  // expert 6 on both ranks
    MoeConfig c1 = make_config(8, 2, 64, 64, r, Activation::kSwiGLU, true);
    auto all = reference::synthetic_weights(c1, 99);
    for (int rank = 0; rank < 2; ++rank) {
      MoeConfig cr = c;
      cr.ep_rank = rank;
      auto syn = reference::synthetic_weights(cr, 99);
      formats::CanonicalWeights cw = reference::synthetic_canonical_weights(cr, 99);
      auto can = reference::copy_canonical_weights(cr, cw.view(cr));
      ASSERT_EQ(cr.local_experts(), int64_t(c.expert_placement[size_t(rank)].size()));
      for (int64_t le = 0; le < cr.local_experts(); ++le) {
        const int64_t g = c.expert_placement[size_t(rank)][size_t(le)];
        reference::ExpertWeightsF32 a, b, want;
        syn->load(le, &a);
        can->load(le, &b);
        all->load(g, &want);
        const std::string what = std::string(recipe_name(r)) + " rank " + std::to_string(rank) + " slot " +
                                 std::to_string(le) + " (expert " + std::to_string(g) + ")";
        expect_same_expert(a, want, what + " synthetic");
        expect_same_expert(b, want, what + " canonical");
      }
    }
    // Different global experts really differ (the comparison above can fail).
    reference::ExpertWeightsF32 e5, e1;
    all->load(5, &e5);
    all->load(1, &e1);
    EXPECT_NE(std::memcmp(e5.w13.data(), e1.w13.data(), e5.w13.size() * 4), 0);
  }
}

TEST(ReferenceWeights, BiasDtypesBf16AndF32AgreeBitwise) {
  MoeConfig c = make_config(4, 2, 64, 32, Recipe::kBF16, Activation::kSwiGLU, true);
  auto cw = random_canonical(c, case_seed("biasdt"));
  MoeWeights v = cw.view(c);
  std::vector<uint16_t> b13(cw.b13.size()), b2(cw.b2.size());
  for (size_t i = 0; i < b13.size(); ++i) b13[i] = formats::float_to_bf16_bits(cw.b13[i]);
  for (size_t i = 0; i < b2.size(); ++i) b2[i] = formats::float_to_bf16_bits(cw.b2[i]);
  MoeWeights vb = v;
  vb.b13 = TensorView::contiguous(b13.data(), DType::kBF16, {4, 64});
  vb.b2 = TensorView::contiguous(b2.data(), DType::kBF16, {4, 64});
  Problem p, q;
  random_problem(p, 9, 64, 2, 4, case_seed("biasdt2"));
  random_problem(q, 9, 64, 2, 4, case_seed("biasdt2"));
  reference::moe_forward(c, *reference::copy_canonical_weights(c, v), p.xv(), p.idv(), p.wv(), p.outv());
  reference::moe_forward(c, *reference::copy_canonical_weights(c, vb), q.xv(), q.idv(), q.wv(), q.outv());
  EXPECT_TRUE(bitwise_equal(p.out, q.out));
}

// ---- full-size presets at small T (synthetic weights, regenerated per expert) -----------

TEST(ReferenceLarge, DeepSeekV3ShapeOneToken) {
  REFTEST_TRACE_SEED();
  // H=7168, I=2048, E=256, K=8, fp8_block; one routed expert keeps the runtime small.
  MoeConfig c = make_config(256, 8, 7168, 2048, Recipe::kFP8Block);
  const uint64_t seed = case_seed("dsv3");
  Problem p;
  random_problem(p, 1, 7168, 8, 256, seed, 1.0f);
  for (int64_t k = 1; k < 8; ++k) p.ids[size_t(k)] = -1;
  const auto t0 = std::chrono::steady_clock::now();
  auto wp = reference::synthetic_weights(c, seed);
  reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ timing ] deepseek-v3 fp8_block, 1 token, 1 expert: %.2f s\n", s);
  // Check against the float64 loop on that one expert (weights from the provider).
  reference::ExpertWeightsF32 w;
  wp->load(p.ids[0], &w);
  std::vector<F64Expert> W(256);
  F64Expert& e = W[size_t(p.ids[0])];
  e.w13.assign(w.w13.begin(), w.w13.end());
  e.w2.assign(w.w2.begin(), w.w2.end());
  const auto ref = f64_forward(c, W, p, 1.0f, 1.0f);
  const double err = rel_l2(p, ref);
  std::printf("[ rel-L2 ] deepseek-v3 fp8_block %.3e\n", err);
  EXPECT_LT(err, 1e-2);
  EXPECT_GT(norm2(ref), 0.0);
}

TEST(ReferenceLarge, MixtralShapeTwoTokens) {
  REFTEST_TRACE_SEED();
  // H=4096, I=14336, E=8, K=2, bf16: two experts of 176M weights each, generated on demand.
  MoeConfig c = make_config(8, 2, 4096, 14336, Recipe::kBF16);
  const uint64_t seed = case_seed("mixtral");
  Problem p;
  random_problem(p, 2, 4096, 2, 8, seed, 1.0f);
  p.ids = {3, -1, -1, 6};
  const auto t0 = std::chrono::steady_clock::now();
  auto wp = reference::synthetic_weights(c, seed);
  reference::moe_forward(c, *wp, p.xv(), p.idv(), p.wv(), p.outv(), 0);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ timing ] mixtral-8x7b bf16, 2 tokens, 2 experts: %.2f s\n", s);
  double sum = 0;
  for (int64_t i = 0; i < p.T * p.H; ++i) {
    const float v = formats::bf16_bits_to_float(p.out[size_t(i)]);
    ASSERT_TRUE(std::isfinite(v));
    sum += std::fabs(v);
  }
  EXPECT_GT(sum, 0.0);
  // Spot-check token 0's first outputs against float64 (one FC2 row per output needs all of a).
  reference::ExpertWeightsF32 w;
  wp->load(3, &w);
  const int64_t H = 4096, I = 14336;
  std::vector<float> a(static_cast<size_t>(I));
  for (int64_t i = 0; i < I; ++i) {
    double g = 0, u = 0;
    for (int64_t h = 0; h < H; ++h) {
      const double x = formats::bf16_bits_to_float(p.x[size_t(h)]);
      g += x * w.w13[size_t(i * H + h)];
      u += x * w.w13[size_t((I + i) * H + h)];
    }
    a[size_t(i)] = bf16(float(g / (1.0 + std::exp(-g)) * u));
  }
  double num = 0, den = 0;
  for (int64_t n = 0; n < 64; ++n) {
    double y = 0;
    for (int64_t i = 0; i < I; ++i) y += double(a[size_t(i)]) * w.w2[size_t(n * I + i)];
    const double want = double(p.w[0]) * double(bf16(float(y)));
    const double got = p.out_at(0, n);
    num += (got - want) * (got - want);
    den += want * want;
  }
  const double err = std::sqrt(num / den);
  std::printf("[ rel-L2 ] mixtral bf16 (64 outputs) %.3e\n", err);
  EXPECT_LT(err, 5e-3);
}

// ---- the cpu_reference backend through MoeLayer -----------------------------------------

TEST(ReferenceBackend, LayerEqualsReferenceBitwise) {
  REFTEST_TRACE_SEED();
  for (Recipe r : {Recipe::kBF16, Recipe::kW4A16MXFP4, Recipe::kNVFP4}) {
    MoeConfig c = make_config(8, 2, 64, 64, r, Activation::kSwiGLUOAI, true);
    c.num_threads = 2;
    const uint64_t seed = case_seed(std::string("layer") + recipe_name(r));
    auto cw = random_canonical(c, seed);
    if (r == Recipe::kNVFP4) {
      cw.fc1_input_global_scale = 2.0f / 2688.0f;
      cw.fc2_input_global_scale = 1.0f / 2688.0f;
    }
    MoeLayer layer(c);
    EXPECT_EQ(layer.backend_name(), "cpu_reference");
    layer.prepare_weights(cw.view(c));
    EXPECT_GT(layer.weight_bytes(), 0u);
    Problem p, q;
    random_problem(p, 40, 64, 2, 8, seed + 1);
    random_problem(q, 40, 64, 2, 8, seed + 1);
    layer.forward(p.xv(), p.idv(), p.wv(), p.outv());
    reference::moe_forward(c, *reference::copy_canonical_weights(c, cw.view(c)), q.xv(), q.idv(), q.wv(),
                           q.outv());
    EXPECT_TRUE(bitwise_equal(p.out, q.out)) << recipe_name(r);
    EXPECT_LT(check_against_f64(c, cw, q), 1e-2) << recipe_name(r);
    EXPECT_EQ(layer.invalid_id_count(), 0);
    // Invalid ids raise through the layer.
    p.ids[3] = 8;
    EXPECT_THROW(layer.forward(p.xv(), p.idv(), p.wv(), p.outv()), InvalidArgument);
  }
}

TEST(ReferenceBackend, AutoOnCpuPicksReferenceAndGpuDeviceIsRefused) {
  MoeConfig c = make_config(4, 2, 32, 32);
  c.backend = "auto";
  MoeLayer layer(c);
  EXPECT_EQ(layer.backend_name(), "cpu_reference");
  MoeConfig g = c;
  g.backend = "cpu_reference";
  g.device = 0;
  EXPECT_THROW({ MoeLayer l(g); }, Unsupported);
}

}  // namespace
}  // namespace megamoe::reftest
