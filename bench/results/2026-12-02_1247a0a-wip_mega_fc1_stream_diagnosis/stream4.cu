// Micro: a Mega-kernel-like weight stream. 128-row tiles of a [rows, K] bf16 matrix, a tile's K
// cut into splits of `spl` 64-wide steps; items (tile, split) handed out by an atomic counter
// (claimed one ahead like the Mega loop) or grid-stride; a ring of `stages` 16 KiB stages,
// P = stages - 1 steps in flight, continuous across items. Per step: wait, __syncthreads, issue
// step j + P, "consume" (xor 16 B per thread). Loads by TMA (two 64x64 boxes, 128B swizzle,
// L2 promotion variable) or cp.async (every thread 4 x 16 B). Optional split epilogue per item:
// stcg 4 KiB partial, threadfence, syncthreads, atomicAdd, threadfence, syncthreads.
// Kernel span = max(exit) - min(entry) by %globaltimer.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1);} } while (0)

__device__ __forceinline__ unsigned long long gtime() { unsigned long long t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t c) { asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(c) : "memory"); }
__device__ __forceinline__ void expect_tx(uint32_t bar, uint32_t b) { asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(b) : "memory"); }
__device__ __forceinline__ bool try_wait(uint32_t bar, uint32_t ph) { uint32_t d; asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n" : "=r"(d) : "r"(bar), "r"(ph) : "memory"); return d; }
__device__ __forceinline__ void tma2d(uint32_t dst, const void* m, uint32_t bar, int c0, int c1) {
  asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(dst), "l"(m), "r"(bar), "r"(c0), "r"(c1) : "memory"); }
