// Analyses of Relax expressions over the ExprVisitor: variable and symbolic-variable
// collection, with the scoping rules of the spec.
#include "ir/relax/analysis.h"

#include <string>
#include <unordered_set>

#include "ir/relax/expr_visitor.h"
#include "ir/relax/op_registry.h"
#include "ir/tir/functor.h"

namespace relaxc::relax {
namespace {

// Nodes in order of first insertion, each once.
template <typename T>
class OrderedSet {
 public:
  void insert(const Ref<T>& item) {
    if (seen_.insert(item.get()).second) items_.push_back(item);
  }
  bool contains(const T* item) const { return seen_.count(item) != 0; }
  const std::vector<Ref<T>>& items() const { return items_; }

 private:
  std::vector<Ref<T>> items_;
  std::unordered_set<const T*> seen_;
};

class VarCollector final : public ExprVisitor {
 public:
  OrderedSet<VarNode> used;
  OrderedSet<VarNode> bound;

 private:
  void visit_var_def(const Var& var) override {
    bound.insert(var);
    ExprVisitor::visit_var_def(var);
  }
  void visit_var_use(const Var& var) override { used.insert(var); }
};

// Collects symbolic variables used where no enclosing definition is in scope.
class SymbolicVarCollector final : public ExprVisitor {
 public:
  OrderedSet<tir::VarNode> free;

 private:
  void visit_prim_expr(const PrimExpr& expr) override {
    // A variable bound by a Let inside the expression is not a use from outside.
    std::vector<const tir::VarNode*> vars;
    std::unordered_set<const tir::VarNode*> let_bound;
    tir::post_order_visit(expr, [&](const Ref<Object>& node) {
      if (const auto* var = node.as<tir::VarNode>()) vars.push_back(var);
      if (const auto* let = node.as<tir::LetNode>()) let_bound.insert(let->var.get());
    });
    for (const tir::VarNode* var : vars) {
      if (!let_bound.count(var) && !defined_.count(var)) free.insert(tir::Var(var));
    }
  }

  void visit_node(const FunctionNode* node) override {
    size_t scope = open_scope();
    for (const Var& param : node->params) define_from(param->struct_info);
    ExprVisitor::visit_node(node);
    close_scope(scope);
  }

  void visit_node(const FuncStructInfoNode* node) override {
    size_t scope = open_scope();
    if (node->params) {
      for (const StructInfo& param : *node->params) define_from(param);
    }
    ExprVisitor::visit_node(node);
    close_scope(scope);
  }

  void visit_node(const SeqExprNode* node) override {
    size_t scope = open_scope();
    ExprVisitor::visit_node(node);
    close_scope(scope);
  }

  void visit_binding(const Binding& binding) override {
    const auto* match_cast = binding.as<MatchCastNode>();
    if (match_cast == nullptr) return ExprVisitor::visit_binding(binding);
    // The pattern's definitions hold inside the pattern too: (n, n * 2) uses its own n.
    visit_expr(match_cast->value);
    define_from(match_cast->struct_info);
    visit_struct_info(match_cast->struct_info);
    visit_var_def(match_cast->var);
  }

  size_t open_scope() const { return definitions_.size(); }
  void close_scope(size_t scope) {
    while (definitions_.size() > scope) {
      defined_.erase(definitions_.back());
      definitions_.pop_back();
    }
  }
  void define_from(const StructInfo& sinfo) {
    for (const tir::Var& var : defined_symbolic_vars(sinfo)) {
      if (defined_.insert(var.get()).second) definitions_.push_back(var.get());
    }
  }

