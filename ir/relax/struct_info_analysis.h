// StructInfo analysis: subsumption (is_base_of), least common ancestor, erasure of
// out-of-scope shape information, and derivation of a call's result StructInfo.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/relax/expr.h"

namespace relaxc::relax {

// How a value of StructInfo `derived` relates to StructInfo `base` (TVM's graded answer).
enum class BaseCheck {
  Fail,          // statically incompatible: no value described by `derived` fits `base`
  RuntimeCheck,  // may fit: something is not statically known or not provable with arith
  Pass,          // every value described by `derived` fits `base`
};

// Whether two dimensions are equal: provably (True), provably not (False), or not
// decidable (Unknown). Dimensions of different integer widths are compared as int64.
arith::Proof prove_dim_equal(const PrimExpr& a, const PrimExpr& b, arith::Analyzer& analyzer);

// Whether `base` subsumes `derived`. Function parameters are contravariant, results
// covariant; a pure function fits an impure FuncStructInfo but not the other way round.
// Dimensions are compared with `analyzer` (a fresh one when null).
BaseCheck is_base_of(const StructInfo& base, const StructInfo& derived,
                     arith::Analyzer* analyzer = nullptr);

// The most specific StructInfo that is a base of both `a` and `b` (for the result of
// an If): what both agree on is kept, the rest becomes unknown.
StructInfo struct_info_lca(const StructInfo& a, const StructInfo& b,
                           arith::Analyzer* analyzer = nullptr);

// What a variable becomes in substitute_struct_info: the variable itself (kept),
// another expression (substituted), or null (out of scope: the information that
// mentions it is dropped).
using ShapeVarMap = std::function<PrimExpr(const tir::Var&)>;
using RelaxVarMap = std::function<Expr(const Var&)>;

// `sinfo` with every shape variable and Relax variable mapped: substituted dimensions
// are simplified; a dimension that mentions an erased shape variable drops the shape
// (keeping ndim); a tensor shape given by an erased Var falls back to that Var's own
// ShapeStructInfo. A FuncStructInfo keeps its parameters and the shape variables they
// define; the rest of its result is mapped.
StructInfo substitute_struct_info(const StructInfo& sinfo, const ShapeVarMap& shape_var_map,
                                  const RelaxVarMap& var_map);

// `sinfo` as seen where exactly the listed variables are in scope (a function's result
// seen from a caller): substitute_struct_info erasing every other variable.
StructInfo erase_to_well_defined(const StructInfo& sinfo,
                                 const std::vector<tir::Var>& defined_shape_vars,
                                 const std::vector<Var>& defined_vars);

// The result StructInfo of calling a function of StructInfo `callee` (with params) on
// `args`: the callee's shape variables are bound by matching its parameters against
// the arguments' StructInfo (bare-variable dimensions bind, in any parameter order),
// then substituted into its result; what stays unbound is erased. A wrong argument
// count or a statically incompatible argument is a UserError at `span` that names
// `callee_name`; an argument that needs a run-time check is accepted.
StructInfo derive_call_ret_struct_info(const FuncStructInfoNode& callee,
                                       const std::vector<Expr>& args,
                                       const std::string& callee_name, Span span,
                                       arith::Analyzer* analyzer = nullptr);

}  // namespace relaxc::relax
