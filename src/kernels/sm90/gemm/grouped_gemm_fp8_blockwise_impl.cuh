// Shared CUTLASS 3.x machinery of the grouped FP8 blockwise-scaled GEMM tactics (see
// grouped_gemm_fp8_blockwise.h). #included by the per-tactic translation units
// (grouped_gemm_fp8_blockwise_swapab.cu, grouped_gemm_fp8_blockwise_large.cu), each of which
// instantiates exactly one CUTLASS kernel; compiled on its own (the CMake glob takes every .cu
// here, this is a .cuh so it is not) it would be empty.
//
// How a run works (all on the caller's stream, nothing allocated, graph-capturable):
//   1. setup kernel: one thread per group reads offsets[g], offsets[g+1] (written earlier in the
//      same stream) and writes the group's problem shape, A/B/D pointers, strides and the
//      pointers to its scale slices into arrays in our workspace;
//   2. the CUTLASS ptr-array grouped kernel (KernelPtrArrayTmaWarpSpecializedCooperativeFP8-
//      BlockScaledAccum, persistent group scheduler) reads the shapes from device memory only
//      (host problem shapes = nullptr). Empty groups have no tiles. TMA zero-fills loads past a
//      group's rows and clips the stores, so rows outside [offsets[0], offsets[G]) stay untouched.
//      Scale loads are predicated on the group's shape (cp.async, one fp32 per row / per 128 rows).
//      K and N need not be multiples of 128: the last K tile's columns past K are zero-filled by
//      TMA in both operands (zero products, so the partial block's promotion with its own scale is
//      exact), and the last N tile's rows past N are zero-filled on load and clipped on store; its
//      weight scale is the partial block's (index N/128 rounded down, inside the ceil(N/128) row).
// The blockwise mainloop computes each group's scale layout from its problem shape
// (ScaleConfig::tile_atom_to_shape_SFA/SFB), so no per-group layout array is needed (the
// layout_SFA/SFB arguments are stored by CUTLASS but never read; we pass nullptr).
// Kernel parameters (TMA descriptor templates, pointers to our arrays) do not depend on the data,
// so they are built once at construction; run() launches with cudaLaunchKernelEx directly.
#pragma once
#ifdef MEGAMOE_FP8_GEMM_TACTIC_TU

#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/detail/blockwise_scale_layout.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/group_array_problem_shape.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "megamoe/errors.h"

#if !defined(CUTLASS_ARCH_MMA_MODIFIABLE_TMA_SM90_SUPPORTED)
#error "the grouped FP8 GEMM needs CUTLASS's modifiable-TMA sm90 support (CUDA >= 12.3, sm_90a)"
#endif

namespace megamoe::sm90::fp8_gemm_detail {

using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;

// kSwapAB: GEMM M = the weight rows (N_out), GEMM N = the group's token rows; D^T is written
// column-major (= D row-major). Scales: weights 128 x 128 in (M, K), activations 1 x 128 in (N, K).
// Otherwise GEMM M = token rows (scales 1 x 128), GEMM N = weight rows (scales 128 x 128).
template <class TileShape_, bool kSwapAB_, RasterOrderOptions kRaster_>
struct Fp8TacticConfig {
  using TileShape = TileShape_;
  using ClusterShape = cute::Shape<cute::_1, cute::_1, cute::_1>;
  static constexpr bool kSwapAB = kSwapAB_;
  static constexpr RasterOrderOptions kRaster = kRaster_;
  static constexpr int kScaleM = kSwapAB_ ? 128 : 1;
  static constexpr int kScaleN = kSwapAB_ ? 1 : 128;
};

inline void fg_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaError(std::string("grouped_gemm_fp8_blockwise: ") + what + ": " + cudaGetErrorString(e));
}

inline size_t fg_align(size_t x, size_t a) { return (x + a - 1) / a * a; }

