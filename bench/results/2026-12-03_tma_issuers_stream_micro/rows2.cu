// Micro: steady-state HBM read rate of a weight stream, by how many contiguous bytes of each row
// one 16 KiB step reads. A [rows, rowbytes] byte matrix; a tile = R rows; a step = R rows x
// (16384 / R) bytes, loaded by TMA as boxes of (128 B x min(R,64) rows, 128B swizzle) or, for
// mode 1, by one 1-D bulk copy of 16 KiB from a tile-contiguous copy (the ceiling: sequential).
// mode 2: cp.async, 128 threads, one CTA per tile, full K, S stages (the Triton-like stream).
// One producer thread per CTA keeps S steps in flight; items = tiles, full K each, grid-stride.
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
__device__ __forceinline__ bool try_wait(uint32_t bar, uint32_t ph) { uint32_t d; asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n" : "=r"(d) : "r"(bar), "r"(ph) : "memory"); return d; }
__device__ __forceinline__ void tma2d(uint32_t dst, const void* m, uint32_t bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(dst), "l"(m), "r"(bar), "r"(c0), "r"(c1) : "memory"); }
__device__ __forceinline__ void bulk1d(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory"); }

struct Args { const uint8_t* w; long rows, rowbytes; int R, S, mode; unsigned* sink; int prod, split_tiles, box128; };

__global__ void __launch_bounds__(128) tma_stream(const __grid_constant__ CUtensorMap tm, const __grid_constant__ CUtensorMap tm128, Args a) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bars[16];
  const int w = threadIdx.x / 32;
  if ((threadIdx.x & 31) != 0 || w >= a.prod) return;
  const uint32_t ring = (uint32_t(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;
  const uint32_t bar0 = uint32_t(__cvta_generic_to_shared(bars));
  const int S = a.S, NP = a.prod;
  // split_tiles: producer w owns slots [w*S/NP, (w+1)*S/NP) and its own tiles; else all producers share the CTA's
  // step sequence, producer w issuing the steps g with g % NP == w (slots g % S, S % NP == 0).
  const int SL = a.split_tiles ? S / NP : S, slot0 = a.split_tiles ? w * SL : 0;
  for (int i = 0; i < SL; ++i) mbar_init(bar0 + 8 * (slot0 + i), 1);
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  const long tiles = a.rows / a.R;
  const int steps = int(a.rowbytes * a.R / 16384);
  const int kpb = 16384 / a.R;
  const int rb = a.R < 64 ? a.R : 64;
  const long streams = a.split_tiles ? long(gridDim.x) * NP : gridDim.x, sid = a.split_tiles ? long(blockIdx.x) * NP + w : blockIdx.x;
  const long my_tiles = (tiles - sid + streams - 1) / streams;
  const long total = my_tiles * steps;
  auto issue = [&](long g) {
    const int slot = slot0 + int(g % SL);
    const long tile = sid + (g / steps) * streams; const int st = int(g % steps);
    const uint32_t dst = ring + slot * 16384, bar = bar0 + 8 * slot;
    expect_tx(bar, 16384);
    if (a.mode == 1) { bulk1d(dst, a.w + (tile * steps + st) * 16384L, 16384, bar); return; }
    if (a.box128 && a.R == 128) { tma2d(dst, &tm128, bar, st * kpb, int(tile * a.R)); return; }
    int b = 0;
    for (int kb = 0; kb < kpb / 128; ++kb)
      for (int r = 0; r < a.R; r += rb, ++b)
        tma2d(dst + b * rb * 128, &tm, bar, st * kpb + kb * 128, int(tile * a.R + r));
  };
  const int me = a.split_tiles ? 0 : w, stride = a.split_tiles ? 1 : NP;
  for (long g = me; g < SL && g < total; g += stride) issue(g);
  uint32_t x = 0;
  for (long g = me; g < total; g += stride) {
    const int slot = slot0 + int(g % SL); const uint32_t ph = uint32_t((g / SL) & 1);
    while (!try_wait(bar0 + 8 * slot, ph)) {}
    x ^= *reinterpret_cast<const uint32_t*>(smem + (ring - uint32_t(__cvta_generic_to_shared(smem))) + slot * 16384 + (g & 63) * 4);
    if (g + SL < total) issue(g + SL);
  }
  if (x == 0x12345u) a.sink[0] = x;
}

// Triton-like: 128 threads, one CTA per tile (R rows), full K, S stages of R x (16384/R) B by cp.async.
template <int S>
__global__ void __launch_bounds__(128) cpa_stream(Args a) {
  extern __shared__ __align__(1024) uint8_t smem[];
  const int tid = threadIdx.x;
  const long tile = blockIdx.x;
  const int steps = int(a.rowbytes * a.R / 16384), kpb = 16384 / a.R, cpr = kpb / 16;  // 16-B chunks per row per step
  const uint32_t base = uint32_t(__cvta_generic_to_shared(smem));
  auto issue = [&](int st) {
    const uint32_t dst = base + (st % S) * 16384;
    for (int c = tid; c < 1024; c += 128) {
      const int r = c / cpr, ch = c % cpr;
      const uint8_t* src = a.w + (tile * a.R + r) * a.rowbytes + long(st) * kpb + ch * 16;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst + c * 16), "l"(src) : "memory");
    }
    asm volatile("cp.async.commit_group;\n" ::: "memory");
  };
  for (int s = 0; s < S - 1 && s < steps; ++s) issue(s);
  uint32_t x = 0;
  for (int st = 0; st < steps; ++st) {
    if (st + S - 1 < steps) issue(st + S - 1); else asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_group %0;\n" ::"n"(S - 1) : "memory");
    __syncthreads();
    x ^= *reinterpret_cast<const uint32_t*>(smem + (st % S) * 16384 + tid * 4);
    __syncthreads();
  }
  if (x == 0x12345u) a.sink[0] = x;
}

