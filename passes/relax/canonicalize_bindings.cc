// canonicalize-bindings: folds the bindings that only rename a value into their uses.
//
// Algorithm (after TVM's CanonicalizeBindings): a planner walks each function in
// binding order and finds, for each binding, the leaf its value is known to equal:
//   - `x = y`, a variable (followed through the replacements already planned);
//   - `x = R.match_cast(v, S)` where v's StructInfo is already known to fit S
//     (is_base_of passes): the check cannot fail and binds no new shape variable, so it
//     is `x = v`;
//   - `x = t[i]` where t is a tuple literal or a variable bound to one: `x = t.fields[i]`.
// A binding known to equal a variable y is removed and x's uses become y's, unless
// that would move a DataflowVar out of its block: when x is a Var (a block's output)
// and y a DataflowVar of the same block, y's own binding binds x instead and y's uses
// become x's (the output stays a non-dataflow Var). A binding known to equal another
// leaf (a constant, a shape) becomes a plain binding of it. Variables that name a
// tensor's shape in some StructInfo are left alone (StructInfo is not rewritten).
// Folding needs x's StructInfo to be a base of y's (uses see at least as much);
// renaming y to x needs them equivalent. The mutator then applies the plan; emptied
// dataflow blocks disappear in the builder.
#include <unordered_map>
#include <unordered_set>

#include "ir/relax/expr_mutator.h"
#include "ir/relax/expr_visitor.h"
#include "ir/relax/struct_info_analysis.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

struct Plan {
  // Uses of the key become uses of the value (chains are followed).
  std::unordered_map<const VarNode*, Var> replace_use;
  // The binding of the key (a DataflowVar) binds the value (a Var) instead.
  std::unordered_map<const VarNode*, Var> rename_def;
  // Bindings dropped: their variable is replaced in every use.
  std::unordered_set<const BindingNode*> removed;
  // Bindings that become plain bindings of the given leaf.
  std::unordered_map<const BindingNode*, Expr> new_value;

  Var resolve(Var var) const {
    for (auto it = replace_use.find(var.get()); it != replace_use.end();
         it = replace_use.find(var.get())) {
      var = it->second;
    }
    return var;
  }
};

// The variables that give a tensor's shape in some StructInfo.
class ShapeVarUses final : public ExprVisitor {
 public:
  std::unordered_set<const VarNode*> vars;

 private:
  void visit_node(const TensorStructInfoNode* node) override {
    if (const auto* var = node->shape.as<VarNode>()) vars.insert(var);
    ExprVisitor::visit_node(node);
  }
};

class Planner final : public ExprVisitor {
 public:
  explicit Planner(std::unordered_set<const VarNode*> pinned) : pinned_(std::move(pinned)) {}

  Plan plan;

 private:
  void visit_block(const BindingBlock& block) override {
    const BindingBlockNode* outer = block_;
    block_ = block.get();
    ExprVisitor::visit_block(block);
    block_ = outer;
  }

  void visit_binding(const Binding& binding) override {
    ExprVisitor::visit_binding(binding);
    const Var& var = binding->var;
    if (var.is<DataflowVarNode>()) home_block_[var.get()] = block_;
    Expr known = known_leaf(binding);
    if (!known.defined()) {
      if (const auto* tuple = binding->value.as<TupleNode>()) tuples_[var.get()] = tuple;
      return;
    }
    if (pinned_.count(var.get()) != 0) return;
    const auto* y = known.as<VarNode>();
    if (y == nullptr) {
      plan.new_value[binding.get()] = known;
      if (const auto* tuple = known.as<TupleNode>()) tuples_[var.get()] = tuple;
      return;
    }
    Var source(y);
    if (is_base_of(var->struct_info, source->struct_info, &analyzer_) != BaseCheck::Pass) return;
    bool source_is_dataflow = source.is<DataflowVarNode>();
    // A DataflowVar is visible only in its own block (a tuple may carry one out).
    if (source_is_dataflow && home_block_[y] != block_) return;
    if (var.is<DataflowVarNode>() || !source_is_dataflow) {
      plan.replace_use[var.get()] = source;
      plan.removed.insert(binding.get());
      return;
    }
    // An output Var equal to a DataflowVar of its block takes over that binding.
    if (pinned_.count(y) != 0 ||
        is_base_of(source->struct_info, var->struct_info, &analyzer_) != BaseCheck::Pass) {
      return;
    }
    plan.rename_def[y] = var;
    plan.replace_use[y] = var;
    plan.removed.insert(binding.get());
  }

