// Launching a compiled TensorIR function from the host on a runtime device: shape
// variables bound from the arguments' shapes, grid sizes and scalar arguments evaluated,
// workspaces allocated (for tests, benchmarks and embedders that run kernels alone).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "codegen/target_backend.h"
#include "runtime/device.h"
#include "runtime/vm/executable.h"

namespace relaxc::driver {

// One argument of a launch: a device buffer and the shape of the tensor it holds.
struct BufferArg {
  runtime::DeviceBuffer buffer;
  std::vector<int64_t> shape;
};

// Launches `func` on `device` with runtime::vm::launch_kernel_func, the VM's kernel call:
// the function's host side is made once (kernel_func_codegen; a shape variable that no
// buffer dimension or scalar param binds is a UserError), the kernels loaded once. Each
// launch maps `scalars` (by name) onto the scalar params, binds the shape variables from
// the arguments' shapes, checks every shape against the function's buffers (a mismatch
// is a runtime::RuntimeError naming the buffer, the dimension, the expected and the
// actual value), takes workspaces (kept and reused between launches) and enqueues the
// kernels in order. Returns without waiting. The arguments carry no dtype: they are
// taken to hold the function's buffer dtypes.
class PrimFuncLauncher {
 public:
  PrimFuncLauncher(runtime::Device& device, const codegen::CompiledPrimFunc& func);
  ~PrimFuncLauncher();
  PrimFuncLauncher(const PrimFuncLauncher&) = delete;
  PrimFuncLauncher& operator=(const PrimFuncLauncher&) = delete;

  void launch(std::span<const BufferArg> args, const std::map<std::string, int64_t>& scalars = {});

 private:
  runtime::Device& device_;
  const codegen::CompiledPrimFunc& func_;
  runtime::vm::KernelFunc kernel_func_;  // launches[k] runs func_.binaries[k]
  std::vector<std::optional<runtime::KernelId>> kernel_ids_;
  std::vector<runtime::DeviceBuffer> workspaces_;  // released when the launcher goes
};

}  // namespace relaxc::driver
