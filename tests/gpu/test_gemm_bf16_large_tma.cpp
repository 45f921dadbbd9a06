// GPU tests of our bf16 large TMA grouped GEMM (src/kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h,
// the `split_large_tma` tactic): per expert g, D[rows of g] = A[rows of g] . W[g]^T, fp32 or bf16 D.
// (Its activation epilogue is tested with the other kernels' in test_gemm_bf16_act.cpp.)
//
// For the three pass modes (passes of 256 then the remainder; equal passes; passes of 320 with two
// MMAs of 144 or 160 for 257..320 rows):
//   - fp32 D against a float64 CPU loop over the same bf16 values, per element within a bound
//     on fp32 accumulation (max(1e-5, 4e-8 K) of the sum of |a w|), every row;
//   - bf16 D is bf16(fp32 D) rounded to nearest even, bit for bit;
//   - rows before offsets[0], after offsets[G] (and 320 guard rows past them) and the padding
//     columns of ldd stay untouched (poison); those rows of A are NaN, and pass mode 2 runs with
//     rows_bound covering them (as the backend's bound does), so the last pass's boxes read them;
//   - experts of 0 .. 961 rows (every pass width 32 .. 256, both two-MMA widths, one to four
//     passes), N with a
//     partial last 128-row block (N % 128 == 64 and == 16), K with a partial last 64-wide step, lda
//     larger than K; 150 experts of 0 .. 4 rows (more tiles than SMs, the persistent walk wraps);
//     K = 584 (ten steps a pass) and 300 experts of 1 .. 320 rows (several tiles of mixed widths a
//     CTA): the 4-stage ring wraps, both barrier phases.
// Pass groups (Bf16LargeTmaArgs::pass_group) of 1..3 passes on part of the cases.
// Every case in the static tile order and in the dynamic one (a launch-wide counter, reset by the
// launch's last CTA: checked zero after each pair of launches), the dynamic one with both ticket
// draws (early_draw 0 and 1).
// Store modes (Bf16LargeTmaArgs::stores), one per pass mode here: one column a store (pass mode 0),
// two adjacent columns by a lane exchange (1), the staged epilogue (2: bf16 D of passes >= 128
// tokens through shared memory, 16 bytes a lane). Fallbacks: an odd ldd, an odd N and a D off the
// pair's alignment store one column; an ldd off a multiple of 8 and a bf16 D off 16 bytes store
// pairs instead of staging; N = 136 stages a last warp of 8 columns (its second half past N). Each
// launch's mode (launch_store_mode) is asserted against the rule. Bad arguments: tests/cpu/test_bf16_gemm_args.cpp (checked on the host before any CUDA call).
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.h"
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma_walk.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

using sm90::bf16_large::Bf16LargeTmaArgs;
using sm90::bf16_large::LargeTmaOut;

constexpr uint32_t kPoisonF32 = 0x7FC00BADu;  // quiet NaNs with payloads no kernel writes
constexpr uint16_t kPoisonBf16 = 0x7FC1;
constexpr int64_t kGuardRows = 320;

float bf16f(uint16_t b) { return formats::bf16_bits_to_float(b); }
std::vector<float> bf16_floats(const std::vector<uint16_t>& bits) {
  std::vector<float> v(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) v[i] = bf16f(bits[i]);
  return v;
}

struct Shape {
  std::string name;
  int64_t N, K, lda_pad, ldd_pad;
  int row0;  // rows before offsets[0]
  std::vector<int> rows;
  int d_offset = 0;  // D starts this many elements into its buffer (1: off the pair alignment)
};

