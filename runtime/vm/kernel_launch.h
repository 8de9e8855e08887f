// Launching a kernel function (a compiled TensorIR function's host side) on a device:
// the one implementation that the VM's kernel calls and driver::PrimFuncLauncher share.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "runtime/device.h"
#include "runtime/dtype.h"
#include "runtime/vm/executable.h"

namespace relaxc::runtime::vm {

// A buffer argument of a kernel function: the device buffer (the tensor starts at its
// first byte), the tensor's dtype and shape (a view; it must outlive the call).
struct KernelBufferArg {
  DeviceBuffer buffer;
  DType dtype;
  std::span<const int64_t> shape;
};

// Where a launch's workspace comes from: index `index` of KernelFunc::workspaces, at
// least `bytes` bytes. The buffer must stay valid until the launches are enqueued on the
// device's in-order stream (the caller may then reuse it for later work).
using WorkspaceSource = std::function<DeviceBuffer(size_t index, size_t bytes)>;

// The vectors launch_kernel_func fills on each call, kept by a caller that launches often
// (the VM) so that a launch allocates nothing once they have grown.
struct KernelLaunchScratch {
  std::vector<int64_t> slots;
  std::vector<DeviceBuffer> buffers;         // the params, then the workspaces
  std::vector<DeviceBuffer> launch_buffers;  // of one launch
  std::vector<int64_t> launch_scalars;       // of one launch
};

// Launches `func`: binds its slots from the buffers' plain-variable dimensions and from
// `scalars` (its scalar params, in order), checks each buffer's dtype, rank, every
// dimension, its element count (at most 2^31 - 1: kernels index in int32) and the
// buffer's size, takes the workspaces from `workspace`, evaluates each
// launch's grid and scalar arguments, and enqueues the launches without waiting. A
// launch's kernel is kernels[launch.kernel], loaded on first use into
// kernel_ids[launch.kernel] (the two spans have the same length). Errors are
// RuntimeErrors starting with "kernel function '<name>'" and naming the buffer and
// dimension, the workspace or the kernel, with the expected and the actual value.
// `scratch` holds the call's temporary vectors.
void launch_kernel_func(Device& device, const KernelFunc& func,
                        std::span<const KernelBinary> kernels,
                        std::span<std::optional<KernelId>> kernel_ids,
                        std::span<const KernelBufferArg> buffers, std::span<const int64_t> scalars,
                        const WorkspaceSource& workspace, KernelLaunchScratch& scratch);

}  // namespace relaxc::runtime::vm
