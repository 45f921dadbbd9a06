// W4A16 grouped GEMM, warp-specialised large tactic (grouped_gemm_w4a16.h, kLargeTma): a
// producer warpgroup moves and decodes, two consumer warpgroups only multiply.
//
// Work: tiles of 128 weight rows x one expert (swap-AB as the other tactics: weight rows are
// wgmma's M, tokens its N), handed out persistently (tile t = blockIdx.x + i * gridDim.x, expert
// rank major, so the CTAs of one wave share an expert's token rows in L2). A tile runs its
// expert's rows in passes of up to 256 tokens (wgmma N = 64, 128, 192 or 256: the pass's rows
// rounded up to 64), every pass a full K loop of 64-wide steps.
//
// Warp roles (384 threads, one CTA per SM):
//   warp 0, lane 0   TMA issuer: per step, the pass's token rows (boxes of 64 rows x 64 K bf16,
//                    128-byte swizzle), the 128 rows' packed codes (128 x 32 bytes) and their
//                    scale tile (one bulk copy), all completing the stage's `full` barrier
//   warps 1-3        decoders: the e2m1 codes + scales of a stage -> the bf16 A fragments of the
//                    8 wgmma warps (decode_step, the register decode every W4A16 tactic uses),
//                    stored as 16 bytes per lane per k16 block into a fragment buffer
//   warps 4-7, 8-11  consumers (warpgroup c: weight rows 64c..64c+63): 4 x LDS.128 of the
//                    step's fragments, 4 wgmma m64nNk16 (A from registers, B = the stage's token
//                    tile), one wgmma group in flight across steps (A fragments double-buffered
//                    in registers), fp32 accumulators (N/2 a thread), epilogue straight to D
// The producer warpgroup gives registers to the consumers (setmaxnreg 56 / 224: 128 x 56 +
// 256 x 224 = 64512 of the SM's 65536).
//
// Shared memory (dynamic, 1024-byte aligned):
//   kStages x 37 KB stages: [0, 32768) token tile (256 rows x 128 B, SW128, the K-major layout
//                   the B descriptor reads), [32768, 36864) packed codes (128 rows x 32 B,
//                   fragment order), [36864, ...) scale tile (<= 512 B)
//   2 x 16 KB fragment buffers: [vw][k16][lane] x 16 B (vw = virtual warp 0..7 = 16 weight rows)
// Barriers: full[s] (issuer's expect_tx), empty[s] (3 decoder + 8 consumer warps), dfull[b]
// (3 decoder warps), dempty[b] (8 consumer warps). Every wait is bounded (ptx::mbar_wait traps
// after kTimeoutNs: a lost TMA becomes a launch error, not a hung GPU).
//
// Why a producer decode: with the decode in the MMA warps (kLarge), each step is decode -> MMA
// -> wait in one instruction stream, and two CTAs per SM must hide each other's decode (ncu:
// tensor pipe 60% active at T = 8192). Here the decode runs one to two steps ahead in other
// warps, and the token tile comes by TMA instead of every thread's cp.async (the L1 path free).
#include <string>

#include <cuda.h>

