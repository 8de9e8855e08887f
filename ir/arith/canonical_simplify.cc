// Canonical simplification of signed integer expressions.
//
// Every signed integer expression is computed as a LinearSum: constants fold, sums and
// products expand and collect alike terms, and what the algebra cannot see into
// becomes an atom with simplified children. Division by a constant c splits the
// dividend into c * q + r (exact for floor division, whatever the signs), reduces r by
// the gcd of its coefficients and decides floordiv(r, c) from r's bounds; truncating
// division is turned into floor division where the dividend is provably non-negative.
// min/max flatten, drop operands that bounds prove dominated, factor out their common
// part and sort the rest. A canonical expression is read back only where an identity
// needs it (floordiv(x, c) * c + floormod(x, c) == x).
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include "ir/arith/int_math.h"
#include "ir/arith/simplifier.h"
#include "ir/structural_equal.h"
#include "ir/tir/stmt.h"

namespace relaxc::arith {

using tir::PrimExpr;

LinearSum Simplifier::atom(const PrimExpr& e) {
  if (const int64_t* v = tir::as_const_int(e)) return LinearSum::of_const(*v);
  return LinearSum::of_atom(e);
}

PrimExpr Simplifier::materialize(const LinearSum& sum, DataType dtype, const PrimExpr& fallback) {
  PrimExpr out = algebra_.to_expr(sum, dtype);
  return out.defined() ? out : rebuild_children(fallback);
}

ConstIntBound Simplifier::sum_bound(const LinearSum& sum) {
  ConstIntBound total = bound_point(sum.constant);
  for (const Term& t : sum.terms) {
    ConstIntBound product = bound_point(t.coeff);
    for (const PrimExpr& f : t.factors) product = bound_mul(product, bounds_.bound(f));
    total = bound_add(total, product);
  }
  return total;
}

LinearSum Simplifier::visit_int(const PrimExpr& e) {
  auto it = int_memo_.find(e.get());
  if (it != int_memo_.end()) return it->second.second;
  WorkBudget::Nest nest(budget_);
  LinearSum sum = visit_int_node(e);
  int_memo_.insert_or_assign(e.get(), std::pair{e, sum});
  return sum;
}

LinearSum Simplifier::visit_int_node(const PrimExpr& e) {
  if (const int64_t* v = tir::as_const_int(e)) return LinearSum::of_const(*v);
  if (const auto* var = e.as<tir::VarNode>()) {
    PrimExpr value = bound_value(Ref<tir::VarNode>(var));
    if (!value.defined()) return atom(e);
    expanding_.insert(var);
    LinearSum sum = visit_int(value);
    expanding_.erase(var);
    return sum;
  }
  switch (e->kind()) {
    case NodeKind::TirAdd:
    case NodeKind::TirSub:
      return visit_sum_chain(e);
    case NodeKind::TirMul:
      return visit_mul(e.as<tir::MulNode>(), e);
    case NodeKind::TirDiv:
      return visit_division(e, e.as<tir::DivNode>()->a, e.as<tir::DivNode>()->b);
    case NodeKind::TirMod:
      return visit_division(e, e.as<tir::ModNode>()->a, e.as<tir::ModNode>()->b);
    case NodeKind::TirFloorDiv:
      return visit_division(e, e.as<tir::FloorDivNode>()->a, e.as<tir::FloorDivNode>()->b);
    case NodeKind::TirFloorMod:
      return visit_division(e, e.as<tir::FloorModNode>()->a, e.as<tir::FloorModNode>()->b);
    case NodeKind::TirMin:
    case NodeKind::TirMax:
      return visit_min_max(e);
    case NodeKind::TirSelect:
      return visit_select(e.as<tir::SelectNode>(), e);
    case NodeKind::TirCast:
      return visit_cast_to_int(e.as<tir::CastNode>(), e);
    case NodeKind::TirCall: {
      const auto* call = e.as<tir::CallNode>();
      if (call->op == "tir.if_then_else" && call->args.size() == 3) {
        PrimExpr cond = visit_expr(call->args[0]);
        if (const int64_t* c = tir::as_const_int(cond)) {
          const PrimExpr& chosen = *c != 0 ? call->args[1] : call->args[2];
          if (chosen->dtype == e->dtype) return visit_int(chosen);
        }
      }
      return atom(rebuild_children(e));
    }
    default:
      return atom(rebuild_children(e));
  }
}

LinearSum Simplifier::visit_sum_chain(const PrimExpr& e) {
  DataType dtype = e->dtype;
  // The left spine of + and - iteratively; each right operand is one part.
  std::vector<std::pair<PrimExpr, int64_t>> parts;
  PrimExpr spine = e;
  while (spine->dtype == dtype) {
    budget_.step();
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
  LinearSum total;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    if (it->first->dtype != dtype) return atom(rebuild_children(e));
    std::optional<LinearSum> next = algebra_.add(total, visit_int(it->first), it->second);
    if (!next) return atom(rebuild_children(e));
    total = std::move(*next);
  }
  return merge_min_max(merge_div_mod(std::move(total), dtype));
}

LinearSum Simplifier::visit_mul(const tir::MulNode* m, const PrimExpr& e) {
  DataType dtype = e->dtype;
  if (m->a->dtype != dtype || m->b->dtype != dtype) return atom(rebuild_children(e));
  LinearSum a = visit_int(m->a), b = visit_int(m->b);
  if (std::optional<LinearSum> product = algebra_.mul(a, b)) return std::move(*product);
  // Too large to expand (or a coefficient overflows): one atom, operands in order.
  PrimExpr ea = materialize(a, dtype, m->a), eb = materialize(b, dtype, m->b);
  if (order_.compare(ea, eb) > 0) std::swap(ea, eb);
  return atom(tir::mul(ea, eb));
}

LinearSum Simplifier::visit_division(const PrimExpr& e, const PrimExpr& a, const PrimExpr& b) {
  DataType dtype = e->dtype;
  NodeKind kind = e->kind();
  if (a->dtype != dtype || b->dtype != dtype) return atom(rebuild_children(e));
  bool floor = kind == NodeKind::TirFloorDiv || kind == NodeKind::TirFloorMod;
  bool mod = kind == NodeKind::TirFloorMod || kind == NodeKind::TirMod;
  LinearSum x = visit_int(a), y = visit_int(b);
  if (y.is_const() && y.constant != 0) {
    int64_t c = y.constant;
    if (floor) {
      if (std::optional<LinearSum> r = floor_divide(x, c, dtype, mod)) return std::move(*r);
    } else if (x.is_const()) {
      std::optional<int64_t> folded = mod ? trunc_mod(x.constant, c) : trunc_div(x.constant, c);
      if (folded) return LinearSum::of_const(*folded);
    } else if (c == 1 || c == -1) {
      if (mod) return LinearSum::of_const(0);
      if (std::optional<LinearSum> negated = algebra_.scale(x, c)) return std::move(*negated);
    } else if (c > 0 && sum_bound(x).min >= 0) {
      // Truncation and flooring agree on a non-negative dividend and a positive divisor.
      if (std::optional<LinearSum> r = floor_divide(x, c, dtype, mod)) return std::move(*r);
    }
  } else if (!y.is_const()) {
    if (x.is_const() && x.constant == 0) return LinearSum::of_const(0);
    // 0 <= x < y: the quotient is 0 and the remainder x, with either rounding.
    if (sum_bound(x).min >= 0 && sum_bound(y).min > 0) {
      std::optional<LinearSum> diff = algebra_.add(x, y, -1);
      if (diff && sum_bound(*diff).max < 0) return mod ? x : LinearSum::of_const(0);
    }
  }
  return atom(tir::binary(kind, materialize(x, dtype, a), materialize(y, dtype, b)));
}

std::optional<LinearSum> Simplifier::floor_divide(const LinearSum& x, int64_t c, DataType dtype,
                                                  bool mod) {
  if (x.is_const()) {
    std::optional<int64_t> folded = mod ? floor_mod(x.constant, c) : floor_div(x.constant, c);
    if (!folded) return std::nullopt;
    return LinearSum::of_const(*folded);
  }
  if (c == 1 || c == -1) {
    if (mod) return LinearSum::of_const(0);
    return algebra_.scale(x, c);
  }
  if (c > 0) return floor_divide_positive(x, c, dtype, mod);
  // floordiv(x, c) == floordiv(-x, -c) and floormod(x, c) == -floormod(-x, -c).
  std::optional<LinearSum> negated = algebra_.scale(x, -1);
  std::optional<int64_t> positive = checked_neg(c);
  if (!negated || !positive) return std::nullopt;
  std::optional<LinearSum> r = floor_divide_positive(*negated, *positive, dtype, mod);
  if (!r || !mod) return r;
  return algebra_.scale(*r, -1);
}

std::optional<LinearSum> Simplifier::floor_divide_positive(const LinearSum& x, int64_t c,
                                                           DataType dtype, bool mod) {
  // x == c * q + r, where r keeps each coefficient's remainder (of its sign, smaller
  // than c) and the constant's remainder in [0, c): floordiv(x, c) == q + floordiv(r, c)
  // and floormod(x, c) == floormod(r, c), whatever the values of x's atoms.
  LinearSum q, r;
  q.constant = *floor_div(x.constant, c);
  r.constant = *floor_mod(x.constant, c);
  for (const Term& t : x.terms) {
    if (t.coeff / c != 0) q.terms.push_back(Term{t.factors, t.coeff / c});
    if (t.coeff % c != 0) r.terms.push_back(Term{t.factors, t.coeff % c});
  }
  std::optional<LinearSum> rest = divide_remainder(r, c, dtype, mod);
  if (!rest || mod) return rest;
  return algebra_.add(q, *rest);
}

std::optional<LinearSum> Simplifier::divide_remainder(const LinearSum& r, int64_t c, DataType dtype,
                                                      bool mod) {
  if (r.is_const()) return LinearSum::of_const(mod ? r.constant : 0);
  ConstIntBound br = sum_bound(r);
  if (br.min != ConstIntBound::kNegInf && br.max != ConstIntBound::kPosInf) {
    std::optional<int64_t> low = floor_div(br.min, c), high = floor_div(br.max, c);
    if (low && high && *low == *high) {
      // r lies within one period: its quotient is known and its remainder is r shifted.
      if (!mod) return LinearSum::of_const(*low);
      std::optional<int64_t> shift = checked_mul(*low, c);
      if (shift) return algebra_.add(r, LinearSum::of_const(*shift), -1);
    }
  }
  // floordiv(g * r', g * c') == floordiv(r', c'); floormod(g * r', g * c') == g * floormod(r', c').
  int64_t g = gcd_abs(c, r.constant);
  for (const Term& t : r.terms) g = gcd_abs(g, t.coeff);
  LinearSum reduced = r;
  int64_t divisor = c;
  if (g > 1) {
    divisor = c / g;
    reduced.constant /= g;
    for (Term& t : reduced.terms) t.coeff /= g;
  }
  if (std::optional<LinearSum> split = divide_by_coarse_part(reduced, divisor, dtype, mod)) {
    if (!mod || g <= 1) return split;
    return algebra_.scale(*split, g);
  }
  if (const PrimExpr* inner = reduced.as_atom()) {
    // floordiv(floordiv(y, a), d) == floordiv(y, a * d), and floormod(floormod(y, a), d)
    // == floormod(y, d) when d divides a (a, d > 0).
    if (const auto* fd = inner->as<tir::FloorDivNode>(); fd != nullptr && !mod) {
      const int64_t* a = tir::as_const_int(fd->b);
      std::optional<int64_t> combined =
          a != nullptr && *a > 0 ? checked_mul(*a, divisor) : std::nullopt;
      if (combined) return floor_divide_positive(algebra_.read(fd->a), *combined, dtype, false);
    }
    if (const auto* fm = inner->as<tir::FloorModNode>(); fm != nullptr && mod) {
      const int64_t* a = tir::as_const_int(fm->b);
      if (a != nullptr && *a > 0 && *a % divisor == 0) {
        std::optional<LinearSum> m =
            floor_divide_positive(algebra_.read(fm->a), divisor, dtype, true);
        if (m) return algebra_.scale(*m, g > 1 ? g : 1);
      }
    }
  }
  PrimExpr numerator = algebra_.to_expr(reduced, dtype);
  if (!numerator.defined() || !fits_dtype(divisor, dtype)) return std::nullopt;
  PrimExpr node = tir::binary(mod ? NodeKind::TirFloorMod : NodeKind::TirFloorDiv, numerator,
                              tir::int_imm(dtype, divisor));
  if (!mod || g <= 1) return LinearSum::of_atom(node);
  return algebra_.scale(LinearSum::of_atom(node), g);
}

std::optional<LinearSum> Simplifier::divide_by_coarse_part(const LinearSum& r, int64_t c,
                                                           DataType dtype, bool mod) {
  // r == d * s + f, where d divides c, s gathers the terms whose coefficients d divides
  // (and the constant's multiple of d), and f the rest, with 0 <= f < d: then
  // floordiv(r, c) == floordiv(s, c / d) and floormod(r, c) == d * floormod(s, c / d) + f
  // (floordiv(r, d) == s, and the rest follows from c == d * (c / d)), whatever s's sign.
  // A thread's lanes (f == lane, 0 <= lane < 4) beside its offset 4 * t in a row of 8:
  // floormod(4 * t + lane, 8) == 4 * floormod(t, 2) + lane, which is contiguous in lane.
  // The d tried are the gcds of c and each coefficient, the largest first.
  std::vector<int64_t> coarse_steps;
  for (const Term& t : r.terms) {
    int64_t d = gcd_abs(c, t.coeff);
    if (d > 1 && d < c) coarse_steps.push_back(d);
  }
  std::sort(coarse_steps.begin(), coarse_steps.end(), std::greater<>());
  coarse_steps.erase(std::unique(coarse_steps.begin(), coarse_steps.end()), coarse_steps.end());
  for (int64_t d : coarse_steps) {
    LinearSum s, f;
    s.constant = *floor_div(r.constant, d);
    f.constant = *floor_mod(r.constant, d);
    for (const Term& t : r.terms) {
      if (t.coeff % d == 0) {
        s.terms.push_back(Term{t.factors, t.coeff / d});
      } else {
        f.terms.push_back(t);
      }
    }
    if (f.terms.empty()) continue;
    ConstIntBound bf = sum_bound(f);
    if (bf.min < 0 || bf.max >= d) continue;
    std::optional<LinearSum> quotient = floor_divide_positive(s, c / d, dtype, mod);
    if (!quotient || !mod) return quotient;
    std::optional<LinearSum> scaled = algebra_.scale(*quotient, d);
    if (!scaled) return std::nullopt;
    return algebra_.add(*scaled, f);
  }
  return std::nullopt;
}

LinearSum Simplifier::visit_min_max(const PrimExpr& e) {
  DataType dtype = e->dtype;
  NodeKind kind = e->kind();
  bool is_min = kind == NodeKind::TirMin;
  // The operands of a min (or max) chain of this kind and type, or none.
  auto chain_operands = [&](const PrimExpr& n) -> std::optional<std::pair<PrimExpr, PrimExpr>> {
    const PrimExpr* a = nullptr;
    const PrimExpr* b = nullptr;
    if (const auto* m = n.as<tir::MinNode>(); m != nullptr && is_min) {
      a = &m->a;
      b = &m->b;
    } else if (const auto* m = n.as<tir::MaxNode>(); m != nullptr && !is_min) {
      a = &m->a;
      b = &m->b;
    }
    if (a == nullptr || n->dtype != dtype || (*a)->dtype != dtype || (*b)->dtype != dtype) {
      return std::nullopt;
    }
    return std::pair{*a, *b};
  };
  // Flatten nested chains, including operands that simplify to one.
  std::vector<LinearSum> operands;
  std::vector<PrimExpr> pending{e};
  while (!pending.empty()) {
    budget_.step();
    PrimExpr n = std::move(pending.back());
    pending.pop_back();
    if (auto ab = chain_operands(n)) {
      pending.push_back(std::move(ab->second));
      pending.push_back(std::move(ab->first));
      continue;
    }
    if (n->dtype != dtype) return atom(rebuild_children(e));
    LinearSum s = visit_int(n);
    const PrimExpr* single = s.as_atom();
    if (single != nullptr && chain_operands(*single)) {
      pending.push_back(*single);
    } else {
      operands.push_back(std::move(s));
    }
  }
  // Factoring can uncover a nested chain (min(x, min(y, z) + 1) + t), whose operands
  // then join the list; a second round finishes that.
  for (int round = 0;; ++round) {
    // Drop every operand that another one provably dominates.
    std::vector<LinearSum> kept;
    for (LinearSum& s : operands) {
      bool redundant = false;
      for (size_t i = 0; i < kept.size();) {
        std::optional<LinearSum> diff = algebra_.add(s, kept[i], -1);
        ConstIntBound bd = diff ? sum_bound(*diff) : ConstIntBound{};
        bool s_le = bd.max <= 0, s_ge = bd.min >= 0;
        if (is_min ? s_ge : s_le) {
          redundant = true;
          break;
        }
        if (is_min ? s_le : s_ge) {
          kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(i));
        } else {
          ++i;
        }
      }
      if (!redundant) kept.push_back(std::move(s));
    }
    if (kept.size() == 1) return std::move(kept[0]);
    // min(a + t, b + t) == min(a, b) + t: factor out the terms all operands share,
    // and the least constant.
    LinearSum common;
    common.constant = kept[0].constant;
    for (const LinearSum& k : kept) common.constant = std::min(common.constant, k.constant);
    for (const Term& t : kept[0].terms) {
      bool shared = std::all_of(kept.begin() + 1, kept.end(), [&](const LinearSum& k) {
        return std::any_of(k.terms.begin(), k.terms.end(), [&](const Term& u) {
          return u.coeff == t.coeff && algebra_.compare_factors(u.factors, t.factors) == 0;
        });
      });
      if (shared) common.terms.push_back(t);
    }
    std::vector<PrimExpr> parts;
    std::vector<LinearSum> next_operands;
    bool uncovered = false;
    for (LinearSum& k : kept) {
      std::optional<LinearSum> part = algebra_.add(k, common, -1);
      PrimExpr expr = part ? algebra_.to_expr(*part, dtype) : PrimExpr();
      if (!expr.defined()) return atom(rebuild_children(e));
      if (round >= 2 || !chain_operands(expr)) {
        parts.push_back(std::move(expr));
        next_operands.push_back(std::move(k));
        continue;
      }
      // Each operand y of the uncovered chain stands for y + common.
      uncovered = true;
      std::vector<PrimExpr> inner{expr};
      while (!inner.empty()) {
        budget_.step();
        PrimExpr n = std::move(inner.back());
        inner.pop_back();
        if (auto ab = chain_operands(n)) {
          inner.push_back(std::move(ab->second));
          inner.push_back(std::move(ab->first));
          continue;
        }
        std::optional<LinearSum> operand = algebra_.add(algebra_.read(n), common);
        if (!operand) return atom(rebuild_children(e));
        next_operands.push_back(std::move(*operand));
      }
    }
    if (uncovered) {
      operands = std::move(next_operands);
      continue;
    }
    std::sort(parts.begin(), parts.end(),
              [&](const PrimExpr& x, const PrimExpr& y) { return order_.compare(x, y) < 0; });
    PrimExpr chain = parts[0];
    for (size_t i = 1; i < parts.size(); ++i) chain = tir::binary(kind, chain, parts[i]);
    std::optional<LinearSum> out = algebra_.add(common, LinearSum::of_atom(chain));
    return out ? std::move(*out) : atom(rebuild_children(e));
  }
}