__device__ __forceinline__ void cpa16(uint32_t dst, const void* src) { asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory"); }
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int N> __device__ __forceinline__ void waitg() { asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory"); }

struct Args { const __nv_bfloat16* w; const __nv_bfloat16* xact; int rows, K, spl, stages, tma, epi, dyn, map4, acts; unsigned* counter; float* part; int* arrive; unsigned long long* span; unsigned* sink; };

__global__ void __launch_bounds__(256, 2) stream(const __grid_constant__ CUtensorMap tm, Args a) {
  extern __shared__ __align__(1024) uint8_t smem[];
  __shared__ __align__(8) uint64_t bars[12];
  __shared__ int s_item[2];
  const int tid = threadIdx.x;
  if (tid == 0) atomicMin(&a.span[0], gtime());
  const uint32_t ring = (uint32_t(__cvta_generic_to_shared(smem)) + 1023u) & ~1023u;
  const uint32_t bar0 = uint32_t(__cvta_generic_to_shared(bars));
  const int S = a.stages, P = S - 1;
  if (tid == 0) { for (int i = 0; i < S; ++i) mbar_init(bar0 + 8 * i, 1); asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
  const int nk = a.K / 64, nsplit = (nk + a.spl - 1) / a.spl, tiles = a.rows / 128, items = tiles * nsplit;
  if (tid == 0) s_item[0] = a.dyn ? int(atomicAdd(a.counter, 1u)) : blockIdx.x;
  __syncthreads();
  int cur = s_item[0];
  int pend = cur, pstep = 0, islot = 0, inflight = 0;  // next step to issue: (pend, pstep); -2: after `next`
  int cslot = 0; uint32_t cph = 0;
  uint32_t x = 0;
  auto item_steps = [&](int it) { const int s = it % nsplit; return min(a.spl, nk - s * a.spl); };
  auto issue = [&](int it, int st) {
    const uint32_t dst = ring + islot * 17408, bar = bar0 + 8 * islot;
    const int tile = it / nsplit, s = it % nsplit, k = (s * a.spl + st) * 64;
    if (a.tma) {
      if (tid == 0) { expect_tx(bar, 16384);
        if (a.map4) { // groups of 16 rows: 8 gate + 8 up; half h = gate/up rows of 8 groups
          for (int h = 0; h < 2; ++h) asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];"
            ::"r"(dst + h * 8192), "l"(&tm), "r"(bar), "r"(k), "r"(0), "r"(h), "r"(tile * 8) : "memory");
        } else { tma2d(dst, &tm, bar, k, tile * 128); tma2d(dst + 8192, &tm, bar, k, tile * 128 + 64); } }
      if (a.acts && tid < 64) { const int r = tid >> 3, ch = tid & 7;  // 8 activation rows, one real
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst + 16384 + r * 128 + ((ch ^ r) << 4)), "l"(a.xact + k + ch * 8), "r"(r == 0 ? 16 : 0) : "memory"); }
    } else {
      for (int q = 0; q < 4; ++q) { const int c = q * 256 + tid, r = c >> 3, ch = c & 7;
        cpa16(dst + r * 128 + ((ch ^ (r & 7)) << 4), a.w + size_t(tile * 128 + r) * a.K + k + ch * 8); }
    }
    commit();
    if (++islot == S) islot = 0;
  };
  while (cur < items) {
    if (tid == 0) s_item[1] = a.dyn ? int(atomicAdd(a.counter, 1u)) : cur + gridDim.x;
    __syncthreads();
    const int next = s_item[1];
    if (pend == -2) { pend = next; pstep = 0; }
    const int n = item_steps(cur);
    auto top_up = [&]() {
      while (inflight < P && pend >= 0 && pend < items) {
        issue(pend, pstep); ++inflight;
        if (++pstep == item_steps(pend)) { pend = pend == cur ? next : -2; pstep = 0; }
      }
    };
    top_up();
    for (int j = 0; j < n; ++j) {
      if (a.tma && !a.acts) { while (!try_wait(bar0 + 8 * cslot, cph)) {} }
      else switch (inflight - 1) { case 0: waitg<0>(); break; case 1: waitg<1>(); break; case 2: waitg<2>(); break; case 3: waitg<3>(); break;
        case 4: waitg<4>(); break; case 5: waitg<5>(); break; default: waitg<6>(); break; }
      if (a.tma && a.acts) { while (!try_wait(bar0 + 8 * cslot, cph)) {} }
      __syncthreads();
      const uint4 v = *reinterpret_cast<const uint4*>(smem + (ring - uint32_t(__cvta_generic_to_shared(smem))) + cslot * 17408 + tid * 16);
      x ^= v.x ^ v.w;
      if (++cslot == S) { cslot = 0; cph ^= 1u; }
      --inflight;
      __syncthreads();  // stage consumed by all before reuse
      top_up();
    }
    if (a.epi) {
      float4 acc = make_float4(float(x), 1.f, 2.f, 3.f);
      __stcg(reinterpret_cast<float4*>(a.part) + size_t(cur % 4096) * 256 + tid, acc);
      int* ctr = a.arrive + cur / nsplit;
      if (a.epi == 1) {  // the Mega kernel today
        __threadfence(); __syncthreads();
        if (tid == 0) { s_item[0] = atomicAdd(ctr, 1); __threadfence(); }
        __syncthreads();
      } else if (a.epi == 2) {  // barrier, then thread 0: fence.acq_rel.gpu + relaxed atom
        __syncthreads();
        if (tid == 0) { int old; asm volatile("fence.acq_rel.gpu;\n atom.relaxed.gpu.global.add.s32 %0, [%1], 1;" : "=r"(old) : "l"(ctr) : "memory"); s_item[0] = old; }
        __syncthreads();
      } else if (a.epi == 3) {  // barrier, then thread 0: atom.acq_rel.gpu
        __syncthreads();
        if (tid == 0) { int old; asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], 1;" : "=r"(old) : "l"(ctr) : "memory"); s_item[0] = old; }
        __syncthreads();
      } else if (a.epi == 4) {  // barrier, thread 0: red.release (no answer): the floor
        __syncthreads();
        if (tid == 0) asm volatile("red.release.gpu.global.add.s32 [%0], 1;" :: "l"(ctr) : "memory");
      } else if (a.epi == 5) {  // all threads fence.acq_rel.gpu, barrier, thread 0 relaxed atom
        asm volatile("fence.acq_rel.gpu;" ::: "memory"); __syncthreads();
        if (tid == 0) { s_item[0] = atomicAdd(ctr, 1); }
        __syncthreads();
      }
      x += s_item[0] & 1;
    }
    __syncthreads();
    cur = next;
  }
  waitg<0>();
  if (x == 0x12345u) a.sink[0] = x;
  if (tid == 0) atomicMax(&a.span[1], gtime());
}

__global__ void fill_random(uint32_t* p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * 256ull + threadIdx.x; i < n; i += 256ull * gridDim.x) {
    uint32_t x = uint32_t(i) * 2654435761u ^ seed; x ^= x >> 15; x *= 2246822519u; x ^= x >> 13; x *= 3266489917u; x ^= x >> 16;
    p[i] = x; } }
