// Host arrays for tests: random inputs and the comparison of results.
#include "tests/support/host_array.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace relaxc::testing {

HostArray random_array(DataType dtype, std::vector<int64_t> shape, uint64_t seed, double lo,
                       double hi) {
  HostArray a = zeros(dtype, std::move(shape));
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (double& v : a.data) {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    double u = static_cast<double>(state >> 11) / static_cast<double>(1ull << 53);
    v = lo + (hi - lo) * u;
    if (dtype.is_integer()) v = std::floor(v);
    if (dtype.is_float() && dtype.bits() == 32) v = static_cast<float>(v);
    if (dtype.is_float() && dtype.bits() == 16) v = round_to_fp16(v);
  }
  return a;
}

double max_scaled_error(const HostArray& a, const HostArray& b, double atol, double rtol) {
  if (a.shape != b.shape) throw std::runtime_error("max_scaled_error: shapes differ");
  double worst = 0;
  for (size_t i = 0; i < a.data.size(); ++i) {
    double diff = std::fabs(a.data[i] - b.data[i]);
    double tolerance = atol + rtol * std::fabs(b.data[i]);
    if (std::isnan(diff)) return INFINITY;
    // A zero tolerance asks for exact equality.
    double err = tolerance > 0 ? diff / tolerance : (diff == 0 ? 0.0 : INFINITY);
    worst = std::max(worst, err);
  }
  return worst;
}

}  // namespace relaxc::testing
