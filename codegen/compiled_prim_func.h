// A scheduled PrimFunc compiled for a target (its lowering and one binary per kernel),
// and how the host launches it on a runtime device: shape variables bound from the
// arguments' shapes, grid sizes and scalar arguments evaluated, workspaces allocated.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/target/target.h"
#include "passes/tir/lower_to_kernels.h"
#include "runtime/device.h"
#include "runtime/vm/executable.h"

namespace relaxc::codegen {

struct CompiledPrimFunc {
  tir::LoweredFunc lowered;
  std::vector<runtime::KernelBinary> binaries;  // one per lowered.launches[i]
};

// Lowers `func` (already scheduled) and generates code for each kernel: SPIR-V for a
// Vulkan target (validated with SPIRV-Tools: a module the validator rejects is an
// internal error), PTX for a CUDA target.
CompiledPrimFunc compile_prim_func(const tir::PrimFunc& func, const std::string& name,
                                   const Target& target);

// Applies the default GPU schedule to every PrimFunc of `mod` that is not scheduled yet,
// then compiles each; in module order.
std::vector<std::pair<std::string, CompiledPrimFunc>> compile_module(const IRModule& mod,
                                                                     const Target& target);

// The target that a device's limits describe: "vulkan -profile=device", or for CUDA the
// device's architecture (sm_NN from its compute capability) with its limits.
Target target_from_device(const runtime::DeviceLimits& limits, TargetKind kind);

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
  PrimFuncLauncher(runtime::Device& device, const CompiledPrimFunc& func);
  ~PrimFuncLauncher();
  PrimFuncLauncher(const PrimFuncLauncher&) = delete;
  PrimFuncLauncher& operator=(const PrimFuncLauncher&) = delete;

  void launch(std::span<const BufferArg> args, const std::map<std::string, int64_t>& scalars = {});

 private:
  runtime::Device& device_;
  const CompiledPrimFunc& func_;
  runtime::vm::KernelFunc kernel_func_;  // launches[k] runs func_.binaries[k]
  std::vector<std::optional<runtime::KernelId>> kernel_ids_;
  std::vector<runtime::DeviceBuffer> workspaces_;  // released when the launcher goes
};

}  // namespace relaxc::codegen
