// Running ptxas on PTX text from a temporary file.
#include "tests/support/ptxas.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace relaxc::testing {
namespace {

bool is_executable(const std::string& path) { return access(path.c_str(), X_OK) == 0; }

std::string temp_folder() {
  std::error_code error;
  std::filesystem::path folder = std::filesystem::temp_directory_path(error);
  return error ? std::string("/tmp") : folder.string();
}

}  // namespace

std::string find_ptxas() {
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != 0) {
    std::string path = std::string(home) + "/bin/ptxas";
    if (is_executable(path)) return path;
  }
  if (is_executable("/usr/local/cuda/bin/ptxas")) return "/usr/local/cuda/bin/ptxas";
  if (const char* path = std::getenv("PATH")) {
    std::string folders = path;
    size_t begin = 0;
    while (begin <= folders.size()) {
      size_t end = folders.find(':', begin);
      if (end == std::string::npos) end = folders.size();
      std::string candidate = folders.substr(begin, end - begin) + "/ptxas";
      if (end > begin && is_executable(candidate)) return candidate;
      begin = end + 1;
    }
  }
  return "";
}

PtxasResult run_ptxas(const std::string& ptxas, const std::string& ptx, int arch, bool verbose) {
  PtxasResult result;
  std::string base = temp_folder() + "/relaxc_ptxas_XXXXXX";
  int fd = mkstemp(base.data());
  if (fd < 0) {
    result.messages = "cannot create a temporary file for ptxas";
    return result;
  }
  close(fd);
  std::string input = base + ".ptx";
  std::string output = base + ".cubin";
  {
    std::ofstream file(input, std::ios::binary);
    file << ptx;
  }
  // The paths are ours (mkstemp's), free of shell metacharacters; ptxas's path is quoted.
  std::string command = "'" + ptxas + "' -arch=sm_" + std::to_string(arch) +
                        (verbose ? " -v" : "") + " -o " + output + " " + input + " 2>&1";
  if (FILE* pipe = popen(command.c_str(), "r")) {
    std::array<char, 4096> chunk;
    size_t n = 0;
    while ((n = fread(chunk.data(), 1, chunk.size(), pipe)) > 0)
      result.messages.append(chunk.data(), n);
    int status = pclose(pipe);
    result.ok = status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  } else {
    result.messages = "cannot run " + command;
  }
  std::remove(input.c_str());
  std::remove(output.c_str());
  std::remove(base.c_str());
  return result;
}

}  // namespace relaxc::testing
