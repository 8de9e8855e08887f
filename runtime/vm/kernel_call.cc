// Calls of kernel functions and host shape functions. A kernel call checks that its
// arguments are device tensors (and a shape of tir_vars), then launch_kernel_func binds,
// checks and enqueues the launches without waiting, its workspaces from the pool.
#include <string>

#include "runtime/vm/builtins.h"
#include "runtime/vm/kernel_launch.h"
#include "runtime/vm/vm_impl.h"

namespace relaxc::runtime::vm {
namespace {

std::string ordinal_text(size_t i) { return "argument " + std::to_string(i); }

}  // namespace

void VirtualMachine::Impl::launch_kernel(const FunctionEntry& entry, std::span<const Value> args) {
  if (backend == nullptr || entry.index < 0 ||
      static_cast<size_t>(entry.index) >= backend->kernel_funcs.size()) {
    runtime_error() << "kernel function '" << entry.name << "' is not in the executable's "
                    << (backend == nullptr ? std::string("kernels (it has none)")
                                           : backend->target + " kernels");
  }
  const KernelFunc& kf = backend->kernel_funcs[static_cast<size_t>(entry.index)];
  // Messages are built only when a check fails: a call allocates nothing to check.
  auto where = [&] { return "kernel function '" + kf.name + "'"; };
  bool has_scalars = !kf.scalar_param_slots.empty();
  size_t expected_args = kf.params.size() + (has_scalars ? 1 : 0);
  if (args.size() != expected_args) {
    runtime_error() << where() << " takes " << kf.params.size() << " buffers"
                    << (has_scalars ? " and a shape of scalars" : "") << ", got " << args.size()
                    << " arguments";
  }
  // What only values can get wrong is checked here; launch_kernel_func checks the rest.
  std::vector<KernelBufferArg>& buffers = kernel_buffer_args;
  buffers.clear();
  for (size_t i = 0; i < kf.params.size(); ++i) {
    auto buffer = [&] { return where() + ": buffer '" + kf.params[i].name + "'"; };
    if (args[i].kind() != Value::Kind::Tensor) {
      runtime_error() << buffer() << " (" << ordinal_text(i) << ") is given "
                      << kind_with_article(args[i]) << ", expected a tensor";
    }
    const Tensor& t = args[i].as_tensor();
    if (t.on_host() || t.storage->device != &device) {
      runtime_error() << buffer() << " is given a tensor "
                      << (t.on_host() ? std::string("in host memory") : "on another device")
                      << "; kernels read tensors on device '" << device.limits().name
                      << "' (copy it with vm.builtin.to_device)";
    }
    if (t.byte_offset != 0) {
      runtime_error() << buffer() << " is given a tensor at byte offset " << t.byte_offset
                      << " of its storage; kernels take tensors at offset 0";
    }
    buffers.push_back(KernelBufferArg{t.storage->buffer, t.dtype, t.shape});
  }
  std::span<const int64_t> scalars;
  if (has_scalars) {
    const Value& s = args[kf.params.size()];
    if (s.kind() != Value::Kind::Shape) {
      runtime_error() << where() << ": the scalar arguments (argument " << kf.params.size()
                      << ") are given " << kind_with_article(s) << ", expected a shape";
    }
    scalars = s.as_shape();
  }
  // Workspaces live until the launches are enqueued: a block returned to the pool is
  // only handed to later work on the same in-order stream.
  std::vector<std::shared_ptr<Storage>> workspaces;
  launch_kernel_func(
      device, kf, backend->kernels, kernel_ids, buffers, scalars,
      [&](size_t, size_t bytes) {
        workspaces.push_back(device_pool->allocate(bytes, "a kernel workspace"));
        return workspaces.back()->buffer;
      },
      launch_scratch);
}

void VirtualMachine::Impl::run_host_func(const FunctionEntry& entry, std::span<const Value> args) {
  if (entry.index < 0 || static_cast<size_t>(entry.index) >= exe->host_funcs.size()) {
    runtime_error() << "host function '" << entry.name << "' is not in the executable";
  }
  const HostFunc& hf = exe->host_funcs[static_cast<size_t>(entry.index)];
  std::string where = "host function '" + hf.name + "'";
  if (args.size() != 1 || args[0].kind() != Value::Kind::Tensor) {
    runtime_error() << where << " takes the shape heap (an int64 host tensor)";
  }
  const Tensor& heap = args[0].as_tensor();
  if (!heap.on_host() || heap.storage == nullptr || heap.dtype != DType::Int(64) ||
      heap.shape.size() != 1 || heap.byte_offset != 0) {
    runtime_error() << where
                    << " takes the shape heap (an int64 host tensor), got a tensor of dtype "
                    << heap.dtype.str() << " and shape " << shape_text(heap.shape)
                    << (heap.on_host() ? "" : " on the device");
  }
  auto* data = reinterpret_cast<int64_t*>(heap.storage->host.data());
  std::span<int64_t> slots(data, static_cast<size_t>(heap.shape[0]));
  for (const auto& [slot, program] : hf.stores) {
    if (slot < 0 || static_cast<size_t>(slot) >= slots.size()) {
      runtime_error() << where << ": heap slot " << slot << " is outside the heap of "
                      << slots.size() << " slots";
    }
    slots[static_cast<size_t>(slot)] =
        evaluate_int_program(program, slots, where + ": heap[" + std::to_string(slot) + "]");
  }
}

}  // namespace relaxc::runtime::vm
