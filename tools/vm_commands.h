// The commands of executables: relaxc build, run and inspect.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/vm/executable.h"
#include "runtime/vm/vm.h"
#include "tools/cli.h"

namespace relaxc::tools {

int run_build(const CommandLine& cl);
int run_run(const CommandLine& cl);
int run_inspect(const CommandLine& cl);

// What run and bench share. PROGRAM (cl.input) loaded: an executable, or a text module
// or ONNX model built in memory for the device; the device that cl.device names opened
// (for an executable and "auto", one that runs its kernels).
struct LoadedProgram {
  std::shared_ptr<const runtime::vm::Executable> exe;
  std::unique_ptr<runtime::Device> device;
  std::vector<std::string> onnx_names;  // of the graph's outputs, for an ONNX model
};
LoadedProgram load_program(const CommandLine& cl);
// The arguments of the call of cl.function: one device tensor per .npy input, after
// checking that their number is the function's.
std::vector<runtime::vm::Value> load_inputs(runtime::vm::VirtualMachine& vm, const CommandLine& cl);

std::string build_help();
std::string run_help();
std::string inspect_help();

}  // namespace relaxc::tools
