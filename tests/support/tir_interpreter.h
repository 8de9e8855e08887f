// A reference interpreter of TensorIR on the host, for tests: runs a PrimFunc (blocks,
// loops, thread-bound loops run one after another) on host arrays, so that a schedule or
// a lowering can be checked against the unscheduled function on the same inputs.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ir/tir/stmt.h"
#include "tests/support/host_array.h"

namespace relaxc::testing {

// Runs `func` with its buffer params bound to `buffers` (by param order, handle params
// only) and its scalar params to `scalars` (by name). Symbolic dims of the buffers'
// shapes are bound from the arrays' shapes. Blocks run sequentially with their init on
// the first reduction iteration; predicates are honored; T.tvm_storage_sync is a no-op.
// Throws std::runtime_error on an out-of-bounds access, naming the buffer and index.
void interpret(const tir::PrimFunc& func, std::vector<HostArray*> buffers,
               const std::map<std::string, int64_t>& scalars = {});

// Interprets `original` and `transformed` (scheduled, lowered) on the same random arrays
// of `shapes` (one per buffer parameter, drawn from `seed` on) and expects the same
// contents afterwards, within 1e-5.
void expect_same_results(const tir::PrimFunc& original, const tir::PrimFunc& transformed,
                         const std::vector<std::vector<int64_t>>& shapes, uint64_t seed);

}  // namespace relaxc::testing
