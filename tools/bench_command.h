// relaxc bench: a function of a program timed on a device.
#pragma once
#include <string>

#include "tools/cli.h"

namespace relaxc::tools {

int run_bench(const CommandLine& cl);
std::string bench_help();

}  // namespace relaxc::tools