// Sets the one dynamic (leading-dimension) mode of a rank-3 CuTe stride like Stride<int64_t,_1,_0>
// or Stride<_1,int64_t,_0>.
template <class Stride>
__device__ __forceinline__ Stride fp8_ld_stride(int64_t ld) {
  Stride s{};
  if constexpr (!cute::is_static_v<std::remove_cv_t<std::remove_reference_t<decltype(cute::get<0>(s))>>>) {
    cute::get<0>(s) = ld;
  } else {
    cute::get<1>(s) = ld;
  }
  return s;
}

template <class Shape, class StrideA, class StrideB, class StrideD, bool kSwapAB>
__global__ void fp8_grouped_gemm_setup_kernel(int num_groups, int64_t N, int64_t K, RunArgs args, Shape* shapes,
                                              const cutlass::float_e4m3_t** ptr_a, const cutlass::float_e4m3_t** ptr_b,
                                              const float** ptr_sfa, const float** ptr_sfb, float** ptr_d,
                                              StrideA* stride_a, StrideB* stride_b, StrideD* stride_d) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= num_groups) return;
  const int64_t lo = args.offsets[g];
  const int64_t hi = args.offsets[g + 1];
  const int rows = hi > lo ? int(hi - lo) : 0;  // a malformed (decreasing) range becomes empty
  // Scale blocks per row / per weight slab: a partial last 128-block (K or N not a multiple of 128)
  // has a scale of its own, so the counts round up (the layouts the mainloop derives from the
  // group's shape, ScaleConfig::tile_atom_to_shape_SFA/SFB, use the same ceil_div).
  const int64_t KB = (K + 127) / 128, NB = (N + 127) / 128;
  const auto* a_rows = static_cast<const cutlass::float_e4m3_t*>(args.A) + lo * K;
  const auto* w_g = static_cast<const cutlass::float_e4m3_t*>(args.W) + int64_t(g) * N * K;
  const float* sa_rows = args.SA + lo * KB;
  const float* sw_g = args.SW + int64_t(g) * KB * NB;
  if constexpr (kSwapAB) {
    // D^T[N_out, rows] = W_g[N_out, K] . A_g[rows, K]^T
    shapes[g] = cute::make_shape(int(N), rows, int(K));
    ptr_a[g] = w_g;
    stride_a[g] = fp8_ld_stride<StrideA>(K);
    ptr_sfa[g] = sw_g;
    ptr_b[g] = a_rows;
    stride_b[g] = fp8_ld_stride<StrideB>(K);
    ptr_sfb[g] = sa_rows;
  } else {
    // D[rows, N_out] = A_g[rows, K] . W_g[N_out, K]^T
    shapes[g] = cute::make_shape(rows, int(N), int(K));
    ptr_a[g] = a_rows;
    stride_a[g] = fp8_ld_stride<StrideA>(K);
    ptr_sfa[g] = sa_rows;
    ptr_b[g] = w_g;
    stride_b[g] = fp8_ld_stride<StrideB>(K);
    ptr_sfb[g] = sw_g;
  }
  ptr_d[g] = args.D + lo * args.ldd;
  stride_d[g] = fp8_ld_stride<StrideD>(args.ldd);
}

template <class Cfg>
struct Fp8GroupedGemmImpl {
  using TileShape = typename Cfg::TileShape;
  using ClusterShape = typename Cfg::ClusterShape;
  using ProblemShape = cutlass::gemm::GroupProblemShape<cute::Shape<int, int, int>>;
  using Shape = typename ProblemShape::UnderlyingProblemShape;
  using Element = cutlass::float_e4m3_t;
  using LayoutA = cutlass::layout::RowMajor;     // K-major
  using LayoutB = cutlass::layout::ColumnMajor;  // K-major
  using LayoutD = std::conditional_t<Cfg::kSwapAB, cutlass::layout::ColumnMajor, cutlass::layout::RowMajor>;
  static constexpr int kAlignAB = 128 / cutlass::sizeof_bits<Element>::value;  // 16 bytes
  static constexpr int kAlignD = 128 / cutlass::sizeof_bits<float>::value;

