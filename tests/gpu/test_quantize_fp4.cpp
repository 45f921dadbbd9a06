// GPU tests of the MX / NVFP4 quantizers (kernels/sm90/quantize/quantize_fp4.h) and of the public GPU
// weight quantizers (include/megamoe/quantize.h), against the CPU quantizers (src/formats/quantize.h),
// byte for byte: every code, every scale, every global scale.
//   QuantizeFp4.Mx*         MX e2m1 and e4m3, bf16 and f32 sources, several shapes
//   QuantizeFp4.Nvfp4*      NVFP4 global scales and codes; caller-given globals, bad globals; a CUDA graph
//   QuantizeFp4.Synthetic*  fill_synthetic_layer_fp4 == reference::synthetic_canonical_weights
//   QuantizeFp4.PublicApi*  the TensorView entry points
// Inputs are random per process (MEGAMOE_TEST_SEED=<n> pins them) with planted blocks: all zero,
// -0.0, huge (1e30, 3e38), float32 subnormals, a NaN, +inf, -inf, exact e2m1 / e4m3 ties; whole batch
// entries that are all zero, tiny (2^-100), or only NaN and zeros (NVFP4's global ignores NaN/inf).
// Outputs are poisoned (0xAB) before each run, so an unwritten byte shows. Skips without an sm_90 GPU.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "formats/quantize.h"
#include "kernels/sm90/quantize/quantize_fp4.h"
#include "kernels/sm90/synthetic/synthetic_fill.h"
#include "megamoe/quantize.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

constexpr uint8_t kPoison = 0xAB;  // written to every output before a run; never all a kernel's output

uint32_t fbits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float bitsf(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// One [N, K] batch entry. kind 0: ordinary values (magnitude 2^-20..2^20 per 32-block) with the
// planted rows below; 1: ordinary values only; 2: all zero; 3: tiny (ordinary * 2^-100, so float32
// subnormals and tiny normals); 4: zeros with NaN / inf sprinkled in.
std::vector<float> make_entry(int64_t N, int64_t K, int kind, bool bf16, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> nd(0.0f, 1.0f);
  std::uniform_int_distribution<int> ex(-20, 20);
  std::vector<float> v(size_t(N * K), 0.0f);
  const int64_t KB = K / 32;
  if (kind == 0 || kind == 1 || kind == 3) {
    for (int64_t r = 0; r < N; ++r)
      for (int64_t kb = 0; kb < KB; ++kb) {
        const float mag = std::ldexp(1.0f, ex(rng) - (kind == 3 ? 100 : 0));
        for (int64_t k = kb * 32; k < kb * 32 + 32; ++k) v[size_t(r * K + k)] = nd(rng) * mag;
      }
  }
  auto put = [&](int64_t r, int64_t k, float x) {
    if (r < N && k < K) v[size_t(r * K + k)] = x;
  };
  if (kind == 4) {
    put(0, 3, std::numeric_limits<float>::quiet_NaN());
    put(N - 1, K - 1, std::numeric_limits<float>::infinity());
    put(N / 2, K / 2, -std::numeric_limits<float>::infinity());
  }
  if (kind == 0) {
    const float inf = std::numeric_limits<float>::infinity();
    static const float kE2M1Ties[] = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5.0f};
    for (int64_t k = 0; k < 32; ++k) {
      put(0, k, 0.0f);                                                               // zero block
      put(1, k, (k % 2 ? -1.0f : 1.0f) * 1e30f * (1.0f + float(k) / 32.0f));         // huge
      put(1, 32 + k, (k % 2 ? -1.0f : 1.0f) * 3.0e38f * (0.5f + float(k) / 64.0f));  // near FLT_MAX
      put(2, k, bitsf(uint32_t(1 + 977 * k) & 0x007FFFFFu) * (k % 3 ? 1.0f : -1.0f)); // subnormals
      // Row 6: amax 6 (MX e2m1: e = 0, x unscaled), the rest e2m1 ties of either sign.
      put(6, k, (k % 2 ? -1.0f : 1.0f) * kE2M1Ties[k % 7]);
      // Row 7: amax 256 (MX e4m3: e = 0), e4m3 ties 1 + 1/16 + j/8 either sign.
      put(7, k, (k % 2 ? -1.0f : 1.0f) * (1.0f + 1.0f / 16.0f + float(k % 8) / 8.0f));
    }
    put(0, 5, -0.0f);
    put(2, 7, 1.2e-38f);
    put(3, 9, std::numeric_limits<float>::quiet_NaN());
    put(4, 1, inf);
    put(5, 2, -inf);
    put(6, 31, 6.0f);
    put(7, 31, 256.0f);
    put(8, 0, 7.0f);  // MX e2m1 clipping: amax 7 -> e = 0 -> 7 becomes 6 (if larger than the rest)
  }
  if (bf16)
    for (auto& x : v) x = formats::round_to_bf16(x);
  return v;
}

