// W4A16 grouped GEMM, large tactic (grouped_gemm_w4a16.h): wgmma with the decoded weights as
// the register A operand (swap-AB: weight rows are M, tokens are N), for experts with many rows.
//
// Grid (ceil(N/128), min(G, rows bound)) as the small tactic (blockIdx.y = rank of an expert
// with rows). CTA = 2 warpgroups = 8 warps; warpgroup w owns weight rows 64w..64w+63 of the CTA's
// 128, each warp 16 of them (the A fragment rows of wgmma m64nNk16). Tokens go in passes of 128
// (wgmma N = 128: 64 fp32 accumulators per thread); the weight tile is re-streamed (from L2) and
// re-decoded per pass, which costs one decode per 128 tokens of MMA work.
//
// Shared memory, per stage (kStages = 4, each 1024-byte aligned, 21 KB):
//   [0, 16384)      activations 128 tokens x 64 bf16, K-major, 128-byte swizzle (16-byte chunk
//                   c of row r at r*128 + (c ^ (r & 7))*16): the canonical SW128 K-major layout
//                   a wgmma descriptor reads (8-row groups 1024 bytes apart = SBO)
//   [16384, 20480)  packed weights 128 rows x 32 bytes (fragment order)
//   [20480, ...)    scale tile of the step (256 / 512 bytes)
// 4 stages = 84 KB: two CTAs per SM (2 x 85 KB), so one CTA's decode overlaps the other's MMAs;
// 128 registers per thread at most.
// Step: wait for the stage (cp.async groups + __syncthreads), refill the slot the previous step
// used, decode the warp's A fragments for the 4 k16 blocks, 4 wgmma (one per k16 block, the B
// descriptor advanced 32 bytes along K), commit, wait: the next decode overwrites A.
// Epilogue: D = alpha[g] * acc (fp32, or rounded to bf16 for FC2's y), rows and columns
// bounds-checked.
#include <string>

#include "kernels/sm90/gemm/grouped_gemm_w4a16_common.cuh"
#include "kernels/sm90/gemm/wgmma.cuh"
#include "megamoe/errors.h"

namespace megamoe::sm90 {
namespace {

using namespace w4a16;

constexpr int kBT = 128, kNT = kBT / 8, kStages = 4;
constexpr int kXBytes = kBT * kBK * 2;  // 16384
constexpr int kWBytes = kBN * kBK / 2;  // 4096
constexpr int kStageBytes = 21 * 1024;  // X + W + scales (<= 512 B), rounded up to 1024
constexpr int kSwizzleAtomBytes = 1024;  // SW128: 8 rows x 128 B; each stage starts on this boundary
constexpr int kSmem = kSwizzleAtomBytes /* alignment slack */ + kStages * kStageBytes;
// Budget (see the top of the file): 1 + 4 x 21 = 85 KB, two CTAs per SM (__launch_bounds__
// minimum 2) within the SM's 228 KB.
static_assert(kXBytes + kWBytes + ScaleCfg<Fp4Scale::kNvfp4>::kTileBytes <= kStageBytes &&
                  kXBytes + kWBytes + ScaleCfg<Fp4Scale::kMxfp4>::kTileBytes <= kStageBytes,
              "a stage holds the activations, the weights and the larger scale tile");
static_assert(kStageBytes % kSwizzleAtomBytes == 0, "stages stay 1024-byte aligned for the SW128 descriptors");
static_assert(2 * kSmem <= 228 * 1024 && kSmem <= kMaxDynamicSmem, "two CTAs per SM");
static_assert(kStages >= 2, "the cp.async ring needs a stage in flight while one is read");
static_assert(kBT * (kSmemRowBytes / kChunkBytes) % kThreads == 0, "activation tile: whole chunks per thread");

__device__ __forceinline__ void wgmma_m64n128k16_rs(float (&d)[64], const uint32_t (&a)[4], uint64_t desc) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, {%64, %65, %66, %67}, %68, p, 1, 1, 0;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(desc));
}

