// Integer bounds of expressions by interval propagation (the analyzer's
// const_int_bound), and the interval arithmetic the simplifier shares.
#pragma once

#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "ir/arith/analysis_context.h"

namespace relaxc::arith {

// Interval arithmetic on ConstIntBound: kNegInf / kPosInf are infinite, results that
// leave int64 saturate to them, and every result contains all possible values.
ConstIntBound bound_add(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_mul(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_scale(const ConstIntBound& a, int64_t k);
// The intersection; the first argument when the two are disjoint.
ConstIntBound bound_intersect(const ConstIntBound& a, const ConstIntBound& b);
ConstIntBound bound_union(const ConstIntBound& a, const ConstIntBound& b);
inline ConstIntBound bound_point(int64_t v) { return ConstIntBound{v, v}; }

// Computes bounds for one query; results are cached per node for its lifetime.
class BoundAnalyzer {
 public:
  BoundAnalyzer(const FactMap& facts, WorkBudget& budget) : facts_(facts), budget_(budget) {}

  ConstIntBound bound(const tir::PrimExpr& e);

 private:
  ConstIntBound visit(const tir::PrimExpr& e);
  ConstIntBound var_bound(const tir::Var& v);
  ConstIntBound sum_chain_bound(const tir::PrimExpr& e);

  const FactMap& facts_;
  WorkBudget& budget_;
  // Keyed by node; the Ref keeps the key alive so that its address is not reused.
  std::unordered_map<const Object*, std::pair<tir::PrimExpr, ConstIntBound>> memo_;
  // Variables whose bound value is being expanded (breaks cycles in bind_value).
  std::unordered_set<const Object*> expanding_;
};

}  // namespace relaxc::arith
