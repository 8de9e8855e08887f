// The well-formedness checker's entry point and its module-level checks.
//
// Algorithm: one pass over the module. Module-level facts come first: every global
// name is bound once (rule 2) and matches its global_symbol (rule 13), and the call
// graph between global functions gives the mutually recursive pairs that rule 7 bans
// from dataflow blocks. Then each Relax function is walked once in evaluation order
// (well_formed_relax.cc) with the set of Relax variables and shape variables in scope,
// which decides the scoping rules (1-6, 11, 14-16) at each use; StructInfo annotations
// are checked where they occur (well_formed_struct_info.cc); each PrimFunc gets the
// cheap TensorIR checks (well_formed_tir.cc). Every violation is reported, none stops
// the walk.
//
// Rules not enforced, on purpose:
// - Rule 8 («later»: a recursive function needs a return annotation). Normalized
//   functions always carry ret_struct_info (the normalizer derives it from the body
//   when none is written), so a module cannot tell an annotation from an inferred one;
//   the normalizer is where a recursive call without a known result is rejected.
// - Rule 12 («later»: some global function is externally linked). Modules of private
//   helpers, modules of PrimFuncs only and the intermediate modules of passes are
//   legitimate; the entry point is chosen when the module is built into an executable,
//   which reports a missing one.
#include "ir/relax/well_formed.h"

#include <algorithm>
#include <map>
#include <type_traits>
#include <unordered_set>
#include <utility>

#include "ir/node_dispatch.h"
#include "ir/relax/well_formed_checker.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace well_formed {

void Reporter::error(Span span, std::string message) {
  auto key = std::make_tuple(span.file, span.line, span.col, message);
  if (!seen_.insert(std::move(key)).second) return;
  diagnostics_->error(span, std::move(message));
}

DepthGuard::DepthGuard(int* depth, Reporter* reporter, bool* reported, Span span)
    : depth_(depth), ok_(++*depth <= kMaxNestingDepth) {
  if (!ok_ && !*reported) {
    *reported = true;
    reporter->error(span, "[ir] the IR is nested more than " + std::to_string(kMaxNestingDepth) +
                              " levels deep here; the checker does not look deeper");
  }
}

namespace {

const char* article_for(const std::string& word) {
  return !word.empty() && std::string("AEIOU").find(word[0]) != std::string::npos ? "an" : "a";
}

}  // namespace

void for_each_reachable_node(const Object* root, const std::function<void(const Object*)>& visit) {
  if (root == nullptr) return;
  std::vector<const Object*> stack = {root};
  std::unordered_set<const Object*> seen = {root};
  std::vector<const Object*> children;
  while (!stack.empty()) {
    const Object* node = stack.back();
    stack.pop_back();
    visit(node);
    children.clear();
    dispatch(node, [&](const auto* typed) {
      for_each_field(typed, [&](const auto& field) {
        for_each_ref(field, [&](const auto& child) {
          if (child.defined()) children.push_back(child.get());
        });
      });
    });
    for (const Object* child : children) {
      if (seen.insert(child).second) stack.push_back(child);
    }
  }
}

std::string describe_expr_kind(const Object* expr) {
  std::string kind = node_kind_name(expr->kind());
  if (kind.rfind("Relax", 0) == 0) kind = kind.substr(5);
  return std::string(article_for(kind)) + " " + kind;
}

std::string describe_prim_expr(const tir::PrimExpr& e) {
  if (!e.defined()) return "nothing";
  if (const auto* v = e.as<tir::VarNode>()) return "the variable '" + v->name + "'";
  std::string kind = node_kind_name(e->kind());
  if (kind.rfind("Tir", 0) == 0) kind = kind.substr(3);
  return std::string(article_for(kind)) + " " + kind + " expression";
}

