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

struct Args { const __nv_bfloat16* w; const __nv_bfloat16* xact; int rows, K, spl, stages, tma, epi, dyn, map4, acts, scatter; int experts[8]; unsigned* counter; float* part; int* arrive; unsigned long long* span; unsigned* sink; };

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
        } else if (a.scatter) { const int e = a.experts[tile / 12], r0 = (tile % 12) * 128;
          for (int h = 0; h < 2; ++h) asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];"
            ::"r"(dst + h * 8192), "l"(&tm), "r"(bar), "r"(k), "r"(r0 + 64 * h), "r"(e) : "memory");
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

__global__ void sweep(const uint4* p, long long n, unsigned* sink) { unsigned x = 0;
  for (long long i = blockIdx.x * 256ll + threadIdx.x; i < n; i += 256ll * gridDim.x) { uint4 v = __ldcg(p + i); x ^= v.x ^ v.w; }
  if (x == 0x12345u) *sink = x; }

int main(int argc, char** argv) {
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  void* p = nullptr; cudaDriverEntryPointQueryResult q{};
  CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
  auto enc = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  const int E = 128, NR = 1536, K = 2048;  // qwen3-30b-a3b W13 (gate|up rows), bf16
  const size_t expert_bytes = size_t(NR) * K * 2, all_bytes = size_t(1) << 30;  // 805 MB of experts in 1 GiB
  __nv_bfloat16* buf; CK(cudaMalloc(&buf, all_bytes)); CK(cudaMemset(buf, 0x3c, all_bytes));
  const size_t flush_bytes = size_t(256) << 20; void* flush; CK(cudaMalloc(&flush, flush_bytes));
  unsigned* counter; CK(cudaMalloc(&counter, 4 * 64)); float* part; CK(cudaMalloc(&part, size_t(64) << 20)); int* arrive; CK(cudaMalloc(&arrive, 1 << 20));
  unsigned long long* span; CK(cudaMalloc(&span, 16 * 64)); unsigned* sink; CK(cudaMalloc(&sink, 4)); __nv_bfloat16* xact; CK(cudaMalloc(&xact, 1 << 16)); CK(cudaMemset(xact, 0, 1 << 16));
  CK(cudaFuncSetAttribute(stream, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
  const int rows = 8 * NR, spl = 6;
  const size_t bytes = size_t(rows) * K * 2;
  unsigned rng = 12345;
  for (int layout : {0, 1, 2, 3, 4}) for (int scatter : {0}) for (int flushmode : {0}) for (int epi : {0}) {
    std::vector<double> us;
    const int reps = 40;
    for (int rep = 0; rep < reps; ++rep) {
      // contiguous: 8 consecutive experts starting at a rotating one; scatter: 8 distinct random experts
      int ex[8]; const int base = (rep * 8) % (E - 8);
      for (int i = 0; i < 8; ++i) ex[i] = base + i;
      if (scatter) { for (int i = 0; i < 8; ++i) { bool dup; do { rng = rng * 1664525u + 1013904223u; ex[i] = int(rng >> 9) % E; dup = false; for (int j = 0; j < i; ++j) dup |= ex[j] == ex[i]; } while (dup); } }
      // layout 0: 8 experts from a rotating expert base (6 MB steps); 1: 64 MB regions (rep % 16);
      // 2: 48 MB regions (rep % 16); 3: 64 MB regions + 6 MB; 4: 64 MB regions + 2 MB
      size_t off = size_t(base) * expert_bytes;
      if (layout == 1) off = size_t(rep % 16) << 26;
      if (layout == 2) off = size_t(rep % 16) * 8 * expert_bytes;
      if (layout == 3) off = (size_t(rep % 15) << 26) + expert_bytes;
      if (layout == 4) off = (size_t(rep % 15) << 26) + (size_t(2) << 20);
      const __nv_bfloat16* w = buf + off / 2;
      CUtensorMap tm; 
      if (scatter) { cuuint64_t d3[3] = {cuuint64_t(K), cuuint64_t(NR), cuuint64_t(E)}; cuuint64_t s3[2] = {cuuint64_t(K) * 2, cuuint64_t(K) * 2 * NR};
        cuuint32_t b3[3] = {64, 64, 1}, e3[3] = {1, 1, 1};
        if (enc(&tm, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, (void*)buf, d3, s3, b3, e3, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { printf("enc3 fail\n"); return 1; }
      } else { cuuint64_t dims[2] = {cuuint64_t(K), cuuint64_t(rows)}; cuuint64_t str[1] = {cuuint64_t(K) * 2};
        cuuint32_t box[2] = {64, 64}, es[2] = {1, 1};
        if (enc(&tm, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, (void*)w, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) != CUDA_SUCCESS) { printf("enc fail\n"); return 1; } }
      CK(cudaMemset(counter, 0, 4)); CK(cudaMemset(arrive, 0, 1 << 20));
      unsigned long long init[2] = {~0ull, 0ull}; CK(cudaMemcpy(span, init, 16, cudaMemcpyHostToDevice));
      if (flushmode == 1) CK(cudaMemset(flush, rep & 0xff, flush_bytes));
      if (flushmode == 2) sweep<<<sms * 8, 256>>>((const uint4*)flush, (long long)(flush_bytes / 16), sink);
      Args a{w, xact, rows, K, spl, 5, 1, epi, 1, 0, 0, scatter, {ex[0], ex[1], ex[2], ex[3], ex[4], ex[5], ex[6], ex[7]}, counter, part, arrive, span, sink};
      stream<<<2 * sms, 256, 100 * 1024>>>(tm, a);
      CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
      unsigned long long h[2]; CK(cudaMemcpy(h, span, 16, cudaMemcpyDeviceToHost));
      if (rep >= 8) us.push_back((h[1] - h[0]) / 1e3);
    }
    std::sort(us.begin(), us.end());
    const double med = us[us.size() / 2];
    printf("qwen3_fc1 layout=%d scatter=%d flush=%s epi=%d: span median %.1f us min %.1f max %.1f -> %.0f GB/s (median)\n", layout, scatter,
           flushmode == 0 ? "none  " : flushmode == 1 ? "memset" : "read  ", epi, med, us[0], us.back(), bytes / (med * 1e-6) / 1e9);
  }
  printf("err %s\n", cudaGetErrorString(cudaGetLastError()));
}
