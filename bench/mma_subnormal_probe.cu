// Probe (not a test): does Hopper's bf16 mma.sync (m16n8k16, fp32 accumulate) keep subnormal bf16
// inputs and fp32 products / sums below 2^-126, or flush them to zero?
//
// Why it matters (issue 15): the W4A16 register decode turns an e2m1 code into the bf16 value
// code * 2^-126 (code 0.5 lands on the bf16 subnormal 2^-127) and multiplies every decoded pair by
// its block's factor (one HMUL2 per pair, ~16 of the ~100 instructions of a 64-K sub-step). Applying
// the factor to the accumulator once per 32-K block instead (mxfp4: 4 FFMA per 2 MMAs) is exact only
// if the MMA keeps (a) subnormal bf16 weights and (b) products whose magnitude falls below 2^-126
// (for weights of 2^-126 scale times activations of magnitude below 1). This probe answers (a)
// and (b) on the GPU it runs on; the answer decides whether that form is worth building.
//
// Build (no CMake target, no library code):
//   nvcc -std=c++17 -O2 -gencode=arch=compute_90a,code=sm_90a bench/mma_subnormal_probe.cu -o mma_subnormal_probe
// Prints one line per case (expected, got, verdict) and a last line "summary: ..."; exit 0 when every
// case ran (whatever the verdict), 1 on a CUDA error.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

// One warp, one m16n8k16 bf16 MMA with fp32 accumulate: D = A (16 x 16, row-major) * B (16 x 8,
// stored column-major as [n][k]) + C. Fragments gathered per the PTX ISA's m16n8k16 layouts.
__global__ void mma_once(const uint16_t* A, const uint16_t* B, const float* C, float* D) {
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  auto pack = [](uint16_t lo, uint16_t hi) { return uint32_t(lo) | (uint32_t(hi) << 16); };
  uint32_t a[4], b[2];
  a[0] = pack(A[g * 16 + 2 * t], A[g * 16 + 2 * t + 1]);
  a[1] = pack(A[(g + 8) * 16 + 2 * t], A[(g + 8) * 16 + 2 * t + 1]);
  a[2] = pack(A[g * 16 + 2 * t + 8], A[g * 16 + 2 * t + 9]);
  a[3] = pack(A[(g + 8) * 16 + 2 * t + 8], A[(g + 8) * 16 + 2 * t + 9]);
  b[0] = pack(B[g * 16 + 2 * t], B[g * 16 + 2 * t + 1]);
  b[1] = pack(B[g * 16 + 2 * t + 8], B[g * 16 + 2 * t + 9]);
  float c[4] = {C[g * 8 + 2 * t], C[g * 8 + 2 * t + 1], C[(g + 8) * 8 + 2 * t], C[(g + 8) * 8 + 2 * t + 1]};
  float d[4];
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%10,%11,%12,%13};"
      : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
        "f"(c[3]));
  D[g * 8 + 2 * t] = d[0];
  D[g * 8 + 2 * t + 1] = d[1];
  D[(g + 8) * 8 + 2 * t] = d[2];
  D[(g + 8) * 8 + 2 * t + 1] = d[3];
}

uint16_t bf16_bits(float f) {  // exact for the values used here (8 significant bits or fewer)
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);
}
double bf16_value(uint16_t h) {
  const uint32_t u = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return double(f);
}

struct Case {
  const char* name;
  // Row 0 of A and column 0 of B (k = 0..15); everything else zero. C[0][0] = c00.
  std::vector<uint16_t> a_row0, b_col0;
  float c00;
};

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "mma_subnormal_probe: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

}  // namespace

int main() {
  const uint16_t sub = 0x0040;            // bf16 2^-127 (subnormal: e2m1 code 0.5 in the decode)
  const uint16_t sub_min = 0x0001;        // bf16 2^-133, the smallest subnormal
  const uint16_t one = bf16_bits(1.0f), half = bf16_bits(0.5f), tiny = 0x0080;  // 2^-126 (min normal)
  const uint16_t big = bf16_bits(std::ldexp(1.0f, 64)), m6 = 0x00C0;           // 2^64; 1.5 * 2^-126
  std::vector<Case> cases = {
      {"subnormal bf16 weight x 2^64 (normal product 2^-63)", {sub}, {big}, 0.0f},
      {"smallest subnormal bf16 x 2^64 (product 2^-69)", {sub_min}, {big}, 0.0f},
      {"subnormal bf16 weight x 1.0 (fp32 subnormal product 2^-127)", {sub}, {one}, 0.0f},
      {"min-normal bf16 x 0.5 (fp32 subnormal product 2^-127)", {tiny}, {half}, 0.0f},
      {"16 products 1.5*2^-126 x 0.5 summed (each 1.5*2^-127, sum 1.5*2^-123)",
       std::vector<uint16_t>(16, m6), std::vector<uint16_t>(16, half), 0.0f},
      {"subnormal product added to C = 2^-120", {sub}, {one}, std::ldexp(1.0f, -120)},
  };
  uint16_t *dA, *dB;
  float *dC, *dD;
  if (!check(cudaMalloc(&dA, 256 * 2), "cudaMalloc") || !check(cudaMalloc(&dB, 128 * 2), "cudaMalloc") ||
      !check(cudaMalloc(&dC, 128 * 4), "cudaMalloc") || !check(cudaMalloc(&dD, 128 * 4), "cudaMalloc"))
    return 1;
  int exact = 0, flushed = 0, other = 0;
  for (const Case& c : cases) {
    std::vector<uint16_t> A(256, 0), B(128, 0);
    std::vector<float> C(128, 0.0f), D(128, -1.0f);
    double want = c.c00;
    for (size_t k = 0; k < c.a_row0.size(); ++k) {
      A[k] = c.a_row0[k];
      B[k] = c.b_col0[k];  // column 0 of B, stored [n][k]
      want += bf16_value(c.a_row0[k]) * bf16_value(c.b_col0[k]);
    }
    C[0] = c.c00;
    if (!check(cudaMemcpy(dA, A.data(), 512, cudaMemcpyHostToDevice), "copy A") ||
        !check(cudaMemcpy(dB, B.data(), 256, cudaMemcpyHostToDevice), "copy B") ||
        !check(cudaMemcpy(dC, C.data(), 512, cudaMemcpyHostToDevice), "copy C"))
      return 1;
    mma_once<<<1, 32>>>(dA, dB, dC, dD);
    if (!check(cudaGetLastError(), "launch") || !check(cudaDeviceSynchronize(), "mma_once") ||
        !check(cudaMemcpy(D.data(), dD, 512, cudaMemcpyDeviceToHost), "copy D"))
      return 1;
    const double want32 = double(float(want));  // what an exact fp32 sum would hold
    const double got = D[0];
    const char* verdict;
    if (got == want32) {
      verdict = "exact";
      ++exact;
    } else if (got == double(c.c00)) {
      verdict = "flushed";
      ++flushed;
    } else {
      verdict = "other";
      ++other;
    }
    std::printf("%-72s expected %.9g got %.9g: %s\n", c.name, want32, got, verdict);
  }
  cudaDeviceProp prop{};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("summary: %s, %d cases: %d exact, %d flushed, %d other\n", prop.name, int(cases.size()), exact,
              flushed, other);
  return 0;
}