std::vector<float> make_input(int64_t batch, int64_t N, int64_t K, bool bf16, const std::string& name) {
  std::vector<float> src;
  for (int64_t b = 0; b < batch; ++b) {
    const auto e = make_entry(N, K, int(b % 5), bf16, case_seed(name) + uint64_t(b * 7919 + K));
    src.insert(src.end(), e.begin(), e.end());
  }
  return src;
}

std::vector<uint16_t> to_bf16_bits(const std::vector<float>& v) {
  std::vector<uint16_t> b(v.size());
  for (size_t i = 0; i < v.size(); ++i) b[i] = formats::float_to_bf16_bits(v[i]);
  return b;
}

// The source on the device in the requested dtype (bf16 bits or f32), as raw bytes.
struct DeviceSource {
  DevBuf<uint16_t> b;
  DevBuf<float> f;
  DType dtype;
  DeviceSource(const std::vector<float>& v, bool bf16) : dtype(bf16 ? DType::kBF16 : DType::kF32) {
    if (bf16) b.upload(to_bf16_bits(v)); else f.upload(v);
  }
  const void* ptr() const { return dtype == DType::kBF16 ? static_cast<const void*>(b.p) : static_cast<const void*>(f.p); }
};

// A device byte buffer filled with kPoison.
struct PoisonedBytes : DevBuf<uint8_t> {
  explicit PoisonedBytes(size_t count) : DevBuf<uint8_t>(count) {
    if (n) CUDA_CHECK(cudaMemset(p, kPoison, n));
    // cudaMemset runs on the legacy default stream; the tests' non-blocking streams are not ordered
    // after it, so a late poison could land on a kernel's output.
    if (n) CUDA_CHECK(cudaDeviceSynchronize());
  }
};

void expect_same_bytes(const std::vector<uint8_t>& gpu, const std::vector<uint8_t>& cpu, const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  int64_t bad = 0, first = -1;
  for (size_t i = 0; i < gpu.size(); ++i)
    if (gpu[i] != cpu[i]) {
      if (first < 0) first = int64_t(i);
      ++bad;
    }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << gpu.size() << " bytes differ, first at " << first << " (gpu 0x"
                    << std::hex << (first >= 0 ? int(gpu[size_t(first)]) : 0) << ", cpu 0x"
                    << (first >= 0 ? int(cpu[size_t(first)]) : 0) << ")";
}

void expect_same_floats(const std::vector<float>& gpu, const std::vector<float>& cpu, const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  int64_t bad = 0, first = -1;
  for (size_t i = 0; i < gpu.size(); ++i)
    if (fbits(gpu[i]) != fbits(cpu[i])) {
      if (first < 0) first = int64_t(i);
      ++bad;
    }
  EXPECT_EQ(bad, 0) << what << ": " << bad << " of " << gpu.size() << " floats differ, first at " << first
                    << " (gpu " << (first >= 0 ? gpu[size_t(first)] : 0.0f) << ", cpu "
                    << (first >= 0 ? cpu[size_t(first)] : 0.0f) << ")";
}

// Counts the bytes equal to v (checks that planted specials were really exercised).
int64_t count_of(const std::vector<uint8_t>& v, uint8_t x) {
  int64_t n = 0;
  for (uint8_t b : v) n += b == x;
  return n;
}

