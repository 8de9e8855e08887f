// Launching a kernel function: slots bound from the buffers' plain-variable dimensions
// and the scalar params, every dimension checked against its IntProgram, workspaces
// sized, then each launch's grid and scalars evaluated and the kernel enqueued.
#include "runtime/vm/kernel_launch.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "runtime/vm/builtins.h"

namespace relaxc::runtime::vm {

void launch_kernel_func(Device& device, const KernelFunc& func,
                        std::span<const KernelBinary> kernels,
                        std::span<std::optional<KernelId>> kernel_ids,
                        std::span<const KernelBufferArg> buffers, std::span<const int64_t> scalars,
                        const WorkspaceSource& workspace) {
  const std::string where = "kernel function '" + func.name + "'";
  if (buffers.size() != func.params.size()) {
    runtime_error() << where << " takes " << func.params.size() << " buffers, got "
                    << buffers.size();
  }
  if (scalars.size() != func.scalar_param_slots.size()) {
    runtime_error() << where << " takes " << func.scalar_param_slots.size()
                    << " scalar arguments, got " << scalars.size();
  }
  std::vector<int64_t> slots(static_cast<size_t>(std::max(func.num_slots, 0)), 0);
  auto slot = [&](int64_t index) -> int64_t& {
    if (index < 0 || static_cast<size_t>(index) >= slots.size()) {
      runtime_error() << where << ": slot " << index << " is outside its " << slots.size()
                      << " slots";
    }
    return slots[static_cast<size_t>(index)];
  };
  // Dtype and rank first; plain-variable dims bind their slots.
  for (size_t i = 0; i < func.params.size(); ++i) {
    const KernelParam& p = func.params[i];
    const KernelBufferArg& arg = buffers[i];
    std::string buffer = where + ": buffer '" + p.name + "'";
    if (arg.dtype != p.dtype) {
      runtime_error() << buffer << " has dtype " << p.dtype.str() << ", the tensor has dtype "
                      << arg.dtype.str();
    }
    if (arg.shape.size() != p.shape.size()) {
      runtime_error() << buffer << " has " << p.shape.size() << " dimensions, the tensor has "
                      << arg.shape.size() << " (shape " << shape_text(arg.shape) << ")";
    }
    for (size_t d = 0; d < p.shape.size(); ++d) {
      if (p.shape[d].defines_slot >= 0) slot(p.shape[d].defines_slot) = arg.shape[d];
    }
  }
  for (size_t k = 0; k < scalars.size(); ++k) slot(func.scalar_param_slots[k]) = scalars[k];
  std::vector<DeviceBuffer> all_buffers;  // the params, then the workspaces
  for (size_t i = 0; i < func.params.size(); ++i) {
    const KernelParam& p = func.params[i];
    const KernelBufferArg& arg = buffers[i];
    for (size_t d = 0; d < p.shape.size(); ++d) {
      std::string what = where + ": buffer '" + p.name + "', dimension " + std::to_string(d);
      int64_t expected = evaluate_int_program(p.shape[d].extent, slots, what);
      if (expected != arg.shape[d]) {
        runtime_error() << what << " is " << arg.shape[d] << ", expected " << expected
                        << " (the tensor has shape " << shape_text(arg.shape) << ")";
      }
    }
    std::string buffer = where + ": buffer '" + p.name + "'";
    size_t bytes = checked_tensor_bytes(arg.dtype, arg.shape, buffer);
    if (arg.buffer.bytes < bytes) {
      runtime_error() << buffer << " needs " << bytes << " bytes (shape " << shape_text(arg.shape)
                      << "), the device buffer has " << arg.buffer.bytes;
    }
    all_buffers.push_back(arg.buffer);
  }
  for (size_t w = 0; w < func.workspaces.size(); ++w) {
    const KernelWorkspace& ws = func.workspaces[w];
    int64_t bytes =
        evaluate_int_program(ws.bytes, slots, where + ": the size of workspace '" + ws.name + "'");
    if (bytes < 0) {
      runtime_error() << where << ": workspace '" << ws.name << "' has a negative size (" << bytes
                      << " bytes)";
    }
    all_buffers.push_back(workspace(w, static_cast<size_t>(bytes)));
  }
  if (kernel_ids.size() != kernels.size()) {
    runtime_error() << where << ": " << kernels.size() << " kernels but " << kernel_ids.size()
                    << " kernel ids";
  }
  for (const KernelLaunchInfo& launch : func.launches) {
    if (launch.kernel < 0 || static_cast<size_t>(launch.kernel) >= kernels.size()) {
      runtime_error() << where << ": launch of kernel #" << launch.kernel
                      << ", outside the backend's " << kernels.size() << " kernels";
    }
    const KernelBinary& binary = kernels[static_cast<size_t>(launch.kernel)];
    std::string kernel = where + ", kernel '" + binary.name + "'";
    std::array<uint32_t, 3> grid{};
    bool empty = false;
    for (int axis = 0; axis < 3; ++axis) {
      int64_t g = evaluate_int_program(launch.grid[static_cast<size_t>(axis)], slots,
                                       kernel + ": the grid size");
      if (g > std::numeric_limits<uint32_t>::max()) {
        runtime_error() << kernel << " needs a grid of " << g << " blocks on axis " << axis;
      }
      if (g <= 0) empty = true;
      grid[static_cast<size_t>(axis)] = static_cast<uint32_t>(std::max<int64_t>(g, 0));
    }
    if (empty) continue;  // no element to compute
    std::vector<DeviceBuffer> kernel_buffers;
    for (int32_t b : launch.buffer_args) {
      if (b < 0 || static_cast<size_t>(b) >= all_buffers.size()) {
        runtime_error() << kernel << ": buffer argument #" << b << " is outside the "
                        << all_buffers.size() << " buffers and workspaces";
      }
      kernel_buffers.push_back(all_buffers[static_cast<size_t>(b)]);
    }
    std::vector<int64_t> kernel_scalars;
    for (const IntProgram& s : launch.scalar_args) {
      kernel_scalars.push_back(evaluate_int_program(s, slots, kernel + ": a scalar argument"));
    }
    std::optional<KernelId>& id = kernel_ids[static_cast<size_t>(launch.kernel)];
    if (!id.has_value()) id = device.load_kernel(binary);
    device.launch(*id, grid, kernel_buffers, kernel_scalars);
  }
}

}  // namespace relaxc::runtime::vm
