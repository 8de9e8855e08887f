// Host arrays for tests: random inputs and the comparison of results. The array itself
// is the TensorIR interpreter's (ir/tir/host_array.h).
#pragma once
#include <cstdint>
#include <vector>

#include "ir/tir/host_array.h"

namespace relaxc::testing {

using tir::HostArray;
using tir::round_to_fp16;
using tir::zeros;

// Deterministic pseudo-random values in [lo, hi) (integers in [lo, hi) for integer dtypes).
HostArray random_array(DataType dtype, std::vector<int64_t> shape, uint64_t seed, double lo = -1.0,
                       double hi = 1.0);
// The largest |a - b| / (atol + rtol * |b|) over the elements; <= 1 means close.
// Shapes must agree.
double max_scaled_error(const HostArray& a, const HostArray& b, double atol, double rtol);

}  // namespace relaxc::testing
