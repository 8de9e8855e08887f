// The TensorIR interpreter: runs a PrimFunc (blocks, loops; thread-bound loops one
// after another) on host arrays. Tests check schedules and lowerings against the
// unscheduled function with it; fold-constant evaluates calls of constants with it.
#pragma once
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/tir/host_array.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir {

// What the program did wrong, or a limit it passed (the message names the buffer,
// index, loop or block).
struct InterpretError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs `func` with its buffer params bound to `buffers` (by param order, handle params
// only) and its scalar params to `scalars` (by name). Symbolic dims of the buffers'
// shapes are bound from the arrays' shapes. Blocks run sequentially with their init on
// the first reduction iteration; predicates are honored; T.tvm_storage_sync is a no-op.
// At most `max_steps` loop iterations run in all. Throws InterpretError.
void interpret(const PrimFunc& func, std::vector<HostArray*> buffers,
               const std::map<std::string, int64_t>& scalars = {},
               int64_t max_steps = 2'000'000'000);

}  // namespace relaxc::tir
