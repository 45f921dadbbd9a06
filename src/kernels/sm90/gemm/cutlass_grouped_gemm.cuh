// The one CUTLASS 3.x ptr-array ("grouped") GEMM implementation behind every grouped GEMM family
// (bf16: grouped_gemm_bf16_impl.cuh; FP8 blockwise-scaled: grouped_gemm_fp8_blockwise_impl.cuh),
// templated on a Family (element and scale types, the setup kernel, the launch form, the
// dispatcher's ops table) and a tactic config (tile, cluster, swap-AB, raster, schedules,
// output element).
//
// Included only by the per-tactic translation units, each of which instantiates exactly one
// CUTLASS kernel (so the heavy instantiations compile in parallel); a .cuh, so the CMake glob
// never compiles it on its own.
//
// How a run works (everything on the caller's stream, nothing allocated, graph-capturable):
//   1. setup kernel (the family's): one thread per group reads offsets[g], offsets[g+1] (written
//      earlier in the same stream) and writes that group's problem shape, pointers and strides
//      (and, for scaled families, its scale pointers) into the arrays inside our workspace;
//   2. the CUTLASS ptr-array kernel with the persistent group tile scheduler reads the problem
//      shapes from device memory (host problem shapes = nullptr, so the grid is one CTA per SM
//      and each CTA walks the groups). Groups with 0 rows have 0 tiles: they are skipped and
//      nothing is written for them. TMA clips loads (zero fill) and stores at each group's M/N/K,
//      which handles the N and K tails and keeps rows outside [offsets[0], offsets[G]) untouched.
// Kernel parameters (TMA descriptor templates, pointers to our arrays) do not depend on the data,
// so they are built once at construction; run() launches with cudaLaunchKernelEx directly.
//
// Family requirements (see the two families for examples):
//   Element                    A/B element type; kScaled: per-group scale pointer arrays
//   Mainloop<LayoutA, LayoutB, Cfg>::MainloopLayoutA/B   the mainloop builder's layout arguments
//                              (plain layout pointers, or with the scale layouts for scaled families)
//   kName                      names the family in errors
//   RunArgs, TacticOps         the dispatcher's argument record and ops table
//   setup<Impl>(state, args, stream)   launches the setup kernel
//   kernel<GemmKernel>()       the __global__ that runs the GEMM; launch_kernel<GemmKernel>(cfg,
//                              params, early_trigger) launches it
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime.h>

#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/epilogue/thread/linear_combination.h"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/group_array_problem_shape.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"

#include "core/workspace_carver.h"
#include "kernels/sm90/gemm/act_epilogue.cuh"
#include "kernels/sm90/common/cuda_helpers.h"
#include "megamoe/errors.h"

#if !defined(CUTLASS_ARCH_MMA_MODIFIABLE_TMA_SM90_SUPPORTED)
#error "the grouped GEMMs need CUTLASS's modifiable-TMA sm90 support (CUDA >= 12.3, sm_90a)"
#endif

namespace megamoe::sm90::cutlass_grouped {

using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;

// Sets the one dynamic (leading-dimension) mode of a rank-3 CuTe stride like Stride<int64_t,_1,_0>
// or Stride<_1,int64_t,_0>.
template <class Stride>
__host__ __device__ __forceinline__ Stride make_ld_stride(int64_t ld) {
  Stride s{};
  if constexpr (!cute::is_static_v<std::remove_cv_t<std::remove_reference_t<decltype(cute::get<0>(s))>>>) {
    cute::get<0>(s) = ld;
  } else {
    cute::get<1>(s) = ld;
  }
  return s;
}

// The collective epilogue of a tactic config: CUTLASS's TMA epilogue (D = acc, fp32 or bf16), or
// with Cfg::kActEpilogue the activation epilogue writing bf16 a.
template <bool kAct, class Cfg, class LayoutD, int kAlignD>
struct EpilogueFor {
  using type = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, typename Cfg::TileShape, typename Cfg::ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float,
      void, LayoutD*, kAlignD,                       // no C operand
      typename Cfg::ElementD, LayoutD*, kAlignD,     // fp32 or bf16 D
      typename Cfg::EpilogueSchedule,
      cutlass::epilogue::fusion::LinearCombination<typename Cfg::ElementD, float, void, float>>::CollectiveOp;
};
template <class Cfg, class LayoutD, int kAlignD>
struct EpilogueFor<true, Cfg, LayoutD, kAlignD> {
  using type = ActCollectiveEpilogue<Cfg::kSwapAB, cutlass::detail::TagToStrideC_t<LayoutD*>>;
};

// Family: see the top of this file. Cfg: TileShape, ClusterShape, kSwapAB (GEMM M = the weight
// rows, GEMM N = the group's token rows, D^T written column-major = D row-major), kRaster,
// KernelSchedule, EpilogueSchedule, ElementD, kActEpilogue.
template <class Family_, class Cfg_>
struct GroupedGemm {
  using Family = Family_;
  using Cfg = Cfg_;
  using TileShape = typename Cfg::TileShape;
  using ClusterShape = typename Cfg::ClusterShape;
  using ProblemShape = cutlass::gemm::GroupProblemShape<cute::Shape<int, int, int>>;
  using Shape = typename ProblemShape::UnderlyingProblemShape;
  using Element = typename Family::Element;
  using LayoutA = cutlass::layout::RowMajor;     // K-major
  using LayoutB = cutlass::layout::ColumnMajor;  // K-major
  // swap-AB: D^T (N_out x rows) column-major with leading dim ldd is exactly D row-major.
  using LayoutD = std::conditional_t<Cfg::kSwapAB, cutlass::layout::ColumnMajor, cutlass::layout::RowMajor>;
  static constexpr int kAlignAB = 128 / cutlass::sizeof_bits<Element>::value;  // 16 bytes
  using ElementD = typename Cfg::ElementD;
  static constexpr int kAlignD = 128 / cutlass::sizeof_bits<ElementD>::value;  // 16 bytes
  static constexpr bool kScaled = Family::kScaled;
  using Operands = typename Family::template Mainloop<LayoutA, LayoutB, Cfg>;

