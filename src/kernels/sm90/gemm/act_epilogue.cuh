// FC1's activation in the grouped GEMM's epilogue (CUTLASS operator-style collective epilogue for
// the sm90 ptr-array kernels, wrapped in Sm90TmaWarpSpecializedAdapter like CUTLASS's own
// register-to-global "NoSmem" epilogue). For each group l (local expert) and each accumulator:
//
//   h = acc + b13[l, canonical column]                  (b13 optional; alpha13 is 1 for bf16)
//   gated:  a[row, j] = bf16(act(h[gate j], h[up j]))    relu2:  a[row, j] = bf16(relu(h[j])^2)
//
// written straight from registers into bf16 a [rows, I] (row stride ld = the group's D stride).
// The arithmetic is the activation kernel's (activation.cu: the same act_fn, the bias added the
// same way to the same fp32 accumulators), so a is bit for bit what FC1 -> fp32 h -> activation
// gives; no FP32 h is written.
//
// Gated FC1 needs W13 in the gate/up interleaved layout (common/gate_up_layout.h): the thread that
// holds the gate accumulator of output j holds its up accumulator too --
//   D = x . W13^T  (kSwapAB false): columns n and n + 8, i.e. n-blocks 2b and 2b + 1 of the wgmma
//                  accumulator fragment ((2 cols, 2 row halves, N/8 blocks), MMA_M, MMA_N);
//   D^T = W13 . x^T (kSwapAB true): rows r and r + 8, the fragment's two row halves.
// Both need the tile's origin on a multiple of 16 along the W13 dimension (every tile is).
// Stores: 4 bytes (two adjacent columns of a) without swap-AB, 2 bytes with it (the few tokens
// of a decode tile sit in different rows of a).
#pragma once
#include <cmath>
#include <type_traits>

#include <cuda_bf16.h>

#include "cute/tensor.hpp"
#include "cutlass/epilogue/collective/detail.hpp"
#include "cutlass/epilogue/dispatch_policy.hpp"

#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/gemm/act_epilogue_args.h"
#include "kernels/sm90/moe/activation_math.cuh"
#include "megamoe/config.h"

namespace megamoe::sm90::cutlass_grouped {

using sm90::ActEpilogueArgs;

// StrideD_: the ptr-array stride type (a pointer to a rank-3 CuTe stride), RowMajor D without
// swap-AB, ColumnMajor D^T (= row-major a) with it.
template <bool kSwapAB, class StrideD_>
class ActEpilogueArray {
 public:
  using EpilogueSchedule = cutlass::epilogue::PtrArrayNoSmemWarpSpecialized;
  using DispatchPolicy = EpilogueSchedule;
  using ElementAccumulator = float;
  using ElementCompute = float;
  using ElementScalar = float;
  using ElementOutput = cutlass::bfloat16_t;
  using ElementC = void;  // no source operand
  using ElementD = cutlass::bfloat16_t;
  using StrideC = StrideD_;
  using StrideD = StrideD_;
  using InternalStrideC = cute::remove_pointer_t<StrideC>;
  using InternalStrideD = cute::remove_pointer_t<StrideD>;
  using GmemElementC = ElementD;
  using GmemTiledCopyC = void;
  using GmemTiledCopyD = void;
  static_assert(cute::rank(InternalStrideD{}) == 3, "StrideD must be rank-3: [M, N, L]");

  struct SharedStorage {};
  using TensorMapStorage = SharedStorage;

  struct Arguments {
    ActEpilogueArgs act{};
    ElementD** ptr_D = nullptr;  // per group: a's first row of the group
    StrideD dD{};                // per group: a's row stride (the dynamic mode)
  };
  using Params = Arguments;

  template <class ProblemShape>
  static constexpr Params to_underlying_arguments(ProblemShape const&, Arguments const& args, void*) {
    return args;
  }
  template <class ProblemShape>
  static size_t get_workspace_size(ProblemShape const&, Arguments const&, int) {
    return 0;
  }
  template <class ProblemShape>
  static cutlass::Status initialize_workspace(ProblemShape const&, Arguments const&, void*, cudaStream_t,
                                              cutlass::CudaHostAdapter* = nullptr) {
    return cutlass::Status::kSuccess;
  }
  template <class ProblemShape>
  static bool can_implement(ProblemShape const&, Arguments const&) {
    return true;
  }

