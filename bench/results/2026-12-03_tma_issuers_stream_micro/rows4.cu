// Micro: does gating the weight issue on a per-step CTA barrier (the Mega kernel's loop: every
// thread waits for the stage, consumes, __syncthreads, thread 0 refills the stage) cost stream rate
// against a dedicated producer warp (waits on per-stage "empty" barriers the consumer warps arrive
// on)? 256 threads, 2 CTAs per SM, S = 5 stages of 16 KiB (two 64-row TMA boxes), whole-K items
// grid-stride; per step each consumer thread reads 16 B and runs `work` dependent FMAs (a stand-in
// for the MMAs). Time: events around one launch, median of 9 over 3 rotating regions.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t c) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(c) : "memory"); }
__device__ __forceinline__ void expect_tx(uint32_t bar, uint32_t b) { asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(b) : "memory"); }
__device__ __forceinline__ void arrive(uint32_t bar) { asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory"); }
__device__ __forceinline__ bool try_wait(uint32_t bar, uint32_t ph) { uint32_t d; asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n" : "=r"(d) : "r"(bar), "r"(ph) : "memory"); return d; }
__device__ __forceinline__ void tma2d(uint32_t dst, const void* m, uint32_t bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(dst), "l"(m), "r"(bar), "r"(c0), "r"(c1) : "memory"); }
struct Args { long rows, rowbytes; int S, mode, work; unsigned* sink; };
constexpr int R = 128;
__global__ void __launch_bounds__(256, 2) k(const __grid_constant__ CUtensorMap tm, Args a) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t full[8], empty[8];
  const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
  const uint32_t ring = (uint32_t(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;
  const uint8_t* gring = smem + (ring - uint32_t(__cvta_generic_to_shared(smem)));
  const uint32_t f0 = uint32_t(__cvta_generic_to_shared(full)), e0 = uint32_t(__cvta_generic_to_shared(empty));
  const int S = a.S;
  if (tid == 0) { for (int i = 0; i < S; ++i) { mbar_init(f0 + 8 * i, 1); mbar_init(e0 + 8 * i, 7); } asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
  __syncthreads();
  const long tiles = a.rows / R; const int steps = int(a.rowbytes / 128);
  const long my = (tiles - blockIdx.x + gridDim.x - 1) / gridDim.x, total = my * steps;
  auto issue = [&](long g) {
    const int slot = int(g % S); const long tile = blockIdx.x + (g / steps) * gridDim.x; const int st = int(g % steps);
    expect_tx(f0 + 8 * slot, 16384);
    tma2d(ring + slot * 16384, &tm, f0 + 8 * slot, st * 128, int(tile * R));
    tma2d(ring + slot * 16384 + 8192, &tm, f0 + 8 * slot, st * 128, int(tile * R + 64));
  };
  float acc = float(tid);
  uint32_t x = 0;
  if (a.mode == 0) {  // barrier-gated: all threads consume, __syncthreads, thread 0 refills
    if (tid == 0) for (long g = 0; g < S && g < total; ++g) issue(g);
    for (long g = 0; g < total; ++g) {
      const int slot = int(g % S); const uint32_t ph = uint32_t((g / S) & 1);
      while (!try_wait(f0 + 8 * slot, ph)) {}
      x ^= *reinterpret_cast<const uint32_t*>(gring + slot * 16384 + tid * 16);
      for (int i = 0; i < a.work; ++i) acc = fmaf(acc, 1.0001f, 0.5f);
      __syncthreads();
      if (tid == 0 && g + S < total) issue(g + S);
    }
  } else {  // dedicated producer warp 0 (lane 0); warps 1-7 consume and arrive on empty
    if (warp == 0) {
      if (lane == 0) for (long g = 0; g < total; ++g) {
        const int slot = int(g % S); const long use = g / S;
        if (use > 0) while (!try_wait(e0 + 8 * slot, uint32_t((use - 1) & 1))) {}
        issue(g);
      }
    } else {
      for (long g = 0; g < total; ++g) {
        const int slot = int(g % S); const uint32_t ph = uint32_t((g / S) & 1);
        while (!try_wait(f0 + 8 * slot, ph)) {}
        x ^= *reinterpret_cast<const uint32_t*>(gring + slot * 16384 + tid * 16);
        for (int i = 0; i < a.work; ++i) acc = fmaf(acc, 1.0001f, 0.5f);
        __syncwarp();
        if (lane == 0) arrive(e0 + 8 * slot);
      }
    }
  }
  if (x == 0x12345u || acc == 1.2345f) a.sink[0] = x;
}
int main() {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  void* p = nullptr; cudaDriverEntryPointQueryResult q{};
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
  auto enc = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  const size_t region = size_t(832) << 20; const int nreg = 3;
  uint8_t* buf; CK(cudaMalloc(&buf, region * nreg)); CK(cudaMemset(buf, 0x3c, region * nreg));
  unsigned* sink; CK(cudaMalloc(&sink, 4));
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
  struct Shape { const char* name; long rows, rowbytes; };
  std::vector<Shape> shapes = {{"deepseek_fc1_bf16", 32768, 14336}, {"qwen3_fc1_bf16", 196608, 4096}, {"deepseek_fc1_fp8", 32768, 7168}};
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (auto& sh : shapes) for (int S : {5}) for (int work : {0, 64, 256}) for (int mode : {0, 1}) {
    std::vector<float> ms;
    for (int rep = 0; rep < 4 * nreg; ++rep) {
      const uint8_t* w = buf + size_t(rep % nreg) * region;
      CUtensorMap tm; cuuint64_t dims[2] = {cuuint64_t(sh.rowbytes), cuuint64_t(sh.rows)}; cuuint64_t str[1] = {cuuint64_t(sh.rowbytes)};
      cuuint32_t box[2] = {128, 64}, es[2] = {1, 1};
      if (enc(&tm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, (void*)w, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
              CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { printf("enc fail\n"); return 1; }
      Args a{sh.rows, sh.rowbytes, S, mode, work, sink};
      CK(cudaEventRecord(e0)); k<<<2 * sms, 256, S * 16384 + 1024>>>(tm, a); CK(cudaEventRecord(e1));
      CK(cudaGetLastError()); CK(cudaEventSynchronize(e1));
      float t; CK(cudaEventElapsedTime(&t, e0, e1)); if (rep >= nreg) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end()); const double med = ms[ms.size() / 2];
    printf("%-18s S=%d work=%3d %s: %.3f ms -> %.0f GB/s (best %.0f)\n", sh.name, S, work, mode == 0 ? "barrier-gated  " : "producer warp  ",
           med, sh.rows * sh.rowbytes / (med * 1e-3) / 1e9, sh.rows * sh.rowbytes / (ms[0] * 1e-3) / 1e9);
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
