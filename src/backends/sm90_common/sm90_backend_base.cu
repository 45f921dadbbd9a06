// Sm90BackendBase (see sm90_backend_base.h).
#include "backends/sm90_common/sm90_backend_base.h"

#include "backends/sm90_common/machine_key.h"
#include "core/env_int.h"
#include "kernels/sm90/common/gate_up_layout.h"
#include "kernels/sm90/mega/mega.h"

#include <cstring>

#include "megamoe/errors.h"

namespace megamoe::sm90_backend {

Sm90BackendBase::Sm90BackendBase(const char* name, const MoeConfig& c, SplitActivations act)
    : c_(c), name_(name), ws_(name, c.device), b13_(name, c.device), b2_(name, c.device) {
  DeviceGuard g = guard();
  EL_ = c.local_experts();
  H_ = c.hidden_size;
  I_ = c.intermediate_size;
  N13_ = c.fc1_rows();
  K_ = c.top_k;
  cap_ = routing::bucket_capacity(c.max_tokens);
  sw_.create(c, cap_, ws_, act);
  act_.activation = c.activation;
  act_.limit = c.effective_limit();
  act_.alpha = c.swiglu_alpha;
  bf16_y_allowed_ = env_int("MEGAMOE_SPLIT_BF16_Y", 1) != 0;
}

void Sm90BackendBase::prepare_weights(const MoeWeights& w, void* stream) {
  DeviceGuard g = guard();
  upload_stream_ = stream ? static_cast<cudaStream_t>(stream) : cudaStreamLegacy;
  has_b13_ = c_.has_bias && w.b13.defined() && w.b13.data;
  has_b2_ = c_.has_bias && w.b2.defined() && w.b2.data;
  upload_bias(has_b13_, w.b13, b13_, "b13");
  upload_bias(has_b2_, w.b2, b2_, "b2");
  upload_weights(w);
  // The one synchronisation of the upload (see the header): the weights are in place on return.
  check(cudaStreamSynchronize(upload_stream()), "prepare_weights sync");
  ready_ = true;
}

void Sm90BackendBase::forward(const ForwardArgs& args) {
  if (!ready_) throw Error(std::string("megamoe: ") + name_ + ": forward() before prepare_weights()");
  const int64_t T = args.num_tokens;
  if (T > cap_)
    throw_invalid("x", "at most " + std::to_string(cap_) + " rows (workspace capacity)", std::to_string(T));
  if (T == 0) return;
  DeviceGuard g = guard();
  ForwardContext ctx;
  ctx.T = T;
  ctx.stream = static_cast<cudaStream_t>(args.stream);
  ctx.created_stream = cu::is_created_stream(ctx.stream);
  ctx.dims = route_dims(c_, T);
  ctx.ldx = args.x.ndim == 2 ? args.x.strides[0] : H_;
  ctx.rows_bound = T * K_;
  run_stages(args, ctx);
}

void Sm90BackendBase::combine_or_route_rows(const ForwardArgs& args, const ForwardContext& f, const void* y,
                                            bool y_is_bf16, bool pdl) const {
  if (args.route_out) {
    sm90::launch_route_rows(y, y_is_bf16, y_is_bf16 ? nullptr : b2(), sw_.plan.row_expert, sw_.plan.route_to_row, f.T,
                            K_, H_, args.route_out, f.stream, pdl);
  } else if (y_is_bf16) {
    sm90::launch_combine_bf16y(y, sw_.plan.route_to_row, args.topk_weights.ptr<const float>(), f.T, K_, H_,
                               args.out.data, f.stream, pdl);
  } else {
    sm90::launch_combine(static_cast<const float*>(y), b2(), sw_.plan.row_expert, sw_.plan.route_to_row,
                         args.topk_weights.ptr<const float>(), f.T, K_, H_, args.out.data, f.stream, pdl);
  }
}

void Sm90BackendBase::machine_key(TacticKey* key) const { cuda_machine_key(c_.device, key); }

}  // namespace megamoe::sm90_backend

