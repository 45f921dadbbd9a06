// Memory-bound kernels of the sm90 split path: permute (gather x rows into expert order),
// activation (fp32 h + b13 -> act -> bf16 a) and combine (fp32 y + b2 -> bf16 y per route ->
// fixed-order weighted FP32 sum per token, rounded once). All take the route plan
// (src/routing/route_plan.h) and are asynchronous, allocation-free and graph-capturable.
// Row counts that only the device knows (offsets[E_local]) are read on the device; grids are
// sized from host-known upper bounds.
#pragma once
#include <cstdint>

#include <cuda_runtime.h>

#include "megamoe/config.h"

namespace megamoe::sm90 {

// x_perm[route_to_row[t*K+k], :] = x[t, :] for every routed (t, k).
// x [T, H] bf16 with row stride ldx (elements); x_perm [rows, H] bf16, contiguous.
// Uses 16-byte accesses when H % 8 == 0, ldx % 8 == 0 and both pointers are 16-byte aligned.
void launch_permute(const void* x, int64_t ldx, int64_t T, int64_t K, int64_t H,
                    const int32_t* route_to_row, void* x_perm, cudaStream_t stream);

struct ActivationParams {
  Activation activation = Activation::kSwiGLU;
  float limit = 0.0f;   // +inf for no clamp (MoeConfig::effective_limit())
  float alpha = 1.702f; // swiglu_oai's sigmoid slope
  // Gated h columns in the gate/up interleaved order of common/gate_up_layout.h (the bf16
  // backends' W13) instead of [gate | up]; b13 stays canonical either way.
  bool gate_up_interleaved = false;
};

// For rows r < *total_rows (device; max_rows is a host upper bound):
//   h' = h[r, :] + b13[row_expert[r], :]   (b13 may be null)
//   gated: a[r, i] = bf16(act(h'[i], h'[I + i]));  relu2: a[r, i] = bf16(relu(h'[i])^2)
//   (h' columns i and I + i: physical columns gate_up::physical_row(i, false / true) when
//   params.gate_up_interleaved)
// h [rows, N13] fp32 (N13 = 2I or I), a [rows, I] bf16; I % 8 == 0.
void launch_activation(const float* h, const float* b13, const int32_t* row_expert,
                       const int32_t* total_rows, int64_t max_rows, int64_t I,
                       const ActivationParams& params, void* a, cudaStream_t stream);

// out[t, :] = bf16( sum_{k=0..K-1, routed} w[t,k] * float(bf16(y[row, :] + b2[row_expert[row], :])) )
// with row = route_to_row[t*K+k]; FP32 sum in k order, products and sums rounded separately
// (no FMA contraction), as the CPU reference does; 0 for tokens with no route.
// y [rows, H] fp32, topk_weights [T, K] f32 contiguous, out [T, H] bf16 contiguous; H % 8 == 0.
void launch_combine(const float* y, const float* b2, const int32_t* row_expert, const int32_t* route_to_row,
                    const float* topk_weights, int64_t T, int64_t K, int64_t H, void* out,
                    cudaStream_t stream);

// As launch_combine without a bias, reading y as bf16 [rows, H] (the GEMM already rounded it):
// out[t, :] = bf16( sum_k w[t,k] * float(y_bf16[row, :]) ), same order and rounding, so given
// y_bf16 = bf16(y) the result equals launch_combine(y, nullptr, ...) bit for bit.
void launch_combine_bf16y(const void* y_bf16, const int32_t* route_to_row, const float* topk_weights, int64_t T,
                          int64_t K, int64_t H, void* out, cudaStream_t stream, bool pdl);

// Expert parallelism's owner side (ForwardArgs::route_out): instead of the weighted sum,
// route_out[(t*K + k), :] = bf16(y[row, :] + b2[row_expert[row], :]) for every routed (t, k)
// (row = route_to_row[t*K+k] >= 0); the same rounding as combine, so the source rank's combine
// of these rows equals launch_combine bit for bit. y fp32 (b2 optional) or bf16 (no b2);
// route_out [T*K, H] bf16, 16-byte aligned; unrouted rows are not written.
void launch_route_rows(const void* y, bool y_is_bf16, const float* b2, const int32_t* row_expert,
                       const int32_t* route_to_row, int64_t T, int64_t K, int64_t H, void* route_out,
                       cudaStream_t stream, bool pdl);

// ---- programmatic dependent launch (PDL) -------------------------------------------------
// The overloads with `pdl` launch with cudaLaunchAttributeProgrammaticStreamSerialization when
// it is true: the kernel may start before the previous kernel in the stream has finished. Every
// kernel of this file begins with griddepcontrol.wait (which returns once the previous kernel
// has completed and its writes are visible; a no-op without a programmatic dependency) before
// it touches memory, then griddepcontrol.launch_dependents, so its own successor may launch
// early too (common/ptx.cuh; launched with cu::launch_kernel_pdl, common/cuda_helpers.h).
// Results are identical with and without PDL.
void launch_permute(const void* x, int64_t ldx, int64_t T, int64_t K, int64_t H,
                    const int32_t* route_to_row, void* x_perm, cudaStream_t stream, bool pdl);
void launch_activation(const float* h, const float* b13, const int32_t* row_expert,
                       const int32_t* total_rows, int64_t max_rows, int64_t I,
                       const ActivationParams& params, void* a, cudaStream_t stream, bool pdl);
void launch_combine(const float* y, const float* b2, const int32_t* row_expert, const int32_t* route_to_row,
                    const float* topk_weights, int64_t T, int64_t K, int64_t H, void* out,
                    cudaStream_t stream, bool pdl);

}  // namespace megamoe::sm90
