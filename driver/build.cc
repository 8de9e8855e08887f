// The driver's build: the VM lowering pipeline, the kernel pipeline and a back end per
// target, then VM code generation.
#include "driver/build.h"

#include "codegen/vm/vm_codegen.h"
#include "driver/compile.h"
#include "ir/support/diagnostics.h"

namespace relaxc::driver {

runtime::vm::Executable vm_executable(const IRModule& vm_module, const std::vector<Target>& targets,
                                      const PipelineOptions& options,
                                      std::vector<codegen::CompiledKernels>* compiled) {
  IRModule kernels = codegen::kernel_functions(vm_module);
  std::vector<codegen::CompiledKernels> backends;
  if (!kernels->functions.empty()) {
    for (const Target& target : targets) {
      codegen::CompiledKernels backend{target, {}};
      for (auto& [name, func] : compile_module(kernels, target, options)) {
        backend.funcs.push_back(std::move(func));
      }
      backends.push_back(std::move(backend));
    }
  }
  runtime::vm::Executable exe = codegen::vm_codegen(vm_module, backends);
  if (compiled != nullptr) *compiled = std::move(backends);
  return exe;
}

runtime::vm::Executable build(const IRModule& module, const std::vector<Target>& targets,
                              const PipelineOptions& options,
                              std::vector<codegen::CompiledKernels>* compiled) {
  RELAXC_ICHECK(!targets.empty()) << "build needs at least one target";
  return vm_executable(vm_lowering_pipeline(module, options), targets, options, compiled);
}

}  // namespace relaxc::driver
