#include "core/json.h"

#include <cstdio>
#include <cstdlib>

namespace megamoe {

const Json* Json::get(const std::string& key) const {
  if (kind != Kind::kObject) return nullptr;
  for (const auto& [k, v] : object)
    if (k == key) return &v;
  return nullptr;
}

namespace {

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(const std::string& t) : t_(t) {}

  Json document() {
    Json v = value(0);
    skip_ws();
    if (i_ != t_.size()) fail("trailing characters after the value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw JsonError("JSON: " + what + " at byte " + std::to_string(i_));
  }
  void skip_ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  bool eat(char c) {
    skip_ws();
    if (i_ < t_.size() && t_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) fail(std::string("expected '") + c + "'");
  }
  bool literal(const char* word) {
    size_t n = 0;
    while (word[n]) ++n;
    if (t_.compare(i_, n, word) != 0) return false;
    i_ += n;
    return true;
  }

  Json value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 64");
    skip_ws();
    if (i_ >= t_.size()) fail("unexpected end of input");
    Json v;
    const char c = t_[i_];
    if (c == '{') {
      ++i_;
      v.kind = Json::Kind::kObject;
      if (eat('}')) return v;
      do {
        skip_ws();
        if (i_ >= t_.size() || t_[i_] != '"') fail("expected a member name");
        std::string key = string_body();
        expect(':');
        v.object.emplace_back(std::move(key), value(depth + 1));
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++i_;
      v.kind = Json::Kind::kArray;
      if (eat(']')) return v;
      do v.array.push_back(value(depth + 1));
      while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Json::Kind::kString;
      v.string = string_body();
    } else if (literal("true")) {
      v.kind = Json::Kind::kBool;
      v.boolean = true;
    } else if (literal("false")) {
      v.kind = Json::Kind::kBool;
    } else if (literal("null")) {
      v.kind = Json::Kind::kNull;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = Json::Kind::kNumber;
      v.number = number();
    } else {
      fail(std::string("unexpected character '") + c + "'");
    }
    return v;
  }

  double number() {
    const size_t start = i_;
    auto digits = [&] {
      const size_t d = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9') ++i_;
      if (i_ == d) fail("expected a digit");
    };
    if (t_[i_] == '-') ++i_;
    digits();
    if (i_ < t_.size() && t_[i_] == '.') {
      ++i_;
      digits();
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      digits();
    }
    return std::strtod(t_.substr(start, i_ - start).c_str(), nullptr);
  }

  // A string literal starting at t_[i_] == '"'; \uXXXX escapes become UTF-8 (surrogate pairs
  // combined; a lone surrogate is an error).
  std::string string_body() {
    ++i_;
    std::string s;
    for (;;) {
      if (i_ >= t_.size()) fail("unterminated string");
      const char c = t_[i_++];
      if (c == '"') return s;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        s += c;
        continue;
      }
      if (i_ >= t_.size()) fail("unterminated escape");
      const char e = t_[i_++];
      switch (e) {
        case '"': s += '"'; break;
        case '\\': s += '\\'; break;
        case '/': s += '/'; break;
        case 'b': s += '\b'; break;
        case 'f': s += '\f'; break;
        case 'n': s += '\n'; break;
        case 'r': s += '\r'; break;
        case 't': s += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (!(i_ + 1 < t_.size() && t_[i_] == '\\' && t_[i_ + 1] == 'u')) fail("lone high surrogate");
            i_ += 2;
            const unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("bad low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("lone low surrogate");
          }
          utf8(cp, s);
          break;
        }
        default: fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }
  unsigned hex4() {
    if (i_ + 4 > t_.size()) fail("short \\u escape");
    unsigned v = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = t_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f') v |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= unsigned(h - 'A' + 10);
      else fail("bad hex digit in \\u escape");
    }
    return v;
  }
  static void utf8(unsigned cp, std::string& s) {
    if (cp < 0x80) {
      s += char(cp);
    } else if (cp < 0x800) {
      s += char(0xC0 | (cp >> 6));
      s += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      s += char(0xE0 | (cp >> 12));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    } else {
      s += char(0xF0 | (cp >> 18));
      s += char(0x80 | ((cp >> 12) & 0x3F));
      s += char(0x80 | ((cp >> 6) & 0x3F));
      s += char(0x80 | (cp & 0x3F));
    }
  }

  const std::string& t_;
  size_t i_ = 0;
};

}  // namespace

Json parse_json(const std::string& text) { return Parser(text).document(); }

std::string json_quote(const std::string& s) {
  std::string q = "\"";
  for (const char c : s) {
    switch (c) {
      case '"': q += "\\\""; break;
      case '\\': q += "\\\\"; break;
      case '\n': q += "\\n"; break;
      case '\r': q += "\\r"; break;
      case '\t': q += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
          q += buf;
        } else {
          q += c;
        }
    }
  }
  return q + "\"";
}

}  // namespace megamoe