LinearSum Simplifier::visit_select(const tir::SelectNode* s, const PrimExpr& e) {
  DataType dtype = e->dtype;
  if (s->true_value->dtype != dtype || s->false_value->dtype != dtype) {
    return atom(rebuild_children(e));
  }
  PrimExpr cond = visit_expr(s->condition);
  if (const int64_t* c = tir::as_const_int(cond)) {
    return visit_int(*c != 0 ? s->true_value : s->false_value);
  }
  LinearSum t = visit_int(s->true_value), f = visit_int(s->false_value);
  if (algebra_.equal(t, f)) return t;
  return atom(tir::select(cond, materialize(t, dtype, s->true_value),
                          materialize(f, dtype, s->false_value)));
}

LinearSum Simplifier::visit_cast_to_int(const tir::CastNode* c, const PrimExpr& e) {
  DataType dtype = e->dtype;
  if (c->value->dtype == dtype) return visit_int(c->value);
  PrimExpr value = visit_expr(c->value);
  if (const int64_t* v = tir::as_const_int(value)) {
    int64_t source = value->dtype.is_bool() ? (*v != 0 ? 1 : 0) : *v;
    // Integer conversion keeps the low bits (two's complement).
    int shift = 64 - dtype.bits();
    uint64_t low_bits = static_cast<uint64_t>(source) << shift;
    return LinearSum::of_const(static_cast<int64_t>(low_bits) >> shift);
  }
  if (const auto* f = value.as<tir::FloatImmNode>()) {
    // Float to integer truncates; out of range (or NaN) is undefined, so stays.
    double t = std::trunc(f->value);
    ConstIntBound range = dtype_bound(dtype);
    if (std::isfinite(t) && t >= static_cast<double>(range.min) &&
        t < -static_cast<double>(std::numeric_limits<int64_t>::min()) &&
        static_cast<int64_t>(t) <= range.max) {
      return LinearSum::of_const(static_cast<int64_t>(t));
    }
  }
  if (value.same_as(c->value)) return atom(e);
  return atom(tir::cast(dtype, value));
}

