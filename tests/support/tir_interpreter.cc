// The TensorIR interpreter for tests: a transformed function against its original.
#include "tests/support/tir_interpreter.h"

#include <gtest/gtest.h>

namespace relaxc::testing {

void expect_same_results(const tir::PrimFunc& original, const tir::PrimFunc& transformed,
                         const std::vector<std::vector<int64_t>>& shapes, uint64_t seed,
                         double tolerance) {
  std::vector<HostArray> a;
  for (size_t i = 0; i < shapes.size(); ++i) {
    tir::Buffer buffer = original->buffer_of(original->params[i]);
    a.push_back(random_array(buffer->dtype, shapes[i], seed++));
  }
  std::vector<HostArray> b = a;
  std::vector<HostArray*> pa, pb;
  for (size_t i = 0; i < a.size(); ++i) {
    pa.push_back(&a[i]);
    pb.push_back(&b[i]);
  }
  interpret(original, pa);
  interpret(transformed, pb);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_LE(max_scaled_error(b[i], a[i], tolerance, tolerance), 1.0) << "array " << i;
  }
}

}  // namespace relaxc::testing
