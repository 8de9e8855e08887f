// The printer of the text format: TVMScript as TVM 0.23 writes it.
#pragma once

#include <string>

#include "ir/module.h"

namespace relaxc::text {

// The whole module: `@I.ir_module class Module:` with its PrimFuncs and Relax
// functions, every Relax binding annotated with its StructInfo. parse_module reads
// it back to a structurally equal module, and printing is stable.
std::string print_module(const IRModule& module);

// Any single node, as it appears inside a module (a PrimExpr "n * 4", a StructInfo
// 'R.Tensor((n, 4), dtype="float32")', a statement, a function); for diagnostics,
// debugging and tests.
std::string print_node(const Ref<Object>& node);

}  // namespace relaxc::text