// wide_bound: rows_bound = every row of A (as the backend passes it: the last pass's token boxes then
// read rows past offsets[G], here NaN, which must reach no stored output), else offsets[G].
// dynamic: tiles from a launch-wide counter (both launches share it; it must be zero again after each).
// order: 0 static, 1 dynamic, 2 dynamic with the early ticket draw.
// pgroup: Bf16LargeTmaArgs::pass_group (0 off, P > 0 passes a group).
void run_shape(const Shape& sh, int mode, bool wide_bound, int stores, int order = 0, int pgroup = 0) {
  const bool dynamic = order != 0;
  static const char* const kStoreNames[] = {" single stores", " paired stores", " staged stores"};
  const std::string name = sh.name + " pass mode " + std::to_string(mode) + (wide_bound ? " wide bound" : "") +
                           kStoreNames[stores] + (order == 1 ? " dynamic order" : order == 2 ? " dynamic order early draw" : "") +
                           (pgroup ? " pass group " + std::to_string(pgroup) : "");
  SCOPED_TRACE(name);
  const int G = int(sh.rows.size());
  const int64_t N = sh.N, K = sh.K, lda = K + sh.lda_pad, ldd = N + sh.ldd_pad;
  std::vector<int32_t> offsets(size_t(G) + 1, sh.row0);
  for (int g = 0; g < G; ++g) offsets[size_t(g) + 1] = offsets[size_t(g)] + sh.rows[size_t(g)];
  const int64_t end = offsets[size_t(G)], all_rows = end + kGuardRows;
  const uint64_t seed = case_seed(name);
  std::vector<uint16_t> A(size_t(all_rows * lda)), W(size_t(int64_t(G) * N * K));
  fill_bf16(A, seed, 1, 1.0f);
  fill_bf16(W, seed, 2, 1.0f);
  // Rows of A outside the experts (before offsets[0], the guard rows after offsets[G]): NaN.
  for (int64_t r = 0; r < all_rows; ++r)
    if (r < sh.row0 || r >= end)
      for (int64_t k = 0; k < lda; ++k) A[size_t(r * lda + k)] = 0x7FC0;

  DevBuf<uint16_t> dA, dW, dD16;
  DevBuf<float> dD;
  DevBuf<int32_t> doff, dsched;
  dA.upload(A);
  dW.upload(W);
  doff.upload(offsets);
  float poison;
  std::memcpy(&poison, &kPoisonF32, 4);
  const size_t off = size_t(sh.d_offset);
  dD.upload(std::vector<float>(size_t(all_rows * ldd) + off, poison));
  dD16.upload(std::vector<uint16_t>(size_t(all_rows * ldd) + off, kPoisonBf16));

  Bf16LargeTmaArgs a;
  a.A = dA.p;
  a.lda = lda;
  a.W = dW.p;
  a.offsets = doff.p;
  a.num_groups = G;
  a.N = N;
  a.K = K;
  a.ldd = ldd;
  a.pass_mode = mode;
  a.stores = stores;
  a.D = dD.p + off;
  a.out = LargeTmaOut::kF32;
  a.dynamic_tiles = dynamic ? 1 : 0;
  a.early_draw = order == 2 ? 1 : 0;
  a.pass_group = pgroup;
  if (dynamic) {
    dsched.upload(std::vector<int32_t>{0, 0, 0, 0});
    a.tile_counter = dsched.p;
  }
  const int64_t bound = wide_bound ? all_rows : end;  // end: zero fill past the last expert's row
  // The store mode each launch must run: staged for bf16 D with N, ldd % 8 == 0 and D on 16 bytes;
  // else paired with N, ldd even and D on two elements; else single.
  const bool pair_fits = N % 2 == 0 && ldd % 2 == 0 && off % 2 == 0;
  const int want32 = stores >= 1 && pair_fits ? 1 : 0;
  const int want16 = stores == 2 && N % 8 == 0 && ldd % 8 == 0 && off % 8 == 0 ? 2 : want32;
  EXPECT_EQ(sm90::bf16_large::launch_store_mode(a), want32) << "fp32 D's store mode";
  sm90::bf16_large::launch_bf16_large_tma(a, bound, nullptr);
  a.D = dD16.p + off;
  a.out = LargeTmaOut::kBf16;
  EXPECT_EQ(sm90::bf16_large::launch_store_mode(a), want16) << "bf16 D's store mode";
  sm90::bf16_large::launch_bf16_large_tma(a, bound, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  if (dynamic) {
    // Zero again, and the kernel's own count of the tiles it ran (proof the dynamic order ran) equal to
    // the work split's.
    const std::vector<int32_t> left = dsched.download();
    sm90::bf16_large::TileWalk w(offsets.data(), G, int((N + sm90::bf16_large::kWRows - 1) / sm90::bf16_large::kWRows),
                                 mode, 0, 1);
    int tiles = 0;
    while (w.next()) ++tiles;
    EXPECT_TRUE(left[0] == 0 && left[1] == 0 && left[2] == 0)
        << "the tile counter was not reset: " << left[0] << ", " << left[1] << ", " << left[2];
    EXPECT_EQ(left[3], tiles) << "tiles the last dynamic launch ran";
  }
  std::vector<float> D = dD.download();
  std::vector<uint16_t> D16 = dD16.download();
  uint32_t head_bits = kPoisonF32;
  if (off) std::memcpy(&head_bits, &D[0], 4);
  EXPECT_TRUE(head_bits == kPoisonF32 && (off == 0 || D16[0] == kPoisonBf16)) << "the element before D was written";
  D.erase(D.begin(), D.begin() + std::ptrdiff_t(off));
  D16.erase(D16.begin(), D16.begin() + std::ptrdiff_t(off));

  std::vector<int> expert_of(size_t(all_rows), -1);
  for (int g = 0; g < G; ++g)
    for (int32_t r = offsets[size_t(g)]; r < offsets[size_t(g) + 1]; ++r) expert_of[size_t(r)] = g;
  const double tol = std::max(1e-5, 4e-8 * double(K));  // fp32 sums of K products
  // The float64 loop over every output, on all cores (126 launches of up to ~10^4 rows x 256 x 584:
  // one thread took 133 s on an H100 host, session 51). Per element the same checks as one loop; the
  // first bad element reported is the lowest index.
  const std::vector<float> Af = bf16_floats(A), Wf = bf16_floats(W);
  struct Tally {
    int64_t bad = 0, bad16 = 0, touched = 0, checked = 0, first_bad = -1;
    std::string first_text;
  };
  std::mutex tally_mutex;
  Tally total;
  parallel_range(all_rows * ldd, [&](int64_t begin, int64_t stop) {
    Tally t;
    for (int64_t i = begin; i < stop; ++i) {
      const int64_t r = i / ldd, n = i % ldd;
      const int g = expert_of[size_t(r)];
      uint32_t bits;
      std::memcpy(&bits, &D[size_t(i)], 4);
      if (g < 0 || n >= N) {
        t.touched += (bits != kPoisonF32) + (D16[size_t(i)] != kPoisonBf16);
        continue;
      }
      double ref = 0.0, mag = 0.0;
      const float* ar = &Af[size_t(r * lda)];
      const float* wr = &Wf[size_t((int64_t(g) * N + n) * K)];
      for (int64_t k = 0; k < K; ++k) {
        const double p = double(ar[k]) * double(wr[k]);
        ref += p;
        mag += std::fabs(p);
      }
      ++t.checked;
      if (!(std::fabs(double(D[size_t(i)]) - ref) <= tol * mag + 1e-30)) {
        if (t.bad++ == 0) {
          t.first_bad = i;
          t.first_text = "row " + std::to_string(r) + " col " + std::to_string(n) + ": " +
                         std::to_string(D[size_t(i)]) + " vs " + std::to_string(ref);
        }
      }
      t.bad16 += D16[size_t(i)] != formats::float_to_bf16_bits(D[size_t(i)]);
    }
    const std::lock_guard<std::mutex> lock(tally_mutex);
    total.bad += t.bad;
    total.bad16 += t.bad16;
    total.touched += t.touched;
    total.checked += t.checked;
    if (t.first_bad >= 0 && (total.first_bad < 0 || t.first_bad < total.first_bad)) {
      total.first_bad = t.first_bad;
      total.first_text = t.first_text;
    }
  });
  const int64_t bad = total.bad, bad16 = total.bad16, touched = total.touched, checked = total.checked;
  const std::string& first_bad = total.first_text;
  if (end > sh.row0) EXPECT_GT(checked, 0);
  EXPECT_EQ(bad, 0) << "fp32 D against the float64 loop; first: " << first_bad;
  EXPECT_EQ(bad16, 0) << "bf16 D is not bf16(fp32 D)";
  EXPECT_EQ(touched, 0) << "rows outside the experts, guard rows or ldd's padding columns were written";
}

TEST(Bf16LargeTma, MatchesFloat64ForEveryPassWidthAndPolicy) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  // Row counts: every pass width (1..32 -> 32, .., 225..256 -> 256), two passes (257, 300, 520) or
  // one two-MMA pass (257..288: 2 x 144, 289..320: 2 x 160; mode 2), three or more (600, 769, 961),
  // empty experts between; the last expert with rows a two-MMA pass next to the guard rows (a second
  // half storing 160 rows instead of its 129 would write them).
  const std::vector<int> widths = {0,   1,   31,  32,  33,  64,  65,  100, 128, 150, 161, 200, 225, 255, 256, 0,
                                   257, 288, 289, 300, 320, 321, 511, 512, 520, 600, 640, 769, 961, 289, 0};
  std::vector<Shape> shapes = {
      {"N320 K200", 320, 200, 8, 8, 5, widths},       // partial last row block (64 of 128), partial K step
      {"N144 K136", 144, 136, 0, 0, 0, widths},       // a last row block of 16 rows, K = two steps + 8
      {"N256 K64", 256, 64, 0, 4, 0, widths},         // one K step
  };
  std::mt19937_64 rng(case_seed("tiny experts"));
  std::vector<int> tiny(150);
  for (int& r : tiny) r = int(rng() % 5);
  shapes.push_back({"150 experts of 0-4 rows", 256, 128, 0, 0, 3, tiny});
  shapes.push_back({"every expert empty", 256, 128, 0, 0, 3, {0, 0, 0, 0}});  // a grid of CTAs without tiles
  // The ring wraps: ten K steps a pass (the last one partial) over 4 stages, and 300 experts of
  // 1..320 rows (~5 tiles of mixed widths a CTA of the 132) through both barrier phases many times.
  shapes.push_back({"N144 K584", 144, 584, 0, 0, 0, widths});
  std::vector<int> mixed(300);
  for (int& r : mixed) r = 1 + int(rng() % 320);
  mixed.back() = 300;  // a two-MMA pass of 160 + 140 rows next to the guard rows
  shapes.push_back({"300 experts of 1-320 rows", 256, 136, 0, 0, 0, mixed});
  // Where the pair does not fit, paired stores requested and single ones run: an odd ldd, an odd N
  // (padding columns after it must stay untouched), D one element off the pair's alignment.
  shapes.push_back({"N256 K136 odd ldd", 256, 136, 0, 3, 0, widths});
  shapes.push_back({"N143 K136 odd N", 143, 136, 0, 5, 0, widths});
  shapes.push_back({"N256 K136 D off by one", 256, 136, 0, 0, 0, widths, /*d_offset=*/1});
  // Staged stores' fallbacks and edge: bf16 D 8 bytes off 16 (pairs), N = 136 (a last warp of one
  // 8-column half; the staged ldd 144 leaves padding columns that must stay untouched).
  shapes.push_back({"N256 K136 D off 16 bytes", 256, 136, 0, 0, 0, widths, /*d_offset=*/4});
  shapes.push_back({"N136 K136", 136, 136, 0, 8, 0, widths});
  // Pass groups (experts of up to 961 rows have up to 4 passes): none, of 1 or of 2 passes on a third
  // of the (mode, order) pairs each, so every order and pass mode runs with and without them; then
  // groups of 3 (a last group of 1) in pass mode 2, dynamic order.
  for (int mode : {0, 1, 2})
    for (const Shape& sh : shapes)
      for (int order : {0, 1, 2})
        run_shape(sh, mode, /*wide_bound=*/mode == 2, /*stores=*/mode, order, /*pgroup=*/(mode + order) % 3);
  for (const Shape& sh : shapes) run_shape(sh, 2, /*wide_bound=*/true, /*stores=*/2, /*order=*/1, /*pgroup=*/3);
}

// The same checks on a small problem (each pass width kind, both two-MMA widths, a second pass, the
// ring wrapped), so that compute-sanitizer (memcheck, racecheck, synccheck) finishes in seconds.
TEST(Bf16LargeTma, SmallProblemForSanitizers) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const std::vector<int> rows = {0, 1, 33, 200, 257, 300, 600, 0};
  for (int mode : {0, 2})
    for (int order : {0, 1, 2})  // pass mode 2 with staged stores (ldd 152), 0 with single ones; pass groups of 1
      run_shape({"sanitizer N144 K328", 144, 328, 0, 8, 3, rows}, mode, mode == 2, /*stores=*/mode, order,
                /*pgroup=*/order == 1 ? 1 : 0);
}

}  // namespace
}  // namespace megamoe::gputest