LinearSum Simplifier::merge_min_max(LinearSum sum) {
  // c * F * min(a, b) + c * F * max(a, b) == c * F * a + c * F * b (F other factors): one
  // of them is a, the other b (a loop of min(n, 1) iterations beside one of
  // max(n - 1, 0) runs n times in all).
  auto without = [](const Term& t, size_t i) {
    Term rest{t.factors, t.coeff};
    rest.factors.erase(rest.factors.begin() + static_cast<std::ptrdiff_t>(i));
    return rest;
  };
  auto same_factors = [](const Term& x, const Term& y) {
    if (x.factors.size() != y.factors.size()) return false;
    for (size_t i = 0; i < x.factors.size(); ++i) {
      if (!structural_equal(x.factors[i], y.factors[i])) return false;
    }
    return true;
  };
  for (const Term& t : sum.terms) {
    for (size_t i = 0; i < t.factors.size(); ++i) {
      const auto* low = t.factors[i].as<tir::MinNode>();
      if (low == nullptr) continue;
      Term rest = without(t, i);
      for (const Term& u : sum.terms) {
        if (u.coeff != t.coeff || u.factors.size() != t.factors.size()) continue;
        for (size_t j = 0; j < u.factors.size(); ++j) {
          const auto* high = u.factors[j].as<tir::MaxNode>();
          if (high == nullptr || !same_factors(rest, without(u, j))) continue;
          bool same = (structural_equal(low->a, high->a) && structural_equal(low->b, high->b)) ||
                      (structural_equal(low->a, high->b) && structural_equal(low->b, high->a));
          if (!same) continue;
          LinearSum scale =
              rest.factors.empty() ? LinearSum::of_const(rest.coeff) : LinearSum{{rest}, 0};
          std::optional<LinearSum> both =
              algebra_.add(algebra_.read(low->a), algebra_.read(low->b));
          if (both) both = algebra_.mul(scale, *both);
          std::optional<LinearSum> merged = algebra_.add(sum, LinearSum{{t}, 0}, -1);
          if (merged) merged = algebra_.add(*merged, LinearSum{{u}, 0}, -1);
          if (merged && both) merged = algebra_.add(*merged, *both);
          if (merged) return merge_min_max(std::move(*merged));
        }
      }
    }
  }
  return sum;
}

