// The Analyzer: what is known about variables, and the queries over it (simplify,
// bounds, prove). Each query runs with a fresh work budget; one that runs out answers
// conservatively instead of failing.
#include "ir/arith/analyzer.h"

#include "ir/arith/bound_analyzer.h"
#include "ir/arith/int_math.h"
#include "ir/arith/simplifier.h"

namespace relaxc::arith {

struct Analyzer::Impl {
  FactMap facts;
};

Analyzer::Analyzer() : impl_(std::make_unique<Impl>()) {}
Analyzer::~Analyzer() = default;

void Analyzer::bind(const tir::Var& v, const tir::Range& range) {
  if (!v.defined() || !range.defined() || !range->min.defined() || !range->extent.defined()) return;
  ConstIntBound low = const_int_bound(range->min);
  ConstIntBound high;
  if (range->min->dtype == range->extent->dtype && is_canonical_int(range->min->dtype)) {
    // As one expression, min and extent may cancel: [n, n + 16) ends at n + 15.
    high = const_int_bound(
        tir::sub(tir::add(range->min, range->extent), tir::int_imm(range->min->dtype, 1)));
  } else {
    high = bound_add(bound_add(low, const_int_bound(range->extent)), bound_point(-1));
  }
  bind_bounds(v, low.min, high.max);
}

void Analyzer::bind_bounds(const tir::Var& v, int64_t min, int64_t max) {
  if (!v.defined()) return;
  impl_->facts[v].bound = ConstIntBound{min, max};
}

void Analyzer::bind_value(const tir::Var& v, const tir::PrimExpr& value) {
  if (!v.defined()) return;
  impl_->facts[v].value = value;
}

tir::PrimExpr Analyzer::simplify(const tir::PrimExpr& e) {
  if (!e.defined()) return e;
  try {
    WorkBudget budget;
    Simplifier simplifier(impl_->facts, budget);
    return simplifier.simplify(e);
  } catch (const LimitReached&) {
    return e;
  }
}

ConstIntBound Analyzer::const_int_bound(const tir::PrimExpr& e) {
  if (!e.defined()) return ConstIntBound{};
  ConstIntBound bound;
  try {
    WorkBudget budget;
    bound = BoundAnalyzer(impl_->facts, budget).bound(e);
  } catch (const LimitReached&) {
  }
  // The canonical form may bound tighter (x - x is 0, whatever x's range).
  tir::PrimExpr simplified = simplify(e);
  if (simplified.same_as(e)) return bound;
  try {
    WorkBudget budget;
    bound = bound_intersect(bound, BoundAnalyzer(impl_->facts, budget).bound(simplified));
  } catch (const LimitReached&) {
  }
  return bound;
}

Proof Analyzer::prove(const tir::PrimExpr& cond) {
  if (!cond.defined()) return Proof::Unknown;
  tir::PrimExpr simplified = simplify(cond);
  if (const int64_t* v = tir::as_const_int(simplified)) return *v != 0 ? Proof::True : Proof::False;
  return Proof::Unknown;
}

bool Analyzer::can_prove_equal(const tir::PrimExpr& a, const tir::PrimExpr& b) {
  if (!a.defined() || !b.defined()) return false;
  tir::PrimExpr x = a, y = b;
  if (x->dtype != y->dtype) {
    // Integers of different widths compare by value.
    if (!is_canonical_int(x->dtype) || !is_canonical_int(y->dtype)) return false;
    if (x->dtype != DataType::Int(64)) x = tir::cast(DataType::Int(64), x);
    if (y->dtype != DataType::Int(64)) y = tir::cast(DataType::Int(64), y);
  }
  return prove(tir::eq(x, y)) == Proof::True;
}

tir::PrimExpr simplify(const tir::PrimExpr& e) {
  Analyzer analyzer;
  return analyzer.simplify(e);
}

}  // namespace relaxc::arith
