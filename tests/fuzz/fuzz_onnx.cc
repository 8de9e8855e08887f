// libFuzzer harness for the ONNX importer: protobuf parsing, the ONNX checker, opsets,
// the import-time shape computation and every operator converter, then the
// well-formedness checker and the printer on what it imports.
//
// The oracle: an input either imports or throws a UserError whose message starts with
// the model's name; a module that imports is well formed and prints. Anything else
// (another exception, an InternalError, a sanitizer report) is a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "frontend/onnx/importer.h"
#include "ir/module.h"
#include "ir/relax/well_formed.h"
#include "ir/support/diagnostics.h"
#include "ir/support/source_scope.h"
#include "ir/text/printer.h"

namespace relaxc {
namespace {

constexpr const char* kModelName = "fuzz.onnx";

[[noreturn]] void fail(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_onnx: %s\n%s\n", what.c_str(), detail.c_str());
  std::abort();
}

}  // namespace
}  // namespace relaxc

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace relaxc;
  SourceFileScope sources;  // ends last: the texts the printer's checks read
  IRModule module;
  try {
    module = onnx_import::import_model(std::span<const uint8_t>(data, size), kModelName);
  } catch (const UserError& e) {
    for (const Diagnostic& diagnostic : e.diagnostics()) {
      if (diagnostic.message.rfind(std::string(kModelName) + ": ", 0) != 0) {
        fail("an import error that does not name the model", e.what());
      }
    }
    return 0;
  }
  DiagnosticList problems = relax::check_well_formed(module);
  if (problems.has_errors()) fail("an imported module is not well formed", problems.render());
  (void)text::print_module(module);
  return 0;
}
