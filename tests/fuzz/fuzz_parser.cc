// libFuzzer harness for the text parser, the normalizer (which the parser builds Relax
// functions through), the well-formedness checker and the printer.
//
// The oracle: an input either parses or throws a UserError with a diagnostic located
// inside the input; a module that parses passes through the checker, prints, reads back
// to a structurally equal module, and prints the same the second time. Anything else
// (another exception, an InternalError, a sanitizer report) is a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>

#include "ir/module.h"
#include "ir/relax/well_formed.h"
#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/support/source_scope.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "tests/support/rejection_check.h"

namespace relaxc {
namespace {

// Inputs larger than this are not kept in the corpus; the seeds are far smaller.
constexpr size_t kMaxInputBytes = 16 * 1024;

[[noreturn]] void fail(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_parser: %s\n%s\n", what.c_str(), detail.c_str());
  std::abort();
}

void check_round_trip(const IRModule& module) {
  (void)relax::check_well_formed(module);
  std::string printed = text::print_module(module);
  IRModule reparsed;
  try {
    reparsed = text::parse_module(printed, "printed.py");
  } catch (const UserError& e) {
    fail("the printed form of an accepted module does not parse",
         std::string(e.what()) + "\n---- printed ----\n" + printed);
  }
  if (std::optional<std::string> mismatch = structural_mismatch(module, reparsed)) {
    fail("the printed form of an accepted module reads back different: " + *mismatch,
         "---- printed ----\n" + printed);
  }
  std::string reprinted = text::print_module(reparsed);
  if (reprinted != printed) {
    fail("printing is not stable",
         "---- printed ----\n" + printed + "---- printed again ----\n" + reprinted);
  }
}

}  // namespace
}  // namespace relaxc

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace relaxc;
  if (size > kMaxInputBytes) return -1;  // not added to the corpus
  // Declared first, so that it ends last: the texts of this input and of its printed
  // form are freed after every module and error that points into them.
  SourceFileScope sources;
  std::string_view input(reinterpret_cast<const char*>(data), size);
  IRModule module;
  try {
    module = text::parse_module(input, "fuzz.py");
  } catch (const UserError& e) {
    if (std::optional<std::string> problem = rejection_problem(e)) fail(*problem, e.what());
    return 0;
  }
  check_round_trip(module);
  return 0;
}
