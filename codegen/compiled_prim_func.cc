// Compiling scheduled PrimFuncs to device binaries, and launching them from the host.
#include "codegen/compiled_prim_func.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "codegen/cuda/cuda_codegen.h"
#include "codegen/spirv/spirv_codegen.h"
#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "ir/tir/functor.h"
#include "passes/tir/default_gpu_schedule.h"

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

using HostValues = tir::VarMap;

// The value of an expression over the host vars, or nullopt if one of them is unbound.
std::optional<int64_t> evaluate(const tir::PrimExpr& e, const HostValues& values) {
  tir::PrimExpr folded = arith::simplify(tir::substitute(e, values));
  if (const auto* imm = folded.as<tir::IntImmNode>()) return imm->value;
  return std::nullopt;
}

int64_t evaluate_or_throw(const tir::PrimExpr& e, const HostValues& values,
                          const std::string& what) {
  std::optional<int64_t> v = evaluate(e, values);
  if (!v) throw runtime::RuntimeError("cannot evaluate " + what + ": a shape variable is unbound");
  return *v;
}

int64_t element_count(const tir::Buffer& buffer, const HostValues& values) {
  int64_t n = 1;
  for (size_t d = 0; d < buffer->shape.size(); ++d) {
    n *= evaluate_or_throw(
        buffer->shape[d], values,
        "dimension " + std::to_string(d) + " of workspace '" + buffer->name + "'");
  }
  return n;
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
  for (const runtime::KernelBinary& binary : func.binaries) {
    kernel_ids_.push_back(device.load_kernel(binary));
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
  const tir::LoweredFunc& lowered = func_.lowered;
  const std::string& fname = lowered.name;
  if (args.size() != lowered.params.size()) {
    throw runtime::RuntimeError("function '" + fname + "' takes " +
                                std::to_string(lowered.params.size()) + " buffers, got " +
                                std::to_string(args.size()));
  }
  HostValues values;
  for (const tir::Var& param : lowered.source->params) {
    if (lowered.source->buffer_of(param).defined()) continue;
    auto it = scalars.find(param->name);
    if (it == scalars.end()) {
      throw runtime::RuntimeError("function '" + fname + "': no value for scalar parameter '" +
                                  param->name + "'");
    }
    values[param] = tir::int_imm(param->dtype, it->second);
  }
  // Dims that are a plain variable define it; then every dim is checked.
  for (size_t i = 0; i < args.size(); ++i) {
    const tir::Buffer& buffer = lowered.params[i];
    if (args[i].shape.size() != buffer->shape.size()) {
      throw runtime::RuntimeError("function '" + fname + "': buffer '" + buffer->name +
                                  "' has rank " + std::to_string(buffer->shape.size()) +
                                  ", the argument has rank " +
                                  std::to_string(args[i].shape.size()));
    }
    for (size_t d = 0; d < buffer->shape.size(); ++d) {
      const auto* v = buffer->shape[d].as<tir::VarNode>();
      if (v == nullptr) continue;
      tir::Var var = buffer->shape[d].cast<tir::VarNode>();
      if (values.count(var) == 0) values[var] = tir::int_imm(var->dtype, args[i].shape[d]);
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    const tir::Buffer& buffer = lowered.params[i];
    int64_t elements = 1;
    for (size_t d = 0; d < buffer->shape.size(); ++d) {
      std::string where = "dimension " + std::to_string(d) + " of buffer '" + buffer->name +
                          "' of function '" + fname + "'";
      int64_t expected = evaluate_or_throw(buffer->shape[d], values, where);
      if (expected != args[i].shape[d]) {
        throw runtime::RuntimeError(where + ": expected " + std::to_string(expected) + ", got " +
                                    std::to_string(args[i].shape[d]));
      }
      elements *= expected;
    }
    size_t bytes = static_cast<size_t>(elements) * static_cast<size_t>(buffer->dtype.bytes());
    if (args[i].buffer.bytes < bytes) {
      throw runtime::RuntimeError("buffer '" + buffer->name + "' of function '" + fname +
                                  "' needs " + std::to_string(bytes) + " bytes, the argument has " +
                                  std::to_string(args[i].buffer.bytes));
    }
  }
  std::vector<runtime::DeviceBuffer> buffers;
  for (const BufferArg& a : args) buffers.push_back(a.buffer);
  // Workspaces: reused across launches while they are large enough.
  for (size_t w = 0; w < lowered.workspaces.size(); ++w) {
    const tir::Buffer& ws = lowered.workspaces[w];
    size_t bytes = static_cast<size_t>(std::max<int64_t>(element_count(ws, values), 1)) *
                   static_cast<size_t>(ws.get()->dtype.bytes());
    if (w < workspaces_.size() && workspaces_[w].bytes < bytes) {
      device_.synchronize();
      device_.release(workspaces_[w]);
      workspaces_[w] = device_.allocate(bytes);
    } else if (w >= workspaces_.size()) {
      workspaces_.push_back(device_.allocate(bytes));
    }
    buffers.push_back(workspaces_[w]);
  }
  for (size_t k = 0; k < lowered.launches.size(); ++k) {
    const tir::KernelLaunch& launch = lowered.launches[k];
    const std::string& kname = launch.kernel.name;
    std::array<uint32_t, 3> grid;
    for (int axis = 0; axis < 3; ++axis) {
      int64_t g = evaluate_or_throw(launch.grid_size[axis], values,
                                    "the grid size of kernel '" + kname + "'");
      if (g > std::numeric_limits<uint32_t>::max()) {
        throw runtime::RuntimeError("kernel '" + kname + "' needs a grid of " + std::to_string(g) +
                                    " blocks on axis " + std::to_string(axis));
      }
      grid[axis] = static_cast<uint32_t>(std::max<int64_t>(g, 0));
    }
    if (grid[0] == 0 || grid[1] == 0 || grid[2] == 0) continue;  // nothing to compute
    std::vector<runtime::DeviceBuffer> kernel_buffers;
    for (int index : launch.buffer_args)
      kernel_buffers.push_back(buffers.at(static_cast<size_t>(index)));
    std::vector<int64_t> kernel_scalars;
    for (const tir::PrimExpr& s : launch.scalar_args) {
      kernel_scalars.push_back(
          evaluate_or_throw(s, values, "a scalar argument of kernel '" + kname + "'"));
    }
    device_.launch(kernel_ids_[k], grid, kernel_buffers, kernel_scalars);
  }
}

}  // namespace relaxc::codegen
