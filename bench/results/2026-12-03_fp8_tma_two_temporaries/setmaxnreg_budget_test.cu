// ptxas register-budget check (2026-12-03, session 30): compile with
//   nvcc -gencode=arch=compute_90a,code=sm_90a -DLIVE=210 -c setmaxnreg_budget_test.cu -Xptxas -v
// and again with the inc<232>() line removed: 0 spill bytes with it, 628/652 without (LIVE = 210).
#include <cstdint>
template <int N> __device__ __forceinline__ void inc() { asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N)); }
template <int N> __device__ __forceinline__ void dec() { asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N)); }
constexpr int NV = LIVE;
__global__ void __launch_bounds__(384, 1) k(float* out, const float* in, int iters) {
  if (threadIdx.x >= 256) { dec<40>(); return; }
  inc<232>();
  float a[NV];
#pragma unroll
  for (int i = 0; i < NV; ++i) a[i] = in[i * 256 + threadIdx.x];
  for (int it = 0; it < iters; ++it) {
    float s = in[it];
#pragma unroll
    for (int i = 0; i < NV; ++i) a[i] = fmaf(a[i], s, a[(i + 7) % NV]);
  }
#pragma unroll
  for (int i = 0; i < NV; ++i) out[i * 256 + threadIdx.x] = a[i];
}
