// HostTensor: a dense n-d array in host memory, the payload of Relax constants.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ir/support/data_type.h"

namespace relaxc {

struct HostTensor {
  DataType dtype;
  std::vector<int64_t> shape;
  // Row-major element bytes; shared so that copying a constant node is cheap.
  std::shared_ptr<const std::vector<uint8_t>> data;

  int64_t num_elements() const;
  // Element i converted to double / int64 (for printing and folding; a float saturates
  // to int64's range).
  double element_as_double(int64_t i) const;
  int64_t element_as_int(int64_t i) const;

  // A tensor of `shape` from values given as doubles, converted to `dtype` (integers
  // truncated toward zero and saturated to the dtype's range).
  static HostTensor from_doubles(DataType dtype, std::vector<int64_t> shape,
                                 const std::vector<double>& values);

  bool operator==(const HostTensor& o) const;
};

}  // namespace relaxc
