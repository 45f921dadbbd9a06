// GPU tests of the sm90 grouped bf16 GEMM (src/kernels/sm90/gemm/grouped_gemm_bf16.h):
// per group g, D[rows of g] = A[rows of g] . W[g]^T (bf16 in, fp32 accumulate, fp32 out), with
// the per-group row ranges read from a device `offsets` array.
//
// Checks, for both tactics: a float64 CPU loop over the same bf16 values (rel-L2 <= 1e-3), NaN
// poisoning (every element of every group row written; rows outside [offsets[0], offsets[G]) and
// the padding columns of ldd untouched, bitwise), zero-row groups, one group holding all rows,
// N/K not multiples of 128, bitwise repeatability, and CUDA-graph replay equal to eager (with
// the offsets rewritten between replays, so the graph really reads them on the device).
// Every GPU test skips itself (GTEST_SKIP) without a Hopper GPU.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "kernels/sm90/gemm/grouped_gemm_bf16.h"
#include "megamoe/errors.h"
#include "routing/route_plan.h"

namespace {

using megamoe::sm90::choose_tactic;
using megamoe::sm90::GroupedGemmBf16;
using megamoe::sm90::GroupedGemmTactic;
using megamoe::sm90::tactic_name;

#define CUDA_OK(expr)                                                                   \
  do {                                                                                  \
    cudaError_t e_ = (expr);                                                            \
    ASSERT_EQ(e_, cudaSuccess) << #expr << ": " << cudaGetErrorString(e_);              \
  } while (0)

// Skips the calling test unless a compute-capability 9.x GPU is present.
#define REQUIRE_HOPPER()                                                                \
  do {                                                                                  \
    std::string why_;                                                                   \
    if (!hopper_available(&why_)) GTEST_SKIP() << why_;                                 \
  } while (0)

bool hopper_available(std::string* why) {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
    cudaGetLastError();
    *why = "no CUDA GPU on this machine (cudaGetDeviceCount reports none)";
    return false;
  }
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  if (major != 9) {
    *why = "the sm90 grouped GEMM needs a Hopper (compute capability 9.x) GPU; device 0 is " +
           std::to_string(major) + ".x";
    return false;
  }
  return true;
}

uint16_t to_bf16(float x) {  // round to nearest even (inputs here are finite)
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return uint16_t(u >> 16);
}
float from_bf16(uint16_t b) {
  uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
constexpr uint32_t kPoisonBits = 0x7FC00BADu;  // a quiet NaN with a recognisable payload
float poison_value() {
  float f;
  std::memcpy(&f, &kPoisonBits, 4);
  return f;
}

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t count = 0;
  explicit DeviceBuffer(size_t n) : count(n) {
    if (n && cudaMalloc(&ptr, n * sizeof(T)) != cudaSuccess) ptr = nullptr;
  }
  ~DeviceBuffer() {
    if (ptr) cudaFree(ptr);
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  size_t bytes() const { return count * sizeof(T); }
};

struct Problem {
  int G = 0;
  int64_t N = 0, K = 0;
  int64_t lda = 0, ldd = 0;
  int row0 = 0;         // offsets[0] (rows before it belong to nobody)
  int tail_rows = 0;    // rows after offsets[G] that belong to nobody
  std::vector<int> rows;  // per group
  // host copies
  std::vector<int32_t> offsets;
  std::vector<uint16_t> A, W;  // bf16 bits
  int64_t d_rows = 0;          // rows of D (row0 + sum rows + tail_rows)

  int64_t total() const { return offsets.back() - offsets.front(); }
};

Problem make_problem(int G, int64_t N, int64_t K, std::vector<int> rows, uint64_t seed, int64_t lda_pad = 0,
                     int64_t ldd_pad = 0, int row0 = 0, int tail_rows = 3) {
  Problem p;
  p.G = G;
  p.N = N;
  p.K = K;
  p.lda = K + lda_pad;
  p.ldd = N + ldd_pad;
  p.row0 = row0;
  p.tail_rows = tail_rows;
  p.rows = std::move(rows);
  p.offsets.resize(G + 1);
  p.offsets[0] = row0;
  for (int g = 0; g < G; ++g) p.offsets[g + 1] = p.offsets[g] + p.rows[g];
  p.d_rows = p.offsets[G] + tail_rows;
  // splitmix64 -> uniform [-1, 1): fast enough for the ~100M weights of the model shapes
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  auto uniform = [&state]() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return float(int64_t(z >> 40) - (int64_t(1) << 23)) * (1.0f / float(1 << 23));
  };
  p.A.resize(size_t(p.d_rows) * p.lda);
  for (auto& v : p.A) v = to_bf16(uniform());
  p.W.resize(size_t(G) * N * K);
  for (auto& v : p.W) v = to_bf16(uniform());
  return p;
}

