// The minimum build: the VM lowering pipeline, then VM code generation.
#include "codegen/vm/build.h"

#include "codegen/vm/vm_codegen.h"
#include "ir/support/diagnostics.h"

namespace relaxc::codegen {

runtime::vm::Executable build(const IRModule& module, const std::vector<Target>& targets,
                              const PipelineOptions& options) {
  RELAXC_ICHECK(!targets.empty()) << "build needs at least one target";
  return vm_codegen(vm_lowering_pipeline(module, options), targets);
}

}  // namespace relaxc::codegen