#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/common/tensor_map.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16_common.cuh"
#include "kernels/sm90/gemm/wgmma_rs.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {
namespace {

using namespace w4a16;

constexpr int kTmaThreads = 384;
constexpr int kWRows = 128;        // weight rows per tile: 2 consumer warpgroups x 64
constexpr int kMaxTok = 256;       // tokens per pass: wgmma's largest N
constexpr int kTokBox = 64;        // token rows per TMA box (a pass loads ceil(rows / 64) of them)
constexpr int kStages = 5;         // 5 x 37 KB + 32 KB of fragments: what fits in 227 KB
constexpr int kFragBufs = 2;       // decoders run at most two steps ahead of the consumers
constexpr int kDecodeWarps = 3, kConsumerWarps = 8, kVirtualWarps = 8;  // 16 weight rows each
constexpr int kTokBoxBytes = kTokBox * kSmemRowBytes;                 // 8192
constexpr int kXBytes = kMaxTok * kSmemRowBytes;                      // 32768
constexpr int kWBytes = kWRows * kPackedRowBytes;                     // 4096
constexpr int kStageBytes = 37 * 1024;
constexpr int kFragBytes = kVirtualWarps * 4 * 32 * 16;               // 16384: 16 B per lane per k16
constexpr int kAlignSlack = 1024;  // SW128 tiles start on 1024-byte boundaries
constexpr int kSmemTma = kAlignSlack + kStages * kStageBytes + kFragBufs * kFragBytes;
constexpr unsigned long long kTimeoutNs = 4ull * 1000ull * 1000ull * 1000ull;  // 4 s per wait
constexpr int kProducerRegs = 56, kConsumerRegs = 224;
static_assert(kXBytes + kWBytes + ScaleCfg<Fp4Scale::kNvfp4>::kTileBytes <= kStageBytes, "a stage holds one step");
static_assert(kStageBytes % 1024 == 0 && kFragBytes % 1024 == 0, "SW128 stages stay 1024-byte aligned");
static_assert(kSmemTma <= kMaxDynamicSmem, "fits the opt-in shared memory");
static_assert(kProducerRegs * 128 + kConsumerRegs * 256 <= 65536, "register file");
static_assert(kWRows == 2 * 64 && kVirtualWarps * 16 == kWRows, "two consumer warpgroups of m64");

struct Barriers {
  uint64_t full[kStages], empty[kStages], dfull[kFragBufs], dempty[kFragBufs];
};

__device__ __forceinline__ uint32_t smem_u32(const void* p) { return uint32_t(__cvta_generic_to_shared(p)); }

// The first expert after g with at least one row, or G. Every role walks the experts with its own
// cursor, in the same order, so all agree on the tile sequence without talking to each other.
__device__ __forceinline__ int next_active_expert(const int32_t* __restrict__ offsets, int G, int g) {
  for (++g; g < G; ++g)
    if (__ldg(offsets + g + 1) > __ldg(offsets + g)) break;
  return g;
}

// The CTA's tile sequence: tile t = blockIdx.x + i * gridDim.x is weight rows (t % nblk) * 128 of
// the (t / nblk)-th expert with rows. next() returns false when the tiles are exhausted.
struct TileWalk {
  const int32_t* offsets;
  int G, nblk;
  int t, g = -1, rank = -1;
  int n0 = 0, lo = 0, hi = 0;
  __device__ TileWalk(const int32_t* o, int G_, int nblk_) : offsets(o), G(G_), nblk(nblk_), t(int(blockIdx.x)) {}
  __device__ bool next() {
    const int want = t / nblk;
    while (rank < want) {
      g = next_active_expert(offsets, G, g);
      if (g >= G) return false;
      ++rank;
    }
    n0 = (t % nblk) * kWRows;
    lo = __ldg(offsets + g);
    hi = __ldg(offsets + g + 1);
    t += int(gridDim.x);
    return true;
  }
};

__device__ __forceinline__ int pass_boxes(int rows) { return (min(rows, kMaxTok) + kTokBox - 1) / kTokBox; }

// Consumer: one pass of N tokens (N / 64 boxes) over the K loop. `step` is the CTA-wide step
// counter (stage = step % kStages, fragment buffer = step % 2); it advances by KT.
template <int N>
__device__ __forceinline__ void consume_pass(float (&acc)[128], const Barriers& bars, uint32_t stages, uint32_t frags,
                                             int vw, int lane, int KT, uint32_t& step) {
#pragma unroll
  for (int i = 0; i < 128; ++i) acc[i] = 0.0f;
  uint32_t af[2][4][4];
  auto body = [&](int kt, uint32_t (&a)[4][4]) {
    const uint32_t i = step + uint32_t(kt);
    const uint32_t s = i % kStages, b = i % kFragBufs;
    ptx::mbar_wait(smem_u32(&bars.dfull[b]), (i / kFragBufs) & 1u, kTimeoutNs);
    const uint32_t fsrc = frags + uint32_t(b * kFragBytes) + uint32_t(vw * 4 * 32 + lane) * 16u;
#pragma unroll
    for (int k16 = 0; k16 < 4; ++k16)
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(a[k16][0]), "=r"(a[k16][1]), "=r"(a[k16][2]), "=r"(a[k16][3])
                   : "r"(fsrc + uint32_t(k16 * 32 * 16))
                   : "memory");
    __syncwarp();
    if (lane == 0) ptx::mbar_arrive(smem_u32(&bars.dempty[b]));
    ptx::mbar_wait(smem_u32(&bars.full[s]), (i / kStages) & 1u, kTimeoutNs);
    const uint64_t desc = wgmma::sw128_desc(stages + s * uint32_t(kStageBytes));
    wgmma::fence();
    wgmma::fence_acc(acc);
#pragma unroll
    for (int k16 = 0; k16 < 4; ++k16) wgmma::mma_rs<N>(acc, a[k16], desc + uint64_t(2 * k16));  // +32 B of K
    wgmma::commit();
    wgmma::wait<1>();  // step i-1's group is done: its token stage is free, its fragments reusable
    wgmma::fence_acc(acc);
    if (kt > 0 && lane == 0) ptx::mbar_arrive(smem_u32(&bars.empty[(i - 1) % kStages]));
  };
  int kt = 0;
  for (; kt + 1 < KT; kt += 2) {
    body(kt, af[0]);
    body(kt + 1, af[1]);
  }
  if (kt < KT) body(kt, af[0]);
  wgmma::wait<0>();
  wgmma::fence_acc(acc);
  step += uint32_t(KT);
  if (lane == 0) ptx::mbar_arrive(smem_u32(&bars.empty[(step - 1) % kStages]));
}

