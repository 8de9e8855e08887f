// lambda-lift: every local function becomes a private function of the module.
//
// Algorithm: one ExprMutator walks each global function. At a binding `f = <function>`
// it collects the function's free variables (analysis.h free_vars, minus f itself):
// those are the captures. Each capture, as the enclosing scope sees it now (after
// earlier rewrites), becomes a fresh leading parameter of the lifted function
// "<outer>_<f>" (made unique in the module); the body is rewritten with the captures
// replaced by those parameters, lifting nested local functions on the way. Then:
// - without captures, f is replaced by the lifted function's GlobalVar everywhere and
//   its binding disappears (calls of f become direct calls);
// - with captures, the binding becomes f = R.make_closure(cls.outer_f, (captures...)).
// Recursion: inside its own body, f with captures is called directly with the capture
// parameters first; used as a value, it becomes a closure of them. Finally every call
// whose callee is a variable (a closure: a lifted local function, or a function
// passed as a value) becomes R.invoke_pure_closure or R.invoke_closure by its purity.
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/relax/analysis.h"
#include "ir/relax/expr_mutator.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {

namespace {

class LambdaLifter : public ExprMutator {
 public:
  explicit LambdaLifter(const IRModule& module) : ExprMutator(module) {
    for (const auto& [gv, func] : module->functions) used_names_.insert(gv->name);
  }

  // The global function `func` (named `name`) without local functions; the functions
  // lifted out of it are appended to `lifted`.
  Function lift_in(const std::string& name, const Function& func,
                   std::vector<std::pair<GlobalVar, Ref<Object>>>* lifted) {
    outer_name_ = name;
    lifted_ = lifted;
    return visit_expr(func).cast<FunctionNode>();
  }

 private:
  // A local function being lifted whose body is being rewritten and that captures
  // values: its own variable there stands for the lifted function applied to the
  // capture parameters.
  struct SelfReference {
    const VarNode* self;
    GlobalVar global;
    std::vector<Var> capture_params;
  };

  const SelfReference* self_reference(const Expr& e) const {
    for (auto it = selves_.rbegin(); it != selves_.rend(); ++it) {
      if (e.get() == it->self) return &*it;
    }
    return nullptr;
  }

  std::string unique_name(const std::string& base) {
    std::string name = base;
    for (int i = 1; !used_names_.insert(name).second; ++i) name = base + "_" + std::to_string(i);
    return name;
  }

  void visit_var_binding(const VarBindingNode* binding, const Binding& self) override {
    if (const auto* func = binding->value.as<FunctionNode>()) {
      lift(binding, func);
      return;
    }
    ExprMutator::visit_var_binding(binding, self);
  }

  Expr visit_node(const VarNode* node) override { return visit_var(node); }
  Expr visit_node(const DataflowVarNode* node) override { return visit_var(node); }

  Expr visit_var(const VarNode* node) {
    auto it = var_remap_.find(node);
    if (it != var_remap_.end()) return it->second;
    if (const SelfReference* ref = self_reference(Expr(node))) {
      std::vector<Expr> captures(ref->capture_params.begin(), ref->capture_params.end());
      return builder_.call_op("relax.make_closure", {ref->global, builder_.tuple(captures)}, {}, {},
                              node->span);
    }
    return Expr(node);
  }

  Expr visit_node(const CallNode* node) override {
    if (node->op.is<OpNode>() || node->op.is<GlobalVarNode>() || node->op.is<ExternFuncNode>()) {
      return ExprMutator::visit_node(node);
    }
    std::vector<Expr> args;
    for (const Expr& a : node->args) args.push_back(visit_expr(a));
    const SelfReference* ref =
        var_remap_.count(node->op.as<VarNode>()) != 0 ? nullptr : self_reference(node->op);
    if (ref != nullptr) {
      // A recursive call: the lifted function itself, with the captures first.
      std::vector<Expr> full(ref->capture_params.begin(), ref->capture_params.end());
      full.insert(full.end(), args.begin(), args.end());
      return builder_.call(ref->global, std::move(full), node->sinfo_args, node->attrs, node->span);
    }
    Expr callee = visit_expr(node->op);
    if (callee.is<GlobalVarNode>()) {
      return builder_.call(callee, std::move(args), node->sinfo_args, node->attrs, node->span);
    }
    const auto* func = callee->struct_info.as<FuncStructInfoNode>();
    bool pure = func != nullptr && func->purity;
    return builder_.call_op(pure ? "relax.invoke_pure_closure" : "relax.invoke_closure",
                            {callee, builder_.tuple(std::move(args))}, {node->struct_info}, {},
                            node->span);
  }

