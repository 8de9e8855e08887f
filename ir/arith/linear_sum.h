// The canonical form of an integer expression: a constant plus a sum of
// coefficient x monomial terms, where a monomial is a sorted product of atoms (variables
// and expressions the algebra does not see into: floordiv, min, loads, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/arith/analysis_context.h"
#include "ir/tir/expr.h"

namespace relaxc::arith {

struct Term {
  std::vector<tir::PrimExpr> factors;  // sorted by ExprOrder, never empty
  int64_t coeff = 0;                   // never 0 in a normalized sum
};

// Terms are sorted by their factor lists, with no two alike and no zero coefficients.
// Every operation below is exact: it returns nullopt rather than overflow int64.
struct LinearSum {
  std::vector<Term> terms;
  int64_t constant = 0;

  bool is_const() const { return terms.empty(); }
  static LinearSum of_const(int64_t value) { return LinearSum{{}, value}; }
  static LinearSum of_atom(tir::PrimExpr atom) {
    return LinearSum{{Term{{std::move(atom)}, 1}}, 0};
  }
  // The single atom this sum is (coefficient 1, no constant), or null.
  const tir::PrimExpr* as_atom() const {
    return terms.size() == 1 && constant == 0 && terms[0].coeff == 1 && terms[0].factors.size() == 1
               ? &terms[0].factors[0]
               : nullptr;
  }
};

// Algebra on sums, ordering terms with one ExprOrder.
class SumAlgebra {
 public:
  // Products with more terms than this stay unexpanded, so that (a+b)*(c+d)*... cannot
  // grow exponentially.
  static constexpr size_t kMaxExpandedTerms = 64;

  explicit SumAlgebra(ExprOrder& order) : order_(order) {}

  // a + scale * b.
  std::optional<LinearSum> add(const LinearSum& a, const LinearSum& b, int64_t scale = 1);
  std::optional<LinearSum> scale(const LinearSum& a, int64_t k);
  // The expanded product; nullopt also when it would exceed kMaxExpandedTerms terms.
  std::optional<LinearSum> mul(const LinearSum& a, const LinearSum& b);
  bool equal(const LinearSum& a, const LinearSum& b);

  // The canonical expression of `sum` in `dtype`: positive terms first, then negative
  // ones subtracted, then the constant, each term as factors * |coeff|. Null if a
  // coefficient or the constant does not fit `dtype`.
  tir::PrimExpr to_expr(const LinearSum& sum, DataType dtype);
  // Reads a canonical expression (as to_expr writes it) back into a sum; anything else
  // becomes an atom. Exact for any expression.
  LinearSum read(const tir::PrimExpr& canonical);

  // Sorts terms, merges alike ones and drops zero coefficients.
  std::optional<LinearSum> normalize(LinearSum sum);

  int compare_factors(const std::vector<tir::PrimExpr>& a, const std::vector<tir::PrimExpr>& b);

 private:
  std::optional<Term> mul_terms(const Term& a, const Term& b);

  ExprOrder& order_;
};

}  // namespace relaxc::arith
