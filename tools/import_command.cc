// relaxc import: an ONNX model imported (frontend/onnx) and printed as TVMScript.
#include "tools/import_command.h"

#include "driver/module_files.h"
#include "frontend/onnx/importer.h"
#include "ir/text/printer.h"

namespace relaxc::tools {
namespace {

constexpr const char* kImportHelp =
    R"(Usage: relaxc import FILE.onnx [-o OUTPUT]

Imports the ONNX model FILE (opsets 1 to 17 of the default domain, those before 7
updated to 7 by ONNX's version converter; '-' reads standard input) and prints it as a text module (TVMScript) with one function 'main':
  - its parameters are the graph's inputs (inputs that have an initializer are
    constants); a dim_param dimension is a shape variable of that name, shared by every
    input that names it, and an unnamed dynamic dimension a shape variable of its own;
  - the initializers and Constant nodes are constants;
  - each node becomes the bindings of its converter, in one dataflow block;
  - the result is the graph's outputs, a tuple when there are several, their ONNX names
    kept in the function attribute "onnx_output_names".
A model relaxc cannot import (a corrupt file, an opset outside 7 to 17, an operator of
another domain, an unknown operator or an attribute value relaxc cannot express) is an
error naming the node, its op type and opset, and exits 1. 'relaxc build' and
'relaxc run' also take FILE.onnx directly (a file named *.onnx is read as ONNX).

Options:
  -o OUTPUT    write the module to OUTPUT instead of standard output; its constants of
               more than 64 elements (the weights) go to a side file next to it,
               OUTPUT with the extension .safetensors, which 'relaxc build OUTPUT'
               reads back (docs/text_format.md, "Weights")
  -h, --help   print this help
)";

}  // namespace

std::string import_help() { return kImportHelp; }

int run_import(const CommandLine& cl) {
  const IRModule module = onnx_import::import_model_file(cl.input);
  if (cl.output && *cl.output != "-") {
    driver::write_module_with_weights(module, *cl.output);
  } else {
    write_output(cl, text::print_module(module));
  }
  return kExitSuccess;
}

}  // namespace relaxc::tools
