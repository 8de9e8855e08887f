// Launching a compiled TensorIR function through the VM's kernel call
// (kernel_func_codegen, then launch_kernel_func).
#include "driver/prim_func_launcher.h"

#include <numeric>

#include "codegen/vm/kernel_func_codegen.h"
#include "runtime/runtime_error.h"
#include "runtime/vm/kernel_launch.h"

namespace relaxc::driver {

PrimFuncLauncher::PrimFuncLauncher(runtime::Device& device, const codegen::CompiledPrimFunc& func)
    : device_(device), func_(func) {
  std::vector<int64_t> kernel_indices(func.binaries.size());
  std::iota(kernel_indices.begin(), kernel_indices.end(), 0);
  kernel_func_ = codegen::kernel_func_codegen(func.lowered, kernel_indices);
  for (const runtime::KernelBinary& binary : func.binaries) {
    kernel_ids_.emplace_back(device.load_kernel(binary));
  }
}

PrimFuncLauncher::~PrimFuncLauncher() {
  if (workspaces_.empty()) return;
  try {
    device_.synchronize();
  } catch (const runtime::RuntimeError&) {
    // The device is lost; its buffers go with it.
  }
  for (const runtime::DeviceBuffer& b : workspaces_) device_.release(b);
}

void PrimFuncLauncher::launch(std::span<const BufferArg> args,
                              const std::map<std::string, int64_t>& scalars) {
  // The KernelFunc's scalar params are the PrimFunc's non-buffer params, in order.
  std::vector<int64_t> scalar_values;
  for (const tir::Var& param : func_.lowered.source->params) {
    if (func_.lowered.source->buffer_of(param).defined()) continue;
    auto it = scalars.find(param->name);
    if (it == scalars.end()) {
      runtime::runtime_error() << "kernel function '" << func_.lowered.name
                               << "': no value for scalar parameter '" << param->name << "'";
    }
    scalar_values.push_back(it->second);
  }
  std::vector<runtime::vm::KernelBufferArg> buffers;
  for (size_t i = 0; i < args.size(); ++i) {
    runtime::DType dtype =
        i < kernel_func_.params.size() ? kernel_func_.params[i].dtype : runtime::DType::Void();
    buffers.push_back(runtime::vm::KernelBufferArg{args[i].buffer, dtype, args[i].shape});
  }
  // Workspaces: reused across launches while they are large enough.
  auto workspace = [&](size_t index, size_t bytes) {
    if (index >= workspaces_.size()) {
      workspaces_.push_back(device_.allocate(bytes));
    } else if (workspaces_[index].bytes < bytes) {
      device_.synchronize();  // earlier launches may still use it
      device_.release(workspaces_[index]);
      workspaces_[index] = device_.allocate(bytes);
    }
    return workspaces_[index];
  };
  runtime::vm::KernelLaunchScratch scratch;
  runtime::vm::launch_kernel_func(device_, kernel_func_, func_.binaries, kernel_ids_, buffers,
                                  scalar_values, workspace, scratch);
}

}  // namespace relaxc::driver
