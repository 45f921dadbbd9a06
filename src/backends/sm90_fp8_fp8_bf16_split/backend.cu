// sm90_fp8_fp8_bf16_split: recipe fp8_block (DeepSeek-V3 style) on Hopper, split path.
// e4m3 weights with fp32 scales per 128x128 block, activations quantized on the fly to e4m3 with
// an fp32 scale per token per 128 columns (formats::quantize_fp8_act_1x128, bit for bit), FP8
// wgmma with per-128-K promotion into the fp32 accumulator (sa * sw).
//
//   route plan (routing/route_plan.cu)                 ids -> counts, offsets, row <-> (t, k) maps
//   permute+quant (kernels/sm90/moe/permute_quant_fp8.cu)  x -> xq [rows, H] e4m3 + sx (1x128 scales)
//   FC1 (kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h)    xq . W13[e]^T (blockwise) -> h [rows, N13] fp32
//   act+quant (kernels/sm90/moe/activation_fp8.cu)         a = bf16(act(h + b13)) -> aq [rows, I] e4m3 + sa
//   FC2                                                aq . W2[e]^T (blockwise) -> y [rows, H] fp32
//   combine (kernels/sm90/moe/combine.cu)                  y + b2 -> bf16 -> fixed-order weighted sum -> out
//
// Weights (prepare_weights, once): codes copied as they are ([E, N, K] e4m3, K-major); scales
// re-laid out from the canonical [E, ceil(N/128), ceil(K/128)] to [E, ceil(K/128), ceil(N/128)]
// (the MN-major layout of CUTLASS's Sm90 blockwise scales); biases to fp32. Activation scales are
// written by the quantize kernels directly in the layout the GEMMs read (grouped_gemm_fp8_blockwise.h,
// "SA").
//
// H and I need not be multiples of 128 (gpt-oss: H = I = 2880 = 22.5 x 128). A partial last
// 128-block is exact without any padding: the quantizers give its activation group a scale over
// its real columns (the CPU quantizer's rule) and write no codes past column H / I; the GEMMs run
// with their real K, and TMA zero-fills the columns of the last K tile past K in both operands, so
// they add exact zeros before that block is promoted with its own scales (sa * sw); a partial last
// N block (FC2's N = H, FC1's N13 = 2I or I) uses its own weight scale and its stores are clipped
// at N. What is left to require (why_not below): H and I multiples of 16, the 16-byte TMA row
// strides of e4m3 rows of H / I bytes (also enough for the quantizers' and the combine's vectors).
//
// Workspace (one device allocation, sized at construction; every buffer 256-byte aligned):
//   cap = bucket_capacity(max_tokens), R = cap * K, HB = ceil(H/128), IB = ceil(I/128)
//   plan   = route_plan_workspace_bytes(cap, K, E_local)
//   region = max(al(R H) + al(4 R HB) + al(4 R N13), al(4 R H))   xq, sx, h; y [R,H] fp32 aliases
//            the start of the region (xq, sx and h are dead once FC2 runs)
//   aq, sa = al(R I) + al(4 R IB)
// deepseek-v3 (H 7168, I 2048, E 256, K 8) at max_tokens 8192: region 1.88e9 + 0.14e9 -> ~1.9 GiB.
// gpt-oss-120b (H = I = 2880, HB = IB = 23, E 128, K 4) at max_tokens 8192: region 0.85e9 (xq + sx
// + h; y is 0.38e9) + 0.10e9 -> ~0.9 GiB.
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
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "kernels/sm90/moe/moe_kernels_fp8.h"
#include "megamoe/errors.h"
#include "routing/route_plan.h"

