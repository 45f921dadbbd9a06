// wgmma for the FP8 TMA tactic (grouped_gemm_fp8_tma.cuh): e4m3 x e4m3 -> fp32, m64nNk32, both
// operands K-major 128-byte-swizzled tiles in shared memory (the descriptor of wgmma.cuh: +2 advances
// 32 bytes = one k32 block of e4m3), for the widths the kernel runs: N = 128 (a tile's 128 weight
// rows; the swap-AB version of 2026-12-02 also had 32, 64, 96 and 160 for its token widths). `accumulate`
// false overwrites d (scale-d = 0: the first k32 block of a 128-K scale block starts the
// temporary), true adds to it. FP8 wgmma has no transpose immediates (K-major only). The
// accumulator array holds exactly N / 2 floats; the operand lists are written out because inline
// PTX takes no arrays.
#pragma once
#include <cstdint>

namespace megamoe::sm90::wgmma {

template <int N>
__device__ __forceinline__ void mma_ss_e4m3(float (&d)[N / 2], uint64_t a, uint64_t b, bool accumulate);

template <>
__device__ __forceinline__ void mma_ss_e4m3<128>(float (&d)[64], uint64_t a, uint64_t b, bool accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(a), "l"(b), "r"(int(accumulate)));
}

}  // namespace megamoe::sm90::wgmma
