// Dispatcher of the grouped bf16 GEMM (see grouped_gemm_bf16.h): owns the device workspace and
// one prepared CUTLASS kernel per tactic; the kernels themselves live in
// grouped_gemm_bf16_swapab.cu, grouped_gemm_bf16_swapab64.cu, grouped_gemm_bf16_large.cu and
// grouped_gemm_bf16_large_bf16.cu, and with the activation epilogue grouped_gemm_bf16_*_act.cu
// (shared code: grouped_gemm_bf16_impl.cuh).
// This translation unit includes no CUTLASS header.
#include "kernels/sm90/gemm/grouped_gemm_bf16.h"

#include <cstdint>
#include <string>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/gemm/grouped_gemm_dispatch.h"
#include "megamoe/errors.h"

namespace megamoe::sm90 {

namespace gd = grouped_gemm_detail;

namespace {

constexpr const char* kWho = "grouped_gemm_bf16";
struct DeviceScope : cu::DeviceGuard {
  explicit DeviceScope(int device) : cu::DeviceGuard(kWho, device) {}
};
bool aligned16(const void* p) { return cu::aligned(p, 16); }  // TMA's base-address alignment

// The CUTLASS kernels: kSwapAB has two (32- and 64-wide token tiles), kLargeTile one with fp32 D
// and two with bf16 D (cooperative, and ping-pong for K <= kPingpongMaxK); with the activation
// epilogue one per token-tile width and one large.
enum Kernel : int {
  kSwap32 = 0,
  kSwap64 = 1,
  kLarge = 2,
  kLargeBf16 = 3,
  kSwap32Act = 4,
  kSwap64Act = 5,
  kLargeAct = 6,
  kLargeBf16Pingpong = 7,
  kNumKernels = 8
};

const gd::TacticOps& ops_for(int kernel) {
  switch (kernel) {
    case kSwap32: return gd::swapab32_ops();
    case kSwap64: return gd::swapab64_ops();
    case kLargeBf16: return gd::large_bf16_ops();
    case kSwap32Act: return gd::swapab32_act_ops();
    case kSwap64Act: return gd::swapab64_act_ops();
    case kLargeAct: return gd::large_act_ops();
    case kLargeBf16Pingpong: return gd::large_bf16_pingpong_ops();
    default: return gd::large_ops();
  }
}

int64_t avg_rows_per_group(int64_t total_rows_upper_bound, int num_groups) {
  return num_groups > 0 ? cu::ceil_div<int64_t>(total_rows_upper_bound, num_groups) : 0;
}

// Within kSwapAB: 32-wide token tiles up to 8 rows per group on average, 64-wide beyond. Measured
// on H200: the 32-wide tile is 7-8% faster at 1 row per group (less MMA and epilogue work per
// weight byte), the 64-wide one 8-14% faster at 16-32 rows (gpt-oss FC1; within 1% for deepseek).
// bf16 D: ping-pong 64 x 256 tiles when K <= kPingpongMaxK (a short mainloop per tile, so the
// epilogue weighs; grouped_gemm_bf16_large_bf16_pp.cu has the measurements: a clear gain at K 768,
// within run-to-run noise at K 2048), cooperative 128 x 256 otherwise.
constexpr int64_t kPingpongMaxK = 1024;

int choose_kernel(GroupedGemmTactic t, int64_t total_rows_upper_bound, int num_groups, int64_t K,
                  GroupedGemmOutput out = GroupedGemmOutput::kF32) {
  if (out == GroupedGemmOutput::kBF16) return K <= kPingpongMaxK ? kLargeBf16Pingpong : kLargeBf16;
  const bool act = out == GroupedGemmOutput::kAct;
  if (t == GroupedGemmTactic::kLargeTile) return act ? kLargeAct : kLarge;
  if (avg_rows_per_group(total_rows_upper_bound, num_groups) <= 8) return act ? kSwap32Act : kSwap32;
  return act ? kSwap64Act : kSwap64;
}

}  // namespace

struct GroupedGemmBf16::Arrays {
  gemm_dispatch::PreparedKernels<gd::TacticOps, kNumKernels> kernels;  // indexed by Kernel
};

const char* tactic_name(GroupedGemmTactic t) {
  switch (t) {
    case GroupedGemmTactic::kSwapAB: return "swap_ab_128x32|128x64";
    case GroupedGemmTactic::kLargeTile: return "large_tile_128x256";
  }
  return "unknown";
}

// Rule: swap-AB when the average rows per group, ceil(total_rows / groups), is at most 32; large
// tiles otherwise. Why: r rows per group do r FLOP per weight byte, far under the H200's ridge
// (~180 FLOP/B = ~760 TFLOP/s over ~4.2 TB/s), so at small r the GEMM is weight-bandwidth bound
// and the swap-AB kernels, whose 32/64-wide token tiles waste little MMA work, stream the weights
// fastest; a 128-row tile executes 128 rows of MMA per weight byte whatever r is. Past ~32 rows
// per group the token tiles repeat over each weight slab and their fixed costs add up, while one
// 128-row tile still covers the group in one weight pass. Measured on H200 (bench/gemm_probe.cu):
// at 32 rows per group swap-AB was 4-5% faster (deepseek FC1, gpt-oss FC1), at 64 rows the large
// tile was 2-14% faster.
GroupedGemmTactic choose_tactic(int64_t total_rows_upper_bound, int num_groups) {
  return avg_rows_per_group(total_rows_upper_bound, num_groups) <= 32 ? GroupedGemmTactic::kSwapAB
                                                                       : GroupedGemmTactic::kLargeTile;
}

GroupedGemmBf16::GroupedGemmBf16(int num_groups, int64_t N, int64_t K, int device)
    : num_groups_(num_groups), N_(N), K_(K), device_(device) {
  if (num_groups < 0) throw_invalid("num_groups", ">= 0", std::to_string(num_groups));
  if (N <= 0 || N > INT32_MAX) throw_invalid("N", "in [1, 2^31)", std::to_string(N));
  // TMA: the weight row stride (K bf16) must be a multiple of 16 bytes.
  if (K <= 0 || K > INT32_MAX || K % 8 != 0) throw_invalid("K", "a positive multiple of 8 (16-byte rows)", std::to_string(K));
  auto arrays = new Arrays{};
  try {
    arrays->kernels.create(kWho, &ops_for, num_groups, N, K, device);
  } catch (...) {
    delete arrays;
    throw;
  }
  workspace_bytes_ = arrays->kernels.workspace_bytes;
  arrays_ = arrays;
}

GroupedGemmBf16::~GroupedGemmBf16() {
  if (arrays_) {
    arrays_->kernels.release(&ops_for);
    delete arrays_;
  }
}

size_t GroupedGemmBf16::workspace_bytes() const { return workspace_bytes_; }

void GroupedGemmBf16::set_activation(const ActEpilogueArgs& act) {
  const bool gated = act.activation != Activation::kReLU2;
  if (gated && N_ % 16 != 0)
    throw_invalid("N", "a multiple of 16 for a gated activation epilogue (2I, I % 8 == 0)", std::to_string(N_));
  for (int k = kSwap32Act; k <= kLargeAct; ++k) ops_for(k).set_act(arrays_->kernels.state[k], act);
  act_set_ = true;
  act_gated_ = gated;
}

void GroupedGemmBf16::require_activation(GroupedGemmOutput out) const {
  if (out == GroupedGemmOutput::kAct && !act_set_)
    throw_invalid("out", "kF32 or kBF16 until set_activation() has described the activation", "kAct");
}

void GroupedGemmBf16::check_run_args(const void* A, int64_t lda, const void* W, const void* D, int64_t ldd,
                                     GroupedGemmTactic tactic, GroupedGemmOutput out) const {
  if (A == nullptr || W == nullptr || D == nullptr)
    throw_invalid(A == nullptr ? "A" : W == nullptr ? "W" : "D", "a non-null device pointer", "nullptr");
  // TMA needs 16-byte aligned bases and row strides.
  if (lda < K_ || lda % 8 != 0)
    throw_invalid("lda", ">= K (" + std::to_string(K_) + ") and a multiple of 8 elements", std::to_string(lda));
  require_activation(out);
  // The activation epilogue writes I = N / 2 (gated) or N (relu2) columns of a. Row strides of
  // 16 bytes: 4 fp32 or 8 bf16 elements.
  const int64_t d_cols = out == GroupedGemmOutput::kAct && act_gated_ ? N_ / 2 : N_;
  const int64_t d_align = out == GroupedGemmOutput::kF32 ? 4 : 8;
  if (ldd < d_cols || ldd % d_align != 0)
    throw_invalid("ldd", ">= " + std::to_string(d_cols) + " (the output's columns) and a multiple of " +
                             std::to_string(d_align) + " elements",
                  std::to_string(ldd));
  if (!aligned16(A)) throw_invalid("A", "a 16-byte aligned pointer", "misaligned");
  if (!aligned16(W)) throw_invalid("W", "a 16-byte aligned pointer", "misaligned");
  if (!aligned16(D)) throw_invalid("D", "a 16-byte aligned pointer", "misaligned");
  if (tactic != GroupedGemmTactic::kSwapAB && tactic != GroupedGemmTactic::kLargeTile)
    throw_invalid("tactic", "kSwapAB or kLargeTile", std::to_string(int(tactic)));
}

void GroupedGemmBf16::run_with_setup(const void* A, int64_t lda, const void* W, void* D, int64_t ldd,
                                     const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream,
                                     GroupedGemmTactic tactic, GroupedGemmOutput out) {
  if (total_rows_upper_bound < 0)
    throw_invalid("total_rows_upper_bound", ">= 0", std::to_string(total_rows_upper_bound));
  if (num_groups_ == 0 || total_rows_upper_bound == 0) return;  // no row can belong to a group
  if (offsets == nullptr) throw_invalid("offsets", "a device array of G+1 int32", "nullptr");
  check_run_args(A, lda, W, D, ldd, tactic, out);
  const int kernel = choose_kernel(tactic, total_rows_upper_bound, num_groups_, K_, out);
  DeviceScope scope(device_);
  gd::RunArgs args{A, lda, W, D, ldd, offsets};
  ops_for(kernel).run(arrays_->kernels.state[kernel], args, stream);
}

void GroupedGemmBf16::run(const void* A, int64_t lda, const void* W, float* D, int64_t ldd,
                          const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream,
                          GroupedGemmTactic tactic) {
  run_with_setup(A, lda, W, D, ldd, offsets, total_rows_upper_bound, stream, tactic, GroupedGemmOutput::kF32);
}

void GroupedGemmBf16::run_act(const void* A, int64_t lda, const void* W, void* a, int64_t lda_out,
                              const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream,
                              GroupedGemmTactic tactic) {
  run_with_setup(A, lda, W, a, lda_out, offsets, total_rows_upper_bound, stream, tactic, GroupedGemmOutput::kAct);
}

void GroupedGemmBf16::run_bf16_out(const void* A, int64_t lda, const void* W, void* D, int64_t ldd,
                                   const int32_t* offsets, int64_t total_rows_upper_bound, cudaStream_t stream) {
  run_with_setup(A, lda, W, D, ldd, offsets, total_rows_upper_bound, stream, GroupedGemmTactic::kLargeTile,
                 GroupedGemmOutput::kBF16);
}

routing::GroupedProblemWrite GroupedGemmBf16::prepare_writes(const void* A, int64_t lda, const void* W, void* D,
                                                             int64_t ldd, int64_t total_rows_upper_bound,
                                                             GroupedGemmTactic tactic, GroupedGemmOutput out) const {
  if (total_rows_upper_bound < 0)
    throw_invalid("total_rows_upper_bound", ">= 0", std::to_string(total_rows_upper_bound));
  if (num_groups_ == 0 || total_rows_upper_bound == 0) return routing::GroupedProblemWrite{};
  check_run_args(A, lda, W, D, ldd, tactic, out);
  const int kernel = choose_kernel(tactic, total_rows_upper_bound, num_groups_, K_, out);
  gd::RunArgs args{A, lda, W, D, ldd, nullptr};
  routing::GroupedProblemWrite w{};
  ops_for(kernel).describe(arrays_->kernels.state[kernel], args, &w);
  return w;
}

void GroupedGemmBf16::launch_prepared(int64_t total_rows_upper_bound, GroupedGemmTactic tactic,
                                      GroupedGemmOutput out, cudaStream_t stream, bool pdl, bool early_trigger) {
  if (total_rows_upper_bound < 0)
    throw_invalid("total_rows_upper_bound", ">= 0", std::to_string(total_rows_upper_bound));
  if (num_groups_ == 0 || total_rows_upper_bound == 0) return;
  if (tactic != GroupedGemmTactic::kSwapAB && tactic != GroupedGemmTactic::kLargeTile)
    throw_invalid("tactic", "kSwapAB or kLargeTile", std::to_string(int(tactic)));
  require_activation(out);
  const int kernel = choose_kernel(tactic, total_rows_upper_bound, num_groups_, K_, out);
  DeviceScope scope(device_);
  ops_for(kernel).launch(arrays_->kernels.state[kernel], stream, pdl, early_trigger);
}

}  // namespace megamoe::sm90
