// The TensorIR interpreter for tests: the compiler's (ir/tir/interpreter.h), and the
// comparison of a transformed function with its original on the same random inputs.
#pragma once
#include <cstdint>
#include <vector>

#include "ir/tir/interpreter.h"
#include "tests/support/host_array.h"

namespace relaxc::testing {

using tir::interpret;

// Interprets `original` and `transformed` (scheduled, lowered) on the same random arrays
// of `shapes` (one per buffer parameter, drawn from `seed` on) and expects the same
// contents afterwards, within `tolerance` (relative and absolute; a schedule that sums in
// another order rounds otherwise, more so over longer reductions).
void expect_same_results(const tir::PrimFunc& original, const tir::PrimFunc& transformed,
                         const std::vector<std::vector<int64_t>>& shapes, uint64_t seed,
                         double tolerance = 1e-5);

}  // namespace relaxc::testing
