// Region analysis: bounds of block access regions under relaxed loops.
//
// A block's access region is written over its iteration variables. Substituting the
// realize's iteration values turns it into expressions of loop variables; the relaxed
// loops are then swept over their ranges by interval arithmetic on the expression tree:
// sums add bounds, products and floor divisions by constants scale them (flipping for a
// negative constant), min and max combine them, and floormod by c stays within [0, c)
// unless its operand provably stays within one period. Subexpressions free of relaxed
// variables are single points. Forms the arithmetic does not bound make the whole
// dimension the answer, which is always sound.
#include "passes/tir/schedule/region_analysis.h"

#include <utility>

#include "ir/tir/expr_functor.h"
#include "ir/tir/functor.h"
#include "ir/tir/thread_axis.h"

namespace relaxc::tir {
namespace {

// Bounds of an expression over the relaxed variables' ranges; nullopt where the
// arithmetic gives none.
class IntervalEvaluator final : public ExprFunctor<std::optional<IntBounds>()> {
 public:
  IntervalEvaluator(const RelaxedVars& relaxed, arith::Analyzer& analyzer)
      : relaxed_(relaxed), analyzer_(analyzer) {}

  std::optional<IntBounds> eval(const PrimExpr& e) {
    if (!e.defined()) return std::nullopt;
    NestingGuard guard(depth_, e.get());
    if (!uses_relaxed(e)) return IntBounds{e, e};
    return visit_expr(e);
  }

 private:
  std::optional<IntBounds> visit_TirVar(const VarNode* v) override {
    const Range& dom = relaxed_.at(Var(v));
    auto [start, extent] = unify_int_dtypes(dom->min, dom->extent);
    return as_dtype(IntBounds{start, start + extent - 1}, v->dtype);
  }

  std::optional<IntBounds> visit_TirAdd(const AddNode* add) override {
    return combine(add->a, add->b, [](const IntBounds& a, const IntBounds& b) {
      return IntBounds{a.min + b.min, a.max + b.max};
    });
  }

  std::optional<IntBounds> visit_TirSub(const SubNode* sub) override {
    return combine(sub->a, sub->b, [](const IntBounds& a, const IntBounds& b) {
      return IntBounds{a.min - b.max, a.max - b.min};
    });
  }

  std::optional<IntBounds> visit_TirMul(const MulNode* mul) override {
    if (const int64_t* c = as_const_int(mul->b)) return scale(mul->a, *c);
    if (const int64_t* c = as_const_int(mul->a)) return scale(mul->b, *c);
    return std::nullopt;
  }

  std::optional<IntBounds> visit_TirFloorDiv(const FloorDivNode* div) override {
    const int64_t* c = as_const_int(div->b);
    if (c == nullptr || *c <= 0) return std::nullopt;
    std::optional<IntBounds> a = eval(div->a);
    if (!a) return std::nullopt;
    return IntBounds{floordiv(a->min, div->b), floordiv(a->max, div->b)};
  }

  std::optional<IntBounds> visit_TirFloorMod(const FloorModNode* mod) override {
    const int64_t* c = as_const_int(mod->b);
    if (c == nullptr || *c <= 0) return std::nullopt;
    std::optional<IntBounds> a = eval(mod->a);
    if (a && analyzer_.can_prove_equal(floordiv(a->min, mod->b), floordiv(a->max, mod->b))) {
      return IntBounds{floormod(a->min, mod->b), floormod(a->max, mod->b)};
    }
    return IntBounds{int_imm(mod->dtype, 0), int_imm(mod->dtype, *c - 1)};
  }

  std::optional<IntBounds> visit_TirMin(const MinNode* node) override {
    return combine(node->a, node->b, [](const IntBounds& a, const IntBounds& b) {
      return IntBounds{tir::min(a.min, b.min), tir::min(a.max, b.max)};
    });
  }

  std::optional<IntBounds> visit_TirMax(const MaxNode* node) override {
    return combine(node->a, node->b, [](const IntBounds& a, const IntBounds& b) {
      return IntBounds{tir::max(a.min, b.min), tir::max(a.max, b.max)};
    });
  }

  std::optional<IntBounds> visit_TirCast(const CastNode* node) override {
    if (!node->dtype.is_int() || !node->value->dtype.is_int() ||
        node->dtype.bits() < node->value->dtype.bits()) {
      return std::nullopt;  // a narrowing cast may wrap around
    }
    std::optional<IntBounds> a = eval(node->value);
    if (!a) return std::nullopt;
    return IntBounds{cast(node->dtype, a->min), cast(node->dtype, a->max)};
  }

  std::optional<IntBounds> visit_default(const PrimExprNode*) override { return std::nullopt; }

  bool uses_relaxed(const PrimExpr& e) const {
    return uses_var_if(e, [&](const VarNode* v) { return relaxed_.count(Var(v)) != 0; });
  }