  std::unordered_set<const tir::VarNode*> defined_;
  std::vector<const tir::VarNode*> definitions_;  // in order, to close scopes
};

template <typename T>
std::vector<Ref<T>> without(const OrderedSet<T>& items, const OrderedSet<T>& removed) {
  std::vector<Ref<T>> result;
  for (const Ref<T>& item : items.items()) {
    if (!removed.contains(item.get())) result.push_back(item);
  }
  return result;
}

}  // namespace

std::vector<Var> free_vars(const Expr& expr) {
  VarCollector collector;
  collector.visit_expr(expr);
  return without(collector.used, collector.bound);
}

std::vector<Var> bound_vars(const Expr& expr) {
  VarCollector collector;
  collector.visit_expr(expr);
  return collector.bound.items();
}

std::vector<tir::Var> free_symbolic_vars(const Expr& expr) {
  SymbolicVarCollector collector;
  collector.visit_expr(expr);
  return collector.free.items();
}

std::vector<tir::Var> free_symbolic_vars(const StructInfo& sinfo) {
  SymbolicVarCollector collector;
  collector.visit_struct_info(sinfo);
  return collector.free.items();
}

std::vector<tir::Var> defined_symbolic_vars(const StructInfo& sinfo) {
  OrderedSet<tir::VarNode> defined;
  auto define_if_alone = [&defined](const PrimExpr& dim) {
    if (const auto* var = dim.as<tir::VarNode>()) defined.insert(tir::Var(var));
  };
  // Tuples nest without bound, so walk them with a work list.
  std::vector<StructInfo> work = {sinfo};
  while (!work.empty()) {
    StructInfo node = std::move(work.back());
    work.pop_back();
    if (const auto* prim = node.as<PrimStructInfoNode>()) {
      define_if_alone(prim->value);
    } else if (const auto* shape = node.as<ShapeStructInfoNode>()) {
      if (shape->values) {
        for (const PrimExpr& dim : *shape->values) define_if_alone(dim);
      }
    } else if (const auto* tensor = node.as<TensorStructInfoNode>()) {
      if (const auto* shape_expr = tensor->shape.as<ShapeExprNode>()) {
        for (const PrimExpr& dim : shape_expr->values) define_if_alone(dim);
      }
    } else if (const auto* tuple = node.as<TupleStructInfoNode>()) {
      work.insert(work.end(), tuple->fields.rbegin(), tuple->fields.rend());
    }
  }
  return defined.items();
}

std::vector<GlobalVar> called_global_vars(const Expr& expr) {
  std::vector<GlobalVar> result;
  std::unordered_set<std::string> names;
  post_order_visit(expr, [&](const Expr& node) {
    if (const auto* global = node.as<GlobalVarNode>()) {
      if (names.insert(global->name).second) result.push_back(GlobalVar(global));
    }
  });
  return result;
}

bool callee_is_impure(const Expr& op, const IRModule& module) {
  if (const auto* o = op.as<OpNode>()) {
    const OpInfo* info = find_op(o->name);
    return info != nullptr && !info->pure;
  }
  if (const auto* gv = op.as<GlobalVarNode>()) {
    Ref<Object> func = module.defined() ? module->lookup(gv->name) : Ref<Object>();
    if (const auto* relax_func = func.as<FunctionNode>()) return !relax_func->is_pure;
    if (func.is<tir::PrimFuncNode>()) return true;
  }
  const auto* sinfo = op->struct_info.as<FuncStructInfoNode>();
  return sinfo != nullptr && !sinfo->purity;
}

namespace {

class ImpureCallFinder final : public ExprVisitor {
 public:
  explicit ImpureCallFinder(const IRModule& module) : module_(module) {}
  bool found = false;

 private:
  void visit_node(const CallNode* node) override {
    if (callee_is_impure(node->op, module_)) found = true;
    ExprVisitor::visit_node(node);
  }
  void visit_node(const FunctionNode*) override {}

  const IRModule& module_;
};

}  // namespace

bool contains_impure_call(const Expr& expr, const IRModule& module) {
  ImpureCallFinder finder(module);
  finder.visit_expr(expr);
  return finder.found;
}

}  // namespace relaxc::relax
