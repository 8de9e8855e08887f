// The NVPTX target machine for an sm_XX architecture, LLVM's optimization pipeline, and
// PTX emission: the LLVM half of the CUDA code generator.
#pragma once
#include <memory>
#include <string>

#include "ir/target/target.h"

namespace llvm {
class Module;
class TargetMachine;
}  // namespace llvm

namespace relaxc::codegen {

// "nvptx64-nvidia-cuda".
extern const char* const kNvptxTriple;

// A target machine for nvptx64-nvidia-cuda with CPU sm_<target.cuda_arch> and the PTX ISA
// version that architecture needs (sm_70: PTX 6.0, sm_80: 7.0, sm_90: 7.8, ...). An
// architecture LLVM's NVPTX back end lacks is a UserError naming it and those it has.
// Initializes the NVPTX target (once, thread-safely) on first use.
std::unique_ptr<llvm::TargetMachine> nvptx_target_machine(const Target& target);

// The PTX ISA version `nvptx_target_machine` uses for `arch`, as PTX writes it ("7.8");
// empty if the architecture is not supported.
std::string ptx_isa_version(int cuda_arch);

// Runs LLVM's O3 pipeline on `module` (whose triple and data layout are the machine's).
void optimize_module(llvm::Module& module, llvm::TargetMachine& machine);

// The module as PTX text, through the NVPTX back end.
std::string emit_ptx(llvm::Module& module, llvm::TargetMachine& machine);

}  // namespace relaxc::codegen
