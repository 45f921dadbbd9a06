// megamoe._C: nanobind bindings of the C++ library. This module is private: the public,
// documented API is the pure-Python package around it (python/megamoe/__init__.py).
//
// Tensors become megamoe::TensorView without copies. A tensor argument is either
//  * any object that speaks DLPack (or the buffer protocol), or a DLPack capsule, optionally
//    with a "tag": the name of a megamoe dtype (e.g. "bfloat16", "float8_e4m3fn") that the
//    Python layer passes along with a same-width unsigned view (NumPy cannot export ml_dtypes
//    arrays through DLPack); or
//  * a RawSpec tuple (data pointer, dtype name, shape, strides, DLPack device type, id), which
//    the Python layer uses for torch.Tensor (no capsule, no Tensor.__dlpack__ stream logic).
// Everything the C++ library validates (dtype, shape, strides, device, ids) raises before any
// work:
//   megamoe::InvalidDtype    -> TypeError (a wrong element type)
//   megamoe::InvalidArgument -> ValueError (any other bad argument: shape, stride, device, value)
//   megamoe::Unsupported     -> NotImplementedError
//   megamoe::OutOfMemory     -> megamoe.OutOfMemoryError (a RuntimeError)
//   megamoe::CudaError       -> megamoe.CudaError (a RuntimeError)
//   megamoe::CommError       -> megamoe.CommError (a RuntimeError; expert parallelism)
//   other megamoe::Error     -> RuntimeError
// keeping the C++ message ("megamoe: argument 'x': expected ..., got ...").
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "formats/quantize.h"
#include "megamoe/ep.h"
#include "megamoe/megamoe.h"

#if defined(MEGAMOE_WITH_CUDA)
#include <cuda_runtime.h>
#endif

#ifndef MEGAMOE_VERSION
#define MEGAMOE_VERSION "0.0.0"
#endif

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using megamoe::Device;
using megamoe::DeviceType;
using megamoe::DType;
using megamoe::TensorView;
using megamoe::throw_invalid;
using megamoe::throw_invalid_dtype;

// DLPack device types (dlpack.h DLDeviceType).
constexpr int kDLCPU = 1, kDLCUDA = 2, kDLCUDAHost = 3, kDLCUDAManaged = 13;

constexpr DType kAllDtypes[] = {DType::kBF16, DType::kF16, DType::kF32, DType::kF64, DType::kI32,
                                DType::kI64,  DType::kU8,  DType::kE4M3, DType::kE8M0};

std::string supported_dtypes() {
  std::string s;
  for (DType d : kAllDtypes) s += (s.empty() ? "" : ", ") + std::string(megamoe::dtype_name(d));
  return s;
}

std::string dlpack_dtype_str(nb::dlpack::dtype dt) {
  using C = nb::dlpack::dtype_code;
  std::string s;
  switch (C(dt.code)) {
    case C::Int: s = "int" + std::to_string(dt.bits); break;
    case C::UInt: s = "uint" + std::to_string(dt.bits); break;
    case C::Float: s = "float" + std::to_string(dt.bits); break;
    case C::Bfloat: s = "bfloat" + std::to_string(dt.bits); break;
    case C::Complex: s = "complex" + std::to_string(dt.bits); break;
    case C::Bool: s = "bool"; break;
    case C::Float8_E3M4: s = "float8_e3m4"; break;
    case C::Float8_E4M3: s = "float8_e4m3"; break;
    case C::Float8_E4M3B11FNUZ: s = "float8_e4m3b11fnuz"; break;
    case C::Float8_E4M3FN: s = "float8_e4m3fn"; break;
    case C::Float8_E4M3FNUZ: s = "float8_e4m3fnuz"; break;
    case C::Float8_E5M2: s = "float8_e5m2"; break;
    case C::Float8_E5M2FNUZ: s = "float8_e5m2fnuz"; break;
    case C::Float8_E8M0FNU: s = "float8_e8m0fnu"; break;
    case C::Float6_E2M3FN: s = "float6_e2m3fn"; break;
    case C::Float6_E3M2FN: s = "float6_e3m2fn"; break;
    case C::Float4_E2M1FN: s = "float4_e2m1fn"; break;
    default: s = "DLPack type code " + std::to_string(int(dt.code)) + " with " + std::to_string(dt.bits) + " bits";
  }
  if (dt.lanes != 1) s += " x" + std::to_string(dt.lanes) + " lanes";
  return s;
}

