// Literal spellings and output helpers shared by the printers.
#include "ir/text/printer_common.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "ir/support/host_tensor.h"

namespace relaxc::text {

std::string quote(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default: {
        auto byte = static_cast<unsigned char>(c);
        // Bytes of UTF-8 sequences (>= 0x80) stay as they are: the text is UTF-8.
        if (byte < 0x20 || byte == 0x7f) {
          out += "\\x";
          out.push_back(kHex[byte >> 4]);
          out.push_back(kHex[byte & 0xf]);
        } else {
          out.push_back(c);
        }
      }
    }
  }
  out += "\"";
  return out;
}

std::string dtype_name(DataType dtype) { return dtype.is_void() ? "void" : dtype.str(); }

namespace {

// Finishes the shortest decimal `digits` of a finite value according to `style`.
std::string finish_float(std::string digits, double value, FloatStyle style) {
  bool is_integral_text = digits.find_first_of(".e") == std::string::npos;
  // An integral value reads back exactly from an integer literal only while it fits
  // one comfortably; -0.0 needs its fraction to keep its sign.
  bool needs_fraction = style == FloatStyle::PythonFloat || std::fabs(value) >= 1e15 ||
                        (value == 0.0 && std::signbit(value));
  if (is_integral_text && needs_fraction) digits += ".0";
  return digits;
}

std::string non_finite(double value) {
  if (std::isnan(value)) return quote("nan");
  return quote(value < 0 ? "-inf" : "inf");
}

}  // namespace

std::string format_float(double value, FloatStyle style) {
  if (!std::isfinite(value)) return non_finite(value);
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  return finish_float(std::string(buffer, result.ptr), value, style);
}

std::string format_float_of_type(double value, DataType dtype, FloatStyle style) {
  if (!std::isfinite(value)) return non_finite(value);
  char buffer[64];
  if (dtype.bits() == 64) return format_float(value, style);
  if (dtype.bits() == 32 && !dtype.is_bfloat()) {
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), static_cast<float>(value));
    return finish_float(std::string(buffer, result.ptr), value, style);
  }
  // 16-bit floats: the fewest significant digits whose conversion to `dtype` gives the
  // value back, as numpy prints them (9 digits always do for a value exact in float32).
  HostTensor original = HostTensor::from_doubles(dtype, {}, {value});
  for (int digits = 1; digits < 9; ++digits) {
    int length = std::snprintf(buffer, sizeof(buffer), "%.*g", digits, value);
    std::string text(buffer, static_cast<size_t>(length));
    double candidate = std::strtod(text.c_str(), nullptr);
    // Written back in the double's own shortest form: fixed or exponent notation,
    // whichever is shorter, as for the other types ("65500.0", not "6.55e+04").
    if (HostTensor::from_doubles(dtype, {}, {candidate}) == original) {
      return format_float(candidate, style);
    }
  }
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), static_cast<float>(value));
  return finish_float(std::string(buffer, result.ptr), value, style);
}

std::string format_attr_value(const AttrValue& value) {
  switch (value.kind) {
    case AttrValue::Kind::None:
      return "None";
    case AttrValue::Kind::Bool:
      return value.b ? "True" : "False";
    case AttrValue::Kind::Int:
      return std::to_string(value.i);
    case AttrValue::Kind::Float:
      return format_float(value.f, FloatStyle::PythonFloat);
    case AttrValue::Kind::String:
      return quote(value.s);
    case AttrValue::Kind::DType:
      return quote(dtype_name(value.dtype));
    case AttrValue::Kind::List: {
      std::vector<std::string> items;
      items.reserve(value.list.size());
      for (const AttrValue& item : value.list) items.push_back(format_attr_value(item));
      return "[" + join(items) + "]";
    }
    case AttrValue::Kind::Dict: {
      std::vector<std::string> items;
      items.reserve(value.list.size());
      for (size_t i = 0; i < value.list.size(); ++i) {
        items.push_back(quote(value.keys[i]) + ": " + format_attr_value(value.list[i]));
      }
      return "{" + join(items) + "}";
    }
  }
  return "None";
}

std::string format_attr_dict(const Attrs& attrs) {
  std::vector<const Attrs::Entry*> entries;
  for (const Attrs::Entry& entry : attrs.entries()) entries.push_back(&entry);
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const Attrs::Entry* a, const Attrs::Entry* b) { return a->first < b->first; });
  std::vector<std::string> items;
  items.reserve(entries.size());
  for (const Attrs::Entry* entry : entries) {
    items.push_back(quote(entry->first) + ": " + format_attr_value(entry->second));
  }
  return "{" + join(items) + "}";
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  return out;
}

std::string tuple_text(const std::vector<std::string>& items) {
  if (items.size() == 1) return "(" + items[0] + ",)";
  return "(" + join(items) + ")";
}

void emit_line(std::string& out, int indent, std::string_view text) {
  out.append(static_cast<size_t>(indent) * 4, ' ');
  out.append(text);
  out.push_back('\n');
}

}  // namespace relaxc::text
