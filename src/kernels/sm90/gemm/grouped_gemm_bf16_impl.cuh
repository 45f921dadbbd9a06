// The bf16 family of the CUTLASS grouped GEMM (see grouped_gemm_bf16.h): its tactic configs, its
// setup kernel, its launch form (gemm_pdl_kernel, for programmatic dependent launch) and the
// description of the setup kernel's writes for the route plan. The CUTLASS machinery is shared
// with the FP8 family: cutlass_grouped_gemm.cuh.
//
// #included by the per-tactic translation units (grouped_gemm_bf16_swapab.cu, _swapab64.cu,
// _large.cu, _large_bf16.cu), each of which instantiates exactly one CUTLASS kernel.
// Fused setup (the split backend): describe() tells the route plan's last kernel how to write the
// same arrays as the setup kernel (routing::GroupedProblemWrite), and launch() starts only the
// GEMM, optionally with programmatic dependent launch. The GEMM runs inside gemm_pdl_kernel, which
// executes griddepcontrol.wait before CUTLASS's kernel body (CUTLASS 4.2's ptr-array sm90 kernels
// have no GDC calls of their own), so launching it early is safe; without PDL the wait is a no-op.
#ifdef MEGAMOE_GG_TACTIC_TU
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include <cuda_runtime.h>

#include "kernels/sm90/common/ptx.cuh"
#include "kernels/sm90/gemm/cutlass_grouped_gemm.cuh"
#include "kernels/sm90/gemm/grouped_gemm_bf16.h"
#include "megamoe/errors.h"

namespace megamoe::sm90::grouped_gemm_detail {

using cutlass_grouped::make_ld_stride;
using cutlass_grouped::RasterOrderOptions;

// TileShape/ClusterShape: CUTLASS (M, N, K) tile and cluster. kSwapAB: GEMM M = the weight rows
// (N_out), GEMM N = the group's activation rows, D^T written column-major (= D row-major).
// kPingpong: the two consumer warpgroups take alternate tiles (tile M = 64 per warpgroup..) instead
// of splitting one tile (cooperative, tile M >= 128).
// ElementD: float (fp32 D) or cutlass::bfloat16_t (D = bf16(acc), round to nearest even).
// kActEpilogue: FC1 with the activation in the epilogue (act_epilogue.cuh): D is bf16 a [rows, I]
// (W13 gate/up interleaved when gated), written from registers.
template <class TileShape_, class ClusterShape_, bool kSwapAB_, RasterOrderOptions kRaster_, bool kPingpong_ = false,
          class ElementD_ = float, bool kActEpilogue_ = false>
struct TacticConfig {
  using ElementD = std::conditional_t<kActEpilogue_, cutlass::bfloat16_t, ElementD_>;
  static constexpr bool kActEpilogue = kActEpilogue_;
  using TileShape = TileShape_;
  using ClusterShape = ClusterShape_;
  static constexpr bool kSwapAB = kSwapAB_;
  static constexpr RasterOrderOptions kRaster = kRaster_;
  static constexpr bool kPingpong = kPingpong_;
  using KernelSchedule = std::conditional_t<kPingpong_, cutlass::gemm::KernelPtrArrayTmaWarpSpecializedPingpong,
                                            cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative>;
  using EpilogueSchedule = std::conditional_t<
      kActEpilogue_, cutlass::epilogue::PtrArrayNoSmemWarpSpecialized,
      std::conditional_t<kPingpong_, cutlass::epilogue::PtrArrayTmaWarpSpecializedPingpong,
                         cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative>>;
};

template <class Shape, class StrideA, class StrideB, class StrideD, bool kSwapAB, class ElementD>
__global__ void grouped_gemm_setup_kernel(int num_groups, int64_t N, int64_t K, RunArgs args, Shape* shapes,
                                          const cutlass::bfloat16_t** ptr_a, const cutlass::bfloat16_t** ptr_b,
                                          ElementD** ptr_d, StrideA* stride_a, StrideB* stride_b,
                                          StrideD* stride_d) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_groups) return;
  const int64_t lo = args.offsets[g];
  const int64_t hi = args.offsets[g + 1];
  const int rows = hi > lo ? int(hi - lo) : 0;  // a malformed (decreasing) range becomes empty
  const auto* a_rows = static_cast<const cutlass::bfloat16_t*>(args.A) + lo * args.lda;
  const auto* w_g = static_cast<const cutlass::bfloat16_t*>(args.W) + int64_t(g) * N * K;
  ElementD* d_rows = static_cast<ElementD*>(args.D) + lo * args.ldd;
  if constexpr (kSwapAB) {
    // D^T[N_out, rows] = W_g[N_out, K] . A_g[rows, K]^T
    shapes[g] = cute::make_shape(int(N), rows, int(K));
    ptr_a[g] = w_g;
    stride_a[g] = make_ld_stride<StrideA>(K);
    ptr_b[g] = a_rows;
    stride_b[g] = make_ld_stride<StrideB>(args.lda);
  } else {
    // D[rows, N_out] = A_g[rows, K] . W_g[N_out, K]^T
    shapes[g] = cute::make_shape(rows, int(N), int(K));
    ptr_a[g] = a_rows;
    stride_a[g] = make_ld_stride<StrideA>(args.lda);
    ptr_b[g] = w_g;
    stride_b[g] = make_ld_stride<StrideB>(K);
  }
  ptr_d[g] = d_rows;
  stride_d[g] = make_ld_stride<StrideD>(args.ldd);
}

