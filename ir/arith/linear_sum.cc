// Exact algebra on canonical sums, and their conversion to and from expressions.
#include "ir/arith/linear_sum.h"

#include <algorithm>
#include <utility>

#include "ir/arith/int_math.h"

namespace relaxc::arith {

int SumAlgebra::compare_factors(const std::vector<tir::PrimExpr>& a,
                                const std::vector<tir::PrimExpr>& b) {
  size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (int c = order_.compare(a[i], b[i])) return c;
  }
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

std::optional<LinearSum> SumAlgebra::normalize(LinearSum sum) {
  std::sort(sum.terms.begin(), sum.terms.end(), [&](const Term& x, const Term& y) {
    return compare_factors(x.factors, y.factors) < 0;
  });
  std::vector<Term> merged;
  merged.reserve(sum.terms.size());
  for (Term& t : sum.terms) {
    if (!merged.empty() && compare_factors(merged.back().factors, t.factors) == 0) {
      std::optional<int64_t> c = checked_add(merged.back().coeff, t.coeff);
      if (!c) return std::nullopt;
      merged.back().coeff = *c;
    } else {
      merged.push_back(std::move(t));
    }
    if (merged.back().coeff == 0) merged.pop_back();
  }
  sum.terms = std::move(merged);
  return sum;
}

std::optional<LinearSum> SumAlgebra::add(const LinearSum& a, const LinearSum& b, int64_t scale) {
  std::optional<int64_t> scaled_const = checked_mul(b.constant, scale);
  if (!scaled_const) return std::nullopt;
  std::optional<int64_t> constant = checked_add(a.constant, *scaled_const);
  if (!constant) return std::nullopt;
  LinearSum out;
  out.constant = *constant;
  out.terms.reserve(a.terms.size() + b.terms.size());
  size_t i = 0, j = 0;
  while (i < a.terms.size() || j < b.terms.size()) {
    int c = i == a.terms.size()   ? 1
            : j == b.terms.size() ? -1
                                  : compare_factors(a.terms[i].factors, b.terms[j].factors);
    if (c < 0) {
      out.terms.push_back(a.terms[i++]);
      continue;
    }
    std::optional<int64_t> coeff = checked_mul(b.terms[j].coeff, scale);
    if (!coeff) return std::nullopt;
    if (c == 0) {
      coeff = checked_add(a.terms[i].coeff, *coeff);
      if (!coeff) return std::nullopt;
      ++i;
    }
    if (*coeff != 0) out.terms.push_back(Term{b.terms[j].factors, *coeff});
    ++j;
  }
  return out;
}

std::optional<LinearSum> SumAlgebra::scale(const LinearSum& a, int64_t k) {
  if (k == 0) return LinearSum::of_const(0);
  LinearSum out = a;
  std::optional<int64_t> constant = checked_mul(a.constant, k);
  if (!constant) return std::nullopt;
  out.constant = *constant;
  for (Term& t : out.terms) {
    std::optional<int64_t> c = checked_mul(t.coeff, k);
    if (!c) return std::nullopt;
    t.coeff = *c;
  }
  return out;
}

std::optional<Term> SumAlgebra::mul_terms(const Term& a, const Term& b) {
  std::optional<int64_t> coeff = checked_mul(a.coeff, b.coeff);
  if (!coeff) return std::nullopt;
  Term out;
  out.coeff = *coeff;
  out.factors.reserve(a.factors.size() + b.factors.size());
  std::merge(a.factors.begin(), a.factors.end(), b.factors.begin(), b.factors.end(),
             std::back_inserter(out.factors), [&](const tir::PrimExpr& x, const tir::PrimExpr& y) {
               return order_.compare(x, y) < 0;
             });
  return out;
}

std::optional<LinearSum> SumAlgebra::mul(const LinearSum& a, const LinearSum& b) {
  if (a.is_const()) return scale(b, a.constant);
  if (b.is_const()) return scale(a, b.constant);
  if ((a.terms.size() + 1) * (b.terms.size() + 1) > kMaxExpandedTerms) return std::nullopt;
  LinearSum out;
  std::optional<int64_t> constant = checked_mul(a.constant, b.constant);
  if (!constant) return std::nullopt;
  out.constant = *constant;
  for (const Term& ta : a.terms) {
    for (const Term& tb : b.terms) {
      std::optional<Term> t = mul_terms(ta, tb);
      if (!t) return std::nullopt;
      out.terms.push_back(std::move(*t));
    }
  }
  for (const auto& [terms, k] :
       {std::pair{&a.terms, b.constant}, std::pair{&b.terms, a.constant}}) {
    if (k == 0) continue;
    for (const Term& t : *terms) {
      std::optional<int64_t> c = checked_mul(t.coeff, k);
      if (!c) return std::nullopt;
      out.terms.push_back(Term{t.factors, *c});
    }
  }
  return normalize(std::move(out));
}

bool SumAlgebra::equal(const LinearSum& a, const LinearSum& b) {
  if (a.constant != b.constant || a.terms.size() != b.terms.size()) return false;
  for (size_t i = 0; i < a.terms.size(); ++i) {
    if (a.terms[i].coeff != b.terms[i].coeff ||
        compare_factors(a.terms[i].factors, b.terms[i].factors) != 0) {
      return false;
    }
  }
  return true;
}

namespace {

tir::PrimExpr product(const std::vector<tir::PrimExpr>& factors) {
  tir::PrimExpr out = factors[0];
  for (size_t i = 1; i < factors.size(); ++i) out = tir::mul(out, factors[i]);
  return out;
}

tir::PrimExpr scaled(const std::vector<tir::PrimExpr>& factors, int64_t coeff, DataType dtype) {
  tir::PrimExpr p = product(factors);
  return coeff == 1 ? p : tir::mul(p, tir::int_imm(dtype, coeff));
}

}  // namespace

tir::PrimExpr SumAlgebra::to_expr(const LinearSum& sum, DataType dtype) {
  if (!fits_dtype(sum.constant, dtype)) return nullptr;
  for (const Term& t : sum.terms) {
    if (!fits_dtype(t.coeff, dtype)) return nullptr;
  }
  tir::PrimExpr out;
  for (const Term& t : sum.terms) {
    if (t.coeff < 0) continue;
    tir::PrimExpr e = scaled(t.factors, t.coeff, dtype);
    out = out.defined() ? tir::add(out, e) : e;
  }
  bool constant_done = false;
  for (const Term& t : sum.terms) {
    if (t.coeff > 0) continue;
    if (!out.defined()) {
      // No positive term: lead with the constant ("16 - i") or with the first term
      // scaled by its negative coefficient ("i * -1 - j").
      if (sum.constant != 0) {
        out = tir::int_imm(dtype, sum.constant);
        constant_done = true;
      } else {
        out = scaled(t.factors, t.coeff, dtype);
        continue;
      }
    }
    std::optional<int64_t> magnitude = checked_neg(t.coeff);
    out = magnitude && fits_dtype(*magnitude, dtype)
              ? tir::sub(out, scaled(t.factors, *magnitude, dtype))
              : tir::add(out, scaled(t.factors, t.coeff, dtype));
  }
  if (!out.defined()) return tir::int_imm(dtype, sum.constant);
  if (constant_done || sum.constant == 0) return out;
  std::optional<int64_t> magnitude = checked_neg(sum.constant);
  if (sum.constant < 0 && magnitude && fits_dtype(*magnitude, dtype)) {
    return tir::sub(out, tir::int_imm(dtype, *magnitude));
  }
  return tir::add(out, tir::int_imm(dtype, sum.constant));
}

LinearSum SumAlgebra::read(const tir::PrimExpr& canonical) {
  // Walk the left spine of +/- iteratively; each right operand is one term.
  std::vector<std::pair<tir::PrimExpr, int64_t>> parts;
  tir::PrimExpr spine = canonical;
  while (true) {
    if (const auto* add = spine.as<tir::AddNode>()) {
      parts.emplace_back(add->b, 1);
      spine = add->a;
    } else if (const auto* sub = spine.as<tir::SubNode>()) {
      parts.emplace_back(sub->b, -1);
      spine = sub->a;
    } else {
      break;
    }
  }
  parts.emplace_back(spine, 1);
  LinearSum out;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    // One term: a product of factors, the immediate ones forming the coefficient.
    Term term{{}, 1};
    std::vector<tir::PrimExpr> pending{it->first};
    bool exact = true;
    while (!pending.empty() && exact) {
      tir::PrimExpr f = std::move(pending.back());
      pending.pop_back();
      if (const auto* m = f.as<tir::MulNode>()) {
        pending.push_back(m->a);
        pending.push_back(m->b);
      } else if (const int64_t* v = tir::as_const_int(f)) {
        std::optional<int64_t> c = checked_mul(term.coeff, *v);
        exact = c.has_value();
        if (c) term.coeff = *c;
      } else {
        term.factors.push_back(std::move(f));
      }
    }
    std::optional<int64_t> signed_coeff = checked_mul(term.coeff, it->second);
    if (!exact || !signed_coeff) return LinearSum::of_atom(canonical);
    LinearSum part;
    if (term.factors.empty()) {
      part.constant = *signed_coeff;
    } else if (*signed_coeff != 0) {
      std::sort(
          term.factors.begin(), term.factors.end(),
          [&](const tir::PrimExpr& x, const tir::PrimExpr& y) { return order_.compare(x, y) < 0; });
      term.coeff = *signed_coeff;
      part.terms.push_back(std::move(term));
    }
    std::optional<LinearSum> next = add(out, part);
    if (!next) return LinearSum::of_atom(canonical);
    out = std::move(*next);
  }
  return out;
}

}  // namespace relaxc::arith