// Random per-group row counts summing to `total`, with about `zero_frac` of the groups empty.
std::vector<int> random_rows(int G, int total, double zero_frac, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> active;
  std::bernoulli_distribution zero(zero_frac);
  for (int g = 0; g < G; ++g)
    if (!zero(rng)) active.push_back(g);
  if (active.empty()) active.push_back(int(rng() % G));
  std::vector<int> rows(G, 0);
  std::uniform_int_distribution<int> pick(0, int(active.size()) - 1);
  for (int i = 0; i < total; ++i) rows[active[pick(rng)]]++;
  return rows;
}

struct DeviceProblem {
  DeviceBuffer<uint16_t> A, W;
  DeviceBuffer<float> D;
  DeviceBuffer<int32_t> offsets;
  explicit DeviceProblem(const Problem& p)
      : A(p.A.size()), W(p.W.size()), D(size_t(std::max<int64_t>(p.d_rows, 1)) * p.ldd), offsets(p.offsets.size()) {}
};

// A cudaMemcpy from pageable host memory may return before its DMA lands, and it runs on the legacy
// default stream, which the tests' non-blocking streams are not ordered after: without this wait a
// GEMM could read offsets or operands not yet copied (session 52: a case whose offsets read as
// empty groups left all its output unwritten, only while four test processes loaded the GPU).
void wait_for_uploads() { CUDA_OK(cudaDeviceSynchronize()); }

void upload(const Problem& p, DeviceProblem& d) {
  ASSERT_TRUE(d.A.ptr && d.W.ptr && d.D.ptr && d.offsets.ptr) << "device allocation failed";
  CUDA_OK(cudaMemcpy(d.A.ptr, p.A.data(), d.A.bytes(), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d.W.ptr, p.W.data(), d.W.bytes(), cudaMemcpyHostToDevice));
  CUDA_OK(cudaMemcpy(d.offsets.ptr, p.offsets.data(), d.offsets.bytes(), cudaMemcpyHostToDevice));
  wait_for_uploads();
}

