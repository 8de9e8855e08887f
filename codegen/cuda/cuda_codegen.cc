// CUDA code generation: a lowered kernel -> LLVM IR (LlvmKernelBuilder) -> libdevice linked
// where math needs it -> LLVM's O3 pipeline -> PTX from the NVPTX back end.
//
// Every call builds in its own LLVMContext with its own target machine, so kernels may
// be compiled on several threads at once.
#include "codegen/cuda/cuda_codegen.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>

#include "codegen/cuda/libdevice.h"
#include "codegen/cuda/llvm_kernel_builder.h"
#include "codegen/cuda/nvptx_target.h"

namespace relaxc::codegen {
namespace {

// An optimized module with what it needs to become PTX; the context outlives the module.
struct OptimizedModule {
  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<llvm::TargetMachine> machine;
};

bool calls_libdevice(const llvm::Module& module) {
  for (const llvm::Function& function : module) {
    if (function.isDeclaration() && function.getName().starts_with("__nv_")) return true;
  }
  return false;
}

OptimizedModule build_optimized(const tir::DeviceKernel& kernel, const Target& target) {
  RELAXC_ICHECK(target.kind == TargetKind::Cuda)
      << "CUDA code generation for target '" << target.str() << "'";
  OptimizedModule out;
  out.machine = nvptx_target_machine(target);
  out.context = std::make_unique<llvm::LLVMContext>();
  out.module = std::make_unique<llvm::Module>(kernel.name, *out.context);
  out.module->setTargetTriple(kNvptxTriple);
  out.module->setDataLayout(out.machine->createDataLayout());
  std::string libdevice = find_libdevice();
  LlvmKernelBuilder(kernel, target, *out.module, !libdevice.empty()).run();
  std::string problems;
  llvm::raw_string_ostream stream(problems);
  RELAXC_ICHECK(!llvm::verifyModule(*out.module, &stream))
      << "kernel '" << kernel.name << "': the LLVM IR built for it is malformed: " << problems;
  if (!libdevice.empty() && calls_libdevice(*out.module)) link_libdevice(*out.module, libdevice);
  optimize_module(*out.module, *out.machine);
  return out;
}

}  // namespace

std::string codegen_llvm_ir(const tir::DeviceKernel& kernel, const Target& target) {
  OptimizedModule optimized = build_optimized(kernel, target);
  std::string text;
  llvm::raw_string_ostream stream(text);
  optimized.module->print(stream, nullptr);
  return text;
}

PtxKernel codegen_ptx(const tir::DeviceKernel& kernel, const Target& target) {
  OptimizedModule optimized = build_optimized(kernel, target);
  PtxKernel out;
  out.entry_point = kernel.name;
  out.ptx = emit_ptx(*optimized.module, *optimized.machine);
  out.block_size = kernel.block_size;
  RELAXC_ICHECK(out.ptx.find(".entry " + kernel.name + "(") != std::string::npos)
      << "kernel '" << kernel.name << "': the PTX has no entry point of that name";
  return out;
}

}  // namespace relaxc::codegen
