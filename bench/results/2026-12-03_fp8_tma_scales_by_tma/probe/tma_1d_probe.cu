// Which fp32 TMA boxes does the H200 accept? One CTA loads one box of `box` floats starting at
// element `c0` of a tensor of n floats, through a tensor map of rank 1 ({n}) or rank 2 ({n, 1},
// row stride n * 4 rounded up to 16 bytes), and checks every float (zeros past n). Run one case a
// process (an illegal instruction ends the context):
//   tma_1d_probe RANK BOX C0 PROMOTION(0 none, 1 256B) [STRIDE0: the unused stride a rank-1 map gets]
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void probe(const __grid_constant__ CUtensorMap m, int rank, int box, int c0, float* out) {
  __shared__ alignas(128) float s[256];
  __shared__ alignas(8) unsigned long long bar;
  const unsigned sb = unsigned(__cvta_generic_to_shared(s)), bb = unsigned(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bb));
    asm volatile("fence.mbarrier_init.release.cluster;");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bb), "r"(box * 4) : "memory");
    if (rank == 1)
      asm volatile(
          "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2}], [%3];" ::
              "r"(sb), "l"(&m), "r"(c0), "r"(bb) : "memory");
    else
      asm volatile(
          "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
          "[%4];" ::"r"(sb), "l"(&m), "r"(c0), "r"(0), "r"(bb) : "memory");
    asm volatile(
        "{\n.reg .pred P;\nW: mbarrier.try_wait.parity.shared::cta.b64 P, [%0], 0;\n@!P bra W;\n}" ::"r"(bb)
        : "memory");
    for (int i = 0; i < box; ++i) out[i] = s[i];
  }
}

int main(int argc, char** argv) {
  if (argc != 5 && argc != 6) { std::fprintf(stderr, "usage: tma_1d_probe RANK BOX C0 PROMOTION\n"); return 2; }
  const int rank = std::atoi(argv[1]), box = std::atoi(argv[2]), c0 = std::atoi(argv[3]), prom = std::atoi(argv[4]);
  const int n = 1000;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = float(i + 1);
  float *d, *o;
  cudaMalloc(&d, n * 4);
  cudaMalloc(&o, 256 * 4);
  cudaMemcpy(d, h.data(), n * 4, cudaMemcpyHostToDevice);
  void* p = nullptr;
  cudaDriverEntryPointQueryResult q{};
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q);
  auto enc = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  const cuuint64_t dims[2] = {cuuint64_t(n), 1}, strides[1] = {argc == 6 ? cuuint64_t(std::atoll(argv[5])) : cuuint64_t((n * 4 + 15) / 16 * 16)};
  const cuuint32_t boxd[2] = {cuuint32_t(box), 1}, es[2] = {1, 1};
  CUtensorMap m;
  const CUresult r = enc(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, rank, d, dims, strides, boxd, es,
                         CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                         prom ? CU_TENSOR_MAP_L2_PROMOTION_L2_256B : CU_TENSOR_MAP_L2_PROMOTION_NONE,
                         CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  std::printf("rank %d box %d c0 %d promotion %d: encode %d", rank, box, c0, prom, int(r));
  if (r != CUDA_SUCCESS) { std::printf("\n"); return 1; }
  probe<<<1, 32>>>(m, rank, box, c0, o);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf(", kernel %s", cudaGetErrorString(e));
  if (e != cudaSuccess) { std::printf("\n"); return 1; }
  std::vector<float> got(box);
  cudaMemcpy(got.data(), o, box * 4, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < box; ++i) bad += got[i] != (c0 + i < n ? float(c0 + i + 1) : 0.f);
  std::printf(", %d of %d floats wrong\n", bad, box);
  return bad != 0;
}