void poison(DeviceProblem& d, cudaStream_t s) {
  std::vector<float> host(d.D.count, poison_value());
  ASSERT_EQ(cudaMemcpyAsync(d.D.ptr, host.data(), d.D.bytes(), cudaMemcpyHostToDevice, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
}

std::vector<float> download(const DeviceProblem& d) {
  std::vector<float> host(d.D.count);
  EXPECT_EQ(cudaMemcpy(host.data(), d.D.ptr, d.D.bytes(), cudaMemcpyDeviceToHost), cudaSuccess);
  return host;
}

// Columns compared against the float64 loop: all of them for small N; for large N a fixed sample
// that includes both ends and the last (tail) tile, to keep the CPU loop cheap.
std::vector<int64_t> checked_columns(int64_t N) {
  std::vector<int64_t> cols;
  if (N <= 512) {
    cols.resize(N);
    std::iota(cols.begin(), cols.end(), 0);
    return cols;
  }
  for (int64_t c = 0; c < 64; ++c) cols.push_back(c);
  for (int64_t c = N - 160; c < N; ++c) cols.push_back(c);
  std::mt19937_64 rng(uint64_t(N) * 7919);
  for (int i = 0; i < 128; ++i) cols.push_back(int64_t(rng() % uint64_t(N)));
  std::sort(cols.begin(), cols.end());
  cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
  return cols;
}

// Verifies D against the float64 reference and the poisoning contract. Returns rel-L2.
double verify(const Problem& p, const std::vector<float>& D, const std::string& what) {
  // 1. untouched: rows outside [offsets[0], offsets[G]) and padding columns keep the poison bits
  int64_t bad_untouched = 0;
  for (int64_t r = 0; r < p.d_rows; ++r) {
    const bool owned = r >= p.offsets.front() && r < p.offsets.back();
    for (int64_t c = owned ? p.N : 0; c < p.ldd; ++c) {
      uint32_t bits;
      std::memcpy(&bits, &D[size_t(r) * p.ldd + c], 4);
      if (bits != kPoisonBits) ++bad_untouched;
    }
  }
  EXPECT_EQ(bad_untouched, 0) << what << ": elements outside the groups' rows/columns were written";
  // 2. written: every element of every group row is finite (NaN poison never passes)
  int64_t not_written = 0;
  for (int64_t r = p.offsets.front(); r < p.offsets.back(); ++r)
    for (int64_t c = 0; c < p.N; ++c)
      if (!std::isfinite(D[size_t(r) * p.ldd + c])) ++not_written;
  EXPECT_EQ(not_written, 0) << what << ": group elements left unwritten (NaN) or non-finite";
  // 3. values: float64 loop over the same bf16 inputs
  const auto cols = checked_columns(p.N);
  std::vector<double> a_row(p.K);
  double err2 = 0, ref2 = 0;
  for (int g = 0; g < p.G; ++g) {
    for (int64_t r = p.offsets[g]; r < p.offsets[g + 1]; ++r) {
      for (int64_t k = 0; k < p.K; ++k) a_row[k] = from_bf16(p.A[size_t(r) * p.lda + k]);
      for (int64_t c : cols) {
        const uint16_t* w = &p.W[(size_t(g) * p.N + c) * p.K];
        double acc = 0;
        for (int64_t k = 0; k < p.K; ++k) acc += a_row[k] * double(from_bf16(w[k]));
        const double got = D[size_t(r) * p.ldd + c];
        err2 += (got - acc) * (got - acc);
        ref2 += acc * acc;
      }
    }
  }
  const double rel = p.total() > 0 ? std::sqrt(err2 / std::max(ref2, 1e-300)) : 0.0;
  EXPECT_LE(rel, 1e-3) << what << ": rel-L2 vs the float64 loop";
  EXPECT_FALSE(std::isnan(rel)) << what;
  return rel;
}

// Which CUTLASS kernel run() uses (mirrors the rule in grouped_gemm_bf16.cu), for the log.
std::string kernel_label(GroupedGemmTactic t, int64_t bound, int G) {
  if (t == GroupedGemmTactic::kLargeTile) return "large 128x256";
  return (bound + G - 1) / G <= 8 ? "swap-AB 128x32" : "swap-AB 128x64";
}

void run_and_check_bound(const Problem& p, GroupedGemmTactic tactic, const std::string& label, int64_t bound) {
  cudaStream_t s;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  DeviceProblem d(p);
  upload(p, d);
  GroupedGemmBf16 gemm(p.G, p.N, p.K, /*device=*/0);
  const std::string what = label + " [" + kernel_label(tactic, bound, p.G) + ", G=" + std::to_string(p.G) +
                           ", N=" + std::to_string(p.N) + ", K=" + std::to_string(p.K) +
                           ", rows=" + std::to_string(p.total()) + ", bound=" + std::to_string(bound) + "]";
  poison(d, s);
  gemm.run(d.A.ptr, p.lda, d.W.ptr, d.D.ptr, p.ldd, d.offsets.ptr, bound, s, tactic);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaStreamSynchronize(s));
  const auto first = download(d);
  const double rel = verify(p, first, what);
  // bitwise repeatable
  poison(d, s);
  gemm.run(d.A.ptr, p.lda, d.W.ptr, d.D.ptr, p.ldd, d.offsets.ptr, bound, s, tactic);
  CUDA_OK(cudaStreamSynchronize(s));
  const auto second = download(d);
  EXPECT_EQ(std::memcmp(first.data(), second.data(), first.size() * sizeof(float)), 0)
      << what << ": two runs differ bitwise";
  std::printf("  %-92s rel-L2 %.3e\n", what.c_str(), rel);
  CUDA_OK(cudaStreamDestroy(s));
}

// Runs with the exact bound; for swap-AB with <= 8 rows per group (the 32-wide kernel) also with
// a looser, still valid bound that selects the 64-wide kernel, so both swap kernels see every case.
void run_and_check(const Problem& p, GroupedGemmTactic tactic, const std::string& label) {
  // (a 0 bound would launch nothing; keep the kernels in play for the all-empty case)
  const int64_t bound = std::max<int64_t>(p.offsets.back(), 1);
  run_and_check_bound(p, tactic, label, bound);
  if (tactic == GroupedGemmTactic::kSwapAB && (bound + p.G - 1) / p.G <= 8)
    run_and_check_bound(p, tactic, label, std::max<int64_t>(bound, int64_t(32) * p.G));
}

const GroupedGemmTactic kBoth[] = {GroupedGemmTactic::kSwapAB, GroupedGemmTactic::kLargeTile};

}  // namespace

