// Dispatcher of the grouped FP8 blockwise GEMM (see grouped_gemm_fp8_blockwise.h): owns the
// device workspace and one prepared CUTLASS kernel per tactic (the kernels live in
// grouped_gemm_fp8_blockwise_swapab.cu, _swapab32.cu, _large.cu and _large_bf16.cu). No CUTLASS
// header is included here. Swap-AB is prepared with two token tiles (32 and 64 wide), the large
// tile twice: with fp32 D and with bf16 D.
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"

#include <cstdint>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/gemm/grouped_gemm_dispatch.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace fd = fp8_gemm_detail;

namespace {

constexpr const char* kWho = "grouped_gemm_fp8_blockwise";
struct DeviceScope : cu::DeviceGuard {
  explicit DeviceScope(int device) : cu::DeviceGuard(kWho, device) {}
};
bool aligned16(const void* p) { return cu::aligned(p, 16); }  // TMA's base-address alignment

// Prepared kernels: swap-AB with the 64-wide token tile, the large tile, the large tile with bf16
// D (run_bf16_out), swap-AB with the 32-wide token tile.
constexpr int kNumKernels = 4;
constexpr int kSwap64 = 0, kLarge = 1, kLargeBf16Out = 2, kSwap32 = 3;
// Not CUTLASS kernels (launch_fp8_tma, nothing prepared): past the prepared ones.
constexpr int kTmaF32 = kNumKernels, kTmaBf16Out = kNumKernels + 1;
constexpr int kTmaSmallF32 = kNumKernels + 2, kTmaSmallBf16Out = kNumKernels + 3;
// The kTma / kTmaSmall tactic's kernel number for fp32 or bf16 D.
int tma_kernel(Fp8GemmTactic t, bool bf16_out) {
  const bool small = t == Fp8GemmTactic::kTmaSmall;
  return bf16_out ? (small ? kTmaSmallBf16Out : kTmaBf16Out) : (small ? kTmaSmallF32 : kTmaF32);
}
const fd::TacticOps& ops_for(int i) {
  switch (i) {
    case kSwap64: return fd::swapab_ops();
    case kLarge: return fd::large_ops();
    case kLargeBf16Out: return fd::large_bf16_ops();
    default: return fd::swapab32_ops();
  }
}
int64_t avg_rows(int64_t total_rows_upper_bound, int num_groups) {
  return num_groups > 0 ? cu::ceil_div<int64_t>(total_rows_upper_bound, num_groups) : 0;
}

}  // namespace

struct GroupedGemmFp8Blockwise::Kernels {
  gemm_dispatch::PreparedKernels<fd::TacticOps, kNumKernels> prepared;  // kSwap64, kLarge, kLargeBf16Out, kSwap32
  // The kTma kernels' tile counter for their dynamic order (common/tile_tickets.cuh): zero once here,
  // reset by every launch's last CTA. One per object: an object runs on one stream at a time.
  int* tile_counter = nullptr;
};
constexpr size_t kTileCounterBytes = 4 * sizeof(int);

const char* fp8_tactic_name(Fp8GemmTactic t) {
  switch (t) {
    case Fp8GemmTactic::kSwapAB: return "fp8_swap_ab_128x32|128x64x128";
    case Fp8GemmTactic::kLargeTile: return "fp8_large_tile_128x128x128";
    case Fp8GemmTactic::kTma: return "fp8_tma_128x128x128";
    case Fp8GemmTactic::kTmaSmall: return "fp8_tma_64x128x128";
  }
  return "unknown";
}

// Rule: swap-AB while the average rows per group, ceil(total_rows / groups), is at most 64 (the
// token tile), large tiles beyond. At few rows per group the GEMM is weight-bandwidth bound: the
// swap-AB tile puts 128 weight rows in wgmma's M and wastes at most one partial 64-row token tile
// per weight slab, while a 128-token-row tile would run 128 rows of MMA per weight byte whatever
// the group holds. The shipped tactic table (`megamoe tune`, src/core/tactics_default.cpp) overrides
// this per preset and token bucket where measurement disagreed.
Fp8GemmTactic choose_fp8_tactic(int64_t total_rows_upper_bound, int num_groups) {
  return avg_rows(total_rows_upper_bound, num_groups) <= 64 ? Fp8GemmTactic::kSwapAB : Fp8GemmTactic::kLargeTile;
}