nb::dlpack::dtype to_dlpack(DType d) {
  using C = nb::dlpack::dtype_code;
  auto mk = [](C c, int bits) { return nb::dlpack::dtype{uint8_t(c), uint8_t(bits), 1}; };
  switch (d) {
    case DType::kBF16: return mk(C::Bfloat, 16);
    case DType::kF16: return mk(C::Float, 16);
    case DType::kF32: return mk(C::Float, 32);
    case DType::kF64: return mk(C::Float, 64);
    case DType::kI32: return mk(C::Int, 32);
    case DType::kI64: return mk(C::Int, 64);
    case DType::kU8: return mk(C::UInt, 8);
    case DType::kE4M3: return mk(C::Float8_E4M3FN, 8);
    case DType::kE8M0: return mk(C::Float8_E8M0FNU, 8);
  }
  return mk(C::UInt, 8);
}

// The megamoe dtype of a DLPack dtype; throws InvalidDtype (-> TypeError) otherwise.
DType from_dlpack(nb::dlpack::dtype dt, const std::string& name) {
  if (dt.lanes == 1)
    for (DType d : kAllDtypes) {
      const nb::dlpack::dtype m = to_dlpack(d);
      if (m.code == dt.code && m.bits == dt.bits) return d;
    }
  throw_invalid_dtype(name, "dtype " + supported_dtypes(), "dtype " + dlpack_dtype_str(dt));
}

DType parse_tag(const std::string& tag, const std::string& name) {
  for (DType d : kAllDtypes)
    if (tag == megamoe::dtype_name(d)) return d;
  throw_invalid_dtype(name, "dtype " + supported_dtypes(), "dtype " + tag);
}

// The dtype of `a`: its DLPack dtype, or `tag` when the Python layer passed a same-width
// unsigned view of a dtype DLPack cannot carry.
DType resolve_dtype(nb::dlpack::dtype dt, const std::string& tag, const std::string& name) {
  if (tag.empty()) return from_dlpack(dt, name);
  const DType d = parse_tag(tag, name);
  const nb::dlpack::dtype want = to_dlpack(d);
  const bool same = dt.lanes == 1 && dt.code == want.code && dt.bits == want.bits;
  const bool raw = dt.lanes == 1 && dt.code == uint8_t(nb::dlpack::dtype_code::UInt) &&
                   dt.bits == 8 * megamoe::dtype_bytes(d);
  if (!same && !raw)
    throw_invalid_dtype(name, "a " + std::to_string(8 * megamoe::dtype_bytes(d)) + "-bit unsigned view of " + tag,
                        "dtype " + dlpack_dtype_str(dt));
  return d;
}

// A tensor with no elements has no meaningful strides (producers report 0 or anything);
// give it row-major ones so layout checks judge only tensors that hold data.
void normalize_empty(TensorView& v) {
  if (v.numel() != 0) return;
  int64_t stride = 1;
  for (int d = v.ndim - 1; d >= 0; --d) {
    v.strides[d] = stride;
    stride *= std::max<int64_t>(v.shape[d], 1);
  }
}

template <class Arr>
TensorView make_view(const Arr& a, const std::string& name, const std::string& tag) {
  TensorView v;
  v.dtype = resolve_dtype(a.dtype(), tag, name);
  if (a.ndim() > size_t(megamoe::kMaxDims))
    throw_invalid(name, "a tensor of at most " + std::to_string(megamoe::kMaxDims) + " dimensions",
                  std::to_string(a.ndim()) + " dimensions");
  v.ndim = int(a.ndim());
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = int64_t(a.shape(size_t(d)));
    v.strides[d] = a.stride(size_t(d));
  }
  normalize_empty(v);
  v.data = const_cast<void*>(static_cast<const void*>(a.data()));
  switch (a.device_type()) {
    case kDLCPU:
    case kDLCUDAHost:  // pinned host memory: the host can read it
      v.device = Device::cpu();
      break;
    case kDLCUDA:
    case kDLCUDAManaged:
      v.device = Device::cuda(a.device_id());
      break;
    default:
      throw_invalid(name, "a tensor in CPU or CUDA memory",
                    "a tensor on DLPack device type " + std::to_string(a.device_type()));
  }
  return v;
}

std::string py_type_name(nb::handle h) { return nb::type_name(h.type()).c_str(); }

// Imports `h` (any object with __dlpack__, a DLPack capsule, or a buffer) without copying.
template <class Arr>
Arr import_tensor(nb::handle h, const std::string& name, bool writable) {
  Arr a;
  if (h.is_none()) throw_invalid(name, "a tensor", "None");
  if (!nb::try_cast<Arr>(h, a, /*convert=*/false)) {
    const std::string what = writable ? "a writable DLPack tensor" : "a DLPack tensor";
    throw_invalid(name, what + " (an object with __dlpack__: torch, CuPy, JAX, NumPy, ...)",
                  "an object of type " + py_type_name(h) +
                      (writable ? " that is not a writable DLPack tensor" : " that does not export DLPack"));
  }
  return a;
}

