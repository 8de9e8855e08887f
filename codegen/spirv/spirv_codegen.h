// SPIR-V code generation: a lowered device kernel becomes one SPIR-V module for Vulkan.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/target/target.h"
#include "ir/tir/lowered_func.h"

namespace relaxc::codegen {

struct TargetBackend;

// One SPIR-V module with one GLCompute entry point named after the kernel. Buffers are
// storage buffers in descriptor set 0, binding i for the i-th buffer param; the scalar
// params are push constants, one 32-bit member each at offset 4*i (an int64 scalar
// takes 8 bytes, aligned to 8); the workgroup size is the kernel's block size.
struct SpirvKernel {
  std::string entry_point;
  std::vector<uint32_t> words;
  std::array<int64_t, 3> workgroup_size = {1, 1, 1};
  int num_buffers = 0;
  int push_constant_bytes = 0;
};

// Emits the kernel. Uses only what `target` has (fp16, int8, int64, subgroup operations
// behind their capabilities); anything else is a UserError naming the expression's
// dtype and the kernel.
SpirvKernel codegen_spirv(const tir::DeviceKernel& kernel, const Target& target);

// SPIRV-Tools' validator for the Vulkan environment of `vulkan_version` (11 or 13):
// the validator's messages, empty when the module is valid.
std::string validate_spirv(const std::vector<uint32_t>& words, int vulkan_version);
// spirv-opt's performance passes; the input must be valid.
std::vector<uint32_t> optimize_spirv(const std::vector<uint32_t>& words, int vulkan_version);
// The module as SPIR-V assembly text (for tests and `relaxc codegen --emit=asm`).
std::string disassemble_spirv(const std::vector<uint32_t>& words);

// The SPIR-V back end (Vulkan targets) for the registry (codegen/target_backend.h).
TargetBackend spirv_backend();

}  // namespace relaxc::codegen
