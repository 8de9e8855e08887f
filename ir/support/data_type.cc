// DataType spelling: printing and parsing TVM's names ("float32", "int64x4", "bool").
#include "ir/support/data_type.h"

#include <charconv>

namespace relaxc {

std::string DataType::str() const {
  if (is_void()) return "";
  if (code_ == Code::Handle) return "handle";
  std::string s;
  if (is_bool()) {
    s = "bool";
  } else {
    switch (code_) {
      case Code::Int: s = "int"; break;
      case Code::UInt: s = "uint"; break;
      case Code::Float: s = "float"; break;
      case Code::BFloat: s = "bfloat"; break;
      case Code::Handle: break;
    }
    s += std::to_string(bits_);
  }
  if (lanes_ != 1) s += "x" + std::to_string(lanes_);
  return s;
}

namespace {

bool parse_int(std::string_view text, int* out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::optional<DataType> DataType::parse(std::string_view text) {
  if (text.empty() || text == "void") return Void();
  if (text == "handle") return Handle();
  int lanes = 1;
  if (size_t x = text.find('x'); x != std::string_view::npos) {
    if (!parse_int(text.substr(x + 1), &lanes) || lanes < 1 || lanes > 65535) return std::nullopt;
    text = text.substr(0, x);
  }
  if (text == "bool") return Bool(lanes);
  struct Prefix {
    std::string_view name;
    Code code;
  };
  // Longest prefixes first: "uint" before "int", "bfloat" before "float".
  static constexpr Prefix kPrefixes[] = {
      {"uint", Code::UInt}, {"int", Code::Int}, {"bfloat", Code::BFloat}, {"float", Code::Float}};
  for (const Prefix& p : kPrefixes) {
    if (text.substr(0, p.name.size()) != p.name) continue;
    int bits = 0;
    if (!parse_int(text.substr(p.name.size()), &bits)) return std::nullopt;
    bool ok = false;
    switch (p.code) {
      case Code::Int:
      case Code::UInt: ok = bits == 1 || bits == 4 || bits == 8 || bits == 16 || bits == 32 || bits == 64; break;
      case Code::Float: ok = bits == 8 || bits == 16 || bits == 32 || bits == 64; break;
      case Code::BFloat: ok = bits == 16; break;
      case Code::Handle: break;
    }
    if (!ok) return std::nullopt;
    return DataType(p.code, bits, lanes);
  }
  return std::nullopt;
}

}  // namespace relaxc