LinearSum Simplifier::merge_div_mod(LinearSum sum, DataType dtype) {
  auto divisor_of = [](const PrimExpr& denominator) -> int64_t {
    const int64_t* c = tir::as_const_int(denominator);
    return c != nullptr && *c > 0 ? *c : 0;
  };
  // A rewrite is kept where it lowers (terms with a division, terms): so
  // floordiv(x, c) * c + floormod(x, c) becomes x, and x - floordiv(x, c) * c becomes
  // floormod(x, c). The rank falls with every rewrite, which bounds the rounds.
  auto rank = [](const LinearSum& s) {
    size_t divisions = 0;
    for (const Term& t : s.terms) {
      divisions += std::any_of(t.factors.begin(), t.factors.end(), [](const PrimExpr& f) {
        return f.is<tir::FloorDivNode>() || f.is<tir::FloorModNode>();
      });
    }
    return std::pair{divisions, s.terms.size()};
  };
  bool changed = true;
  for (size_t round = 0; changed && round < 4 + sum.terms.size(); ++round) {
    changed = false;
    for (size_t i = 0; i < sum.terms.size() && !changed; ++i) {
      const Term& t = sum.terms[i];
      if (t.factors.size() != 1) continue;
      const auto* fd = t.factors[0].as<tir::FloorDivNode>();
      int64_t c = fd != nullptr ? divisor_of(fd->b) : 0;
      std::optional<int64_t> minus_coeff = checked_neg(t.coeff);
      if (c == 0 || t.coeff % c != 0 || !minus_coeff) continue;
      // With k == -coeff / c:  coeff * floordiv(x, c) == k * floormod(x, c) - k * x.
      int64_t k = -(t.coeff / c);
      LinearSum x = algebra_.read(fd->a);
      std::optional<LinearSum> mod = floor_divide_positive(x, c, dtype, true);
      if (!mod) continue;
      std::optional<LinearSum> candidate =
          algebra_.add(sum, LinearSum::of_atom(t.factors[0]), *minus_coeff);
      if (candidate) candidate = algebra_.add(*candidate, *mod, k);
      if (candidate) candidate = algebra_.add(*candidate, x, -k);
      if (candidate && rank(*candidate) < rank(sum)) {
        sum = std::move(*candidate);
        changed = true;
      }
    }
  }
  return sum;
}

PrimExpr Simplifier::bound_value(const tir::Var& v) {
  auto it = facts_.find(v);
  if (it == facts_.end() || !it->second.value.defined() || expanding_.count(v.get()) != 0) {
    return PrimExpr();
  }
  const PrimExpr& value = it->second.value;
  return value->dtype == v->dtype ? value : tir::cast(v->dtype, value);
}

}  // namespace relaxc::arith