// CPU-only: the documented heuristic (avg rows per group <= 32 -> swap-AB).
TEST(GroupedGemmTactic, HeuristicOnAverageRowsPerGroup) {
  EXPECT_EQ(choose_tactic(8, 256), GroupedGemmTactic::kSwapAB);
  EXPECT_EQ(choose_tactic(512, 256), GroupedGemmTactic::kSwapAB);
  EXPECT_EQ(choose_tactic(32 * 256, 256), GroupedGemmTactic::kSwapAB);
  EXPECT_EQ(choose_tactic(32 * 256 + 1, 256), GroupedGemmTactic::kLargeTile);
  EXPECT_EQ(choose_tactic(64 * 256, 256), GroupedGemmTactic::kLargeTile);
  EXPECT_EQ(choose_tactic(65536, 256), GroupedGemmTactic::kLargeTile);
  EXPECT_EQ(choose_tactic(0, 8), GroupedGemmTactic::kSwapAB);
  EXPECT_EQ(choose_tactic(100, 0), GroupedGemmTactic::kSwapAB);
  EXPECT_STRNE(tactic_name(GroupedGemmTactic::kSwapAB), tactic_name(GroupedGemmTactic::kLargeTile));
}

TEST(GroupedGemm, SmallShapesRandomRowsWithEmptyGroups) {
  REQUIRE_HOPPER();
  // N, K multiples of 64 but not of 128; a padded lda/ldd; rows before offsets[0] and after offsets[G]
  for (auto t : kBoth) {
    run_and_check(make_problem(6, 192, 320, {5, 0, 37, 0, 1, 130}, 11, /*lda_pad=*/8, /*ldd_pad=*/4, /*row0=*/3),
                  t, "small");
    run_and_check(make_problem(9, 64, 64, random_rows(9, 70, 0.4, 5), 12), t, "tiny");
    run_and_check(make_problem(4, 320, 448, {1, 1, 1, 1}, 13), t, "one row each");
  }
}

TEST(GroupedGemm, AllRowsInOneGroupAndAllEmpty) {
  REQUIRE_HOPPER();
  for (auto t : kBoth) {
    run_and_check(make_problem(8, 384, 256, {0, 0, 0, 0, 0, 0, 0, 301}, 21), t, "all rows in the last group");
    run_and_check(make_problem(8, 384, 256, {300, 0, 0, 0, 0, 0, 0, 0}, 22), t, "all rows in the first group");
    run_and_check(make_problem(5, 128, 128, {0, 0, 0, 0, 0}, 23), t, "all groups empty");
  }
}