// cutlass::device_kernel<GemmKernel> with griddepcontrol.wait first (see the top of this file).
// early_trigger: griddepcontrol.launch_dependents right after the wait (the next kernel may launch
// while this GEMM runs); otherwise the next kernel launches when this grid's blocks exit.
template <class GemmKernel>
__global__ void __launch_bounds__(GemmKernel::MaxThreadsPerBlock, GemmKernel::MinBlocksPerMultiprocessor)
    gemm_pdl_kernel(CUTLASS_GRID_CONSTANT typename GemmKernel::Params const params, int early_trigger) {
  extern __shared__ char smem[];
  ptx::griddep_wait();
  if (early_trigger) ptx::griddep_launch_dependents();
  GemmKernel op;
  op(params, smem);
}

struct Bf16Family {
  using Element = cutlass::bfloat16_t;
  static constexpr bool kScaled = false;
  static constexpr const char* kName = "grouped_gemm_bf16";
  using RunArgs = grouped_gemm_detail::RunArgs;
  template <class LayoutA, class LayoutB, class Cfg>
  struct Mainloop {
    using MainloopLayoutA = LayoutA*;
    using MainloopLayoutB = LayoutB*;
  };

  template <class Impl>
  static void setup(const typename Impl::State& st, const RunArgs& args, cudaStream_t stream) {
    constexpr int kSetupThreads = 128;
    const auto& a = st.arrays;
    grouped_gemm_setup_kernel<typename Impl::Shape, typename Impl::StrideA, typename Impl::StrideB,
                              typename Impl::StrideD, Impl::Cfg::kSwapAB, typename Impl::ElementD>
        <<<(st.num_groups + kSetupThreads - 1) / kSetupThreads, kSetupThreads, 0, stream>>>(
            st.num_groups, st.N, st.K, args, a.shapes, a.ptr_a, a.ptr_b, a.ptr_d, a.stride_a, a.stride_b,
            a.stride_d);
  }
  template <class GemmKernel>
  static auto kernel() {
    return gemm_pdl_kernel<GemmKernel>;
  }
  template <class GemmKernel>
  static cudaError_t launch_kernel(const cudaLaunchConfig_t& cfg, const typename GemmKernel::Params& params,
                                   bool early_trigger) {
    return cudaLaunchKernelEx(&cfg, gemm_pdl_kernel<GemmKernel>, params, int(early_trigger));
  }
};

