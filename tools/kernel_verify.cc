// verify_kernels: each kernel written to a temporary file and given to spirv-val or
// ptxas, found on PATH (ptxas also in /usr/local/cuda/bin, where the toolkit puts it).
#include "tools/kernel_verify.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <string_view>

namespace relaxc::tools {
namespace {

// The path of the executable `name` on PATH (then in `extra_dir`), or nullopt.
std::optional<std::string> find_tool(const std::string& name, const std::string& extra_dir) {
  const char* path = std::getenv("PATH");
  std::string dirs = path != nullptr ? path : "";
  dirs += ":" + extra_dir;
  std::istringstream in(dirs);
  for (std::string dir; std::getline(in, dir, ':');) {
    if (dir.empty()) continue;
    std::string candidate = dir + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

struct ToolRun {
  int status = 0;
  std::string output;
};

// Runs `tool args FILE` with `code` in FILE (a private temporary file), stdout and stderr
// together. The paths are ours (the tool's from find_tool, the file from mkstemp), quoted.
ToolRun run_tool(const std::string& tool, const std::string& args,
                 const std::vector<uint8_t>& code) {
  const char* tmp = std::getenv("TMPDIR");
  std::string file =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/relaxc-verify-XXXXXX";
  int fd = mkstemp(file.data());
  if (fd < 0) return {-1, "cannot create a temporary file"};
  bool written = write(fd, code.data(), code.size()) == static_cast<ssize_t>(code.size());
  close(fd);
  ToolRun run;
  if (!written) {
    run = {-1, "cannot write a temporary file"};
  } else {
    std::string command = "'" + tool + "' " + args + " '" + file + "' 2>&1";
    if (FILE* pipe = popen(command.c_str(), "r"); pipe == nullptr) {
      run = {-1, "cannot run " + tool};
    } else {
      char buffer[4096];
      for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0;) {
        run.output.append(buffer, n);
      }
      run.status = pclose(pipe);
    }
  }
  std::remove(file.c_str());
  return run;
}

// spirv-val's --target-env for the module's SPIR-V version (what the Vulkan target chose).
std::string spirv_target_env(const std::vector<uint8_t>& code) {
  const uint32_t minor = code.size() >= 8 ? code[5] : 0;
  if (minor >= 6) return "vulkan1.3";
  if (minor >= 5) return "vulkan1.2";
  return "vulkan1.1";
}

// ptxas's -arch: the PTX's own ".target sm_NN".
std::string ptx_arch(const std::vector<uint8_t>& code) {
  std::string_view text(reinterpret_cast<const char*>(code.data()), code.size());
  size_t at = text.find(".target ");
  if (at == std::string_view::npos) return "sm_80";
  at += std::string_view(".target ").size();
  size_t end = at;
  while (end < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) {
    ++end;
  }
  return std::string(text.substr(at, end - at));
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
