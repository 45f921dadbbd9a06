// The bf16 large TMA GEMM with FC1's activation in its epilogue (grouped_gemm_bf16_large_tma.cuh):
// one kernel, the activation picked per pass epilogue (the K loop is shared by the four).
#include "kernels/sm90/gemm/grouped_gemm_bf16_large_tma.cuh"

namespace megamoe::sm90::bf16_large {

cudaError_t launch_act(const Bf16LargeTmaArgs& a, int64_t rows_bound, int mode, int pgroup, int stores, int* sched,
                       bool early_draw, cudaStream_t stream) {
  return launch_impl<LargeTmaOut::kAct>(a, rows_bound, mode, pgroup, stores, sched, early_draw, stream);
}

}  // namespace megamoe::sm90::bf16_large