namespace megamoe {

namespace {

constexpr const char* kName = "sm90_fp8_fp8_bf16_split";
size_t al(size_t n) { return sm90_backend::align_up(n); }
// fp8_block's 128-wide scale blocks along a dimension of n, a partial last one included.
int64_t blocks128(int64_t n) { return (n + 127) / 128; }
void check_cuda(cudaError_t e, const std::string& what) { sm90_backend::check_cuda(kName, e, what); }
struct DeviceGuard : sm90_backend::DeviceGuard {
  explicit DeviceGuard(int device) : sm90_backend::DeviceGuard(kName, device) {}
};
struct DeviceBuffer : sm90_backend::DeviceBuffer {
  DeviceBuffer() : sm90_backend::DeviceBuffer(kName) {}
};

// Validated canonical tensors are contiguous (validate_weights), on the host or on our device.
void copy_to_device(const TensorView& t, void* dst, const std::string& name) {
  if (!t.is_contiguous()) throw Unsupported(std::string(kName) + ": " + name + " must be contiguous");
  check_cuda(cudaMemcpy(dst, t.data, size_t(t.numel()) * dtype_bytes(t.dtype), cudaMemcpyDefault), "copy " + name);
}

std::vector<float> to_host_f32(const TensorView& t, const std::string& name) {
  if (!t.is_contiguous()) throw Unsupported(std::string(kName) + ": " + name + " must be contiguous");
  std::vector<float> v(size_t(t.numel()));
  if (t.dtype == DType::kF32) {
    check_cuda(cudaMemcpy(v.data(), t.data, v.size() * sizeof(float), cudaMemcpyDefault), "stage " + name);
  } else {  // bf16
    std::vector<uint16_t> raw(v.size());
    check_cuda(cudaMemcpy(raw.data(), t.data, raw.size() * 2, cudaMemcpyDefault), "stage " + name);
    for (size_t i = 0; i < v.size(); ++i) {
      const uint32_t u = uint32_t(raw[i]) << 16;
      std::memcpy(&v[i], &u, sizeof u);
    }
  }
  return v;
}

class Sm90SplitFp8 final : public Backend {
 public:
  explicit Sm90SplitFp8(const MoeConfig& c) : c_(c) {
    DeviceGuard guard(c.device);
    EL_ = c.local_experts();
    H_ = c.hidden_size;
    I_ = c.intermediate_size;
    N13_ = c.fc1_rows();
    K_ = c.top_k;
    cap_ = routing::bucket_capacity(c.max_tokens);
    const size_t R = size_t(cap_ * K_), HB = size_t(blocks128(H_)), IB = size_t(blocks128(I_));
    plan_bytes_ = routing::route_plan_workspace_bytes(cap_, K_, EL_);
    const size_t xq_bytes = al(R * H_), sx_bytes = al(4 * R * HB), h_bytes = al(4 * R * N13_), y_bytes = al(4 * R * H_);
    region_bytes_ = std::max(xq_bytes + sx_bytes + h_bytes, y_bytes);
    const size_t aq_bytes = al(R * I_), sa_bytes = al(4 * R * IB);
    ws_.allocate(plan_bytes_ + region_bytes_ + aq_bytes + sa_bytes, "workspace");
    char* base = static_cast<char*>(ws_.ptr);
    plan_ = routing::carve_route_plan(base, cap_, K_, EL_);
    char* region = base + plan_bytes_;
    xq_ = region;
    sx_ = reinterpret_cast<float*>(region + xq_bytes);
    h_ = reinterpret_cast<float*>(region + xq_bytes + sx_bytes);
    y_ = reinterpret_cast<float*>(region);
    aq_ = region + region_bytes_;
    sa_ = reinterpret_cast<float*>(region + region_bytes_ + aq_bytes);
    act_bytes_ = aq_bytes + sa_bytes;
    routing::init_route_plan(plan_, nullptr);
    fc1_ = std::make_unique<sm90::GroupedGemmFp8Blockwise>(int(EL_), N13_, H_, c.device);
    fc2_ = std::make_unique<sm90::GroupedGemmFp8Blockwise>(int(EL_), H_, I_, c.device);
    act_.activation = c.activation;
    act_.limit = c.effective_limit();
    act_.alpha = c.swiglu_alpha;
  }

  ~Sm90SplitFp8() override {
    int prev = 0;
    if (cudaGetDevice(&prev) == cudaSuccess && prev != c_.device) cudaSetDevice(c_.device);
    fc1_.reset();
    fc2_.reset();
    for (DeviceBuffer* b : {&w13_, &w2_, &s13_, &s2_, &b13_, &b2_, &ws_}) b->release();
    if (prev != c_.device) cudaSetDevice(prev);
  }

  void prepare_weights(const MoeWeights& w) override {
    DeviceGuard guard(c_.device);
    const int64_t HB = blocks128(H_), IB = blocks128(I_), NB13 = blocks128(N13_);
    const size_t w13_bytes = size_t(EL_ * N13_ * H_), w2_bytes = size_t(EL_ * H_ * I_);
    if (w13_.bytes != w13_bytes) w13_.allocate(w13_bytes, "w13");
    if (w2_.bytes != w2_bytes) w2_.allocate(w2_bytes, "w2");
    copy_to_device(w.w13, w13_.ptr, "w13");
    copy_to_device(w.w2, w2_.ptr, "w2");
    // Scales: canonical [E, NB, KB] -> [E, KB, NB] (MN-major), through the host (small). NB and KB
    // count a partial last block (validate_weights checked the canonical shapes against them).
    auto relayout = [&](const TensorView& t, int64_t NB, int64_t KB, DeviceBuffer& dst, const char* name) {
      const std::vector<float> canon = to_host_f32(t, name);
      std::vector<float> mn(canon.size());
      sm90::make_weight_scales_mn_major(canon.data(), EL_, NB, KB, mn.data());
      if (dst.bytes != mn.size() * 4) dst.allocate(mn.size() * 4, name);
      check_cuda(cudaMemcpy(dst.ptr, mn.data(), mn.size() * 4, cudaMemcpyHostToDevice), std::string("copy ") + name);
    };
    relayout(w.w13_scale, NB13, HB, s13_, "w13_scale");
    relayout(w.w2_scale, HB, IB, s2_, "w2_scale");
    has_b13_ = c_.has_bias && w.b13.defined() && w.b13.data;
    has_b2_ = c_.has_bias && w.b2.defined() && w.b2.data;
    auto bias = [&](bool has, const TensorView& t, DeviceBuffer& dst, const char* name) {
      if (!has) {
        dst.release();
        return;
      }
      const std::vector<float> f = to_host_f32(t, name);
      if (dst.bytes != f.size() * 4) dst.allocate(f.size() * 4, name);
      check_cuda(cudaMemcpy(dst.ptr, f.data(), f.size() * 4, cudaMemcpyHostToDevice), std::string("copy ") + name);
    };
    bias(has_b13_, w.b13, b13_, "b13");
    bias(has_b2_, w.b2, b2_, "b2");
    check_cuda(cudaStreamSynchronize(nullptr), "prepare_weights sync");
    ready_ = true;
  }