// kBf16Out: D is bf16 (the fp32 value alpha * acc rounded to nearest), else fp32.
template <Fp4Scale F, bool kBf16Out>
__global__ void __launch_bounds__(kThreads, 2) w4a16_large_kernel(const __nv_bfloat16* __restrict__ A,
                                                                  const uint8_t* __restrict__ W,
                                                                  const uint8_t* __restrict__ S,
                                                                  const float* __restrict__ alpha,
                                                                  const int32_t* __restrict__ offsets,
                                                                  void* __restrict__ D, int N, int K, int G) {
  constexpr int kSBytes = ScaleCfg<F>::kTileBytes;
  extern __shared__ uint8_t smem_raw[];
  __shared__ int scratch[9];
  const uint32_t raw_addr = uint32_t(__cvta_generic_to_shared(smem_raw));
  uint8_t* smem = smem_raw + ((1024 - (raw_addr & 1023)) & 1023);  // stages 1024-byte aligned (swizzle atom)
  const uint32_t sbase = uint32_t(__cvta_generic_to_shared(smem));
  const int tid = threadIdx.x;
  pdl_wait_then_release();
  const int g = nth_active_expert(offsets, G, blockIdx.y, scratch);
  if (g < 0) return;
  const int n0 = blockIdx.x * kBN;
  const int lo = __ldg(offsets + g), hi = __ldg(offsets + g + 1);

  const int KT = K / kBK;
  const int warp = tid >> 5, lane = tid & 31, gq = lane >> 2, tig = lane & 3;
  const int wr = warp * 16;
  const size_t wrow = size_t(K) / 2;
  const uint8_t* Wg = W + size_t(g) * size_t(N) * wrow;
  const uint8_t* Sg = S + size_t(g) * size_t(KT) * size_t(N) * ScaleCfg<F>::kPerRow;
  const float al = alpha ? __ldg(alpha + g) : 1.0f;

  // Load roles: activations 4 chunks per thread (chunk c = tid + 256 i: row c/8, column chunk
  // c%8), weights one chunk (row tid/2, half tid%2), scales the first kSBytes/16 threads.
  const int w_row = tid >> 1, w_half = tid & 1;
  const bool w_ok = n0 + w_row < N;
  const uint8_t* w_src = Wg + size_t(w_ok ? n0 + w_row : 0) * wrow + w_half * kChunkBytes;
  const uint32_t w_dst = uint32_t(kXBytes + w_row * kPackedRowBytes + w_half * kChunkBytes);
  constexpr int kSChunks = kSBytes / kChunkBytes;
  const bool s_thr = tid < kSChunks;
  const bool s_ok = s_thr && (n0 + tid * (kChunkBytes / ScaleCfg<F>::kPerRow) < N);
  const int x_c = tid & 7, x_row0 = tid >> 3;  // rows x_row0 + 32 i

  for (int t0 = lo; t0 < hi; t0 += kBT) {
    const int rows_here = min(kBT, hi - t0);
    auto load_stage = [&](int kt, int slot) {
      const uint32_t st = sbase + uint32_t(slot * kStageBytes);
#pragma unroll
      for (int i = 0; i < 4; ++i) {
        const int r = x_row0 + 32 * i;
        const bool ok = r < rows_here;
        const __nv_bfloat16* src = A + size_t(ok ? t0 + r : lo) * size_t(K) + size_t(kt) * kBK + x_c * 8;
        cp_async16(st + uint32_t(r * kSmemRowBytes + ((x_c ^ (r & 7)) * kChunkBytes)), src, ok);
      }
      cp_async16(st + w_dst, w_src + size_t(kt) * kPackedRowBytes, w_ok);
      if (s_thr) {
        const uint8_t* src =
            s_ok ? Sg + (size_t(kt) * size_t(N) + size_t(n0)) * ScaleCfg<F>::kPerRow + tid * kChunkBytes : Sg;
        cp_async16(st + kXBytes + kWBytes + tid * kChunkBytes, src, s_ok);
      }
    };

    float acc[64];
#pragma unroll
    for (int i = 0; i < 64; ++i) acc[i] = 0.0f;

#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
      if (s < KT) load_stage(s, s);
      cp_async_commit();
    }
    for (int kt = 0; kt < KT; ++kt) {
      cp_async_wait<kStages - 2>();
      __syncthreads();  // the stage is visible to all; every warp finished step kt-1 (wgmma waited)
      {
        const int nk = kt + kStages - 1;
        if (nk < KT) load_stage(nk, nk % kStages);
        cp_async_commit();
      }
      const int slot = kt % kStages;
      const uint8_t* st = smem + slot * kStageBytes;
      const uint2 wa = *reinterpret_cast<const uint2*>(st + kXBytes + (wr + gq) * kPackedRowBytes + tig * 8);
      const uint2 wb = *reinterpret_cast<const uint2*>(st + kXBytes + (wr + gq + 8) * kPackedRowBytes + tig * 8);
      const uint8_t* ss = st + kXBytes + kWBytes;
      uint32_t af[4][4];
      decode_step<F>(wa, wb, row_scale_codes<F>(ss, wr + gq), row_scale_codes<F>(ss, wr + gq + 8), af);
      const uint64_t desc = wgmma::sw128_desc(sbase + uint32_t(slot * kStageBytes));
      wgmma::fence();
      wgmma::fence_acc(acc);
#pragma unroll
      for (int s = 0; s < 4; ++s) wgmma_m64n128k16_rs(acc, af[s], desc + uint64_t(2 * s));  // +32 bytes of K
      wgmma::commit();
      wgmma::wait<0>();
      wgmma::fence_acc(acc);
    }
    cp_async_wait<0>();
    __syncthreads();  // every warp is done with the stages before the next pass refills them

#pragma unroll
    for (int j = 0; j < kNT; ++j) {
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int col = j * 8 + 2 * tig + (q & 1);
        const int n = n0 + wr + gq + (q >> 1) * 8;
        if (col >= rows_here || n >= N) continue;
        const size_t i = size_t(t0 + col) * size_t(N) + n;
        if constexpr (kBf16Out)
          static_cast<__nv_bfloat16*>(D)[i] = __float2bfloat16_rn(al * acc[4 * j + q]);
        else
          static_cast<float*>(D)[i] = al * acc[4 * j + q];
      }
    }
  }
}

