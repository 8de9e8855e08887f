// Kernel lowering: a scheduled PrimFunc becomes device kernels plus the host-side
// information to launch them (ir/tir/lowered_func.h), for the SPIR-V and CUDA back ends.
#pragma once
#include <string>

#include "ir/target/target.h"
#include "ir/tir/lowered_func.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir {

// Lowers a scheduled PrimFunc named `name` with the kernel lowering passes of the
// pipeline (passes/pipeline.h kernel_lowering_passes(), in kernel_lowering_steps.h):
// 1. loops bound to one thread axis are merged into one;
// 2. cross-thread reductions (a reduction loop bound to threadIdx) become per-thread
//    partial results combined through shared memory with barriers (on CUDA, where they
//    fit, with warp shuffles);
// 3. blocks become loops: init statements, predicates, iter var bindings, alloc_buffers
//    become Allocate in their scope (a "global" allocation at the root is a workspace);
// 4. each outermost thread-bound region becomes a kernel, with its launch information;
// 5. barriers go between the threads' accesses to shared buffers, shared and local
//    allocations shrink to what is accessed, buffers are flattened to one dimension,
//    index arithmetic narrows to int32, and the body is simplified with arith.
// Checked against `target`: threads per block (per axis and in all), grid size where
// constant, shared memory per kernel, dtypes. A violation is a UserError naming the loop
// or buffer and the limit. Statements outside any thread-bound loop (other than
// workspace allocations) are refused with a message that says to bind them.
LoweredFunc lower_to_kernels(const PrimFunc& func, const std::string& name, const Target& target);

}  // namespace relaxc::tir
