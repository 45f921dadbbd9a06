// The GPU route plan against its CPU twin (exact), and the split path's memory-bound
// kernels (permute, activation, combine) against host computations, independent of the
// grouped GEMM. Every test skips without an sm_90 GPU.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>
#include <tuple>

#include "kernels/sm90/moe/moe_kernels.h"
#include "routing/route_plan.h"
#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

using routing::RouteDims;
using routing::RoutePlanDevice;
using routing::RoutePlanHost;

// A device plan with its own workspace.
struct DevicePlan {
  DevBuf<uint8_t> ws;
  RoutePlanDevice p;
  DevicePlan(int64_t max_tokens, int64_t K, int64_t EL) {
    const int64_t cap = routing::bucket_capacity(max_tokens);
    ws.alloc(routing::route_plan_workspace_bytes(cap, K, EL));
    p = routing::carve_route_plan(ws.p, cap, K, EL);
    routing::init_route_plan(p, nullptr);
  }
  RoutePlanHost download(int64_t T, int64_t* invalid) const {
    RoutePlanHost h;
    const int64_t EL = p.local_experts;
    h.counts.resize(size_t(EL));
    h.offsets.resize(size_t(EL + 1));
    CUDA_CHECK(cudaMemcpy(h.counts.data(), p.counts, EL * 4, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(h.offsets.data(), p.offsets, (EL + 1) * 4, cudaMemcpyDeviceToHost));
    const int64_t total = h.offsets[size_t(EL)];
    h.row_to_route.resize(size_t(std::max<int64_t>(total, 0)));
    h.row_expert.resize(h.row_to_route.size());
    h.route_to_row.resize(size_t(T * p.top_k));
    if (total > 0) {
      CUDA_CHECK(cudaMemcpy(h.row_to_route.data(), p.row_to_route, total * 4, cudaMemcpyDeviceToHost));
      CUDA_CHECK(cudaMemcpy(h.row_expert.data(), p.row_expert, total * 4, cudaMemcpyDeviceToHost));
    }
    if (T > 0) CUDA_CHECK(cudaMemcpy(h.route_to_row.data(), p.route_to_row, T * p.top_k * 4, cudaMemcpyDeviceToHost));
    unsigned long long inv = 0;
    CUDA_CHECK(cudaMemcpy(&inv, p.invalid_count, sizeof inv, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemset(p.invalid_count, 0, sizeof inv));
    *invalid = int64_t(inv);
    return h;
  }
};

void expect_same_plan(const RoutePlanHost& gpu, const RoutePlanHost& cpu) {
  EXPECT_EQ(gpu.counts, cpu.counts);
  EXPECT_EQ(gpu.offsets, cpu.offsets);
  EXPECT_EQ(gpu.row_to_route, cpu.row_to_route);
  EXPECT_EQ(gpu.route_to_row, cpu.route_to_row);
  EXPECT_EQ(gpu.row_expert, cpu.row_expert);
}

struct PlanCase {
  int64_t T, E, K, first, EL;
  RouteKind kind;
  double neg, bad;
  bool i64;
};

void check_plan_case(const PlanCase& pc, uint64_t seed) {
  MoeConfig c = split_config(pc.E, pc.K, 64, 64, std::max<int64_t>(pc.T, 1));
  HostInputs in = make_inputs(c, pc.T, pc.kind, seed, pc.neg, pc.bad, pc.i64);
  DevicePlan plan(std::max<int64_t>(pc.T, 1), pc.K, pc.EL);
  RouteDims d{pc.T, pc.K, pc.E, pc.first, pc.EL};
  // ids on the device, in the requested dtype
  DevBuf<int32_t> d32;
  DevBuf<int64_t> d64;
  TensorView ids;
  if (pc.i64) {
    d64.upload(in.ids);
    ids = TensorView::contiguous(d64.p, DType::kI64, {pc.T, pc.K}, Device::cuda(0));
  } else {
    std::vector<int32_t> v(in.ids.begin(), in.ids.end());
    d32.upload(v);
    ids = TensorView::contiguous(d32.p, DType::kI32, {pc.T, pc.K}, Device::cuda(0));
  }
  const RoutePlanHost cpu =
      routing::build_route_plan_cpu(TensorView::contiguous(in.ids.data(), DType::kI64, {pc.T, pc.K}), d);
  for (int rep = 0; rep < 2; ++rep) {  // twice: counters and scratch must be reset by the first
    routing::build_route_plan_gpu(ids, d, plan.p, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    int64_t invalid = -1;
    const RoutePlanHost gpu = plan.download(pc.T, &invalid);
    expect_same_plan(gpu, cpu);
    EXPECT_EQ(invalid, cpu.invalid_count);
    EXPECT_EQ(cpu.invalid_count, in.invalid);
  }
}

TEST(RoutePlan, CpuTwinIsStableAndCountsInvalid) {
  // Pure host check of the twin's contract on a hand-made example.
  const std::vector<int32_t> ids = {2, 0, -1, 2, 7, 1, 2, 2, 0, 3, 5, -1};  // T=6, K=2, E=4
  RouteDims d{6, 2, 4, 0, 4};
  const RoutePlanHost p = routing::build_route_plan_cpu(TensorView::contiguous(ids.data(), DType::kI32, {6, 2}), d);
  EXPECT_EQ(p.counts, (std::vector<int32_t>{2, 1, 4, 1}));
  EXPECT_EQ(p.offsets, (std::vector<int32_t>{0, 2, 3, 7, 8}));
  EXPECT_EQ(p.row_to_route, (std::vector<int32_t>{1, 8, 5, 0, 3, 6, 7, 9}));
  EXPECT_EQ(p.row_expert, (std::vector<int32_t>{0, 0, 1, 2, 2, 2, 2, 3}));
  EXPECT_EQ(p.route_to_row, (std::vector<int32_t>{3, 0, -1, 4, -1, 2, 5, 6, 1, 7, -1, -1}));
  EXPECT_EQ(p.invalid_count, 2);
  // EP slice: experts [2, 4) local.
  RouteDims d2{6, 2, 4, 2, 2};
  const RoutePlanHost q = routing::build_route_plan_cpu(TensorView::contiguous(ids.data(), DType::kI32, {6, 2}), d2);
  EXPECT_EQ(q.counts, (std::vector<int32_t>{4, 1}));
  EXPECT_EQ(q.row_to_route, (std::vector<int32_t>{0, 3, 6, 7, 9}));
  EXPECT_EQ(routing::bucket_capacity(1000), 1024);
  EXPECT_EQ(routing::bucket_capacity(1024), 1024);
  EXPECT_EQ(routing::bucket_capacity(0), 1);
}

TEST(RoutePlan, GpuEqualsCpuTwin) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  std::vector<PlanCase> cases;
  for (int64_t T : {0, 1, 7, 64, 128, 129, 511, 512, 513, 1000, 4096, 8192})
    for (int64_t E : {8, 128, 256})
      for (int64_t K : {1, 2, 4, 8}) {
        if (K > E) continue;
        const RouteKind kind = (T + E + K) % 3 == 0 ? RouteKind::kZipf
                               : (T + E + K) % 3 == 1 ? RouteKind::kUniform
                                                      : RouteKind::kOneExpert;
        cases.push_back({T, E, K, 0, E, kind, 0.05, 0.02, (T + K) % 2 == 1});
      }
  // EP slices (the plan supports them even though the backend runs ep_size 1), many experts.
  cases.push_back({1000, 256, 8, 64, 64, RouteKind::kUniform, 0.1, 0.05, false});
  cases.push_back({3000, 256, 8, 192, 64, RouteKind::kZipf, 0.0, 0.0, true});
  cases.push_back({777, 512, 6, 0, 512, RouteKind::kUniform, 0.0, 0.01, false});
  cases.push_back({2000, 2048, 10, 0, 2048, RouteKind::kZipf, 0.0, 0.01, true});
  const int64_t emax = routing::max_gpu_local_experts();
  cases.push_back({100, emax, 4, 0, emax, RouteKind::kUniform, 0.0, 0.0, false});
  cases.push_back({5000, emax, 4, 0, emax, RouteKind::kUniform, 0.0, 0.01, true});
  cases.push_back({8192, 4, 4, 0, 4, RouteKind::kUniform, 0.0, 0.0, false});
  for (const PlanCase& pc : cases) {
    SCOPED_TRACE("T=" + std::to_string(pc.T) + " E=" + std::to_string(pc.E) + " K=" + std::to_string(pc.K) +
                 " first=" + std::to_string(pc.first) + " EL=" + std::to_string(pc.EL) + (pc.i64 ? " int64" : " int32"));
    check_plan_case(pc, case_seed("plan " + std::to_string(pc.T * 1000003 + pc.E * 101 + pc.K + pc.first)));
    if (HasFailure()) break;
  }
}

TEST(RoutePlan, StridedIds) {
  MEGAMOE_REQUIRE_SM90();
  const int64_t T = 300, K = 4, E = 32;
  std::mt19937 rng(7);
  std::vector<int64_t> padded(size_t(T * 7), 999);  // rows of 7, ids in columns 0..3
  for (int64_t t = 0; t < T; ++t)
    for (int64_t k = 0; k < K; ++k) padded[size_t(t * 7 + k)] = int64_t(rng() % (E + 2)) - 1;
  TensorView hv = TensorView::contiguous(padded.data(), DType::kI64, {T, K});
  hv.strides[0] = 7;
  RouteDims d{T, K, E, 0, E};
  const RoutePlanHost cpu = routing::build_route_plan_cpu(hv, d);
  DevBuf<int64_t> dp;
  dp.upload(padded);
  TensorView dv = hv;
  dv.data = dp.p;
  dv.device = Device::cuda(0);
  DevicePlan plan(T, K, E);
  routing::build_route_plan_gpu(dv, d, plan.p, nullptr);
  int64_t invalid = 0;
  const RoutePlanHost gpu = plan.download(T, &invalid);
  expect_same_plan(gpu, cpu);
  EXPECT_EQ(invalid, cpu.invalid_count);
}

// ---- the memory-bound kernels -----------------------------------------------------------

// A plan for random routes, on host and device.
struct KernelFixture {
  int64_t T, K, E;
  HostInputs in;
  RoutePlanHost host;
  DevicePlan plan;
  DevBuf<int32_t> ids;
  KernelFixture(int64_t T_, int64_t K_, int64_t E_, uint64_t seed)
      : T(T_), K(K_), E(E_), in(make_inputs(split_config(E_, K_, 64, 64, T_), T_, RouteKind::kZipf, seed, 0.1, 0.05)),
        plan(T_, K_, E_) {
    RouteDims d{T, K, E, 0, E};
    host = routing::build_route_plan_cpu(TensorView::contiguous(in.ids.data(), DType::kI64, {T, K}), d);
    std::vector<int32_t> v(in.ids.begin(), in.ids.end());
    ids.upload(v);
    routing::build_route_plan_gpu(TensorView::contiguous(ids.p, DType::kI32, {T, K}, Device::cuda(0)), d, plan.p,
                                  nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  int64_t rows() const { return host.offsets.back(); }
};

TEST(SplitKernels, PermuteGathersRows) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const int64_t T = 333, K = 4, E = 16, H = 192;
  KernelFixture f(T, K, E, case_seed("permute"));
  for (int64_t ldx : {H, H + 8, H + 2}) {
    SCOPED_TRACE("ldx=" + std::to_string(ldx));
    std::vector<uint16_t> x(size_t(T * ldx));
    fill_bf16(x, case_seed("permute x"), 1, 1.0f);
    DevBuf<uint16_t> dx, dp(size_t(T * K * H));
    dx.upload(x);
    CUDA_CHECK(cudaMemset(dp.p, 0xFF, dp.n * 2));
    sm90::launch_permute(dx.p, ldx, T, K, H, f.plan.p.route_to_row, dp.p, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<uint16_t> got = dp.download();
    int64_t bad = 0;
    for (int64_t r = 0; r < f.rows(); ++r) {
      const int64_t t = f.host.row_to_route[size_t(r)] / K;
      for (int64_t h = 0; h < H; ++h) bad += got[size_t(r * H + h)] != x[size_t(t * ldx + h)];
    }
    for (size_t i = size_t(f.rows() * H); i < got.size(); ++i) bad += got[i] != 0xFFFF;  // untouched
    EXPECT_EQ(bad, 0);
  }
}

float host_act(Activation act, float g, float u, float limit, float alpha) {
  switch (act) {
    case Activation::kSwiGLU:
      g = std::min(g, limit);
      u = std::clamp(u, -limit, limit);
      return g / (1.0f + std::exp(-g)) * u;
    case Activation::kSwiGLUOAI:
      g = std::min(g, limit);
      u = std::clamp(u, -limit, limit);
      return (g / (1.0f + std::exp(-alpha * g))) * (u + 1.0f);
    case Activation::kGeGLU:
      return 0.5f * g * (1.0f + std::tanh(0.7978845608028654f * (g + 0.044715f * g * g * g))) * u;
    case Activation::kReLU2: {
      const float r = std::max(g, 0.0f);
      return r * r;
    }
  }
  return 0.0f;
}

TEST(SplitKernels, ActivationMatchesHost) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const int64_t T = 200, K = 2, E = 8, I = 128;
  KernelFixture f(T, K, E, case_seed("act"));
  const int64_t rows = f.rows(), max_rows = T * K;
  for (Activation act : {Activation::kSwiGLU, Activation::kSwiGLUOAI, Activation::kGeGLU, Activation::kReLU2}) {
    for (bool bias : {false, true}) {
      SCOPED_TRACE(std::string(activation_name(act)) + (bias ? " + bias" : ""));
      const int64_t N13 = act == Activation::kReLU2 ? I : 2 * I;
      std::vector<float> h(size_t(max_rows * N13)), b(size_t(E * N13));
      fill_f32(h, case_seed("act h"), 1, 6.0f);
      fill_f32(b, case_seed("act b"), 2, 1.0f);
      DevBuf<float> dh, db;
      dh.upload(h);
      db.upload(b);
      DevBuf<uint16_t> da(size_t(max_rows * I));
      CUDA_CHECK(cudaMemset(da.p, 0xFF, da.n * 2));
      sm90::ActivationParams p;
      p.activation = act;
      p.limit = act == Activation::kSwiGLUOAI ? 7.0f : (act == Activation::kSwiGLU ? 3.0f : INFINITY);
      p.alpha = 1.702f;
      sm90::launch_activation(dh.p, bias ? db.p : nullptr, f.plan.p.row_expert, f.plan.p.offsets + E, max_rows, I,
                              p, da.p, nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<uint16_t> got = da.download();
      int64_t far = 0, diff = 0;
      for (int64_t r = 0; r < rows; ++r) {
        const int64_t e = f.host.row_expert[size_t(r)];
        for (int64_t i = 0; i < I; ++i) {
          float g = h[size_t(r * N13 + i)], u = N13 == I ? 0.0f : h[size_t(r * N13 + I + i)];
          if (bias) {
            g += b[size_t(e * N13 + i)];
            if (N13 != I) u += b[size_t(e * N13 + I + i)];
          }
          const float ref = host_act(act, g, u, p.limit, p.alpha);
          const uint16_t want = formats::float_to_bf16_bits(ref);
          const uint16_t have = got[size_t(r * I + i)];
          diff += have != want;
          // expf/tanhf differ from the host's by ulps (and 1 + tanh cancels for very negative
          // inputs): allow one bf16 ulp of relative error plus a small absolute slack.
          const float err = std::fabs(formats::bf16_bits_to_float(have) - ref);
          const float slack = std::fabs(ref) / 64.0f + 1e-5f * (1.0f + std::fabs(g) * (N13 == I ? 1.0f : std::fabs(u)));
          far += !(err <= slack);
        }
      }
      for (size_t i = size_t(rows * I); i < got.size(); ++i) far += got[i] != 0xFFFF;  // rows past total untouched
      EXPECT_EQ(far, 0);
      EXPECT_LE(diff, rows * I / 100) << "more than 1% of outputs off by one bf16 ulp";
    }
  }
}

// The sigmoid of swiglu / swiglu_oai (activation_math.cuh: e^-|z| from one ex2.approx squared, the
// hardware reciprocal, no IEEE division) over its whole range, against the exact value in double precision: gates swept
// densely over [-110, 110] (where e^|z| overflows fp32 and e^-|z| reaches its subnormals) with
// u = 1 (swiglu) / u = 0 (swiglu_oai: factor u + 1 = 1), so a = bf16(g * sigmoid(z)). Every
// finite a lies within one bf16 step of the exact value (an absolute 2^-125 where that is tiny),
// almost all are its correct rounding, and the special values keep the reference's results:
// NaN -> NaN, +inf -> +inf, -inf -> NaN (-inf * 0), +-0 -> +-0.
TEST(SplitKernels, ActivationSigmoidWholeRange) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const int64_t T = 256, K = 2, E = 4, I = 256;
  KernelFixture f(T, K, E, case_seed("act sigmoid"));
  const int64_t rows = f.rows(), max_rows = T * K, n = rows * I;
  ASSERT_GT(n, 10000);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> specials = {nan, inf, -inf, 0.0f, -0.0f, 1e-40f, -1e-40f, 88.72f, -88.72f, -87.34f};
  for (Activation act : {Activation::kSwiGLU, Activation::kSwiGLUOAI}) {
    SCOPED_TRACE(activation_name(act));
    const float alpha = act == Activation::kSwiGLUOAI ? 1.702f : 1.0f, u_val = act == Activation::kSwiGLU ? 1.0f : 0.0f;
    std::vector<float> h(size_t(max_rows * 2 * I), 0.0f), gates(static_cast<size_t>(n));
    for (int64_t e = 0; e < n; ++e) {
      float g = -110.0f + 220.0f * float(e) / float(n - 1);
      if (e % 97 < int64_t(specials.size())) g = specials[size_t(e % 97)];
      gates[size_t(e)] = g;
      h[size_t((e / I) * 2 * I + e % I)] = g;
      h[size_t((e / I) * 2 * I + I + e % I)] = u_val;
    }
    DevBuf<float> dh;
    dh.upload(h);
    DevBuf<uint16_t> da(size_t(max_rows * I));
    CUDA_CHECK(cudaMemset(da.p, 0xFF, da.n * 2));
    sm90::ActivationParams p;
    p.activation = act;
    p.limit = inf;
    p.alpha = alpha;
    sm90::launch_activation(dh.p, nullptr, f.plan.p.row_expert, f.plan.p.offsets + E, max_rows, I, p, da.p, nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<uint16_t> got = da.download();
    int64_t far = 0, not_rounded = 0, specials_wrong = 0;
    for (int64_t e = 0; e < n; ++e) {
      const float g = gates[size_t(e)], have = formats::bf16_bits_to_float(got[size_t(e)]);
      const double z = double(alpha * g);  // the kernel's z: alpha * g rounded to fp32
      if (std::isnan(g) || g == -inf) {
        specials_wrong += !std::isnan(have);
        continue;
      }
      if (g == inf) {
        specials_wrong += have != inf;
        continue;
      }
      const double want = double(g) / (1.0 + std::exp(-z));
      if (g == 0.0f) {
        specials_wrong += have != 0.0f || std::signbit(have) != std::signbit(g);
        continue;
      }
      const double step = std::ldexp(1.0, std::max(std::ilogb(want), -126) - 7);  // one bf16 step at want
      const bool ok = std::fabs(double(have) - want) <= std::max(step, std::ldexp(1.0, -125));
      far += !ok;
      if (!ok && far <= 5) ADD_FAILURE() << "g " << g << ": a " << have << ", exact " << want;
      not_rounded += got[size_t(e)] != formats::float_to_bf16_bits(float(want));
    }
    for (size_t i = size_t(n); i < got.size(); ++i) far += got[i] != 0xFFFF;  // rows past total untouched
    EXPECT_EQ(specials_wrong, 0);
    EXPECT_EQ(far, 0);
    EXPECT_LE(not_rounded, n / 1000) << "more than 0.1% of a not the correct rounding of the exact value";
  }
}

// The combine kernels against the host, bit for bit: T = 257 (a launch that fits on the GPU at once)
// and T = 8192 (327,680 threads: more than an H100 / H200 holds at once); K = 6 (a partial second round of
// 4 routes); fp32 y with and without b2, and the bf16-y kernel, which reads y rounded to bf16 and
// must give the fp32 kernel's result.
TEST(SplitKernels, CombineMatchesHostBitwise) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const int64_t K = 6, E = 12, H = 320;
  for (int64_t T : {int64_t(257), int64_t(8192)}) {
    SCOPED_TRACE("T=" + std::to_string(T));
    KernelFixture f(T, K, E, case_seed("combine"));
    std::vector<float> y(size_t(T * K * H)), b2(size_t(E * H));
    fill_f32(y, case_seed("combine y"), 1, 3.0f);
    fill_f32(b2, case_seed("combine b"), 2, 0.5f);
    std::vector<uint16_t> y16(y.size());
    for (size_t i = 0; i < y.size(); ++i) y16[i] = formats::float_to_bf16_bits(y[i]);
    DevBuf<float> dy, db, dw;
    DevBuf<uint16_t> dy16;
    dy.upload(y);
    db.upload(b2);
    dw.upload(f.in.w);
    dy16.upload(y16);
    for (int variant = 0; variant < 3; ++variant) {  // fp32 y, fp32 y + b2, bf16 y
      const bool bias = variant == 1;
      SCOPED_TRACE(variant == 0 ? "fp32 y" : variant == 1 ? "fp32 y, b2" : "bf16 y");
      DevBuf<uint16_t> dout(size_t(T * H));
      CUDA_CHECK(cudaMemset(dout.p, 0xFF, dout.n * 2));
      if (variant == 2)
        sm90::launch_combine_bf16y(dy16.p, f.plan.p.route_to_row, dw.p, T, K, H, dout.p, nullptr, false);
      else
        sm90::launch_combine(dy.p, bias ? db.p : nullptr, f.plan.p.row_expert, f.plan.p.route_to_row, dw.p, T, K, H,
                             dout.p, nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      const std::vector<uint16_t> got = dout.download();
      int64_t bad = 0, routed = 0;
      for (int64_t t = 0; t < T; ++t) {
        for (int64_t h = 0; h < H; ++h) {
          float acc = 0.0f;
          for (int64_t k = 0; k < K; ++k) {
            const int32_t row = f.host.route_to_row[size_t(t * K + k)];
            if (row < 0) continue;
            routed += h == 0;
            float v = y[size_t(row * H + h)];
            if (bias) v += b2[size_t(f.host.row_expert[size_t(row)] * H + h)];
            volatile float prod = f.in.w[size_t(t * K + k)] * formats::round_to_bf16(v);  // no FMA contraction
            acc = acc + prod;
          }
          bad += got[size_t(t * H + h)] != formats::float_to_bf16_bits(acc);
        }
      }
      EXPECT_EQ(bad, 0);
      EXPECT_GT(routed, T * K / 2);  // the routes are mostly live: the sums are not all zeros
    }
  }
}

}  // namespace
}  // namespace megamoe::gputest
