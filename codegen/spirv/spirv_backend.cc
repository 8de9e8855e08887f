// The SPIR-V back end's registration: Vulkan targets, kernels as validated SPIR-V.
#include <cstring>

#include "codegen/spirv/spirv_codegen.h"
#include "codegen/target_backend.h"
#include "ir/support/diagnostics.h"

namespace relaxc::codegen {
namespace {

// A module the validator rejects is a bug of the code generator.
void compile_spirv(const tir::DeviceKernel& kernel, const Target& target,
                   runtime::KernelBinary& binary) {
  SpirvKernel spirv = codegen_spirv(kernel, target);
  std::string problems = validate_spirv(spirv.words, target.vulkan_version);
  RELAXC_ICHECK(problems.empty()) << "the SPIR-V of kernel '" << kernel.name
                                  << "' does not validate:\n"
                                  << problems;
  binary.name = spirv.entry_point;
  binary.code.resize(spirv.words.size() * sizeof(uint32_t));
  std::memcpy(binary.code.data(), spirv.words.data(), binary.code.size());
}

std::string disassemble(const runtime::KernelBinary& binary) {
  std::vector<uint32_t> words(binary.code.size() / sizeof(uint32_t));
  std::memcpy(words.data(), binary.code.data(), words.size() * sizeof(uint32_t));
  return disassemble_spirv(words);
}

// SPIR-V 1.6 where the device has Vulkan 1.3, else the Vulkan 1.1 environment.
Target vulkan_device_target(const runtime::DeviceLimits& limits) {
  Target target;
  target.kind = TargetKind::Vulkan;
  target.profile = "device";
  bool has_1_3 = limits.api_version_major > 1 ||
                 (limits.api_version_major == 1 && limits.api_version_minor >= 3);
  target.vulkan_version = has_1_3 ? 13 : 11;
  return target;
}

}  // namespace

TargetBackend spirv_backend() {
  return {TargetKind::Vulkan, "vulkan",    runtime::KernelFormat::SpirV, "; ",
          compile_spirv,      disassemble, vulkan_device_target};
}

}  // namespace relaxc::codegen
