// Standalone timing probe of the sm90 grouped bf16 GEMM (src/kernels/sm90/gemm/grouped_gemm_bf16.h).
// Not a test. Method (docs/DESIGN.md section 5): random data (never zeros), weights far larger than L2,
// one run() captured into a CUDA graph, warm-up replays, then each replay timed with CUDA events,
// median reported. Also measures the device-copy ceiling in the same run.
//
// Build (no CMake target; link the grouped-GEMM objects and src/core/errors.cpp), e.g.:
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -Iinclude -Isrc bench/gemm_probe.cu \
//        <grouped_gemm_bf16*.o> <errors.o> -o gemm_probe
// With -DMEGAMOE_PROBE_VARIANTS it also times the experimental configurations of
// bench/gemm_probe_variants.cu (link those objects too).
// Usage: gemm_probe [reps=20]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "kernels/sm90/gemm/grouped_gemm_bf16.h"

#ifdef MEGAMOE_PROBE_VARIANTS
namespace megamoe::sm90::grouped_gemm_detail {
const TacticOps& probe_variant_1();
const TacticOps& probe_variant_2();
}  // namespace megamoe::sm90::grouped_gemm_detail
#endif

using megamoe::sm90::choose_tactic;
using megamoe::sm90::GroupedGemmBf16;
using megamoe::sm90::GroupedGemmTactic;
using megamoe::sm90::tactic_name;

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));   \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

__global__ void fill_bf16(uint16_t* p, size_t n, uint64_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    float f = float(int32_t(z >> 40) - (1 << 23)) * (1.0f / float(1 << 23));  // [-1, 1)
    uint32_t u = __float_as_uint(f);
    u += 0x7FFFu + ((u >> 16) & 1u);
    p[i] = uint16_t(u >> 16);
  }
}

static void fill(uint16_t* p, size_t n, uint64_t seed) {
  fill_bf16<<<132 * 8, 256>>>(p, n, seed);
  CK(cudaGetLastError());
}

static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// rows per expert for T tokens each routed to k distinct uniformly random experts
static std::vector<int> routed_rows(int G, int T, int k, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> rows(G, 0);
  std::vector<int> perm(G);
  for (int t = 0; t < T; ++t) {
    for (int i = 0; i < G; ++i) perm[i] = i;
    for (int j = 0; j < k; ++j) {
      int r = j + int(rng() % uint64_t(G - j));
      std::swap(perm[j], perm[r]);
      rows[perm[j]]++;
    }
  }
  return rows;
}

