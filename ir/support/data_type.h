// DataType: a scalar type code, its width in bits, and its vector lanes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relaxc {

class DataType {
 public:
  enum class Code : uint8_t { Int, UInt, Float, BFloat, Handle };

  constexpr DataType() = default;
  constexpr DataType(Code code, int bits, int lanes)
      : code_(code), bits_(static_cast<uint8_t>(bits)), lanes_(static_cast<uint16_t>(lanes)) {}

  static constexpr DataType Int(int bits, int lanes = 1) { return {Code::Int, bits, lanes}; }
  static constexpr DataType UInt(int bits, int lanes = 1) { return {Code::UInt, bits, lanes}; }
  static constexpr DataType Float(int bits, int lanes = 1) { return {Code::Float, bits, lanes}; }
  static constexpr DataType BFloat(int bits, int lanes = 1) { return {Code::BFloat, bits, lanes}; }
  static constexpr DataType Bool(int lanes = 1) { return UInt(1, lanes); }
  static constexpr DataType Handle() { return {Code::Handle, 64, 1}; }
  // Relax's unknown dtype (the spec's Void): a handle of 0 bits and 0 lanes.
  static constexpr DataType Void() { return {Code::Handle, 0, 0}; }

  constexpr Code code() const { return code_; }
  constexpr int bits() const { return bits_; }
  constexpr int lanes() const { return lanes_; }
  constexpr int bytes() const { return (bits_ * lanes_ + 7) / 8; }

  constexpr bool is_int() const { return code_ == Code::Int; }
  constexpr bool is_uint() const { return code_ == Code::UInt; }
  constexpr bool is_float() const { return code_ == Code::Float || code_ == Code::BFloat; }
  constexpr bool is_bfloat() const { return code_ == Code::BFloat; }
  constexpr bool is_handle() const { return code_ == Code::Handle && !is_void(); }
  constexpr bool is_void() const { return code_ == Code::Handle && bits_ == 0; }
  constexpr bool is_bool() const { return code_ == Code::UInt && bits_ == 1; }
  // Integer-valued (int, uint or bool).
  constexpr bool is_integer() const { return code_ == Code::Int || code_ == Code::UInt; }
  constexpr bool is_scalar() const { return lanes_ == 1; }
  constexpr bool is_vector() const { return lanes_ > 1; }

  constexpr DataType with_lanes(int lanes) const { return {code_, bits_, lanes}; }
  constexpr DataType element_of() const { return with_lanes(1); }

  constexpr bool operator==(const DataType& o) const {
    return code_ == o.code_ && bits_ == o.bits_ && lanes_ == o.lanes_;
  }
  constexpr bool operator!=(const DataType& o) const { return !(*this == o); }

  // TVM's spelling: "float32", "int64", "bool", "float16x4", "handle", "" for void.
  std::string str() const;
  // Parses TVM's spelling; nullopt if `text` names no data type.
  static std::optional<DataType> parse(std::string_view text);

 private:
  Code code_ = Code::Handle;
  uint8_t bits_ = 0;
  uint16_t lanes_ = 0;
};

}  // namespace relaxc