int main(int argc, char** argv) {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  void* p = nullptr; cudaDriverEntryPointQueryResult q{};
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
  auto enc = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  const size_t region = size_t(64) << 20; const int nreg = 16;  // 1 GiB, > L2
  __nv_bfloat16* buf; CK(cudaMalloc(&buf, region * nreg)); CK(cudaMemset(buf, 0x3c, region * nreg)); const int random_data = argc > 1 ? atoi(argv[1]) : 0;
  if (random_data) { fill_random<<<sms * 8, 256>>>((uint32_t*)buf, region * nreg / 4, 777u); CK(cudaDeviceSynchronize()); }
  unsigned* counter; CK(cudaMalloc(&counter, 4 * 64)); float* part; CK(cudaMalloc(&part, size_t(64) << 20)); int* arrive; CK(cudaMalloc(&arrive, 1 << 20));
  unsigned long long* span; CK(cudaMalloc(&span, 16 * 64)); unsigned* sink; CK(cudaMalloc(&sink, 4)); __nv_bfloat16* xact; CK(cudaMalloc(&xact, 1 << 16)); CK(cudaMemset(xact, 0, 1 << 16));
  CK(cudaFuncSetAttribute(stream, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
  struct Shape { const char* name; int rows, K, spl; };
  std::vector<Shape> shapes = {{"qwen3_fc1 12288x2048 spl6", 12288, 2048, 6}, {"qwen3_fc2 16384x768 spl4", 16384, 768, 4},
                               {"gptoss_fc1 46080x2880 spl9?", 46080, 2880, 9}, {"big 12288x2048 spl32", 12288, 2048, 32}};
  for (auto& sh : shapes) {
    const size_t bytes = size_t(sh.rows) * sh.K * 2;
    if (bytes > region) { printf("skip %s\n", sh.name); continue; }
    for (int tma : {1}) for (int promo : {0}) for (int dyn : {1}) for (int epi : {0, 3}) for (int stages : {5}) for (int map4 : {0}) for (int acts : {0}) {
      if (!tma && promo) continue;
      
      std::vector<double> us;
      for (int rep = 0; rep < 2 * nreg; ++rep) {
        const __nv_bfloat16* w = buf + size_t(rep % nreg) * region / 2;
        CUtensorMap tm; cuuint64_t dims[2] = {cuuint64_t(sh.K), cuuint64_t(sh.rows)}; cuuint64_t str[1] = {cuuint64_t(sh.K) * 2};
        cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
        CUtensorMapL2promotion pr = promo == 0 ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : promo == 1 ? CU_TENSOR_MAP_L2_PROMOTION_NONE : CU_TENSOR_MAP_L2_PROMOTION_L2_128B;
        cuuint64_t dims4[4] = {cuuint64_t(sh.K), 8, 2, cuuint64_t(sh.rows / 16)}; cuuint64_t str4[3] = {cuuint64_t(sh.K) * 2, cuuint64_t(sh.K) * 16, cuuint64_t(sh.K) * 32};
        cuuint32_t box4[4] = {64, 8, 1, 8}, es4[4] = {1, 1, 1, 1};
        if (map4) { if (enc(&tm, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 4, (void*)w, dims4, str4, box4, es4, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, pr, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { printf("enc4 fail\n"); return 1; } } else
        if (enc(&tm, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void*)w, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, pr, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { printf("enc fail\n"); return 1; }
        CK(cudaMemset(counter, 0, 4)); CK(cudaMemset(arrive, 0, 1 << 20));
        unsigned long long init[2] = {~0ull, 0ull}; CK(cudaMemcpy(span, init, 16, cudaMemcpyHostToDevice));
        Args a{w, xact, sh.rows, sh.K, sh.spl, stages, tma, epi, dyn, map4, acts, counter, part, arrive, span, sink};
        stream<<<2 * sms, 256, 100 * 1024>>>(tm, a);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        unsigned long long h[2]; CK(cudaMemcpy(h, span, 16, cudaMemcpyDeviceToHost));
        if (rep >= nreg) us.push_back((h[1] - h[0]) / 1e3);
      }
      std::sort(us.begin(), us.end());
      const double med = us[us.size() / 2];
      printf("data=%s %-28s %s promo=%s dyn=%d epi=%d stages=%d map4=%d acts=%d: span median %.1f us min %.1f -> %.0f GB/s (median)\n", random_data ? "random" : "0x3c  ", sh.name, tma ? "tma  " : "cpasy",
             promo == 0 ? "256" : promo == 1 ? "none" : "128", dyn, epi, stages, map4, acts, med, us[0], bytes / (med * 1e-6) / 1e9);
    }
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
