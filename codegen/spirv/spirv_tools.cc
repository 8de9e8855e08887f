// SPIRV-Tools for the modules the SPIR-V codegen emits: validation for the Vulkan
// environment, optimization, disassembly.
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include "codegen/spirv/spirv_codegen.h"
#include "ir/support/diagnostics.h"

namespace relaxc::codegen {
namespace {

spv_target_env target_env(int vulkan_version) {
  RELAXC_ICHECK(vulkan_version == 11 || vulkan_version == 13)
      << "unsupported Vulkan version " << vulkan_version;
  return vulkan_version == 13 ? SPV_ENV_VULKAN_1_3 : SPV_ENV_VULKAN_1_1;
}

// Collects SPIRV-Tools' messages as "error: line: message" lines.
void collect_messages(spvtools::SpirvTools& tools, std::string* out) {
  tools.SetMessageConsumer([out](spv_message_level_t level, const char*,
                                 const spv_position_t& position, const char* message) {
    const char* kind = level <= SPV_MSG_ERROR ? "error" : "warning";
    *out +=
        std::string(kind) + " at word " + std::to_string(position.index) + ": " + message + "\n";
  });
}

}  // namespace

std::string validate_spirv(const std::vector<uint32_t>& words, int vulkan_version) {
  spvtools::SpirvTools tools(target_env(vulkan_version));
  std::string messages;
  collect_messages(tools, &messages);
  spvtools::ValidatorOptions options;
  // Storage buffers hold plain arrays of scalars and vectors laid out as std430.
  options.SetScalarBlockLayout(false);
  if (!tools.Validate(words.data(), words.size(), options) && messages.empty()) {
    messages = "error: the validator rejected the module without a message\n";
  }
  return messages;
}

std::vector<uint32_t> optimize_spirv(const std::vector<uint32_t>& words, int vulkan_version) {
  spvtools::Optimizer optimizer(target_env(vulkan_version));
  std::string messages;
  optimizer.SetMessageConsumer([&messages](spv_message_level_t level, const char*,
                                           const spv_position_t&, const char* message) {
    if (level <= SPV_MSG_ERROR) messages += std::string(message) + "\n";
  });
  optimizer.RegisterPerformancePasses();
  std::vector<uint32_t> out;
  RELAXC_ICHECK(optimizer.Run(words.data(), words.size(), &out))
      << "spirv-opt failed on a module the codegen emitted:\n"
      << messages;
  return out;
}

std::string disassemble_spirv(const std::vector<uint32_t>& words) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  std::string messages;
  collect_messages(tools, &messages);
  if (!tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES)) {
    return "; cannot disassemble: " + messages;
  }
  return text;
}

}  // namespace relaxc::codegen
