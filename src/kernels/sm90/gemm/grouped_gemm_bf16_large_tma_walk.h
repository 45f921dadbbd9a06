// The bf16 large TMA GEMM's work split (grouped_gemm_bf16_large_tma.cuh), host and device: how an
// expert's rows are cut into passes, and the tile sequence a persistent CTA walks. One definition
// the kernel's roles run and a CPU test checks (tests/cpu/test_bf16_large_tma_walk.cpp: every row of
// every weight block covered exactly once, for every pass mode and grid size).
#pragma once
#include <cstdint>

#include "core/host_device.h"

namespace megamoe::sm90::bf16_large {

constexpr int kWRows = 128;    // weight rows per tile: 2 consumer warpgroups x wgmma's M = 64
constexpr int kMaxTok = 256;   // tokens per MMA: wgmma's largest N
constexpr int kMaxPass = 320;  // tokens per pass: two MMAs of N = 144 or 160 (pass mode 2)
constexpr int kTokBox = 32;    // token rows per TMA box; one-MMA pass widths are multiples of it

// The token rows a pass covers (every pass of an expert but the last), by pass mode
// (Bf16LargeTmaArgs::pass_mode): 0: 256; 1: the expert's rows over ceil(rows / 256) passes, rounded
// up to a whole token box (<= 256); 2: 320 (a pass of 257..320 rows runs two MMAs on its halves).
// Every role computes it from the same rows.
MEGAMOE_HD int pass_step(int rows, int mode) {
  if (mode == 2) return kMaxPass;
  if (mode == 0 || rows <= kMaxTok) return kMaxTok;
  const int passes = (rows + kMaxTok - 1) / kMaxTok;
  return ((rows + passes - 1) / passes + kTokBox - 1) / kTokBox * kTokBox;
}
MEGAMOE_HD int token_boxes(int rows) { return (rows + kTokBox - 1) / kTokBox; }

// Tiles, at most: row blocks x (the experts that can have rows + one more pass per 256 rows; an
// expert of r rows has at most ceil(r / 256) passes in every mode). The launch's grid bound.
MEGAMOE_HD int64_t max_tiles(int64_t N, int G, int64_t rows_bound) {
  const int64_t blocks = (N + kWRows - 1) / kWRows;
  return blocks * ((G < rows_bound ? int64_t(G) : rows_bound) + (rows_bound + kMaxTok - 1) / kMaxTok);
}

// Pass groups: the passes a wave of tiles should cover at once, so that the tiles running together
// read ~P passes of tokens and ~ctas / P weight blocks rather than every pass of an expert with many
// (mixtral-8x7b T = 32768: 26 passes of 320 rows, 64 MB of an expert's tokens, more than L2, re-read
// for every weight block). Per wave, tokens cost 320 / 128 = 2.5x a weight block's bytes per pass,
// so P ~ sqrt(ctas * 128 / 320) minimises what a wave reads (7 for 132 CTAs). Whole numbers only.
MEGAMOE_HD int auto_pass_group(int ctas) {
  int p = 1;
  while ((p + 1) * (p + 1) * kMaxPass <= ctas * kWRows) ++p;
  return p;
}

// The tiles of a launch count (expert, weight-row block, pass) over the experts with rows: pass
// fastest, and with pass groups (pgroup = P > 0) an expert of more than P passes runs its passes in
// groups of P (the last group the rest): group by group, each weight block x the group's passes.
// pgroup = 0, or an expert of at most P passes: every weight block x all its passes.
// A CTA visits an increasing sequence of tile indices, either its static one (next(): cta,
// cta + ctas, ..., which every role computes alone) or the tickets the CTA drew from a launch-wide
// counter (at(t): the TMA lane draws, the consumers receive the index through shared memory); each
// role positions its own cursor (two loads per expert it passes). Both return false past the last
// tile.
struct TileWalk {
  const int32_t* offsets;
  int G, nblk, mode, ctas, pgroup;
  int t;
  int g = -1, base = 0, count = 0, npass = 1, ps = kMaxTok;  // expert g's tiles are [base, base + count)
  int lo = 0, hi = 0, blk = 0, t0 = 0, rows = 0;
  MEGAMOE_HD TileWalk(const int32_t* o, int G_, int nblk_, int mode_, int cta, int ctas_, int pgroup_ = 0)
      : offsets(o), G(G_), nblk(nblk_), mode(mode_), ctas(ctas_), pgroup(pgroup_), t(cta) {}
  MEGAMOE_HD static int load(const int32_t* p) {
#if defined(__CUDA_ARCH__)
    return __ldg(p);
#else
    return *p;
#endif
  }
  // Positions the cursor at tile `tile` (never below the previous call's tile).
  MEGAMOE_HD bool at(int tile) {
    while (tile >= base + count) {
      base += count;
      if (g + 1 >= G) {
        g = G;  // exhausted: every later tile is too
        count = 0;
        return false;
      }
      ++g;
      lo = load(offsets + g);
      hi = load(offsets + g + 1);
      ps = pass_step(hi - lo, mode);
      npass = (hi - lo + ps - 1) / ps;
      count = hi > lo ? nblk * npass : 0;
    }
    const int local = tile - base;
    // Groups of P passes (every group but the last is full, so group grp starts at tile grp * nblk * P);
    // inside one, weight block by block, pass fastest.
    const int P = pgroup > 0 && pgroup < npass ? pgroup : npass;
    const int grp = local / (nblk * P), w = local - grp * nblk * P;
    const int size = npass - grp * P < P ? npass - grp * P : P;  // passes in this group
    blk = w / size;
    t0 = lo + (grp * P + (w - blk * size)) * ps;
    rows = ps < hi - t0 ? ps : hi - t0;
    return true;
  }
  MEGAMOE_HD bool next() {
    const bool ok = at(t);
    t += ctas;
    return ok;
  }
};

}  // namespace megamoe::sm90::bf16_large
