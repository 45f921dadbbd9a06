// The bf16 large TMA GEMM's work split (src/kernels/sm90/gemm/grouped_gemm_bf16_large_tma_walk.h),
// the same code the kernel's roles run, checked on the host: every CTA of a grid walks its tiles,
// and together they cover every row of every weight block of every expert exactly once, in passes
// the kernel can run (<= 256 rows, 257..320 only in pass mode 2), never more tiles than the
// launch's bound; for random expert sizes (empty experts, a few rows, 256 +- 16, thousands), every
// pass mode and grids of 1, 7 and 132 CTAs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma_walk.h"

namespace megamoe {
namespace {

using namespace sm90::bf16_large;

TEST(Bf16LargeTmaWalk, PassStepPerMode) {
  EXPECT_EQ(pass_step(270, 0), 256);
  EXPECT_EQ(pass_step(270, 1), 160);  // two passes of 135 rows, rounded up to 32
  EXPECT_EQ(pass_step(600, 1), 224);  // three of 200
  EXPECT_EQ(pass_step(200, 1), 256);  // one pass: its own width
  EXPECT_EQ(pass_step(270, 2), 320);
  EXPECT_EQ(token_boxes(1), 1);
  EXPECT_EQ(token_boxes(32), 1);
  EXPECT_EQ(token_boxes(33), 2);
  EXPECT_EQ(token_boxes(320), 10);
}

TEST(Bf16LargeTmaWalk, EveryRowOfEveryBlockOnceInRunnablePasses) {
  std::mt19937_64 rng(20261205);
  for (int trial = 0; trial < 300; ++trial) {
    const int G = 1 + int(rng() % 300), nblk = 1 + int(rng() % 5), mode = trial % 3;
    std::vector<int32_t> offsets(size_t(G) + 1, int32_t(rng() % 50));
    for (int g = 0; g < G; ++g) {
      int rows = 0;
      switch (rng() % 5) {
        case 0: rows = 0; break;
        case 1: rows = int(rng() % 40); break;
        case 2: rows = 240 + int(rng() % 33); break;  // 256 +- 16
        case 3: rows = int(rng() % 700); break;
        default: rows = int(rng() % 3000); break;
      }
      offsets[size_t(g) + 1] = offsets[size_t(g)] + rows;
    }
    const int64_t rows_bound = offsets[size_t(G)];
    for (int ctas : {1, 7, 132}) {
     for (int pgroup : {0, 1, 3, 7}) {
      SCOPED_TRACE("trial " + std::to_string(trial) + " mode " + std::to_string(mode) + " ctas " + std::to_string(ctas) +
                   " pass group " + std::to_string(pgroup));
      // covered[g][blk][row - lo]
      std::vector<std::vector<std::vector<int>>> covered;
      covered.resize(size_t(G));
      for (int g = 0; g < G; ++g)
        covered[size_t(g)].assign(size_t(nblk), std::vector<int>(size_t(offsets[size_t(g) + 1] - offsets[size_t(g)]), 0));
      int64_t tiles = 0, bad = 0;
      for (int cta = 0; cta < ctas; ++cta) {
        TileWalk w(offsets.data(), G, nblk, mode, cta, ctas, pgroup);
        while (w.next()) {
          ++tiles;
          const int lo = offsets[size_t(w.g)], hi = offsets[size_t(w.g) + 1];
          const int max_rows = mode == 2 ? kMaxPass : kMaxTok;
          if (w.rows < 1 || w.rows > max_rows || w.t0 < lo || w.t0 + w.rows > hi || w.blk < 0 || w.blk >= nblk ||
              token_boxes(w.rows) * kTokBox < w.rows) {
            ++bad;
            continue;
          }
          for (int r = w.t0; r < w.t0 + w.rows; ++r) ++covered[size_t(w.g)][size_t(w.blk)][size_t(r - lo)];
        }
      }
      EXPECT_EQ(bad, 0) << "tiles outside their expert or with a pass the kernel cannot run";
      int64_t wrong = 0;
      for (const auto& e : covered)
        for (const auto& b : e)
          for (int c : b) wrong += c != 1;
      EXPECT_EQ(wrong, 0) << "rows covered zero or several times";
      EXPECT_LE(tiles, max_tiles(int64_t(nblk) * kWRows, G, rows_bound)) << "more tiles than the grid bound";
     }
    }
  }
}

// The dynamic order: one launch-wide counter hands out tickets 0, 1, 2, ... to whichever CTA asks
// next (here a random CTA each time); a CTA positions its cursor with at(ticket) and stops at its
// first ticket past the last tile. Every row of every block must still be covered exactly once, and
// the tickets drawn are the tiles plus one per CTA.
TEST(Bf16LargeTmaWalk, DynamicTicketsCoverEveryRowOnce) {
  std::mt19937_64 rng(20261206);
  for (int trial = 0; trial < 200; ++trial) {
    const int G = 1 + int(rng() % 200), nblk = 1 + int(rng() % 4), mode = trial % 3;
    std::vector<int32_t> offsets(size_t(G) + 1, 0);
    for (int g = 0; g < G; ++g) {
      const int rows = rng() % 4 == 0 ? 0 : int(rng() % (rng() % 2 ? 40 : 900));
      offsets[size_t(g) + 1] = offsets[size_t(g)] + rows;
    }
    const int ctas = 1 + int(rng() % 140);
    const int pgroup = trial % 4 == 0 ? 0 : 1 + int(rng() % 8);
    SCOPED_TRACE("trial " + std::to_string(trial) + " mode " + std::to_string(mode) + " ctas " + std::to_string(ctas) +
                 " pass group " + std::to_string(pgroup));
    std::vector<std::vector<std::vector<int>>> covered(static_cast<size_t>(G));
    for (int g = 0; g < G; ++g)
      covered[size_t(g)].assign(size_t(nblk), std::vector<int>(size_t(offsets[size_t(g) + 1] - offsets[size_t(g)]), 0));
    std::vector<TileWalk> walks;
    for (int cta = 0; cta < ctas; ++cta) walks.emplace_back(offsets.data(), G, nblk, mode, cta, ctas, pgroup);
    std::vector<int> live(static_cast<size_t>(ctas));
    for (int cta = 0; cta < ctas; ++cta) live[size_t(cta)] = cta;
    int ticket = 0;
    int64_t tiles = 0, bad = 0;
    while (!live.empty()) {
      const size_t pick = size_t(rng() % live.size());
      TileWalk& w = walks[size_t(live[pick])];
      if (!w.at(ticket++)) {
        live.erase(live.begin() + std::ptrdiff_t(pick));
        continue;
      }
      ++tiles;
      const int lo = offsets[size_t(w.g)], hi = offsets[size_t(w.g) + 1];
      if (w.rows < 1 || w.rows > (mode == 2 ? kMaxPass : kMaxTok) || w.t0 < lo || w.t0 + w.rows > hi || w.blk < 0 ||
          w.blk >= nblk) {
        ++bad;
        continue;
      }
      for (int r = w.t0; r < w.t0 + w.rows; ++r) ++covered[size_t(w.g)][size_t(w.blk)][size_t(r - lo)];
    }
    EXPECT_EQ(bad, 0);
    int64_t wrong = 0;
    for (const auto& e : covered)
      for (const auto& b : e)
        for (int c : b) wrong += c != 1;
    EXPECT_EQ(wrong, 0) << "rows covered zero or several times";
    EXPECT_EQ(int64_t(ticket), tiles + ctas) << "one ticket per tile and one past the end per CTA";
    EXPECT_LE(tiles, max_tiles(int64_t(nblk) * kWRows, G, offsets[size_t(G)]));
  }
}

// Pass groups: an expert of more passes than P runs them group by group over all its blocks (tiles
// in order: group 0 = passes 0..P-1 of block 0, of block 1, ...; then group 1; the last group the
// rest); an expert of at most P passes, or P = 0, keeps the order block by block, pass fastest.
TEST(Bf16LargeTmaWalk, PassGroupsOrderTilesGroupByGroup) {
  EXPECT_EQ(auto_pass_group(132), 7);  // sqrt(132 * 128 / 320) = 7.3
  EXPECT_EQ(auto_pass_group(1), 1);
  EXPECT_EQ(auto_pass_group(8), 1);
  EXPECT_EQ(auto_pass_group(10), 2);
  const int nblk = 3, mode = 2;
  const std::vector<int32_t> offsets = {0, 320 * 7 + 100, 320 * 7 + 100 + 640};  // 8 passes, then 2
  for (int P : {0, 1, 3, 8, 20}) {
    SCOPED_TRACE("pass group " + std::to_string(P));
    TileWalk w(offsets.data(), 2, nblk, mode, 0, 1, P);
    std::vector<std::pair<int, int>> order;  // (block, pass) of expert 0's tiles, then expert 1's
    std::vector<int> expert;
    for (int t = 0; w.at(t); ++t) {
      order.emplace_back(w.blk, (w.t0 - offsets[size_t(w.g)]) / 320);
      expert.push_back(w.g);
    }
    ASSERT_EQ(order.size(), size_t(nblk * 8 + nblk * 2));
    std::vector<std::pair<int, int>> want;
    for (int npass : {8, 2}) {  // expert 0, then expert 1
      const int g = P > 0 && P < npass ? P : npass;
      for (int first = 0; first < npass; first += g)
        for (int b = 0; b < nblk; ++b)
          for (int p = first; p < std::min(npass, first + g); ++p) want.emplace_back(b, p);
    }
    EXPECT_EQ(order, want);
    for (size_t i = 0; i < expert.size(); ++i) EXPECT_EQ(expert[i], i < size_t(nblk * 8) ? 0 : 1);
  }
}

// at() past the end keeps returning false; a ticket asked twice gives the same tile; a launch whose
// experts are all empty has no tile.
TEST(Bf16LargeTmaWalk, AtIsIdempotentAndStaysExhausted) {
  const std::vector<int32_t> offsets = {0, 300, 300, 900};
  TileWalk w(offsets.data(), 3, 2, 2, 0, 1);
  ASSERT_TRUE(w.at(3));
  const int g = w.g, blk = w.blk, t0 = w.t0, rows = w.rows;
  ASSERT_TRUE(w.at(3));
  EXPECT_TRUE(w.g == g && w.blk == blk && w.t0 == t0 && w.rows == rows);
  int last = 3;
  while (w.at(last + 1)) ++last;
  EXPECT_EQ(last + 1, w.base) << "the tile count, once past the end";
  EXPECT_FALSE(w.at(last + 1));
  EXPECT_FALSE(w.at(last + 100));
  const std::vector<int32_t> empty = {5, 5, 5, 5};
  TileWalk e(empty.data(), 3, 4, 2, 0, 1);
  EXPECT_FALSE(e.at(0));
  EXPECT_FALSE(e.next());
  EXPECT_EQ(e.base, 0);
}

}  // namespace
}  // namespace megamoe
