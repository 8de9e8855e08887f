// The NVPTX target machine, LLVM's O3 pipeline and PTX emission.
//
// Each architecture is paired with the lowest PTX ISA version that LLVM 19's NVPTX back end
// accepts for it: the `.version` of the emitted PTX then matches the architecture, and
// every driver that runs sm_XX code can JIT it. Floating-point multiplies and adds may
// fuse into FMAs, as CUDA compilers do by default (nvcc -fmad=true).
#include "codegen/cuda/nvptx_target.h"

#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <mutex>
#include <sstream>

#include "ir/support/diagnostics.h"

namespace relaxc::codegen {
namespace {

struct NvptxArch {
  int arch;
  int ptx;  // PTX ISA version times ten
};

// The architectures of LLVM 19's NVPTX back end from sm_70 up, with the PTX ISA version
// each first appeared in.
constexpr NvptxArch kArchs[] = {{70, 60}, {72, 61}, {75, 63}, {80, 70},
                                {86, 71}, {87, 74}, {89, 78}, {90, 78}};

const NvptxArch* find_arch(int arch) {
  for (const NvptxArch& a : kArchs) {
    if (a.arch == arch) return &a;
  }
  return nullptr;
}

const llvm::Target& nvptx_target() {
  // LLVM's target registry is filled once; only the NVPTX back end is needed.
  static std::once_flag once;
  std::call_once(once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  std::string error;
  const llvm::Target* target = llvm::TargetRegistry::lookupTarget(kNvptxTriple, error);
  RELAXC_ICHECK(target != nullptr) << "LLVM has no NVPTX target: " << error;
  return *target;
}

}  // namespace

const char* const kNvptxTriple = "nvptx64-nvidia-cuda";

std::string ptx_isa_version(int cuda_arch) {
  const NvptxArch* arch = find_arch(cuda_arch);
  if (arch == nullptr) return "";
  return std::to_string(arch->ptx / 10) + "." + std::to_string(arch->ptx % 10);
}

std::unique_ptr<llvm::TargetMachine> nvptx_target_machine(const Target& target) {
  RELAXC_ICHECK(target.kind == TargetKind::Cuda)
      << "an NVPTX target machine for target '" << target.str() << "'";
  const NvptxArch* arch = find_arch(target.cuda_arch);
  if (arch == nullptr) {
    std::ostringstream known;
    for (const NvptxArch& a : kArchs)
      known << (a.arch == kArchs[0].arch ? "" : ", ") << "sm_" << a.arch;
    user_error() << "target '" << target.str() << "': LLVM's NVPTX back end has no sm_"
                 << target.cuda_arch << "; expected one of " << known.str();
  }
  llvm::TargetOptions options;
  options.AllowFPOpFusion = llvm::FPOpFusion::Fast;
  std::string cpu = "sm_" + std::to_string(arch->arch);
  std::string features = "+ptx" + std::to_string(arch->ptx);
  llvm::TargetMachine* machine =
      nvptx_target().createTargetMachine(kNvptxTriple, cpu, features, options, std::nullopt,
                                         std::nullopt, llvm::CodeGenOptLevel::Aggressive);
  RELAXC_ICHECK(machine != nullptr) << "LLVM made no target machine for " << cpu;
  return std::unique_ptr<llvm::TargetMachine>(machine);
}

void optimize_module(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::LoopAnalysisManager loops;
  llvm::FunctionAnalysisManager functions;
  llvm::CGSCCAnalysisManager sccs;
  llvm::ModuleAnalysisManager modules;
  // The target machine registers its own passes (NVVMReflect, which resolves libdevice's
  // __nvvm_reflect queries, and the special registers' value ranges).
  llvm::PassBuilder builder(&machine);
  builder.registerModuleAnalyses(modules);
  builder.registerCGSCCAnalyses(sccs);
  builder.registerFunctionAnalyses(functions);
  builder.registerLoopAnalyses(loops);
  builder.crossRegisterProxies(loops, functions, sccs, modules);
  llvm::ModulePassManager pipeline =
      builder.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  pipeline.run(module, modules);
}

std::string emit_ptx(llvm::Module& module, llvm::TargetMachine& machine) {
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream stream(text);
  llvm::legacy::PassManager passes;
  bool cannot_emit =
      machine.addPassesToEmitFile(passes, stream, nullptr, llvm::CodeGenFileType::AssemblyFile);
  RELAXC_ICHECK(!cannot_emit) << "the NVPTX back end cannot emit assembly";
  passes.run(module);
  return std::string(text.str());
}

}  // namespace relaxc::codegen