struct Shape {
  int64_t batch, N, K;
  std::string str() const {
    return "batch " + std::to_string(batch) + " N " + std::to_string(N) + " K " + std::to_string(K);
  }
};
// Row counts not a multiple of anything, K from one block up; 5 entries cover every input kind.
const Shape kShapes[] = {{5, 16, 64}, {1, 7, 32}, {3, 33, 96}, {5, 130, 1024}, {2, 256, 2880}};

// ---------------------------------------------------------------------------------------------
// MX
// ---------------------------------------------------------------------------------------------

TEST(QuantizeFp4, MxE2M1AndE4M3MatchCpuQuantizer) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  int64_t nan_scales = 0;
  for (const Shape& s : kShapes) {
    for (bool bf16 : {true, false}) {
      for (formats::MxElem elem : {formats::MxElem::kE2M1, formats::MxElem::kE4M3}) {
        const bool fp4 = elem == formats::MxElem::kE2M1;
        SCOPED_TRACE(s.str() + (bf16 ? " bf16" : " f32") + (fp4 ? " e2m1" : " e4m3"));
        const auto src = make_input(s.batch, s.N, s.K, bf16, "mx");
        const int64_t rows = s.batch * s.N;
        std::vector<uint8_t> cpu_codes(size_t(fp4 ? rows * s.K / 2 : rows * s.K)), cpu_scales(size_t(rows * s.K / 32));
        formats::quantize_mx(src.data(), rows, s.K, s.K, elem, cpu_codes.data(), cpu_scales.data());
        DeviceSource d(src, bf16);
        PoisonedBytes codes(cpu_codes.size()), scales(cpu_scales.size());
        if (fp4)
          sm90::quantize_mx_e2m1_gpu(d.ptr(), d.dtype, s.batch, s.N, s.K, codes.p, scales.p, nullptr);
        else
          sm90::quantize_mx_e4m3_gpu(d.ptr(), d.dtype, s.batch, s.N, s.K, codes.p, scales.p, nullptr);
        CUDA_CHECK(cudaDeviceSynchronize());
        expect_same_bytes(codes.download(), cpu_codes, "codes");
        expect_same_bytes(scales.download(), cpu_scales, "scales");
        nan_scales += count_of(cpu_scales, 0xFF);
      }
    }
  }
  EXPECT_GT(nan_scales, 0) << "no poisoned block was exercised";
}

// A source whose base is only 2-byte (bf16) / 4-byte (f32) aligned and codes only 1-byte aligned:
// the kernels' scalar load / store paths.
TEST(QuantizeFp4, MxUnalignedPointersMatchCpuQuantizer) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const Shape s{2, 9, 64};
  for (bool bf16 : {true, false}) {
    SCOPED_TRACE(bf16 ? "bf16" : "f32");
    const auto src = make_input(s.batch, s.N, s.K, bf16, "mx unaligned");
    const int64_t rows = s.batch * s.N;
    std::vector<uint8_t> cpu_codes(size_t(rows * s.K / 2)), cpu_scales(size_t(rows * s.K / 32));
    formats::quantize_mx(src.data(), rows, s.K, s.K, formats::MxElem::kE2M1, cpu_codes.data(), cpu_scales.data());
    std::vector<float> shifted(src.size() + 1, 0.0f);  // element 1 onwards = src
    std::copy(src.begin(), src.end(), shifted.begin() + 1);
    DeviceSource d(shifted, bf16);
    const void* base = static_cast<const char*>(d.ptr()) + (bf16 ? 2 : 4);
    PoisonedBytes codes(cpu_codes.size() + 1), scales(cpu_scales.size());
    sm90::quantize_mx_e2m1_gpu(base, d.dtype, s.batch, s.N, s.K, codes.p + 1, scales.p, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    auto got = codes.download();
    EXPECT_EQ(got[0], kPoison) << "wrote before codes";
    got.erase(got.begin());
    expect_same_bytes(got, cpu_codes, "codes");
    expect_same_bytes(scales.download(), cpu_scales, "scales");
  }
}

