// HostArray: a dense tensor on the host held as doubles, what the TensorIR interpreter
// (ir/tir/interpreter.h) reads and writes.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/support/data_type.h"

namespace relaxc::tir {

// `dtype` elements of `shape`, row-major, held as doubles (exact for every int32 and
// float32 value, and for 64-bit integers up to 2^53; fp16 values are kept rounded to
// fp16).
struct HostArray {
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<double> data;

  int64_t size() const { return static_cast<int64_t>(data.size()); }
  // The elements in the dtype's memory representation (for uploads), and back.
  std::vector<uint8_t> to_bytes() const;
  void from_bytes(const std::vector<uint8_t>& bytes);
};

HostArray zeros(DataType dtype, std::vector<int64_t> shape);
// Rounds to the nearest fp16 value (round to nearest even), as a double.
double round_to_fp16(double v);

}  // namespace relaxc::tir
