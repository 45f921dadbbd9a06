#include "core/validate.h"

#include <limits>
#include <utility>

#include "megamoe/errors.h"

namespace megamoe {

std::string ShapeSpec::str() const {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ", ";
    s += names.size() > i ? names[i] : std::to_string(dims[i]);
  }
  return s + "]";
}

// A view's own consistency: ndim in [0, kMaxDims] and no negative extent (a negative row count
// would otherwise match check_shape's wildcard dimensions).
static void check_view(const TensorView& t, const std::string& name) {
  if (t.ndim < 0 || t.ndim > kMaxDims)
    throw_invalid(name, "ndim in [0, " + std::to_string(kMaxDims) + "]", "ndim " + std::to_string(t.ndim));
  for (int d = 0; d < t.ndim; ++d)
    if (t.shape[d] < 0)
      throw_invalid(name, "non-negative extents", "shape " + t.shape_str());
}

void check_dtype(const TensorView& t, const std::string& name, std::initializer_list<DType> allowed) {
  check_view(t, name);
  std::string list;
  for (DType d : allowed) {
    if (t.dtype == d) return;
    list += list.empty() ? dtype_name(d) : std::string(" or ") + dtype_name(d);
  }
  throw_invalid_dtype(name, "dtype " + list, std::string("dtype ") + dtype_name(t.dtype));
}

void check_shape(const TensorView& t, const std::string& name, const ShapeSpec& spec) {
  bool ok = t.ndim == int(spec.dims.size());
  for (int d = 0; ok && d < t.ndim; ++d) ok = spec.dims[d] < 0 || spec.dims[d] == t.shape[d];
  if (!ok) throw_invalid(name, "shape " + spec.str(), "shape " + t.shape_str());
}

void check_device(const TensorView& t, const std::string& name, const std::vector<Device>& allowed) {
  std::string list;
  for (const Device& d : allowed) {
    if (t.device == d) return;
    list += list.empty() ? device_name(d) : " or " + device_name(d);
  }
  throw_invalid(name, "a tensor on " + list, "a tensor on " + device_name(t.device));
}

void check_contiguous(const TensorView& t, const std::string& name) {
  if (t.numel() == 0) return;  // an empty tensor has no layout (NumPy reports strides 0)
  if (!t.is_contiguous()) {
    std::string s = "[";
    for (int d = 0; d < t.ndim; ++d) s += (d ? ", " : "") + std::to_string(t.strides[d]);
    throw_invalid(name, "a contiguous (row-major) tensor", "strides " + s + "]");
  }
}

void check_row_major(const TensorView& t, const std::string& name) {
  const int n = t.ndim;
  if (t.numel() == 0) return;  // an empty tensor has no layout
  if (n < 2) return check_contiguous(t, name);
  bool ok = t.strides[n - 1] == 1 && t.strides[n - 2] >= t.shape[n - 1];
  if (ok && n > 2) {
    // outer dims must be contiguous over rows
    for (int d = n - 3; d >= 0; --d) ok = ok && t.strides[d] == t.strides[d + 1] * t.shape[d + 1];
  }
  if (!ok)
    throw_invalid(name, "rows with unit column stride and row stride >= " + std::to_string(t.shape[n - 1]),
                  "strides [" + std::to_string(t.strides[n - 2]) + ", " + std::to_string(t.strides[n - 1]) + "]");
}

static void check_present(const TensorView& t, const std::string& name, int64_t numel) {
  if (numel > 0 && t.data == nullptr) throw_invalid(name, "a non-null data pointer", "nullptr");
}