// An integer division or remainder by the constant 0 has no value: the back ends' code
// for it is undefined (LLVM drops the whole store), so no run can be right.
void PrimExprUses::check_division(const tir::PrimExpr& e, Span span) {
  const tir::PrimExpr* divisor = nullptr;
  if (const auto* div = e.as<tir::DivNode>()) divisor = &div->b;
  if (const auto* mod = e.as<tir::ModNode>()) divisor = &mod->b;
  if (const auto* div = e.as<tir::FloorDivNode>()) divisor = &div->b;
  if (const auto* mod = e.as<tir::FloorModNode>()) divisor = &mod->b;
  if (divisor == nullptr || !divisor->defined() || !e->dtype.is_integer()) {
    return;
  }
  const int64_t* value = tir::as_const_int(*divisor);
  if (value == nullptr || *value != 0) return;
  reporter_->error(span, "[tir] '" + text::print_node(e) +
                             "' divides by the constant 0; an integer division or remainder "
                             "needs a divisor other than 0");
}

// A handle is a buffer's address: no back end converts it to or from a number.
void PrimExprUses::check_cast(const tir::PrimExpr& e, Span span) {
  const auto* cast = e.as<tir::CastNode>();
  if (cast == nullptr || !cast->value.defined()) return;
  if (!cast->dtype.is_handle() && !cast->value->dtype.is_handle()) return;
  reporter_->error(span, "[tir] '" + text::print_node(e) + "' casts " + cast->value->dtype.str() +
                             " to " + cast->dtype.str() +
                             "; a cast converts between bool, integer and float types");
}

// Booleans have logic, not arithmetic: no back end defines + or * on them.
void PrimExprUses::check_bool_arithmetic(const tir::PrimExpr& e, Span span) {
  if (!e->dtype.is_bool()) return;
  NodeKind k = e->kind();
  bool arithmetic = k == NodeKind::TirAdd || k == NodeKind::TirSub || k == NodeKind::TirMul ||
                    k == NodeKind::TirDiv || k == NodeKind::TirMod || k == NodeKind::TirFloorDiv ||
                    k == NodeKind::TirFloorMod;
  if (!arithmetic) return;
  reporter_->error(span, "[tir] '" + text::print_node(e) +
                             "' is arithmetic on booleans; use and, or, not (or cast the "
                             "operands to an integer type)");
}

void PrimExprUses::visit(const tir::PrimExpr& e, Span span) {
  let_bound_.clear();
  visit_rec(e, span);
}

void PrimExprUses::visit_rec(const tir::PrimExpr& e, Span span) {
  if (!e.defined()) return;
  // A variable's span is its declaration; a use is located by its context.
  if (e->span.defined() && !e.is<tir::VarNode>()) span = e->span;
  DepthGuard guard(&depth_, reporter_, &depth_reported_, span);
  if (!guard.ok()) return;
  if (const auto* var = e.as<tir::VarNode>()) {
    if (std::find(let_bound_.begin(), let_bound_.end(), var) == let_bound_.end())
      on_var_(var, span);
    return;
  }
  if (const auto* let = e.as<tir::LetNode>()) {
    visit_rec(let->value, span);
    let_bound_.push_back(let->var.get());
    visit_rec(let->body, span);
    let_bound_.pop_back();
    return;
  }
  if (const auto* load = e.as<tir::BufferLoadNode>()) {
    if (load->buffer.defined() && on_load_) on_load_(load, span);
  }
  check_division(e, span);
  check_cast(e, span);
  check_bool_arithmetic(e, span);
  dispatch(e.get(), [&](const auto* node) {
    for_each_field(node, [&](const auto& field) {
      using Field = std::decay_t<decltype(field)>;
      if constexpr (std::is_same_v<Field, tir::PrimExpr>) {
        visit_rec(field, span);
      } else if constexpr (std::is_same_v<Field, std::vector<tir::PrimExpr>>) {
        for (const tir::PrimExpr& item : field) visit_rec(item, span);
      }
    });
  });
}

}  // namespace well_formed

