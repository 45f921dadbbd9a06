// Shared CUTLASS 3.x machinery of the grouped bf16 GEMM tactics (see grouped_gemm_bf16.h).
//
// This file is #included by the per-tactic translation units (grouped_gemm_bf16_swapab.cu,
// grouped_gemm_bf16_large.cu), each of which instantiates exactly one CUTLASS kernel, so the two
// heavy instantiations compile in parallel. Compiled on its own (the CMake glob takes every .cu in
// this folder) it is an empty translation unit.
//
// How a run works (everything on the caller's stream, nothing allocated, graph-capturable):
//   1. setup kernel: one thread per group reads offsets[g], offsets[g+1] (written earlier in the
//      same stream) and writes that group's problem shape, A/B/D pointers and strides into the
//      arrays inside our workspace;
//   2. the CUTLASS ptr-array ("grouped") kernel, KernelPtrArrayTmaWarpSpecializedCooperative with
//      the persistent group tile scheduler, reads the problem shapes from device memory (host
//      problem shapes = nullptr, so the grid is one CTA per SM and each CTA walks the groups).
//      Groups with 0 rows have 0 tiles: they are skipped and nothing is written for them. TMA
//      clips loads (zero fill) and stores at each group's M/N/K, which handles the N and K tails
//      and keeps rows outside [offsets[0], offsets[G]) untouched.
// Kernel parameters (TMA descriptor templates, pointers to our arrays) do not depend on the data,
// so they are built once at construction; run() launches with cudaLaunchKernelEx directly.
// Fused setup (the split backend): describe() tells the route plan's last kernel how to write the
// same arrays (routing::GroupedProblemWrite), and launch() starts only the GEMM, optionally with
// programmatic dependent launch. The GEMM runs inside gemm_pdl_kernel, which executes
// griddepcontrol.wait before CUTLASS's kernel body (CUTLASS 4.2's ptr-array sm90 kernels have no
// GDC calls of their own), so launching it early is safe; without PDL the wait is a no-op.
#ifdef MEGAMOE_GG_TACTIC_TU
#pragma once

#include <cstdint>
#include <cstring>
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

#include "kernels/sm90/gemm/grouped_gemm_bf16.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/errors.h"

#if !defined(CUTLASS_ARCH_MMA_MODIFIABLE_TMA_SM90_SUPPORTED)
#error "the grouped GEMM needs CUTLASS's modifiable-TMA sm90 support (CUDA >= 12.3, sm_90a)"
#endif

namespace megamoe::sm90::grouped_gemm_detail {

using RasterOrderOptions = cutlass::gemm::kernel::detail::RasterOrderOptions;

// TileShape/ClusterShape: CUTLASS (M, N, K) tile and cluster. kSwapAB: GEMM M = the weight rows
// (N_out), GEMM N = the group's activation rows, D^T written column-major (= D row-major).
// kPingpong: the two consumer warpgroups take alternate tiles (tile M = 64 per warpgroup..) instead
// of splitting one tile (cooperative, tile M >= 128).
// ElementD: float (fp32 D) or cutlass::bfloat16_t (D = bf16(acc), round to nearest even).
template <class TileShape_, class ClusterShape_, bool kSwapAB_, RasterOrderOptions kRaster_, bool kPingpong_ = false,
          class ElementD_ = float>
struct TacticConfig {
  using ElementD = ElementD_;
  using TileShape = TileShape_;
  using ClusterShape = ClusterShape_;
  static constexpr bool kSwapAB = kSwapAB_;
  static constexpr RasterOrderOptions kRaster = kRaster_;
  static constexpr bool kPingpong = kPingpong_;
  using KernelSchedule = std::conditional_t<kPingpong_, cutlass::gemm::KernelPtrArrayTmaWarpSpecializedPingpong,
                                            cutlass::gemm::KernelPtrArrayTmaWarpSpecializedCooperative>;
  using EpilogueSchedule = std::conditional_t<kPingpong_, cutlass::epilogue::PtrArrayTmaWarpSpecializedPingpong,
                                              cutlass::epilogue::PtrArrayTmaWarpSpecializedCooperative>;
};

inline void gg_check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw CudaError(std::string("grouped_gemm_bf16: ") + what + ": " + cudaGetErrorString(e));
}

inline size_t gg_align(size_t x, size_t a) { return (x + a - 1) / a * a; }

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
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  if (early_trigger) asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
  GemmKernel op;
  op(params, smem);
}

template <class Cfg>
struct GroupedGemmTacticImpl {
  using TileShape = typename Cfg::TileShape;
  using ClusterShape = typename Cfg::ClusterShape;
  using ProblemShape = cutlass::gemm::GroupProblemShape<cute::Shape<int, int, int>>;
  using Shape = typename ProblemShape::UnderlyingProblemShape;
  using Element = cutlass::bfloat16_t;
  using LayoutA = cutlass::layout::RowMajor;     // K-major
  using LayoutB = cutlass::layout::ColumnMajor;  // K-major
  // swap-AB: D^T (N_out x rows) column-major with leading dim ldd is exactly D row-major.
  using LayoutD = std::conditional_t<Cfg::kSwapAB, cutlass::layout::ColumnMajor, cutlass::layout::RowMajor>;
  static constexpr int kAlignAB = 128 / cutlass::sizeof_bits<Element>::value;  // 16 bytes
  using ElementD = typename Cfg::ElementD;
  static constexpr int kAlignD = 128 / cutlass::sizeof_bits<ElementD>::value;

