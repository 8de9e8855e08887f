// Compiling scheduled PrimFuncs to device binaries, and launching them from the host
// through the VM's kernel call (kernel_func_codegen, then launch_kernel_func).
#include "codegen/compiled_prim_func.h"

#include <cstring>
#include <numeric>

#include "codegen/cuda/cuda_codegen.h"
#include "codegen/spirv/spirv_codegen.h"
#include "codegen/vm/kernel_func_codegen.h"
#include "ir/support/diagnostics.h"
#include "passes/tir/default_gpu_schedule.h"
#include "runtime/vm/kernel_launch.h"

namespace relaxc::codegen {
namespace {

// The kernel's code for the target: SPIR-V words (validated: a module the validator
// rejects is a bug of the code generator) or PTX text.
runtime::KernelBinary kernel_binary(const tir::DeviceKernel& kernel, const Target& target) {
  runtime::KernelBinary binary;
  if (target.kind == TargetKind::Vulkan) {
    SpirvKernel spirv = codegen_spirv(kernel, target);
    std::string problems = validate_spirv(spirv.words, target.vulkan_version);
    RELAXC_ICHECK(problems.empty())
        << "the SPIR-V of kernel '" << kernel.name << "' does not validate:\n"
        << problems;
    binary.name = spirv.entry_point;
    binary.format = runtime::KernelFormat::SpirV;
    binary.code.resize(spirv.words.size() * sizeof(uint32_t));
    std::memcpy(binary.code.data(), spirv.words.data(), binary.code.size());
  } else {
    PtxKernel ptx = codegen_ptx(kernel, target);
    binary.name = ptx.entry_point;
    binary.format = runtime::KernelFormat::Ptx;
    binary.code.assign(ptx.ptx.begin(), ptx.ptx.end());
  }
  for (int axis = 0; axis < 3; ++axis) {
    binary.block_size[axis] = static_cast<uint32_t>(kernel.block_size[axis]);
  }
  binary.num_buffers = kernel.num_buffer_params();
  const auto& params = kernel.func->params;
  for (size_t i = static_cast<size_t>(binary.num_buffers); i < params.size(); ++i) {
    binary.scalars.push_back(params[i]->dtype.bits() == 64 ? runtime::ScalarType::Int64
                                                           : runtime::ScalarType::Int32);
  }
  binary.shared_memory_bytes = static_cast<uint32_t>(kernel.shared_memory_bytes);
  return binary;
}

}  // namespace

CompiledPrimFunc compile_prim_func(const tir::PrimFunc& func, const std::string& name,
                                   const Target& target) {
  CompiledPrimFunc compiled;
  compiled.lowered = tir::lower_to_kernels(func, name, target);
  for (const tir::KernelLaunch& launch : compiled.lowered.launches) {
    compiled.binaries.push_back(kernel_binary(launch.kernel, target));
  }
  return compiled;
}

std::vector<std::pair<std::string, CompiledPrimFunc>> compile_module(const IRModule& mod,
                                                                     const Target& target) {
  std::vector<std::pair<std::string, CompiledPrimFunc>> out;
  for (const auto& [gv, func] : mod->functions) {
    const auto prim = func.as<tir::PrimFuncNode>();
    if (prim == nullptr) continue;
    tir::PrimFunc scheduled = tir::default_gpu_schedule(func.cast<tir::PrimFuncNode>(), target);
    out.emplace_back(gv->name, compile_prim_func(scheduled, gv->name, target));
  }
  return out;
}

Target target_from_device(const runtime::DeviceLimits& limits, TargetKind kind) {
  Target t = kind == TargetKind::Cuda ? cuda_target(limits.compute_capability) : Target{};
  t.kind = kind;
  if (kind == TargetKind::Vulkan) t.profile = "device";
  t.device_name = limits.name;
  t.max_threads_per_block = limits.max_threads_per_block;
  t.max_block_size = limits.max_block_size;
  t.max_grid_size = limits.max_grid_size;
  t.max_shared_memory_bytes = limits.max_shared_memory_bytes;
  t.max_push_constant_bytes = limits.max_push_constant_bytes;
  t.subgroup_size = limits.subgroup_size;
  t.supports_fp16 = limits.supports_fp16;
  t.supports_fp64 = limits.supports_fp64;
  t.supports_int8 = limits.supports_int8;
  t.supports_int16 = limits.supports_int16;
  t.supports_int64 = limits.supports_int64;
  t.supports_subgroup_arithmetic = limits.supports_subgroup_arithmetic;
  if (kind == TargetKind::Vulkan) {
    bool has_1_3 = limits.api_version_major > 1 ||
                   (limits.api_version_major == 1 && limits.api_version_minor >= 3);
    t.vulkan_version = has_1_3 ? 13 : 11;
  }
  return t;
}

PrimFuncLauncher::PrimFuncLauncher(runtime::Device& device, const CompiledPrimFunc& func)
    : device_(device), func_(func) {
  std::vector<int64_t> kernel_indices(func.binaries.size());
  std::iota(kernel_indices.begin(), kernel_indices.end(), 0);
  kernel_func_ = kernel_func_codegen(func.lowered, kernel_indices);
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
  runtime::vm::launch_kernel_func(device_, kernel_func_, func_.binaries, kernel_ids_, buffers,
                                  scalar_values, workspace);
}

}  // namespace relaxc::codegen
