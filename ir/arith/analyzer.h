// Symbolic integer arithmetic over TensorIR expressions: a canonicalizing simplifier,
// integer bounds, and a prover that says "unknown" where it cannot decide.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>

#include "ir/tir/stmt.h"

namespace relaxc::arith {

enum class Proof { True, False, Unknown };

// Inclusive bounds of an integer expression; kNegInf / kPosInf mean unbounded.
struct ConstIntBound {
  static constexpr int64_t kNegInf = std::numeric_limits<int64_t>::min();
  static constexpr int64_t kPosInf = std::numeric_limits<int64_t>::max();
  int64_t min = kNegInf;
  int64_t max = kPosInf;
};

// Holds what is known about variables (ranges, values) and answers questions about
// expressions over them. Size vars (tir::size_var) are known to be non-negative.
class Analyzer {
 public:
  Analyzer();
  ~Analyzer();
  Analyzer(const Analyzer&) = delete;
  Analyzer& operator=(const Analyzer&) = delete;

  // `v` lies in [range->min, range->min + range->extent).
  void bind(const tir::Var& v, const tir::Range& range);
  // `v` lies in [min, max] (inclusive).
  void bind_bounds(const tir::Var& v, int64_t min, int64_t max);
  // `v` equals `value` (substituted when simplifying).
  void bind_value(const tir::Var& v, const tir::PrimExpr& value);

  // Canonical form: constants folded, linear terms collected in a stable order,
  // floordiv/floormod and min/max rules applied. Equal integer expressions over the
  // same variables simplify to structurally equal results as far as the rules reach.
  tir::PrimExpr simplify(const tir::PrimExpr& e);
  ConstIntBound const_int_bound(const tir::PrimExpr& e);

  // Decides a boolean expression: True if it holds for every value of the variables
  // within their known ranges, False if it holds for none, Unknown otherwise.
  Proof prove(const tir::PrimExpr& cond);
  bool can_prove(const tir::PrimExpr& cond) { return prove(cond) == Proof::True; }
  bool can_prove_equal(const tir::PrimExpr& a, const tir::PrimExpr& b);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Simplifies with no knowledge of variables beyond size vars being non-negative.
tir::PrimExpr simplify(const tir::PrimExpr& e);

}  // namespace relaxc::arith