// ---------------------------------------------------------------------------------------------
// NVFP4
// ---------------------------------------------------------------------------------------------

struct CpuNvfp4 {
  std::vector<float> global;
  std::vector<uint8_t> codes, scales;
};

// formats:: quantizers per batch entry; `given` = the global scales to use (empty: derive them).
CpuNvfp4 cpu_nvfp4(const std::vector<float>& src, const Shape& s, const std::vector<float>& given = {}) {
  CpuNvfp4 r;
  r.codes.resize(size_t(s.batch * s.N * s.K / 2));
  r.scales.resize(size_t(s.batch * s.N * s.K / 16));
  for (int64_t b = 0; b < s.batch; ++b) {
    const float* x = src.data() + b * s.N * s.K;
    const float g = given.empty() ? formats::nvfp4_global_scale(x, s.N * s.K) : given[size_t(b)];
    r.global.push_back(g);
    formats::quantize_nvfp4(x, s.N, s.K, s.K, g, r.codes.data() + b * s.N * s.K / 2,
                            r.scales.data() + b * s.N * s.K / 16);
  }
  return r;
}

TEST(QuantizeFp4, Nvfp4GlobalScalesAndCodesMatchCpuQuantizer) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  int64_t zero_scales = 0, nan_scales = 0, unit_globals = 0;
  for (const Shape& s : kShapes) {
    for (bool bf16 : {true, false}) {
      SCOPED_TRACE(s.str() + (bf16 ? " bf16" : " f32"));
      const auto src = make_input(s.batch, s.N, s.K, bf16, "nvfp4");
      const CpuNvfp4 cpu = cpu_nvfp4(src, s);
      DeviceSource d(src, bf16);
      PoisonedBytes codes(cpu.codes.size()), scales(cpu.scales.size());
      DevBuf<float> global{size_t(s.batch)};
      CUDA_CHECK(cudaMemset(global.p, kPoison, global.n * 4));  // the reduction must not depend on it
      sm90::nvfp4_global_scale_gpu(d.ptr(), d.dtype, s.batch, s.N, s.K, global.p, nullptr);
      sm90::quantize_nvfp4_gpu(d.ptr(), d.dtype, s.batch, s.N, s.K, global.p, codes.p, scales.p, nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      expect_same_floats(global.download(), cpu.global, "global");
      expect_same_bytes(codes.download(), cpu.codes, "codes");
      expect_same_bytes(scales.download(), cpu.scales, "scales");
      zero_scales += count_of(cpu.scales, 0x00);
      nan_scales += count_of(cpu.scales, 0x7F);
      for (float g : cpu.global) unit_globals += g == 1.0f;
    }
  }
  // The special paths really ran: blocks whose scale rounds to 0 (codes 0), poisoned blocks, and
  // entries whose global is 1 (all zero / only NaN and inf).
  EXPECT_GT(zero_scales, 0);
  EXPECT_GT(nan_scales, 0);
  EXPECT_GT(unit_globals, 0);
}

