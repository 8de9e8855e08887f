// verify_kernels: each kernel given to spirv-val or ptxas (driver/external_tool.h), found
// on PATH (ptxas also in /usr/local/cuda/bin, where the toolkit puts it).
#include "tools/kernel_verify.h"

#include <optional>
#include <sstream>

#include "driver/external_tool.h"

namespace relaxc::tools {
namespace {

using driver::find_tool;
using driver::ptx_arch;
using driver::run_tool;
using driver::ToolRun;

// spirv-val's --target-env for the module's SPIR-V version (what the Vulkan target chose).
std::string spirv_target_env(const std::vector<uint8_t>& code) {
  const uint32_t minor = code.size() >= 8 ? code[5] : 0;
  if (minor >= 6) return "vulkan1.3";
  if (minor >= 5) return "vulkan1.2";
  return "vulkan1.1";
}

std::string indented(const std::string& output) {
  std::string out;
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) out += "    " + line + "\n";
  return out;
}

}  // namespace

bool verify_kernels(const runtime::vm::Executable& exe, std::string* report) {
  bool all_valid = true;
  for (size_t b = 0; b < exe.backends.size(); ++b) {
    const runtime::vm::Backend& backend = exe.backends[b];
    const bool spirv = backend.format == runtime::KernelFormat::SpirV;
    const std::string tool_name = spirv ? "spirv-val" : "ptxas";
    const std::optional<std::string> tool = find_tool(tool_name, "/usr/local/cuda/bin");
    for (const runtime::KernelBinary& kernel : backend.kernels) {
      *report += "backend " + std::to_string(b) + " (" + backend.target + "), kernel '" +
                 kernel.name + "': ";
      if (!tool) {
        *report += "not verified: " + tool_name + " is not installed\n";
        continue;
      }
      const std::string args = spirv ? "--target-env " + spirv_target_env(kernel.code)
                                     : "-arch=" + ptx_arch(kernel.code) + " -o /dev/null";
      ToolRun run = run_tool(*tool, args, kernel.code);
      if (run.status == 0) {
        *report += tool_name + ": valid\n";
      } else {
        all_valid = false;
        *report += tool_name + ": invalid\n" + indented(run.output);
      }
    }
  }
  return all_valid;
}

}  // namespace relaxc::tools
