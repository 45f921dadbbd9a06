// Inline-PTX wrappers shared by the sm90 kernels: programmatic dependent launch (griddepcontrol),
// cp.async, mbarrier + TMA, mma.sync and ldmatrix. Device code only.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

namespace megamoe::ptx {

// ---- programmatic dependent launch (PDL) ---------------------------------------------------
// griddepcontrol.wait returns once the previous kernel in the stream has completed and its writes
// are visible (a no-op when this grid has no programmatic dependency, i.e. it was launched
// without the PDL attribute); launch_dependents lets the next kernel in the stream launch early.
__device__ __forceinline__ void griddep_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}
__device__ __forceinline__ void griddep_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Wait for the previous kernel (no-op without a programmatic dependency), then let the next one
// launch. Call first in every kernel launched with PDL, before any early return, so that no
// block of the grid can finish before its predecessor.
__device__ __forceinline__ void pdl_wait_then_release() {
  griddep_wait();
  griddep_launch_dependents();
}

// ---- cp.async --------------------------------------------------------------------------------
constexpr int kCpAsyncBytes = 16;  // the .cg variant copies 16 bytes per instruction

// 16 bytes global -> shared (L2 only, .cg); `valid` false zero-fills the destination and reads
// nothing.
__device__ __forceinline__ void cp_async16(uint32_t dst, const void* src, bool valid) {
  const int n = valid ? kCpAsyncBytes : 0;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(n) : "memory");
}
// The same, and on an L2 miss L2 fetches the whole aligned 128-byte block around the 16 bytes
// (.L2::128B), so the next reads of that block hit L2.
__device__ __forceinline__ void cp_async16_l2_128(uint32_t dst, const void* src, bool valid) {
  const int n = valid ? kCpAsyncBytes : 0;
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(n) : "memory");
}
// 4 bytes global -> shared (.ca: the only variant for sizes below 16), e.g. one fp32 scale;
// `valid` false zero-fills the destination and reads nothing.
__device__ __forceinline__ void cp_async4(uint32_t dst, const void* src, bool valid = true) {
  const int n = valid ? 4 : 0;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(n) : "memory");
}
// An arrival on the mbarrier at `bar` once every cp.async this thread issued before it has landed
// (.noinc: it is one of the arrivals the barrier was initialised to expect). The issuing thread
// does not wait.
__device__ __forceinline__ void cp_async_mbar_arrive_noinc(uint32_t bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
// Waits until at most N committed groups are still in flight.
template <int N>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
}

// ---- shared-memory addresses -------------------------------------------------------------------
// The 32-bit shared-state-space address of a generic pointer into shared memory: the operand form
// of cp.async, mbarrier, TMA and the wgmma descriptors.
__device__ __forceinline__ uint32_t smem_u32(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

// ---- mbarrier + TMA (sm_90) ---------------------------------------------------------------
// A shared-memory mbarrier tracks one phase at a time: it completes when `count` arrivals and
// every byte announced with expect_tx have landed; waiters name the phase by its parity.
__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
// Makes initialised barriers visible to the async proxy (TMA) before first use.
__device__ __forceinline__ void mbar_fence_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}
// One arrival that also announces `bytes` of asynchronous transfers into this phase.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes) : "memory");
}
// True once the phase of parity `parity` has completed (one bounded hardware wait).
__device__ __forceinline__ bool mbar_try_wait(uint32_t bar, uint32_t parity) {
  uint32_t done;
  asm volatile(
      "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}
// The grouped GEMMs' bound on one wait: far above any stage's latency, short enough that a lost copy
// surfaces as an error within seconds (the Mega kernel has its own, configurable bound).
constexpr unsigned long long kGemmWaitTimeoutNs = 4ull * 1000ull * 1000ull * 1000ull;  // 4 s
// Waits for the phase of parity `parity`; a phase that has not completed after `timeout_ns`
// (%globaltimer) traps: a TMA that never lands (a faulting copy) becomes a launch error that
// the host sees, never a hung GPU.
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity, unsigned long long timeout_ns) {
  if (mbar_try_wait(bar, parity)) return;
  unsigned long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  while (!mbar_try_wait(bar, parity)) {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    if (t - t0 > timeout_ns) __trap();
  }
}
// TMA: one box of a 3-D tensor map (coordinates innermost first) into shared memory at `dst`,
// completing `bytes` of the barrier's transaction count. `tmap` is the generic address of a
// CUtensorMap in kernel parameter (__grid_constant__), constant or global memory.
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const void* tmap, uint32_t bar, int c0, int c1, int c2) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5}], "
      "[%2];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(tmap)), "r"(bar), "r"(c0), "r"(c1), "r"(c2)
      : "memory");
}
__device__ __forceinline__ void tma_load_4d(uint32_t dst, const void* tmap, uint32_t bar, int c0, int c1, int c2,
                                            int c3) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], "
      "[%2];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(tmap)), "r"(bar), "r"(c0), "r"(c1), "r"(c2), "r"(c3)
      : "memory");
}
// One plain arrival (release semantics: this thread's earlier shared-memory reads and writes
// happen before the phase completes for its waiters).
__device__ __forceinline__ void mbar_arrive(uint32_t bar) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const void* tmap, uint32_t bar, int c0, int c1) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%3, %4}], "
      "[%2];" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(tmap)), "r"(bar), "r"(c0), "r"(c1)
      : "memory");
}
// `bytes` (a multiple of 16; src and dst 16-byte aligned) contiguous bytes global -> shared by
// the bulk-copy engine, completing `bytes` of the barrier's transaction count.
__device__ __forceinline__ void bulk_load(uint32_t dst, const void* src, uint32_t bytes, uint32_t bar) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
               "l"(src), "r"(bytes), "r"(bar)
               : "memory");
}
__device__ __forceinline__ void prefetch_tensormap(const void* tmap) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<uint64_t>(tmap)) : "memory");
}