  void lift(const VarBindingNode* binding, const FunctionNode* func) {
    const Var& self = binding->var;
    GlobalVar global = make_global_var(unique_name(outer_name_ + "_" + self->name), func->span);

    // The captures, as the enclosing scope sees them now.
    std::vector<Expr> captured;
    std::vector<Var> capture_params;
    std::unordered_map<const VarNode*, Expr> inner;
    for (const Var& v : free_vars(Expr(func))) {
      if (v.same_as(self)) continue;
      Expr value = visit_expr(v);
      if (value.is<GlobalVarNode>()) {
        inner[v.get()] = value;
        continue;
      }
      if (!value.is<VarNode>()) value = builder_.emit(value, v->name, VarKind::Var, {}, v->span);
      Var param = make_var(v->name, value->struct_info, v->span);
      captured.push_back(value);
      capture_params.push_back(param);
      inner[v.get()] = param;
    }

    std::vector<Var> params = capture_params;
    params.insert(params.end(), func->params.begin(), func->params.end());
    std::vector<StructInfo> param_sinfo;
    for (const Var& p : params) param_sinfo.push_back(p->struct_info);
    StructInfo ret = func->ret_struct_info.defined() ? func->ret_struct_info : object_sinfo();
    builder_.declare_global(global, func_sinfo(param_sinfo, ret, func->is_pure));

    // The body, with the captures replaced by the new parameters.
    std::unordered_map<const VarNode*, Expr> saved = var_remap_;
    for (const auto& [var, value] : inner) var_remap_[var] = value;
    if (capture_params.empty()) {
      var_remap_[self.get()] = global;
    } else {
      selves_.push_back({self.get(), global, capture_params});
    }
    Expr body = visit_scope(func->body, params);
    Function lifted = builder_.function(params, body, func->ret_struct_info, func->is_pure,
                                        func->attrs, func->span);
    if (!capture_params.empty()) selves_.pop_back();
    var_remap_ = std::move(saved);
    builder_.declare_global(global, lifted->struct_info);
    lifted_->emplace_back(global, lifted);

    if (capture_params.empty()) {
      var_remap_[self.get()] = global;
      return;
    }
    Expr closure = builder_.call_op("relax.make_closure", {global, builder_.tuple(captured)}, {},
                                    {}, binding->span);
    builder_.emit_binding(make_var_binding(self, closure, binding->span));
  }

  std::string outer_name_;
  std::vector<std::pair<GlobalVar, Ref<Object>>>* lifted_ = nullptr;
  std::unordered_set<std::string> used_names_;
  std::vector<SelfReference> selves_;
};

}  // namespace

IRModule lambda_lift(const IRModule& module) {
  LambdaLifter lifter(module);
  std::vector<std::pair<GlobalVar, Ref<Object>>> functions;
  for (const auto& [gv, func] : module->functions) {
    Function f = func.cast<FunctionNode>();
    if (!f.defined()) {
      functions.emplace_back(gv, func);
      continue;
    }
    std::vector<std::pair<GlobalVar, Ref<Object>>> lifted;
    functions.emplace_back(gv, lifter.lift_in(gv->name, f, &lifted));
    for (auto& entry : lifted) functions.push_back(std::move(entry));
  }
  return make_module(std::move(functions), module->attrs, module->span);
}

}  // namespace relaxc::relax