  // The leaf that `binding`'s value is known to equal, or null.
  Expr known_leaf(const Binding& binding) {
    Expr value = binding->value;
    if (const auto* cast = binding.as<MatchCastNode>()) {
      if (const auto* var = value.as<VarNode>()) value = plan.resolve(Var(var));
      bool holds = is_base_of(cast->struct_info, value->struct_info, &analyzer_) == BaseCheck::Pass;
      return holds ? value : Expr();
    }
    if (const auto* var = value.as<VarNode>()) return plan.resolve(Var(var));
    const auto* item = value.as<TupleGetItemNode>();
    if (item == nullptr) return {};
    const TupleNode* tuple = item->tuple.as<TupleNode>();
    if (const auto* var = item->tuple.as<VarNode>()) {
      auto it = tuples_.find(plan.resolve(Var(var)).get());
      if (it != tuples_.end()) tuple = it->second;
    }
    if (tuple == nullptr || item->index < 0 ||
        item->index >= static_cast<int>(tuple->fields.size())) {
      return {};
    }
    Expr field = tuple->fields[item->index];
    if (const auto* var = field.as<VarNode>()) return plan.resolve(Var(var));
    return field;
  }

  std::unordered_set<const VarNode*> pinned_;
  const BindingBlockNode* block_ = nullptr;
  std::unordered_map<const VarNode*, const BindingBlockNode*> home_block_;
  // Variables bound to tuple literals (the nodes live as long as the function).
  std::unordered_map<const VarNode*, const TupleNode*> tuples_;
  arith::Analyzer analyzer_;
};

class PlanApplier final : public ExprMutator {
 public:
  PlanApplier(const IRModule& module, Plan plan) : ExprMutator(module), plan_(std::move(plan)) {}

 private:
  Expr visit_node(const VarNode* node) override { return use(node); }
  Expr visit_node(const DataflowVarNode* node) override { return use(node); }

  template <typename T>
  Expr use(const T* node) {
    Var target = plan_.resolve(Var(node));
    if (target.get() != node) return visit_expr(target);
    return ExprMutator::visit_node(node);
  }

  void visit_binding(const Binding& binding) override {
    if (plan_.removed.count(binding.get()) != 0) return;
    auto renamed = plan_.rename_def.find(binding->var.get());
    auto value = plan_.new_value.find(binding.get());
    if (renamed == plan_.rename_def.end() && value == plan_.new_value.end()) {
      ExprMutator::visit_binding(binding);
      return;
    }
    Var var = renamed != plan_.rename_def.end() ? renamed->second : binding->var;
    if (value != plan_.new_value.end()) {
      ExprMutator::visit_binding(make_var_binding(var, value->second, binding->span));
    } else if (const auto* cast = binding.as<MatchCastNode>()) {
      ExprMutator::visit_binding(
          make_match_cast(var, cast->value, cast->struct_info, binding->span));
    } else {
      ExprMutator::visit_binding(make_var_binding(var, binding->value, binding->span));
    }
  }

  Plan plan_;
};

Expr canonicalize(const Function& func, const IRModule& module) {
  ShapeVarUses shape_vars;
  shape_vars.visit_expr(func);
  Planner planner(std::move(shape_vars.vars));
  planner.visit_expr(func);
  if (planner.plan.replace_use.empty() && planner.plan.new_value.empty()) return func;
  PlanApplier applier(module, std::move(planner.plan));
  return applier.visit_expr(func);
}

}  // namespace

IRModule canonicalize_bindings(const IRModule& module) {
  return map_relax_functions(module,
                             [&](const Function& func) { return canonicalize(func, module); });
}

}  // namespace relaxc::relax
