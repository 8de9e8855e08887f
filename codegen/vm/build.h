// The minimum build: any well-formed module -> an executable.
#pragma once
#include <vector>

#include "ir/module.h"
#include "ir/target/target.h"
#include "passes/pipeline.h"
#include "runtime/vm/executable.h"

namespace relaxc::codegen {

// vm_lowering_pipeline, then vm_codegen for `targets` (one Backend each, at least one).
runtime::vm::Executable build(const IRModule& module, const std::vector<Target>& targets,
                              const PipelineOptions& options = {});

}  // namespace relaxc::codegen