using RoArray = nb::ndarray<nb::ro>;
using RwArray = nb::ndarray<>;
// Returned arrays: nanobind's own array object, which implements __dlpack__/__dlpack_device__.
using OutArray = nb::ndarray<nb::array_api>;

// A tensor described by the Python layer without DLPack (used for torch.Tensor: no capsule,
// no stream semantics of Tensor.__dlpack__, works the same under CUDA-graph capture):
// (data_ptr, dtype name, shape, strides in elements, DLPack device type, device id).
using RawSpec = std::tuple<uintptr_t, std::string, std::vector<int64_t>, std::vector<int64_t>, int, int>;

TensorView view_from_spec(const RawSpec& spec, const std::string& name) {
  const auto& [ptr, dtype, shape, strides, device_type, device_id] = spec;
  TensorView v;
  v.dtype = parse_tag(dtype, name);
  if (shape.size() > size_t(megamoe::kMaxDims))
    throw_invalid(name, "a tensor of at most " + std::to_string(megamoe::kMaxDims) + " dimensions",
                  std::to_string(shape.size()) + " dimensions");
  if (strides.size() != shape.size())
    throw_invalid(name, "as many strides as dimensions", std::to_string(strides.size()) + " strides");
  v.ndim = int(shape.size());
  for (int d = 0; d < v.ndim; ++d) {
    v.shape[d] = shape[size_t(d)];
    v.strides[d] = strides[size_t(d)];
  }
  normalize_empty(v);
  v.data = reinterpret_cast<void*>(ptr);
  if (device_type == kDLCPU || device_type == kDLCUDAHost) v.device = Device::cpu();
  else if (device_type == kDLCUDA || device_type == kDLCUDAManaged) v.device = Device::cuda(device_id);
  else
    throw_invalid(name, "a tensor in CPU or CUDA memory", "a tensor on DLPack device type " + std::to_string(device_type));
  return v;
}

// Keeps imported arrays (and so the producers' memory) alive for the duration of a call.
struct Keep {
  std::vector<RoArray> ro;
  std::vector<RwArray> rw;
};

// A tensor argument: a RawSpec tuple, or anything DLPack/buffer-like (with an optional tag).
TensorView to_view(nb::handle h, const std::string& name, const std::string& tag, bool writable, Keep& keep) {
  if (nb::isinstance<nb::tuple>(h)) {
    RawSpec spec;
    if (!nb::try_cast<RawSpec>(h, spec))
      throw_invalid(name, "a tensor", "a tuple that is not a megamoe tensor spec");
    return view_from_spec(spec, name);
  }
  if (writable) {
    keep.rw.push_back(import_tensor<RwArray>(h, name, true));
    return make_view(keep.rw.back(), name, tag);
  }
  keep.ro.push_back(import_tensor<RoArray>(h, name, false));
  return make_view(keep.ro.back(), name, tag);
}

// ---- GPU quantizers (include/megamoe/quantize.h) ---------------------------------------
// kind: fp8_block (flag = ue8m0), mxfp4, mxfp8, nvfp4 (flag = the global scale is an input).
// Tensors are RawSpec tuples or DLPack objects on one CUDA device; asynchronous on `stream`.
void quantize_gpu(const std::string& kind, nb::handle src, nb::handle codes, nb::handle scales,
                  nb::handle global_scale, bool flag, uintptr_t stream) {
  Keep keep;
  const TensorView s = to_view(src, "src", "", false, keep);
  const TensorView c = to_view(codes, "codes", "", true, keep);
  const TensorView sc = to_view(scales, "scales", "", true, keep);
  const auto st = reinterpret_cast<cudaStream_t>(stream);
  if (kind == "fp8_block") {
    nb::gil_scoped_release release;
    megamoe::quantize_weights_fp8_block(s, c, sc, flag, st);
  } else if (kind == "mxfp4") {
    nb::gil_scoped_release release;
    megamoe::quantize_weights_mxfp4(s, c, sc, st);
  } else if (kind == "mxfp8") {
    nb::gil_scoped_release release;
    megamoe::quantize_weights_mxfp8(s, c, sc, st);
  } else if (kind == "nvfp4") {
    const TensorView g = to_view(global_scale, "global_scale", "", !flag, keep);
    nb::gil_scoped_release release;
    megamoe::quantize_weights_nvfp4(s, c, sc, g, flag, st);
  } else {
    throw_invalid("kind", "fp8_block, mxfp4, mxfp8 or nvfp4", "'" + kind + "'");
  }
}