  CUTLASS_HOST_DEVICE explicit ActEpilogueArray(Params const& p) : params(p) {}
  CUTLASS_DEVICE bool is_source_needed() { return false; }

  template <class ProblemShapeMNKL, class BlockShapeMNK, class BlockCoordMNKL, class FrgEngine, class FrgLayout,
            class TiledMma, class ResidueMNK>
  CUTLASS_DEVICE void operator()(ProblemShapeMNKL problem_shape_mnkl, BlockShapeMNK blk_shape_MNK,
                                 BlockCoordMNKL blk_coord_mnkl, cute::Tensor<FrgEngine, FrgLayout> const& acc,
                                 TiledMma tiled_mma, ResidueMNK, int thread_idx, char*) {
    switch (params.act.activation) {
      case Activation::kSwiGLU:
        store<Activation::kSwiGLU>(problem_shape_mnkl, blk_shape_MNK, blk_coord_mnkl, acc, tiled_mma, thread_idx);
        break;
      case Activation::kSwiGLUOAI:
        store<Activation::kSwiGLUOAI>(problem_shape_mnkl, blk_shape_MNK, blk_coord_mnkl, acc, tiled_mma, thread_idx);
        break;
      case Activation::kGeGLU:
        store<Activation::kGeGLU>(problem_shape_mnkl, blk_shape_MNK, blk_coord_mnkl, acc, tiled_mma, thread_idx);
        break;
      case Activation::kReLU2:
        store<Activation::kReLU2>(problem_shape_mnkl, blk_shape_MNK, blk_coord_mnkl, acc, tiled_mma, thread_idx);
        break;
    }
  }

 private:
  Params params;