  // Cfg::kActEpilogue: FC1's activation in the epilogue (act_epilogue.cuh), bf16 a written from
  // registers; otherwise CUTLASS's TMA epilogue storing D = acc.
  static constexpr bool kActEpilogue = Cfg::kActEpilogue;
  using CollectiveEpilogue = typename EpilogueFor<kActEpilogue, Cfg, LayoutD, kAlignD>::type;

  using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Element, typename Operands::MainloopLayoutA, kAlignAB, Element,
      typename Operands::MainloopLayoutB, kAlignAB, float, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
          sizeof(typename CollectiveEpilogue::SharedStorage))>,
      typename Cfg::KernelSchedule>::CollectiveOp;

  using GemmKernel = cutlass::gemm::kernel::GemmUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>;
  using Arguments = typename GemmKernel::Arguments;
  using Params = typename GemmKernel::Params;
  using StrideA = typename GemmKernel::InternalStrideA;
  using StrideB = typename GemmKernel::InternalStrideB;
  using StrideD = typename GemmKernel::InternalStrideD;

  // Device arrays (all inside the caller-provided workspace). ptr_sfa / ptr_sfb: scaled
  // families only (null otherwise, and not carved).
  struct Arrays {
    Shape* shapes;
    const Element** ptr_a;
    const Element** ptr_b;
    const float** ptr_sfa;
    const float** ptr_sfb;
    ElementD** ptr_d;
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

  static constexpr int kClusterSize = decltype(cute::size(ClusterShape{}))::value;

  static void check(cudaError_t e, const char* what) { cu::check(Family::kName, e, what); }

  static Arguments make_arguments(int num_groups, int device, int sm_count, const Arrays& a) {
    Arguments args{};
    args.mode = cutlass::gemm::GemmUniversalMode::kGrouped;
    args.problem_shape = ProblemShape{num_groups, a.shapes, nullptr};  // shapes on the device only
    args.mainloop.ptr_A = a.ptr_a;
    args.mainloop.dA = a.stride_a;
    args.mainloop.ptr_B = a.ptr_b;
    args.mainloop.dB = a.stride_b;
    if constexpr (kScaled) {
      args.mainloop.ptr_SFA = a.ptr_sfa;
      args.mainloop.layout_SFA = nullptr;  // derived from each group's shape inside the kernel
      args.mainloop.ptr_SFB = a.ptr_sfb;
      args.mainloop.layout_SFB = nullptr;
    }
    if constexpr (!kActEpilogue) {
      auto& fusion = args.epilogue.thread;
      fusion.alpha = 1.0f;
      fusion.beta = 0.0f;
      fusion.alpha_ptr = nullptr;
      fusion.beta_ptr = nullptr;
      fusion.alpha_ptr_array = nullptr;
      fusion.beta_ptr_array = nullptr;
      args.epilogue.ptr_C = nullptr;
      args.epilogue.dC = nullptr;
    }
    args.epilogue.ptr_D = a.ptr_d;
    args.epilogue.dD = a.stride_d;
    args.hw_info.device_id = device;
    args.hw_info.sm_count = sm_count;
    args.hw_info.max_active_clusters = 0;
    args.scheduler.raster_order = Cfg::kRaster;
    return args;
  }