  template <typename Fn>
  std::optional<IntBounds> combine(const PrimExpr& a, const PrimExpr& b, Fn fn) {
    std::optional<IntBounds> x = eval(a);
    if (!x) return std::nullopt;
    std::optional<IntBounds> y = eval(b);
    if (!y) return std::nullopt;
    return fn(*x, *y);
  }

  std::optional<IntBounds> scale(const PrimExpr& e, int64_t factor) {
    std::optional<IntBounds> x = eval(e);
    if (!x) return std::nullopt;
    PrimExpr c = int_imm(e->dtype, factor);
    if (factor >= 0) return IntBounds{x->min * c, x->max * c};
    return IntBounds{x->max * c, x->min * c};
  }

  static IntBounds as_dtype(IntBounds b, DataType dtype) {
    if (b.min->dtype != dtype) b.min = cast(dtype, b.min);
    if (b.max->dtype != dtype) b.max = cast(dtype, b.max);
    return b;
  }

  const RelaxedVars& relaxed_;
  arith::Analyzer& analyzer_;
  int depth_ = 0;
};

}  // namespace

std::pair<PrimExpr, PrimExpr> unify_int_dtypes(PrimExpr a, PrimExpr b) {
  if (a->dtype == b->dtype) return {std::move(a), std::move(b)};
  DataType wide = DataType::Int(64);
  if (a->dtype != wide) a = cast(wide, a);
  if (b->dtype != wide) b = cast(wide, b);
  return {std::move(a), std::move(b)};
}

PrimExpr to_dtype(const PrimExpr& e, DataType dtype) {
  if (e->dtype == dtype) return e;
  if (const int64_t* v = as_const_int(e)) return int_imm(dtype, *v);
  return cast(dtype, e);
}

std::optional<IntBounds> relax_expr(const PrimExpr& e, const RelaxedVars& relaxed,
                                    arith::Analyzer& analyzer) {
  std::optional<IntBounds> bounds = IntervalEvaluator(relaxed, analyzer).eval(e);
  if (!bounds) return std::nullopt;
  return IntBounds{analyzer.simplify(bounds->min), analyzer.simplify(bounds->max)};
}

std::vector<IntBounds> access_bounds(const BufferRegion& access, const BlockRealizeNode& realize,
                                     const RelaxedVars& relaxed, arith::Analyzer& analyzer) {
  VarMap iter_values;
  const BlockNode& block = *realize.block;
  for (size_t i = 0; i < block.iter_vars.size() && i < realize.iter_values.size(); ++i) {
    iter_values[block.iter_vars[i]->var] = realize.iter_values[i];
  }
  const Buffer& buffer = access->buffer;
  std::vector<IntBounds> bounds;
  for (size_t d = 0; d < access->region.size(); ++d) {
    const Range& r = access->region[d];
    PrimExpr first = substitute(r->min, iter_values);
    auto [start, extent] = unify_int_dtypes(r->min, r->extent);
    PrimExpr last = substitute(start + extent - 1, iter_values);
    std::optional<IntBounds> low = relax_expr(first, relaxed, analyzer);
    std::optional<IntBounds> high = relax_expr(last, relaxed, analyzer);
    if (low && high) {
      auto [lo, hi] = unify_int_dtypes(low->min, high->max);
      bounds.push_back(IntBounds{lo, hi});
    } else if (d < buffer->shape.size()) {
      const PrimExpr& dim = buffer->shape[d];
      bounds.push_back(IntBounds{int_imm(dim->dtype, 0), analyzer.simplify(dim - 1)});
    } else {
      user_error(buffer->span) << "the access region of buffer '" << buffer->name << "' in block '"
                               << block.name << "' has more dimensions than the buffer";
    }
  }
  return bounds;
}

void unite_bounds(std::vector<IntBounds>& into, const std::vector<IntBounds>& other,
                  arith::Analyzer& analyzer) {
  if (into.empty()) {
    into = other;
    return;
  }
  RELAXC_ICHECK(into.size() == other.size()) << "uniting regions of different ranks";
  for (size_t d = 0; d < into.size(); ++d) {
    auto [a_min, b_min] = unify_int_dtypes(into[d].min, other[d].min);
    auto [a_max, b_max] = unify_int_dtypes(into[d].max, other[d].max);
    into[d].min = analyzer.simplify(tir::min(a_min, b_min));
    into[d].max = analyzer.simplify(tir::max(a_max, b_max));
  }
}

bool threads_share_scope(const std::string& thread_tag, const std::string& scope) {
  if (scope != "shared" && scope != "global") return false;
  return is_thread_index(thread_tag) || thread_tag.rfind("vthread", 0) == 0;
}

}  // namespace relaxc::tir
