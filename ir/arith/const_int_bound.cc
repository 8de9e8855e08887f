// Constant integer bounds by interval propagation.
//
// Each node's interval follows from its children's: sums add, products and quotients
// take the extremes of their corners (floor and truncating division are monotone in
// each argument while the divisor keeps one sign), remainders are bounded by the
// divisor. Leaves take what the analyzer knows: bound ranges, bound values, size vars
// being non-negative, and the range of their data type. Signed arithmetic is exact
// (no wrap-around); unsigned arithmetic may wrap, so its results take the type's range.
#include <algorithm>
#include <initializer_list>

#include "ir/arith/bound_analyzer.h"
#include "ir/arith/int_math.h"
#include "ir/tir/stmt.h"

namespace relaxc::arith {

namespace {

// Interval ends in 128 bits: finite values stay within int64, and anything beyond
// saturates to +-kInf, so that products of two ends never overflow.
__extension__ typedef __int128 Wide;
constexpr Wide kInf = Wide{1} << 100;

Wide saturate(Wide v) {
  if (v > std::numeric_limits<int64_t>::max()) return kInf;
  if (v < std::numeric_limits<int64_t>::min()) return -kInf;
  return v;
}

struct WideInterval {
  Wide lo, hi;
};

WideInterval widen(const ConstIntBound& b) {
  return {b.min == ConstIntBound::kNegInf ? -kInf : Wide{b.min},
          b.max == ConstIntBound::kPosInf ? kInf : Wide{b.max}};
}

ConstIntBound narrow(WideInterval s) {
  ConstIntBound b;
  b.min = s.lo <= std::numeric_limits<int64_t>::min()   ? ConstIntBound::kNegInf
          : s.lo >= std::numeric_limits<int64_t>::max() ? ConstIntBound::kPosInf
                                                        : static_cast<int64_t>(s.lo);
  b.max = s.hi >= std::numeric_limits<int64_t>::max()   ? ConstIntBound::kPosInf
          : s.hi <= std::numeric_limits<int64_t>::min() ? ConstIntBound::kNegInf
                                                        : static_cast<int64_t>(s.hi);
  return b;
}

bool is_inf(Wide v) { return v >= kInf || v <= -kInf; }
int sign(Wide v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); }

Wide mul_ends(Wide a, Wide b) {
  if (a == 0 || b == 0) return 0;
  if (is_inf(a) || is_inf(b)) return sign(a) * sign(b) > 0 ? kInf : -kInf;
  return saturate(a * b);
}

// The quotient at one corner of the box (x, d), d nonzero; `floor` picks floor or
// truncating division. An infinite end stands for the limit toward it.
Wide div_ends(Wide x, Wide d, bool floor) {
  int s = sign(x) * sign(d);
  if (is_inf(x)) return s > 0 ? kInf : -kInf;
  if (is_inf(d)) return floor && s < 0 ? -1 : 0;
  Wide q = x / d;
  if (floor && x % d != 0 && s < 0) --q;
  return saturate(q);
}

WideInterval corners(WideInterval a, WideInterval b, Wide (*op)(Wide, Wide, bool), bool floor) {
  Wide values[4] = {op(a.lo, b.lo, floor), op(a.lo, b.hi, floor), op(a.hi, b.lo, floor),
                    op(a.hi, b.hi, floor)};
  return {*std::min_element(values, values + 4), *std::max_element(values, values + 4)};
}

ConstIntBound bound_div(const ConstIntBound& x, const ConstIntBound& d, bool floor) {
  WideInterval a = widen(x), b = widen(d);
  if (b.lo > 0 || b.hi < 0) return narrow(corners(a, b, div_ends, floor));
  // The divisor may be zero or change sign: |x / d| <= |x| whenever it is defined.
  Wide m = std::max(a.hi < 0 ? -a.hi : a.hi, a.lo < 0 ? -a.lo : a.lo);
  return narrow({-m, m});
}

ConstIntBound bound_floormod(const ConstIntBound& x, const ConstIntBound& d) {
  WideInterval a = widen(x), b = widen(d);
  if (b.lo == b.hi && b.lo != 0 && !is_inf(a.lo) && !is_inf(a.hi)) {
    // All of x within one period of the divisor: the remainder is x shifted.
    Wide qa = div_ends(a.lo, b.lo, true), qb = div_ends(a.hi, b.lo, true);
    if (qa == qb) return narrow({a.lo - qa * b.lo, a.hi - qa * b.lo});
  }
  if (b.lo > 0) return narrow({0, std::min(b.hi - 1, a.lo >= 0 ? a.hi : kInf)});
  if (b.hi < 0) return narrow({std::max(b.lo + 1, a.hi <= 0 ? a.lo : -kInf), 0});
  Wide m = std::max(-b.lo, b.hi);
  if (is_inf(m) || m <= 0) return ConstIntBound{};
  return narrow({-(m - 1), m - 1});
}

ConstIntBound bound_truncmod(const ConstIntBound& x, const ConstIntBound& d) {
  WideInterval a = widen(x), b = widen(d);
  // The remainder has the sign of x and is smaller than |d| and than |x|.
  Wide m = std::max(b.lo < 0 ? -b.lo : b.lo, b.hi < 0 ? -b.hi : b.hi);
  if (m <= 0) return ConstIntBound{};
  Wide limit = is_inf(m) ? kInf : m - 1;
  Wide lo = a.lo >= 0 ? 0 : std::max(a.lo, -limit);
  Wide hi = a.hi <= 0 ? 0 : std::min(a.hi, limit);
  return narrow({lo, hi});
}

}  // namespace

