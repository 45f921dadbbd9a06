// PTX wrappers of the staged epilogues (an output written to shared memory in fragment form, then
// stored to global memory 16 bytes a lane): stmatrix's transposing forms, a 16-byte shared load and
// named barriers. Apart from ptx.cuh so that the translation units without a staged epilogue (most
// of them, CUTLASS's among them) do not rebuild when these change.
#pragma once
#include <cstdint>

namespace megamoe::ptx {

// Transposing forms (.trans): element (row r, column c) of matrix j's fragment (register j: row
// lane / 4, columns 2 (lane % 4) .. + 1) lands at position r of memory row c, whose address lane
// 8j + c gives. x2: matrices 0 and 1, addresses from lanes 0..15.
__device__ __forceinline__ void stmatrix_x4_trans(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0),
               "r"(r1), "r"(r2), "r"(r3)
               : "memory");
}
__device__ __forceinline__ void stmatrix_x2_trans(uint32_t addr, uint32_t r0, uint32_t r1) {
  asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(addr), "r"(r0), "r"(r1)
               : "memory");
}

// 2 bytes to shared memory (the fp8 activation epilogue's codes, a pair at a time).
__device__ __forceinline__ void st_shared_u16(uint32_t addr, uint16_t v) {
  asm volatile("st.shared.u16 [%0], %1;" ::"r"(addr), "h"(v) : "memory");
}

// 16 bytes from shared memory.
__device__ __forceinline__ uint4 ld_shared_v4(uint32_t addr) {
  uint4 v;
  asm volatile("ld.shared.v4.b32 {%0, %1, %2, %3}, [%4];" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr)
               : "memory");
  return v;
}

// The 128 threads of consumer warpgroup c (0 or 1) meet: named barrier 1 + c (0 is __syncthreads).
// Immediate barrier ids: with an id in a register ptxas reserves all 16 of the CTA's barriers.
__device__ __forceinline__ void warpgroup_barrier(int c) {
  if (c == 0) asm volatile("bar.sync 1, 128;" ::: "memory");
  else asm volatile("bar.sync 2, 128;" ::: "memory");
}

}  // namespace megamoe::ptx
