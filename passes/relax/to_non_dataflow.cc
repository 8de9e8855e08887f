// to-non-dataflow: dataflow blocks become plain binding blocks.
//
// Algorithm: an ExprMutator re-emits every block as a plain one (the builder merges
// neighbouring plain blocks). Each DataflowVar binding is re-emitted with a fresh Var
// of the same name, StructInfo and span, which replaces the DataflowVar in every later
// use (var_remap_); the values themselves are unchanged.
#include "ir/relax/expr_mutator.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

class DataflowRemover : public ExprMutator {
 public:
  using ExprMutator::ExprMutator;

 private:
  void visit_block(const BindingBlock& block) override {
    builder_.begin_block(false);
    for (const Binding& binding : block->bindings) visit_binding(binding);
    builder_.end_block();
  }

  // The plain variable that replaces `var` (itself if it is one already).
  Var plain_var(const Var& var) {
    if (!var.is<DataflowVarNode>()) return var;
    Var plain = make_var(var->name, var->struct_info, var->span);
    var_remap_[var.get()] = plain;
    return plain;
  }

  void visit_var_binding(const VarBindingNode* binding, const Binding& self) override {
    if (!binding->var.is<DataflowVarNode>()) {
      ExprMutator::visit_var_binding(binding, self);
      return;
    }
    Expr value = visit_expr(binding->value);
    builder_.emit_binding(make_var_binding(plain_var(binding->var), value, binding->span));
  }

  void visit_match_cast(const MatchCastNode* binding, const Binding& self) override {
    if (!binding->var.is<DataflowVarNode>()) {
      ExprMutator::visit_match_cast(binding, self);
      return;
    }
    Expr value = visit_expr(binding->value);
    builder_.emit_binding(
        make_match_cast(plain_var(binding->var), value, binding->struct_info, binding->span));
  }
};

}  // namespace

IRModule to_non_dataflow(const IRModule& module) {
  DataflowRemover remover(module);
  return map_relax_functions(module, [&](const Function& f) { return remover.visit_expr(f); });
}

}  // namespace relaxc::relax
