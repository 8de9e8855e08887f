// dead-code-elimination: removes the bindings and functions no result depends on.
//
// Algorithm (TVM's DeadCodeElimination): first the bindings of each Relax function,
// then the functions of the module.
//
// Bindings: one backward sweep over each SeqExpr (its body first, then its bindings
// last to first) with the set of variables used so far. A binding is live when its
// variable is used by something live after it, when its value may call an impure
// callee (contains_impure_call: a print, an impure packed function, a direct PrimFunc
// call), or when it is a match_cast (a run-time check that may fail and that binds
// shape variables). The value of a live binding is swept in turn (the SeqExprs of its
// If branches and local functions), then its uses and the variables its StructInfo
// names are added to the set. Because every use comes after its definition, the sweep
// meets all uses of a variable before its binding: one sweep removes whole chains of
// dead bindings, the fixed point of removing unused bindings one at a time. Dead
// bindings are then dropped by an ExprMutator; emptied blocks disappear in the builder.
//
// Functions: the public ones (attribute global_symbol) are the roots; a function is
// kept when a kept Relax function names it (callee, call_tir's PrimFunc, a closure).
// The rest, Relax functions and PrimFuncs alike, are removed. This runs after the
// bindings, whose removal may leave a function unnamed.
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/relax/analysis.h"
#include "ir/relax/expr_mutator.h"
#include "ir/relax/expr_visitor.h"
#include "passes/relax/function_pass.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

// The dead bindings of a function, found by the backward sweep.
class LivenessSweep final : public ExprVisitor {
 public:
  explicit LivenessSweep(const IRModule& module) : module_(module) {}

  std::unordered_set<const BindingNode*> dead;

 private:
  void visit_var_use(const Var& var) override { used_.insert(var.get()); }

  void visit_node(const SeqExprNode* node) override {
    visit_expr(node->body);
    for (auto block = node->blocks.rbegin(); block != node->blocks.rend(); ++block) {
      const std::vector<Binding>& bindings = (*block)->bindings;
      for (auto binding = bindings.rbegin(); binding != bindings.rend(); ++binding) {
        if (is_live(*binding)) {
          visit_binding(*binding);
        } else {
          dead.insert(binding->get());
        }
      }
    }
  }

  bool is_live(const Binding& binding) const {
    return used_.count(binding->var.get()) != 0 || binding.is<MatchCastNode>() ||
           contains_impure_call(binding->value, module_);
  }

  const IRModule& module_;
  std::unordered_set<const VarNode*> used_;
};

class DeadBindingRemover final : public ExprMutator {
 public:
  DeadBindingRemover(const IRModule& module, std::unordered_set<const BindingNode*> dead)
      : ExprMutator(module), dead_(std::move(dead)) {}

 private:
  void visit_binding(const Binding& binding) override {
    if (dead_.count(binding.get()) == 0) ExprMutator::visit_binding(binding);
  }

  std::unordered_set<const BindingNode*> dead_;
};

Expr remove_dead_bindings(const Function& func, const IRModule& module) {
  LivenessSweep sweep(module);
  sweep.visit_expr(func);
  if (sweep.dead.empty()) return func;
  DeadBindingRemover remover(module, std::move(sweep.dead));
  return remover.visit_expr(func);
}

bool is_public(const Ref<Object>& func) {
  if (const auto* relax_func = func.as<FunctionNode>()) {
    return relax_func->attrs.find("global_symbol") != nullptr;
  }
  const auto* prim = func.as<tir::PrimFuncNode>();
  return prim != nullptr && prim->attrs.find("global_symbol") != nullptr;
}

IRModule remove_unreachable_functions(const IRModule& module) {
  std::unordered_set<std::string> reachable;
  std::vector<std::string> to_visit;
  for (const auto& [gv, func] : module->functions) {
    if (is_public(func) && reachable.insert(gv->name).second) to_visit.push_back(gv->name);
  }
  while (!to_visit.empty()) {
    Function func = module->relax_function(to_visit.back());
    to_visit.pop_back();
    if (!func.defined()) continue;  // a PrimFunc names no function
    for (const GlobalVar& callee : called_global_vars(func)) {
      if (reachable.insert(callee->name).second) to_visit.push_back(callee->name);
    }
  }
  if (reachable.size() == module->functions.size()) return module;
  std::vector<std::pair<GlobalVar, Ref<Object>>> kept;
  for (const auto& entry : module->functions) {
    if (reachable.count(entry.first->name) != 0) kept.push_back(entry);
  }
  return make_module(std::move(kept), module->attrs, module->span);
}

}  // namespace

IRModule dead_code_elimination(const IRModule& module) {
  IRModule swept = map_relax_functions(
      module, [&](const Function& func) { return remove_dead_bindings(func, module); });
  return remove_unreachable_functions(swept);
}

}  // namespace relaxc::relax
