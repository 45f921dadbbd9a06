// sm90_bf16_mxfp4_bf16_split and sm90_bf16_nvfp4_bf16_split: W4A16 on Hopper, split path.
// One implementation templated on the FP4 scale format (e8m0 per 32 / e4m3 per 16 + fp32
// per-expert global scale alpha, applied after accumulation, never folded into block scales).
//
//   route plan (routing/route_plan.cu)         ids -> counts, offsets, row <-> (t, k) maps
//   permute (kernels/sm90/moe/permute.cu)          x -> x_perm [rows, H] bf16, expert order
//   FC1 W4A16 GEMM (grouped_gemm_w4a16.h)      alpha13 * (x_perm . dq(W13[e])^T) -> h [rows, N13] fp32
//   activation (kernels/sm90/moe/activation.cu)    h + b13 -> act -> a [rows, I] bf16
//   FC2 W4A16 GEMM                             alpha2 * (a . dq(W2[e])^T) -> y [rows, H] fp32
//   combine (kernels/sm90/moe/combine.cu)          y + b2 -> bf16 -> fixed-order weighted sum -> out
// Numerics equal the CPU reference's: h = alpha13*acc + b13 (the GEMM writes alpha13*acc, the
// activation adds b13), y = bf16(alpha2*acc2 + b2) (combine adds b2 and rounds).
// Weights: packed codes copied ([E, N, K/2]) and put in the GEMM's fragment order on the device;
// scales regrouped once into "scale tiles" (grouped_gemm_w4a16.h); global scales copied to a
// device f32 [E] array (nvfp4). The GEMM picks its tactic (mma.sync for decode-like T, wgmma
// for prefill-like T) from T*K and the expert count.
// Workspace: sm90_backend::SplitWorkspace (plan + max(x_perm + h, y) + a), nothing allocated in
// forward, no host synchronisation, graph-capturable.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "backends/sm90_common/cuda_resources.h"
#include "backends/sm90_common/requirements.h"
#include "backends/sm90_common/split_workspace.h"
#include "core/backend.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "megamoe/errors.h"
#include "routing/route_plan.h"

