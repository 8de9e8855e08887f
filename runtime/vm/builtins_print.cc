// vm.builtin.print and the text of values: ints, floats (always with a point or an
// exponent, so that 1.0 is not read as 1), True/False, shapes "(2, 3)", strings, tuples,
// and tensors with their elements, nested like Python lists. A tensor of more than
// kSummaryThreshold elements shows kEdgeItems at each end of every long axis.
#include <charconv>
#include <cstring>
#include <sstream>

#include "runtime/vm/builtins.h"

namespace relaxc::runtime::vm {
namespace {

constexpr int64_t kSummaryThreshold = 1000;
constexpr int64_t kEdgeItems = 3;

float half_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exponent = (h >> 10) & 0x1fu;
  uint32_t mantissa = h & 0x3ffu;
  uint32_t bits;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);  // inf, nan
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;
  } else {  // subnormal: normalize
    int shift = 0;
    while ((mantissa & 0x400u) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    bits = sign | (static_cast<uint32_t>(113 - shift) << 23) | ((mantissa & 0x3ffu) << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

template <typename T>
T load(const uint8_t* data) {
  T v;
  std::memcpy(&v, data, sizeof v);
  return v;
}

[[noreturn]] void unreadable(DType dtype) {
  runtime_error() << "cannot read elements of dtype " << dtype.str() << " on the host";
}

std::string float_text(double v, bool single) {
  char buf[64];
  auto result = single ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v))
                       : std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, result.ptr);
  if (s.find_first_of(".einf") == std::string::npos) s += ".0";
  return s;
}

std::string element_text(const uint8_t* data, DType dtype) {
  if (dtype.is_bool()) return load<uint8_t>(data) != 0 ? "True" : "False";
  if (dtype.code == DType::Code::Float || dtype.code == DType::Code::BFloat) {
    return float_text(element_as_double(data, dtype), dtype.bits <= 32);
  }
  if (dtype.code == DType::Code::UInt && dtype.bits == 64) {
    return std::to_string(load<uint64_t>(data));
  }
  return std::to_string(element_as_int(data, dtype));
}

// The elements of axis `axis` from `data` on: "[a, b, ..., y, z]", nested.
void tensor_text(std::ostream& os, const uint8_t* data, DType dtype,
                 const std::vector<int64_t>& shape, size_t axis, bool summarize) {
  if (axis == shape.size()) {
    os << element_text(data, dtype);
    return;
  }
  int64_t stride = dtype.bytes();
  for (size_t d = axis + 1; d < shape.size(); ++d) stride *= shape[d];
  int64_t n = shape[axis];
  os << '[';
  for (int64_t i = 0; i < n; ++i) {
    if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) {
      os << ", ...";
      i = n - kEdgeItems - 1;
      continue;
    }
    if (i > 0) os << ", ";
    tensor_text(os, data + i * stride, dtype, shape, axis + 1, summarize);
  }
  os << ']';
}

// print(format, values...): "" joins the values with spaces; otherwise each "{}" takes
// the next value ("{{" and "}}" are braces).
Value print(VirtualMachine& vm, std::span<const Value> in) {
  BuiltinArgs args(builtin::kPrint, in);
  args.expect_at_least(1);
  const std::string& format = args.string(0, "format");
  std::string out;
  if (format.empty()) {
    for (size_t i = 1; i < in.size(); ++i) out += (i > 1 ? " " : "") + format_value(vm, in[i]);
  } else {
    size_t next = 1;
    for (size_t i = 0; i < format.size(); ++i) {
      if (format.compare(i, 2, "{}") == 0) {
        if (next >= in.size()) {
          args.fail("the format \"" + format + "\" has more {} than the " +
                    std::to_string(in.size() - 1) + " values given");
        }
        out += format_value(vm, in[next++]);
        ++i;
      } else if (format.compare(i, 2, "{{") == 0 || format.compare(i, 2, "}}") == 0) {
        out += format[i++];
      } else {
        out += format[i];
      }
    }
    if (next != in.size()) {
      args.fail("the format \"" + format + "\" has " + std::to_string(next - 1) + " {}, " +
                std::to_string(in.size() - 1) + " values were given");
    }
  }
  vm.print_stream() << out << '\n';
  return Value();
}

}  // namespace