  template <Activation kAct, class ProblemShapeMNKL, class BlockShapeMNK, class BlockCoordMNKL, class FrgEngine,
            class FrgLayout, class TiledMma>
  CUTLASS_DEVICE void store(ProblemShapeMNKL problem_shape_mnkl, BlockShapeMNK blk_shape_MNK,
                            BlockCoordMNKL blk_coord_mnkl, cute::Tensor<FrgEngine, FrgLayout> const& acc,
                            TiledMma tiled_mma, int thread_idx) {
    using namespace cute;
    constexpr bool kGated = kAct != Activation::kReLU2;
    // The wgmma accumulator fragment: ((2 adjacent columns, 2 row halves 8 apart, N/8 column
    // blocks), MMA_M, MMA_N).
    static_assert(decltype(rank(FrgLayout{}))::value == 3 && decltype(rank<0>(FrgLayout{}))::value == 3,
                  "act epilogue: expects the wgmma accumulator layout ((2,2,N/8),M,N)");
    static_assert(decltype(size<0, 0>(FrgLayout{}))::value == 2 && decltype(size<0, 1>(FrgLayout{}))::value == 2,
                  "act epilogue: expects 2 columns x 2 row halves per 8x8 accumulator block");
    constexpr int kNB = decltype(size<0, 2>(FrgLayout{}))::value;
    constexpr int kMM = decltype(size<1>(FrgLayout{}))::value;
    constexpr int kMN = decltype(size<2>(FrgLayout{}))::value;
    static_assert(kSwapAB || !kGated || kNB % 2 == 0, "act epilogue: gate/up column blocks come in pairs");

    const int M = int(get<0>(problem_shape_mnkl)), N = int(get<1>(problem_shape_mnkl));
    const auto m_coord = get<0>(blk_coord_mnkl), n_coord = get<1>(blk_coord_mnkl);
    const int l = int(get<3>(blk_coord_mnkl));
    const InternalStrideD sd = params.dD[l];
    const int64_t ld = kSwapAB ? int64_t(get<1>(sd)) : int64_t(get<0>(sd));
    __nv_bfloat16* out = reinterpret_cast<__nv_bfloat16*>(params.ptr_D[l]);
    const int n13 = kSwapAB ? M : N;  // FC1's output width (2I gated, I relu2)
    const int I = kGated ? n13 / 2 : n13;
    const float* bias = params.act.b13 ? params.act.b13 + int64_t(l) * n13 : nullptr;
    const float limit = params.act.limit, alpha = params.act.alpha;

    Tensor cD = make_identity_tensor(make_shape(M, N));
    Tensor cD_tile = local_tile(cD, take<0, 2>(blk_shape_MNK), make_coord(m_coord, n_coord));
    auto thr_mma = tiled_mma.get_thread_slice(thread_idx);
    Tensor tCcD = thr_mma.partition_C(cD_tile);

    // a at (token row t, column j) from gate value g and up value u (h before the bias).
    auto act_at = [&](int j, float g, float u) {
      if (bias) {
        g += __ldg(bias + j);
        if constexpr (kGated) u += __ldg(bias + I + j);
      }
      return __float2bfloat16_rn(act::act_fn<kAct>(g, u, limit, alpha));
    };

    CUTLASS_PRAGMA_UNROLL
    for (int mi = 0; mi < kMM; ++mi) {
      CUTLASS_PRAGMA_UNROLL
      for (int ni = 0; ni < kMN; ++ni) {
        if constexpr (!kSwapAB) {
          // Rows are tokens, columns W13 rows: both columns of a pair at once (one 4-byte store).
          constexpr int kStep = kGated ? 2 : 1;  // gated: block 2b is gate, 2b + 1 its up
          CUTLASS_PRAGMA_UNROLL
          for (int nb = 0; nb < kNB; nb += kStep) {
            CUTLASS_PRAGMA_UNROLL
            for (int hh = 0; hh < 2; ++hh) {
              const auto crd = tCcD(make_coord(0, hh, nb), mi, ni);
              const int m = get<0>(crd), n = get<1>(crd);
              if (m >= M || n >= N) continue;
              const int j = kGated ? int(gate_up::output_col(n)) : n;
              const float u0 = kGated ? acc(make_coord(0, hh, nb + 1), mi, ni) : 0.0f;
              const float u1 = kGated ? acc(make_coord(1, hh, nb + 1), mi, ni) : 0.0f;
              __nv_bfloat162 v;
              v.x = act_at(j, acc(make_coord(0, hh, nb), mi, ni), u0);
              v.y = act_at(j + 1, acc(make_coord(1, hh, nb), mi, ni), u1);
              *reinterpret_cast<__nv_bfloat162*>(out + int64_t(m) * ld + j) = v;
            }
          }
        } else {
          // Rows are W13 rows, columns tokens: gated, row half 0 is gate and half 1 its up.
          constexpr int kHalves = kGated ? 1 : 2;
          CUTLASS_PRAGMA_UNROLL
          for (int nb = 0; nb < kNB; ++nb) {
            CUTLASS_PRAGMA_UNROLL
            for (int hh = 0; hh < kHalves; ++hh) {
              CUTLASS_PRAGMA_UNROLL
              for (int c = 0; c < 2; ++c) {
                const auto crd = tCcD(make_coord(c, hh, nb), mi, ni);
                const int m = get<0>(crd), t = get<1>(crd);
                if (m >= M || t >= N) continue;
                const int j = kGated ? int(gate_up::output_col(m)) : m;
                const float u = kGated ? acc(make_coord(c, 1, nb), mi, ni) : 0.0f;
                out[int64_t(t) * ld + j] = act_at(j, acc(make_coord(c, hh, nb), mi, ni), u);
              }
            }
          }
        }
      }
    }
  }
};

// The collective epilogue the GEMM kernel gets.
template <bool kSwapAB, class StrideD>
using ActCollectiveEpilogue =
    cutlass::epilogue::collective::detail::Sm90TmaWarpSpecializedAdapter<ActEpilogueArray<kSwapAB, StrideD>>;

}  // namespace megamoe::sm90::cutlass_grouped