namespace {

using well_formed::Reporter;

Span function_span(const Ref<Object>& func) {
  if (const auto* f = func.as<FunctionNode>()) return f->span;
  if (const auto* f = func.as<tir::PrimFuncNode>()) return f->span;
  return {};
}

// Rule 2 for global names, rule 13, and what a global may be bound to.
void check_globals(const IRModuleNode& module, Reporter* reporter) {
  std::unordered_set<std::string> names;
  for (const auto& [gv, func] : module.functions) {
    if (!gv.defined()) {
      reporter->error(function_span(func), "[ir] a function of the module has no GlobalVar");
      continue;
    }
    Span span = function_span(func).defined() ? function_span(func) : gv->span;
    if (!names.insert(gv->name).second) {
      reporter->error(
          span, "[rule 2] GlobalVar '" + gv->name + "' is bound more than once in the module");
    }
    const Attrs* attrs = nullptr;
    if (const auto* f = func.as<FunctionNode>()) {
      attrs = &f->attrs;
    } else if (const auto* f = func.as<tir::PrimFuncNode>()) {
      attrs = &f->attrs;
    } else {
      reporter->error(
          span, "[ir] GlobalVar '" + gv->name +
                    "' is bound to something that is neither a Relax function nor a PrimFunc");
      continue;
    }
    // Rule 13 («later» in the spec): TVM enforces it, and the text format relies on it
    // (a function is public exactly when global_symbol equals its name).
    if (const AttrValue* symbol = attrs->find("global_symbol")) {
      if (symbol->kind != AttrValue::Kind::String) {
        reporter->error(span, "[rule 13] the global_symbol attribute of function '" + gv->name +
                                  "' must be a string");
      } else if (symbol->s != gv->name) {
        reporter->error(span, "[rule 13] function '" + gv->name + "' has global_symbol '" +
                                  symbol->s + "', which differs from its name");
      }
    }
  }
}

// The pairs of global Relax functions that reach each other through references.
std::set<std::pair<std::string, std::string>> recursive_pairs(const IRModuleNode& module) {
  std::map<std::string, std::set<std::string>> callees;
  for (const auto& [gv, func] : module.functions) {
    if (!gv.defined() || !func.is<FunctionNode>()) continue;
    std::set<std::string>& out = callees[gv->name];
    well_formed::for_each_reachable_node(func.get(), [&](const Object* node) {
      if (node->kind() == NodeKind::RelaxGlobalVar) {
        out.insert(static_cast<const GlobalVarNode*>(node)->name);
      }
    });
  }
  std::map<std::string, std::set<std::string>> reaches;
  for (const auto& [start, direct] : callees) {
    std::set<std::string>& seen = reaches[start];
    std::vector<std::string> work(direct.begin(), direct.end());
    while (!work.empty()) {
      std::string name = std::move(work.back());
      work.pop_back();
      if (!seen.insert(name).second) continue;
      auto it = callees.find(name);
      if (it != callees.end()) work.insert(work.end(), it->second.begin(), it->second.end());
    }
  }
  std::set<std::pair<std::string, std::string>> pairs;
  for (const auto& [a, reached] : reaches) {
    for (const std::string& b : reached) {
      auto back = reaches.find(b);
      if (back != reaches.end() && back->second.count(a) != 0) pairs.emplace(a, b);
    }
  }
  return pairs;
}

}  // namespace

DiagnosticList check_well_formed(const IRModule& module) {
  DiagnosticList diagnostics;
  if (!module.defined()) {
    diagnostics.error({}, "[ir] the module is null");
    return diagnostics;
  }
  Reporter reporter(&diagnostics);
  check_globals(*module, &reporter);
  well_formed::ModuleFacts facts;
  facts.module = module.get();
  facts.recursive_pairs = recursive_pairs(*module);
  well_formed::RelaxChecker relax_checker(&facts, &reporter);
  // A function object bound under two names is checked once: its variables are still
  // bound once each.
  std::unordered_set<const Object*> checked;
  for (const auto& [gv, func] : module->functions) {
    if (!gv.defined() || !checked.insert(func.get()).second) continue;
    if (const auto* f = func.as<FunctionNode>()) {
      relax_checker.check_global_function(gv.get(), f);
    } else if (const auto* f = func.as<tir::PrimFuncNode>()) {
      well_formed::check_prim_func(gv->name, f, &reporter);
    }
  }
  return diagnostics;
}

}  // namespace relaxc::relax
