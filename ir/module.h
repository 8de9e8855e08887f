// IRModule: the unit of compilation, mapping global names to Relax functions and
// TensorIR PrimFuncs.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "ir/relax/expr.h"
#include "ir/tir/stmt.h"

namespace relaxc {

struct IRModuleNode : Object {
  // In definition order. Each function is a relax::Function or a tir::PrimFunc.
  std::vector<std::pair<relax::GlobalVar, Ref<Object>>> functions;
  Attrs attrs;
  Span span;
  RELAXC_NODE_KIND(IRModule)
  RELAXC_FIELDS(&IRModuleNode::functions, &IRModuleNode::attrs)

  // The function named `name`, or null.
  Ref<Object> lookup(const std::string& name) const;
  relax::GlobalVar global_var(const std::string& name) const;
  relax::Function relax_function(const std::string& name) const;
  tir::PrimFunc prim_func(const std::string& name) const;
};
using IRModule = Ref<IRModuleNode>;

IRModule make_module(std::vector<std::pair<relax::GlobalVar, Ref<Object>>> functions,
                     Attrs attrs = {}, Span span = {});
// A copy of `module` with `name` bound to `func` (replacing, or appended if new).
IRModule module_with(const IRModule& module, const relax::GlobalVar& name, Ref<Object> func);

}  // namespace relaxc