// Within kSwapAB: the 32-wide token tile up to 16 rows per group on average, the 64-wide one beyond.
// The GEMM is a weight stream there and CUTLASS's carve-out gives the narrower tile more stages (20
// instead of 24 KiB each), so more weight bytes can be in flight per SM (the likely reason; the
// 256-row weight slab, tried in the same job, gained less: 0.97-1.10x). Measured on H200 (split
// fp8_block pipeline forced to swap-AB, both tiles in one job, best of two runs; docs/BENCHMARKS.md):
// 1.00-1.12x at up to 16 rows per group on all four presets (qwen3-30b-a3b T = 128: 0.211 -> 0.199
// ms, gpt-oss-120b T = 8: 0.254 -> 0.226 ms; deepseek-v3 T = 512 a tie); at 32 rows 0.98-1.00x
// (qwen3-30b-a3b T = 512, mixtral-8x7b T = 128), at 64 0.995x, at 128 0.82x (mixtral-8x7b T = 256, 512).
int choose_fp8_swap_tile(int64_t total_rows_upper_bound, int num_groups) {
  return avg_rows(total_rows_upper_bound, num_groups) <= 16 ? 32 : 64;
}

void make_weight_scales_mn_major(const float* canonical, int64_t G, int64_t NB, int64_t KB, float* out) {
  for (int64_t g = 0; g < G; ++g)
    for (int64_t nb = 0; nb < NB; ++nb)
      for (int64_t kb = 0; kb < KB; ++kb) out[(g * KB + kb) * NB + nb] = canonical[(g * NB + nb) * KB + kb];
}

GroupedGemmFp8Blockwise::GroupedGemmFp8Blockwise(int num_groups, int64_t N, int64_t K, int device)
    : num_groups_(num_groups), N_(N), K_(K), device_(device) {
  if (num_groups < 0) throw_invalid("num_groups", ">= 0", std::to_string(num_groups));
  // K: TMA needs 16-byte aligned row strides (and group starts lo*K) for the e4m3 A and W rows,
  // i.e. K a multiple of 16 elements. N: the epilogue stores fp32 D in 16-byte vectors (kAlignD =
  // 4 elements along D's contiguous extent, which is N_out in both tactics). Neither needs 128:
  // partial last 128-blocks are zero-filled by TMA (grouped_gemm_fp8_blockwise_impl.cuh).
  if (N <= 0 || N > INT32_MAX || N % 4 != 0) throw_invalid("N", "a positive multiple of 4", std::to_string(N));
  if (K <= 0 || K > INT32_MAX || K % 16 != 0) throw_invalid("K", "a positive multiple of 16", std::to_string(K));
  auto kernels = new Kernels{};
  try {
    kernels->prepared.create(kWho, &ops_for, num_groups, N, K, device);
    DeviceScope scope(device);
    cu::check(kWho, cudaMalloc(&kernels->tile_counter, kTileCounterBytes), "cudaMalloc(tile counter)");
    // [0..2] zero before the first launch; [3], the last launch's tile count, -1 until one records it.
    cu::check(kWho, cudaMemset(kernels->tile_counter, 0, 3 * sizeof(int)), "cudaMemset(tile counter)");
    cu::check(kWho, cudaMemset(kernels->tile_counter + 3, 0xFF, sizeof(int)), "cudaMemset(tile count)");
    // Done before the object is used: the memset runs on the legacy stream, which a caller's
    // non-blocking stream does not wait for.
    cu::check(kWho, cudaStreamSynchronize(nullptr), "cudaStreamSynchronize(tile counter)");
  } catch (...) {
    if (kernels->tile_counter) {
      DeviceScope scope(device);
      cudaFree(kernels->tile_counter);
    }
    kernels->prepared.release(&ops_for);
    delete kernels;
    throw;
  }
  workspace_bytes_ = kernels->prepared.workspace_bytes + kTileCounterBytes;
  kernels_ = kernels;
}

