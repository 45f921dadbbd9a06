// The FP8 blockwise-scaled family of the CUTLASS grouped GEMM (see grouped_gemm_fp8_blockwise.h):
// its tactic configs and its setup kernel, which also writes each group's scale pointers. The
// CUTLASS machinery is shared with the bf16 family: cutlass_grouped_gemm.cuh. #included by the
// per-tactic translation units (grouped_gemm_fp8_blockwise_swapab.cu, _large.cu), each of which
// instantiates exactly one CUTLASS kernel.
//
// The kernel: KernelPtrArrayTmaWarpSpecializedCooperativeFP8BlockScaledAccum (wgmma fp8 into a
// temporary accumulator, promoted with sa * sw every 128 K), launched as cutlass::device_kernel
// (no programmatic dependent launch). Scale loads are predicated on the group's shape (cp.async,
// one fp32 per row / per 128 rows). K and N need not be multiples of 128: the last K tile's
// columns past K are zero-filled by TMA in both operands (zero products, so the partial block's
// promotion with its own scale is exact), and the last N tile's rows past N are zero-filled on
// load and clipped on store; its weight scale is the partial block's (index N/128 rounded down,
// inside the ceil(N/128) row).
// The blockwise mainloop computes each group's scale layout from its problem shape
// (ScaleConfig::tile_atom_to_shape_SFA/SFB), so no per-group layout array is needed (the
// layout_SFA/SFB arguments are stored by CUTLASS but never read; we pass nullptr).
#pragma once
#ifdef MEGAMOE_FP8_GEMM_TACTIC_TU

#include <cstdint>

#include <cuda_runtime.h>

#include "cutlass/detail/blockwise_scale_layout.hpp"
#include "kernels/sm90/gemm/cutlass_grouped_gemm.cuh"
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"

namespace megamoe::sm90::fp8_gemm_detail {

using cutlass_grouped::make_ld_stride;
using cutlass_grouped::RasterOrderOptions;

constexpr int kScaleBlock = 128;  // fp8_block: 128x128 weight blocks, 1x128 activation groups

// kSwapAB: GEMM M = the weight rows (N_out), GEMM N = the group's token rows; D^T is written
// column-major (= D row-major). Scales: weights 128 x 128 in (M, K), activations 1 x 128 in (N, K).
// Otherwise GEMM M = token rows (scales 1 x 128), GEMM N = weight rows (scales 128 x 128).
// ElementD_: fp32 D, or bf16 (FC2's y when no bias is added before the rounding: the TMA
// epilogue rounds the fp32 accumulator to nearest, so bf16 D == bf16(fp32 D) bit for bit).
template <class TileShape_, bool kSwapAB_, RasterOrderOptions kRaster_, class ElementD_ = float>
struct Fp8TacticConfig {
  using TileShape = TileShape_;
  using ClusterShape = cute::Shape<cute::_1, cute::_1, cute::_1>;
  using ElementD = ElementD_;
  using KernelSchedule = cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperativeFP8BlockScaledAccum;
  using EpilogueSchedule = cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative;
  static constexpr bool kSwapAB = kSwapAB_;
  static constexpr RasterOrderOptions kRaster = kRaster_;
  static constexpr int kScaleM = kSwapAB_ ? kScaleBlock : 1;
  static constexpr int kScaleN = kSwapAB_ ? 1 : kScaleBlock;
  static constexpr bool kActEpilogue = false;  // D = fp32 h (the activation kernel quantizes a)
};

template <class Shape, class StrideA, class StrideB, class StrideD, class ElementD, bool kSwapAB>
__global__ void fp8_grouped_gemm_setup_kernel(int num_groups, int64_t N, int64_t K, RunArgs args, Shape* shapes,
                                              const cutlass::float_e4m3_t** ptr_a, const cutlass::float_e4m3_t** ptr_b,
                                              const float** ptr_sfa, const float** ptr_sfb, ElementD** ptr_d,
                                              StrideA* stride_a, StrideB* stride_b, StrideD* stride_d) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_groups) return;
  const int64_t lo = args.offsets[g];
  const int64_t hi = args.offsets[g + 1];
  const int rows = hi > lo ? int(hi - lo) : 0;  // a malformed (decreasing) range becomes empty
  // Scale blocks per row / per weight slab: a partial last 128-block (K or N not a multiple of 128)
  // has a scale of its own, so the counts round up (the layouts the mainloop derives from the
  // group's shape, ScaleConfig::tile_atom_to_shape_SFA/SFB, use the same ceil_div).
  const int64_t KB = cu::ceil_div<int64_t>(K, kScaleBlock), NB = cu::ceil_div<int64_t>(N, kScaleBlock);
  const auto* a_rows = static_cast<const cutlass::float_e4m3_t*>(args.A) + lo * K;
  const auto* w_g = static_cast<const cutlass::float_e4m3_t*>(args.W) + int64_t(g) * N * K;
  const float* sa_rows = args.SA + lo * KB;
  const float* sw_g = args.SW + int64_t(g) * KB * NB;
  if constexpr (kSwapAB) {
    // D^T[N_out, rows] = W_g[N_out, K] . A_g[rows, K]^T
    shapes[g] = cute::make_shape(int(N), rows, int(K));
    ptr_a[g] = w_g;
    stride_a[g] = make_ld_stride<StrideA>(K);
    ptr_sfa[g] = sw_g;
    ptr_b[g] = a_rows;
    stride_b[g] = make_ld_stride<StrideB>(K);
    ptr_sfb[g] = sa_rows;
  } else {
    // D[rows, N_out] = A_g[rows, K] . W_g[N_out, K]^T
    shapes[g] = cute::make_shape(rows, int(N), int(K));
    ptr_a[g] = a_rows;
    stride_a[g] = make_ld_stride<StrideA>(K);
    ptr_sfa[g] = sa_rows;
    ptr_b[g] = w_g;
    stride_b[g] = make_ld_stride<StrideB>(K);
    ptr_sfb[g] = sw_g;
  }
  ptr_d[g] = static_cast<ElementD*>(args.D) + lo * args.ldd;
  stride_d[g] = make_ld_stride<StrideD>(args.ldd);
}