struct Model {
  const char* name;
  int G;
  int64_t N, K;
};

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 20;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device: %s, %d SMs, L2 %d MB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));

  {  // copy ceiling: 4 GiB device-to-device, bytes read + written
    const size_t bytes = size_t(4) << 30;
    void *a, *b;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&b, bytes));
    fill(static_cast<uint16_t*>(a), bytes / 2, 1);
    std::vector<float> t;
    for (int i = 0; i < 6; ++i) {
      CK(cudaEventRecord(e0, s));
      CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, s));
      CK(cudaEventRecord(e1, s));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      if (i) t.push_back(ms);
    }
    std::printf("copy ceiling: %.2f TB/s (read+write, median of %zu)\n", 2.0 * bytes / (median(t) * 1e-3) / 1e12,
                t.size());
    CK(cudaFree(a));
    CK(cudaFree(b));
  }

  struct Case {
    std::string name;
    std::vector<int> rows;
  };
  const Model models[] = {{"deepseek FC1", 256, 4096, 7168}, {"gpt-oss FC1", 128, 5760, 2880}};
  std::printf("\n%-14s %-30s %-24s %6s %10s %10s %10s %s\n", "model", "case", "kernel", "groups", "ms(med)",
              "TFLOP/s", "W GB/s", "");
  for (const Model& m : models) {
    std::vector<Case> cases;
    if (m.G == 256) {
      std::vector<int> one(m.G, 0);
      for (int g : std::vector<int>{3, 17, 40, 77, 128, 150, 201, 250}) one[g] = 1;
      cases.push_back({"T=1 top-8 (8 rows)", one});
      cases.push_back({"T=64 top-8 (512 rows)", routed_rows(m.G, 64, 8, 2)});
      cases.push_back({"T=512 top-8 (4096 rows)", routed_rows(m.G, 512, 8, 3)});
      cases.push_back({"T=1024 top-8 (8192 rows)", routed_rows(m.G, 1024, 8, 7)});
      cases.push_back({"T=2048 top-8 (16384 rows)", routed_rows(m.G, 2048, 8, 8)});
      cases.push_back({"T=8192 top-8 (65536 rows)", routed_rows(m.G, 8192, 8, 4)});
      cases.push_back({"65536 rows uniform 256/group", std::vector<int>(m.G, 256)});
    } else {
      cases.push_back({"T=1 top-4 (4 rows)", routed_rows(m.G, 1, 4, 5)});
      cases.push_back({"T=512 top-4 (2048 rows)", routed_rows(m.G, 512, 4, 9)});
      cases.push_back({"T=1024 top-4 (4096 rows)", routed_rows(m.G, 1024, 4, 10)});
      cases.push_back({"T=2048 top-4 (8192 rows)", routed_rows(m.G, 2048, 4, 6)});
      cases.push_back({"T=8192 top-4 (32768 rows)", routed_rows(m.G, 8192, 4, 12)});
    }
    int64_t max_rows = 0;
    for (auto& c : cases) {
      int64_t r = 0;
      for (int x : c.rows) r += x;
      max_rows = std::max(max_rows, r);
    }
    uint16_t *W, *A;
    float* D;
    int32_t* offsets;
    CK(cudaMalloc(&W, size_t(m.G) * m.N * m.K * 2));
    CK(cudaMalloc(&A, size_t(max_rows) * m.K * 2));
    CK(cudaMalloc(&D, size_t(max_rows) * m.N * 4));
    CK(cudaMalloc(&offsets, (m.G + 1) * 4));
    fill(W, size_t(m.G) * m.N * m.K, 11);
    fill(A, size_t(max_rows) * m.K, 12);
    CK(cudaDeviceSynchronize());
    GroupedGemmBf16 gemm(m.G, m.N, m.K, 0);
    namespace gd = megamoe::sm90::grouped_gemm_detail;
    struct Runner {
      std::string name;
      int tactic;  // library tactic index, or -1 for a probe variant
      const gd::TacticOps* ops;
      void* state;
      void* ws;
    };
    // "auto": the library's default run() (choose_tactic + the kernel rule inside the tactic);
    // then each of the library's kernels forced, through the same entry points run() uses.
    std::vector<Runner> runners = {{"auto (library run)", 0, nullptr, nullptr, nullptr}};
    {
      std::vector<std::pair<const char*, const gd::TacticOps*>> vs = {{"swap_ab_128x32", &gd::swapab32_ops()},
                                                                      {"swap_ab_128x64", &gd::swapab64_ops()},
                                                                      {"large_tile_128x256", &gd::large_ops()}};
#ifdef MEGAMOE_PROBE_VARIANTS
      vs.push_back({"v:large_128x256_c1x2", &gd::probe_variant_1()});
      vs.push_back({"v:pingpong_128x128_c1x2", &gd::probe_variant_2()});
#endif
      for (auto& v : vs) {
        void* ws;
        CK(cudaMalloc(&ws, v.second->workspace_bytes(m.G, prop.multiProcessorCount)));
        runners.push_back({v.first, -1, v.second, v.second->create(m.G, m.N, m.K, 0, prop.multiProcessorCount, ws), ws});
      }
    }
    for (auto& c : cases) {
      std::vector<int32_t> off(m.G + 1, 0);
      int touched = 0;
      for (int g = 0; g < m.G; ++g) {
        off[g + 1] = off[g] + c.rows[g];
        touched += c.rows[g] > 0;
      }
      const int64_t rows = off[m.G];
      CK(cudaMemcpy(offsets, off.data(), off.size() * 4, cudaMemcpyHostToDevice));
      const GroupedGemmTactic chosen = choose_tactic(rows, m.G);
      for (const Runner& rn : runners) {
        cudaGraph_t graph;
        cudaGraphExec_t exec;
        CK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
        if (rn.tactic >= 0)
          gemm.run(A, m.K, W, D, m.N, offsets, rows, s);
        else
          rn.ops->run(rn.state, gd::RunArgs{A, m.K, W, D, m.N, offsets}, s);
        CK(cudaStreamEndCapture(s, &graph));
        CK(cudaGraphInstantiate(&exec, graph, 0));
        for (int i = 0; i < 3; ++i) CK(cudaGraphLaunch(exec, s));
        std::vector<float> times;
        for (int i = 0; i < reps; ++i) {
          CK(cudaEventRecord(e0, s));
          CK(cudaGraphLaunch(exec, s));
          CK(cudaEventRecord(e1, s));
          CK(cudaEventSynchronize(e1));
          float ms;
          CK(cudaEventElapsedTime(&ms, e0, e1));
          times.push_back(ms);
        }
        CK(cudaGraphExecDestroy(exec));
        CK(cudaGraphDestroy(graph));
        const double ms = median(times);
        const double flops = 2.0 * double(rows) * double(m.N) * double(m.K);
        const double wbytes = double(touched) * double(m.N) * double(m.K) * 2.0;
        std::printf("%-14s %-30s %-24s %6d %10.4f %10.1f %10.1f %s\n", m.name, c.name.c_str(), rn.name.c_str(),
                    touched, ms, flops / (ms * 1e-3) / 1e12, wbytes / (ms * 1e-3) / 1e9,
                    rn.tactic >= 0 ? tactic_name(chosen) : "");
      }
    }
    for (auto& rn : runners)
      if (rn.ops) {
        rn.ops->destroy(rn.state);
        CK(cudaFree(rn.ws));
      }
    CK(cudaFree(W));
    CK(cudaFree(A));
    CK(cudaFree(D));
    CK(cudaFree(offsets));
  }
  CK(cudaDeviceSynchronize());
  std::printf("done\n");
  return 0;
}
