// What is specific to the sm90_bf16_bf16_bf16_split backend: its refusals, weights from device
// memory (bf16 biases), padded and misaligned x row strides, the launch-structure fast paths
// (bitwise equal to the plain path) and the deepseek-v3 workspace budget. The common case matrix
// (activations, token counts, routing, invalid ids, graphs, repeatability, streams) is in
// test_conformance.cpp. Every test skips (GTEST_SKIP) without an sm_90 GPU. Fresh random inputs
// per process (MEGAMOE_TEST_SEED=<n> pins them); outputs are poisoned before each run.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <memory>

#include "split_test_util.h"

namespace megamoe::gputest {
namespace {

constexpr int64_t kH = 256, kI = 512;

TEST(SplitBf16, BackendIsRegisteredAndExplainsRefusals) {
  const auto names = registered_backends();
  EXPECT_NE(std::find(names.begin(), names.end(), std::string(kSplitBackend)), names.end());
  MEGAMOE_REQUIRE_SM90();
  MoeConfig c = split_config(8, 2, 256, 512, 64);
  c.hidden_size = 96;  // not a multiple of 64
  EXPECT_THROW(MoeLayer{c}, Unsupported);
  c = split_config(8, 2, 256, 512, 64);
  c.recipe = Recipe::kFP8Block;
  EXPECT_THROW(MoeLayer{c}, Unsupported);
  c = split_config(8, 2, 256, 512, 64);
  c.device = -1;
  EXPECT_THROW(MoeLayer{c}, Unsupported);
  MoeLayer ok(split_config(8, 2, 256, 512, 64));
  EXPECT_EQ(ok.backend_name(), kSplitBackend);
}

TEST(SplitBf16, WeightsFromDeviceAndBf16Biases) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  MoeConfig c = split_config(8, 2, kH, kI, 256, Activation::kSwiGLUOAI, true);
  TestLayer tl(c, case_seed("devw"));
  const HostInputs in = make_inputs(c, 100, RouteKind::kUniform, case_seed("devw in"));
  DeviceInputs d(in);
  const std::vector<uint16_t> host_prepared = run_layer(*tl.layer, d);
  // The same weights from device memory, biases as bf16 holding the same values rounded.
  DevBuf<uint16_t> w13, w2, b13, b2;
  w13.upload(tl.weights->w13);
  w2.upload(tl.weights->w2);
  std::vector<uint16_t> hb13(tl.weights->b13.size()), hb2(tl.weights->b2.size());
  std::vector<float> fb13(hb13.size()), fb2(hb2.size());
  for (size_t i = 0; i < hb13.size(); ++i) fb13[i] = formats::bf16_bits_to_float(hb13[i] = formats::float_to_bf16_bits(tl.weights->b13[i]));
  for (size_t i = 0; i < hb2.size(); ++i) fb2[i] = formats::bf16_bits_to_float(hb2[i] = formats::float_to_bf16_bits(tl.weights->b2[i]));
  b13.upload(hb13);
  b2.upload(hb2);
  const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
  MoeWeights w;
  w.w13 = TensorView::contiguous(w13.p, DType::kBF16, {E, N13, H}, Device::cuda(0));
  w.w2 = TensorView::contiguous(w2.p, DType::kBF16, {E, H, I}, Device::cuda(0));
  w.b13 = TensorView::contiguous(b13.p, DType::kBF16, {E, N13}, Device::cuda(0));
  w.b2 = TensorView::contiguous(b2.p, DType::kBF16, {E, H}, Device::cuda(0));
  MoeLayer dev_layer(c);
  dev_layer.prepare_weights(w);
  EXPECT_EQ(dev_layer.weight_bytes(), size_t(E * (N13 * H + H * I) * 2 + E * (N13 + H) * 4));
  // Host-prepared layer with the bf16-rounded fp32 biases gives the same bits.
  HostWeights hw = *tl.weights;
  hw.b13 = fb13;
  hw.b2 = fb2;
  tl.layer->prepare_weights(hw.view());
  const std::vector<uint16_t> a = run_layer(dev_layer, d), b = run_layer(*tl.layer, d);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(count_nan(a), 0);
  EXPECT_LE(rel_l2(a, host_prepared), 2e-2);  // only the bias rounding differs
}

// prepare_weights(w, stream) orders its copies after the caller's work on `stream`: weights
// still being written there (poisoned, then overwritten by a device copy, all enqueued on a
// non-blocking stream that does not synchronise with the legacy stream) are read only once
// written, and the layer then gives the bits of the host-prepared one.
TEST(SplitBf16, WeightsPreparedOnCallersStream) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  MoeConfig c = split_config(8, 2, kH, kI, 256, Activation::kSwiGLU, true);
  TestLayer tl(c, case_seed("stream w"));
  const HostInputs in = make_inputs(c, 100, RouteKind::kUniform, case_seed("stream in"));
  DeviceInputs d(in);
  const std::vector<uint16_t> host_prepared = run_layer(*tl.layer, d);
  DevBuf<uint16_t> stage13, stage2;
  stage13.upload(tl.weights->w13);
  stage2.upload(tl.weights->w2);
  DevBuf<uint16_t> w13(stage13.n), w2(stage2.n);
  Stream s;
  CUDA_CHECK(cudaMemsetAsync(w13.p, 0xFF, w13.n * 2, s.s));  // NaN bf16 if read too early
  CUDA_CHECK(cudaMemsetAsync(w2.p, 0xFF, w2.n * 2, s.s));
  CUDA_CHECK(cudaMemcpyAsync(w13.p, stage13.p, w13.n * 2, cudaMemcpyDeviceToDevice, s.s));
  CUDA_CHECK(cudaMemcpyAsync(w2.p, stage2.p, w2.n * 2, cudaMemcpyDeviceToDevice, s.s));
  const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
  MoeWeights w = tl.weights->view();  // host fp32 biases
  w.w13 = TensorView::contiguous(w13.p, DType::kBF16, {E, N13, H}, Device::cuda(0));
  w.w2 = TensorView::contiguous(w2.p, DType::kBF16, {E, H, I}, Device::cuda(0));
  MoeLayer dev_layer(c);
  dev_layer.prepare_weights(w, s.s);
  const std::vector<uint16_t> out = run_layer(dev_layer, d);
  EXPECT_EQ(count_nan(out), 0);
  EXPECT_TRUE(out == host_prepared) << "weights prepared on the caller's stream differ from host-prepared ones";
}

