// Analyses of Relax expressions: free and bound variables, the symbolic (shape)
// variables used and defined, and the global functions referred to.
#pragma once

#include <vector>

#include "ir/module.h"
#include "ir/relax/expr.h"

namespace relaxc::relax {

// The variables `expr` uses but does not bind, in order of first use. Binding a
// variable anywhere in `expr` (a parameter, a binding) makes all its uses bound, so a
// local function that calls itself has no free occurrence of its own variable.
std::vector<Var> free_vars(const Expr& expr);

// The variables `expr` binds (function parameters and binding variables), each once,
// in the order the visitor meets them: a binding's variable after the variables bound
// inside its value.
std::vector<Var> bound_vars(const Expr& expr);

// The symbolic variables (tir::Vars) that `expr` uses in shapes, StructInfo and
// PrimValues without defining them, in order of first use. A function's parameter
// annotations define the variables that stand alone in them, for the whole function
// (in any parameter order); a MatchCast's pattern defines those that stand alone in
// it, for the rest of its SeqExpr.
std::vector<tir::Var> free_symbolic_vars(const Expr& expr);
// The symbolic variables that `sinfo` uses, in order of first use, except those that a
// FuncStructInfo's parameters define for it.
std::vector<tir::Var> free_symbolic_vars(const StructInfo& sinfo);

// The symbolic variables that `sinfo` can define when it annotates a parameter or is a
// MatchCast's pattern (the spec's binding positions, rule 5): those that stand alone as
// a dimension of a TensorStructInfo's ShapeExpr or of a ShapeStructInfo, or as the
// value of a PrimStructInfo, also inside tuples; each once, in order.
std::vector<tir::Var> defined_symbolic_vars(const StructInfo& sinfo);

// The global functions that `expr` refers to, as a callee or as an argument (the
// PrimFunc of a call_tir), each name once, in order of first reference.
std::vector<GlobalVar> called_global_vars(const Expr& expr);

// Whether calling `op` is known to be impure: an impure operator, an impure Relax
// function of `module`, a PrimFunc of `module` called directly (it writes into the
// buffers its caller passes), or a callee whose FuncStructInfo says so.
bool callee_is_impure(const Expr& op, const IRModule& module);

// Whether evaluating `expr` may call an impure callee, outside the bodies of the
// functions it defines (defining a function calls nothing).
bool contains_impure_call(const Expr& expr, const IRModule& module);

}  // namespace relaxc::relax