// Every GEMM built over memory just freed after filling it with a pattern (all-ones bytes, then
// random bytes): a workspace or buffer that reuses those pages starts dirty, and the output must not
// depend on it. The cases: session 52's "all rows in the first group" (left unwritten twice under
// four concurrent test processes, when the uploads were not yet waited for) and a ragged one.
TEST(GroupedGemm, CorrectOverReusedDirtyMemory) {
  REQUIRE_HOPPER();
  const size_t dirty_bytes = size_t(64) << 20;
  std::vector<uint8_t> random_bytes(dirty_bytes);
  std::mt19937_64 rng(52);
  for (size_t i = 0; i < dirty_bytes; i += 8) {
    const uint64_t v = rng();
    std::memcpy(&random_bytes[i], &v, 8);
  }
  for (int pattern = 0; pattern < 2; ++pattern) {
    for (auto t : kBoth) {
      for (int c = 0; c < 2; ++c) {
        {
          DeviceBuffer<uint8_t> dirty(dirty_bytes);
          ASSERT_NE(dirty.ptr, nullptr) << "device allocation failed";
          if (pattern == 0)
            CUDA_OK(cudaMemset(dirty.ptr, 0xFF, dirty_bytes));
          else
            CUDA_OK(cudaMemcpy(dirty.ptr, random_bytes.data(), dirty_bytes, cudaMemcpyHostToDevice));
          wait_for_uploads();
        }  // freed here: the next allocations may reuse its pages
        const std::string label = std::string(pattern == 0 ? "over 0xFF bytes: " : "over random bytes: ") +
                                  (c == 0 ? "all rows in the first group" : "ragged");
        if (c == 0)
          run_and_check(make_problem(8, 384, 256, {300, 0, 0, 0, 0, 0, 0, 0}, 22), t, label);
        else
          run_and_check(make_problem(6, 256, 320, {5, 0, 137, 0, 1, 260}, 24), t, label);
      }
    }
  }
}

TEST(GroupedGemm, ModelShapes) {
  REQUIRE_HOPPER();
  struct Shape {
    int64_t N, K;
  };
  // deepseek FC1 (2I=4096, H=7168), deepseek FC2 (H=7168, I=2048), gpt-oss FC1 (2I=5760, H=2880)
  const Shape shapes[] = {{4096, 7168}, {7168, 2048}, {5760, 2880}};
  uint64_t seed = 100;
  for (const auto& sh : shapes) {
    for (auto t : kBoth) {
      // decode-like: a few rows over a few groups, one empty
      run_and_check(make_problem(3, sh.N, sh.K, {2, 0, 9}, ++seed), t, "model decode");
    }
    // prefill-like for the large tile: several M tiles and a ragged tail, one empty group
    for (auto t : kBoth) run_and_check(make_problem(3, sh.N, sh.K, {130, 0, 61}, ++seed), t, "model prefill");
  }
}