  using ScaleConfig = cutlass::detail::Sm90BlockwiseScaleConfig<Cfg::kScaleM, Cfg::kScaleN, 128>;
  using LayoutSFA = decltype(ScaleConfig::deduce_layoutSFA());
  using LayoutSFB = decltype(ScaleConfig::deduce_layoutSFB());

  using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float,
      void, LayoutD*, kAlignD,   // no C operand
      float, LayoutD*, kAlignD,  // fp32 D
      cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative,
      cutlass::epilogue::fusion::LinearCombination<float, float, void, float>>::CollectiveOp;

  using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Element, cute::tuple<LayoutA*, LayoutSFA*>, kAlignAB,
      Element, cute::tuple<LayoutB*, LayoutSFB*>, kAlignAB, float, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
          sizeof(typename CollectiveEpilogue::SharedStorage))>,
      cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperativeFP8BlockScaledAccum>::CollectiveOp;

  using GemmKernel = cutlass::gemm::kernel::GemmUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>;
  using Arguments = typename GemmKernel::Arguments;
  using Params = typename GemmKernel::Params;
  using StrideA = typename GemmKernel::InternalStrideA;
  using StrideB = typename GemmKernel::InternalStrideB;
  using StrideD = typename GemmKernel::InternalStrideD;

  struct Arrays {
    Shape* shapes;
    const Element** ptr_a;
    const Element** ptr_b;
    const float** ptr_sfa;
    const float** ptr_sfb;
    float** ptr_d;
    StrideA* stride_a;
    StrideB* stride_b;
    StrideD* stride_d;
    void* cutlass_workspace;
  };

  struct State {
    int num_groups;
    int64_t N, K;
    Arrays arrays;
    Params params;
    dim3 grid, block;
    int smem_bytes;
  };

  static constexpr size_t kAlign = 256;

  static Arguments make_arguments(int num_groups, int device, int sm_count, const Arrays& a) {
    Arguments args{};
    args.mode = cutlass::gemm::GemmUniversalMode::kGrouped;
    args.problem_shape = ProblemShape{num_groups, a.shapes, nullptr};  // shapes on the device only
    args.mainloop.ptr_A = a.ptr_a;
    args.mainloop.dA = a.stride_a;
    args.mainloop.ptr_B = a.ptr_b;
    args.mainloop.dB = a.stride_b;
    args.mainloop.ptr_SFA = a.ptr_sfa;
    args.mainloop.layout_SFA = nullptr;  // derived from each group's shape inside the kernel
    args.mainloop.ptr_SFB = a.ptr_sfb;
    args.mainloop.layout_SFB = nullptr;
    auto& fusion = args.epilogue.thread;
    fusion.alpha = 1.0f;
    fusion.beta = 0.0f;
    fusion.alpha_ptr = nullptr;
    fusion.beta_ptr = nullptr;
    fusion.alpha_ptr_array = nullptr;
    fusion.beta_ptr_array = nullptr;
    args.epilogue.ptr_C = nullptr;
    args.epilogue.dC = nullptr;
    args.epilogue.ptr_D = a.ptr_d;
    args.epilogue.dD = a.stride_d;
    args.hw_info.device_id = device;
    args.hw_info.sm_count = sm_count;
    args.hw_info.max_active_clusters = 0;
    args.scheduler.raster_order = Cfg::kRaster;
    return args;
  }

  // [shapes | ptr_a | ptr_b | ptr_sfa | ptr_sfb | ptr_d | stride_a | stride_b | stride_d | CUTLASS workspace]
  static size_t carve(int G, int sm_count, char* base, Arrays* out) {
    size_t off = 0;
    auto take = [&](size_t bytes) {
      char* p = base ? base + off : nullptr;
      off = fg_align(off + bytes, kAlign);
      return p;
    };
    Arrays a{};
    a.shapes = reinterpret_cast<Shape*>(take(sizeof(Shape) * G));
    a.ptr_a = reinterpret_cast<const Element**>(take(sizeof(void*) * G));
    a.ptr_b = reinterpret_cast<const Element**>(take(sizeof(void*) * G));
    a.ptr_sfa = reinterpret_cast<const float**>(take(sizeof(void*) * G));
    a.ptr_sfb = reinterpret_cast<const float**>(take(sizeof(void*) * G));
    a.ptr_d = reinterpret_cast<float**>(take(sizeof(void*) * G));
    a.stride_a = reinterpret_cast<StrideA*>(take(sizeof(StrideA) * G));
    a.stride_b = reinterpret_cast<StrideB*>(take(sizeof(StrideB) * G));
    a.stride_d = reinterpret_cast<StrideD*>(take(sizeof(StrideD) * G));
    Arguments args = make_arguments(G, 0, sm_count, a);
    a.cutlass_workspace = take(GemmKernel::get_workspace_size(args));
    if (out) *out = a;
    return off;
  }

  static size_t workspace_bytes(int num_groups, int sm_count) { return carve(num_groups, sm_count, nullptr, nullptr); }

  static void* create(int num_groups, int64_t N, int64_t K, int device, int sm_count, void* workspace) {
    auto* st = new State{};
    st->num_groups = num_groups;
    st->N = N;
    st->K = K;
    carve(num_groups, sm_count, static_cast<char*>(workspace), &st->arrays);
    Arguments args = make_arguments(num_groups, device, sm_count, st->arrays);
    if (!GemmKernel::can_implement(args)) {
      delete st;
      throw Unsupported("grouped_gemm_fp8_blockwise: CUTLASS cannot implement this grouped GEMM configuration");
    }
    // Host-only: TMA descriptor templates and scheduler parameters. The blockwise mainloop, the
    // epilogue and the group scheduler need no workspace initialisation.
    st->params = GemmKernel::to_underlying_arguments(args, st->arrays.cutlass_workspace);
    st->grid = GemmKernel::get_grid_shape(st->params);
    st->block = GemmKernel::get_block_shape();
    st->smem_bytes = GemmKernel::SharedStorageSize;
    int dev_prev = 0;
    fg_check(cudaGetDevice(&dev_prev), "cudaGetDevice");
    fg_check(cudaSetDevice(device), "cudaSetDevice");
    const cudaError_t e = cudaFuncSetAttribute(cutlass::device_kernel<GemmKernel>,
                                               cudaFuncAttributeMaxDynamicSharedMemorySize, st->smem_bytes);
    cudaSetDevice(dev_prev);
    if (e != cudaSuccess) {
      delete st;
      fg_check(e, "cudaFuncSetAttribute(grouped FP8 GEMM kernel)");
    }
    return st;
  }

  static void destroy(void* state) { delete static_cast<State*>(state); }

  static void run(void* state, const RunArgs& args, cudaStream_t stream) {
    auto* st = static_cast<State*>(state);
    if (st->num_groups <= 0) return;
    const Arrays& a = st->arrays;
    constexpr int kSetupThreads = 128;
    fp8_grouped_gemm_setup_kernel<Shape, StrideA, StrideB, StrideD, Cfg::kSwapAB>
        <<<(st->num_groups + kSetupThreads - 1) / kSetupThreads, kSetupThreads, 0, stream>>>(
            st->num_groups, st->N, st->K, args, a.shapes, a.ptr_a, a.ptr_b, a.ptr_sfa, a.ptr_sfb, a.ptr_d,
            a.stride_a, a.stride_b, a.stride_d);
    fg_check(cudaGetLastError(), "grouped FP8 GEMM setup kernel launch");
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = st->grid;
    cfg.blockDim = st->block;
    cfg.dynamicSmemBytes = size_t(st->smem_bytes);
    cfg.stream = stream;
    cfg.attrs = nullptr;
    cfg.numAttrs = 0;
    fg_check(cudaLaunchKernelEx(&cfg, cutlass::device_kernel<GemmKernel>, st->params), "grouped FP8 GEMM kernel launch");
  }

  static const TacticOps& ops() {
    static const TacticOps o{&workspace_bytes, &create, &destroy, &run};
    return o;
  }
};

}  // namespace megamoe::sm90::fp8_gemm_detail

#endif  // MEGAMOE_FP8_GEMM_TACTIC_TU
