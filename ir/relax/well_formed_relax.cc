// The Relax walk of the well-formedness checker: scopes of Relax variables, bindings,
// expressions, dataflow-block restrictions (rule 7, with purity) and the normal form.
//
// Algorithm: a walk in evaluation order that keeps a stack of scope frames (function,
// SeqExpr, dataflow block). A variable enters the innermost fitting frame at its
// binding and leaves it with the frame; a use is classified against that state, and
// against the set of variables bound anywhere in the function (collected first), to
// tell "used before bound" (rule 3) from "never bound" and "out of scope" (rule 2) and
// from a DataflowVar whose block has ended (rule 1). Shape variables have their own
// frames (well_formed_struct_info.cc).
#include <utility>

#include "ir/relax/analysis.h"
#include "ir/relax/op_registry.h"
#include "ir/relax/well_formed_checker.h"

namespace relaxc::relax::well_formed {

namespace {

bool is_dataflow_var(const VarNode* var) { return var->kind() == NodeKind::RelaxDataflowVar; }

std::string var_title(const VarNode* var) {
  return std::string(is_dataflow_var(var) ? "DataflowVar '" : "Var '") + var->name + "'";
}

bool has_force_pure(const Attrs& attrs) {
  const AttrValue* value = attrs.find("relax.force_pure");
  if (value == nullptr) return false;
  return (value->kind == AttrValue::Kind::Bool && value->b) ||
         (value->kind == AttrValue::Kind::Int && value->i != 0);
}

}  // namespace

void RelaxChecker::check_global_function(const GlobalVarNode* name, const FunctionNode* func) {
  global_name_ = name->name;
  bound_in_function_.clear();
  vars_.clear();
  var_frames_.clear();
  seq_frame_ = 0;
  shape_vars_.clear();
  shape_frames_.clear();
  reported_shape_vars_.clear();
  functions_.clear();
  in_dataflow_ = false;
  binding_var_ = nullptr;
  binding_is_function_ = false;
  site_.clear();
  depth_ = 0;
  depth_reported_ = false;
  // Every variable some binding or parameter list of this function defines, so that a
  // use can be told apart as "before its binding" rather than "never bound".
  for_each_reachable_node(func, [&](const Object* node) {
    if (node->kind() == NodeKind::RelaxFunction) {
      for (const Var& param : static_cast<const FunctionNode*>(node)->params) {
        if (param.defined()) bound_in_function_.insert(param.get());
      }
    } else if (node->kind() == NodeKind::RelaxVarBinding ||
               node->kind() == NodeKind::RelaxMatchCast) {
      const Var& var = static_cast<const BindingNode*>(node)->var;
      if (var.defined()) bound_in_function_.insert(var.get());
    }
  });
  check_function(func, func->span, "function '" + name->name + "'", nullptr);
}

// ---------------------------------------------------------------- Scopes

void RelaxChecker::push_var_frame() { var_frames_.emplace_back(); }

void RelaxChecker::pop_var_frame() {
  for (const VarNode* var : var_frames_.back()) {
    VarState& state = vars_[var];
    state.in_scope = false;
    if (is_dataflow_var(var)) state.dataflow_block_ended = true;
  }
  var_frames_.pop_back();
}

void RelaxChecker::define_var(const VarNode* var, Span span, bool is_param) {
  if (!bound_in_module_.insert(var).second) {
    error(span, "[rule 2] " + var_title(var) + " is bound more than once");
  }
  if (!is_param && is_dataflow_var(var) && !in_dataflow_) {
    error(span, "[rule 1] DataflowVar '" + var->name + "' is bound outside a dataflow block");
  }
  VarState& state = vars_[var];
  state.in_scope = true;
  state.dataflow_block_ended = false;
  state.function_depth = static_cast<int>(functions_.size());
  // A DataflowVar lives in its dataflow block's frame; a Var in its SeqExpr's.
  bool block_scoped = is_dataflow_var(var) && in_dataflow_;
  (block_scoped ? var_frames_.back() : var_frames_[seq_frame_]).push_back(var);
}

RelaxChecker::VarUse RelaxChecker::classify_var_use(const VarNode* var) const {
  auto it = vars_.find(var);
  if (it != vars_.end() && it->second.in_scope) {
    bool captured = it->second.function_depth < static_cast<int>(functions_.size());
    return is_dataflow_var(var) && captured ? VarUse::kCapturedDataflowVar : VarUse::kOk;
  }
  if (var == binding_var_ && !binding_is_function_) return VarUse::kSelfReference;
  if (it != vars_.end()) {
    return it->second.dataflow_block_ended ? VarUse::kOutsideDataflowBlock : VarUse::kOutOfScope;
  }
  return bound_in_function_.count(var) != 0 ? VarUse::kBeforeBinding : VarUse::kNeverBound;
}

void RelaxChecker::check_var_use(const VarNode* var, Span span) {
  const std::string in_site = site_.empty() ? "" : " (in " + site_ + ")";
  switch (classify_var_use(var)) {
    case VarUse::kOk:
      return;
    case VarUse::kCapturedDataflowVar:
      error(span, "[rule 11] " + functions_.back().name + " uses DataflowVar '" + var->name +
                      "' of the enclosing dataflow block; a local function may not capture "
                      "DataflowVars" +
                      in_site);
      return;
    case VarUse::kOutsideDataflowBlock:
      error(span, "[rule 1] DataflowVar '" + var->name +
                      "' is used outside the dataflow block that binds it" + in_site);
      return;
    case VarUse::kSelfReference:
      error(span, "[rule 2] " + var_title(var) +
                      " is used in its own binding; only a binding of a local function may "
                      "refer to its own variable");
      return;
    case VarUse::kOutOfScope:
      error(span,
            "[rule 2] " + var_title(var) + " is used outside the scope of its binding" + in_site);
      return;
    case VarUse::kBeforeBinding:
      error(span, "[rule 3] " + var_title(var) + " is used before it is bound" + in_site);
      return;
    case VarUse::kNeverBound:
      error(span, "[rule 2] " + var_title(var) + " is used" + in_site +
                      " but is neither a parameter nor bound by a binding of function '" +
                      global_name_ + "'");
      return;
  }
}

void RelaxChecker::check_global_use(const GlobalVarNode* gv, Span span) {
  if (!facts_->module->lookup(gv->name).defined()) {
    error(span, "[rule 2] GlobalVar '" + gv->name + "' is not bound in the module" +
                    (site_.empty() ? "" : " (used in " + site_ + ")"));
  }
}

// ---------------------------------------------------------------- Functions

void RelaxChecker::check_function(const FunctionNode* func, Span span, const std::string& name,
                                  const VarNode* self) {
  if (func->span.defined()) span = func->span;
  DepthGuard guard(&depth_, reporter_, &depth_reported_, span);
  if (!guard.ok()) return;
  bool force_pure = has_force_pure(func->attrs);
  if (force_pure && !func->is_pure) {
    error(span, "[rule 21] " + name +
                    " has the attribute relax.force_pure but is not pure (is_pure is false); "
                    "force_pure may only be set on a pure function");
  }
  functions_.push_back({name, func->is_pure, force_pure, self});
  bool saved_dataflow = in_dataflow_;
  const VarNode* saved_binding_var = binding_var_;
  bool saved_binding_is_function = binding_is_function_;
  std::string saved_site = site_;
  size_t saved_seq_frame = seq_frame_;
  in_dataflow_ = false;
  binding_var_ = nullptr;
  push_var_frame();
  push_shape_frame();
  seq_frame_ = var_frames_.size() - 1;

  check_params(func, span, name);
  if (!func->body.defined()) {
    error(span, "[ir] " + name + " has no body");
  } else if (const auto* seq = func->body.as<SeqExprNode>()) {
    check_seq_expr(seq, span, "the body of " + name, "the return value of " + name);
  } else {
    error(func->body->span.defined() ? func->body->span : span,
          "[normal form 3] the body of " + name + " is " + describe_expr_kind(func->body.get()) +
              ", not a SeqExpr");
    site_ = "the return value of " + name;
    check_expr(func->body, Position::kSeqBody, span);
  }

  pop_shape_frame();
  pop_var_frame();
  seq_frame_ = saved_seq_frame;
  site_ = saved_site;
  binding_var_ = saved_binding_var;
  binding_is_function_ = saved_binding_is_function;
  in_dataflow_ = saved_dataflow;
  functions_.pop_back();
}

void RelaxChecker::check_params(const FunctionNode* func, Span span, const std::string& name) {
  for (const Var& param : func->params) {
    if (!param.defined()) {
      error(span, "[ir] a parameter of " + name + " is null");
      continue;
    }
    Span param_span = param->span.defined() ? param->span : span;
    if (is_dataflow_var(param.get())) {
      error(param_span, "[rule 1] DataflowVar '" + param->name + "' is a parameter of " + name +
                            "; only a dataflow block may bind a DataflowVar");
    }
    define_var(param.get(), param_span, /*is_param=*/true);
  }
  // Rule 6: the signature binds a shape variable wherever one stands alone, in any
  // parameter; only then are the other dimensions checked, so order does not matter.
  for (const Var& param : func->params) {
    if (param.defined()) define_binding_positions(param->struct_info);
  }
  for (const Var& param : func->params) {
    if (!param.defined()) continue;
    AnnotationSite site{"the annotation of parameter '" + param->name + "'",
                        param->span.defined() ? param->span : span, AnnotationSite::Kind::kVariable,
                        6};
    check_struct_info(param->struct_info, site);
  }
  if (func->ret_struct_info.defined()) {
    check_struct_info(func->ret_struct_info,
                      {"the return annotation of " + name, span, AnnotationSite::Kind::kOther, 4});
  }
}

// ---------------------------------------------------------------- SeqExpr and blocks

void RelaxChecker::check_seq_expr(const SeqExprNode* seq, Span span, const std::string& owner,
                                  const std::string& result_site) {
  if (seq->span.defined()) span = seq->span;
  check_block_layout(seq, span, owner);
  push_var_frame();
  push_shape_frame();
  size_t saved_seq_frame = seq_frame_;
  seq_frame_ = var_frames_.size() - 1;
  for (const BindingBlock& block : seq->blocks) {
    if (block.defined()) check_block(block.get());
  }
  if (!seq->body.defined()) {
    error(span, "[ir] " + owner + " has no result expression");
  } else {
    const VarNode* saved_binding_var = binding_var_;
    std::string saved_site = site_;
    site_ = result_site;
    binding_var_ = nullptr;
    check_expr(seq->body, Position::kSeqBody, span);
    binding_var_ = saved_binding_var;
    site_ = saved_site;
  }
  seq_frame_ = saved_seq_frame;
  pop_shape_frame();
  pop_var_frame();
}

// Normal form 4: blocks are consolidated, none is empty.
void RelaxChecker::check_block_layout(const SeqExprNode* seq, Span span, const std::string& owner) {
  const BindingBlockNode* previous = nullptr;
  for (const BindingBlock& block : seq->blocks) {
    if (!block.defined()) {
      error(span, "[ir] " + owner + " has a null binding block");
      continue;
    }
    // Where the block is, else where its first binding is.
    Span block_span = block->span;
    if (!block_span.defined() && !block->bindings.empty() && block->bindings.front().defined()) {
      block_span = block->bindings.front()->span;
    }
    if (!block_span.defined()) block_span = span;
    const char* kind = block->is_dataflow() ? "dataflow block" : "binding block";
    if (block->bindings.empty()) {
      error(block_span,
            "[normal form 4] " + owner + " has an empty " + kind + "; empty blocks are dropped");
      continue;
    }
    if (previous != nullptr && previous->is_dataflow() == block->is_dataflow()) {
      error(block_span, "[normal form 4] " + owner + " has two consecutive " + kind +
                            "s; consecutive blocks of one kind are merged into one");
    }
    previous = block.get();
  }
}

void RelaxChecker::check_block(const BindingBlockNode* block) {
  bool saved_dataflow = in_dataflow_;
  in_dataflow_ = block->is_dataflow();
  // A dataflow block is a scope of its own for its DataflowVars.
  if (in_dataflow_) push_var_frame();
  for (const Binding& binding : block->bindings) {
    if (!binding.defined()) {
      error(block->span, "[ir] a binding block holds a null binding");
      continue;
    }
    check_binding(binding.get());
  }
  if (in_dataflow_) pop_var_frame();
  in_dataflow_ = saved_dataflow;
}

void RelaxChecker::check_binding(const BindingNode* binding) {
  const VarNode* var = binding->var.get();
  Span span = binding->span;
  if (!span.defined() && var != nullptr) span = var->span;
  const auto* match_cast = binding->kind() == NodeKind::RelaxMatchCast
                               ? static_cast<const MatchCastNode*>(binding)
                               : nullptr;
  std::string name = var != nullptr ? var->name : "_";
  site_ = "the binding of '" + name + "'";
  if (var == nullptr && match_cast == nullptr) error(span, "[ir] a VarBinding has no variable");

  const VarNode* saved_binding_var = binding_var_;
  bool saved_binding_is_function = binding_is_function_;
  bool defines_function = match_cast == nullptr && binding->value.is<FunctionNode>();
  // Rule 2: a local function may call itself, so its variable is bound before its body.
  if (defines_function && var != nullptr) define_var(var, span, /*is_param=*/false);
  binding_var_ = var;
  binding_is_function_ = defines_function;
  if (!binding->value.defined()) {
    error(span, "[ir] " + site_ + " has no value");
  } else {
    check_expr(binding->value, Position::kBindingValue, span);
  }
  binding_var_ = saved_binding_var;
  binding_is_function_ = saved_binding_is_function;
  site_ = "the binding of '" + name + "'";

  if (match_cast != nullptr) {
    define_binding_positions(match_cast->struct_info);
    check_struct_info(match_cast->struct_info,
                      {"the StructInfo of the R.match_cast bound to '" + name + "'", span,
                       AnnotationSite::Kind::kOther, 0});
  }
  if (var == nullptr) return;
  if (!defines_function) define_var(var, span, /*is_param=*/false);
  if (match_cast == nullptr || !var->struct_info.same_as(match_cast->struct_info)) {
    check_struct_info(var->struct_info, {"the annotation of '" + name + "'", span,
                                         AnnotationSite::Kind::kVariable, 0});
  }
}

// ---------------------------------------------------------------- Expressions

void RelaxChecker::check_expr(const Expr& expr, Position position, Span span) {
  if (!expr.defined()) {
    error(span, "[ir] a null expression in " + site_);
    return;
  }
  // A variable's span is where it is bound; a use is located by its context.
  bool is_variable = expr.is<VarNode>() || expr.is<GlobalVarNode>();
  if (expr->span.defined() && !is_variable) span = expr->span;
  DepthGuard guard(&depth_, reporter_, &depth_reported_, span);
  if (!guard.ok()) return;
  if (!expr->struct_info.defined()) {
    error(span, "[ir] " + describe_expr_kind(expr.get()) + " in " + site_ +
                    " has no StructInfo; the normalizer gives every expression one");
  }
  switch (expr->kind()) {
    case NodeKind::RelaxVar:
    case NodeKind::RelaxDataflowVar:
      check_var_use(static_cast<const VarNode*>(expr.get()), span);
      return;
    case NodeKind::RelaxGlobalVar:
      check_global_use(static_cast<const GlobalVarNode*>(expr.get()), span);
      return;
    case NodeKind::RelaxConstant:
    case NodeKind::RelaxStringImm:
    case NodeKind::RelaxDataTypeImm:
    case NodeKind::RelaxExternFunc:
      return;
    case NodeKind::RelaxShapeExpr:
      for (const tir::PrimExpr& value : static_cast<const ShapeExprNode*>(expr.get())->values) {
        if (!value.defined()) {
          error(span, "[ir] a shape in " + site_ + " has a null dimension");
          continue;
        }
        check_shape_expr_uses(value, span, "a shape");
      }
      return;
    case NodeKind::RelaxPrimValue: {
      const tir::PrimExpr& value = static_cast<const PrimValueNode*>(expr.get())->value;
      if (!value.defined()) {
        error(span, "[ir] a PrimValue in " + site_ + " has no value");
        return;
      }
      bool immediate = value.is<tir::IntImmNode>() || value.is<tir::FloatImmNode>();
      if (!immediate || value->dtype.lanes() != 1) {
        error(span, "[rule 18] the PrimValue in " + site_ + " holds " + describe_prim_expr(value) +
                        "; a PrimValue holds only an integer or float immediate of one lane");
      }
      check_shape_expr_uses(value, span, "a PrimValue");
      return;
    }
    case NodeKind::RelaxTuple:
      for (const Expr& field : static_cast<const TupleNode*>(expr.get())->fields) {
        check_expr(field, Position::kOperand, span);
      }
      return;
    case NodeKind::RelaxOp:
      if (position != Position::kCallee) {
        error(span, "[rule 9] Op '" + static_cast<const OpNode*>(expr.get())->name +
                        "' is used as a value in " + site_ +
                        "; an Op may appear only as the callee of a Call");
      }
      return;
    case NodeKind::RelaxSeqExpr: {
      error(span, "[normal form 2] a SeqExpr appears in " + site_ +
                      "; a SeqExpr may appear only as a function body or an If branch");
      std::string owner = "the SeqExpr in " + site_;
      check_seq_expr(static_cast<const SeqExprNode*>(expr.get()), span, owner,
                     "the result of " + owner);
      return;
    }
    case NodeKind::RelaxCall:
      check_non_leaf_position(expr.get(), position, span);
      check_call(static_cast<const CallNode*>(expr.get()), span);
      return;
    case NodeKind::RelaxTupleGetItem:
      check_non_leaf_position(expr.get(), position, span);
      check_expr(static_cast<const TupleGetItemNode*>(expr.get())->tuple, Position::kOperand, span);
      return;
    case NodeKind::RelaxIf: {
      check_non_leaf_position(expr.get(), position, span);
      const auto* if_node = static_cast<const IfNode*>(expr.get());
      if (in_dataflow_) {
        error(span, "[rule 7] an If in " + site_ +
                        " is inside a dataflow block; dataflow blocks are free of control flow");
      }
      check_expr(if_node->cond, Position::kOperand, span);
      std::string site = site_;
      check_branch(if_node->true_branch, span, "the true branch of the If in " + site);
      site_ = site;
      check_branch(if_node->false_branch, span, "the false branch of the If in " + site);
      site_ = site;
      return;
    }
    case NodeKind::RelaxFunction: {
      check_non_leaf_position(expr.get(), position, span);
      bool bound = position == Position::kBindingValue && binding_var_ != nullptr;
      std::string name = bound ? "the local function '" + binding_var_->name + "'"
                               : "a local function in " + site_;
      std::string site = site_;
      check_function(static_cast<const FunctionNode*>(expr.get()), span, name,
                     bound ? binding_var_ : nullptr);
      site_ = site;
      return;
    }
    default:
      error(span, "[ir] " + site_ + " holds a node that is not a Relax expression");
      return;
  }
}

// Normal form 1: a non-leaf expression may only be the whole right-hand side.
void RelaxChecker::check_non_leaf_position(const ExprNode* expr, Position position, Span span) {
  switch (position) {
    case Position::kBindingValue:
      return;
    case Position::kSeqBody:
      error(span, "[normal form 1] " + site_ + " is " + describe_expr_kind(expr) +
                      ", not a leaf expression; it must be bound to a variable");
      return;
    case Position::kOperand:
    case Position::kCallee:
      error(span, "[normal form 1] " + describe_expr_kind(expr) + " is nested in " + site_ +
                      "; non-leaf subexpressions must be bound to variables");
      return;
  }
}

void RelaxChecker::check_branch(const Expr& branch, Span span, const std::string& where) {
  if (!branch.defined()) {
    error(span, "[ir] " + where + " is missing");
    return;
  }
  if (const auto* seq = branch.as<SeqExprNode>()) {
    check_seq_expr(seq, span, where, "the result of " + where);
    return;
  }
  error(branch->span.defined() ? branch->span : span,
        "[normal form 3] " + where + " is " + describe_expr_kind(branch.get()) + ", not a SeqExpr");
  site_ = "the result of " + where;
  check_expr(branch, Position::kSeqBody, span);
}

void RelaxChecker::check_call(const CallNode* call, Span span) {
  if (!call->op.defined()) {
    error(span, "[ir] a Call in " + site_ + " has no callee");
  } else {
    check_expr(call->op, Position::kCallee, span);
  }
  for (const Expr& arg : call->args) check_expr(arg, Position::kOperand, span);
  for (const StructInfo& sinfo : call->sinfo_args) {
    check_struct_info(
        sinfo, {"the sinfo_args of the call in " + site_, span, AnnotationSite::Kind::kOther, 0});
  }
  check_call_effects(call, span);
}

// Rule 7: no recursion and no impure call inside a dataflow block; and a function that
// says it is pure (without relax.force_pure) calls nothing impure.
void RelaxChecker::check_call_effects(const CallNode* call, Span span) {
  const Expr& op = call->op;
  if (!op.defined()) return;
  if (in_dataflow_) {
    if (const auto* gv = op.as<GlobalVarNode>()) {
      if (gv->name == global_name_) {
        error(span, "[rule 7] the call of '" + gv->name + "' in " + site_ +
                        " is a recursive call inside a dataflow block");
      } else if (facts_->recursive_pairs.count({global_name_, gv->name}) != 0) {
        error(span, "[rule 7] the call of '" + gv->name + "' in " + site_ +
                        " is inside a dataflow block, and '" + gv->name +
                        "' is mutually recursive with '" + global_name_ + "'");
      }
    } else if (const auto* var = op.as<VarNode>()) {
      for (const FunctionContext& context : functions_) {
        if (context.self == var) {
          error(span, "[rule 7] the call of '" + var->name + "' in " + site_ +
                          " is a recursive call inside a dataflow block");
          break;
        }
      }
    }
  }
  if (!callee_is_impure(op)) return;
  const FunctionContext& context = functions_.back();
  if (in_dataflow_) {
    error(span, "[rule 7] the call of the impure " + callee_name(op) + " in " + site_ +
                    " is inside a dataflow block; dataflow blocks are free of side effects");
  } else if (context.is_pure && !context.force_pure && op.is<GlobalVarNode>() &&
             facts_->module->prim_func(op.as<GlobalVarNode>()->name).defined()) {
    error(span, "[rule 7] " + context.name + " is pure, but " + site_ +
                    " calls the TensorIR function '" + op.as<GlobalVarNode>()->name +
                    "' directly, which writes into its arguments; use R.call_tir");
  } else if (context.is_pure && !context.force_pure) {
    error(span, "[rule 7] " + context.name + " is pure, but " + site_ + " calls the impure " +
                    callee_name(op) +
                    "; declare the function impure (pure=False) or set relax.force_pure");
  }
}

std::string RelaxChecker::callee_name(const Expr& op) const {
  if (const auto* o = op.as<OpNode>()) return "operator R." + op_script_name(o->name);
  if (const auto* gv = op.as<GlobalVarNode>()) return "function '" + gv->name + "'";
  if (const auto* ext = op.as<ExternFuncNode>()) {
    return "packed function '" + ext->global_symbol + "'";
  }
  if (const auto* var = op.as<VarNode>()) return "function '" + var->name + "'";
  return "callee";
}

bool RelaxChecker::callee_is_impure(const Expr& op) const {
  return relax::callee_is_impure(op, IRModule(facts_->module));
}

void RelaxChecker::check_shape_expr_uses(const tir::PrimExpr& e, Span span,
                                         const std::string& what) {
  PrimExprUses uses(reporter_, [&](const tir::VarNode* var, Span use_span) {
    ShapeVarUse use = classify_shape_var_use(var);
    if (use == ShapeVarUse::kOk || !reported_shape_vars_.insert(var).second) return;
    switch (use) {
      case ShapeVarUse::kOk:
        return;
      case ShapeVarUse::kScopeEnded:
        error(use_span, "[rule 5] shape variable '" + var->name + "' is used in " + what + " in " +
                            site_ + " outside the scope that binds it");
        return;
      case ShapeVarUse::kNotBound:
        error(use_span, "[rule 5] shape variable '" + var->name + "' is used in " + what + " in " +
                            site_ +
                            " before it is bound; a function signature or R.match_cast binds "
                            "shape variables");
        return;
    }
  });
  uses.visit(e, span);
}

}  // namespace relaxc::relax::well_formed