// ---- the layer -------------------------------------------------------------------------
struct Layer {
  megamoe::MoeLayer layer;
  explicit Layer(const megamoe::MoeConfig& c) : layer(c) {}
};

Layer* make_layer(int64_t num_experts, int64_t top_k, int64_t hidden_size, int64_t intermediate_size,
                  const std::string& recipe, const std::string& activation, std::optional<float> swiglu_limit,
                  std::optional<float> swiglu_alpha, int ep_rank, int ep_size, int64_t max_tokens,
                  const std::string& backend, int device, bool has_bias, int num_threads,
                  std::shared_ptr<megamoe::EpGroup> ep_group,
                  std::optional<std::vector<std::vector<int32_t>>> expert_placement, const std::string& ep_style,
                  double ep_timeout_s, const std::string& tactic_cache) {
  megamoe::MoeConfig c;
  c.num_experts = num_experts;
  c.top_k = top_k;
  c.hidden_size = hidden_size;
  c.intermediate_size = intermediate_size;
  c.recipe = megamoe::parse_recipe(recipe);
  c.activation = megamoe::parse_activation(activation);
  c.swiglu_limit = swiglu_limit;
  if (swiglu_alpha) c.swiglu_alpha = *swiglu_alpha;
  c.ep_rank = ep_rank;
  c.ep_size = ep_size;
  c.max_tokens = max_tokens;
  c.backend = backend;
  c.device = device;
  c.has_bias = has_bias;
  c.num_threads = num_threads;
  c.ep_group = std::move(ep_group);
  if (expert_placement) c.expert_placement = std::move(*expert_placement);
  c.ep_style = ep_style;
  c.ep_timeout_s = ep_timeout_s;
  c.tactic_cache = tactic_cache;
  // A GPU backend allocates its workspace here; with an EP group this is a collective
  // (symmetric windows are registered on every rank), so other Python threads must keep running.
  nb::gil_scoped_release release;
  return new Layer(c);
}

void layer_prepare(Layer& self, const std::vector<std::tuple<std::string, nb::object, std::string>>& tensors,
                   float fc1_input_global_scale, float fc2_input_global_scale) {
  megamoe::MoeWeights w;
  Keep keep;
  for (const auto& [name, obj, tag] : tensors) {
    if (obj.is_none()) continue;
    TensorView* dst = name == "w13"                ? &w.w13
                      : name == "w2"               ? &w.w2
                      : name == "w13_scale"        ? &w.w13_scale
                      : name == "w2_scale"         ? &w.w2_scale
                      : name == "w13_global_scale" ? &w.w13_global_scale
                      : name == "w2_global_scale"  ? &w.w2_global_scale
                      : name == "b13"              ? &w.b13
                      : name == "b2"               ? &w.b2
                                                   : nullptr;
    if (!dst) throw_invalid("weights", "w13, w2, *_scale, *_global_scale, b13 or b2", "'" + name + "'");
    *dst = to_view(obj, name, tag, false, keep);
  }
  w.fc1_input_global_scale = fc1_input_global_scale;
  w.fc2_input_global_scale = fc2_input_global_scale;
  nb::gil_scoped_release release;
  self.layer.prepare_weights(w);
}

void layer_forward(Layer& self, nb::handle x, const std::string& x_tag, nb::handle ids, nb::handle weights,
                   nb::handle out, const std::string& out_tag, uintptr_t stream, const std::string& ids_tag,
                   const std::string& weights_tag) {
  Keep keep;
  const TensorView xv = to_view(x, "x", x_tag, false, keep);
  // The tags matter here too: without them a NumPy bfloat16 / float8 array (a same-width uint view)
  // would be reported as "uint16" / "uint8" instead of the dtype the caller passed.
  const TensorView iv = to_view(ids, "topk_ids", ids_tag, false, keep);
  const TensorView wv = to_view(weights, "topk_weights", weights_tag, false, keep);
  // `out` may be an allocator: called with x's row count, it returns (out tensor, tag). This
  // lets the Python layer allocate the output for producers that only speak DLPack (the row
  // count is known only once x is imported, and a DLPack capsule can be imported only once).
  nb::object out_obj = nb::borrow(out);
  std::string otag = out_tag;
  if (PyCallable_Check(out.ptr())) {
    const int64_t rows = xv.ndim == 2 ? xv.shape[0] : 0;
    std::tie(out_obj, otag) = nb::cast<std::tuple<nb::object, std::string>>(out(rows));
  }
  const TensorView ov = to_view(out_obj, "out", otag, true, keep);
  nb::gil_scoped_release release;
  self.layer.forward(xv, iv, wv, ov, reinterpret_cast<cudaStream_t>(stream));
}