template <Fp4Scale F, bool kBf16Out>
cudaError_t launch_large(const W4A16GemmArgs& a, int grid_y, cudaStream_t stream) {
  auto kernel = w4a16_large_kernel<F, kBf16Out>;
  // Per launch: the attribute belongs to the current device's context (cheap host call).
  const cudaError_t attr = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem);
  if (attr != cudaSuccess) return attr;
  const dim3 grid(unsigned((a.N + kBN - 1) / kBN), unsigned(grid_y));
  kernel<<<grid, kThreads, kSmem, stream>>>(static_cast<const __nv_bfloat16*>(a.A), a.W, a.scales, a.alpha,
                                            a.offsets, kBf16Out ? a.D16 : static_cast<void*>(a.D), int(a.N),
                                            int(a.K), a.num_groups);
  return cudaGetLastError();
}

}  // namespace

cudaError_t launch_w4a16_large(const W4A16GemmArgs& a, Fp4Scale fmt, int grid_y, cudaStream_t stream) {
  if (a.D16)
    return fmt == Fp4Scale::kMxfp4 ? launch_large<Fp4Scale::kMxfp4, true>(a, grid_y, stream)
                                   : launch_large<Fp4Scale::kNvfp4, true>(a, grid_y, stream);
  return fmt == Fp4Scale::kMxfp4 ? launch_large<Fp4Scale::kMxfp4, false>(a, grid_y, stream)
                                 : launch_large<Fp4Scale::kNvfp4, false>(a, grid_y, stream);
}

}  // namespace megamoe::sm90
