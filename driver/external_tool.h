// Running an installed command-line tool (spirv-val, ptxas) on a kernel's code: how
// `relaxc inspect --verify` checks kernels and the kernel report reads ptxas's register
// counts.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relaxc::driver {

// The path of the executable `name` on PATH (then in `extra_dir`), or nullopt.
std::optional<std::string> find_tool(const std::string& name, const std::string& extra_dir);

struct ToolRun {
  int status = 0;      // pclose's status: 0 when the tool succeeded
  std::string output;  // its standard output and standard error together
};

// Runs `tool args FILE` with `code` in FILE (a private temporary file, removed afterwards).
ToolRun run_tool(const std::string& tool, const std::string& args,
                 const std::vector<uint8_t>& code);

// ptxas's -arch for PTX code: its own ".target sm_NN" (sm_80 where it names none).
std::string ptx_arch(const std::vector<uint8_t>& code);

}  // namespace relaxc::driver
