// Typed errors thrown by every megamoe entry point.
// Messages always name the argument, what was expected and what came.
#pragma once
#include <stdexcept>
#include <string>

namespace megamoe {

// Base class of every megamoe error.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& what) : std::runtime_error(what) {}
};

// A caller-supplied argument is wrong (dtype, shape, stride, device, value).
class InvalidArgument : public Error {
 public:
  InvalidArgument(std::string argument, std::string expected, std::string actual);
  const std::string& argument() const { return argument_; }
  const std::string& expected() const { return expected_; }
  const std::string& actual() const { return actual_; }

 private:
  std::string argument_, expected_, actual_;
};

// An argument has the wrong element type (e.g. float32 where bfloat16 is expected). A separate
// type so that bindings can tell it apart without reading the message: Python raises TypeError
// for it and ValueError for every other InvalidArgument. Catching InvalidArgument catches it too.
class InvalidDtype : public InvalidArgument {
 public:
  using InvalidArgument::InvalidArgument;
};

// The request is valid but no (selected) backend can run it on this machine.
class Unsupported : public Error {
 public:
  explicit Unsupported(const std::string& what) : Error("megamoe: unsupported: " + what) {}
};

// A CUDA runtime/driver call failed.
class CudaError : public Error {
 public:
  explicit CudaError(const std::string& what) : Error("megamoe: CUDA error: " + what) {}
};

// Not enough host or device memory for the requested layer.
class OutOfMemory : public Error {
 public:
  explicit OutOfMemory(const std::string& what) : Error("megamoe: out of memory: " + what) {}
};

// Expert parallelism: a peer rank's data never arrived within the timeout (it died, raised
// before the exchange, or never called forward), or the group was aborted. Raised by
// MoeLayer::check_errors() from the error word the exchange kernels write.
class CommError : public Error {
 public:
  explicit CommError(const std::string& what) : Error("megamoe: communication error: " + what) {}
};

// Throws InvalidArgument("megamoe: argument '<argument>': expected <expected>, got <actual>").
[[noreturn]] void throw_invalid(const std::string& argument, const std::string& expected,
                                const std::string& actual);
// Throws InvalidDtype, with the same message format.
[[noreturn]] void throw_invalid_dtype(const std::string& argument, const std::string& expected,
                                      const std::string& actual);

}  // namespace megamoe