// Global scales given by the caller (as a checkpoint's): valid ones give the CPU's bytes; an entry
// whose global is 0, negative, inf or NaN is poisoned whole (scales 0x7F, codes 0x7), the others
// are unaffected.
TEST(QuantizeFp4, Nvfp4CallerGlobalScales) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const Shape s{8, 24, 128};
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> given = {0.37f, 1e-3f, 0.0f, -0.5f, 2.5e-30f, inf, nan, 1.0f};
  const auto src = make_input(s.batch, s.N, s.K, true, "nvfp4 given");
  std::vector<float> cpu_given = given;
  for (auto& g : cpu_given)
    if (!(g > 0.0f && std::isfinite(g))) g = 1.0f;  // the CPU rejects these; compare the valid entries
  const CpuNvfp4 cpu = cpu_nvfp4(src, s, cpu_given);
  DeviceSource d(src, true);
  DevBuf<float> global;
  global.upload(given);
  PoisonedBytes codes(cpu.codes.size()), scales(cpu.scales.size());
  sm90::quantize_nvfp4_gpu(d.ptr(), d.dtype, s.batch, s.N, s.K, global.p, codes.p, scales.p, nullptr);
  CUDA_CHECK(cudaDeviceSynchronize());
  const auto gc = codes.download(), gs = scales.download();
  const size_t cpe = size_t(s.N * s.K / 2), spe = size_t(s.N * s.K / 16);  // bytes per entry
  for (int64_t b = 0; b < s.batch; ++b) {
    SCOPED_TRACE("entry " + std::to_string(b) + " global " + std::to_string(given[size_t(b)]));
    std::vector<uint8_t> c(gc.begin() + b * cpe, gc.begin() + (b + 1) * cpe), sc(gs.begin() + b * spe, gs.begin() + (b + 1) * spe);
    if (given[size_t(b)] != cpu_given[size_t(b)]) {
      EXPECT_EQ(count_of(c, 0x77), int64_t(cpe)) << "codes of a bad global";
      EXPECT_EQ(count_of(sc, 0x7F), int64_t(spe)) << "scales of a bad global";
    } else {
      expect_same_bytes(c, std::vector<uint8_t>(cpu.codes.begin() + b * cpe, cpu.codes.begin() + (b + 1) * cpe), "codes");
      expect_same_bytes(sc, std::vector<uint8_t>(cpu.scales.begin() + b * spe, cpu.scales.begin() + (b + 1) * spe), "scales");
    }
  }
}

// The whole NVFP4 sequence (memset, reduction, finish, quantize) captured into a CUDA graph on a
// non-blocking stream and replayed twice gives the CPU's bytes.
TEST(QuantizeFp4, Nvfp4CapturedInCudaGraph) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const Shape s{4, 64, 256};
  const auto src = make_input(s.batch, s.N, s.K, true, "nvfp4 graph");
  const CpuNvfp4 cpu = cpu_nvfp4(src, s);
  DeviceSource d(src, true);
  PoisonedBytes codes(cpu.codes.size()), scales(cpu.scales.size());
  DevBuf<float> global{size_t(s.batch)};
  cudaStream_t st;
  CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CUDA_CHECK(cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal));
  sm90::nvfp4_global_scale_gpu(d.ptr(), d.dtype, s.batch, s.N, s.K, global.p, st);
  sm90::quantize_nvfp4_gpu(d.ptr(), d.dtype, s.batch, s.N, s.K, global.p, codes.p, scales.p, st);
  CUDA_CHECK(cudaStreamEndCapture(st, &graph));
  CUDA_CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int rep = 0; rep < 2; ++rep) {
    CUDA_CHECK(cudaMemsetAsync(codes.p, kPoison, codes.n, st));
    CUDA_CHECK(cudaMemsetAsync(global.p, kPoison, global.n * 4, st));
    CUDA_CHECK(cudaGraphLaunch(exec, st));
    CUDA_CHECK(cudaStreamSynchronize(st));
    SCOPED_TRACE("replay " + std::to_string(rep));
    expect_same_floats(global.download(), cpu.global, "global");
    expect_same_bytes(codes.download(), cpu.codes, "codes");
    expect_same_bytes(scales.download(), cpu.scales, "scales");
  }
  CUDA_CHECK(cudaGraphExecDestroy(exec));
  CUDA_CHECK(cudaGraphDestroy(graph));
  CUDA_CHECK(cudaStreamDestroy(st));
}

// ---------------------------------------------------------------------------------------------
// The synthetic layer made on the device
// ---------------------------------------------------------------------------------------------