GroupedGemmFp8Blockwise::~GroupedGemmFp8Blockwise() {
  if (!kernels_) return;
  int prev = 0;
  if (kernels_->tile_counter && cudaGetDevice(&prev) == cudaSuccess) {  // never throws: a destructor
    if (prev != device_) cudaSetDevice(device_);
    cudaFree(kernels_->tile_counter);
    if (prev != device_) cudaSetDevice(prev);
  }
  kernels_->prepared.release(&ops_for);
  delete kernels_;
}

int GroupedGemmFp8Blockwise::take_tma_tile_count() {
  DeviceScope scope(device_);
  cu::check(kWho, cudaDeviceSynchronize(), "cudaDeviceSynchronize(tile count)");
  int count = -1;
  // [3]: the last launch's tile count (common/tile_tickets.cuh); -1 (all bytes 0xFF) until the next.
  cu::check(kWho, cudaMemcpy(&count, kernels_->tile_counter + 3, sizeof(int), cudaMemcpyDeviceToHost),
            "cudaMemcpy(tile count)");
  cu::check(kWho, cudaMemset(kernels_->tile_counter + 3, 0xFF, sizeof(int)), "cudaMemset(tile count)");
  cu::check(kWho, cudaDeviceSynchronize(), "cudaDeviceSynchronize(tile count)");
  return count;
}

void GroupedGemmFp8Blockwise::run(const void* A, const float* SA, const void* W, const float* SW, float* D,
                                  int64_t ldd, const int32_t* offsets, int64_t total_rows_upper_bound,
                                  cudaStream_t stream, Fp8GemmTactic tactic) {
  if (tactic != Fp8GemmTactic::kSwapAB && tactic != Fp8GemmTactic::kLargeTile && tactic != Fp8GemmTactic::kTma &&
      tactic != Fp8GemmTactic::kTmaSmall)
    throw_invalid("tactic", "kSwapAB, kLargeTile, kTma or kTmaSmall", std::to_string(int(tactic)));
  if (tactic == Fp8GemmTactic::kTma || tactic == Fp8GemmTactic::kTmaSmall) {
    run_kernel(tma_kernel(tactic, false), A, SA, W, SW, D, ldd, offsets, total_rows_upper_bound, stream);
    return;
  }
  const int kernel = tactic == Fp8GemmTactic::kLargeTile                                   ? kLarge
                     : choose_fp8_swap_tile(total_rows_upper_bound, num_groups_) == 32 ? kSwap32
                                                                                       : kSwap64;
  run_kernel(kernel, A, SA, W, SW, D, ldd, offsets, total_rows_upper_bound, stream);
}

void GroupedGemmFp8Blockwise::run_bf16_out(const void* A, const float* SA, const void* W, const float* SW, void* D,
                                           int64_t ldd, const int32_t* offsets, int64_t total_rows_upper_bound,
                                           cudaStream_t stream, Fp8GemmTactic tactic) {
  if (tactic != Fp8GemmTactic::kLargeTile && tactic != Fp8GemmTactic::kTma && tactic != Fp8GemmTactic::kTmaSmall)
    throw_invalid("tactic", "kLargeTile, kTma or kTmaSmall (bf16 D)", fp8_tactic_name(tactic));
  run_kernel(tactic == Fp8GemmTactic::kLargeTile ? kLargeBf16Out : tma_kernel(tactic, true), A, SA, W, SW, D, ldd,
             offsets, total_rows_upper_bound, stream);
}