TEST(SplitBf16, PaddedAndMisalignedRowStride) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  MoeConfig c = split_config(8, 2, kH, kI, 128);
  TestLayer tl(c, case_seed("stride"));
  const HostInputs in = make_inputs(c, 50, RouteKind::kUniform, case_seed("stride in"));
  DeviceInputs d(in);
  const std::vector<uint16_t> dense = run_layer(*tl.layer, d);
  for (int64_t ld : {kH + 64, kH + 4}) {  // 16-byte aligned rows, then 8-byte aligned rows
    SCOPED_TRACE("ldx=" + std::to_string(ld));
    std::vector<uint16_t> xp(size_t(in.T * ld), 0xFFFF);
    for (int64_t t = 0; t < in.T; ++t) std::copy_n(in.x.begin() + t * kH, kH, xp.begin() + t * ld);
    DevBuf<uint16_t> dx;
    dx.upload(xp);
    TensorView xv = TensorView::contiguous(dx.p, DType::kBF16, {in.T, kH}, Device::cuda(0));
    xv.strides[0] = ld;
    d.poison(nullptr);
    tl.layer->forward(xv, d.idv(), d.wv(), d.outv(), nullptr);
    CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_TRUE(d.result() == dense);
  }
}

// The launch-structure optimizations (route plan writing the GEMM arrays, plan permute, PDL, bf16 y
// from the FC2 epilogue) change no bit: each combination equals the plain path (setup kernels,
// permute kernel, no PDL, fp32 y), eagerly and replayed from a CUDA graph, over T that select the
// single- and multi-block plans and both GEMM tactics, with and without biases.
TEST(SplitBf16, FastPathsEqualPlainPathBitwise) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  const std::vector<std::pair<const char*, const char*>> plain = {
      {"MEGAMOE_PDL", "0"}, {"MEGAMOE_SPLIT_FUSED_SETUP", "0"}, {"MEGAMOE_SPLIT_BF16_Y", "0"},
      {"MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES", "0"}, {"MEGAMOE_SPLIT_FUSED_ACT", "0"}};
  struct Variant {
    const char* name;
    std::vector<std::pair<const char*, const char*>> env;
  };
  const Variant variants[] = {
      {"all on (default)", {}},
      {"setup kernels, bf16 y, PDL", {{"MEGAMOE_SPLIT_FUSED_SETUP", "0"}}},
      {"activation kernel after fp32 h (interleaved), PDL", {{"MEGAMOE_SPLIT_FUSED_ACT", "0"}}},
      {"fused setup, no PDL, no plan permute", {{"MEGAMOE_PDL", "0"}, {"MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES", "0"}}},
      {"plan permute for every single-block T", {{"MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES", "1000000000"}}},
      {"GEMMs with PDL, plan permute <= 256 KiB",
       {{"MEGAMOE_SPLIT_GEMM_PDL", "1"}, {"MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES", "262144"}}},
      {"GEMMs with PDL, trigger their successor late",
       {{"MEGAMOE_SPLIT_GEMM_PDL", "1"}, {"MEGAMOE_SPLIT_GEMM_EARLY_TRIGGER", "0"}}},
  };
  for (bool bias : {false, true}) {
    MoeConfig c = split_config(8, 2, kH, kI, 4096, Activation::kSwiGLU, bias);
    std::unique_ptr<TestLayer> base;
    {
      ScopedEnv env(plain);
      base = std::make_unique<TestLayer>(c, case_seed(std::string("fast paths ") + (bias ? "bias" : "nobias")));
    }
    std::vector<std::unique_ptr<TestLayer>> fast;
    for (const Variant& v : variants) {
      ScopedEnv env(v.env);
      fast.push_back(std::make_unique<TestLayer>(c, *base));
    }
    // T*K: 2 .. 8192 routes (plan: single block up to 1024); rows per expert 0.25 .. 1024 (swap-AB
    // up to 32, large tile above: bf16 y when there is no bias).
    for (int64_t T : {1, 7, 64, 200, 512, 1000, 4096}) {
      SCOPED_TRACE("bias=" + std::to_string(bias) + " T=" + std::to_string(T));
      const HostInputs in = make_inputs(c, T, RouteKind::kZipf, case_seed("fast paths in " + std::to_string(T)), 0.05);
      DeviceInputs d(in);
      const std::vector<uint16_t> want = run_layer(*base->layer, d);
      EXPECT_EQ(count_nan(want), 0);
      EXPECT_LE(rel_l2(want, run_reference(c, *base->ref, in)), 5e-3);
      cudaStream_t s;
      CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      for (size_t vi = 0; vi < fast.size(); ++vi) {
        SCOPED_TRACE(variants[vi].name);
        EXPECT_TRUE(run_layer(*fast[vi]->layer, d, s) == want) << "eager";
        expect_graph_replays_equal(*fast[vi]->layer, d, want, /*replays=*/2, s);
      }
      // Back-to-back forwards of two layers in one stream (the second plan kernel is launched with
      // PDL behind the first layer's combine).
      expect_back_to_back_equal(*fast[0]->layer, *fast[1]->layer, d, want, s);
      CUDA_CHECK(cudaStreamDestroy(s));
    }
  }
}

