// The Relax expression visitor: kind dispatch, default child walks, post_order_visit.
#include "ir/relax/expr_visitor.h"

namespace relaxc::relax {

void ExprVisitor::visit_expr(const Expr& expr) {
  if (!expr.defined()) return;
  const Object* node = expr.get();
  NestingGuard guard(depth_, node);
  switch (node->kind()) {
#define RELAXC_RELAX_VISIT_CASE(Kind, Type) \
  case NodeKind::Kind:                      \
    return visit_node(static_cast<const Type*>(node));
    RELAXC_RELAX_EXPR_NODES(RELAXC_RELAX_VISIT_CASE)
    default:
      break;
  }
  RELAXC_UNREACHABLE() << "not a Relax expression: " << node_kind_name(node->kind());
}

void ExprVisitor::visit_struct_info(const StructInfo& sinfo) {
  if (!sinfo.defined()) return;
  const Object* node = sinfo.get();
  NestingGuard guard(depth_, node);
  switch (node->kind()) {
    RELAXC_STRUCT_INFO_NODES(RELAXC_RELAX_VISIT_CASE)
#undef RELAXC_RELAX_VISIT_CASE
    default:
      break;
  }
  RELAXC_UNREACHABLE() << "not a StructInfo: " << node_kind_name(node->kind());
}

void ExprVisitor::visit_binding(const Binding& binding) {
  visit_expr(binding->value);
  if (const auto* match_cast = binding.as<MatchCastNode>()) {
    visit_struct_info(match_cast->struct_info);
  }
  visit_var_def(binding->var);
}

void ExprVisitor::visit_block(const BindingBlock& block) {
  for (const Binding& binding : block->bindings) visit_binding(binding);
}

void ExprVisitor::visit_var_def(const Var& var) { visit_struct_info(var->struct_info); }

void ExprVisitor::visit_var_use(const Var&) {}

void ExprVisitor::visit_prim_expr(const PrimExpr&) {}

#define RELAXC_RELAX_VISIT_DEFAULT(Kind, Type) \
  void ExprVisitor::visit_node(const Type* node) { visit_default(node); }
RELAXC_RELAX_EXPR_NODES(RELAXC_RELAX_VISIT_DEFAULT)
RELAXC_STRUCT_INFO_NODES(RELAXC_RELAX_VISIT_DEFAULT)
#undef RELAXC_RELAX_VISIT_DEFAULT

namespace {

class PostOrderVisitor final : public ExprVisitor {
 public:
  explicit PostOrderVisitor(const std::function<void(const Expr&)>& fn) : fn_(fn) {}

 private:
#define RELAXC_RELAX_POST_ORDER(Kind, Type)    \
  void visit_node(const Type* node) override { \
    ExprVisitor::visit_node(node);             \
    fn_(Expr(node));                           \
  }
  RELAXC_RELAX_EXPR_NODES(RELAXC_RELAX_POST_ORDER)
#undef RELAXC_RELAX_POST_ORDER

  const std::function<void(const Expr&)>& fn_;
};

}  // namespace

void post_order_visit(const Expr& root, const std::function<void(const Expr&)>& fn) {
  PostOrderVisitor(fn).visit_expr(root);
}

}  // namespace relaxc::relax