TEST(QuantizeFp4, SyntheticLayerOnDeviceEqualsCanonical) {
  MEGAMOE_REQUIRE_SM90();
  for (Recipe recipe : {Recipe::kW4A16MXFP4, Recipe::kW4A16NVFP4, Recipe::kW4A8MXFP4, Recipe::kNVFP4}) {
    for (bool bias : {false, true}) {
      for (int rank : {0, 1}) {
        MoeConfig c;
        c.num_experts = 6;
        c.top_k = 2;
        c.hidden_size = 256;
        c.intermediate_size = 96;
        c.activation = bias ? Activation::kSwiGLUOAI : Activation::kSwiGLU;
        c.has_bias = bias;
        c.recipe = recipe;
        c.ep_size = 2;  // rank 1's experts start past expert 0: the flat index base is exercised
        c.ep_rank = rank;
        SCOPED_TRACE(std::string(recipe_name(recipe)) + (bias ? " bias" : "") + " ep_rank " + std::to_string(rank));
        const uint64_t seed = case_seed("synthetic fp4");
        const auto canon = reference::synthetic_canonical_weights(c, seed);
        const bool nv = recipe == Recipe::kW4A16NVFP4 || recipe == Recipe::kNVFP4;
        const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size;
        PoisonedBytes w13(canon.w13.size()), w2(canon.w2.size());
        PoisonedBytes s13(canon.w13_scale.size()), s2(canon.w2_scale.size());
        DevBuf<float> g13{size_t(E)}, g2{size_t(E)}, b13{size_t(E * N13)}, b2{size_t(E * H)};
        sm90::fill_synthetic_layer_fp4(c, seed, w13.p, s13.p, w2.p, s2.p, nv ? g13.p : nullptr, nv ? g2.p : nullptr,
                                       bias ? b13.p : nullptr, bias ? b2.p : nullptr, nullptr);
        CUDA_CHECK(cudaDeviceSynchronize());
        expect_same_bytes(w13.download(), canon.w13, "w13");
        expect_same_bytes(w2.download(), canon.w2, "w2");
        expect_same_bytes(s13.download(), canon.w13_scale, "w13_scale");
        expect_same_bytes(s2.download(), canon.w2_scale, "w2_scale");
        if (nv) {
          expect_same_floats(g13.download(), canon.w13_global, "w13_global");
          expect_same_floats(g2.download(), canon.w2_global, "w2_global");
        }
        if (bias) {
          expect_same_floats(b13.download(), canon.b13, "b13");
          expect_same_floats(b2.download(), canon.b2, "b2");
        }
      }
    }
  }
}

TEST(QuantizeFp4, SyntheticLayerRejectsOtherRecipes) {
  MEGAMOE_REQUIRE_SM90();
  MoeConfig c;
  c.num_experts = 2;
  c.top_k = 1;
  c.hidden_size = 256;
  c.intermediate_size = 96;
  c.recipe = Recipe::kFP8Block;
  DevBuf<uint8_t> buf(1 << 20);
  DevBuf<float> g(2);
  EXPECT_THROW(sm90::fill_synthetic_layer_fp4(c, 1, buf.p, buf.p, buf.p, buf.p, g.p, g.p, nullptr, nullptr, nullptr),
               InvalidArgument);
  c.recipe = Recipe::kW4A16NVFP4;
  EXPECT_THROW(sm90::fill_synthetic_layer_fp4(c, 1, buf.p, buf.p, buf.p, buf.p, nullptr, nullptr, nullptr, nullptr,
                                              nullptr),
               InvalidArgument);  // NVFP4 needs the global-scale outputs
}

// ---------------------------------------------------------------------------------------------
// The public entry points (include/megamoe/quantize.h)
// ---------------------------------------------------------------------------------------------

