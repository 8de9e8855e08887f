// A PrimFunc lowered to device kernels: each kernel is itself a PrimFunc (it prints and
// parses as text), plus what the host needs to launch them. The output of the kernel
// lowering passes and the input of every GPU back end.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/tir/stmt.h"

namespace relaxc::tir {

// A device kernel in lowered form, itself a PrimFunc:
// - params: the buffer handles first (each with a flat 1-D buffer of its element type,
//   scope "global", in buffer_map), then the scalar values it reads (int32 vars: the
//   symbolic shape values, narrowed);
// - body: the thread-bound loops outermost (For of kind ThreadBinding, min 0, thread_tag
//   "blockIdx.x/y/z" or "threadIdx.x/y/z", at most one per axis), and below them only:
//   For (serial, unrolled, vectorized), IfThenElse, LetStmt, SeqStmt, BufferStore and
//   BufferLoad with a single index, Allocate of a flat buffer of constant size in scope
//   "shared" or "local", Evaluate of T.tvm_storage_sync("shared") (a barrier of the
//   threads of a block, ordering their shared and global memory accesses); no blocks;
// - index arithmetic in int32, simplified.
struct DeviceKernel {
  std::string name;  // "<function>_kernel", or "<function>_kernel_<i>" when several
  PrimFunc func;
  std::array<int64_t, 3> block_size = {1, 1, 1};  // threadIdx.x/y/z extents (constant)
  int64_t shared_memory_bytes = 0;
  int num_buffer_params() const;
};

// One launch of a kernel, as the host does it.
struct KernelLaunch {
  DeviceKernel kernel;
  // For each buffer param of the kernel: an index into LoweredFunc::buffers().
  std::vector<int> buffer_args;
  // For each scalar param of the kernel: its value, an expression over the host vars.
  std::vector<PrimExpr> scalar_args;
  // blockIdx.x/y/z extents, expressions over the host vars (1 where the axis is unused).
  std::array<PrimExpr, 3> grid_size;
  // Where defined, the launch runs only when this holds, a condition over the host vars
  // (a schedule specialized by shape: one variant per range of a shape variable).
  PrimExpr condition;
};

// The host vars of a PrimFunc are its scalar params and the symbolic dims of its buffer
// params' shapes (n of T.Buffer((n, 4))); the caller binds them from the arguments.
struct LoweredFunc {
  std::string name;
  PrimFunc source;                 // the scheduled function
  std::vector<Buffer> params;      // the buffers of the function's handle params, in order
  std::vector<Buffer> workspaces;  // global intermediates the host allocates, shapes over host vars
  std::vector<KernelLaunch> launches;  // in the order they run
  // params then workspaces: what KernelLaunch::buffer_args index.
  std::vector<Buffer> buffers() const;
};

}  // namespace relaxc::tir