// FC2 with bf16 y runs the ping-pong kernel for I <= 1024 (the suite's other shapes) and the
// cooperative one above: the latter here, against the fp32-y path bitwise and the reference.
TEST(SplitBf16, WideIntermediateBf16YEqualsFp32Y) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  MoeConfig c = split_config(8, 2, 256, 1280, 1024);
  std::unique_ptr<TestLayer> plain;
  {
    const std::vector<std::pair<const char*, const char*>> vars = {{"MEGAMOE_SPLIT_BF16_Y", "0"}};
    ScopedEnv env(vars);
    plain = std::make_unique<TestLayer>(c, case_seed("wide I"));
  }
  TestLayer fast(c, *plain);
  for (int64_t T : {300, 1000}) {  // 75 and 250 rows per expert: the large tile, bf16 y
    SCOPED_TRACE("T=" + std::to_string(T));
    const HostInputs in = make_inputs(c, T, RouteKind::kZipf, case_seed("wide I in " + std::to_string(T)), 0.05);
    DeviceInputs d(in);
    const std::vector<uint16_t> want = run_layer(*plain->layer, d);
    EXPECT_EQ(count_nan(want), 0);
    EXPECT_LE(rel_l2(want, run_reference(c, *plain->ref, in)), 5e-3);
    EXPECT_TRUE(run_layer(*fast.layer, d) == want) << "bf16 y (cooperative FC2) differs from fp32 y";
  }
}

