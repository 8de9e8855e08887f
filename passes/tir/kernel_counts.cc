// count_lowered: global traffic and FLOPs of each kernel launch, as expressions of the
// shape variables.
//
// Algorithm: one walk over each kernel's body, keeping the stack of loops around the
// current statement (their trip counts rewritten over the host vars: the kernel's int32
// scalar params replaced by the launch's scalar arguments, in int64 so that products of
// sizes do not wrap) and the conjuncts of the guards around it. Every global or shared
// load and store and every floating-point operation adds its size times the number of iterations
// of those loops that the guards let through. That number is computed per group of loops
// that the guards tie together: a group no guard mentions is the product of its trip
// counts; a group with one guard `mixed-radix index < bound` (or several such bounds on
// one index, their minimum the bound) (the index enumerates the
// group's iterations exactly once, as a split's outer * inner + inner does) counts
// min(bound, product), also where the index reads a thread index only through a quotient
// t // c (c of t's iterations per value); a group of constant trip counts (thread indices) small
// enough is enumerated with the guards evaluated at each point (an else branch is guarded by the
// negated condition; so are the two values of tir.if_then_else). A blockIdx loop and the
// grid-stride loop that split-host-device gives it are one loop of the grid's extent, and so
// are a blockIdx loop and its overflow axis under their guard. Anything else
// counts every iteration and marks the launch an upper bound. A guard on one loop's
// variable alone (`k < bound`: a pipelined loop's test for a next iteration) shortens that
// loop before the grouping. The sums are simplified with ir/arith.
#include "passes/tir/kernel_counts.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/tir/functor.h"
#include "ir/tir/intrinsics.h"