// ---- expert parallelism: the communicator (include/megamoe/ep.h) ----------------------------
using megamoe::EpGroup;

nb::bytes ep_new_unique_id() {
  std::vector<uint8_t> id;
  {
    nb::gil_scoped_release release;
    id = EpGroup::new_unique_id();
  }
  return nb::bytes(reinterpret_cast<const char*>(id.data()), id.size());
}

std::shared_ptr<EpGroup> ep_create(nb::bytes unique_id, int rank, int size, int device) {
  if (unique_id.size() != EpGroup::kUniqueIdBytes)
    throw_invalid("unique_id", std::to_string(EpGroup::kUniqueIdBytes) + " bytes (from EpGroup.new_unique_id())",
                  std::to_string(unique_id.size()) + " bytes");
  const auto* p = static_cast<const uint8_t*>(unique_id.data());
  std::vector<uint8_t> id(p, p + unique_id.size());
  nb::gil_scoped_release release;  // collective: blocks until every rank joined
  return EpGroup::create(id, rank, size, device);
}

std::shared_ptr<EpGroup> ep_shrink(EpGroup& self, const std::vector<int>& exclude_ranks) {
  nb::gil_scoped_release release;  // collective among the survivors
  return self.shrink(exclude_ranks);
}

// ---- CUDA helpers (device queries, output buffers for frameworks without bf16) -------------
int cuda_device_count() {
#if defined(MEGAMOE_WITH_CUDA)
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
#else
  return 0;
#endif
}

int cuda_current_device() {
#if defined(MEGAMOE_WITH_CUDA)
  int d = 0;
  const cudaError_t e = cudaGetDevice(&d);
  if (e != cudaSuccess) throw megamoe::CudaError(std::string("cudaGetDevice: ") + cudaGetErrorString(e));
  return d;
#else
  throw megamoe::Unsupported("this megamoe build has no CUDA support (built without nvcc)");
#endif
}

// A new contiguous CUDA buffer exported through DLPack (freed when the last reference goes).
OutArray cuda_empty(const std::vector<int64_t>& shape, const std::string& tag, int device) {
#if defined(MEGAMOE_WITH_CUDA)
  const DType d = parse_tag(tag, "dtype");
  size_t n = size_t(megamoe::dtype_bytes(d));
  std::vector<size_t> shp;
  for (int64_t s : shape) {
    if (s < 0) throw_invalid("shape", "non-negative sizes", std::to_string(s));
    shp.push_back(size_t(s));
    n *= size_t(s);
  }
  int prev = 0;
  void* ptr = nullptr;
  cudaGetDevice(&prev);
  cudaError_t e = cudaSetDevice(device);
  if (e == cudaSuccess && n > 0) e = cudaMalloc(&ptr, n);
  cudaSetDevice(prev);
  if (e == cudaErrorMemoryAllocation) throw megamoe::OutOfMemory("cudaMalloc " + std::to_string(n) + " bytes");
  if (e != cudaSuccess) throw megamoe::CudaError(std::string("cudaMalloc: ") + cudaGetErrorString(e));
  nb::capsule owner(ptr, [](void* p) noexcept {
    if (p) cudaFree(p);
  });
  return OutArray(ptr, shp.size(), shp.data(), owner, nullptr, to_dlpack(d), kDLCUDA, device);
#else
  (void)shape;
  (void)tag;
  (void)device;
  throw megamoe::Unsupported("this megamoe build has no CUDA support (built without nvcc)");
#endif
}

// The same memory as `src` (a writable DLPack tensor) exported with another element type of
// the same width, e.g. a uint16 NumPy array as DLPack bfloat16. Used by the tests to feed
// the library real DLPack bf16/float8 tensors on machines without torch.
OutArray dlpack_view(nb::handle src, const std::string& tag) {
  RwArray a = import_tensor<RwArray>(src, "src", true);
  const DType d = parse_tag(tag, "dtype");
  if (int(a.dtype().bits) != 8 * megamoe::dtype_bytes(d) || a.dtype().lanes != 1)
    throw_invalid_dtype("src", "a tensor with " + std::to_string(8 * megamoe::dtype_bytes(d)) + "-bit elements",
                        "dtype " + dlpack_dtype_str(a.dtype()));
  std::vector<size_t> shape(a.ndim());
  std::vector<int64_t> strides(a.ndim());
  for (size_t i = 0; i < a.ndim(); ++i) {
    shape[i] = a.shape(i);
    strides[i] = a.stride(i);
  }
  return OutArray(a.data(), a.ndim(), shape.data(), src, strides.data(), to_dlpack(d), a.device_type(),
                 a.device_id());
}

