// A small JSON reader and string quoting, enough for the files megamoe itself reads (the
// tactic cache). Parsing is strict (RFC 8259 values; no comments, no trailing commas) and
// throws JsonError with the byte offset of the first problem; it never reads out of bounds.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace megamoe {

struct JsonError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Json {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0.0;
  std::string string;
  std::vector<Json> array;
  std::vector<std::pair<std::string, Json>> object;  // in file order; a repeated key keeps both

  // The member `key` of an object (the first one), or null when absent or not an object.
  const Json* get(const std::string& key) const;
  bool is_string() const { return kind == Kind::kString; }
  bool is_number() const { return kind == Kind::kNumber; }
  bool is_object() const { return kind == Kind::kObject; }
  bool is_array() const { return kind == Kind::kArray; }
};

// The value of the whole text (nesting at most 64 deep); throws JsonError.
Json parse_json(const std::string& text);

// `s` as a JSON string literal, quotes included.
std::string json_quote(const std::string& s);

}  // namespace megamoe