TEST(GroupedGemm, GraphReplayEqualsEagerAndReadsDeviceOffsets) {
  REQUIRE_HOPPER();
  const std::pair<GroupedGemmTactic, int> configs[] = {
      {GroupedGemmTactic::kSwapAB, 40}, {GroupedGemmTactic::kSwapAB, 150}, {GroupedGemmTactic::kLargeTile, 150}};
  for (auto [t, total] : configs) {
    Problem p = make_problem(7, 256, 576, random_rows(7, total, 0.3, 31), 32);
    cudaStream_t s;
    CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    DeviceProblem d(p);
    upload(p, d);
    GroupedGemmBf16 gemm(p.G, p.N, p.K, 0);
    const int64_t bound = p.offsets.back();
    // capture once
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    gemm.run(d.A.ptr, p.lda, d.W.ptr, d.D.ptr, p.ldd, d.offsets.ptr, bound, s, t);
    CUDA_OK(cudaStreamEndCapture(s, &graph));
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    // Two different row splits with the same total: replay must follow the device offsets.
    for (int split = 0; split < 2; ++split) {
      if (split == 1) {
        p.rows = random_rows(p.G, int(p.total()), 0.5, 33);
        for (int g = 0; g < p.G; ++g) p.offsets[g + 1] = p.offsets[g] + p.rows[g];
        CUDA_OK(cudaMemcpy(d.offsets.ptr, p.offsets.data(), d.offsets.bytes(), cudaMemcpyHostToDevice));
        wait_for_uploads();
      }
      poison(d, s);
      gemm.run(d.A.ptr, p.lda, d.W.ptr, d.D.ptr, p.ldd, d.offsets.ptr, bound, s, t);
      CUDA_OK(cudaStreamSynchronize(s));
      const auto eager = download(d);
      verify(p, eager, "eager split " + std::to_string(split) + " " + kernel_label(t, bound, p.G));
      poison(d, s);
      CUDA_OK(cudaGraphLaunch(exec, s));
      CUDA_OK(cudaStreamSynchronize(s));
      const auto replay = download(d);
      EXPECT_EQ(std::memcmp(eager.data(), replay.data(), eager.size() * sizeof(float)), 0)
          << kernel_label(t, bound, p.G) << ": graph replay differs from eager (split " << split << ")";
    }
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
    CUDA_OK(cudaStreamDestroy(s));
  }
}

TEST(GroupedGemm, RejectsBadArguments) {
  REQUIRE_HOPPER();
  EXPECT_THROW(GroupedGemmBf16(4, 128, 100, 0), megamoe::InvalidArgument);  // K not a multiple of 8
  GroupedGemmBf16 gemm(2, 128, 128, 0);
  DeviceBuffer<uint16_t> A(64 * 136), W(2 * 128 * 128);
  DeviceBuffer<float> D(64 * 128);
  DeviceBuffer<int32_t> off(3);
  EXPECT_THROW(gemm.run(A.ptr, 100, W.ptr, D.ptr, 128, off.ptr, 64, nullptr), megamoe::InvalidArgument);  // lda < K
  EXPECT_THROW(gemm.run(A.ptr, 132, W.ptr, D.ptr, 128, off.ptr, 64, nullptr), megamoe::InvalidArgument);  // lda % 8
  EXPECT_THROW(gemm.run(A.ptr, 128, W.ptr, D.ptr, 130, off.ptr, 64, nullptr), megamoe::InvalidArgument);  // ldd % 4
  EXPECT_THROW(gemm.run(A.ptr, 128, W.ptr, D.ptr, 128, nullptr, 64, nullptr), megamoe::InvalidArgument);
  // a zero bound launches nothing and needs nothing
  EXPECT_NO_THROW(gemm.run(nullptr, 128, nullptr, nullptr, 128, nullptr, 0, nullptr));
}

