// The canonical simplifier behind Analyzer::simplify, for one query.
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ir/arith/bound_analyzer.h"
#include "ir/arith/linear_sum.h"

namespace relaxc::arith {

// Signed integer expressions are computed as LinearSums (canonical_simplify.cc);
// booleans, comparisons and everything else are rewritten as expressions
// (simplify_logic.cc). Results are cached per node, so shared subtrees are simplified
// once.
class Simplifier {
 public:
  Simplifier(const FactMap& facts, WorkBudget& budget)
      : facts_(facts), budget_(budget), order_(budget), algebra_(order_), bounds_(facts, budget) {}

  tir::PrimExpr simplify(const tir::PrimExpr& e);

 private:
  // --- Signed integers (canonical_simplify.cc).
  LinearSum visit_int(const tir::PrimExpr& e);
  LinearSum visit_int_node(const tir::PrimExpr& e);
  LinearSum visit_sum_chain(const tir::PrimExpr& e);
  LinearSum visit_mul(const tir::MulNode* m, const tir::PrimExpr& e);
  LinearSum visit_division(const tir::PrimExpr& e, const tir::PrimExpr& a, const tir::PrimExpr& b);
  // floordiv (or floormod if `mod`) of x by the nonzero constant c; nullopt where no
  // exact rewrite is representable (overflow, a constant that does not fit `dtype`).
  std::optional<LinearSum> floor_divide(const LinearSum& x, int64_t c, DataType dtype, bool mod);
  std::optional<LinearSum> floor_divide_positive(const LinearSum& x, int64_t c, DataType dtype,
                                                 bool mod);
  // The same for a remainder r: no coefficient divisible by c, constant in [0, c).
  std::optional<LinearSum> divide_remainder(const LinearSum& r, int64_t c, DataType dtype,
                                            bool mod);
  // The same for a remainder whose terms split into a multiple of a divisor d of c and a
  // part within [0, d); nullopt where none does.
  std::optional<LinearSum> divide_by_coarse_part(const LinearSum& r, int64_t c, DataType dtype,
                                                 bool mod);
  LinearSum visit_min_max(const tir::PrimExpr& e);
  LinearSum visit_select(const tir::SelectNode* s, const tir::PrimExpr& e);
  LinearSum visit_cast_to_int(const tir::CastNode* c, const tir::PrimExpr& e);
  // Rewrites x - floordiv(x, c) * c into floormod(x, c), and back, where that shrinks
  // the sum.
  LinearSum merge_div_mod(LinearSum sum, DataType dtype);
  // Rewrites c * min(a, b) + c * max(a, b) into c * a + c * b.
  LinearSum merge_min_max(LinearSum sum);
  LinearSum atom(const tir::PrimExpr& e);
  // The canonical expression of `sum`, or `fallback` if a constant does not fit.
  tir::PrimExpr materialize(const LinearSum& sum, DataType dtype, const tir::PrimExpr& fallback);
  ConstIntBound sum_bound(const LinearSum& sum);

  // --- Booleans and the rest (simplify_logic.cc).
  tir::PrimExpr visit_expr(const tir::PrimExpr& e);
  tir::PrimExpr visit_expr_node(const tir::PrimExpr& e);
  tir::PrimExpr visit_compare(const tir::PrimExpr& e, NodeKind kind, const tir::PrimExpr& a,
                              const tir::PrimExpr& b);
  tir::PrimExpr compare_ints(NodeKind kind, const LinearSum& a, const LinearSum& b,
                             DataType operand_dtype, const tir::PrimExpr& original);
  tir::PrimExpr visit_logic_chain(const tir::PrimExpr& e);
  // The simplified negation of an already simplified boolean.
  tir::PrimExpr negate(const tir::PrimExpr& simplified);
  tir::PrimExpr fold_float(const tir::PrimExpr& e);
  // `e` with each child simplified; rebuilt only where a child changed.
  tir::PrimExpr rebuild_children(const tir::PrimExpr& e);
  // The value bound to variable `v` (cast to its type), or null if none or if it is
  // already being expanded.
  tir::PrimExpr bound_value(const tir::Var& v);

  const FactMap& facts_;
  WorkBudget& budget_;
  ExprOrder order_;
  SumAlgebra algebra_;
  BoundAnalyzer bounds_;
  // Caches keyed by node; each Ref keeps its key alive so that addresses stay unique.
  std::unordered_map<const Object*, std::pair<tir::PrimExpr, LinearSum>> int_memo_;
  std::unordered_map<const Object*, std::pair<tir::PrimExpr, tir::PrimExpr>> expr_memo_;
  std::unordered_set<const Object*> expanding_;
};

}  // namespace relaxc::arith