  // [shapes | ptr_a | ptr_b | (ptr_sfa | ptr_sfb) | ptr_d | stride_a | stride_b | stride_d | CUTLASS workspace]
  static size_t carve(int G, int sm_count, char* base, Arrays* out) {
    WorkspaceCarver w(base);
    auto take = [&](size_t bytes) { return w.take(bytes); };
    Arrays a{};
    a.shapes = reinterpret_cast<Shape*>(take(sizeof(Shape) * G));
    a.ptr_a = reinterpret_cast<const Element**>(take(sizeof(void*) * G));
    a.ptr_b = reinterpret_cast<const Element**>(take(sizeof(void*) * G));
    if constexpr (kScaled) {
      a.ptr_sfa = reinterpret_cast<const float**>(take(sizeof(void*) * G));
      a.ptr_sfb = reinterpret_cast<const float**>(take(sizeof(void*) * G));
    }
    a.ptr_d = reinterpret_cast<ElementD**>(take(sizeof(void*) * G));
    a.stride_a = reinterpret_cast<StrideA*>(take(sizeof(StrideA) * G));
    a.stride_b = reinterpret_cast<StrideB*>(take(sizeof(StrideB) * G));
    a.stride_d = reinterpret_cast<StrideD*>(take(sizeof(StrideD) * G));
    Arguments args = make_arguments(G, 0, sm_count, a);
    a.cutlass_workspace = take(GemmKernel::get_workspace_size(args));
    if (out) *out = a;
    return w.bytes();
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
      throw Unsupported(std::string(Family::kName) + ": CUTLASS cannot implement this grouped GEMM configuration");
    }
    // Host-only: builds TMA descriptor templates and scheduler parameters. Our mainloops,
    // fusions and scheduler need no workspace initialisation (initialize_workspace is a no-op
    // for them), so nothing touches the device here except the kernel attributes below.
    st->params = GemmKernel::to_underlying_arguments(args, st->arrays.cutlass_workspace);
    st->grid = GemmKernel::get_grid_shape(st->params);
    st->block = GemmKernel::get_block_shape();
    st->smem_bytes = GemmKernel::SharedStorageSize;
    cudaError_t e = cudaSuccess;
    {
      cu::DeviceGuard guard(Family::kName, device);
      const auto kernel = Family::template kernel<GemmKernel>();
      e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, st->smem_bytes);
      if (e == cudaSuccess && kClusterSize > 1)
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    }
    if (e != cudaSuccess) {
      delete st;
      check(e, "cudaFuncSetAttribute(grouped GEMM kernel)");
    }
    return st;
  }

  static void destroy(void* state) { delete static_cast<State*>(state); }

  // The activation epilogue's per-layer values, into the prepared kernel parameters (host only;
  // a no-op for the other epilogues).
  static void set_act(void* state, const ActEpilogueArgs& act) {
    if constexpr (kActEpilogue) static_cast<State*>(state)->params.epilogue.act = act;
  }

  // The family's setup kernel, then the GEMM, both on `stream`.
  static void run(void* state, const typename Family::RunArgs& args, cudaStream_t stream) {
    auto* st = static_cast<State*>(state);
    if (st->num_groups <= 0) return;
    Family::template setup<GroupedGemm>(*st, args, stream);
    check(cudaGetLastError(), "grouped GEMM setup kernel launch");
    launch(state, stream, false, true);
  }

  // The GEMM alone (its arrays written earlier in the stream, by run()'s setup kernel or by the
  // route plan from a description), with programmatic dependent launch when `pdl`.
  static void launch(void* state, cudaStream_t stream, bool pdl, bool early_trigger) {
    auto* st = static_cast<State*>(state);
    if (st->num_groups <= 0) return;
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = st->grid;
    cfg.blockDim = st->block;
    cfg.dynamicSmemBytes = size_t(st->smem_bytes);
    cfg.stream = stream;
    cudaLaunchAttribute attr[2];
    cfg.attrs = attr;
    cfg.numAttrs = 0;
    if constexpr (kClusterSize > 1) {
      attr[cfg.numAttrs].id = cudaLaunchAttributeClusterDimension;
      attr[cfg.numAttrs].val.clusterDim.x = decltype(cute::size<0>(ClusterShape{}))::value;
      attr[cfg.numAttrs].val.clusterDim.y = decltype(cute::size<1>(ClusterShape{}))::value;
      attr[cfg.numAttrs].val.clusterDim.z = 1;
      ++cfg.numAttrs;
    }
    if (pdl) {
      attr[cfg.numAttrs].id = cudaLaunchAttributeProgrammaticStreamSerialization;
      attr[cfg.numAttrs].val.programmaticStreamSerializationAllowed = 1;
      ++cfg.numAttrs;
    }
    if (cfg.numAttrs == 0) cfg.attrs = nullptr;
    check(Family::template launch_kernel<GemmKernel>(cfg, st->params, early_trigger), "grouped GEMM kernel launch");
  }
};

}  // namespace megamoe::sm90::cutlass_grouped
