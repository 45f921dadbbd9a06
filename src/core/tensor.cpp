#include "megamoe/tensor.h"

#include "megamoe/errors.h"

namespace megamoe {

const char* dtype_name(DType d) {
  switch (d) {
    case DType::kBF16: return "bfloat16";
    case DType::kF16: return "float16";
    case DType::kF32: return "float32";
    case DType::kF64: return "float64";
    case DType::kI32: return "int32";
    case DType::kI64: return "int64";
    case DType::kU8: return "uint8";
    case DType::kE4M3: return "float8_e4m3fn";
    case DType::kE8M0: return "float8_e8m0fnu";
  }
  return "unknown";
}

int dtype_bytes(DType d) {
  switch (d) {
    case DType::kBF16: case DType::kF16: return 2;
    case DType::kF32: case DType::kI32: return 4;
    case DType::kF64: case DType::kI64: return 8;
    case DType::kU8: case DType::kE4M3: case DType::kE8M0: return 1;
  }
  return 0;
}

std::string device_name(const Device& d) {
  return d.type == DeviceType::kCPU ? std::string("cpu") : "cuda:" + std::to_string(d.id);
}

TensorView TensorView::contiguous(const void* data, DType dtype, std::initializer_list<int64_t> shape,
                                  Device device) {
  if (shape.size() > kMaxDims) throw_invalid("shape", "at most 4 dimensions", std::to_string(shape.size()));
  TensorView t;
  t.data = const_cast<void*>(data);
  t.dtype = dtype;
  t.ndim = int(shape.size());
  t.device = device;
  int i = 0;
  for (int64_t s : shape) t.shape[i++] = s;
  int64_t stride = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    t.strides[d] = stride;
    stride *= t.shape[d];
  }
  return t;
}

// The loops below stop at kMaxDims whatever ndim says: an out-of-range ndim is reported by the
// validation (validate.cpp check_view), never read past the arrays.
static int dims_of(int ndim) { return ndim < 0 ? 0 : ndim > kMaxDims ? kMaxDims : ndim; }

int64_t TensorView::numel() const {
  int64_t n = 1;
  for (int d = 0; d < dims_of(ndim); ++d) n *= shape[d];
  return n;
}

bool TensorView::is_contiguous() const {
  int64_t stride = 1;
  for (int d = dims_of(ndim) - 1; d >= 0; --d) {
    if (shape[d] != 1 && strides[d] != stride) return false;
    stride *= shape[d];
  }
  return true;
}

std::string TensorView::shape_str() const {
  if (ndim < 0 || ndim > kMaxDims) return "(ndim " + std::to_string(ndim) + ")";
  std::string s = "[";
  for (int d = 0; d < ndim; ++d) {
    if (d) s += ", ";
    s += std::to_string(shape[d]);
  }
  return s + "]";
}

}  // namespace megamoe
