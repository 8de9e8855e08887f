// DType spelling and the set of element types the runtime knows.
#include "runtime/dtype.h"

namespace relaxc::runtime {

std::string DType::str() const {
  if (is_void()) return "void";
  std::string s;
  if (is_bool()) {
    s = "bool";
  } else {
    switch (code) {
      case Code::Int:
        s = "int";
        break;
      case Code::UInt:
        s = "uint";
        break;
      case Code::Float:
        s = "float";
        break;
      case Code::BFloat:
        s = "bfloat";
        break;
      default:
        s = "code" + std::to_string(static_cast<int>(code)) + "_";
        break;
    }
    s += std::to_string(bits);
  }
  if (lanes != 1) s += "x" + std::to_string(lanes);
  return s;
}

bool DType::is_valid() const {
  // Void (bits 0, lanes 0) stands for "any dtype" in checks; every other type has lanes.
  if (is_void()) return lanes == 0 && code == Code::Int;
  if (lanes == 0) return false;
  switch (code) {
    case Code::Int:
      return bits == 8 || bits == 16 || bits == 32 || bits == 64;
    case Code::UInt:
      return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
    case Code::Float:
      return bits == 16 || bits == 32 || bits == 64;
    case Code::BFloat:
      return bits == 16;
  }
  return false;  // a code read from a file that is none of the enum's values
}

}  // namespace relaxc::runtime