namespace relaxc::tir {
namespace {

constexpr DataType kInt64 = DataType::Int(64);
// The most points of a group of constant loops that a guard is evaluated at.
constexpr int64_t kMaxEnumerated = int64_t{1} << 16;

using Values = std::unordered_map<const VarNode*, int64_t>;

std::optional<int64_t> floor_div(int64_t a, int64_t b) {
  if (b == 0) return std::nullopt;
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

// A guard `index < bound` (inclusive 0) or `index <= bound` (inclusive 1), also written
// `bound > index` or `bound >= index`.
struct UpperBound {
  PrimExpr index, bound;
  int64_t inclusive = 0;
};

std::optional<UpperBound> as_upper_bound(const PrimExpr& guard) {
  if (const auto* lt = guard.as<LTNode>()) return UpperBound{lt->a, lt->b, 0};
  if (const auto* le = guard.as<LENode>()) return UpperBound{le->a, le->b, 1};
  if (const auto* gt = guard.as<GTNode>()) return UpperBound{gt->b, gt->a, 0};
  if (const auto* ge = guard.as<GENode>()) return UpperBound{ge->b, ge->a, 1};
  return std::nullopt;
}

// The operands of `e` when it is one of the binary nodes `Nodes`.
template <typename... Nodes>
bool operands_of(const PrimExpr& e, PrimExpr& a, PrimExpr& b) {
  auto take = [&](const auto* node) {
    if (node != nullptr) a = node->a, b = node->b;
    return node != nullptr;
  };
  return (take(e.as<Nodes>()) || ...);
}

// The value of an integer or boolean expression over the variables of `values`, or nullopt
// where it reads anything else.
std::optional<int64_t> evaluate(const PrimExpr& e, const Values& values) {
  if (const int64_t* c = as_const_int(e)) return *c;
  if (const auto* v = e.as<VarNode>()) {
    auto it = values.find(v);
    return it == values.end() ? std::nullopt : std::optional(it->second);
  }
  if (const auto* c = e.as<CastNode>()) return evaluate(c->value, values);
  if (const auto* n = e.as<NotNode>()) {
    auto a = evaluate(n->a, values);
    return a ? std::optional<int64_t>(*a == 0) : std::nullopt;
  }
  PrimExpr lhs, rhs;
  if (!operands_of<AddNode, SubNode, MulNode, FloorDivNode, FloorModNode, MinNode, MaxNode, EQNode,
                   NENode, LTNode, LENode, GTNode, GENode, AndNode, OrNode>(e, lhs, rhs)) {
    return std::nullopt;
  }
  std::optional<int64_t> a = evaluate(lhs, values), b = evaluate(rhs, values);
  if (!a || !b) return std::nullopt;
  switch (e->kind()) {
    case NodeKind::TirAdd:
      return *a + *b;
    case NodeKind::TirSub:
      return *a - *b;
    case NodeKind::TirMul:
      return *a * *b;
    case NodeKind::TirFloorDiv:
      return floor_div(*a, *b);
    case NodeKind::TirFloorMod: {
      std::optional<int64_t> q = floor_div(*a, *b);
      return q ? std::optional(*a - *q * *b) : std::nullopt;
    }
    case NodeKind::TirMin:
      return std::min(*a, *b);
    case NodeKind::TirMax:
      return std::max(*a, *b);
    case NodeKind::TirEQ:
      return *a == *b;
    case NodeKind::TirNE:
      return *a != *b;
    case NodeKind::TirLT:
      return *a < *b;
    case NodeKind::TirLE:
      return *a <= *b;
    case NodeKind::TirGT:
      return *a > *b;
    case NodeKind::TirGE:
      return *a >= *b;
    case NodeKind::TirAnd:
      return *a != 0 && *b != 0;
    case NodeKind::TirOr:
      return *a != 0 || *b != 0;
    default:
      return std::nullopt;
  }
}

// A loop around the current statement.
struct Loop {
  const VarNode* var;
  PrimExpr min;         // in the kernel
  PrimExpr trip_count;  // over the host vars, int64; null when it depends on data
  std::optional<int64_t> constant;
  // A grid-stride loop (split-host-device's, for a grid past the device's limit) names
  // the blockIdx loop it strides: loops_[stride_of] runs min(stride, G) blocks and this
  // one ceil((G - block) / stride) times, so together they enumerate block + i * stride
  // over [0, G) once; `combined` is G over the host vars. An overflow axis under its guard
  // (ceil(G / stride) blocks i, block + i * stride < G) is one too.
  int stride_of = -1;
  int64_t stride = 0;
  PrimExpr combined;
};

// `e` = sum of coeff * loop var + rest, with `rest` free of the loops in `loops`.
struct Affine {
  std::map<const VarNode*, int64_t> coeffs;
  PrimExpr rest;  // in the kernel; null for 0
};

class LaunchCounter : public Visitor {
 public:
  LaunchCounter(const KernelLaunch& launch, LaunchCounts& out) : out_(out) {
    const PrimFuncNode* f = launch.kernel.func.get();
    size_t scalar = 0;
    for (const Var& param : f->params) {
      if (const Buffer b = f->buffer_of(param); b.defined()) {
        global_.insert(b->data.get());
      } else if (scalar < launch.scalar_args.size()) {
        host_[param.get()] = launch.scalar_args[scalar++];
      }
    }
  }

  void count(const Stmt& body) {
    visit(body);
    auto finish = [this](PrimExpr& e) { e = e.defined() ? analyzer_.simplify(e) : e; };
    finish(out_.bytes_read);
    finish(out_.bytes_written);
    finish(out_.flops);
    finish(out_.shared_bytes_read);
    finish(out_.shared_bytes_written);
  }

  // `e` over the host vars in int64, or null where it reads a loop var or data.
  PrimExpr to_host(const PrimExpr& e) {
    if (const int64_t* c = as_const_int(e)) return int_imm(kInt64, *c);
    if (const auto* v = e.as<VarNode>()) {
      auto it = host_.find(v);
      if (it == host_.end()) return PrimExpr();
      return it->second->dtype == kInt64 ? it->second : cast(kInt64, it->second);
    }
    if (const auto* c = e.as<CastNode>()) return c->dtype.is_int() ? to_host(c->value) : PrimExpr();
    PrimExpr lhs, rhs;
    if (!operands_of<AddNode, SubNode, MulNode, FloorDivNode, FloorModNode, MinNode, MaxNode>(
            e, lhs, rhs)) {
      return PrimExpr();
    }
    PrimExpr a = to_host(lhs), b = to_host(rhs);
    return a.defined() && b.defined() ? binary(e->kind(), a, b) : PrimExpr();
  }

 protected:
  void visit_node(const ForNode* node) override {
    visit(node->extent);
    PrimExpr trip = to_host(node->extent);
    const int64_t* c = as_const_int(node->extent);
    Loop loop{node->loop_var.get(), node->min, trip,
              c != nullptr ? std::optional(*c) : std::nullopt};
    if (!trip.defined()) match_grid_stride(node->extent, loop);
    loops_.push_back(loop);
    multiplier_.reset();
    visit(node->body);
    loops_.pop_back();
    multiplier_.reset();
  }

  void visit_node(const LetStmtNode* node) override {
    visit(node->value);
    if (PrimExpr value = to_host(node->value); value.defined()) host_[node->var.get()] = value;
    lets_[node->var.get()] = node->value;
    visit(node->body);
  }

  void visit_node(const IfThenElseNode* node) override {
    visit(node->condition);
    const size_t depth = guards_.size();
    std::vector<PrimExpr> conjuncts;
    split_conjuncts(node->condition, conjuncts);
    std::vector<std::pair<size_t, Loop>> overflows;  // the loops it ties, as they were
    for (const PrimExpr& conjunct : conjuncts) {
      if (node->else_case.defined() || !tie_overflow(conjunct, overflows)) {
        guards_.push_back(conjunct);
      }
    }
    multiplier_.reset();
    visit(node->then_case);
    guards_.resize(depth);
    for (const auto& [i, loop] : overflows) loops_[i] = loop;
    if (node->else_case.defined()) {
      guards_.push_back(logical_not(node->condition));
      multiplier_.reset();
      visit(node->else_case);
      guards_.resize(depth);
    }
    multiplier_.reset();
  }

  // Each value of tir.if_then_else counts under its condition, as an IfThenElse's
  // branches do; a vector condition (lanes that differ) counts both values.
  void visit_if_then_else(const CallNode& node) {
    const PrimExpr& condition = node.args[0];
    if (condition->dtype.lanes() != 1) {
      out_.upper_bound = true;
      Visitor::visit_node(&node);
      return;
    }
    visit(condition);
    const size_t depth = guards_.size();
    split_conjuncts(condition, guards_);
    multiplier_.reset();
    visit(node.args[1]);
    guards_.resize(depth);
    guards_.push_back(logical_not(condition));
    multiplier_.reset();
    visit(node.args[2]);
    guards_.resize(depth);
    multiplier_.reset();
  }

  void visit_node(const SelectNode* node) override {
    out_.upper_bound = true;  // both values are counted
    Visitor::visit_node(node);
  }

  void visit_node(const WhileNode* node) override {
    out_.upper_bound = true;  // counted once; lowered kernels have none
    Visitor::visit_node(node);
  }

  void visit_node(const AllocateNode* node) override {
    if (node->buffer->scope == "shared") shared_.insert(node->buffer->data.get());
    Visitor::visit_node(node);
  }

  void visit_node(const BufferStoreNode* node) override {
    if (PrimExpr* total = traffic(node->buffer, out_.bytes_written, out_.shared_bytes_written)) {
      add(*total, node->value->dtype.bytes());
    }
    Visitor::visit_node(node);
  }

  void visit_node(const BufferLoadNode* node) override {
    if (PrimExpr* total = traffic(node->buffer, out_.bytes_read, out_.shared_bytes_read)) {
      add(*total, node->dtype.bytes());
    }
    Visitor::visit_node(node);
  }

  void visit_node(const CallNode* node) override {
    const Intrinsic* intrinsic = find_intrinsic(node->op);
    if (node->dtype.is_float() && intrinsic != nullptr &&
        intrinsic->arguments == Intrinsic::Arguments::Float) {
      add(out_.flops, node->dtype.lanes());
    }
    if (intrinsic != nullptr && intrinsic->name == "tir.if_then_else") {
      visit_if_then_else(*node);
      return;
    }
    Visitor::visit_node(node);
  }

#define RELAXC_COUNT_FLOAT_OP(Kind)                                   \
  void visit_node(const Kind##Node* node) override {                  \
    if (node->dtype.is_float()) add(out_.flops, node->dtype.lanes()); \
    Visitor::visit_node(node);                                        \
  }
  RELAXC_COUNT_FLOAT_OP(Add)
  RELAXC_COUNT_FLOAT_OP(Sub)
  RELAXC_COUNT_FLOAT_OP(Mul)
  RELAXC_COUNT_FLOAT_OP(Div)
  RELAXC_COUNT_FLOAT_OP(Mod)
  RELAXC_COUNT_FLOAT_OP(FloorDiv)
  RELAXC_COUNT_FLOAT_OP(FloorMod)
  RELAXC_COUNT_FLOAT_OP(Min)
  RELAXC_COUNT_FLOAT_OP(Max)
#undef RELAXC_COUNT_FLOAT_OP

 private:
  // The total an access to `buffer` adds to: `global` or `shared` by its memory, or null
  // for local memory.
  PrimExpr* traffic(const Buffer& buffer, PrimExpr& global, PrimExpr& shared) {
    if (global_.count(buffer->data.get()) != 0) return &global;
    if (shared_.count(buffer->data.get()) != 0) return &shared;
    return nullptr;
  }

  // Adds `units` per iteration of the current statement to `total`, which stays null
  // (unknown) once a trip count depends on data.
  void add(PrimExpr& total, int64_t units) {
    if (!total.defined()) return;
    if (!multiplier_) multiplier_ = iterations();
    total = multiplier_->defined() ? total + *multiplier_ * units : PrimExpr();
  }

  // (L, G) where `block`'s trip count is min(L, G) (or min(L - c, G - c) + c, as the
  // simplifier writes it where G is an expression plus c): a blockIdx loop of a grid G
  // capped at the limit L.
  std::optional<std::pair<int64_t, PrimExpr>> capped_grid(const Loop& block) {
    PrimExpr trip = block.trip_count;
    int64_t offset = 0;
    if (const auto* add = trip.as<AddNode>(); add != nullptr && as_const_int(add->b)) {
      offset = *as_const_int(add->b);
      trip = add->a;
    }
    const auto* bounded = trip.as<MinNode>();
    if (bounded == nullptr) return std::nullopt;
    const int64_t* bound = as_const_int(bounded->a);
    PrimExpr grid = bounded->b;
    if (bound == nullptr) bound = as_const_int(bounded->b), grid = bounded->a;
    if (bound == nullptr || *bound + offset <= 0) return std::nullopt;
    return std::pair(*bound + offset, analyzer_.simplify(grid + int_imm(kInt64, offset)));
  }

  // Whether `extent` is (G - b + L - 1) // L, ceil((G - b) / L), for an enclosing loop b
  // of a capped grid: then `loop` is b's grid-stride loop.
  void match_grid_stride(const PrimExpr& extent, Loop& loop) {
    for (size_t i = 0; i < loops_.size(); ++i) {
      const Loop& block = loops_[i];
      if (!uses_var_if(extent, [&](const VarNode* v) { return v == block.var; })) continue;
      auto capped = capped_grid(block);
      if (!capped) return;
      const auto& [limit, grid] = *capped;
      // Compared over the host vars: the block var stands for itself.
      Var b = var(block.var->name, kInt64);
      host_[block.var] = b;
      PrimExpr host_extent = to_host(extent);
      host_.erase(block.var);
      if (!host_extent.defined()) return;
      PrimExpr expected = floordiv(grid - b + (limit - 1), int_imm(kInt64, limit));
      if (!analyzer_.can_prove_equal(host_extent, expected)) return;
      loop.stride_of = static_cast<int>(i);
      loop.stride = limit;
      loop.combined = grid;
      return;
    }
  }

  // Whether `guard` is split-host-device's overflow guard `b + o * L < G`: b a loop of a
  // capped grid (L, G) and o one of ceil(G / L) iterations. Then, under the guard, o
  // counts with b as a grid-stride loop does: the two enumerate [0, G) once. Ties them
  // (recording o as it was in `saved`) and returns true.
  bool tie_overflow(const PrimExpr& guard, std::vector<std::pair<size_t, Loop>>& saved) {
    const auto* less = guard.as<LTNode>();
    if (less == nullptr) return false;
    PrimExpr grid = to_host(less->b);
    if (!grid.defined()) return false;
    for (size_t i = 0; i < loops_.size(); ++i) {
      auto capped = capped_grid(loops_[i]);
      if (!capped || !analyzer_.can_prove_equal(capped->second, grid)) continue;
      const int64_t limit = capped->first;
      for (size_t j = 0; j < loops_.size(); ++j) {
        Loop& overflow = loops_[j];
        if (j == i || overflow.stride_of >= 0 || !overflow.trip_count.defined()) continue;
        std::optional<Affine> index = affine(less->a, {&loops_[i], &overflow});
        if (!index || index->rest.defined() || index->coeffs.size() != 2 ||
            index->coeffs.at(loops_[i].var) != 1 || index->coeffs.at(overflow.var) != limit ||
            !is_const_int(loops_[i].min, 0) || !is_const_int(overflow.min, 0) ||
            !analyzer_.can_prove_equal(overflow.trip_count,
                                       floordiv(grid + (limit - 1), int_imm(kInt64, limit)))) {
          continue;
        }
        saved.emplace_back(j, overflow);
        overflow.stride_of = static_cast<int>(i);
        overflow.stride = limit;
        overflow.combined = grid;
        return true;
      }
    }
    return false;
  }

  // The kernel expression `e` with the let vars bound around it substituted.
  PrimExpr inline_lets(const PrimExpr& e) {
    return substitute(e, [this](const Var& v) -> PrimExpr {
      auto it = lets_.find(v.get());
      return it == lets_.end() ? PrimExpr() : inline_lets(it->second);
    });
  }

  // `e` as an affine sum over the loops of `group`, or nullopt.
  std::optional<Affine> affine(const PrimExpr& e, const std::vector<const Loop*>& group) {
    auto in_group = [&](const VarNode* v) {
      return std::any_of(group.begin(), group.end(), [&](const Loop* l) { return l->var == v; });
    };
    if (!uses_var_if(e, [&](const VarNode* v) { return in_group(v); })) return Affine{{}, e};
    if (const auto* v = e.as<VarNode>()) return Affine{{{v, 1}}, PrimExpr()};
    auto combine = [](Affine a, const Affine& b, int64_t sign) {
      for (auto [v, c] : b.coeffs) a.coeffs[v] += sign * c;
      if (b.rest.defined()) {
        PrimExpr r = sign > 0 ? b.rest : int_imm(b.rest->dtype, 0) - b.rest;
        a.rest = a.rest.defined() ? a.rest + r : r;
      }
      return a;
    };
    if (const auto* n = e.as<AddNode>()) {
      auto a = affine(n->a, group), b = affine(n->b, group);
      if (a && b) return combine(*a, *b, 1);
    } else if (const auto* n = e.as<SubNode>()) {
      auto a = affine(n->a, group), b = affine(n->b, group);
      if (a && b) return combine(*a, *b, -1);
    } else if (const auto* n = e.as<MulNode>()) {
      const int64_t* c = as_const_int(n->b);
      PrimExpr other = n->a;
      if (c == nullptr) {
        c = as_const_int(n->a);
        other = n->b;
      }
      if (c != nullptr) {
        if (auto a = affine(other, group); a && !a->rest.defined()) {
          for (auto& [v, k] : a->coeffs) k *= *c;
          return a;
        }
      }
    }
    return std::nullopt;
  }

  // The iterations of `group` that `guard` (`index < bound`, the index a mixed-radix
  // enumeration of the group) lets through, over the host vars; null where the guard has
  // another form.
  PrimExpr mixed_radix_count(const PrimExpr& guard, const std::vector<const Loop*>& group) {
    std::optional<UpperBound> form = as_upper_bound(guard);
    if (!form) return PrimExpr();
    const auto& [index, bound, inclusive] = *form;
    std::optional<Affine> lhs = affine(index, group);
    std::optional<Affine> rhs = affine(bound, group);
    if (!lhs || !rhs || !rhs->coeffs.empty() || lhs->coeffs.size() != group.size()) {
      return PrimExpr();
    }
    // Radix order: coefficients 1, e0, e0 * e1, ... of loops starting at 0; a blockIdx
    // loop and its grid-stride loop count as one loop of G iterations.
    struct Digit {
      int64_t coeff;
      std::optional<int64_t> constant;
      PrimExpr trip_count;
    };
    std::vector<Digit> order;
    for (const Loop* loop : group) {
      const int64_t* min = as_const_int(loop->min);
      if (min == nullptr || *min != 0) return PrimExpr();
      if (loop->stride_of >= 0) {
        if (lhs->coeffs.at(loop->var) !=
            loop->stride * lhs->coeffs.at(loops_[loop->stride_of].var)) {
          return PrimExpr();
        }
        continue;
      }
      if (const Loop* strided = stride_partner(*loop, group)) {
        order.push_back({lhs->coeffs.at(loop->var), std::nullopt, strided->combined});
      } else {
        order.push_back({lhs->coeffs.at(loop->var), loop->constant, loop->trip_count});
      }
    }
    std::sort(order.begin(), order.end(),
              [](const Digit& a, const Digit& b) { return a.coeff < b.coeff; });
    int64_t expected = 1;
    for (size_t i = 0; i < order.size(); ++i) {
      if (order[i].coeff != expected) return PrimExpr();
      if (i + 1 < order.size()) {
        if (!order[i].constant) return PrimExpr();
        expected *= *order[i].constant;
      }
    }
    PrimExpr limit = bound;
    if (lhs->rest.defined()) limit = limit - lhs->rest;
    PrimExpr host_limit = to_host(limit);
    PrimExpr total = order.back().trip_count;
    if (!host_limit.defined() || !total.defined()) return PrimExpr();
    host_limit = analyzer_.simplify(host_limit + inclusive);
    // The split of the bound itself: the outer loop runs ceil(bound / inner) times, so the
    // guard lets exactly `bound` iterations through (a shape bound is never negative).
    if (analyzer_.can_prove_equal(
            total, floordiv(host_limit + (expected - 1), int_imm(kInt64, expected)))) {
      return host_limit;
    }
    total = total * expected;
    if (analyzer_.can_prove(le(host_limit, total))) return host_limit;
    return min(host_limit, total);
  }

  // `guard` counted by mixed_radix_count where it reads a loop v of constant trip count E
  // only as v // c, c dividing E (a fused index's quotient: (b * 256 + t) // 8 < n, which
  // simplifies to b * 32 + t // 8 < n): v's E iterations are c for each of the E / c
  // values of the quotient, a digit of its own. Null where no loop is read so.
  PrimExpr quotient_count(const PrimExpr& guard, const std::vector<const Loop*>& group) {
    for (const Loop* loop : group) {
      if (!loop->constant || loop->stride_of >= 0 || !is_const_int(loop->min, 0) ||
          stride_partner(*loop, group) != nullptr) {
        continue;
      }
      const VarNode* v = loop->var;
      std::optional<int64_t> divisor;
      post_order_visit(guard, [&](const Ref<Object>& node) {
        const auto* div = node.as<FloorDivNode>();
        const int64_t* c = div != nullptr ? as_const_int(div->b) : nullptr;
        if (c != nullptr && *c > 0 && div->a.get() == v && !divisor) divisor = *c;
      });
      if (!divisor || *loop->constant % *divisor != 0) continue;
      Var quotient = var(v->name + "_quotient", v->dtype);
      PrimExpr rewritten = transform(guard, [&](const PrimExpr& e) -> PrimExpr {
        const auto* div = e.as<FloorDivNode>();
        return div != nullptr && div->a.get() == v && is_const_int(div->b, *divisor)
                   ? PrimExpr(quotient)
                   : PrimExpr();
      });
      if (uses_var_if(rewritten, [&](const VarNode* u) { return u == v; })) continue;
      Loop digit = *loop;
      digit.var = quotient.get();
      digit.constant = *loop->constant / *divisor;
      digit.trip_count = int_imm(kInt64, *digit.constant);
      std::vector<const Loop*> digits = group;
      std::replace(digits.begin(), digits.end(), loop, static_cast<const Loop*>(&digit));
      if (PrimExpr n = mixed_radix_count(rewritten, digits); n.defined()) {
        return analyzer_.simplify(n * int_imm(kInt64, *divisor));
      }
    }
    return PrimExpr();
  }

  // The iterations of `group` (all of constant trip count) for which every guard holds,
  // by enumeration; nullopt when there are too many.
  std::optional<int64_t> enumerated_count(const std::vector<PrimExpr>& guards,
                                          const std::vector<const Loop*>& group) {
    int64_t points = 1;
    for (const Loop* loop : group) {
      const int64_t* min = as_const_int(loop->min);
      if (!loop->constant || min == nullptr || *loop->constant > kMaxEnumerated)
        return std::nullopt;
      points *= *loop->constant;
      if (points > kMaxEnumerated) return std::nullopt;
    }
    int64_t count = 0;
    Values values;
    for (int64_t p = 0; p < points; ++p) {
      int64_t rest = p;
      for (const Loop* loop : group) {
        values[loop->var] = *as_const_int(loop->min) + rest % *loop->constant;
        rest /= *loop->constant;
      }
      bool all = true;
      for (const PrimExpr& guard : guards) {
        std::optional<int64_t> holds = evaluate(guard, values);
        if (!holds) return std::nullopt;
        all = all && *holds != 0;
      }
      count += all ? 1 : 0;
    }
    return count;
  }

  // How many times the current statement runs: the loops around it, grouped by the guards
  // that tie them (union-find over the guards' loop vars).
  PrimExpr iterations() {
    std::vector<PrimExpr> guards;
    for (const PrimExpr& g : guards_) guards.push_back(inline_lets(g));
    // A guard `v < bound` on one loop's variable alone (a pipelined loop's test for a next
    // iteration) shortens that loop instead: the other guards then count over its first
    // iterations. The loops are restored before returning.
    std::vector<Loop> saved = loops_;
    std::vector<PrimExpr> rest;
    for (const PrimExpr& g : guards) {
      if (!shorten_loop(g)) rest.push_back(g);
    }
    guards = std::move(rest);
    PrimExpr total = group_iterations(guards);
    loops_ = std::move(saved);
    return total;
  }

  // Shortens the loop whose variable `guard` bounds (`v + c < b` or `v + c <= b`, c a
  // constant, b free of the loops; as_upper_bound's forms), the loop from a constant min and not a grid-stride
  // pair) to the iterations the guard lets through; false where the guard has another
  // form.
  bool shorten_loop(const PrimExpr& guard) {
    std::optional<UpperBound> form = as_upper_bound(guard);
    if (!form) return false;
    const PrimExpr& index = form->index;
    PrimExpr bound = form->bound;
    const int64_t inclusive = form->inclusive;
    for (const Loop& loop : loops_) {
      if (uses_var_if(bound, [&](const VarNode* u) { return u == loop.var; })) return false;
    }
    for (size_t i = 0; i < loops_.size(); ++i) {
      Loop& loop = loops_[i];
      // The index is the loop's variable plus a constant (k + 1 < n: k < n - 1).
      const PrimExpr difference = analyzer_.simplify(index - Ref<VarNode>(loop.var));
      const int64_t* offset = as_const_int(difference);
      if (offset == nullptr) continue;
      bound = bound - int_imm(bound->dtype, *offset);
      const int64_t* start = as_const_int(loop.min);
      bool strided =
          loop.stride_of >= 0 || std::any_of(loops_.begin(), loops_.end(), [&](const Loop& other) {
            return other.stride_of == static_cast<int>(i);
          });
      PrimExpr limit = to_host(bound);
      if (start == nullptr || strided || !loop.trip_count.defined() || !limit.defined()) {
        return false;
      }
      PrimExpr through = analyzer_.simplify(limit + (inclusive - *start));
      loop.trip_count = analyzer_.simplify(max(min(loop.trip_count, through), int_imm(kInt64, 0)));
      const int64_t* c = as_const_int(loop.trip_count);
      loop.constant = c != nullptr ? std::optional(*c) : std::nullopt;
      return true;
    }
    return false;
  }

  PrimExpr group_iterations(std::vector<PrimExpr> guards) {
    std::vector<int> parent(loops_.size());
    for (size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int>(i);
    std::function<int(int)> root = [&](int i) {
      return parent[i] == i ? i : parent[i] = root(parent[i]);
    };
    for (size_t i = 0; i < loops_.size(); ++i) {
      if (loops_[i].stride_of >= 0) parent[root(static_cast<int>(i))] = root(loops_[i].stride_of);
    }
    std::vector<int> guard_root(guards.size(), -1);
    for (size_t g = 0; g < guards.size(); ++g) {
      for (size_t i = 0; i < loops_.size(); ++i) {
        if (!uses_var_if(guards[g], [&](const VarNode* v) { return v == loops_[i].var; })) continue;
        if (guard_root[g] < 0) {
          guard_root[g] = static_cast<int>(i);
        } else {
          parent[root(static_cast<int>(i))] = root(guard_root[g]);
        }
      }
      // A guard on no loop (on the shape values alone) holds for all or none of them.
      if (guard_root[g] < 0) out_.upper_bound = true;
    }
    PrimExpr total = int_imm(kInt64, 1);
    for (size_t r = 0; r < loops_.size(); ++r) {
      if (root(static_cast<int>(r)) != static_cast<int>(r)) continue;
      std::vector<const Loop*> group;
      for (size_t i = 0; i < loops_.size(); ++i) {
        if (root(static_cast<int>(i)) == static_cast<int>(r)) group.push_back(&loops_[i]);
      }
      std::vector<PrimExpr> group_guards;
      for (size_t g = 0; g < guards.size(); ++g) {
        if (guard_root[g] >= 0 && root(guard_root[g]) == static_cast<int>(r)) {
          group_guards.push_back(guards[g]);
        }
      }
      PrimExpr count = group_count(group_guards, group);
      if (!count.defined()) return PrimExpr();
      total = total * count;
    }
    return analyzer_.simplify(total);
  }

  // Guards `i < b1`, `i < b2`, ... on one index i as the one guard `i < min(b1, b2, ...)`
  // (a copy's tail guard beside its region's bound); null where they have another form.
  static PrimExpr merged_upper_bound(const std::vector<PrimExpr>& guards) {
    PrimExpr index, bound;
    for (const PrimExpr& guard : guards) {
      const auto* less = guard.as<LTNode>();
      if (less == nullptr || (index.defined() && !structural_equal(less->a, index))) {
        return PrimExpr();
      }
      index = less->a;
      bound = bound.defined() ? min(bound, less->b) : less->b;
    }
    return lt(index, bound);
  }

  // The grid-stride loop of `block` in `group`, or null.
  const Loop* stride_partner(const Loop& block, const std::vector<const Loop*>& group) {
    for (const Loop* loop : group) {
      if (loop->stride_of >= 0 && &loops_[loop->stride_of] == &block) return loop;
    }
    return nullptr;
  }

  PrimExpr group_count(const std::vector<PrimExpr>& guards, const std::vector<const Loop*>& group) {
    if (!guards.empty()) {
      if (std::optional<int64_t> n = enumerated_count(guards, group)) return int_imm(kInt64, *n);
      const PrimExpr guard = guards.size() == 1 ? guards[0] : merged_upper_bound(guards);
      if (guard.defined()) {
        if (PrimExpr n = mixed_radix_count(guard, group); n.defined()) return n;
        if (PrimExpr n = quotient_count(guard, group); n.defined()) return n;
      }
      out_.upper_bound = true;
    }
    PrimExpr product = int_imm(kInt64, 1);
    for (const Loop* loop : group) {
      if (loop->stride_of >= 0) continue;  // counted with its blockIdx loop
      const Loop* strided = stride_partner(*loop, group);
      PrimExpr trip = strided != nullptr ? strided->combined : loop->trip_count;
      if (!trip.defined()) return PrimExpr();
      product = product * trip;
    }
    return product;
  }

  LaunchCounts& out_;
  arith::Analyzer analyzer_;
  std::unordered_map<const VarNode*, PrimExpr> host_;  // kernel var -> host expression
  std::unordered_map<const VarNode*, PrimExpr> lets_;  // let var -> its value (kernel)
  std::unordered_set<const VarNode*> global_;          // data vars of the buffer params
  std::unordered_set<const VarNode*> shared_;          // data vars of shared allocations
  std::vector<Loop> loops_;
  std::vector<PrimExpr> guards_;
  std::optional<PrimExpr> multiplier_;  // iterations() for the current loops and guards
};

// The bytes of `buffer`: the product of its shape times its element size, in int64.
PrimExpr buffer_bytes(const Buffer& buffer) {
  PrimExpr size = int_imm(kInt64, buffer->dtype.bytes());
  for (const PrimExpr& dim : buffer->shape) {
    size = size * (dim->dtype == kInt64 ? dim : cast(kInt64, dim));
  }
  return size;
}

}  // namespace

FuncCounts count_lowered(const LoweredFunc& func) {
  FuncCounts counts;
  counts.name = func.name;
  const std::vector<Buffer> buffers = func.buffers();
  std::vector<bool> read(buffers.size()), written(buffers.size());
  for (const KernelLaunch& launch : func.launches) {
    LaunchCounts& out = counts.launches.emplace_back();
    out.kernel = launch.kernel.name;
    out.grid = launch.grid_size;
    out.block = launch.kernel.block_size;
    out.shared_memory_bytes = launch.kernel.shared_memory_bytes;
    out.bytes_read = int_imm(kInt64, 0);
    out.bytes_written = int_imm(kInt64, 0);
    out.flops = int_imm(kInt64, 0);
    out.shared_bytes_read = int_imm(kInt64, 0);
    out.shared_bytes_written = int_imm(kInt64, 0);
    LaunchCounter(launch, out).count(launch.kernel.func->body);
    out.condition = launch.condition;
    // Which buffers each kernel reads and writes, by its buffer params in order.
    const PrimFuncNode* f = launch.kernel.func.get();
    std::unordered_map<const VarNode*, int> index;
    int b = 0;
    for (const Var& param : f->params) {
      if (Buffer buffer = f->buffer_of(param); buffer.defined()) {
        index[buffer->data.get()] = launch.buffer_args[b++];
      }
    }
    post_order_visit(f->body, [&](const Ref<Object>& n) {
      if (const auto* load = n.as<BufferLoadNode>()) {
        if (auto it = index.find(load->buffer->data.get()); it != index.end())
          read[it->second] = true;
      } else if (const auto* store = n.as<BufferStoreNode>()) {
        if (auto it = index.find(store->buffer->data.get()); it != index.end()) {
          written[it->second] = true;
        }
      }
    });
  }
  arith::Analyzer analyzer;
  counts.compulsory_read = int_imm(kInt64, 0);
  counts.compulsory_written = int_imm(kInt64, 0);
  for (size_t i = 0; i < func.params.size(); ++i) {
    if (written[i]) {
      counts.compulsory_written = counts.compulsory_written + buffer_bytes(func.params[i]);
    } else if (read[i]) {
      counts.compulsory_read = counts.compulsory_read + buffer_bytes(func.params[i]);
    }
  }
  counts.compulsory_read = analyzer.simplify(counts.compulsory_read);
  counts.compulsory_written = analyzer.simplify(counts.compulsory_written);
  return counts;
}

}  // namespace relaxc::tir