ConstIntBound bound_add(const ConstIntBound& a, const ConstIntBound& b) {
  WideInterval x = widen(a), y = widen(b);
  return narrow({is_inf(x.lo) || is_inf(y.lo) ? -kInf : saturate(x.lo + y.lo),
                 is_inf(x.hi) || is_inf(y.hi) ? kInf : saturate(x.hi + y.hi)});
}

ConstIntBound bound_mul(const ConstIntBound& a, const ConstIntBound& b) {
  WideInterval x = widen(a), y = widen(b);
  Wide values[4] = {mul_ends(x.lo, y.lo), mul_ends(x.lo, y.hi), mul_ends(x.hi, y.lo),
                    mul_ends(x.hi, y.hi)};
  return narrow({*std::min_element(values, values + 4), *std::max_element(values, values + 4)});
}

ConstIntBound bound_scale(const ConstIntBound& a, int64_t k) {
  return bound_mul(a, bound_point(k));
}

ConstIntBound bound_intersect(const ConstIntBound& a, const ConstIntBound& b) {
  ConstIntBound r{std::max(a.min, b.min), std::min(a.max, b.max)};
  return r.min > r.max ? a : r;
}

ConstIntBound bound_union(const ConstIntBound& a, const ConstIntBound& b) {
  return ConstIntBound{std::min(a.min, b.min), std::max(a.max, b.max)};
}

ConstIntBound BoundAnalyzer::bound(const tir::PrimExpr& e) {
  auto it = memo_.find(e.get());
  if (it != memo_.end()) return it->second.second;
  WorkBudget::Nest nest(budget_);
  ConstIntBound b = visit(e);
  memo_.insert_or_assign(e.get(), std::pair{e, b});
  return b;
}

ConstIntBound BoundAnalyzer::var_bound(const tir::Var& v) {
  ConstIntBound type_range = dtype_bound(v->dtype);
  ConstIntBound b = type_range;
  if (v->is_size_var) b.min = std::max<int64_t>(b.min, 0);
  auto it = facts_.find(v);
  if (it == facts_.end()) return b;
  const VarFacts& facts = it->second;
  std::vector<ConstIntBound> known;
  if (facts.bound) known.push_back(*facts.bound);
  if (facts.value.defined() && expanding_.insert(v.get()).second) {
    known.push_back(bound(facts.value));
    expanding_.erase(v.get());
  }
  for (const ConstIntBound& k : known) {
    ConstIntBound r{std::max(b.min, k.min), std::min(b.max, k.max)};
    // Contradictory facts (an empty loop range, a negative size): claim nothing.
    if (r.min > r.max) return type_range;
    b = r;
  }
  return b;
}