namespace megamoe {

void cuda_machine_key(int device, TacticKey* key) {
  cudaDeviceProp prop{};
  cu::check("tactic key", cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  int driver = 0;
  cu::check("tactic key", cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
  key->gpu = prop.name;
  key->sm_count = prop.multiProcessorCount;
  key->driver = driver;
}

}  // namespace megamoe

namespace megamoe::sm90_backend {

int64_t Sm90BackendBase::invalid_id_count(void* stream) {
  DeviceGuard g = guard();
  auto s = static_cast<cudaStream_t>(stream);
  unsigned long long v = 0;
  check(cudaMemcpyAsync(&v, sw_.plan.invalid_count, sizeof v, cudaMemcpyDeviceToHost, s), "read invalid count");
  check(cudaMemsetAsync(sw_.plan.invalid_count, 0, sizeof v, s), "reset invalid count");
  check(cudaStreamSynchronize(s), "invalid_id_count sync");
  // The Mega kernel adds kTimeoutMark per CTA that gave up a dependency wait (mega_kernel.cuh):
  // those forwards' outputs are not valid, which a count of invalid ids would not say.
  if (v >= sm90::mega::kTimeoutMark)
    throw Error(std::string("megamoe: ") + name_ + ": " + std::to_string(v / sm90::mega::kTimeoutMark) +
                " CTA(s) of the one-launch kernel gave up waiting for another CTA's tile since the last "
                "check (the bound is 1 s, MEGAMOE_MEGA_WAIT_TIMEOUT_MS sets it; tools such as "
                "compute-sanitizer racecheck need more): the outputs of those forwards are not valid (" +
                std::to_string(v % sm90::mega::kTimeoutMark) + " invalid ids counted)");
  return int64_t(v);
}

void Sm90BackendBase::upload_tensor(const TensorView& t, DeviceBuffer& dst, const std::string& name) const {
  const int es = dtype_bytes(t.dtype);
  dst.ensure(size_t(t.numel()) * es, name);
  if (dst.bytes == 0) return;
  if (t.is_contiguous()) {
    check(cudaMemcpyAsync(dst.ptr, t.data, dst.bytes, cudaMemcpyDefault, upload_stream()), "copy " + name);
    return;
  }
  if (t.ndim < 2) {  // a strided vector (e.g. per-expert global scales): gathered on the host
    const std::vector<uint8_t> host = stage_to_host(t, name);
    upload_bytes(host.data(), host.size(), dst, name);
    return;
  }
  if (t.strides[t.ndim - 1] != 1) throw Unsupported(std::string(name_) + ": " + name + " needs a unit innermost stride");
  const int64_t cols = t.shape[t.ndim - 1], rows = t.shape[t.ndim - 2];
  const int64_t outer = t.ndim == 3 ? t.shape[0] : 1, s_outer = t.ndim == 3 ? t.strides[0] : 0;
  for (int64_t o = 0; o < outer; ++o) {
    const char* src = static_cast<const char*>(t.data) + o * s_outer * es;
    char* d = dst.as<char>() + o * rows * cols * es;
    check(cudaMemcpy2DAsync(d, size_t(cols) * es, src, size_t(t.strides[t.ndim - 2]) * es, size_t(cols) * es,
                            size_t(rows), cudaMemcpyDefault, upload_stream()),
          "copy " + name);
  }
}

void Sm90BackendBase::upload_gate_up_interleaved(const TensorView& t, DeviceBuffer& dst,
                                                 const std::string& name) const {
  const int es = dtype_bytes(t.dtype);
  dst.ensure(size_t(t.numel()) * es, name);
  if (dst.bytes == 0) return;
  if (t.ndim != 3 || t.strides[2] != 1)
    throw Unsupported(std::string(name_) + ": " + name + " needs shape [E_local, 2I, H] with a unit innermost stride");
  const int64_t experts = t.shape[0], rows = t.shape[1], cols = t.shape[2];
  if (rows % (2 * sm90::gate_up::kGroup) != 0)
    throw_invalid(name + ".shape[1]", "2I with I a multiple of " + std::to_string(sm90::gate_up::kGroup), std::to_string(rows));
  const int64_t I = rows / 2, groups = I / sm90::gate_up::kGroup;
  // One 3-D copy per (expert, half): slice g is the half's rows [8g, 8g + 8), from 8 source rows at
  // the tensor's row stride into rows [16g + 8 half, 16g + 8 half + 8) of the expert's block.
  for (int64_t e = 0; e < experts; ++e) {
    for (int half = 0; half < 2; ++half) {
      cudaMemcpy3DParms p{};
      const char* src = static_cast<const char*>(t.data) + (e * t.strides[0] + half * I * t.strides[1]) * es;
      char* d = dst.as<char>() + e * rows * cols * es;
      p.srcPtr = make_cudaPitchedPtr(const_cast<char*>(src), size_t(t.strides[1]) * es, size_t(cols) * es,
                                     size_t(sm90::gate_up::kGroup));
      p.dstPtr = make_cudaPitchedPtr(d, size_t(cols) * es, size_t(cols) * es, size_t(2 * sm90::gate_up::kGroup));
      p.dstPos = make_cudaPos(0, size_t(half * sm90::gate_up::kGroup), 0);
      p.extent = make_cudaExtent(size_t(cols) * es, size_t(sm90::gate_up::kGroup), size_t(groups));
      p.kind = cudaMemcpyDefault;
      check(cudaMemcpy3DAsync(&p, upload_stream()), "copy " + name + " (gate/up interleaved)");
    }
  }
}

void Sm90BackendBase::upload_bytes(const void* host, size_t bytes, DeviceBuffer& dst, const std::string& name) const {
  dst.ensure(bytes, name);
  if (bytes == 0) return;
  // Pageable host memory: the call returns once the bytes are staged, so `host` may go away.
  check(cudaMemcpyAsync(dst.ptr, host, bytes, cudaMemcpyHostToDevice, upload_stream()), "copy " + name);
}

std::vector<uint8_t> Sm90BackendBase::stage_to_host(const TensorView& t, const std::string& name) const {
  const int es = dtype_bytes(t.dtype);
  std::vector<uint8_t> out(size_t(t.numel()) * es);
  if (out.empty()) return out;
  if (t.is_contiguous()) {
    check(cudaMemcpy(out.data(), t.data, out.size(), cudaMemcpyDefault), "stage " + name);
    return out;
  }
  if (t.ndim == 1) {
    check(cudaMemcpy2D(out.data(), es, t.data, size_t(t.strides[0]) * es, es, size_t(t.shape[0]), cudaMemcpyDefault),
          "stage " + name);
    return out;
  }
  if (t.strides[t.ndim - 1] != 1) throw Unsupported(std::string(name_) + ": " + name + " needs a unit innermost stride");
  const int64_t cols = t.shape[t.ndim - 1], rows = t.shape[t.ndim - 2];
  const int64_t outer = t.ndim == 3 ? t.shape[0] : 1, s_outer = t.ndim == 3 ? t.strides[0] : 0;
  for (int64_t o = 0; o < outer; ++o) {
    const char* src = static_cast<const char*>(t.data) + o * s_outer * es;
    check(cudaMemcpy2D(out.data() + o * rows * cols * es, size_t(cols) * es, src, size_t(t.strides[t.ndim - 2]) * es,
                       size_t(cols) * es, size_t(rows), cudaMemcpyDefault),
          "stage " + name);
  }
  return out;
}

std::vector<float> Sm90BackendBase::to_host_f32(const TensorView& t, const std::string& name) const {
  const std::vector<uint8_t> raw = stage_to_host(t, name);
  std::vector<float> f(size_t(t.numel()));
  if (t.dtype == DType::kF32) {
    std::memcpy(f.data(), raw.data(), f.size() * sizeof(float));
  } else {  // bf16: the high half of the float's bits
    for (size_t i = 0; i < f.size(); ++i) {
      uint16_t b;
      std::memcpy(&b, raw.data() + 2 * i, 2);
      const uint32_t u = uint32_t(b) << 16;
      std::memcpy(&f[i], &u, sizeof u);
    }
  }
  return f;
}

void Sm90BackendBase::upload_bias(bool has, const TensorView& t, DeviceBuffer& dst, const char* name) {
  if (!has) {
    dst.release();
    return;
  }
  if (t.dtype == DType::kF32) {  // straight to the device, no host round trip
    upload_tensor(t, dst, name);
    return;
  }
  const std::vector<float> f = to_host_f32(t, name);
  upload_bytes(f.data(), f.size() * sizeof(float), dst, name);
}

}  // namespace megamoe::sm90_backend
