// The parser of the text format (docs/text_format.md): TVMScript as TVM 0.23 writes it
// (T.block or T.sblock both accepted).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/module.h"
#include "ir/support/host_tensor.h"

namespace relaxc::text {

// Parses a module. Relax functions are built through the normalizer, so the result
// is normalized and every expression has its StructInfo. Any error (syntax, unknown
// name or operator, wrong argument count, a StructInfo mismatch the normalizer finds)
// throws UserError with file:line:col diagnostics; no input crashes the parser.
IRModule parse_module(std::string_view text, const std::string& filename = "<input>");

// Where `metadata["relax.expr.Constant"][i]` (a large constant printed without its
// elements, see print_module) finds constant i: called once, at the first such
// reference, so that a module without one reads nothing; it may throw UserError. A
// parse without a loader refuses every metadata reference.
using MetadataLoader = std::function<std::vector<HostTensor>()>;
IRModule parse_module(std::string_view text, const std::string& filename,
                      MetadataLoader load_metadata);

}  // namespace relaxc::text
