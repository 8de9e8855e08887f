// ExprMutator: kind dispatch and the default rebuilding of each node kind.
#include "ir/relax/expr_mutator.h"

#include "ir/relax/struct_info_analysis.h"
#include "ir/tir/functor.h"

namespace relaxc::relax {

namespace {

bool same_exprs(const std::vector<Expr>& a, const std::vector<Expr>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].same_as(b[i])) return false;
  }
  return true;
}

// Whether a rebuilt SeqExpr holds exactly the bindings and body of the original.
bool same_seq(const SeqExprNode& before, const SeqExprNode& after) {
  if (!before.body.same_as(after.body) || before.blocks.size() != after.blocks.size()) {
    return false;
  }
  for (size_t i = 0; i < before.blocks.size(); ++i) {
    const BindingBlockNode& a = *before.blocks[i];
    const BindingBlockNode& b = *after.blocks[i];
    if (a.is_dataflow() != b.is_dataflow() || a.bindings.size() != b.bindings.size()) return false;
    for (size_t j = 0; j < a.bindings.size(); ++j) {
      if (!a.bindings[j].same_as(b.bindings[j])) return false;
    }
  }
  return true;
}

}  // namespace

ExprMutator::ExprMutator(IRModule module) : builder_(std::move(module)) {}

Expr ExprMutator::visit_expr(const Expr& expr) {
  RELAXC_ICHECK(expr.defined()) << "ExprMutator: null expression";
  const Object* node = expr.get();
  NestingGuard guard(depth_, node);
  switch (node->kind()) {
#define RELAXC_RELAX_MUTATE_CASE(Kind, Type) \
  case NodeKind::Kind:                       \
    return visit_node(static_cast<const Type*>(node));
    RELAXC_RELAX_EXPR_NODES(RELAXC_RELAX_MUTATE_CASE)
#undef RELAXC_RELAX_MUTATE_CASE
    default:
      break;
  }
  RELAXC_UNREACHABLE() << "not a Relax expression: " << node_kind_name(node->kind());
}

// ---------------------------------------------------------------- Leaves

Expr ExprMutator::visit_var_use(const VarNode* node) {
  auto it = var_remap_.find(node);
  return it != var_remap_.end() ? it->second : Expr(node);
}

Expr ExprMutator::visit_node(const VarNode* node) { return visit_var_use(node); }
Expr ExprMutator::visit_node(const DataflowVarNode* node) { return visit_var_use(node); }
Expr ExprMutator::visit_node(const ConstantNode* node) { return Expr(node); }
Expr ExprMutator::visit_node(const GlobalVarNode* node) { return Expr(node); }
Expr ExprMutator::visit_node(const PrimValueNode* node) { return Expr(node); }
Expr ExprMutator::visit_node(const StringImmNode* node) { return Expr(node); }
Expr ExprMutator::visit_node(const DataTypeImmNode* node) { return Expr(node); }
Expr ExprMutator::visit_node(const ExternFuncNode* node) { return Expr(node); }
Expr ExprMutator::visit_node(const ShapeExprNode* node) { return Expr(node); }
Expr ExprMutator::visit_node(const OpNode* node) { return Expr(node); }

// ---------------------------------------------------------------- Composites

Expr ExprMutator::visit_node(const TupleNode* node) {
  std::vector<Expr> fields;
  for (const Expr& f : node->fields) fields.push_back(visit_expr(f));
  if (same_exprs(fields, node->fields)) return Expr(node);
  return builder_.tuple(std::move(fields), node->span);
}

Expr ExprMutator::visit_node(const SeqExprNode* node) { return visit_scope(Expr(node)); }

Expr ExprMutator::visit_node(const FunctionNode* node) {
  Expr body = visit_scope(node->body, node->params);
  if (body.same_as(node->body)) return Expr(node);
  // The return annotation stays unless the rewrite made the body incompatible with it.
  StructInfo ret = node->ret_struct_info;
  if (ret.defined() &&
      is_base_of(ret, body->struct_info, &builder_.analyzer()) == BaseCheck::Fail) {
    ret = StructInfo();
  }
  return builder_.function(node->params, body, ret, node->is_pure, node->attrs, node->span);
}

