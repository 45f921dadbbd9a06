// Micro: HBM read bandwidth of a "K-step" access pattern: tiles of 128 rows, each step reads
// 128 B of every row; rows are P bytes apart. Grid-stride over tiles x K-chunks.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
__global__ void __launch_bounds__(256) rd(const uint8_t* __restrict__ base, size_t P, int rows, int kbytes,
                                          int chunk_bytes, unsigned long long* sink) {
  const int kchunks = kbytes / chunk_bytes, rblocks = rows / 128;
  const int items = rblocks * kchunks;
  uint4 acc = make_uint4(0, 0, 0, 0);
  const int t = threadIdx.x;
  for (int it = blockIdx.x; it < items; it += gridDim.x) {
    const int rb = it / kchunks, kc = it % kchunks;
    const uint8_t* tile = base + size_t(rb) * 128 * P + size_t(kc) * chunk_bytes;
    const int steps = chunk_bytes / 128;
    // per step: 128 rows x 8 chunks of 16 B = 1024 loads: 4 per thread; 4 steps per batch
    for (int s = 0; s < steps; s += 4) {
      uint4 v[16];
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const int c = q * 256 + t, row = c >> 3, ch = c & 7;
          const int ss = s + u < steps ? s + u : s;
          v[u * 4 + q] = __ldg(reinterpret_cast<const uint4*>(tile + size_t(row) * P + ss * 128 + ch * 16));
        }
#pragma unroll
      for (int i = 0; i < 16; ++i) { acc.x ^= v[i].x; acc.y ^= v[i].y; acc.z ^= v[i].z; acc.w ^= v[i].w; }
    }
  }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x12345678u) sink[0] = 1;
}
int main() {
  const size_t total = size_t(2) << 30;
  uint8_t* buf; cudaMalloc(&buf, total); cudaMemset(buf, 1, total);
  unsigned long long* sink; cudaMalloc(&sink, 8);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  const size_t Ps[] = {1536, 2048, 2112, 4096, 4160, 4224, 5760, 8192, 8320, 14336, 16384, 16512};
  const int chunks[] = {512, 1024, 4096};
  for (int cb : chunks)
  for (size_t P : Ps) {
    // matrix of 'rows' rows x P bytes, read K = P bytes (rounded to cb) of each row
    const int kbytes = int(P / cb) * cb;
    if (kbytes == 0) continue;
    const size_t mat = size_t(256) << 20;  // 256 MB per matrix, 8 matrices rotated (2 GB > L2)
    const int rows = int(mat / P) / 128 * 128;
    const double bytes = double(rows) * kbytes;
    for (int grid : {sms * 2, sms * 4}) {
      float best = 1e9;
      for (int rep = 0; rep < 3; ++rep) {
        cudaEventRecord(a);
        for (int m = 0; m < 8; ++m) rd<<<grid, 256>>>(buf + size_t(m) * mat, P, rows, kbytes, cb, sink);
        cudaEventRecord(b); cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b); if (ms < best) best = ms;
      }
      printf("chunk %5d P %6zu grid %4d: %7.1f GB/s\n", cb, P, grid, 8 * bytes / (best * 1e-3) / 1e9);
    }
  }
  cudaError_t e = cudaGetLastError(); printf("err %s\n", cudaGetErrorString(e));
}