TEST(QuantizeFp4, PublicApiMatchesCpuQuantizers) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const Device dev = Device::cuda(0);
  const int64_t E = 3, N = 40, K = 384;
  const auto src = make_input(E, N, K, true, "public api");
  DeviceSource d(src, true);
  const TensorView sv = TensorView::contiguous(d.ptr(), DType::kBF16, {E, N, K}, dev);
  cudaStream_t st;
  CUDA_CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  {  // MXFP4, 3-D
    std::vector<uint8_t> cc(size_t(E * N * K / 2)), cs(size_t(E * N * K / 32));
    formats::quantize_mx(src.data(), E * N, K, K, formats::MxElem::kE2M1, cc.data(), cs.data());
    PoisonedBytes codes(cc.size()), scales(cs.size());
    quantize_weights_mxfp4(sv, TensorView::contiguous(codes.p, DType::kU8, {E, N, K / 2}, dev),
                           TensorView::contiguous(scales.p, DType::kE8M0, {E, N, K / 32}, dev), st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    expect_same_bytes(codes.download(), cc, "mxfp4 codes");
    expect_same_bytes(scales.download(), cs, "mxfp4 scales");
  }
  {  // MXFP8, 2-D (the first expert only)
    std::vector<uint8_t> cc(size_t(N * K)), cs(size_t(N * K / 32));
    formats::quantize_mx(src.data(), N, K, K, formats::MxElem::kE4M3, cc.data(), cs.data());
    PoisonedBytes codes(cc.size()), scales(cs.size());
    quantize_weights_mxfp8(TensorView::contiguous(d.ptr(), DType::kBF16, {N, K}, dev),
                           TensorView::contiguous(codes.p, DType::kE4M3, {N, K}, dev),
                           TensorView::contiguous(scales.p, DType::kU8, {N, K / 32}, dev), st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    expect_same_bytes(codes.download(), cc, "mxfp8 codes");
    expect_same_bytes(scales.download(), cs, "mxfp8 scales");
  }
  {  // NVFP4, global scales derived and then given back as input
    const CpuNvfp4 cpu = cpu_nvfp4(src, {E, N, K});
    PoisonedBytes codes(cpu.codes.size()), scales(cpu.scales.size());
    DevBuf<float> global{size_t(E)};
    const TensorView cv = TensorView::contiguous(codes.p, DType::kU8, {E, N, K / 2}, dev);
    const TensorView scv = TensorView::contiguous(scales.p, DType::kE4M3, {E, N, K / 16}, dev);
    const TensorView gv = TensorView::contiguous(global.p, DType::kF32, {E}, dev);
    quantize_weights_nvfp4(sv, cv, scv, gv, false, st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    expect_same_floats(global.download(), cpu.global, "nvfp4 global");
    expect_same_bytes(codes.download(), cpu.codes, "nvfp4 codes");
    expect_same_bytes(scales.download(), cpu.scales, "nvfp4 scales");
    CUDA_CHECK(cudaMemsetAsync(codes.p, kPoison, codes.n, st));
    quantize_weights_nvfp4(sv, cv, scv, gv, true, st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    expect_same_bytes(codes.download(), cpu.codes, "nvfp4 codes, global as input");
  }
  {  // fp8_block (the wrapped quantize_fp8_block_weight_gpu)
    const int64_t NB = (N + 127) / 128, KB = (K + 127) / 128;
    std::vector<uint8_t> cc(size_t(E * N * K));
    std::vector<float> cs(size_t(E * NB * KB));
    for (int64_t e = 0; e < E; ++e)
      formats::quantize_fp8_block_weight(src.data() + e * N * K, N, K, cc.data() + e * N * K, cs.data() + e * NB * KB);
    PoisonedBytes codes(cc.size());
    DevBuf<float> scales(cs.size());
    quantize_weights_fp8_block(sv, TensorView::contiguous(codes.p, DType::kE4M3, {E, N, K}, dev),
                               TensorView::contiguous(scales.p, DType::kF32, {E, NB, KB}, dev), false, st);
    CUDA_CHECK(cudaStreamSynchronize(st));
    expect_same_bytes(codes.download(), cc, "fp8_block codes");
    expect_same_floats(scales.download(), cs, "fp8_block scales");
  }
  {  // a host tensor where a device one belongs is refused before anything runs
    std::vector<uint8_t> host(size_t(E * N * K / 2));
    EXPECT_THROW(quantize_weights_mxfp4(sv, TensorView::contiguous(host.data(), DType::kU8, {E, N, K / 2}),
                                        TensorView::contiguous(host.data(), DType::kU8, {E, N, K / 32}, dev), st),
                 InvalidArgument);
  }
  CUDA_CHECK(cudaStreamDestroy(st));
}

}  // namespace
}  // namespace megamoe::gputest