// ---- gpu-scope release / acquire atomics ------------------------------------------------------
// The CTA-wide publish pattern: every thread stores, the CTA passes a barrier, then one thread
// releases (PTX memory model: the barrier orders the CTA's earlier stores before that thread's
// release, which is cumulative). Only the releasing thread waits for the stores to land, instead
// of every thread fencing (__threadfence) before the barrier.
// The counter's old value; acquire too, so what the releasers published is visible to this
// thread (and, after a barrier, to its CTA).
__device__ __forceinline__ int atom_add_acq_rel_gpu(int* p, int v) {
  int old;
  asm volatile("atom.acq_rel.gpu.global.add.s32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v) : "memory");
  return old;
}
// The same increment when nobody needs the old value.
__device__ __forceinline__ void red_add_release_gpu(int* p, int v) {
  asm volatile("red.release.gpu.global.add.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// ---- warpgroup register budgets (sm_90a) ------------------------------------------------------
// Every warp of a warpgroup executes the same one; the block's total stays within the register
// file the launch reserved (threads x the compiled register count).
template <int N>
__device__ __forceinline__ void setmaxnreg_inc() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}
template <int N>
__device__ __forceinline__ void setmaxnreg_dec() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(N));
#endif
}

// ---- warp-level MMA (mma.sync, sm_80+) ---------------------------------------------------------
// D += A * B for one m16n8k16 tile: A 16x16 bf16 row-major (4 registers per lane), B 16x8 bf16
// column-major (2 registers), D 16x8 fp32 (4 registers), in the PTX fragment layouts.
__device__ __forceinline__ void mma_m16n8k16_bf16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// D += A * B for one m16n8k32 tile of e4m3 (sm_89+): A 16x32 row-major, B 32x8 column-major,
// four e4m3 per register, the same register layouts as m16n8k16 bf16 (a row's 32 bytes are the
// k16 bf16 block's 32 bytes), D 16x8 fp32.
__device__ __forceinline__ void mma_m16n8k32_e4m3(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
      "{%0,%1,%2,%3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

// Four 8x8 b16 matrices from shared memory (lanes 8i..8i+7 give the row addresses of matrix i).
__device__ __forceinline__ void ldmatrix_x4(uint32_t addr, uint32_t& r0, uint32_t& r1, uint32_t& r2, uint32_t& r3) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(addr));
}

// The inverse: register j of every lane is row lane / 4, columns 2 (lane % 4) .. + 1 of matrix j
// (the mma.sync A-fragment layout), stored to the row addresses lanes 8i..8i+7 give for matrix i.
__device__ __forceinline__ void stmatrix_x4(uint32_t addr, uint32_t r0, uint32_t r1, uint32_t r2, uint32_t r3) {
  asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r0), "r"(r1),
               "r"(r2), "r"(r3)
               : "memory");
}

// Orders this thread's shared-memory writes before later reads by the async proxy (wgmma, TMA).
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

}  // namespace megamoe::ptx