int64_t validate_forward(const MoeConfig& c, Device device, const TensorView& x,
                         const TensorView& ids, const TensorView& w, const TensorView& out) {
  const int64_t H = c.hidden_size, K = c.top_k;
  const std::string Hs = std::to_string(H), Ks = std::to_string(K);
  check_dtype(x, "x", {DType::kBF16});
  if (x.ndim != 2 || x.shape[1] != H) throw_invalid("x", "shape [T, " + Hs + "]", "shape " + x.shape_str());
  const int64_t T = x.shape[0];
  const std::string Ts = std::to_string(T);
  if (T > c.max_tokens)
    throw_invalid("x", "at most max_tokens=" + std::to_string(c.max_tokens) + " rows (the layer's capacity)",
                  Ts + " rows");
  check_row_major(x, "x");
  check_device(x, "x", {device});
  check_present(x, "x", x.numel());

  check_dtype(ids, "topk_ids", {DType::kI32, DType::kI64});
  check_shape(ids, "topk_ids", {{T, K}, {Ts + " (T)", Ks + " (top_k)"}});
  check_contiguous(ids, "topk_ids");
  check_device(ids, "topk_ids", {device});
  check_present(ids, "topk_ids", ids.numel());

  check_dtype(w, "topk_weights", {DType::kF32});
  check_shape(w, "topk_weights", {{T, K}, {Ts + " (T)", Ks + " (top_k)"}});
  check_contiguous(w, "topk_weights");
  check_device(w, "topk_weights", {device});
  check_present(w, "topk_weights", w.numel());

  check_dtype(out, "out", {DType::kBF16});
  check_shape(out, "out", {{T, H}, {Ts + " (T)", Hs}});
  check_contiguous(out, "out");
  check_device(out, "out", {device});
  check_present(out, "out", out.numel());
  return T;
}

void check_host_ids(const TensorView& ids, int64_t E, int64_t T, int64_t K) {
  for (int64_t i = 0; i < T * K; ++i) {
    const int64_t v = ids.dtype == DType::kI32 ? int64_t(ids.ptr<const int32_t>()[i]) : ids.ptr<const int64_t>()[i];
    if (v != -1 && (v < 0 || v >= E))
      throw_invalid("topk_ids[" + std::to_string(i / K) + ", " + std::to_string(i % K) + "]",
                    "-1 (no route) or an expert id in [0, " + std::to_string(E) + ")", std::to_string(v));
  }
}

namespace {
int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

void check_weight(const TensorView& t, const std::string& name, std::initializer_list<DType> dtypes,
                  const ShapeSpec& spec, const std::vector<Device>& allowed) {
  if (!t.defined()) throw_invalid(name, "a tensor of shape " + spec.str(), "none");
  check_dtype(t, name, dtypes);
  check_shape(t, name, spec);
  check_contiguous(t, name);
  check_device(t, name, allowed);
  check_present(t, name, t.numel());
}

void check_absent(const TensorView& t, const std::string& name, const std::string& why) {
  check_view(t, name);
  if (t.defined()) throw_invalid(name, "none (" + why + ")", "a tensor of shape " + t.shape_str());
}
}  // namespace

void check_ep_style(const std::string& style, const std::string& name) {
  if (style != "auto" && style != "push" && style != "pull") throw_invalid(name, "one of auto|push|pull", "'" + style + "'");
}

