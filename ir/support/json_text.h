// JSON text that relaxc writes (the safetensors header, relaxc bench's results): a
// string quoted and escaped.
#pragma once
#include <string>

namespace relaxc {

// `s` as a JSON string: quoted, '"' and '\' escaped, control characters as \u00XX; other
// bytes as they are (UTF-8 passes through).
inline std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xf];
      out += kHex[c & 0xf];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace relaxc
