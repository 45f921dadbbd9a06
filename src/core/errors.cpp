#include "megamoe/errors.h"

namespace megamoe {

InvalidArgument::InvalidArgument(std::string argument, std::string expected, std::string actual)
    : Error("megamoe: argument '" + argument + "': expected " + expected + ", got " + actual),
      argument_(std::move(argument)), expected_(std::move(expected)), actual_(std::move(actual)) {}

void throw_invalid(const std::string& argument, const std::string& expected,
                   const std::string& actual) {
  throw InvalidArgument(argument, expected, actual);
}

void throw_invalid_dtype(const std::string& argument, const std::string& expected,
                         const std::string& actual) {
  throw InvalidDtype(argument, expected, actual);
}

}  // namespace megamoe