ConstIntBound BoundAnalyzer::sum_chain_bound(const tir::PrimExpr& e) {
  // The left spine of + and - iteratively; recursion only into right operands.
  ConstIntBound total = bound_point(0);
  tir::PrimExpr spine = e;
  while (true) {
    if (const auto* add = spine.as<tir::AddNode>()) {
      total = bound_add(total, bound(add->b));
      spine = add->a;
    } else if (const auto* sub = spine.as<tir::SubNode>()) {
      total = bound_add(total, bound_scale(bound(sub->b), -1));
      spine = sub->a;
    } else {
      return bound_add(total, bound(spine));
    }
    budget_.step();
  }
}

ConstIntBound BoundAnalyzer::visit(const tir::PrimExpr& e) {
  DataType dtype = e->dtype;
  ConstIntBound type_range = dtype_bound(dtype);
  if (!dtype.is_integer()) return ConstIntBound{};
  if (dtype.is_bool()) {
    if (const int64_t* v = tir::as_const_int(e)) return bound_point(*v != 0 ? 1 : 0);
    return type_range;
  }
  if (const int64_t* v = tir::as_const_int(e)) return bound_point(*v);
  if (const auto* var = e.as<tir::VarNode>()) return var_bound(Ref<tir::VarNode>(var));
  if (const auto* c = e.as<tir::CastNode>()) {
    ConstIntBound inner = c->value->dtype.is_integer() ? bound(c->value) : ConstIntBound{};
    return inner.min >= type_range.min && inner.max <= type_range.max ? inner : type_range;
  }
  if (const auto* s = e.as<tir::SelectNode>()) {
    return bound_union(bound(s->true_value), bound(s->false_value));
  }
  if (const auto* call = e.as<tir::CallNode>()) {
    if (call->op == "tir.if_then_else" && call->args.size() == 3) {
      return bound_intersect(type_range, bound_union(bound(call->args[1]), bound(call->args[2])));
    }
    return type_range;
  }
  if (const auto* let = e.as<tir::LetNode>()) return bound(let->body);
  if (const auto* b = e.as<tir::BroadcastNode>()) return bound(b->value);
  if (!dtype.is_scalar()) return type_range;
  // Unsigned arithmetic wraps around: only min, max and constants are exact.
  bool exact = dtype.is_int();
  switch (e->kind()) {
    case NodeKind::TirAdd:
    case NodeKind::TirSub:
      return exact ? sum_chain_bound(e) : type_range;
    case NodeKind::TirMul: {
      const auto* m = e.as<tir::MulNode>();
      return exact ? bound_mul(bound(m->a), bound(m->b)) : type_range;
    }
    case NodeKind::TirFloorDiv: {
      const auto* d = e.as<tir::FloorDivNode>();
      return exact ? bound_div(bound(d->a), bound(d->b), true) : type_range;
    }
    case NodeKind::TirDiv: {
      const auto* d = e.as<tir::DivNode>();
      return exact ? bound_div(bound(d->a), bound(d->b), false) : type_range;
    }
    case NodeKind::TirFloorMod: {
      const auto* d = e.as<tir::FloorModNode>();
      return exact ? bound_floormod(bound(d->a), bound(d->b)) : type_range;
    }
    case NodeKind::TirMod: {
      const auto* d = e.as<tir::ModNode>();
      return exact ? bound_truncmod(bound(d->a), bound(d->b)) : type_range;
    }
    case NodeKind::TirMin: {
      const auto* m = e.as<tir::MinNode>();
      ConstIntBound a = bound(m->a), b = bound(m->b);
      return ConstIntBound{std::min(a.min, b.min), std::min(a.max, b.max)};
    }
    case NodeKind::TirMax: {
      const auto* m = e.as<tir::MaxNode>();
      ConstIntBound a = bound(m->a), b = bound(m->b);
      return ConstIntBound{std::max(a.min, b.min), std::max(a.max, b.max)};
    }
    default:
      return type_range;
  }
}

}  // namespace relaxc::arith
