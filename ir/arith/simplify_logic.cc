// Simplification of comparisons, booleans and floating-point constants, and of the
// children of everything the integer algebra treats as opaque.
//
// Integer comparisons become one canonical relation: a < b, a <= b, a > b and a >= b
// are all d < 0 (d = a - b, shifted by one or negated), decided where d's bounds
// allow, divided by the gcd of d's coefficients (rounding the constant correctly), and
// written with positive terms on each side (`i < 16`, `n * 4 < m + 1`); == and !=
// compare d with 0 the same way. Negation flips integer comparisons and moves through
// and/or (De Morgan); and/or chains drop constants and repeats and fold `x and not x`,
// keeping their order (a later operand may only be safe to evaluate after an earlier
// one). Floating point only folds constants and never flips a comparison (NaN).
#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

#include "ir/arith/int_math.h"
#include "ir/arith/simplifier.h"
#include "ir/tir/stmt.h"

namespace relaxc::arith {

using tir::PrimExpr;

namespace {

bool is_comparison(NodeKind k) { return k >= NodeKind::TirEQ && k <= NodeKind::TirGE; }

// The operands of a binary node of any kind; false for other nodes.
bool binary_operands(const PrimExpr& e, PrimExpr* a, PrimExpr* b) {
  switch (e->kind()) {
#define RELAXC_OPERANDS_CASE(K)                                                \
  case NodeKind::K: {                                                          \
    const auto* n = static_cast<const tir::BinaryNode<NodeKind::K>*>(e.get()); \
    *a = n->a;                                                                 \
    *b = n->b;                                                                 \
    return true;                                                               \
  }
    RELAXC_OPERANDS_CASE(TirAdd)
    RELAXC_OPERANDS_CASE(TirSub)
    RELAXC_OPERANDS_CASE(TirMul)
    RELAXC_OPERANDS_CASE(TirDiv)
    RELAXC_OPERANDS_CASE(TirMod)
    RELAXC_OPERANDS_CASE(TirFloorDiv)
    RELAXC_OPERANDS_CASE(TirFloorMod)
    RELAXC_OPERANDS_CASE(TirMin)
    RELAXC_OPERANDS_CASE(TirMax)
    RELAXC_OPERANDS_CASE(TirEQ)
    RELAXC_OPERANDS_CASE(TirNE)
    RELAXC_OPERANDS_CASE(TirLT)
    RELAXC_OPERANDS_CASE(TirLE)
    RELAXC_OPERANDS_CASE(TirGT)
    RELAXC_OPERANDS_CASE(TirGE)
    RELAXC_OPERANDS_CASE(TirAnd)
    RELAXC_OPERANDS_CASE(TirOr)
#undef RELAXC_OPERANDS_CASE
    default:
      return false;
  }
}

template <typename T>
bool holds(NodeKind kind, T x, T y) {
  switch (kind) {
    case NodeKind::TirEQ:
      return x == y;
    case NodeKind::TirNE:
      return x != y;
    case NodeKind::TirLT:
      return x < y;
    case NodeKind::TirLE:
      return x <= y;
    case NodeKind::TirGT:
      return x > y;
    default:
      return x >= y;
  }
}

// The comparison that holds exactly when `kind` does not (on integers).
NodeKind negated_comparison(NodeKind kind) {
  switch (kind) {
    case NodeKind::TirEQ:
      return NodeKind::TirNE;
    case NodeKind::TirNE:
      return NodeKind::TirEQ;
    case NodeKind::TirLT:
      return NodeKind::TirGE;
    case NodeKind::TirLE:
      return NodeKind::TirGT;
    case NodeKind::TirGT:
      return NodeKind::TirLE;
    default:
      return NodeKind::TirLT;
  }
}

// The operands of `e` if it is a chain of `kind` (and / or), flattened left to right.
std::vector<PrimExpr> chain_operands(const PrimExpr& e, NodeKind kind, WorkBudget& budget) {
  std::vector<PrimExpr> operands;
  std::vector<PrimExpr> pending{e};
  while (!pending.empty()) {
    budget.step();
    PrimExpr n = std::move(pending.back());
    pending.pop_back();
    PrimExpr a, b;
    if (n->kind() == kind && binary_operands(n, &a, &b)) {
      pending.push_back(std::move(b));
      pending.push_back(std::move(a));
    } else {
      operands.push_back(std::move(n));
    }
  }
  return operands;
}

}  // namespace

PrimExpr Simplifier::simplify(const PrimExpr& e) { return visit_expr(e); }

PrimExpr Simplifier::visit_expr(const PrimExpr& e) {
  auto it = expr_memo_.find(e.get());
  if (it != expr_memo_.end()) return it->second.second;
  WorkBudget::Nest nest(budget_);
  PrimExpr out = visit_expr_node(e);
  expr_memo_.insert_or_assign(e.get(), std::pair{e, out});
  return out;
}

PrimExpr Simplifier::visit_expr_node(const PrimExpr& e) {
  DataType dtype = e->dtype;
  if (is_canonical_int(dtype)) return materialize(visit_int(e), dtype, e);
  if (const auto* var = e.as<tir::VarNode>()) {
    PrimExpr value = bound_value(Ref<tir::VarNode>(var));
    if (!value.defined()) return e;
    expanding_.insert(var);
    PrimExpr out = visit_expr(value);
    expanding_.erase(var);
    return out;
  }
  // A select (or if_then_else) with a known condition, or equal branches.
  const PrimExpr* branches[3] = {nullptr, nullptr, nullptr};
  if (const auto* s = e.as<tir::SelectNode>()) {
    branches[0] = &s->condition;
    branches[1] = &s->true_value;
    branches[2] = &s->false_value;
  } else if (const auto* call = e.as<tir::CallNode>();
             call != nullptr && call->op == "tir.if_then_else" && call->args.size() == 3) {
    for (int i = 0; i < 3; ++i) branches[i] = &call->args[i];
  }
  if (branches[0] != nullptr && (*branches[1])->dtype == dtype && (*branches[2])->dtype == dtype) {
    PrimExpr cond = visit_expr(*branches[0]);
    if (const int64_t* c = tir::as_const_int(cond)) {
      return visit_expr(*c != 0 ? *branches[1] : *branches[2]);
    }
    PrimExpr t = visit_expr(*branches[1]);
    if (order_.equal(t, visit_expr(*branches[2]))) return t;
    return rebuild_children(e);
  }
  NodeKind kind = e->kind();
  if (dtype.is_bool() && dtype.is_scalar()) {
    PrimExpr a, b;
    if (is_comparison(kind) && binary_operands(e, &a, &b)) return visit_compare(e, kind, a, b);
    if (kind == NodeKind::TirAnd || kind == NodeKind::TirOr) return visit_logic_chain(e);
    if (const auto* n = e.as<tir::NotNode>()) return negate(visit_expr(n->a));
    if (const auto* c = e.as<tir::CastNode>()) {
      PrimExpr value = visit_expr(c->value);
      if (const int64_t* v = tir::as_const_int(value)) return tir::bool_imm(*v != 0);
      if (const auto* f = value.as<tir::FloatImmNode>()) return tir::bool_imm(f->value != 0.0);
    }
    return rebuild_children(e);
  }
  if (dtype.is_float() && dtype.is_scalar()) return fold_float(e);
  return rebuild_children(e);
}

PrimExpr Simplifier::visit_compare(const PrimExpr& e, NodeKind kind, const PrimExpr& a,
                                   const PrimExpr& b) {
  DataType operand_dtype = a->dtype;
  if (is_canonical_int(operand_dtype) && b->dtype == operand_dtype) {
    return compare_ints(kind, visit_int(a), visit_int(b), operand_dtype, e);
  }
  PrimExpr ea = visit_expr(a), eb = visit_expr(b);
  const int64_t* ia = tir::as_const_int(ea);
  const int64_t* ib = tir::as_const_int(eb);
  if (ia != nullptr && ib != nullptr && ea->dtype == eb->dtype) {
    if (ea->dtype.is_uint()) {
      return tir::bool_imm(holds(kind, static_cast<uint64_t>(*ia), static_cast<uint64_t>(*ib)));
    }
    return tir::bool_imm(holds(kind, *ia, *ib));
  }
  const auto* fa = ea.as<tir::FloatImmNode>();
  const auto* fb = eb.as<tir::FloatImmNode>();
  if (fa != nullptr && fb != nullptr) return tir::bool_imm(holds(kind, fa->value, fb->value));
  return rebuild_children(e);
}

PrimExpr Simplifier::compare_ints(NodeKind kind, const LinearSum& a, const LinearSum& b,
                                  DataType operand_dtype, const PrimExpr& original) {
  bool equality = kind == NodeKind::TirEQ || kind == NodeKind::TirNE;
  // Every inequality as d < 0; equalities as d == 0 (or d != 0).
  std::optional<LinearSum> d;
  switch (kind) {
    case NodeKind::TirLT:
      d = algebra_.add(a, b, -1);
      break;
    case NodeKind::TirLE:  // a - b - 1 < 0
      d = algebra_.add(a, b, -1);
      if (d) d = algebra_.add(*d, LinearSum::of_const(-1));
      break;
    case NodeKind::TirGT:
      d = algebra_.add(b, a, -1);
      break;
    case NodeKind::TirGE:  // b - a - 1 < 0
      d = algebra_.add(b, a, -1);
      if (d) d = algebra_.add(*d, LinearSum::of_const(-1));
      break;
    default:
      d = algebra_.add(a, b, -1);
      break;
  }
  if (!d) return rebuild_children(original);
  d = merge_div_mod(std::move(*d), operand_dtype);
  ConstIntBound bd = sum_bound(*d);
  if (!equality) {
    if (bd.max < 0) return tir::bool_imm(true);
    if (bd.min >= 0) return tir::bool_imm(false);
  } else {
    bool is_eq = kind == NodeKind::TirEQ;
    if (d->is_const() && d->constant == 0) return tir::bool_imm(is_eq);
    if (bd.min > 0 || bd.max < 0) return tir::bool_imm(!is_eq);
  }
  // Undecided, so d has terms. With g the gcd of their coefficients, g * t + c < 0
  // exactly when t + floor(c / g) < 0, and g * t + c == 0 needs g to divide c.
  int64_t g = 0;
  for (const Term& t : d->terms) g = gcd_abs(g, t.coeff);
  if (g > 1) {
    if (equality) {
      if (d->constant % g != 0) return tir::bool_imm(kind == NodeKind::TirNE);
      d->constant /= g;
    } else {
      d->constant = *floor_div(d->constant, g);
    }
    for (Term& t : d->terms) t.coeff /= g;
  }
  if (equality && d->terms[0].coeff < 0) {
    d = algebra_.scale(*d, -1);
    if (!d) return rebuild_children(original);
  }
  // d == pos - neg + c; the relation becomes pos (+ c) against neg (+ -c), the constant
  // on the side where it is positive, or alone where a side has no terms.
  LinearSum pos, neg;
  for (const Term& t : d->terms) {
    if (t.coeff > 0) {
      pos.terms.push_back(t);
    } else {
      std::optional<int64_t> magnitude = checked_neg(t.coeff);
      if (!magnitude) return rebuild_children(original);
      neg.terms.push_back(Term{t.factors, *magnitude});
    }
  }
  int64_t c = d->constant;
  std::optional<int64_t> minus_c = checked_neg(c);
  if (pos.is_const() || (c > 0 && !neg.is_const())) {
    pos.constant = c;
  } else if (c != 0) {
    if (!minus_c) return rebuild_children(original);
    neg.constant = *minus_c;
  }
  PrimExpr lhs = algebra_.to_expr(pos, operand_dtype);
  PrimExpr rhs = algebra_.to_expr(neg, operand_dtype);
  if (!lhs.defined() || !rhs.defined()) return rebuild_children(original);
  return tir::binary(equality ? kind : NodeKind::TirLT, lhs, rhs);
}

PrimExpr Simplifier::negate(const PrimExpr& simplified) {
  if (const int64_t* v = tir::as_const_int(simplified)) return tir::bool_imm(*v == 0);
  if (const auto* n = simplified.as<tir::NotNode>()) return n->a;
  NodeKind kind = simplified->kind();
  PrimExpr a, b;
  if (!binary_operands(simplified, &a, &b)) return tir::logical_not(simplified);
  if (is_comparison(kind) && is_canonical_int(a->dtype)) {
    return visit_expr(tir::binary(negated_comparison(kind), a, b));
  }
  if (kind == NodeKind::TirAnd) {
    return visit_expr(tir::logical_or(tir::logical_not(a), tir::logical_not(b)));
  }
  if (kind == NodeKind::TirOr) {
    return visit_expr(tir::logical_and(tir::logical_not(a), tir::logical_not(b)));
  }
  return tir::logical_not(simplified);
}

PrimExpr Simplifier::visit_logic_chain(const PrimExpr& e) {
  NodeKind kind = e->kind();
  bool is_and = kind == NodeKind::TirAnd;
  // false absorbs an `and` chain and true an `or` chain; the other is its identity.
  std::vector<PrimExpr> operands = chain_operands(e, kind, budget_);
  std::vector<PrimExpr> kept;
  for (const PrimExpr& operand : operands) {
    for (const PrimExpr& piece : chain_operands(visit_expr(operand), kind, budget_)) {
      if (const int64_t* v = tir::as_const_int(piece)) {
        if ((*v != 0) != is_and) return tir::bool_imm(!is_and);
        continue;
      }
      auto same = [&](const PrimExpr& x) { return order_.equal(x, piece); };
      if (std::any_of(kept.begin(), kept.end(), same)) continue;
      PrimExpr opposite = negate(piece);
      if (std::any_of(kept.begin(), kept.end(),
                      [&](const PrimExpr& x) { return order_.equal(x, opposite); })) {
        return tir::bool_imm(!is_and);
      }
      kept.push_back(piece);
    }
  }
  if (kept.empty()) return tir::bool_imm(is_and);
  if (kept.size() == operands.size() &&
      std::equal(kept.begin(), kept.end(), operands.begin(),
                 [](const PrimExpr& x, const PrimExpr& y) { return x.same_as(y); })) {
    return e;
  }
  PrimExpr chain = kept[0];
  for (size_t i = 1; i < kept.size(); ++i) chain = tir::binary(kind, chain, kept[i]);
  return chain;
}

PrimExpr Simplifier::fold_float(const PrimExpr& e) {
  PrimExpr r = rebuild_children(e);
  DataType dtype = r->dtype;
  // Constants of other widths (float16, bfloat16) would need their own rounding.
  if (dtype.bits() != 32 && dtype.bits() != 64) return r;
  auto make = [&](double v) {
    return tir::float_imm(dtype,
                          dtype.bits() == 32 ? static_cast<double>(static_cast<float>(v)) : v);
  };
  if (const auto* c = r.as<tir::CastNode>()) {
    if (const int64_t* v = tir::as_const_int(c->value)) {
      if (c->value->dtype.is_uint() && *v < 0) return r;
      return make(static_cast<double>(*v));
    }
    if (const auto* f = c->value.as<tir::FloatImmNode>()) return make(f->value);
    return r;
  }
  PrimExpr a, b;
  if (!binary_operands(r, &a, &b)) return r;
  const auto* fa = a.as<tir::FloatImmNode>();
  const auto* fb = b.as<tir::FloatImmNode>();
  if (fa == nullptr || fb == nullptr) return r;
  double x = fa->value, y = fb->value;
  switch (r->kind()) {
    case NodeKind::TirAdd:
      return make(x + y);
    case NodeKind::TirSub:
      return make(x - y);
    case NodeKind::TirMul:
      return make(x * y);
    case NodeKind::TirDiv:
      return y != 0.0 ? make(x / y) : r;
    case NodeKind::TirMin:
      return std::isnan(x) || std::isnan(y) ? r : make(std::min(x, y));
    case NodeKind::TirMax:
      return std::isnan(x) || std::isnan(y) ? r : make(std::max(x, y));
    default:
      return r;
  }
}

PrimExpr Simplifier::rebuild_children(const PrimExpr& e) {
  auto rebuild = [&](const auto* node) -> PrimExpr {
    using T = std::remove_cv_t<std::remove_pointer_t<decltype(node)>>;
    std::unique_ptr<T> copy;
    auto update = [&](auto member) {
      using Field = std::remove_cvref_t<decltype(node->*member)>;
      if constexpr (std::is_same_v<Field, PrimExpr>) {
        const PrimExpr& old = node->*member;
        if (!old.defined()) return;
        PrimExpr now = visit_expr(old);
        if (now.same_as(old)) return;
        if (!copy) copy.reset(copy_node(*node));
        (*copy).*member = std::move(now);
      } else if constexpr (std::is_same_v<Field, std::vector<PrimExpr>>) {
        const std::vector<PrimExpr>& old = node->*member;
        for (size_t i = 0; i < old.size(); ++i) {
          if (!old[i].defined()) continue;
          PrimExpr now = visit_expr(old[i]);
          if (now.same_as(old[i])) continue;
          if (!copy) copy.reset(copy_node(*node));
          ((*copy).*member)[i] = std::move(now);
        }
      }
    };
    std::apply([&](auto... member) { (update(member), ...); }, T::reflect_fields());
    return copy ? PrimExpr(copy.release()) : e;
  };
  switch (e->kind()) {
#define RELAXC_REBUILD_CASE(Kind, Type) \
  case NodeKind::Kind:                  \
    return rebuild(static_cast<const Type*>(e.get()));
    RELAXC_TIR_EXPR_NODES(RELAXC_REBUILD_CASE)
#undef RELAXC_REBUILD_CASE
    default:
      return e;
  }
}

}  // namespace relaxc::arith
