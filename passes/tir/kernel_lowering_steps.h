// The steps of kernel lowering, each usable alone (for tests); each is a registered pass
// (passes/pass_registry.cc) and passes/pipeline.cc runs them in this order.
#pragma once
#include <string>
#include <vector>

#include "ir/target/target.h"
#include "ir/tir/lowered_func.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir {

// 0. Merges a thread-bound loop into the enclosing loop bound to the same thread axis (a
// cooperative copy computed at a loop under threadIdx.x, with its own threadIdx.x loop):
// both name one hardware index, so the inner loop is replaced by its body with its var
// substituted by the outer one. An inner extent provably equal to the outer one is a plain
// substitution; a smaller constant one guards the body with `outer < inner extent`; a
// larger or non-constant one is a UserError naming both loops and their extents. Loops
// bound to one axis in separate (not nested) subtrees are left alone.
PrimFunc unify_thread_bindings(const PrimFunc& func);

// 1. A reduction block whose reduction iter vars depend on a threadIdx-bound loop
// becomes a per-thread partial result ("local"), a tree reduction in a "shared" buffer
// with barriers, and a final write by thread 0. On a CUDA target, where the reducing
// threads are whole warps of a one-axis (threadIdx.x) kernel, or the whole block of at
// most one warp, and the result is a 32-bit scalar, the partials are combined with warp
// shuffles (T.shuffle_down) instead, through one shared slot per warp when there are
// several. Other blocks are left as they are.
PrimFunc lower_cross_thread_reduction(const PrimFunc& func, const Target& target);

// 2. Blocks become loops: iter vars are replaced by their bindings, predicates become
// IfThenElse, init runs when every reduction iter var is at its minimum, alloc_buffers
// become Allocate around the block's body, match_buffers become views of their source.
// The result has no blocks.
PrimFunc lower_blocks(const PrimFunc& func);

// 3. Splits a block-free function (lower_blocks' result) into kernels. Each outermost
// thread-bound loop becomes one kernel, its thread-bound loops hoisted outermost (one per
// axis, min 0); root "global" allocations become workspaces; root "shared"/"local"
// allocations move into the kernel that uses them. Kernels keep the function's
// multi-dimensional buffers and int64 vars: the steps below finish them. Checks the thread
// extents against `target`. A blockIdx axis whose extent E may exceed the target's grid
// limit L runs min(E, L) blocks; the blocks past L overflow onto a free blockIdx axis
// (ceil(E / L) of them, under a guard) where the kernel leaves one, and otherwise each
// block strides by L in a serial loop under the thread-bound loops.
LoweredFunc split_host_device(const PrimFunc& func, const std::string& name, const Target& target);

// 4. Adds the barriers a kernel's threads need between their accesses to the buffers they
// exchange values through ("shared" ones, and "global" ones holding a per-block result:
// written at an element independent of the thread, and read): in a sequence, before a
// statement that reads or writes such a buffer that statements since the last barrier
// wrote (or writes one they read); in a loop whose body writes such a buffer it also
// reads, at the end of the body. Never under a condition or loop that depends on the
// thread (the barrier goes around it, or the condition is split); existing barriers count.
PrimFunc insert_shared_barriers(const PrimFunc& kernel);

// 5. Shrinks each "shared"/"local" Allocate of a kernel to the region its accesses reach
// (per block of threads for "shared", per thread for "local"), and moves it to the
// innermost statement holding all its accesses.
PrimFunc compact_buffer_allocations(const PrimFunc& kernel);

// 6. Software pipelining of a loop annotated "prefetch_tile_copies" (the matmul rule's
// k loop) whose body starts with copies into "shared" buffers: each copy loads the next
// iteration's values into registers while the rest of the body runs, and stores them
// to shared memory at the start of the next; the first iteration's values are loaded
// before the loop, and the last iteration (nothing to load) follows it. Runs on the
// compacted buffers (a tile's index no longer depends on the loop) and keeps the barriers
// that insert_shared_barriers put around the copies in place. A loop of another form is
// left as it is. The annotation is dropped.
PrimFunc prefetch_tile_copies(const PrimFunc& kernel);

// 7. Every buffer of a kernel becomes one-dimensional (row-major, or by its strides):
// params become flat "global" buffers, Allocates flat buffers of constant size
// (UserError naming the buffer otherwise) that move to the top of the kernel, below its
// thread-bound loops.
PrimFunc flatten_buffers(const PrimFunc& kernel);

// 8. Index and loop arithmetic of a kernel in int32: int64 vars (loop vars, shape
// scalars) become int32 vars of the same name; int64 data keeps its type.
PrimFunc narrow_to_int32(const PrimFunc& kernel);

// 9. Simplifies every expression of a kernel with the ranges of its loops known.
PrimFunc simplify_kernel(const PrimFunc& kernel);

// 10. On a target that emulates bfloat16 (Target::emulates_bfloat16: Vulkan), bfloat16
// buffers become uint16 buffers of the same bytes, loads widen to float32, arithmetic runs
// in float32 rounded to bfloat16 after each operation, and stores round to nearest even
// (NaN stays a quiet NaN), as the CUDA back end rounds. A bfloat16 scalar parameter is a
// UserError. Kernels for other targets are returned unchanged.
PrimFunc legalize_bfloat16(const PrimFunc& kernel, const Target& target);

// 11. Decides, once for every back end, which vectorized loops become vector code: a loop
// of 2 to target.max_vector_lanes lanes whose body is stores contiguous in its variable
// and expressions (float math intrinsics the only calls; no control flow, lets,
// allocations, barriers, ramps or broadcasts). Every other vectorized loop becomes
// unrolled. The back ends emit each vectorized loop left as vector code.
PrimFunc legalize_vector_loops(const PrimFunc& kernel, const Target& target);

// Checks a finished kernel and its launch against the target's limits: threads per block
// (per axis and in all), constant grid sizes, shared memory per block, local memory per
// thread, dtypes. UserError otherwise.
void check_kernel_limits(const KernelLaunch& launch, const Target& target);

// The launch of a finished kernel named `name` as its thread-bound loops give it (block
// size from the threadIdx extents, grid size from the blockIdx extents; every buffer and
// scalar param in order): for checking a kernel that has no host, as relaxc opt does.
KernelLaunch launch_of_kernel(const PrimFunc& kernel, const std::string& name);

// Evaluate(T.tvm_storage_sync("shared")): the barrier of a block's threads.
Stmt storage_sync();
bool is_storage_sync(const Stmt& stmt);

// The shared memory of a kernel in bytes: the sum of its "shared" Allocates.
int64_t shared_memory_bytes(const PrimFunc& kernel);

}  // namespace relaxc::tir
