// What a rejected input must get from the parser: diagnostics that render, one of them
// located inside the input. Shared by the parser's fuzz test and its libFuzzer harness
// (header-only: the harness links no test library).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ir/support/diagnostics.h"

namespace relaxc {

// What is wrong with `error` as a rejection ("a diagnostic located outside its
// input:\n..."), or nullopt when nothing is.
inline std::optional<std::string> rejection_problem(const UserError& error) {
  if (error.diagnostics().empty()) {
    return std::string("a UserError without diagnostics: ") + error.what();
  }
  bool located = false;
  for (const Diagnostic& diagnostic : error.diagnostics()) {
    std::string rendered = diagnostic.render();
    if (!diagnostic.span.defined()) continue;
    const SourceFile& file = *diagnostic.span.file;
    uint32_t line = diagnostic.span.line;
    if (line > file.line_starts.size() || diagnostic.span.col == 0 ||
        diagnostic.span.col > file.line(line).size() + 1) {
      return "a diagnostic located outside its input:\n" + rendered;
    }
    located = true;
  }
  if (!located) return std::string("no diagnostic has a location:\n") + error.what();
  return std::nullopt;
}

}  // namespace relaxc