  void forward(const ForwardArgs& args) override {
    if (!ready_) throw Error(std::string("megamoe: ") + kName + ": forward() before prepare_weights()");
    const int64_t T = args.num_tokens;
    if (T > cap_)
      throw_invalid("x", "at most " + std::to_string(cap_) + " rows (workspace capacity)", std::to_string(T));
    if (T == 0) return;
    DeviceGuard guard(c_.device);
    auto stream = static_cast<cudaStream_t>(args.stream);
    const routing::RouteDims d = sm90_backend::route_dims(c_, T);
    routing::build_route_plan_gpu(args.topk_ids, d, plan_, stream);
    const int64_t ldx = args.x.ndim == 2 ? args.x.strides[0] : H_;
    sm90::launch_permute_quant_fp8(args.x.data, ldx, T, K_, H_, plan_.route_to_row, plan_.row_expert, plan_.offsets,
                                   xq_, sx_, stream);
    const int64_t rows_bound = T * K_;
    fc1_->run(xq_, sx_, w13_.ptr, static_cast<const float*>(s13_.ptr), h_, N13_, plan_.offsets, rows_bound, stream);
    sm90::launch_activation_quant_fp8(h_, has_b13_ ? static_cast<const float*>(b13_.ptr) : nullptr, plan_.row_expert,
                                      plan_.offsets, EL_, rows_bound, I_, act_, aq_, sa_, stream);
    fc2_->run(aq_, sa_, w2_.ptr, static_cast<const float*>(s2_.ptr), y_, H_, plan_.offsets, rows_bound, stream);
    sm90::launch_combine(y_, has_b2_ ? static_cast<const float*>(b2_.ptr) : nullptr, plan_.row_expert,
                         plan_.route_to_row, args.topk_weights.ptr<const float>(), T, K_, H_, args.out.data, stream);
  }

  size_t workspace_bytes() const override {
    return plan_bytes_ + region_bytes_ + act_bytes_ + fc1_->workspace_bytes() + fc2_->workspace_bytes();
  }
  size_t weight_bytes() const override {
    return w13_.bytes + w2_.bytes + s13_.bytes + s2_.bytes + b13_.bytes + b2_.bytes;
  }

  int64_t invalid_id_count(void* stream) override {
    DeviceGuard guard(c_.device);
    auto s = static_cast<cudaStream_t>(stream);
    unsigned long long v = 0;
    check_cuda(cudaMemcpyAsync(&v, plan_.invalid_count, sizeof v, cudaMemcpyDeviceToHost, s), "read invalid count");
    check_cuda(cudaMemsetAsync(plan_.invalid_count, 0, sizeof v, s), "reset invalid count");
    check_cuda(cudaStreamSynchronize(s), "invalid_id_count sync");
    return int64_t(v);
  }

 private:
  MoeConfig c_;
  int64_t EL_ = 0, H_ = 0, I_ = 0, N13_ = 0, K_ = 0, cap_ = 0;
  size_t plan_bytes_ = 0, region_bytes_ = 0, act_bytes_ = 0;
  DeviceBuffer ws_, w13_, w2_, s13_, s2_, b13_, b2_;
  routing::RoutePlanDevice plan_;
  void* xq_ = nullptr;
  float* sx_ = nullptr;
  float* h_ = nullptr;
  float* y_ = nullptr;
  void* aq_ = nullptr;
  float* sa_ = nullptr;
  std::unique_ptr<sm90::GroupedGemmFp8Blockwise> fc1_, fc2_;
  sm90::ActivationParams act_;
  bool has_b13_ = false, has_b2_ = false, ready_ = false;
};

// 16: TMA, which loads the e4m3 GEMM operands, needs 16-byte aligned row strides, and the rows
// are H (FC1) and I (FC2) bytes long. Partial 128-blocks are handled (see the top of this file).
std::string why_not(const MoeConfig& c) {
  return sm90_backend::split_why_not(c, Recipe::kFP8Block, 16, " (16-byte TMA row strides of the e4m3 GEMM operands)");
}

}  // namespace

BackendInfo sm90_fp8_fp8_bf16_split_backend_info() {
  BackendInfo info;
  info.name = kName;
  info.why_not = why_not;
  info.create = [](const MoeConfig& c) -> std::unique_ptr<Backend> { return std::make_unique<Sm90SplitFp8>(c); };
  return info;
}

}  // namespace megamoe
