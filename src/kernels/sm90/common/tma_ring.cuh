// A ring of shared-memory stages fed by one TMA-issuing thread and read by the whole CTA: per stage a
// "full" mbarrier (one arrival, the issuer's expect_tx, completed by the copies' bytes) and an
// "empty" one (kReaders arrivals, one per reading thread). Copies and reads are counted per CTA
// (`issued` by the issuer, `used` by every reader, the same count in each): the n-th of either is
// slot n % kStages, phase (n / kStages) & 1. Every wait is bounded (ptx::kGemmWaitTimeoutNs: a lost
// copy traps instead of hanging the GPU). Used by the small-T grouped GEMMs (bf16, W4A16). A view
// of the kernel's own two __shared__ barrier arrays: so the kernels compile to the SASS they had
// with these steps written out (scripts/sass_same.py; one struct holding both arrays did not).
#pragma once
#include <cstdint>

#include "kernels/sm90/common/ptx.cuh"

namespace megamoe::sm90 {

template <int kStages, int kReaders>
struct TmaRing {
  uint64_t* full;   // [kStages], shared memory
  uint64_t* empty;  // [kStages], shared memory

  // One thread, before the CTA's first barrier (which publishes the inits).
  __device__ __forceinline__ void init() {
    for (int i = 0; i < kStages; ++i) {
      ptx::mbar_init(ptx::smem_u32(&full[i]), 1);
      ptx::mbar_init(ptx::smem_u32(&empty[i]), kReaders);
    }
    ptx::mbar_fence_init();
  }
  // Issuer: the slot of copy number `issued`, once every reader released its previous use.
  __device__ __forceinline__ int acquire(uint32_t issued) {
    const int slot = int(issued % kStages);
    if (issued >= uint32_t(kStages))
      ptx::mbar_wait(ptx::smem_u32(&empty[slot]), ((issued / kStages) - 1) & 1u, ptx::kGemmWaitTimeoutNs);
    return slot;
  }
  // Issuer: `slot`'s full barrier, armed with the bytes its copies will bring (pass it to them).
  __device__ __forceinline__ uint32_t arm(int slot, uint32_t bytes) {
    const uint32_t bar = ptx::smem_u32(&full[slot]);
    ptx::mbar_arrive_expect_tx(bar, bytes);
    return bar;
  }
  // Reader: the slot of read number `used`, once its copies landed.
  __device__ __forceinline__ int wait_full(uint32_t used) {
    const int slot = int(used % kStages);
    ptx::mbar_wait(ptx::smem_u32(&full[slot]), (used / kStages) & 1u, ptx::kGemmWaitTimeoutNs);
    return slot;
  }
  // Reader: done with `slot` (every reading thread arrives: racecheck's ordering).
  __device__ __forceinline__ void release(int slot) { ptx::mbar_arrive(ptx::smem_u32(&empty[slot])); }
};

}  // namespace megamoe::sm90
