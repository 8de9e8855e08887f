// lower_to_kernels: the kernel lowering pipeline, a straight list of the steps in
// kernel_lowering_steps.h.
#include "passes/tir/lower_to_kernels.h"

#include "passes/tir/kernel_lowering_steps.h"

namespace relaxc::tir {

int DeviceKernel::num_buffer_params() const {
  return func.defined() ? static_cast<int>(func->buffer_map.size()) : 0;
}

std::vector<Buffer> LoweredFunc::buffers() const {
  std::vector<Buffer> all = params;
  all.insert(all.end(), workspaces.begin(), workspaces.end());
  return all;
}

LoweredFunc lower_to_kernels(const PrimFunc& func, const std::string& name, const Target& target) {
  PrimFunc loops =
      lower_blocks(lower_cross_thread_reduction(unify_thread_bindings(func), target));
  LoweredFunc lowered = split_host_device(loops, name, target);
  lowered.source = func;
  for (KernelLaunch& launch : lowered.launches) {
    DeviceKernel& kernel = launch.kernel;
    PrimFunc f = insert_shared_barriers(kernel.func);
    f = compact_buffer_allocations(f);
    f = flatten_buffers(f);
    f = narrow_to_int32(f);
    kernel.func = simplify_kernel(f);
    kernel.shared_memory_bytes = shared_memory_bytes(kernel.func);
    check_kernel_limits(launch, target);
  }
  return lowered;
}

}  // namespace relaxc::tir
