// Compiling TensorIR functions for a target through the kernel pipeline and the target's
// back end, and the target that describes a device.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "codegen/target_backend.h"
#include "ir/module.h"
#include "ir/target/target.h"
#include "passes/pipeline.h"
#include "runtime/device.h"

namespace relaxc::driver {

// Lowers `func` (already scheduled) with the kernel lowering passes and compiles each
// kernel with the target's back end (SPIR-V validated with SPIRV-Tools: a module the
// validator rejects is an internal error; PTX through LLVM).
codegen::CompiledPrimFunc compile_prim_func(const tir::PrimFunc& func, const std::string& name,
                                            const Target& target);

// The kernel pipeline (default GPU schedule where a function is not scheduled, then the
// kernel lowering) on every PrimFunc of `mod`, then the target's back end; in module
// order, by function name.
std::vector<std::pair<std::string, codegen::CompiledPrimFunc>> compile_module(
    const IRModule& mod, const Target& target, const PipelineOptions& options = {});

// The target that a device's limits describe: "vulkan -profile=device", or for CUDA the
// device's architecture (sm_NN from its compute capability) with its limits.
Target target_from_device(const runtime::DeviceLimits& limits, TargetKind kind);

}  // namespace relaxc::driver
