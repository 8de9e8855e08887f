// CUDA code generation: a lowered device kernel becomes LLVM IR for nvptx64-nvidia-cuda
// (through LLVM's C++ API), optimized by LLVM's pipeline, then PTX from LLVM's NVPTX back
// end.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "ir/target/target.h"
#include "ir/tir/lowered_func.h"

namespace relaxc::codegen {

struct TargetBackend;

// One PTX module with one `.entry` named after the kernel. Its parameters follow the
// kernel ABI: one global pointer per buffer param, then the scalar params (int32 or
// int64) in order. The PTX ISA version and `.target` match target.cuda_arch.
struct PtxKernel {
  std::string entry_point;
  std::string ptx;
  std::array<int64_t, 3> block_size = {1, 1, 1};
};

// The kernel as optimized LLVM IR text (for tests and `relaxc codegen --emit=llvm`).
std::string codegen_llvm_ir(const tir::DeviceKernel& kernel, const Target& target);

// The kernel as PTX. A dtype or construct the architecture lacks is a UserError naming
// the kernel (fp16 arithmetic below sm_53, bf16 below sm_80).
PtxKernel codegen_ptx(const tir::DeviceKernel& kernel, const Target& target);

// The CUDA back end (PTX) for the registry (codegen/target_backend.h).
TargetBackend cuda_backend();

}  // namespace relaxc::codegen
