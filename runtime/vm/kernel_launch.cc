// Launching a kernel function: slots bound from the buffers' plain-variable dimensions
// and the scalar params, every dimension checked against its IntProgram, workspaces
// sized, then each launch's grid and scalars evaluated and the kernel enqueued. The
// messages of the checks are built only when one fails, and the vectors come from the
// caller's scratch, so that a launch allocates nothing on the host once warm.
#include "runtime/vm/kernel_launch.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "runtime/vm/builtins.h"

namespace relaxc::runtime::vm {
namespace {

// `body`'s value; a RuntimeError it throws with the message `what()` + its own, where
// `body` reports its errors with an empty `what` (evaluate_int_program's and
// checked_tensor_bytes's messages start with their `what`).
template <typename What, typename Body>
auto with_context(const What& what, const Body& body) {
  try {
    return body();
  } catch (const RuntimeError& e) {
    runtime_error() << what() << e.what();
  }
}

}  // namespace

void launch_kernel_func(Device& device, const KernelFunc& func,
                        std::span<const KernelBinary> kernels,
                        std::span<std::optional<KernelId>> kernel_ids,
                        std::span<const KernelBufferArg> buffers, std::span<const int64_t> scalars,
                        const WorkspaceSource& workspace, KernelLaunchScratch& scratch) {
  auto where = [&] { return "kernel function '" + func.name + "'"; };
  if (buffers.size() != func.params.size()) {
    runtime_error() << where() << " takes " << func.params.size() << " buffers, got "
                    << buffers.size();
  }
  if (scalars.size() != func.scalar_param_slots.size()) {
    runtime_error() << where() << " takes " << func.scalar_param_slots.size()
                    << " scalar arguments, got " << scalars.size();
  }
  std::vector<int64_t>& slots = scratch.slots;
  slots.assign(static_cast<size_t>(std::max(func.num_slots, 0)), 0);
  auto slot = [&](int64_t index) -> int64_t& {
    if (index < 0 || static_cast<size_t>(index) >= slots.size()) {
      runtime_error() << where() << ": slot " << index << " is outside its " << slots.size()
                      << " slots";
    }
    return slots[static_cast<size_t>(index)];
  };
  // Dtype and rank first; plain-variable dims bind their slots.
  for (size_t i = 0; i < func.params.size(); ++i) {
    const KernelParam& p = func.params[i];
    const KernelBufferArg& arg = buffers[i];
    auto buffer = [&] { return where() + ": buffer '" + p.name + "'"; };
    if (arg.dtype != p.dtype) {
      runtime_error() << buffer() << " has dtype " << p.dtype.str() << ", the tensor has dtype "
                      << arg.dtype.str();
    }
    if (arg.shape.size() != p.shape.size()) {
      runtime_error() << buffer() << " has " << p.shape.size() << " dimensions, the tensor has "
                      << arg.shape.size() << " (shape " << shape_text(arg.shape) << ")";
    }
    for (size_t d = 0; d < p.shape.size(); ++d) {
      if (p.shape[d].defines_slot >= 0) slot(p.shape[d].defines_slot) = arg.shape[d];
    }
  }
  for (size_t k = 0; k < scalars.size(); ++k) slot(func.scalar_param_slots[k]) = scalars[k];
  std::vector<DeviceBuffer>& all_buffers = scratch.buffers;  // the params, then the workspaces
  all_buffers.clear();
  for (size_t i = 0; i < func.params.size(); ++i) {
    const KernelParam& p = func.params[i];
    const KernelBufferArg& arg = buffers[i];
    auto buffer = [&] { return where() + ": buffer '" + p.name + "'"; };
    for (size_t d = 0; d < p.shape.size(); ++d) {
      auto what = [&] { return buffer() + ", dimension " + std::to_string(d); };
      int64_t expected =
          with_context(what, [&] { return evaluate_int_program(p.shape[d].extent, slots, ""); });
      if (expected != arg.shape[d]) {
        runtime_error() << what() << " is " << arg.shape[d] << ", expected " << expected
                        << " (the tensor has shape " << shape_text(arg.shape) << ")";
      }
    }
    size_t bytes =
        with_context(buffer, [&] { return checked_tensor_bytes(arg.dtype, arg.shape, ""); });
    // Kernels index their buffers in int32 (narrow-to-int32): a larger tensor's indices
    // would wrap. (checked_tensor_bytes has checked that the product does not overflow.)
    int64_t elements = 1;
    for (int64_t extent : arg.shape) elements *= extent;
    if (elements > std::numeric_limits<int32_t>::max()) {
      runtime_error() << buffer() << " has " << elements << " elements (shape "
                      << shape_text(arg.shape)
                      << "); kernels index a buffer in int32, up to 2147483647 elements";
    }
    if (arg.buffer.bytes < bytes) {
      runtime_error() << buffer() << " needs " << bytes << " bytes (shape " << shape_text(arg.shape)
                      << "), the device buffer has " << arg.buffer.bytes;
    }
    all_buffers.push_back(arg.buffer);
  }
  for (size_t w = 0; w < func.workspaces.size(); ++w) {
    const KernelWorkspace& ws = func.workspaces[w];
    int64_t bytes =
        with_context([&] { return where() + ": the size of workspace '" + ws.name + "'"; },
                     [&] { return evaluate_int_program(ws.bytes, slots, ""); });
    if (bytes < 0) {
      runtime_error() << where() << ": workspace '" << ws.name << "' has a negative size (" << bytes
                      << " bytes)";
    }
    all_buffers.push_back(workspace(w, static_cast<size_t>(bytes)));
  }
  if (kernel_ids.size() != kernels.size()) {
    runtime_error() << where() << ": " << kernels.size() << " kernels but " << kernel_ids.size()
                    << " kernel ids";
  }
  for (const KernelLaunchInfo& launch : func.launches) {
    if (launch.kernel < 0 || static_cast<size_t>(launch.kernel) >= kernels.size()) {
      runtime_error() << where() << ": launch of kernel #" << launch.kernel
                      << ", outside the backend's " << kernels.size() << " kernels";
    }
    const KernelBinary& binary = kernels[static_cast<size_t>(launch.kernel)];
    auto kernel = [&] { return where() + ", kernel '" + binary.name + "'"; };
    std::array<uint32_t, 3> grid{};
    bool empty = false;
    for (int axis = 0; axis < 3; ++axis) {
      int64_t g = with_context(
          [&] { return kernel() + ": the grid size"; },
          [&] { return evaluate_int_program(launch.grid[static_cast<size_t>(axis)], slots, ""); });
      if (g > std::numeric_limits<uint32_t>::max()) {
        runtime_error() << kernel() << " needs a grid of " << g << " blocks on axis " << axis;
      }
      if (g <= 0) empty = true;
      grid[static_cast<size_t>(axis)] = static_cast<uint32_t>(std::max<int64_t>(g, 0));
    }
    if (empty) continue;  // no element to compute
    std::vector<DeviceBuffer>& kernel_buffers = scratch.launch_buffers;
    kernel_buffers.clear();
    for (int32_t b : launch.buffer_args) {
      if (b < 0 || static_cast<size_t>(b) >= all_buffers.size()) {
        runtime_error() << kernel() << ": buffer argument #" << b << " is outside the "
                        << all_buffers.size() << " buffers and workspaces";
      }
      kernel_buffers.push_back(all_buffers[static_cast<size_t>(b)]);
    }
    std::vector<int64_t>& kernel_scalars = scratch.launch_scalars;
    kernel_scalars.clear();
    for (const IntProgram& s : launch.scalar_args) {
      kernel_scalars.push_back(with_context([&] { return kernel() + ": a scalar argument"; },
                                            [&] { return evaluate_int_program(s, slots, ""); }));
    }
    std::optional<KernelId>& id = kernel_ids[static_cast<size_t>(launch.kernel)];
    if (!id.has_value()) id = device.load_kernel(binary);
    device.launch(*id, grid, kernel_buffers, kernel_scalars);
  }
}

}  // namespace relaxc::runtime::vm