namespace megamoe {

namespace {

using sm90::Fp4Scale;

template <Fp4Scale F>
struct Names {
  static constexpr const char* kName =
      F == Fp4Scale::kMxfp4 ? "sm90_bf16_mxfp4_bf16_split" : "sm90_bf16_nvfp4_bf16_split";
  static constexpr Recipe kRecipe = F == Fp4Scale::kMxfp4 ? Recipe::kW4A16MXFP4 : Recipe::kW4A16NVFP4;
};

float bf16_to_float(uint16_t b) {
  const uint32_t u = uint32_t(b) << 16;
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// A [n0, n1, n2] / [n0, n1] / [n0] tensor (host or device, unit innermost stride) -> contiguous
// host bytes.
std::vector<uint8_t> stage_to_host(const char* who, const TensorView& t, const std::string& name) {
  const int es = dtype_bytes(t.dtype);
  std::vector<uint8_t> out(size_t(t.numel()) * es);
  if (out.empty()) return out;
  if (t.is_contiguous()) {
    sm90_backend::check_cuda(who, cudaMemcpy(out.data(), t.data, out.size(), cudaMemcpyDefault), "stage " + name);
    return out;
  }
  if (t.ndim == 1) {
    sm90_backend::check_cuda(who, cudaMemcpy2D(out.data(), es, t.data, size_t(t.strides[0]) * es, es,
                                               size_t(t.shape[0]), cudaMemcpyDefault),
                             "stage " + name);
    return out;
  }
  if (t.strides[t.ndim - 1] != 1) throw Unsupported(std::string(who) + ": " + name + " needs a unit innermost stride");
  const int64_t cols = t.shape[t.ndim - 1], rows = t.shape[t.ndim - 2];
  const int64_t outer = t.ndim == 3 ? t.shape[0] : 1, s_outer = t.ndim == 3 ? t.strides[0] : 0;
  for (int64_t o = 0; o < outer; ++o) {
    const char* src = static_cast<const char*>(t.data) + o * s_outer * es;
    sm90_backend::check_cuda(who, cudaMemcpy2D(out.data() + o * rows * cols * es, size_t(cols) * es, src,
                                               size_t(t.strides[t.ndim - 2]) * es, size_t(cols) * es, size_t(rows),
                                               cudaMemcpyDefault),
                             "stage " + name);
  }
  return out;
}

template <Fp4Scale F>
class Sm90SplitW4A16 final : public Backend {
  static constexpr const char* kName = Names<F>::kName;
  void check(cudaError_t e, const std::string& what) { sm90_backend::check_cuda(kName, e, what); }
  struct DeviceBuffer : sm90_backend::DeviceBuffer {
    DeviceBuffer() : sm90_backend::DeviceBuffer(kName) {}
  };

 public:
  explicit Sm90SplitW4A16(const MoeConfig& c) : c_(c) {
    sm90_backend::DeviceGuard guard(kName, c.device);
    EL_ = c.local_experts();
    H_ = c.hidden_size;
    I_ = c.intermediate_size;
    N13_ = c.fc1_rows();
    K_ = c.top_k;
    cap_ = routing::bucket_capacity(c.max_tokens);
    sw_.create(c, cap_, ws_);
    act_.activation = c.activation;
    act_.limit = c.effective_limit();
    act_.alpha = c.swiglu_alpha;
  }

  ~Sm90SplitW4A16() override {
    int prev = 0;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != c_.device) cudaSetDevice(c_.device);
    for (DeviceBuffer* b : {&w13_, &w2_, &s13_, &s2_, &g13_, &g2_, &b13_, &b2_, &ws_}) b->release();
    if (prev != c_.device) cudaSetDevice(prev);
  }

  void prepare_weights(const MoeWeights& w) override {
    sm90_backend::DeviceGuard guard(kName, c_.device);
    upload(w.w13, w13_, "w13");
    upload(w.w2, w2_, "w2");
    sm90::w4a16_prepare_weights(static_cast<uint8_t*>(w13_.ptr), w13_.bytes, nullptr);  // in place, our copy
    sm90::w4a16_prepare_weights(static_cast<uint8_t*>(w2_.ptr), w2_.bytes, nullptr);
    upload_scales(w.w13_scale, N13_, H_, s13_, "w13_scale");
    upload_scales(w.w2_scale, H_, I_, s2_, "w2_scale");
    if constexpr (F == Fp4Scale::kNvfp4) {
      upload(w.w13_global_scale, g13_, "w13_global_scale");
      upload(w.w2_global_scale, g2_, "w2_global_scale");
    }
    has_b13_ = c_.has_bias && w.b13.defined() && w.b13.data;
    has_b2_ = c_.has_bias && w.b2.defined() && w.b2.data;
    if (has_b13_) upload_bias(w.b13, b13_, "b13"); else b13_.release();
    if (has_b2_) upload_bias(w.b2, b2_, "b2"); else b2_.release();
    check(cudaDeviceSynchronize(), "prepare_weights sync");
    ready_ = true;
  }

  void forward(const ForwardArgs& args) override {
    if (!ready_) throw Error(std::string("megamoe: ") + kName + ": forward() before prepare_weights()");
    const int64_t T = args.num_tokens;
    if (T > cap_)
      throw_invalid("x", "at most " + std::to_string(cap_) + " rows (workspace capacity)", std::to_string(T));
    if (T == 0) return;
    sm90_backend::DeviceGuard guard(kName, c_.device);
    auto stream = static_cast<cudaStream_t>(args.stream);
    const routing::RouteDims d = sm90_backend::route_dims(c_, T);
    const int64_t ldx = args.x.ndim == 2 ? args.x.strides[0] : H_;
    const int64_t rows_bound = T * K_;
    const bool pdl = stream != nullptr && stream != cudaStreamLegacy && stream != cudaStreamPerThread;
    routing::build_route_plan_gpu(args.topk_ids, d, sw_.plan, stream);
    sm90::launch_permute(args.x.data, ldx, T, K_, H_, sw_.plan.route_to_row, sw_.x_perm, stream, pdl);
    sm90::W4A16GemmArgs g1;
    g1.A = sw_.x_perm;
    g1.W = static_cast<const uint8_t*>(w13_.ptr);
    g1.scales = static_cast<const uint8_t*>(s13_.ptr);
    g1.alpha = static_cast<const float*>(g13_.ptr);
    g1.offsets = sw_.plan.offsets;
    g1.D = sw_.h;
    g1.N = N13_;
    g1.K = H_;
    g1.num_groups = int(EL_);
    sm90::launch_grouped_gemm_w4a16(g1, F, rows_bound, stream);
    sm90::launch_activation(sw_.h, has_b13_ ? static_cast<const float*>(b13_.ptr) : nullptr, sw_.plan.row_expert,
                            sw_.plan.offsets + EL_, rows_bound, I_, act_, sw_.a, stream, pdl);
    sm90::W4A16GemmArgs g2 = g1;
    g2.A = sw_.a;
    g2.W = static_cast<const uint8_t*>(w2_.ptr);
    g2.scales = static_cast<const uint8_t*>(s2_.ptr);
    g2.alpha = static_cast<const float*>(g2_.ptr);
    g2.D = static_cast<float*>(sw_.y);
    g2.N = H_;
    g2.K = I_;
    sm90::launch_grouped_gemm_w4a16(g2, F, rows_bound, stream);
    sm90::launch_combine(static_cast<const float*>(sw_.y), has_b2_ ? static_cast<const float*>(b2_.ptr) : nullptr, sw_.plan.row_expert,
                         sw_.plan.route_to_row, args.topk_weights.ptr<const float>(), T, K_, H_, args.out.data, stream,
                         pdl);
  }

  size_t workspace_bytes() const override { return sw_.bytes(); }
  size_t weight_bytes() const override {
    return w13_.bytes + w2_.bytes + s13_.bytes + s2_.bytes + g13_.bytes + g2_.bytes + b13_.bytes + b2_.bytes;
  }

  int64_t invalid_id_count(void* stream) override {
    sm90_backend::DeviceGuard guard(kName, c_.device);
    auto s = static_cast<cudaStream_t>(stream);
    unsigned long long v = 0;
    check(cudaMemcpyAsync(&v, sw_.plan.invalid_count, sizeof v, cudaMemcpyDeviceToHost, s), "read invalid count");
    check(cudaMemsetAsync(sw_.plan.invalid_count, 0, sizeof v, s), "reset invalid count");
    check(cudaStreamSynchronize(s), "invalid_id_count sync");
    return int64_t(v);
  }

 private:
  void upload_bytes(const std::vector<uint8_t>& h, DeviceBuffer& dst, const std::string& name) {
    if (dst.bytes != h.size()) dst.allocate(h.size(), name);
    check(cudaMemcpy(dst.ptr, h.data(), h.size(), cudaMemcpyHostToDevice), "copy " + name);
  }
  void upload(const TensorView& t, DeviceBuffer& dst, const std::string& name) {
    const size_t n = size_t(t.numel()) * dtype_bytes(t.dtype);
    if (t.is_contiguous()) {  // host or device, straight copy
      if (dst.bytes != n) dst.allocate(n, name);
      check(cudaMemcpy(dst.ptr, t.data, n, cudaMemcpyDefault), "copy " + name);
      return;
    }
    upload_bytes(stage_to_host(kName, t, name), dst, name);
  }
  void upload_scales(const TensorView& t, int64_t N, int64_t K, DeviceBuffer& dst, const std::string& name) {
    const std::vector<uint8_t> canon = stage_to_host(kName, t, name);
    std::vector<uint8_t> tiles;
    sm90::w4a16_scale_tiles(canon.data(), EL_, N, K, F, tiles);
    upload_bytes(tiles, dst, name);
  }
  void upload_bias(const TensorView& t, DeviceBuffer& dst, const std::string& name) {
    const std::vector<uint8_t> raw = stage_to_host(kName, t, name);
    std::vector<float> f(size_t(t.numel()));
    if (t.dtype == DType::kF32) {
      std::memcpy(f.data(), raw.data(), f.size() * 4);
    } else {
      for (size_t i = 0; i < f.size(); ++i) {
        uint16_t b;
        std::memcpy(&b, raw.data() + 2 * i, 2);
        f[i] = bf16_to_float(b);
      }
    }
    if (dst.bytes != f.size() * 4) dst.allocate(f.size() * 4, name);
    check(cudaMemcpy(dst.ptr, f.data(), f.size() * 4, cudaMemcpyHostToDevice), "copy " + name);
  }

  MoeConfig c_;
  int64_t EL_ = 0, H_ = 0, I_ = 0, N13_ = 0, K_ = 0, cap_ = 0;
  DeviceBuffer ws_, w13_, w2_, s13_, s2_, g13_, g2_, b13_, b2_;
  sm90_backend::SplitWorkspace sw_;  // plan, x_perm, h, y (fp32 or bf16), a
  sm90::ActivationParams act_;
  bool has_b13_ = false, has_b2_ = false, ready_ = false;
};

template <Fp4Scale F>
std::string why_not(const MoeConfig& c) {
  return sm90_backend::split_why_not(c, Names<F>::kRecipe, 64, " (the W4A16 GEMM's K step)");
}

template <Fp4Scale F>
BackendInfo make_info() {
  BackendInfo info;
  info.name = Names<F>::kName;
  info.why_not = why_not<F>;
  info.create = [](const MoeConfig& c) -> std::unique_ptr<Backend> { return std::make_unique<Sm90SplitW4A16<F>>(c); };
  return info;
}

}  // namespace

BackendInfo sm90_bf16_mxfp4_bf16_split_backend_info() { return make_info<Fp4Scale::kMxfp4>(); }
BackendInfo sm90_bf16_nvfp4_bf16_split_backend_info() { return make_info<Fp4Scale::kNvfp4>(); }

}  // namespace megamoe