struct Fp8Family {
  using Element = cutlass::float_e4m3_t;
  static constexpr bool kScaled = true;
  static constexpr const char* kName = "grouped_gemm_fp8_blockwise";
  using RunArgs = fp8_gemm_detail::RunArgs;
  // A and B come with their scale layouts (Sm90's blockwise scales, MN-major).
  template <class LayoutA, class LayoutB, class Cfg>
  struct Mainloop {
    using ScaleConfig = cutlass::detail::Sm90BlockwiseScaleConfig<Cfg::kScaleM, Cfg::kScaleN, kScaleBlock>;
    using LayoutSFA = decltype(ScaleConfig::deduce_layoutSFA());
    using LayoutSFB = decltype(ScaleConfig::deduce_layoutSFB());
    using MainloopLayoutA = cute::tuple<LayoutA*, LayoutSFA*>;
    using MainloopLayoutB = cute::tuple<LayoutB*, LayoutSFB*>;
  };

  template <class Impl>
  static void setup(const typename Impl::State& st, const RunArgs& args, cudaStream_t stream) {
    constexpr int kSetupThreads = 128;
    const auto& a = st.arrays;
    fp8_grouped_gemm_setup_kernel<typename Impl::Shape, typename Impl::StrideA, typename Impl::StrideB,
                                  typename Impl::StrideD, typename Impl::ElementD, Impl::Cfg::kSwapAB>
        <<<(st.num_groups + kSetupThreads - 1) / kSetupThreads, kSetupThreads, 0, stream>>>(
            st.num_groups, st.N, st.K, args, a.shapes, a.ptr_a, a.ptr_b, a.ptr_sfa, a.ptr_sfb, a.ptr_d,
            a.stride_a, a.stride_b, a.stride_d);
  }
  template <class GemmKernel>
  static auto kernel() {
    return cutlass::device_kernel<GemmKernel>;
  }
  // No PDL form: the FP8 GEMM is always launched plainly (early_trigger has no meaning here).
  template <class GemmKernel>
  static cudaError_t launch_kernel(const cudaLaunchConfig_t& cfg, const typename GemmKernel::Params& params,
                                   bool /*early_trigger*/) {
    return cudaLaunchKernelEx(&cfg, cutlass::device_kernel<GemmKernel>, params);
  }
};

template <class Cfg>
struct Fp8GroupedGemmImpl : cutlass_grouped::GroupedGemm<Fp8Family, Cfg> {
  using Base = cutlass_grouped::GroupedGemm<Fp8Family, Cfg>;
  static const TacticOps& ops() {
    static const TacticOps o{&Base::workspace_bytes, &Base::create, &Base::destroy, &Base::run};
    return o;
  }
};

}  // namespace megamoe::sm90::fp8_gemm_detail

#endif  // MEGAMOE_FP8_GEMM_TACTIC_TU