void validate_weights(const MoeConfig& c, const MoeWeights& w, const std::vector<Device>& allowed) {
  const int64_t E = c.local_experts(), N13 = c.fc1_rows(), H = c.hidden_size, I = c.intermediate_size;
  const std::string Es = std::to_string(E) + " (local experts)", N13s = std::to_string(N13),
                    Hs = std::to_string(H), Is = std::to_string(I);
  auto spec3 = [&](int64_t n, const std::string& ns, int64_t k, const std::string& ks) {
    return ShapeSpec{{E, n, k}, {Es, ns, ks}};
  };
  auto num = [](int64_t v) { return std::to_string(v); };
  const std::string recipe = recipe_name(c.recipe);
  const std::string no_scale = "recipe " + recipe + " has no such scale";
  switch (c.recipe) {
    case Recipe::kBF16:
      check_weight(w.w13, "w13", {DType::kBF16}, spec3(N13, N13s, H, Hs), allowed);
      check_weight(w.w2, "w2", {DType::kBF16}, spec3(H, Hs, I, Is), allowed);
      check_absent(w.w13_scale, "w13_scale", no_scale);
      check_absent(w.w2_scale, "w2_scale", no_scale);
      break;
    case Recipe::kFP8Block:
      check_weight(w.w13, "w13", {DType::kE4M3, DType::kU8}, spec3(N13, N13s, H, Hs), allowed);
      check_weight(w.w2, "w2", {DType::kE4M3, DType::kU8}, spec3(H, Hs, I, Is), allowed);
      check_weight(w.w13_scale, "w13_scale", {DType::kF32},
                   spec3(cdiv(N13, 128), num(cdiv(N13, 128)), cdiv(H, 128), num(cdiv(H, 128))), allowed);
      check_weight(w.w2_scale, "w2_scale", {DType::kF32},
                   spec3(cdiv(H, 128), num(cdiv(H, 128)), cdiv(I, 128), num(cdiv(I, 128))), allowed);
      break;
    case Recipe::kMXFP8:
      check_weight(w.w13, "w13", {DType::kE4M3, DType::kU8}, spec3(N13, N13s, H, Hs), allowed);
      check_weight(w.w2, "w2", {DType::kE4M3, DType::kU8}, spec3(H, Hs, I, Is), allowed);
      check_weight(w.w13_scale, "w13_scale", {DType::kE8M0, DType::kU8}, spec3(N13, N13s, H / 32, num(H / 32)), allowed);
      check_weight(w.w2_scale, "w2_scale", {DType::kE8M0, DType::kU8}, spec3(H, Hs, I / 32, num(I / 32)), allowed);
      break;
    case Recipe::kW4A16MXFP4:
    case Recipe::kW4A8MXFP4:
      check_weight(w.w13, "w13", {DType::kU8}, spec3(N13, N13s, H / 2, num(H / 2) + " (packed e2m1)"), allowed);
      check_weight(w.w2, "w2", {DType::kU8}, spec3(H, Hs, I / 2, num(I / 2) + " (packed e2m1)"), allowed);
      check_weight(w.w13_scale, "w13_scale", {DType::kE8M0, DType::kU8}, spec3(N13, N13s, H / 32, num(H / 32)), allowed);
      check_weight(w.w2_scale, "w2_scale", {DType::kE8M0, DType::kU8}, spec3(H, Hs, I / 32, num(I / 32)), allowed);
      break;
    case Recipe::kW4A16NVFP4:
    case Recipe::kNVFP4:
      check_weight(w.w13, "w13", {DType::kU8}, spec3(N13, N13s, H / 2, num(H / 2) + " (packed e2m1)"), allowed);
      check_weight(w.w2, "w2", {DType::kU8}, spec3(H, Hs, I / 2, num(I / 2) + " (packed e2m1)"), allowed);
      check_weight(w.w13_scale, "w13_scale", {DType::kE4M3, DType::kU8}, spec3(N13, N13s, H / 16, num(H / 16)), allowed);
      check_weight(w.w2_scale, "w2_scale", {DType::kE4M3, DType::kU8}, spec3(H, Hs, I / 16, num(I / 16)), allowed);
      check_weight(w.w13_global_scale, "w13_global_scale", {DType::kF32}, {{E}, {Es}}, allowed);
      check_weight(w.w2_global_scale, "w2_global_scale", {DType::kF32}, {{E}, {Es}}, allowed);
      break;
  }
  if (c.recipe != Recipe::kW4A16NVFP4 && c.recipe != Recipe::kNVFP4) {
    check_absent(w.w13_global_scale, "w13_global_scale", "only the nvfp4 recipes have global scales");
    check_absent(w.w2_global_scale, "w2_global_scale", "only the nvfp4 recipes have global scales");
  }
  if (c.has_bias) {
    check_weight(w.b13, "b13", {DType::kF32, DType::kBF16}, {{E, N13}, {Es, N13s}}, allowed);
    check_weight(w.b2, "b2", {DType::kF32, DType::kBF16}, {{E, H}, {Es, Hs}}, allowed);
  } else {
    check_absent(w.b13, "b13", "config.has_bias is false");
    check_absent(w.b2, "b2", "config.has_bias is false");
  }
  const std::pair<const char*, float> input_scales[] = {{"fc1_input_global_scale", w.fc1_input_global_scale},
                                                        {"fc2_input_global_scale", w.fc2_input_global_scale}};
  for (const auto& [name, g] : input_scales)
    if (!(g > 0.0f) || g == std::numeric_limits<float>::infinity())
      throw_invalid(name, "a positive finite value", std::to_string(g));
}

}  // namespace megamoe