// split_large_tma (our large kernel for both GEMMs, grouped_gemm_bf16_large_tma.h) and the per-GEMM
// split_large_tma_fc1 / _fc2 (the other GEMM on CUTLASS's large tile) forced at sizes where experts
// hold 1 .. ~1500 rows (Zipf routing: passes of every width, one to six passes): the
// layer against the CPU reference, eagerly and from a CUDA graph, for a gated activation and relu2,
// with and without biases (fp32 y then), and with FC1 writing fp32 h for the activation kernel
// (MEGAMOE_SPLIT_FUSED_ACT=0) bit for bit equal to the fused epilogue.
TEST(SplitBf16, LargeTmaTacticMatchesReference) {
  MEGAMOE_REQUIRE_SM90();
  GPUTEST_TRACE_SEED();
  for (Activation act : {Activation::kSwiGLU, Activation::kReLU2})
    for (bool bias : {false, true}) {
      const std::string name = std::string("large tma ") + (act == Activation::kReLU2 ? "relu2" : "swiglu") +
                               (bias ? " bias" : "");
      SCOPED_TRACE(name);
      MoeConfig c = split_config(8, 2, kH, kI, 4096, act, bias);
      TestLayer fused(c, case_seed(name));
      std::unique_ptr<TestLayer> unfused;
      {
        const std::vector<std::pair<const char*, const char*>> vars = {{"MEGAMOE_SPLIT_FUSED_ACT", "0"}};
        ScopedEnv env(vars);
        unfused = std::make_unique<TestLayer>(c, fused);
      }
      for (const char* tactic : {"split_large_tma", "split_large_tma_fc1", "split_large_tma_fc2"}) {
        for (int64_t T : {1, 100, 1000, 4096}) {
          SCOPED_TRACE(std::string(tactic) + " T=" + std::to_string(T));
          fused.layer->force_tactic(tactic);
          unfused->layer->force_tactic(tactic);
          ASSERT_EQ(fused.layer->tactic_for(T), tactic);
          const HostInputs in = make_inputs(c, T, RouteKind::kZipf, case_seed(name + " in " + std::to_string(T)), 0.05);
          DeviceInputs d(in);
          const std::vector<uint16_t> got = run_layer(*fused.layer, d);
          EXPECT_EQ(count_nan(got), 0);
          EXPECT_LE(rel_l2(got, run_reference(c, *fused.ref, in)), 5e-3);
          EXPECT_TRUE(run_layer(*unfused->layer, d) == got) << "fp32 h + the activation kernel differs from the epilogue";
          cudaStream_t s;
          CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
          expect_graph_replays_equal(*fused.layer, d, got, /*replays=*/2, s);
          CUDA_CHECK(cudaStreamDestroy(s));
        }
      }
    }
}

TEST(SplitBf16, DeepseekWorkspaceFitsBudget) {
  MEGAMOE_REQUIRE_SM90();
  MoeConfig c = split_config(256, 8, 7168, 2048, 8192);
  MoeLayer layer(c);
  const size_t ws = layer.workspace_bytes();
  EXPECT_LE(ws, size_t(5) << 29) << "workspace " << ws << " bytes > 2.5 GiB";
  EXPECT_GT(ws, size_t(2) << 30);
}

}  // namespace
}  // namespace megamoe::gputest