bool GroupedGemmFp8Blockwise::check_operands(const void* A, const float* SA, const void* W, const float* SW,
                                             const int32_t* offsets, int64_t total_rows_upper_bound) const {
  if (total_rows_upper_bound < 0)
    throw_invalid("total_rows_upper_bound", ">= 0", std::to_string(total_rows_upper_bound));
  if (num_groups_ == 0 || total_rows_upper_bound == 0) return false;
  if (offsets == nullptr) throw_invalid("offsets", "a device array of G+1 int32", "nullptr");
  if (!A || !SA || !W || !SW)
    throw_invalid(!A ? "A" : !SA ? "SA" : !W ? "W" : "SW", "a non-null device pointer", "nullptr");
  if (!aligned16(A)) throw_invalid("A", "a 16-byte aligned pointer", "misaligned");
  if (!aligned16(W)) throw_invalid("W", "a 16-byte aligned pointer", "misaligned");
  return true;
}

void GroupedGemmFp8Blockwise::run_act(const void* A, const float* SA, const void* W, const float* SW,
                                      const ActEpilogueArgs& act, int64_t I, void* aq, float* sa_out,
                                      const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream,
                                      bool narrow) {
  if (!fused_act_supported(I))
    throw_invalid("I", "a positive multiple of 64 (fp8 FC1 with the activation epilogue)", std::to_string(I));
  const bool gated = act.activation != Activation::kReLU2;
  if (N_ != (gated ? 2 * I : I))
    throw_invalid("N", std::string(gated ? "2 * I" : "I") + " = " + std::to_string(gated ? 2 * I : I) +
                           " (FC1 of " + activation_name(act.activation) + ")",
                  std::to_string(N_));
  if (!check_operands(A, SA, W, SW, offsets, total_rows_upper_bound)) return;
  if (!aq || !sa_out) throw_invalid(!aq ? "aq" : "sa_out", "a non-null device pointer", "nullptr");
  if (!cu::aligned(aq, 2)) throw_invalid("aq", "a 2-byte aligned pointer (pairs of codes)", "misaligned");
  if (act.b13 && !cu::aligned(act.b13, 8)) throw_invalid("b13", "an 8-byte aligned pointer", "misaligned");
  DeviceScope scope(device_);
  launch_fp8_tma_act(fd::RunArgs{A, SA, W, SW, nullptr, 0, offsets, kernels_->tile_counter}, act, I,
                     static_cast<uint8_t*>(aq), sa_out,
                     num_groups_, N_, K_, total_rows_upper_bound, narrow, stream);
}

void GroupedGemmFp8Blockwise::run_kernel(int kernel, const void* A, const float* SA, const void* W, const float* SW,
                                         void* D, int64_t ldd, const int32_t* offsets,
                                         int64_t total_rows_upper_bound, cudaStream_t stream) {
  if (!check_operands(A, SA, W, SW, offsets, total_rows_upper_bound)) return;
  if (!D) throw_invalid("D", "a non-null device pointer", "nullptr");
  // D's rows are stored in 16-byte vectors: 4 fp32 or 8 bf16 elements.
  const bool bf16_out = kernel == kLargeBf16Out || kernel == kTmaBf16Out || kernel == kTmaSmallBf16Out;
  const int64_t vec = bf16_out ? 8 : 4;
  if (ldd < N_ || ldd % vec != 0)
    throw_invalid("ldd", ">= N (" + std::to_string(N_) + ") and a multiple of " + std::to_string(vec) + " elements",
                  std::to_string(ldd));
  if (bf16_out && N_ % 8 != 0)
    throw_invalid("N", "a multiple of 8 for bf16 D (run_bf16_out)", std::to_string(N_));
  if (!aligned16(D)) throw_invalid("D", "a 16-byte aligned pointer", "misaligned");
  DeviceScope scope(device_);
  if (kernel >= kNumKernels) {
    launch_fp8_tma(fd::RunArgs{A, SA, W, SW, D, ldd, offsets, kernels_->tile_counter}, num_groups_, N_, K_,
                   total_rows_upper_bound, bf16_out,
                   kernel == kTmaSmallF32 || kernel == kTmaSmallBf16Out, stream);
    return;
  }
  ops_for(kernel).run(kernels_->prepared.state[kernel], fd::RunArgs{A, SA, W, SW, D, ldd, offsets}, stream);
}

}  // namespace megamoe::sm90
