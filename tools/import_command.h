// relaxc import: an ONNX model written as a text module.
#pragma once
#include <string>

#include "tools/cli.h"

namespace relaxc::tools {

int run_import(const CommandLine& cl);
std::string import_help();

}  // namespace relaxc::tools
