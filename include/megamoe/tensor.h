// A non-owning, DLPack-compatible tensor view: pointer, dtype, shape, strides, device.
// Strides are in elements (as in DLPack). Packed FP4 tensors are uint8 with the
// packed (halved) last dimension.
#pragma once
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace megamoe {

enum class DType : uint8_t {
  kBF16,   // bfloat16
  kF16,    // float16
  kF32,    // float32
  kF64,    // float64
  kI32,    // int32
  kI64,    // int64
  kU8,     // uint8 (also: packed e2m1 pairs, raw e8m0 codes)
  kE4M3,   // float8_e4m3fn
  kE8M0,   // float8_e8m0fnu (power-of-two scale, 255 = NaN)
};

const char* dtype_name(DType dtype);
int dtype_bytes(DType dtype);

enum class DeviceType : uint8_t { kCPU, kCUDA };

struct Device {
  DeviceType type = DeviceType::kCPU;
  int id = 0;
  static Device cpu() { return {DeviceType::kCPU, 0}; }
  static Device cuda(int id = 0) { return {DeviceType::kCUDA, id}; }
  bool operator==(const Device& o) const { return type == o.type && (type == DeviceType::kCPU || id == o.id); }
  bool operator!=(const Device& o) const { return !(*this == o); }
};
std::string device_name(const Device& device);

constexpr int kMaxDims = 4;

struct TensorView {
  void* data = nullptr;
  DType dtype = DType::kF32;
  int ndim = 0;
  std::array<int64_t, kMaxDims> shape{};
  std::array<int64_t, kMaxDims> strides{};  // in elements
  Device device{};

  // A row-major contiguous view.
  static TensorView contiguous(const void* data, DType dtype, std::initializer_list<int64_t> shape,
                               Device device = Device::cpu());
  bool defined() const { return data != nullptr || ndim > 0; }
  int64_t numel() const;
  bool is_contiguous() const;
  int64_t size(int d) const { return shape[d]; }
  template <class T>
  T* ptr() const { return static_cast<T*>(data); }
  std::string shape_str() const;  // "[3, 7168]"
};

}  // namespace megamoe