int64_t element_as_int(const uint8_t* data, DType dtype) {
  if (dtype.lanes != 1) unreadable(dtype);
  if (dtype.code == DType::Code::Int) {
    switch (dtype.bits) {
      case 8:
        return load<int8_t>(data);
      case 16:
        return load<int16_t>(data);
      case 32:
        return load<int32_t>(data);
      case 64:
        return load<int64_t>(data);
    }
  } else if (dtype.code == DType::Code::UInt) {
    switch (dtype.bits) {
      case 1:
        return load<uint8_t>(data) != 0;
      case 8:
        return load<uint8_t>(data);
      case 16:
        return load<uint16_t>(data);
      case 32:
        return load<uint32_t>(data);
      case 64:
        return static_cast<int64_t>(load<uint64_t>(data));
    }
  } else {
    return static_cast<int64_t>(element_as_double(data, dtype));
  }
  unreadable(dtype);
}

double element_as_double(const uint8_t* data, DType dtype) {
  if (dtype.lanes != 1) unreadable(dtype);
  if (dtype.code == DType::Code::Float) {
    switch (dtype.bits) {
      case 16:
        return half_to_float(load<uint16_t>(data));
      case 32:
        return load<float>(data);
      case 64:
        return load<double>(data);
    }
    unreadable(dtype);
  }
  if (dtype.code == DType::Code::BFloat && dtype.bits == 16) {
    uint32_t bits = static_cast<uint32_t>(load<uint16_t>(data)) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  if (dtype.code == DType::Code::BFloat) unreadable(dtype);
  return static_cast<double>(element_as_int(data, dtype));
}

std::string format_value(VirtualMachine& vm, const Value& value) {
  switch (value.kind()) {
    case Value::Kind::Null:
      return "None";
    case Value::Kind::Int:
      if (value.dtype().is_bool()) return value.as_int() != 0 ? "True" : "False";
      return std::to_string(value.as_int());
    case Value::Kind::Float:
      return float_text(value.as_float(), value.dtype().bits <= 32);
    case Value::Kind::DataType:
      return value.dtype().str();
    case Value::Kind::String:
      return value.as_string();
    case Value::Kind::Shape:
      return shape_text(value.as_shape());
    case Value::Kind::Storage: {
      const Storage& s = *value.as_storage();
      return "<storage of " + std::to_string(s.bytes) + " bytes" +
             (s.on_host() ? " on the host>" : " on \"" + s.device->limits().name + "\">");
    }
    case Value::Kind::Tuple: {
      const std::vector<Value>& fields = value.as_tuple();
      std::string out = "(";
      for (size_t i = 0; i < fields.size(); ++i) {
        out += (i > 0 ? ", " : "") + format_value(vm, fields[i]);
      }
      return out + (fields.size() == 1 ? ",)" : ")");
    }
    case Value::Kind::Closure: {
      const Closure& c = value.as_closure();
      const Executable& exe = vm.executable();
      std::string name = c.func >= 0 && static_cast<size_t>(c.func) < exe.functions.size()
                             ? exe.functions[static_cast<size_t>(c.func)].name
                             : "#" + std::to_string(c.func);
      return "<closure " + name +
             (c.captures.empty() ? ""
                                 : " with " + std::to_string(c.captures.size()) + " captures") +
             ">";
    }
    case Value::Kind::Tensor: {
      const Tensor& t = value.as_tensor();
      std::vector<uint8_t> bytes = vm.to_host(t);
      std::ostringstream os;
      tensor_text(os, bytes.data(), t.dtype, t.shape, 0, t.num_elements() > kSummaryThreshold);
      return os.str();
    }
  }
  return "?";
}

void add_print_builtin(PackedFuncTable& table) { table.emplace_back(builtin::kPrint, print); }

}  // namespace relaxc::runtime::vm