template <Fp4Scale F, bool kBf16Out>
__global__ void __launch_bounds__(kTmaThreads, 1)
    w4a16_large_tma_kernel(const __grid_constant__ CUtensorMap tm_x, const __grid_constant__ CUtensorMap tm_w,
                           const uint8_t* __restrict__ S, const float* __restrict__ alpha,
                           const int32_t* __restrict__ offsets, void* __restrict__ D, int N, int K, int G) {
  constexpr int kPerRow = ScaleCfg<F>::kPerRow;
  extern __shared__ uint8_t smem_raw[];
  __shared__ Barriers bars;
  const uint32_t raw = smem_u32(smem_raw);
  const uint32_t stages = (raw + uint32_t(kAlignSlack - 1)) & ~uint32_t(kAlignSlack - 1);
  uint8_t* stage_ptr = smem_raw + (stages - raw);
  const uint32_t frags = stages + uint32_t(kStages * kStageBytes);
  const int warp = int(threadIdx.x) >> 5, lane = int(threadIdx.x) & 31;
  const int KT = K / kBK, nblk = (N + kWRows - 1) / kWRows;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      ptx::mbar_init(smem_u32(&bars.full[s]), 1);
      ptx::mbar_init(smem_u32(&bars.empty[s]), kDecodeWarps + kConsumerWarps);
    }
    for (int b = 0; b < kFragBufs; ++b) {
      ptx::mbar_init(smem_u32(&bars.dfull[b]), kDecodeWarps);
      ptx::mbar_init(smem_u32(&bars.dempty[b]), kConsumerWarps);
    }
    ptx::mbar_fence_init();
  }
  __syncthreads();
  ptx::pdl_wait_then_release();  // the activations come from the previous kernel

  TileWalk walk(offsets, G, nblk);
  uint32_t step = 0;  // CTA-wide step counter, the same sequence in every role
  if (warp < 4) {
    ptx::setmaxnreg_dec<kProducerRegs>();
    if (warp == 0) {
      if (lane != 0) return;
      ptx::prefetch_tensormap(&tm_x);
      ptx::prefetch_tensormap(&tm_w);
      while (walk.next()) {
        const int srows = min(kWRows, N - walk.n0);
        const uint32_t sbytes = uint32_t(srows * kPerRow);
        const uint8_t* sg = S + (size_t(walk.g) * size_t(KT) * size_t(N) + size_t(walk.n0)) * kPerRow;
        for (int t0 = walk.lo; t0 < walk.hi; t0 += kMaxTok) {
          const int boxes = pass_boxes(walk.hi - t0);
          const uint32_t bytes = uint32_t(boxes * kTokBoxBytes + kWBytes) + sbytes;
          for (int kt = 0; kt < KT; ++kt, ++step) {
            const uint32_t s = step % kStages, use = step / kStages;
            if (use > 0) ptx::mbar_wait(smem_u32(&bars.empty[s]), (use - 1) & 1u, kTimeoutNs);
            const uint32_t full = smem_u32(&bars.full[s]), st = stages + s * uint32_t(kStageBytes);
            ptx::mbar_arrive_expect_tx(full, bytes);  // boxes past the rows are zero-filled and still counted
            for (int b = 0; b < boxes; ++b)
              ptx::tma_load_2d(st + uint32_t(b * kTokBoxBytes), &tm_x, full, kt * kBK, t0 + b * kTokBox);
            ptx::tma_load_2d(st + uint32_t(kXBytes), &tm_w, full, kt * kPackedRowBytes, walk.g * N + walk.n0);
            ptx::bulk_load(st + uint32_t(kXBytes + kWBytes), sg + size_t(kt) * size_t(N) * kPerRow, sbytes, full);
          }
        }
      }
      return;
    }
    // Decoders: warp 1..3 decodes virtual warps dw, dw + 3, dw + 6 (< 8) of every step.
    const int dw = warp - 1, gq = lane >> 2, tig = lane & 3;
    while (walk.next()) {
      for (int t0 = walk.lo; t0 < walk.hi; t0 += kMaxTok) {
        for (int kt = 0; kt < KT; ++kt, ++step) {
          const uint32_t s = step % kStages, b = step % kFragBufs;
          ptx::mbar_wait(smem_u32(&bars.full[s]), (step / kStages) & 1u, kTimeoutNs);
          if (step >= uint32_t(kFragBufs))
            ptx::mbar_wait(smem_u32(&bars.dempty[b]), ((step / kFragBufs) - 1) & 1u, kTimeoutNs);
          const uint8_t* st = stage_ptr + s * kStageBytes;
          const uint8_t* ss = st + kXBytes + kWBytes;
          const uint32_t fdst = frags + uint32_t(b * kFragBytes) + uint32_t(lane) * 16u;
          for (int vw = dw; vw < kVirtualWarps; vw += kDecodeWarps) {
            const int wr = vw * 16;
            const uint2 wa = *reinterpret_cast<const uint2*>(st + kXBytes + (wr + gq) * kPackedRowBytes + tig * 8);
            const uint2 wb = *reinterpret_cast<const uint2*>(st + kXBytes + (wr + gq + 8) * kPackedRowBytes + tig * 8);
            uint32_t af[4][4];
            decode_step<F>(wa, wb, row_scale_codes<F>(ss, wr + gq), row_scale_codes<F>(ss, wr + gq + 8), af);
#pragma unroll
            for (int k16 = 0; k16 < 4; ++k16)
              asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(fdst + uint32_t((vw * 4 + k16) * 32 * 16)),
                           "r"(af[k16][0]), "r"(af[k16][1]), "r"(af[k16][2]), "r"(af[k16][3])
                           : "memory");
          }
          __syncwarp();
          if (lane == 0) {
            ptx::mbar_arrive(smem_u32(&bars.empty[s]));  // codes and scales read
            ptx::mbar_arrive(smem_u32(&bars.dfull[b]));  // fragments written
          }
        }
      }
    }
    return;
  }

  // Consumers.
  ptx::setmaxnreg_inc<kConsumerRegs>();
  const int cw = warp - 4, vw = cw, gq = lane >> 2, tig = lane & 3;  // vw: rows 16 vw .. 16 vw + 15
  float acc[128];
  while (walk.next()) {
    const float al = alpha ? __ldg(alpha + walk.g) : 1.0f;
    for (int t0 = walk.lo; t0 < walk.hi; t0 += kMaxTok) {
      const int rows = min(kMaxTok, walk.hi - t0);
      const int boxes = pass_boxes(rows);
      switch (boxes) {
        case 1: consume_pass<64>(acc, bars, stages, frags, vw, lane, KT, step); break;
        case 2: consume_pass<128>(acc, bars, stages, frags, vw, lane, KT, step); break;
        case 3: consume_pass<192>(acc, bars, stages, frags, vw, lane, KT, step); break;
        default: consume_pass<256>(acc, bars, stages, frags, vw, lane, KT, step); break;
      }
      // Epilogue: accumulator 4j + q is weight row 16 vw + gq + 8 (q / 2), token 8 j + 2 tig + q % 2.
      const int nA = walk.n0 + vw * 16 + gq;
#pragma unroll
      for (int j = 0; j < kMaxTok / 8; ++j) {
        if (j * 8 >= rows) break;
#pragma unroll
        for (int q = 0; q < 4; ++q) {
          const int col = j * 8 + 2 * tig + (q & 1);
          const int n = nA + (q >> 1) * 8;
          if (col >= rows || n >= N) continue;
          const size_t idx = size_t(t0 + col) * size_t(N) + size_t(n);
          if constexpr (kBf16Out)
            static_cast<__nv_bfloat16*>(D)[idx] = __float2bfloat16_rn(al * acc[4 * j + q]);
          else
            static_cast<float*>(D)[idx] = al * acc[4 * j + q];
        }
      }
    }
  }
}

