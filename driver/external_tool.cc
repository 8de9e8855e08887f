// Installed tools run on a kernel's code through a private temporary file.
#include "driver/external_tool.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string_view>

namespace relaxc::driver {

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

// The paths are ours (the tool's from find_tool, the file from mkstemp), quoted.
ToolRun run_tool(const std::string& tool, const std::string& args,
                 const std::vector<uint8_t>& code) {
  const char* tmp = std::getenv("TMPDIR");
  std::string file =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/relaxc-tool-XXXXXX";
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

}  // namespace relaxc::driver