int main() {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  void* p = nullptr; cudaDriverEntryPointQueryResult q{};
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
  auto enc = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  const size_t region = size_t(832) << 20; const int nreg = 3;
  uint8_t* buf; CK(cudaMalloc(&buf, region * nreg)); CK(cudaMemset(buf, 0x3c, region * nreg));
  unsigned* sink; CK(cudaMalloc(&sink, 4));
  CK(cudaFuncSetAttribute(tma_stream, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  CK(cudaFuncSetAttribute(cpa_stream<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, 3 * 16384));
  CK(cudaFuncSetAttribute(cpa_stream<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, 4 * 16384));
  struct Shape { const char* name; long rows, rowbytes; };
  std::vector<Shape> shapes = {{"deepseek_fc1_bf16 32768x14336B", 32768, 14336}, {"deepseek_fc1_fp8 32768x7168B", 32768, 7168},
                               {"qwen3_fc1_bf16 196608x4096B", 196608, 4096}, {"mixtral_fc2_bf16 32768x28672B", 32768, 28672},
                               {"qwen3_fc1_fp8 196608x2048B", 196608, 2048}};
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  for (auto& sh : shapes) {
    const size_t bytes = size_t(sh.rows) * sh.rowbytes;
    struct Cfg { int mode, R, S, cps, prod, split, box128; };
    std::vector<Cfg> cfgs = {{0, 128, 5, 2, 1, 0, 0}, {0, 128, 5, 2, 1, 0, 1}, {0, 128, 10, 1, 1, 0, 0}, {0, 128, 10, 1, 2, 0, 0}, {0, 128, 10, 1, 2, 1, 0},
                             {0, 128, 12, 1, 4, 1, 0}, {0, 128, 12, 1, 3, 1, 0}, {0, 128, 6, 1, 1, 0, 0}, {0, 128, 6, 1, 2, 1, 0}, {0, 128, 6, 2, 2, 1, 0},
                             {0, 128, 4, 2, 2, 1, 0}, {0, 64, 10, 1, 2, 1, 0}, {0, 64, 6, 2, 2, 1, 0},
                             {1, 128, 10, 1, 2, 1, 0}, {2, 16, 4, 0, 1, 0, 0}, {2, 32, 3, 0, 1, 0, 0}};
    for (auto c : cfgs) {
      if (sh.rowbytes * c.R % 16384 != 0 || 16384 / c.R > sh.rowbytes) continue;
      std::vector<float> ms;
      for (int rep = 0; rep < 4 * nreg; ++rep) {
        const uint8_t* w = buf + size_t(rep % nreg) * region;
        CUtensorMap tm; cuuint64_t dims[2] = {cuuint64_t(sh.rowbytes), cuuint64_t(sh.rows)}; cuuint64_t str[1] = {cuuint64_t(sh.rowbytes)};
        cuuint32_t box[2] = {128, cuuint32_t(c.R < 64 ? c.R : 64)}, es[2] = {1, 1};
        if (enc(&tm, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, (void*)w, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { printf("enc fail\n"); return 1; }
        CUtensorMap tm128; cuuint32_t box2[2] = {128, 128};
        if (enc(&tm128, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, (void*)w, dims, str, box2, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { printf("enc2 fail\n"); return 1; }
        Args a{w, sh.rows, sh.rowbytes, c.R, c.S, c.mode, sink, c.prod, c.split, c.box128};
        CK(cudaEventRecord(e0));
        if (c.mode == 2) {
          const long tiles = sh.rows / c.R;
          if (c.S == 3) cpa_stream<3><<<tiles, 128, 3 * 16384>>>(a); else cpa_stream<4><<<tiles, 128, 4 * 16384>>>(a);
        } else {
          tma_stream<<<c.cps * sms, 32 * c.prod, c.S * 16384 + 1024>>>(tm, tm128, a);
        }
        CK(cudaEventRecord(e1)); CK(cudaGetLastError()); CK(cudaEventSynchronize(e1));
        float t; CK(cudaEventElapsedTime(&t, e0, e1));
        if (rep >= nreg) ms.push_back(t);
      }
      std::sort(ms.begin(), ms.end());
      const double med = ms[ms.size() / 2];
      printf("%-32s %s R=%3d (%5d B/row/step) S=%2d cta/sm=%d prod=%d split=%d box128=%d: %.3f ms -> %.0f GB/s (best %.0f)\n", sh.name,
             c.mode == 0 ? "tma2d " : c.mode == 1 ? "bulk1d" : "cpasyn", c.R, 16384 / c.R, c.S, c.cps, c.prod, c.split, c.box128, med, bytes / (med * 1e-3) / 1e9, bytes / (ms[0] * 1e-3) / 1e9);
    }
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