template <Fp4Scale F, bool kBf16Out>
cudaError_t launch_tma(const W4A16GemmArgs& a, int64_t rows_bound, int grid_y, cudaStream_t stream) {
  auto kernel = w4a16_large_tma_kernel<F, kBf16Out>;
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemTma);
  if (attr != cudaSuccess) return attr;
  // Token rows [rows_bound, K] bf16: boxes of 64 K x 64 rows, 128-byte swizzle (the B tile).
  const cuuint64_t xd[2] = {cuuint64_t(a.K), cuuint64_t(rows_bound)};
  const cuuint64_t xs[1] = {cuuint64_t(a.K * 2)};
  const cuuint32_t xb[2] = {cuuint32_t(kBK), cuuint32_t(kTokBox)};
  const CUtensorMap tx = cu::encode_tensor_map(a.A, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, xd, xs, xb,
                                               CU_TENSOR_MAP_SWIZZLE_128B, "w4a16", "A");
  // Packed codes [G * N, K / 2] bytes: boxes of one step (32 bytes) x 128 rows, unswizzled.
  const cuuint64_t wd[2] = {cuuint64_t(a.K / 2), cuuint64_t(int64_t(a.num_groups) * a.N)};
  const cuuint64_t ws[1] = {cuuint64_t(a.K / 2)};
  const cuuint32_t wb[2] = {cuuint32_t(kPackedRowBytes), cuuint32_t(kWRows)};
  const CUtensorMap tw = cu::encode_tensor_map(a.W, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, wd, ws, wb,
                                               CU_TENSOR_MAP_SWIZZLE_NONE, "w4a16", "W");
  const int64_t tiles = cu::ceil_div<int64_t>(a.N, kWRows) * grid_y;
  const int grid = int(std::min<int64_t>(tiles, cu::current_sm_count()));
  kernel<<<grid, kTmaThreads, kSmemTma, stream>>>(tx, tw, a.scales, a.alpha, a.offsets,
                                                  kBf16Out ? a.D16 : static_cast<void*>(a.D), int(a.N), int(a.K),
                                                  a.num_groups);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_w4a16_large_tma(const W4A16GemmArgs& a, Fp4Scale fmt, int64_t rows_bound, int grid_y,
                                   cudaStream_t stream) {
  if (int64_t(a.num_groups) * a.N > int64_t(INT32_MAX))
    throw_invalid("num_groups * N", "below 2^31 (w4a16 TMA tactic: 32-bit row coordinates)",
                  std::to_string(int64_t(a.num_groups) * a.N));
  if (rows_bound > int64_t(INT32_MAX))
    throw_invalid("rows", "below 2^31 (w4a16 TMA tactic)", std::to_string(rows_bound));
  if (a.D16)
    return fmt == Fp4Scale::kMxfp4 ? launch_tma<Fp4Scale::kMxfp4, true>(a, rows_bound, grid_y, stream)
                                   : launch_tma<Fp4Scale::kNvfp4, true>(a, rows_bound, grid_y, stream);
  return fmt == Fp4Scale::kMxfp4 ? launch_tma<Fp4Scale::kMxfp4, false>(a, rows_bound, grid_y, stream)
                                 : launch_tma<Fp4Scale::kNvfp4, false>(a, rows_bound, grid_y, stream);
}

}  // namespace megamoe::sm90