namespace {

using megamoe::sm90::GroupedGemmOutput;

// A route plan whose offsets equal p.offsets (p.row0 must be 0): token t (K = 1) goes to the group
// that owns row t, so the plan's stable order puts group g's rows at [offsets[g], offsets[g+1]).
struct PlanForProblem {
  DeviceBuffer<char> ws;
  DeviceBuffer<int32_t> ids;
  megamoe::routing::RoutePlanDevice plan;
  megamoe::routing::RouteDims dims;
  explicit PlanForProblem(const Problem& p)
      : ws(megamoe::routing::route_plan_workspace_bytes(megamoe::routing::bucket_capacity(std::max<int64_t>(p.total(), 1)),
                                                        1, p.G)),
        ids(size_t(std::max<int64_t>(p.total(), 1))) {
    const int64_t cap = megamoe::routing::bucket_capacity(std::max<int64_t>(p.total(), 1));
    plan = megamoe::routing::carve_route_plan(ws.ptr, cap, 1, p.G);
    megamoe::routing::init_route_plan(plan, nullptr);
    std::vector<int32_t> h;
    for (int g = 0; g < p.G; ++g)
      for (int r = 0; r < p.rows[g]; ++r) h.push_back(g);
    if (!h.empty()) EXPECT_EQ(cudaMemcpy(ids.ptr, h.data(), h.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
    wait_for_uploads();  // the plan's init and the ids, before runs on other streams
    dims.num_tokens = p.total();
    dims.top_k = 1;
    dims.num_experts = p.G;
    dims.first_local_expert = 0;
    dims.local_experts = p.G;
  }
  megamoe::TensorView ids_view() const {
    return megamoe::TensorView::contiguous(ids.ptr, megamoe::DType::kI32, {dims.num_tokens, 1},
                                           megamoe::Device::cuda(0));
  }
};

std::vector<uint16_t> download_u16(const DeviceBuffer<uint16_t>& b) {
  std::vector<uint16_t> h(b.count);
  EXPECT_EQ(cudaMemcpy(h.data(), b.ptr, b.bytes(), cudaMemcpyDeviceToHost), cudaSuccess);
  return h;
}

// For one problem and tactic: (1) the fused-setup path (route plan writes the argument arrays,
// GEMM launched alone with PDL) equals run() bitwise, eagerly and in a CUDA graph, and (2) the
// bf16-output kernel writes exactly bf16(fp32 D) on the groups' rows and nothing elsewhere, also
// through the fused path.
void check_fused_and_bf16(const Problem& p, GroupedGemmTactic tactic, int64_t bound, const std::string& label) {
  ASSERT_EQ(p.row0, 0);
  cudaStream_t s;
  CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  DeviceProblem d(p);
  upload(p, d);
  DeviceBuffer<uint16_t> D16(size_t(std::max<int64_t>(p.d_rows, 1)) * p.ldd);
  GroupedGemmBf16 gemm(p.G, p.N, p.K, 0);
  PlanForProblem pl(p);
  const std::string what = label + " [" + kernel_label(tactic, bound, p.G) + "]";

  poison(d, s);
  gemm.run(d.A.ptr, p.lda, d.W.ptr, d.D.ptr, p.ldd, d.offsets.ptr, bound, s, tactic);
  CUDA_OK(cudaStreamSynchronize(s));
  const auto ref = download(d);
  verify(p, ref, what);

  auto fused = [&](GroupedGemmOutput out, void* D) {
    megamoe::routing::PlanExtras ex;
    ex.gemm[0] = gemm.prepare_writes(d.A.ptr, p.lda, d.W.ptr, D, p.ldd, bound, tactic, out);
    megamoe::routing::build_route_plan_gpu(pl.ids_view(), pl.dims, pl.plan, ex, s);
    gemm.launch_prepared(bound, tactic, out, s, /*pdl=*/true);
  };
  // (1) fused fp32, eager
  poison(d, s);
  fused(GroupedGemmOutput::kF32, d.D.ptr);
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaStreamSynchronize(s));
  EXPECT_EQ(std::memcmp(ref.data(), download(d).data(), ref.size() * sizeof(float)), 0)
      << what << ": fused setup + PDL differs from run()";
  // ... and captured in a graph
  {
    cudaGraph_t graph;
    cudaGraphExec_t exec;
    CUDA_OK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    fused(GroupedGemmOutput::kF32, d.D.ptr);
    CUDA_OK(cudaStreamEndCapture(s, &graph));
    CUDA_OK(cudaGraphInstantiate(&exec, graph, 0));
    poison(d, s);
    CUDA_OK(cudaGraphLaunch(exec, s));
    CUDA_OK(cudaStreamSynchronize(s));
    EXPECT_EQ(std::memcmp(ref.data(), download(d).data(), ref.size() * sizeof(float)), 0)
        << what << ": fused setup + PDL in a graph differs from run()";
    CUDA_OK(cudaGraphExecDestroy(exec));
    CUDA_OK(cudaGraphDestroy(graph));
  }
  // (2) bf16 output = bf16(fp32 output); outside the groups' rows/columns untouched
  if (p.ldd % 8 == 0) {
    for (int path = 0; path < 2; ++path) {
      CUDA_OK(cudaMemsetAsync(D16.ptr, 0xFF, D16.bytes(), s));
      if (path == 0)
        gemm.run_bf16_out(d.A.ptr, p.lda, d.W.ptr, D16.ptr, p.ldd, d.offsets.ptr, bound, s);
      else
        fused(GroupedGemmOutput::kBF16, D16.ptr);
      CUDA_OK(cudaStreamSynchronize(s));
      const auto got = download_u16(D16);
      int64_t mismatches = 0, touched = 0;
      for (int64_t r = 0; r < p.d_rows; ++r) {
        const bool owned = r >= p.offsets.front() && r < p.offsets.back();
        for (int64_t c = 0; c < p.ldd; ++c) {
          const uint16_t g = got[size_t(r * p.ldd + c)];
          if (owned && c < p.N)
            mismatches += g != to_bf16(ref[size_t(r * p.ldd + c)]) ? 1 : 0;
          else
            touched += g != 0xFFFF ? 1 : 0;
        }
      }
      EXPECT_EQ(mismatches, 0) << what << (path ? " fused" : " run_bf16_out") << ": bf16 D != bf16(fp32 D)";
      EXPECT_EQ(touched, 0) << what << (path ? " fused" : " run_bf16_out") << ": wrote outside the groups";
    }
  }
  std::printf("  %-60s fused/PDL and bf16-out paths checked\n", what.c_str());
  CUDA_OK(cudaStreamDestroy(s));
}

}  // namespace

TEST(GroupedGemm, FusedSetupPdlAndBf16OutputEqualRun) {
  REQUIRE_HOPPER();
  // small rows: swap-AB 128x32 (bound <= 8 per group), then the same with the large tile
  const Problem small = make_problem(6, 320, 448, {1, 0, 3, 0, 2, 5}, 41, 0, /*ldd_pad=*/8, 0);
  check_fused_and_bf16(small, GroupedGemmTactic::kSwapAB, small.total(), "small");
  check_fused_and_bf16(small, GroupedGemmTactic::kLargeTile, small.total(), "small");
  // ragged rows: swap-AB 128x64 and the large tile (several M tiles, empty groups, N/K tails)
  const Problem ragged = make_problem(6, 192, 320, {5, 0, 37, 0, 1, 130}, 42, 8, 0, 0);
  check_fused_and_bf16(ragged, GroupedGemmTactic::kSwapAB, ragged.total(), "ragged");
  check_fused_and_bf16(ragged, GroupedGemmTactic::kLargeTile, ragged.total(), "ragged");
  // a model shape (deepseek FC2: N 7168, K 2048) with a ragged tail tile
  const Problem model = make_problem(3, 7168, 2048, {130, 0, 61}, 43);
  check_fused_and_bf16(model, GroupedGemmTactic::kLargeTile, model.total(), "deepseek FC2");
}

TEST(GroupedGemm, Bf16OutputRejectsBadArguments) {
  REQUIRE_HOPPER();
  GroupedGemmBf16 gemm(2, 128, 128, 0);
  DeviceBuffer<uint16_t> A(64 * 136), W(2 * 128 * 128), D(64 * 136);
  DeviceBuffer<int32_t> off(3);
  // ldd % 8 for bf16
  EXPECT_THROW(gemm.run_bf16_out(A.ptr, 128, W.ptr, D.ptr, 132, off.ptr, 64, nullptr), megamoe::InvalidArgument);
  EXPECT_THROW(gemm.prepare_writes(A.ptr, 128, W.ptr, D.ptr, 132, 64, GroupedGemmTactic::kLargeTile,
                                   GroupedGemmOutput::kBF16),
               megamoe::InvalidArgument);
  // a zero bound describes nothing and launches nothing
  EXPECT_EQ(gemm.prepare_writes(nullptr, 128, nullptr, nullptr, 128, 0, GroupedGemmTactic::kSwapAB,
                                GroupedGemmOutput::kF32).shapes,
            nullptr);
  EXPECT_NO_THROW(gemm.launch_prepared(0, GroupedGemmTactic::kSwapAB, GroupedGemmOutput::kF32, nullptr, true));
}
