// Structural equality and hashing of IR nodes, equal up to renaming of bound
// variables (Relax vars, TensorIR vars and buffers).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "ir/support/object.h"

namespace relaxc {

// True if `a` and `b` have the same structure. Variables (tir::Var, relax::Var,
// relax::DataflowVar) and buffers are matched by a one-to-one correspondence fixed at
// their first occurrence in traversal order, so that consistently renamed programs
// are equal; their names never matter. GlobalVars and Ops compare by name. Spans are
// ignored; the StructInfo of an expression is compared only on variables (elsewhere
// it is derived from the children).
bool structural_equal(const Ref<Object>& a, const Ref<Object>& b);

// A hash consistent with structural_equal.
size_t structural_hash(const Ref<Object>& node);

// A description of the first difference ("functions[1].body.blocks[0].bindings[2]
// .value.args[0]: TirAdd vs TirSub"), or nullopt if structurally equal. For tests.
std::optional<std::string> structural_mismatch(const Ref<Object>& a, const Ref<Object>& b);

}  // namespace relaxc
