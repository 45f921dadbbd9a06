// Argument checks of the public GPU weight quantizers (include/megamoe/quantize.h). They run
// entirely on the host before anything touches a GPU, so these tests need none: every bad argument
// raises InvalidArgument naming it (the pointers below are never dereferenced). In a build without
// CUDA, good arguments raise Unsupported saying so. The GPU results themselves are tested in
// tests/gpu/test_quantize_fp4.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>

#include "megamoe/errors.h"
#include "megamoe/quantize.h"

namespace megamoe {
namespace {

constexpr int64_t kE = 2, kN = 64, kK = 256;

// A fake device address: the checks never read through it.
void* fake(uintptr_t offset = 0) { return reinterpret_cast<void*>(uintptr_t(0x10000) + offset); }
const Device kDev = Device::cuda(0);

TensorView dev3(DType d, int64_t a, int64_t b, int64_t c) { return TensorView::contiguous(fake(), d, {a, b, c}, kDev); }
TensorView dev1(DType d, int64_t a) { return TensorView::contiguous(fake(), d, {a}, kDev); }

// Runs f, expects InvalidArgument whose argument() contains `arg` and whose message contains
// `expect_text`.
void expect_invalid(const std::function<void()>& f, const std::string& arg, const std::string& expect_text = "") {
  try {
    f();
    ADD_FAILURE() << "no exception; expected InvalidArgument about " << arg;
  } catch (const InvalidArgument& e) {
    EXPECT_NE(e.argument().find(arg), std::string::npos) << "argument() = " << e.argument() << "; wanted " << arg;
    EXPECT_NE(std::string(e.what()).find(expect_text), std::string::npos)
        << "message: " << e.what() << "; wanted it to contain: " << expect_text;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "wrong exception type: " << e.what();
  }
}

// Good MXFP4 arguments, to be spoiled one at a time.
struct Mx {
  TensorView src = dev3(DType::kBF16, kE, kN, kK);
  TensorView codes = dev3(DType::kU8, kE, kN, kK / 2);
  TensorView scales = dev3(DType::kE8M0, kE, kN, kK / 32);
  void run() const { quantize_weights_mxfp4(src, codes, scales); }
};

TEST(QuantizeGpuApi, SourceChecks) {
  {
    Mx a;
    a.src.device = Device::cpu();
    expect_invalid([&] { a.run(); }, "src device", "a CUDA device, got cpu");
  }
  {
    Mx a;
    a.src.dtype = DType::kF16;
    expect_invalid([&] { a.run(); }, "src dtype", "bfloat16 or float32, got float16");
  }
  {
    Mx a;
    a.src = TensorView::contiguous(fake(), DType::kBF16, {kE * kN * kK}, kDev);
    expect_invalid([&] { a.run(); }, "src", "[N, K] or 3-D [E, N, K]");
  }
  {
    Mx a;
    a.src = TensorView::contiguous(fake(), DType::kBF16, {1, kE, kN, kK}, kDev);
    expect_invalid([&] { a.run(); }, "src", "got 4-D");
  }
  {
    Mx a;  // a transposed view: strides of [E, K, N] read as [E, N, K]
    a.src.strides = {kN * kK, 1, kN};
    expect_invalid([&] { a.run(); }, "src", "contiguous");
  }
  {
    Mx a;
    a.src = dev3(DType::kBF16, kE, kN, 80);  // 80 % 32 != 0
    a.codes = dev3(DType::kU8, kE, kN, 40);
    a.scales = dev3(DType::kE8M0, kE, kN, 2);
    expect_invalid([&] { a.run(); }, "src K", "a multiple of 32, got 80");
  }
  {
    Mx a;
    a.src.data = nullptr;
    expect_invalid([&] { a.run(); }, "src data", "a device pointer, got null");
  }
  {
    Mx a;
    a.src.shape[1] = -1;
    expect_invalid([&] { a.run(); }, "src shape", "non-negative");
  }
}

TEST(QuantizeGpuApi, OutputChecks) {
  {
    Mx a;
    a.codes.dtype = DType::kE4M3;
    expect_invalid([&] { a.run(); }, "codes dtype", "uint8, got float8_e4m3fn");
  }
  {
    Mx a;  // unpacked codes: [E, N, K] instead of [E, N, K/2]
    a.codes = dev3(DType::kU8, kE, kN, kK);
    expect_invalid([&] { a.run(); }, "codes shape", "[2, 64, 128], got [2, 64, 256]");
  }
  {
    Mx a;  // NVFP4-sized scales given to MXFP4
    a.scales = dev3(DType::kE8M0, kE, kN, kK / 16);
    expect_invalid([&] { a.run(); }, "scales shape", "[2, 64, 8], got [2, 64, 16]");
  }
  {
    Mx a;
    a.scales.dtype = DType::kF32;
    expect_invalid([&] { a.run(); }, "scales dtype", "float8_e8m0fnu or uint8");
  }
  {
    Mx a;
    a.codes.device = Device::cuda(1);
    expect_invalid([&] { a.run(); }, "codes device", "cuda:0 (src's device), got cuda:1");
  }
  {
    Mx a;
    a.scales.device = Device::cpu();
    expect_invalid([&] { a.run(); }, "scales device", "got cpu");
  }
  {
    Mx a;
    a.codes.strides[1] = kK;  // rows of the unpacked width: not contiguous
    expect_invalid([&] { a.run(); }, "codes", "contiguous");
  }
  {
    Mx a;
    a.codes.data = nullptr;
    expect_invalid([&] { a.run(); }, "codes data", "null");
  }
}

TEST(QuantizeGpuApi, PerFormatShapes) {
  const TensorView src = dev3(DType::kF32, kE, kN, kK);
  // fp8_block: scales are [E, ceil(N/128), ceil(K/128)] float32.
  expect_invalid([&] { quantize_weights_fp8_block(src, dev3(DType::kE4M3, kE, kN, kK), dev3(DType::kF32, kE, 0, 2)); },
                 "quantize_weights_fp8_block: scales shape", "[2, 1, 2], got [2, 0, 2]");
  expect_invalid([&] { quantize_weights_fp8_block(src, dev3(DType::kE4M3, kE, kN, kK), dev3(DType::kE8M0, kE, 1, 2)); },
                 "quantize_weights_fp8_block: scales dtype", "float32");
  expect_invalid([&] { quantize_weights_fp8_block(src, dev3(DType::kBF16, kE, kN, kK), dev3(DType::kF32, kE, 1, 2)); },
                 "quantize_weights_fp8_block: codes dtype", "float8_e4m3fn or uint8, got bfloat16");
  // mxfp8: codes [E, N, K].
  expect_invalid([&] { quantize_weights_mxfp8(src, dev3(DType::kE4M3, kE, kN, kK / 2), dev3(DType::kE8M0, kE, kN, 8)); },
                 "quantize_weights_mxfp8: codes shape", "[2, 64, 256]");
  // nvfp4: K % 16, scales [E, N, K/16], global [E] float32.
  const TensorView nc = dev3(DType::kU8, kE, kN, kK / 2), ns = dev3(DType::kE4M3, kE, kN, kK / 16);
  expect_invalid([&] { quantize_weights_nvfp4(dev3(DType::kBF16, kE, kN, 40), dev3(DType::kU8, kE, kN, 20),
                                              dev3(DType::kE4M3, kE, kN, 2), dev1(DType::kF32, kE)); },
                 "quantize_weights_nvfp4: src K", "a multiple of 16, got 40");
  expect_invalid([&] { quantize_weights_nvfp4(src, nc, dev3(DType::kE4M3, kE, kN, kK / 32), dev1(DType::kF32, kE)); },
                 "quantize_weights_nvfp4: scales shape", "[2, 64, 16]");
  expect_invalid([&] { quantize_weights_nvfp4(src, nc, ns, dev1(DType::kF32, kE + 1)); },
                 "quantize_weights_nvfp4: global_scale shape", "[2], got [3]");
  expect_invalid([&] { quantize_weights_nvfp4(src, nc, ns, dev1(DType::kBF16, kE)); },
                 "quantize_weights_nvfp4: global_scale dtype", "float32, got bfloat16");
  expect_invalid([&] { quantize_weights_nvfp4(src, nc, ns, TensorView{}); },
                 "quantize_weights_nvfp4: global_scale", "");
  // A 2-D source takes a [1] global scale.
  expect_invalid([&] { quantize_weights_nvfp4(TensorView::contiguous(fake(), DType::kBF16, {kN, kK}, kDev),
                                              TensorView::contiguous(fake(), DType::kU8, {kN, kK / 2}, kDev),
                                              TensorView::contiguous(fake(), DType::kU8, {kN, kK / 16}, kDev),
                                              TensorView::contiguous(fake(), DType::kF32, {kN}, kDev)); },
                 "quantize_weights_nvfp4: global_scale shape", "[1], got [64]");
}

#if !defined(MEGAMOE_WITH_CUDA)
// Without CUDA, good arguments are answered with Unsupported naming the missing CUDA.
TEST(QuantizeGpuApi, CpuOnlyBuildSaysCudaIsAbsent) {
  Mx a;
  try {
    a.run();
    ADD_FAILURE() << "no exception";
  } catch (const Unsupported& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA"), std::string::npos) << e.what();
  }
  EXPECT_THROW(quantize_weights_fp8_block(dev3(DType::kBF16, kE, kN, kK), dev3(DType::kE4M3, kE, kN, kK),
                                          dev3(DType::kF32, kE, 1, 2)),
               Unsupported);
  EXPECT_THROW(quantize_weights_nvfp4(dev3(DType::kBF16, kE, kN, kK), dev3(DType::kU8, kE, kN, kK / 2),
                                      dev3(DType::kE4M3, kE, kN, kK / 16), dev1(DType::kF32, kE)),
               Unsupported);
}
#endif

}  // namespace
}  // namespace megamoe
