// The parser of the text format (docs/text_format.md): TVMScript as TVM 0.23 writes it
// (T.block or T.sblock both accepted).
#pragma once

#include <string>
#include <string_view>

#include "ir/module.h"

namespace relaxc::text {

// Parses a module. Relax functions are built through the normalizer, so the result
// is normalized and every expression has its StructInfo. Any error (syntax, unknown
// name or operator, wrong argument count, a StructInfo mismatch the normalizer finds)
// throws UserError with file:line:col diagnostics; no input crashes the parser.
IRModule parse_module(std::string_view text, const std::string& filename = "<input>");

}  // namespace relaxc::text
