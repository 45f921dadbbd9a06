// The operands both of our own bf16 grouped GEMMs take (grouped_gemm_bf16_small_tma.h,
// grouped_gemm_bf16_large_tma.h): for every expert g,
//   D[rows of g, 0:N] = A[rows of g, 0:K] . W[g, 0:N, 0:K]^T
// with offsets [G + 1] on the device, and FC1's activation values where D is the activated a. Each
// kernel's arguments add what only it has (its output kind, its knobs); the checks both need are
// here, once.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/gemm/act_epilogue_args.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

struct Bf16GemmOperands {
  const void* A = nullptr;  // bf16 [rows, lda]
  int64_t lda = 0;
  const void* W = nullptr;  // bf16 [G, N, K]
  void* D = nullptr;        // [rows, ldd]: its element type is the kernel's output kind
  int64_t ldd = 0;
  const int32_t* offsets = nullptr;
  int num_groups = 0;
  int64_t N = 0, K = 0;
  ActEpilogueArgs act;  // FC1 with the activation in the epilogue only
};

// Throws InvalidArgument naming the first bad operand. `who` names the kernel in the messages;
// `gated`: the epilogue applies a gated activation (D holds N / 2 columns, W13 in gate/up groups of
// 8); `d_elem_bytes`: the size of one element of D (4 fp32, 2 bf16).
inline void check_bf16_gemm_operands(const Bf16GemmOperands& a, const char* who, bool gated, size_t d_elem_bytes) {
  const std::string in = std::string(" (") + who + ")";
  if (a.K % 8 != 0 || a.K <= 0) throw_invalid("K", "a positive multiple of 8" + in, std::to_string(a.K));
  if (a.N <= 0) throw_invalid("N", "positive" + in, std::to_string(a.N));
  if (gated && a.N % 16 != 0)
    throw_invalid("N", "2 * I with I a multiple of 8 (gated activation epilogue, gate/up groups of 8)",
                  std::to_string(a.N));
  if (a.lda < a.K || a.lda % 8 != 0) throw_invalid("lda", ">= K and a multiple of 8", std::to_string(a.lda));
  cu::require_aligned16(a.A, "A", (std::string(who) + ": TMA").c_str());
  cu::require_aligned16(a.W, "W", (std::string(who) + ": TMA").c_str());
  if (a.offsets == nullptr) throw_invalid("offsets", "a device pointer to num_groups + 1 offsets", "null");
  if (a.D == nullptr || !cu::aligned(a.D, d_elem_bytes))
    throw_invalid("D", d_elem_bytes == 4 ? "a 4-byte aligned fp32 pointer" : "a 2-byte aligned bf16 pointer",
                  a.D == nullptr ? "null" : "misaligned");
  const int64_t cols = gated ? a.N / 2 : a.N;
  if (a.ldd < cols)
    throw_invalid("ldd", "at least the output's columns (N, or N / 2 with a gated activation): " + std::to_string(cols),
                  std::to_string(a.ldd));
}

}  // namespace megamoe::sm90