// ---- quantizers (host, float32 in; the Python layer allocates every output) --------------
namespace fmt = megamoe::formats;
template <class T>
using Host3 = nb::ndarray<T, nb::ndim<3>, nb::c_contig, nb::device::cpu>;
template <class T>
using Host1 = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

template <class A>
void expect_shape(const A& a, const std::string& name, int64_t d0, int64_t d1, int64_t d2) {
  if (int64_t(a.shape(0)) != d0 || int64_t(a.shape(1)) != d1 || int64_t(a.shape(2)) != d2)
    throw_invalid(name, "shape [" + std::to_string(d0) + ", " + std::to_string(d1) + ", " + std::to_string(d2) + "]",
                  "shape [" + std::to_string(a.shape(0)) + ", " + std::to_string(a.shape(1)) + ", " +
                      std::to_string(a.shape(2)) + "]");
}

fmt::MxElem parse_elem(const std::string& elem) {
  if (elem == "e2m1") return fmt::MxElem::kE2M1;
  if (elem == "e4m3") return fmt::MxElem::kE4M3;
  throw_invalid("elem", "\"e2m1\" or \"e4m3\"", "'" + elem + "'");
}

void check_k_block(int64_t K, int64_t block, const char* what) {
  if (K % block != 0)
    throw_invalid("w", "a last dimension (K) that is a multiple of " + std::to_string(block) + " (" + what + ")",
                  "K = " + std::to_string(K));
}

void quantize_fp8_block(Host3<const float> src, Host3<uint8_t> codes, Host3<float> scales, bool ue8m0) {
  const int64_t B = src.shape(0), N = src.shape(1), K = src.shape(2);
  expect_shape(codes, "codes", B, N, K);
  expect_shape(scales, "scales", B, cdiv(N, 128), cdiv(K, 128));
  nb::gil_scoped_release release;
  for (int64_t b = 0; b < B; ++b)
    fmt::quantize_fp8_block_weight(src.data() + b * N * K, N, K, codes.data() + b * N * K,
                                   scales.data() + b * scales.shape(1) * scales.shape(2), ue8m0);
}

void dequantize_fp8_block(Host3<const uint8_t> codes, Host3<const float> scales, Host3<float> dst) {
  const int64_t B = codes.shape(0), N = codes.shape(1), K = codes.shape(2);
  expect_shape(scales, "scales", B, cdiv(N, 128), cdiv(K, 128));
  expect_shape(dst, "dst", B, N, K);
  nb::gil_scoped_release release;
  for (int64_t b = 0; b < B; ++b)
    fmt::dequantize_fp8_block_weight(codes.data() + b * N * K, scales.data() + b * scales.shape(1) * scales.shape(2),
                                     N, K, dst.data() + b * N * K);
}

void quantize_mx(Host3<const float> src, const std::string& elem, Host3<uint8_t> codes, Host3<uint8_t> scales) {
  const fmt::MxElem e = parse_elem(elem);
  const int64_t B = src.shape(0), N = src.shape(1), K = src.shape(2);
  check_k_block(K, fmt::kMxBlockSize, "the MX scale block");
  const int64_t KC = e == fmt::MxElem::kE2M1 ? K / 2 : K;
  expect_shape(codes, "codes", B, N, KC);
  expect_shape(scales, "scales", B, N, K / fmt::kMxBlockSize);
  nb::gil_scoped_release release;
  for (int64_t b = 0; b < B; ++b)
    fmt::quantize_mx(src.data() + b * N * K, N, K, K, e, codes.data() + b * N * KC,
                     scales.data() + b * N * (K / fmt::kMxBlockSize));
}

void dequantize_mx(Host3<const uint8_t> codes, Host3<const uint8_t> scales, const std::string& elem, Host3<float> dst) {
  const fmt::MxElem e = parse_elem(elem);
  const int64_t B = dst.shape(0), N = dst.shape(1), K = dst.shape(2);
  check_k_block(K, fmt::kMxBlockSize, "the MX scale block");
  const int64_t KC = e == fmt::MxElem::kE2M1 ? K / 2 : K;
  expect_shape(codes, "codes", B, N, KC);
  expect_shape(scales, "scales", B, N, K / fmt::kMxBlockSize);
  nb::gil_scoped_release release;
  for (int64_t b = 0; b < B; ++b)
    fmt::dequantize_mx(codes.data() + b * N * KC, scales.data() + b * N * (K / fmt::kMxBlockSize), N, K, e,
                       dst.data() + b * N * K);
}

