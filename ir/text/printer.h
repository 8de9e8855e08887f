// The printer of the text format: TVMScript as TVM 0.23 writes it.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/module.h"
#include "ir/support/host_tensor.h"

namespace relaxc::text {

// The constants printed as `metadata["relax.expr.Constant"][i]` (TVM's spelling) instead
// of their elements: tensors[i] is constant i, kept for a side file (written by
// driver/module_files.h, docs/text_format.md).
struct MetadataConstants {
  std::vector<HostTensor> tensors;
  std::map<const Object*, size_t> index;  // by ConstantNode: one entry per node
};

// A constant of more elements than this is printed as metadata when print_module is
// given a MetadataConstants; so is one whose elements cannot be written as numbers.
inline constexpr int64_t kInlineConstantElements = 64;

// The whole module: `@I.ir_module class Module:` with its PrimFuncs and Relax
// functions, every Relax binding annotated with its StructInfo. parse_module reads
// it back to a structurally equal module, and printing is stable.
std::string print_module(const IRModule& module);
// The same, with the large constants (see kInlineConstantElements) added to `metadata`
// and printed as references to it.
std::string print_module(const IRModule& module, MetadataConstants* metadata);

// Any single node, as it appears inside a module (a PrimExpr "n * 4", a StructInfo
// 'R.Tensor((n, 4), dtype="float32")', a statement, a function); for diagnostics,
// debugging and tests.
std::string print_node(const Ref<Object>& node);

}  // namespace relaxc::text
