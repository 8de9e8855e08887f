// DType: the element type of a runtime tensor (DLPack's DLDataType: code, bits, lanes).
// The runtime's own copy of the idea, so that it depends on nothing of the compiler;
// codes and spellings are the compiler's (ir/support/data_type.h), bool is uint1.
#pragma once
#include <cstdint>
#include <string>

namespace relaxc::runtime {

struct DType {
  enum class Code : uint8_t { Int = 0, UInt = 1, Float = 2, BFloat = 4 };  // DLPack's codes
  Code code = Code::Float;
  uint8_t bits = 32;
  uint16_t lanes = 1;

  static constexpr DType Int(int bits) { return {Code::Int, static_cast<uint8_t>(bits), 1}; }
  static constexpr DType UInt(int bits) { return {Code::UInt, static_cast<uint8_t>(bits), 1}; }
  static constexpr DType Float(int bits) { return {Code::Float, static_cast<uint8_t>(bits), 1}; }
  static constexpr DType Bool() { return UInt(1); }
  // Relax's unknown dtype, for "any dtype" in checks: bits 0.
  static constexpr DType Void() { return {Code::Int, 0, 0}; }

  // Bytes of one element (a bool takes one byte).
  constexpr int bytes() const { return (bits * lanes + 7) / 8; }
  constexpr bool is_void() const { return bits == 0; }
  constexpr bool is_bool() const { return code == Code::UInt && bits == 1; }
  constexpr bool operator==(const DType& o) const {
    return code == o.code && bits == o.bits && lanes == o.lanes;
  }
  constexpr bool operator!=(const DType& o) const { return !(*this == o); }
  // "float32", "int64", "bool", "float16x4"; "void" for Void().
  std::string str() const;
  // Whether the code and width are ones the runtime knows (checked when a file is loaded).
  bool is_valid() const;
};

}  // namespace relaxc::runtime
