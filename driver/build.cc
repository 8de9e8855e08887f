// The driver's build: the VM lowering pipeline, the kernel pipeline and a back end per
// target, then VM code generation.
#include "driver/build.h"

#include "codegen/vm/vm_codegen.h"
#include "driver/compile.h"
#include "ir/support/diagnostics.h"

namespace relaxc::driver {

runtime::vm::Executable vm_executable(const IRModule& vm_module, const std::vector<Target>& targets,
                                      const PipelineOptions& options) {
  IRModule kernels = codegen::kernel_functions(vm_module);
  std::vector<codegen::CompiledKernels> backends;
  if (!kernels->functions.empty()) {
    for (const Target& target : targets) {
      codegen::CompiledKernels compiled{target, {}};
      for (auto& [name, func] : compile_module(kernels, target, options)) {
        compiled.funcs.push_back(std::move(func));
      }
      backends.push_back(std::move(compiled));
    }
  }
  return codegen::vm_codegen(vm_module, backends);
}

runtime::vm::Executable build(const IRModule& module, const std::vector<Target>& targets,
                              const PipelineOptions& options) {
  RELAXC_ICHECK(!targets.empty()) << "build needs at least one target";
  return vm_executable(vm_lowering_pipeline(module, options), targets, options);
}

}  // namespace relaxc::driver