// globals [B]: used as given when `compute_global` is false, else filled with
// nvfp4_global_scale() of each [N, K] slice.
void quantize_nvfp4(Host3<const float> src, Host3<uint8_t> codes, Host3<uint8_t> scales, Host1<float> globals,
                    bool compute_global) {
  const int64_t B = src.shape(0), N = src.shape(1), K = src.shape(2);
  check_k_block(K, fmt::kNvfp4BlockSize, "the NVFP4 scale block");
  expect_shape(codes, "codes", B, N, K / 2);
  expect_shape(scales, "scales", B, N, K / fmt::kNvfp4BlockSize);
  if (int64_t(globals.shape(0)) != B)
    throw_invalid("global_scale", std::to_string(B) + " values", std::to_string(globals.shape(0)) + " values");
  nb::gil_scoped_release release;
  for (int64_t b = 0; b < B; ++b) {
    const float* s = src.data() + b * N * K;
    if (compute_global) globals.data()[b] = fmt::nvfp4_global_scale(s, N * K);
    fmt::quantize_nvfp4(s, N, K, K, globals.data()[b], codes.data() + b * N * (K / 2),
                        scales.data() + b * N * (K / fmt::kNvfp4BlockSize));
  }
}

void dequantize_nvfp4(Host3<const uint8_t> codes, Host3<const uint8_t> scales, Host1<const float> globals,
                      Host3<float> dst) {
  const int64_t B = dst.shape(0), N = dst.shape(1), K = dst.shape(2);
  check_k_block(K, fmt::kNvfp4BlockSize, "the NVFP4 scale block");
  expect_shape(codes, "codes", B, N, K / 2);
  expect_shape(scales, "scales", B, N, K / fmt::kNvfp4BlockSize);
  if (int64_t(globals.shape(0)) != B)
    throw_invalid("global_scale", std::to_string(B) + " values", std::to_string(globals.shape(0)) + " values");
  nb::gil_scoped_release release;
  for (int64_t b = 0; b < B; ++b)
    fmt::dequantize_nvfp4(codes.data() + b * N * (K / 2), scales.data() + b * N * (K / fmt::kNvfp4BlockSize),
                          globals.data()[b], N, K, dst.data() + b * N * K);
}

PyObject* g_oom_error = nullptr;
PyObject* g_cuda_error = nullptr;
PyObject* g_comm_error = nullptr;

}  // namespace

