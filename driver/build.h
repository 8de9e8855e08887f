// The driver's build: a module to an executable, through the pipeline's passes
// (passes/pipeline.h) and the back ends (codegen/target_backend.h).
#pragma once
#include <vector>

#include "codegen/vm/vm_codegen.h"
#include "ir/module.h"
#include "ir/target/target.h"
#include "passes/pipeline.h"
#include "runtime/vm/executable.h"

namespace relaxc::driver {

// A module in VM form to an executable: its kernel functions through the kernel pipeline
// and their target's back end once per target, then VM code generation. Where `compiled`
// is given, it receives what each target's back end compiled (the kernel report reads it).
runtime::vm::Executable vm_executable(const IRModule& vm_module, const std::vector<Target>& targets,
                                      const PipelineOptions& options = {},
                                      std::vector<codegen::CompiledKernels>* compiled = nullptr);

// Any well-formed module to an executable: the VM lowering pipeline, then vm_executable
// for `targets` (one Backend each, at least one).
runtime::vm::Executable build(const IRModule& module, const std::vector<Target>& targets,
                              const PipelineOptions& options = {},
                              std::vector<codegen::CompiledKernels>* compiled = nullptr);

}  // namespace relaxc::driver
