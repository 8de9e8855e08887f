// Host arrays for tests: inputs, CPU references and results read back from a device.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/support/data_type.h"

namespace relaxc::testing {

// `dtype` elements of `shape`, row-major, held as doubles (exact for every int32 and
// float32 value; fp16 values are kept rounded to fp16).
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
// Deterministic pseudo-random values in [lo, hi) (integers in [lo, hi) for integer dtypes).
HostArray random_array(DataType dtype, std::vector<int64_t> shape, uint64_t seed, double lo = -1.0,
                       double hi = 1.0);
// Rounds to the nearest fp16 value (round to nearest even), as a double.
double round_to_fp16(double v);
// The largest |a - b| / (atol + rtol * |b|) over the elements; <= 1 means close.
// Shapes must agree.
double max_scaled_error(const HostArray& a, const HostArray& b, double atol, double rtol);

}  // namespace relaxc::testing
