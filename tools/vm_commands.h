// The commands of executables: relaxc build, run and inspect.
#pragma once
#include <string>

#include "tools/cli.h"

namespace relaxc::tools {

int run_build(const CommandLine& cl);
int run_run(const CommandLine& cl);
int run_inspect(const CommandLine& cl);

std::string build_help();
std::string run_help();
std::string inspect_help();

}  // namespace relaxc::tools
