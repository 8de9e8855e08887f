// remove-purity-checking: pure functions may from now on contain the impure calls of
// the VM lowering (allocation, destination-passing calls, packed calls).
//
// Algorithm: an ExprMutator visits every function, global or local; a pure one gets
// the attribute relax.force_pure = True (its callers still see it as pure, and
// well-formedness no longer checks its body). Outside dataflow blocks (to-non-dataflow
// runs first in the VM pipeline), R.call_pure_packed becomes R.call_packed and
// R.invoke_pure_closure becomes R.invoke_closure; inside one they stay, since an impure
// call is never allowed there.
#include "ir/relax/expr_mutator.h"
#include "ir/relax/op_handles.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

const char* const kForcePure = "relax.force_pure";

class PurityCheckRemover : public ExprMutator {
 public:
  using ExprMutator::ExprMutator;

 private:
  Expr visit_node(const FunctionNode* node) override {
    Expr body = visit_scope(node->body, node->params);
    const AttrValue* forced = node->attrs.find(kForcePure);
    bool add_attr =
        node->is_pure && (forced == nullptr || forced->kind != AttrValue::Kind::Bool || !forced->b);
    if (body.same_as(node->body) && !add_attr) return Expr(node);
    Attrs attrs = add_attr ? node->attrs.with(kForcePure, AttrValue::boolean(true)) : node->attrs;
    return builder_.function(node->params, body, node->ret_struct_info, node->is_pure, attrs,
                             node->span);
  }

  Expr visit_node(const CallNode* node) override {
    Expr rebuilt = ExprMutator::visit_node(node);
    const auto* call = rebuilt.as<CallNode>();
    if (builder_.in_dataflow_block()) return rebuilt;
    const char* impure = call->op.same_as(ops::call_pure_packed())      ? "relax.call_packed"
                         : call->op.same_as(ops::invoke_pure_closure()) ? "relax.invoke_closure"
                                                                        : nullptr;
    if (impure == nullptr) return rebuilt;
    return builder_.call_op(impure, call->args, call->sinfo_args, call->attrs, call->span);
  }
};

}  // namespace

IRModule remove_purity_checking(const IRModule& module) {
  PurityCheckRemover remover(module);
  return map_relax_functions(module, [&](const Function& f) { return remover.visit_expr(f); });
}

}  // namespace relaxc::relax