template <class Cfg>
struct GroupedGemmTacticImpl : cutlass_grouped::GroupedGemm<Bf16Family, Cfg> {
  using Base = cutlass_grouped::GroupedGemm<Bf16Family, Cfg>;
  using typename Base::Arrays;
  using typename Base::Element;
  using typename Base::ElementD;
  using typename Base::Shape;
  using typename Base::State;
  using typename Base::StrideA;
  using typename Base::StrideB;
  using typename Base::StrideD;

  // What grouped_gemm_setup_kernel would write, as a description for the route plan kernel.
  static void describe(void* state, const RunArgs& args, routing::GroupedProblemWrite* out) {
    static_assert(sizeof(Shape) == 3 * sizeof(int32_t), "problem shape is not three packed ints");
    static_assert(sizeof(StrideA) <= 16 && sizeof(StrideB) <= 16 && sizeof(StrideD) <= 16 &&
                      sizeof(StrideA) % 4 == 0 && sizeof(StrideB) % 4 == 0 && sizeof(StrideD) % 4 == 0,
                  "stride records must be 4..16 bytes");
    auto* st = static_cast<State*>(state);
    const Arrays& a = st->arrays;
    routing::GroupedProblemWrite w{};
    // Layout check of the packed shape (host): {1, 2, 3} must read back as ints 1, 2, 3.
    {
      const Shape probe = cute::make_shape(1, 2, 3);
      int32_t ints[3];
      std::memcpy(ints, &probe, sizeof ints);
      if (ints[0] != 1 || ints[1] != 2 || ints[2] != 3)
        throw Unsupported("grouped_gemm_bf16: unexpected CuTe problem-shape layout; use run() instead");
    }
    w.shapes = reinterpret_cast<int32_t*>(a.shapes);
    const int rows_slot = Cfg::kSwapAB ? 1 : 0;
    w.shape[0] = Cfg::kSwapAB ? int(st->N) : 0;
    w.shape[1] = Cfg::kSwapAB ? 0 : int(st->N);
    w.shape[2] = int(st->K);
    w.rows_slot = rows_slot;
    const auto** ptr_w = reinterpret_cast<const void**>(Cfg::kSwapAB ? a.ptr_a : a.ptr_b);
    const auto** ptr_x = reinterpret_cast<const void**>(Cfg::kSwapAB ? a.ptr_b : a.ptr_a);
    w.ptr_w = ptr_w;
    w.w = static_cast<const char*>(args.W);
    w.w_group_bytes = st->N * st->K * int64_t(sizeof(Element));
    w.ptr_x = ptr_x;
    w.x = static_cast<const char*>(args.A);
    w.x_row_bytes = args.lda * int64_t(sizeof(Element));
    w.ptr_d = reinterpret_cast<void**>(a.ptr_d);
    w.d = static_cast<char*>(args.D);
    w.d_row_bytes = args.ldd * int64_t(sizeof(ElementD));
    auto put = [&](int j, auto* arr, auto value) {
      w.stride_ptr[j] = reinterpret_cast<unsigned char*>(arr);
      w.stride_bytes[j] = int32_t(sizeof(value));
      std::memcpy(w.stride_value[j], &value, sizeof(value));
    };
    if constexpr (Cfg::kSwapAB) {
      put(0, a.stride_a, make_ld_stride<StrideA>(st->K));
      put(1, a.stride_b, make_ld_stride<StrideB>(args.lda));
    } else {
      put(0, a.stride_a, make_ld_stride<StrideA>(args.lda));
      put(1, a.stride_b, make_ld_stride<StrideB>(st->K));
    }
    put(2, a.stride_d, make_ld_stride<StrideD>(args.ldd));
    *out = w;
  }

  static const TacticOps& ops() {
    static const TacticOps o{&Base::workspace_bytes, &Base::create, &Base::destroy, &Base::run, &Base::launch,
                             &describe, &Base::set_act};
    return o;
  }
};

}  // namespace megamoe::sm90::grouped_gemm_detail

#endif  // MEGAMOE_GG_TACTIC_TU
