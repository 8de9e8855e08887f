// Calls of kernel functions and host shape functions. A kernel call binds the shape
// variables of the kernel function from its tensors' shapes (and the tir_vars), checks
// every dimension and dtype, takes the workspaces from the pool, evaluates each launch's
// grid and scalars, and enqueues the launches without waiting.
#include <limits>
#include <string>

#include "runtime/vm/builtins.h"
#include "runtime/vm/vm_impl.h"

namespace relaxc::runtime::vm {
namespace {

std::string ordinal_text(size_t i) { return "argument " + std::to_string(i); }

}  // namespace

void VirtualMachine::Impl::launch_kernel(const FunctionEntry& entry, std::span<const Value> args) {
  if (backend == nullptr || entry.index < 0 ||
      static_cast<size_t>(entry.index) >= backend->kernel_funcs.size()) {
    throw RuntimeError(
        "kernel function '" + entry.name + "' is not in the executable's " +
        (backend == nullptr ? std::string("kernels (it has none)") : backend->target + " kernels"));
  }
  const KernelFunc& kf = backend->kernel_funcs[static_cast<size_t>(entry.index)];
  const std::string where = "kernel function '" + kf.name + "'";
  bool has_scalars = !kf.scalar_param_slots.empty();
  size_t expected_args = kf.params.size() + (has_scalars ? 1 : 0);
  if (args.size() != expected_args) {
    throw RuntimeError(where + " takes " + std::to_string(kf.params.size()) + " buffers" +
                       (has_scalars ? " and a shape of scalars" : "") + ", got " +
                       std::to_string(args.size()) + " arguments");
  }
  std::vector<int64_t> slots(static_cast<size_t>(std::max(kf.num_slots, 0)), 0);
  auto slot = [&](int64_t index) -> int64_t& {
    if (index < 0 || static_cast<size_t>(index) >= slots.size()) {
      throw RuntimeError(where + ": slot " + std::to_string(index) + " is outside its " +
                         std::to_string(slots.size()) + " slots");
    }
    return slots[static_cast<size_t>(index)];
  };
  // Buffers: kind, device, dtype and rank first; their plain-variable dims bind slots.
  std::vector<DeviceBuffer> buffers;
  for (size_t i = 0; i < kf.params.size(); ++i) {
    const KernelParam& p = kf.params[i];
    std::string buffer = where + ": buffer '" + p.name + "'";
    if (args[i].kind() != Value::Kind::Tensor) {
      throw RuntimeError(buffer + " (" + ordinal_text(i) + ") is given " +
                         kind_with_article(args[i]) + ", expected a tensor");
    }
    const Tensor& t = args[i].as_tensor();
    if (t.on_host() || t.storage->device != &device) {
      throw RuntimeError(buffer + " is given a tensor " +
                         (t.on_host() ? std::string("in host memory") : "on another device") +
                         "; kernels read tensors on device '" + device.limits().name +
                         "' (copy it with vm.builtin.to_device)");
    }
    if (t.dtype != p.dtype) {
      throw RuntimeError(buffer + " has dtype " + p.dtype.str() + ", the tensor has dtype " +
                         t.dtype.str());
    }
    if (t.shape.size() != p.shape.size()) {
      throw RuntimeError(buffer + " has " + std::to_string(p.shape.size()) +
                         " dimensions, the tensor has " + std::to_string(t.shape.size()) +
                         " (shape " + shape_text(t.shape) + ")");
    }
    if (t.byte_offset != 0) {
      throw RuntimeError(buffer + " is given a tensor at byte offset " +
                         std::to_string(t.byte_offset) +
                         " of its storage; kernels take tensors at offset 0");
    }
    for (size_t d = 0; d < p.shape.size(); ++d) {
      if (p.shape[d].defines_slot >= 0) slot(p.shape[d].defines_slot) = t.shape[d];
    }
    buffers.push_back(t.storage->buffer);
  }
  if (has_scalars) {
    const Value& s = args[kf.params.size()];
    if (s.kind() != Value::Kind::Shape) {
      throw RuntimeError(where + ": the scalar arguments (argument " +
                         std::to_string(kf.params.size()) + ") are given " + kind_with_article(s) +
                         ", expected a shape");
    }
    const std::vector<int64_t>& values = s.as_shape();
    if (values.size() != kf.scalar_param_slots.size()) {
      throw RuntimeError(where + " takes " + std::to_string(kf.scalar_param_slots.size()) +
                         " scalar arguments, got " + std::to_string(values.size()));
    }
    for (size_t k = 0; k < values.size(); ++k) slot(kf.scalar_param_slots[k]) = values[k];
  }
  for (size_t i = 0; i < kf.params.size(); ++i) {
    const KernelParam& p = kf.params[i];
    const Tensor& t = args[i].as_tensor();
    for (size_t d = 0; d < p.shape.size(); ++d) {
      std::string what = where + ": buffer '" + p.name + "', dimension " + std::to_string(d);
      int64_t expected = evaluate_int_program(p.shape[d].extent, slots, what);
      if (expected != t.shape[d]) {
        throw RuntimeError(what + " is " + std::to_string(t.shape[d]) + ", expected " +
                           std::to_string(expected) + " (the tensor has shape " +
                           shape_text(t.shape) + ")");
      }
    }
  }
  // Workspaces live until the launches are enqueued: a block returned to the pool is
  // only handed to later work on the same in-order stream.
  std::vector<std::shared_ptr<Storage>> workspaces;
  for (const KernelWorkspace& w : kf.workspaces) {
    int64_t bytes =
        evaluate_int_program(w.bytes, slots, where + ": the size of workspace '" + w.name + "'");
    if (bytes < 0) {
      throw RuntimeError(where + ": workspace '" + w.name + "' has a negative size (" +
                         std::to_string(bytes) + " bytes)");
    }
    workspaces.push_back(device_pool->allocate(static_cast<size_t>(bytes)));
    buffers.push_back(workspaces.back()->buffer);
  }
  for (const KernelLaunchInfo& launch : kf.launches) {
    if (launch.kernel < 0 || static_cast<size_t>(launch.kernel) >= backend->kernels.size()) {
      throw RuntimeError(where + ": launch of kernel #" + std::to_string(launch.kernel) +
                         ", outside the backend's " + std::to_string(backend->kernels.size()) +
                         " kernels");
    }
    const KernelBinary& binary = backend->kernels[static_cast<size_t>(launch.kernel)];
    std::string kernel = where + ", kernel '" + binary.name + "'";
    std::array<uint32_t, 3> grid{};
    bool empty = false;
    for (int axis = 0; axis < 3; ++axis) {
      int64_t g = evaluate_int_program(launch.grid[static_cast<size_t>(axis)], slots,
                                       kernel + ": the grid size");
      if (g > std::numeric_limits<uint32_t>::max()) {
        throw RuntimeError(kernel + " needs a grid of " + std::to_string(g) + " blocks on axis " +
                           std::to_string(axis));
      }
      if (g <= 0) empty = true;
      grid[static_cast<size_t>(axis)] = static_cast<uint32_t>(std::max<int64_t>(g, 0));
    }
    if (empty) continue;  // no element to compute
    std::vector<DeviceBuffer> kernel_buffers;
    for (int32_t b : launch.buffer_args) {
      if (b < 0 || static_cast<size_t>(b) >= buffers.size()) {
        throw RuntimeError(kernel + ": buffer argument #" + std::to_string(b) + " is outside the " +
                           std::to_string(buffers.size()) + " buffers and workspaces");
      }
      kernel_buffers.push_back(buffers[static_cast<size_t>(b)]);
    }
    std::vector<int64_t> scalars;
    for (const IntProgram& s : launch.scalar_args) {
      scalars.push_back(evaluate_int_program(s, slots, kernel + ": a scalar argument"));
    }
    std::optional<KernelId>& id = kernel_ids[static_cast<size_t>(launch.kernel)];
    if (!id.has_value()) id = device.load_kernel(binary);
    device.launch(*id, grid, kernel_buffers, scalars);
  }
}

void VirtualMachine::Impl::run_host_func(const FunctionEntry& entry, std::span<const Value> args) {
  if (entry.index < 0 || static_cast<size_t>(entry.index) >= exe->host_funcs.size()) {
    throw RuntimeError("host function '" + entry.name + "' is not in the executable");
  }
  const HostFunc& hf = exe->host_funcs[static_cast<size_t>(entry.index)];
  std::string where = "host function '" + hf.name + "'";
  if (args.size() != 1 || args[0].kind() != Value::Kind::Tensor) {
    throw RuntimeError(where + " takes the shape heap (an int64 host tensor)");
  }
  const Tensor& heap = args[0].as_tensor();
  if (!heap.on_host() || heap.storage == nullptr || heap.dtype != DType::Int(64) ||
      heap.shape.size() != 1 || heap.byte_offset != 0) {
    throw RuntimeError(where +
                       " takes the shape heap (an int64 host tensor), got a tensor of dtype " +
                       heap.dtype.str() + " and shape " + shape_text(heap.shape) +
                       (heap.on_host() ? "" : " on the device"));
  }
  auto* data = reinterpret_cast<int64_t*>(heap.storage->host.data());
  std::span<int64_t> slots(data, static_cast<size_t>(heap.shape[0]));
  for (const auto& [slot, program] : hf.stores) {
    if (slot < 0 || static_cast<size_t>(slot) >= slots.size()) {
      throw RuntimeError(where + ": heap slot " + std::to_string(slot) +
                         " is outside the heap of " + std::to_string(slots.size()) + " slots");
    }
    slots[static_cast<size_t>(slot)] =
        evaluate_int_program(program, slots, where + ": heap[" + std::to_string(slot) + "]");
  }
}

}  // namespace relaxc::runtime::vm