  using CollectiveEpilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, float, float,
      void, LayoutD*, kAlignD,   // no C operand
      ElementD, LayoutD*, kAlignD,  // fp32 or bf16 D
      typename Cfg::EpilogueSchedule,
      cutlass::epilogue::fusion::LinearCombination<ElementD, float, void, float>>::CollectiveOp;

  using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Element, LayoutA*, kAlignAB, Element, LayoutB*,
      kAlignAB, float, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(
          sizeof(typename CollectiveEpilogue::SharedStorage))>,
      typename Cfg::KernelSchedule>::CollectiveOp;

  using GemmKernel = cutlass::gemm::kernel::GemmUniversal<ProblemShape, CollectiveMainloop, CollectiveEpilogue>;
  using Arguments = typename GemmKernel::Arguments;
  using Params = typename GemmKernel::Params;
  using StrideA = typename GemmKernel::InternalStrideA;
  using StrideB = typename GemmKernel::InternalStrideB;
  using StrideD = typename GemmKernel::InternalStrideD;

  // Device arrays (all inside the caller-provided workspace).
  struct Arrays {
    Shape* shapes;
    const Element** ptr_a;
    const Element** ptr_b;
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

  static constexpr size_t kAlign = 256;
  static constexpr int kClusterSize = decltype(cute::size(ClusterShape{}))::value;

  static Arguments make_arguments(int num_groups, int device, int sm_count, const Arrays& a) {
    Arguments args{};
    args.mode = cutlass::gemm::GemmUniversalMode::kGrouped;
    args.problem_shape = ProblemShape{num_groups, a.shapes, nullptr};  // shapes on the device only
    args.mainloop.ptr_A = a.ptr_a;
    args.mainloop.dA = a.stride_a;
    args.mainloop.ptr_B = a.ptr_b;
    args.mainloop.dB = a.stride_b;
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

  // [shapes | ptr_a | ptr_b | ptr_d | stride_a | stride_b | stride_d | CUTLASS workspace]
  static size_t carve(int G, int sm_count, char* base, Arrays* out) {
    size_t off = 0;
    auto take = [&](size_t bytes) {
      char* p = base ? base + off : nullptr;
      off = gg_align(off + bytes, kAlign);
      return p;
    };
    Arrays a{};
    a.shapes = reinterpret_cast<Shape*>(take(sizeof(Shape) * G));
    a.ptr_a = reinterpret_cast<const Element**>(take(sizeof(void*) * G));
    a.ptr_b = reinterpret_cast<const Element**>(take(sizeof(void*) * G));
    a.ptr_d = reinterpret_cast<ElementD**>(take(sizeof(void*) * G));
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
      throw Unsupported("grouped_gemm_bf16: CUTLASS cannot implement this grouped GEMM configuration");
    }
    // Host-only: builds TMA descriptor templates and scheduler parameters. Our fusion/scheduler
    // need no workspace initialisation (initialize_workspace is a no-op for them), so nothing
    // touches the device here except the kernel attribute below.
    st->params = GemmKernel::to_underlying_arguments(args, st->arrays.cutlass_workspace);
    st->grid = GemmKernel::get_grid_shape(st->params);
    st->block = GemmKernel::get_block_shape();
    st->smem_bytes = GemmKernel::SharedStorageSize;
    int dev_prev = 0;
    gg_check(cudaGetDevice(&dev_prev), "cudaGetDevice");
    gg_check(cudaSetDevice(device), "cudaSetDevice");
    cudaError_t e = cudaFuncSetAttribute(gemm_pdl_kernel<GemmKernel>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         st->smem_bytes);
    if (e == cudaSuccess && kClusterSize > 1)
      e = cudaFuncSetAttribute(gemm_pdl_kernel<GemmKernel>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
    cudaSetDevice(dev_prev);
    if (e != cudaSuccess) {
      delete st;
      gg_check(e, "cudaFuncSetAttribute(grouped GEMM kernel)");
    }
    return st;
  }

  static void destroy(void* state) { delete static_cast<State*>(state); }

  static void run(void* state, const RunArgs& args, cudaStream_t stream) {
    auto* st = static_cast<State*>(state);
    if (st->num_groups <= 0) return;
    const Arrays& a = st->arrays;
    constexpr int kSetupThreads = 128;
    grouped_gemm_setup_kernel<Shape, StrideA, StrideB, StrideD, Cfg::kSwapAB, ElementD>
        <<<(st->num_groups + kSetupThreads - 1) / kSetupThreads, kSetupThreads, 0, stream>>>(
            st->num_groups, st->N, st->K, args, a.shapes, a.ptr_a, a.ptr_b, a.ptr_d, a.stride_a, a.stride_b,
            a.stride_d);
    gg_check(cudaGetLastError(), "grouped GEMM setup kernel launch");
    launch(state, stream, false, true);
  }

  // The GEMM alone (its arrays written earlier in the stream, by run()'s setup kernel or by the
  // route plan from describe()), with programmatic dependent launch when `pdl`.
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
    gg_check(cudaLaunchKernelEx(&cfg, gemm_pdl_kernel<GemmKernel>, st->params, int(early_trigger)),
             "grouped GEMM kernel launch");
  }

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
    static const TacticOps o{&workspace_bytes, &create, &destroy, &run, &launch, &describe};
    return o;
  }
};

}  // namespace megamoe::sm90::grouped_gemm_detail

#endif  // MEGAMOE_GG_TACTIC_TU