Expr ExprMutator::visit_node(const IfNode* node) {
  Expr cond = visit_expr(node->cond);
  Expr t = visit_scope(node->true_branch);
  Expr f = visit_scope(node->false_branch);
  if (cond.same_as(node->cond) && t.same_as(node->true_branch) && f.same_as(node->false_branch)) {
    return Expr(node);
  }
  return builder_.if_then_else(cond, t, f, node->span);
}

Expr ExprMutator::visit_node(const CallNode* node) {
  Expr op = node->op.is<OpNode>() ? node->op : visit_expr(node->op);
  std::vector<Expr> args;
  for (const Expr& a : node->args) args.push_back(visit_expr(a));
  if (op.same_as(node->op) && same_exprs(args, node->args)) return Expr(node);
  return builder_.call(op, std::move(args), node->sinfo_args, node->attrs, node->span);
}

Expr ExprMutator::visit_node(const TupleGetItemNode* node) {
  Expr tuple = visit_expr(node->tuple);
  if (tuple.same_as(node->tuple)) return Expr(node);
  return builder_.tuple_get_item(tuple, node->index, node->span);
}

// ---------------------------------------------------------------- Bindings and scopes

void ExprMutator::visit_binding(const Binding& binding) {
  const BindingNode* outer = current_binding_;
  current_binding_ = binding.get();
  if (const auto* var_binding = binding.as<VarBindingNode>()) {
    visit_var_binding(var_binding, binding);
  } else {
    visit_match_cast(binding.as<MatchCastNode>(), binding);
  }
  current_binding_ = outer;
}

std::string ExprMutator::binding_note() const {
  return current_binding_ != nullptr ? " (binding '" + current_binding_->var->name + "')" : "";
}

Span ExprMutator::binding_span(const Span& fallback) const {
  return current_binding_ != nullptr && current_binding_->span.defined() ? current_binding_->span
                                                                         : fallback;
}

void ExprMutator::visit_var_binding(const VarBindingNode* binding, const Binding& self) {
  Expr value = visit_expr(binding->value);
  if (value.same_as(binding->value)) {
    builder_.emit_binding(self);
    return;
  }
  if (!value->struct_info.defined()) value = builder_.normalize(value);
  const Var& var = binding->var;
  arith::Analyzer& analyzer = builder_.analyzer();
  bool equivalent =
      is_base_of(var->struct_info, value->struct_info, &analyzer) == BaseCheck::Pass &&
      is_base_of(value->struct_info, var->struct_info, &analyzer) == BaseCheck::Pass;
  if (equivalent) {
    builder_.emit_binding(make_var_binding(var, value, binding->span));
    return;
  }
  VarKind kind = var.is<DataflowVarNode>() ? VarKind::DataflowVar : VarKind::Var;
  var_remap_[var.get()] = builder_.emit(value, var->name, kind, {}, binding->span);
}

void ExprMutator::visit_match_cast(const MatchCastNode* binding, const Binding& self) {
  Expr value = visit_expr(binding->value);
  if (value.same_as(binding->value)) {
    builder_.emit_binding(self);
    return;
  }
  builder_.emit_binding(make_match_cast(binding->var, value, binding->struct_info, binding->span));
}

void ExprMutator::visit_block(const BindingBlock& block) {
  builder_.begin_block(block->is_dataflow());
  for (const Binding& binding : block->bindings) visit_binding(binding);
  builder_.end_block();
}

Expr ExprMutator::visit_scope(const Expr& body, const std::vector<Var>& params) {
  builder_.begin_scope(params);
  const auto* seq = body.as<SeqExprNode>();
  if (seq == nullptr) return builder_.end_scope(visit_expr(body), body->span);
  for (const BindingBlock& block : seq->blocks) visit_block(block);
  Expr result = builder_.end_scope(visit_expr(seq->body), seq->span);
  return same_seq(*seq, *result.as<SeqExprNode>()) ? body : result;
}

}  // namespace relaxc::relax
