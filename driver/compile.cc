// Compiling TensorIR functions for a target, and the target of a device.
#include "driver/compile.h"

#include "passes/tir/lower_to_kernels.h"

namespace relaxc::driver {

codegen::CompiledPrimFunc compile_prim_func(const tir::PrimFunc& func, const std::string& name,
                                            const Target& target) {
  return codegen::compile_lowered(tir::lower_to_kernels(func, name, target), target);
}

std::vector<std::pair<std::string, codegen::CompiledPrimFunc>> compile_module(
    const IRModule& mod, const Target& target, const PipelineOptions& options) {
  std::vector<std::pair<std::string, codegen::CompiledPrimFunc>> out;
  for (tir::LoweredFunc& lowered : kernel_pipeline(mod, target, options)) {
    std::string name = lowered.name;
    out.emplace_back(std::move(name), codegen::compile_lowered(std::move(lowered), target));
  }
  return out;
}

Target target_from_device(const runtime::DeviceLimits& limits, TargetKind kind) {
  Target t = codegen::backend_for(kind).device_target(limits);
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
  return t;
}

}  // namespace relaxc::driver