NB_MODULE(_C, m) {
  m.doc() = "megamoe C++ bindings (private; use the `megamoe` package)";
  m.attr("__version__") = MEGAMOE_VERSION;
#if defined(MEGAMOE_WITH_CUDA)
  m.attr("with_cuda") = true;
#else
  m.attr("with_cuda") = false;
#endif

  g_oom_error = PyErr_NewExceptionWithDoc(
      "megamoe.OutOfMemoryError", "Not enough host or device memory for the requested layer.",
      PyExc_RuntimeError, nullptr);
  g_cuda_error = PyErr_NewExceptionWithDoc("megamoe.CudaError", "A CUDA runtime or driver call failed.",
                                           PyExc_RuntimeError, nullptr);
  m.attr("OutOfMemoryError") = nb::handle(g_oom_error);
  g_comm_error = PyErr_NewExceptionWithDoc(
      "megamoe.CommError",
      "Expert parallelism: a peer rank's data did not arrive within ep_timeout_s (it died, raised before "
      "the exchange, or did not call forward), or the group was aborted.",
      PyExc_RuntimeError, nullptr);
  m.attr("CudaError") = nb::handle(g_cuda_error);
  m.attr("CommError") = nb::handle(g_comm_error);

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const megamoe::InvalidDtype& e) {  // before its base class InvalidArgument
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const megamoe::InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const megamoe::Unsupported& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const megamoe::OutOfMemory& e) {
      PyErr_SetString(g_oom_error, e.what());
    } catch (const megamoe::CudaError& e) {
      PyErr_SetString(g_cuda_error, e.what());
    } catch (const megamoe::CommError& e) {
      PyErr_SetString(g_comm_error, e.what());
    } catch (const megamoe::Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });

  // Held by std::shared_ptr: a layer's config keeps its group alive (MoeConfig::ep_group).
  nb::class_<EpGroup>(m, "EpGroup")
      .def_static("new_unique_id", &ep_new_unique_id)
      .def_static("create", &ep_create, "unique_id"_a, "rank"_a, "size"_a, "device"_a)
      .def_static("available", &EpGroup::available)
      .def_static("unavailable_reason", &EpGroup::unavailable_reason)
      .def_ro_static("unique_id_bytes", &EpGroup::kUniqueIdBytes)
      .def_prop_ro("rank", &EpGroup::rank)
      .def_prop_ro("size", &EpGroup::size)
      .def_prop_ro("device", &EpGroup::device)
      .def_prop_ro("owns_comm", &EpGroup::owns_comm)
      .def_prop_ro("aborted", &EpGroup::aborted)
      .def(
          "abort",
          [](EpGroup& self) {
            nb::gil_scoped_release release;
            self.abort();
          })
      .def("shrink", &ep_shrink, "exclude_ranks"_a);

  nb::class_<Layer>(m, "Layer")
      .def(nb::new_(&make_layer), "num_experts"_a, "top_k"_a, "hidden_size"_a, "intermediate_size"_a,
           "recipe"_a, "activation"_a, "swiglu_limit"_a.none(), "swiglu_alpha"_a.none(), "ep_rank"_a, "ep_size"_a,
           "max_tokens"_a, "backend"_a, "device"_a, "has_bias"_a, "num_threads"_a, "ep_group"_a.none(),
           "expert_placement"_a.none(), "ep_style"_a, "ep_timeout_s"_a, "tactic_cache"_a = "")
      .def("prepare_weights", &layer_prepare, "tensors"_a, "fc1_input_global_scale"_a, "fc2_input_global_scale"_a)
      .def("forward", &layer_forward, "x"_a, "x_tag"_a, "topk_ids"_a, "topk_weights"_a, "out"_a, "out_tag"_a,
           "stream"_a, "topk_ids_tag"_a = "", "topk_weights_tag"_a = "")
      .def(
          "invalid_id_count",
          [](Layer& self, uintptr_t stream) {
            nb::gil_scoped_release release;
            return self.layer.invalid_id_count(reinterpret_cast<cudaStream_t>(stream));
          },
          "stream"_a)
      .def(
          "check_errors",
          [](Layer& self, uintptr_t stream) {
            nb::gil_scoped_release release;
            self.layer.check_errors(reinterpret_cast<cudaStream_t>(stream));
          },
          "stream"_a)
      .def(
          "unrouted_count",
          [](Layer& self, uintptr_t stream) {
            nb::gil_scoped_release release;
            return self.layer.unrouted_count(reinterpret_cast<cudaStream_t>(stream));
          },
          "stream"_a)
      .def_prop_ro("ep_rank", [](const Layer& self) { return self.layer.config().ep_rank; })
      .def_prop_ro("ep_size", [](const Layer& self) { return self.layer.config().ep_size; })
      .def_prop_ro("local_experts", [](const Layer& self) { return self.layer.config().local_experts(); })
      .def_prop_ro("backend_name", [](const Layer& self) { return self.layer.backend_name(); })
      .def_prop_ro("workspace_bytes", [](const Layer& self) { return self.layer.workspace_bytes(); })
      .def_prop_ro("weight_bytes", [](const Layer& self) { return self.layer.weight_bytes(); })
      .def_prop_ro("tactic_names", [](const Layer& self) { return self.layer.tactic_names(); })
      .def_prop_ro("tactic_source", [](const Layer& self) { return self.layer.tactic_source(); })
      .def("tactic_for", [](const Layer& self, int64_t t) { return self.layer.tactic_for(t); }, "num_tokens"_a)
      .def("force_tactic", [](Layer& self, const std::string& name) { self.layer.force_tactic(name); }, "name"_a);

  m.def("registered_backends", &megamoe::registered_backends);
  m.def("cuda_device_count", &cuda_device_count);
  m.def("cuda_current_device", &cuda_current_device);
  m.def("cuda_empty", &cuda_empty, "shape"_a, "dtype"_a, "device"_a);
  m.def("dlpack_view", &dlpack_view, "src"_a, "dtype"_a);

  m.def("quantize_fp8_block", &quantize_fp8_block, "src"_a, "codes"_a, "scales"_a, "ue8m0"_a);
  m.def("dequantize_fp8_block", &dequantize_fp8_block, "codes"_a, "scales"_a, "dst"_a);
  m.def("quantize_mx", &quantize_mx, "src"_a, "elem"_a, "codes"_a, "scales"_a);
  m.def("dequantize_mx", &dequantize_mx, "codes"_a, "scales"_a, "elem"_a, "dst"_a);
  m.def("quantize_nvfp4", &quantize_nvfp4, "src"_a, "codes"_a, "scales"_a, "global_scale"_a, "compute_global"_a);
  m.def("dequantize_nvfp4", &dequantize_nvfp4, "codes"_a, "scales"_a, "global_scale"_a, "dst"_a);
  m.def("quantize_gpu", &quantize_gpu, "kind"_a, "src"_a, "codes"_a, "scales"_a, "global_scale"_a.none(), "flag"_a,
        "stream"_a);
}
