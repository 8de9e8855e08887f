// Tests of symbolic integer arithmetic: canonical simplification, bounds and proofs,
// with randomized checks of every answer against an evaluator written here.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/structural_equal.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "ir/tir/stmt.h"

namespace relaxc::arith {
namespace {

using tir::PrimExpr;
using tir::Var;

const DataType kI64 = DataType::Int(64);
const DataType kI32 = DataType::Int(32);

std::string show(const PrimExpr& e) { return text::print_node(e); }

::testing::AssertionResult same_expr(const PrimExpr& actual, const PrimExpr& expected) {
  if (structural_equal(actual, expected)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << show(actual) << ", expected " << show(expected);
}

PrimExpr i64(int64_t v) { return tir::int_imm(kI64, v); }
PrimExpr i32(int64_t v) { return tir::int_imm(kI32, v); }

// --- The reference evaluator: exact integers, TIR's rounding, bool as 0 / 1.

using Env = std::unordered_map<const Object*, int64_t>;
__extension__ typedef __int128 Wide;

// Floor division from its definition: the largest q with q * b <= a (b > 0), or
// q * b >= a (b < 0).
Wide ref_floordiv(Wide a, Wide b) {
  Wide q = a / b;
  while (b > 0 ? q * b > a : q * b < a) --q;
  return q;
}
Wide ref_floormod(Wide a, Wide b) { return a - ref_floordiv(a, b) * b; }

// The simplifier computes with exact integers and assumes only that the input's values
// fit int64. So an input is evaluated exactly, and a sample where one of its results
// leaves int64 (or that divides by zero) is skipped; a simplified form is evaluated
// exactly too (its reordered partial sums may leave int64), within 2^120.
enum class ValueRange { Int64, Wide };

class Evaluator {
 public:
  explicit Evaluator(const Env& env, ValueRange range = ValueRange::Int64)
      : env_(env), range_(range) {}

  std::optional<int64_t> operator()(const PrimExpr& e) {
    std::optional<Wide> v = eval(e);
    if (!v || *v > std::numeric_limits<int64_t>::max() ||
        *v < std::numeric_limits<int64_t>::min()) {
      return std::nullopt;
    }
    return static_cast<int64_t>(*v);
  }

 private:
  std::optional<Wide> fit(Wide v) const {
    Wide limit =
        range_ == ValueRange::Int64 ? Wide{std::numeric_limits<int64_t>::max()} : Wide{1} << 120;
    if (v > limit || v < -limit - 1) return std::nullopt;
    return v;
  }

  std::optional<Wide> eval(const PrimExpr& e) {
    if (const int64_t* v = tir::as_const_int(e)) return *v;
    if (const auto* var = e.as<tir::VarNode>()) {
      auto it = env_.find(var);
      if (it == env_.end()) return std::nullopt;
      return it->second;
    }
    if (const auto* c = e.as<tir::CastNode>()) {
      std::optional<Wide> v = eval(c->value);
      if (!v) return std::nullopt;
      if (e->dtype.is_bool()) return *v != 0 ? 1 : 0;
      // Integer conversion keeps the low bits.
      if (e->dtype == kI32) return static_cast<int32_t>(static_cast<uint32_t>(*v));
      return static_cast<int64_t>(static_cast<uint64_t>(*v));
    }
    if (const auto* s = e.as<tir::SelectNode>()) {
      std::optional<Wide> c = eval(s->condition);
      std::optional<Wide> t = eval(s->true_value);
      std::optional<Wide> f = eval(s->false_value);
      if (!c || !t || !f) return std::nullopt;
      return *c != 0 ? *t : *f;
    }
    if (const auto* n = e.as<tir::NotNode>()) {
      std::optional<Wide> a = eval(n->a);
      if (!a) return std::nullopt;
      return *a == 0 ? 1 : 0;
    }
    if (const auto* call = e.as<tir::CallNode>()) {
      if (call->op != "tir.if_then_else" || call->args.size() != 3) return std::nullopt;
      std::optional<Wide> c = eval(call->args[0]);
      if (!c) return std::nullopt;
      return eval(call->args[*c != 0 ? 1 : 2]);
    }
    if (const auto* load = e.as<tir::BufferLoadNode>()) {
      // Every buffer holds the same made-up contents: element i is 3i - floormod(i*i, 7).
      std::optional<Wide> i = load->indices.size() == 1 ? eval(load->indices[0]) : std::nullopt;
      if (!i || *i > (1 << 20) || *i < -(1 << 20)) return std::nullopt;
      return 3 * *i - ref_floormod(*i * *i, 7);
    }
    if (const auto* let = e.as<tir::LetNode>()) {
      std::optional<Wide> value = eval(let->value);
      if (!value || *value > std::numeric_limits<int64_t>::max() ||
          *value < std::numeric_limits<int64_t>::min()) {
        return std::nullopt;
      }
      Env inner = env_;
      inner[let->var.get()] = static_cast<int64_t>(*value);
      return Evaluator(inner, range_).eval(let->body);
    }
    std::optional<Wide> a, b;
    auto binary = [&](const auto* node) {
      a = eval(node->a);
      b = eval(node->b);
    };
    switch (e->kind()) {
#define RELAXC_EVAL_BINARY(K)                                          \
  case NodeKind::K:                                                    \
    binary(static_cast<const tir::BinaryNode<NodeKind::K>*>(e.get())); \
    break;
      RELAXC_EVAL_BINARY(TirAdd)
      RELAXC_EVAL_BINARY(TirSub)
      RELAXC_EVAL_BINARY(TirMul)
      RELAXC_EVAL_BINARY(TirDiv)
      RELAXC_EVAL_BINARY(TirMod)
      RELAXC_EVAL_BINARY(TirFloorDiv)
      RELAXC_EVAL_BINARY(TirFloorMod)
      RELAXC_EVAL_BINARY(TirMin)
      RELAXC_EVAL_BINARY(TirMax)
      RELAXC_EVAL_BINARY(TirEQ)
      RELAXC_EVAL_BINARY(TirNE)
      RELAXC_EVAL_BINARY(TirLT)
      RELAXC_EVAL_BINARY(TirLE)
      RELAXC_EVAL_BINARY(TirGT)
      RELAXC_EVAL_BINARY(TirGE)
      RELAXC_EVAL_BINARY(TirAnd)
      RELAXC_EVAL_BINARY(TirOr)
#undef RELAXC_EVAL_BINARY
      default:
        ADD_FAILURE() << "the evaluator has no rule for " << show(e);
        return std::nullopt;
    }
    if (!a || !b) return std::nullopt;
    Wide x = *a, y = *b;
    Wide product;
    switch (e->kind()) {
      case NodeKind::TirAdd:
        return fit(x + y);
      case NodeKind::TirSub:
        return fit(x - y);
      case NodeKind::TirMul:
        if (__builtin_mul_overflow(x, y, &product)) return std::nullopt;
        return fit(product);
      case NodeKind::TirDiv:
        return y == 0 ? std::nullopt : fit(x / y);
      case NodeKind::TirMod:
        return y == 0 ? std::nullopt : fit(x % y);
      case NodeKind::TirFloorDiv:
        return y == 0 ? std::nullopt : fit(ref_floordiv(x, y));
      case NodeKind::TirFloorMod:
        return y == 0 ? std::nullopt : fit(ref_floormod(x, y));
      case NodeKind::TirMin:
        return std::min(x, y);
      case NodeKind::TirMax:
        return std::max(x, y);
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
      case NodeKind::TirGE:
        return x >= y;
      case NodeKind::TirAnd:
        return (x != 0) && (y != 0);
      default:
        return (x != 0) || (y != 0);
    }
  }

  const Env& env_;
  ValueRange range_;
};

// --- Random expressions over a few variables, of every kind the analyzer handles.

struct VarRange {
  Var var;
  int64_t min, max;
};

class ExprGenerator {
 public:
  ExprGenerator(uint64_t seed, std::vector<VarRange> vars) : rng_(seed), vars_(std::move(vars)) {}

  PrimExpr int_expr(int depth, DataType dtype) {
    if (depth == 0 || chance(25)) return leaf(dtype);
    switch (pick(15)) {
      case 0:
        return tir::add(int_expr(depth - 1, dtype), int_expr(depth - 1, dtype));
      case 1:
        return tir::sub(int_expr(depth - 1, dtype), int_expr(depth - 1, dtype));
      case 2:
        return chance(50) ? tir::mul(int_expr(depth - 1, dtype), small_const(dtype))
                          : tir::mul(int_expr(depth - 1, dtype), int_expr(depth - 1, dtype));
      case 3:
      case 4: {
        static const NodeKind kinds[] = {NodeKind::TirFloorDiv, NodeKind::TirFloorMod,
                                         NodeKind::TirDiv, NodeKind::TirMod};
        NodeKind kind = kinds[pick(4)];
        PrimExpr divisor = chance(75) ? nonzero_const(dtype) : int_expr(depth - 1, dtype);
        return tir::binary(kind, int_expr(depth - 1, dtype), divisor);
      }
      case 5:
        return tir::min(int_expr(depth - 1, dtype), int_expr(depth - 1, dtype));
      case 6:
        return tir::max(int_expr(depth - 1, dtype), int_expr(depth - 1, dtype));
      case 7:
        return tir::select(bool_expr(depth - 1), int_expr(depth - 1, dtype),
                           int_expr(depth - 1, dtype));
      case 8:
        return tir::cast(dtype, int_expr(depth - 1, dtype == kI64 ? kI32 : kI64));
      case 9: {
        // A sum with a multiple of a constant: the shape floordiv / floormod rules target.
        int64_t c = 1 + pick(6);
        PrimExpr scaled = tir::mul(int_expr(depth - 1, dtype), tir::int_imm(dtype, c));
        PrimExpr sum = tir::add(scaled, int_expr(depth - 1, dtype));
        return tir::binary(chance(50) ? NodeKind::TirFloorDiv : NodeKind::TirFloorMod, sum,
                           tir::int_imm(dtype, c));
      }
      case 10: {
        // floordiv(x, c) * c + floormod(x, c) and its relatives.
        PrimExpr x = int_expr(depth - 1, dtype);
        PrimExpr c = tir::int_imm(dtype, 1 + pick(5));
        PrimExpr q = tir::mul(tir::floordiv(x, c), c);
        return chance(50) ? tir::add(q, tir::floormod(x, c)) : tir::sub(x, q);
      }
      case 11:
        // Opaque to the algebra: only the index is simplified.
        return tir::buffer_load(dtype == kI64 ? buffer64_ : buffer32_,
                                {int_expr(depth - 1, dtype)});
      case 12:
        return tir::call(
            dtype, "tir.if_then_else",
            {bool_expr(depth - 1), int_expr(depth - 1, dtype), int_expr(depth - 1, dtype)});
      case 13: {
        Var t = tir::var("t", dtype);
        return tir::let(t, int_expr(depth - 1, dtype),
                        tir::add(tir::mul(t, small_const(dtype)), int_expr(depth - 1, dtype)));
      }
      default:
        return leaf(dtype);
    }
  }

  PrimExpr bool_expr(int depth) {
    if (depth == 0 || chance(20)) return comparison(depth);
    switch (pick(5)) {
      case 0:
        return tir::logical_and(bool_expr(depth - 1), bool_expr(depth - 1));
      case 1:
        return tir::logical_or(bool_expr(depth - 1), bool_expr(depth - 1));
      case 2:
        return tir::logical_not(bool_expr(depth - 1));
      case 3:
        return chance(10) ? tir::bool_imm(chance(50)) : comparison(depth);
      default:
        return comparison(depth);
    }
  }

  PrimExpr comparison(int depth) {
    static const NodeKind kinds[] = {NodeKind::TirEQ, NodeKind::TirNE, NodeKind::TirLT,
                                     NodeKind::TirLE, NodeKind::TirGT, NodeKind::TirGE};
    int sub_depth = depth > 0 ? depth - 1 : 0;
    return tir::binary(kinds[pick(6)], int_expr(sub_depth, kI64), int_expr(sub_depth, kI64));
  }

  // Constants then include the ends of their type's range, to exercise overflow checks.
  void use_extreme_constants() { extreme_constants_ = true; }

  // Values for every variable, within its range.
  Env sample() {
    Env env;
    for (const VarRange& v : vars_) {
      env[v.var.get()] = std::uniform_int_distribution<int64_t>(v.min, v.max)(rng_);
    }
    return env;
  }

 private:
  PrimExpr leaf(DataType dtype) {
    if (chance(35)) return small_const(dtype);
    std::vector<const VarRange*> typed;
    for (const VarRange& v : vars_) {
      if (v.var->dtype == dtype) typed.push_back(&v);
    }
    if (typed.empty()) return small_const(dtype);
    return typed[pick(static_cast<int>(typed.size()))]->var;
  }
  PrimExpr small_const(DataType dtype) {
    if (extreme_constants_ && chance(30)) {
      ConstIntBound range =
          dtype == kI32 ? ConstIntBound{INT32_MIN, INT32_MAX} : ConstIntBound{INT64_MIN, INT64_MAX};
      int64_t extremes[] = {range.min, range.max, range.min + 1, range.max - 1, range.max / 2};
      return tir::int_imm(dtype, extremes[pick(5)]);
    }
    return tir::int_imm(dtype, pick(17) - 8);
  }
  PrimExpr nonzero_const(DataType dtype) {
    int64_t v = pick(12) - 6;
    return tir::int_imm(dtype, v >= 0 ? v + 1 : v);
  }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(int percent) { return pick(100) < percent; }

  std::mt19937_64 rng_;
  std::vector<VarRange> vars_;
  bool extreme_constants_ = false;
  tir::Buffer buffer64_ = tir::buffer("A", kI64, {tir::int_imm(kI64, 1 << 20)});
  tir::Buffer buffer32_ = tir::buffer("B", kI32, {tir::int_imm(kI64, 1 << 20)});
};

// Plain variables may be negative; size variables are not.
struct Vars {
  Var x = tir::var("x");
  Var y = tir::var("y");
  Var n = tir::size_var("n");
  Var m = tir::size_var("m");
  Var k = tir::var("k", kI32);
  Var s = tir::size_var("s", kI32);

  std::vector<VarRange> ranges(int64_t plain_limit, int64_t size_limit) const {
    return {{x, -plain_limit, plain_limit},
            {y, -plain_limit, plain_limit},
            {n, 0, size_limit},
            {m, 0, size_limit},
            {k, -plain_limit, plain_limit},
            {s, 0, size_limit}};
  }
};

// --- Constant folding.

TEST(ArithSimplify, FoldsConstantsWithTirRounding) {
  EXPECT_TRUE(same_expr(simplify(tir::floordiv(i64(-7), i64(2))), i64(-4)));
  EXPECT_TRUE(same_expr(simplify(tir::floormod(i64(-7), i64(2))), i64(1)));
  EXPECT_TRUE(same_expr(simplify(tir::floordiv(i64(7), i64(-2))), i64(-4)));
  EXPECT_TRUE(same_expr(simplify(tir::floormod(i64(7), i64(-2))), i64(-1)));
  EXPECT_TRUE(same_expr(simplify(tir::truncdiv(i64(-7), i64(2))), i64(-3)));
  EXPECT_TRUE(same_expr(simplify(tir::truncmod(i64(-7), i64(2))), i64(-1)));
  EXPECT_TRUE(same_expr(simplify(tir::min(i64(3), i64(-2)) + tir::max(i64(3), i64(-2))), i64(1)));
  EXPECT_TRUE(same_expr(simplify(i64(6) * i64(7) - i64(2)), i64(40)));
  // Division by zero is left for run time, not folded.
  PrimExpr by_zero = tir::floordiv(i64(1), i64(0));
  EXPECT_TRUE(same_expr(simplify(by_zero), by_zero));
}

TEST(ArithSimplify, KeepsInt32) {
  PrimExpr e = simplify(i32(3) * i32(4) + i32(1));
  EXPECT_TRUE(same_expr(e, i32(13)));
  EXPECT_EQ(e->dtype, kI32);
  Var k = tir::var("k", kI32);
  PrimExpr f = simplify(tir::floordiv(k * 8 + 4, i32(4)));
  EXPECT_EQ(f->dtype, kI32);
  EXPECT_TRUE(same_expr(f, k * 2 + 1));
  // A result that int32 cannot hold is not folded into an int32 constant.
  PrimExpr big = tir::mul(i32(1 << 20), i32(1 << 20));
  EXPECT_EQ(simplify(big)->dtype, kI32);
  EXPECT_FALSE(simplify(big).is<tir::IntImmNode>());
}

TEST(ArithSimplify, FoldsFloatConstantsOnly) {
  DataType f32 = DataType::Float(32);
  PrimExpr sum = simplify(tir::add(tir::float_imm(f32, 1.5), tir::float_imm(f32, 2.25)));
  ASSERT_TRUE(sum.is<tir::FloatImmNode>());
  EXPECT_EQ(sum.as<tir::FloatImmNode>()->value, 3.75);
  EXPECT_EQ(sum->dtype, f32);
  // 0.1 + 0.2 rounds to float32, not to the double sum.
  PrimExpr rounded = simplify(tir::add(tir::float_imm(f32, 0.1f), tir::float_imm(f32, 0.2f)));
  ASSERT_TRUE(rounded.is<tir::FloatImmNode>());
  EXPECT_EQ(rounded.as<tir::FloatImmNode>()->value, static_cast<double>(0.1f + 0.2f));
  // x + 0.0 is not x for x == -0.0: floats are not rewritten.
  Var x = tir::var("x", f32);
  PrimExpr e = tir::add(x, tir::float_imm(f32, 0.0));
  EXPECT_TRUE(same_expr(simplify(e), e));
  PrimExpr lt = simplify(tir::lt(tir::float_imm(f32, 1.0), tir::float_imm(f32, 2.0)));
  EXPECT_TRUE(tir::is_const_int(lt, 1));
}

// --- Canonical forms.

TEST(ArithSimplify, CommutedProductsAgree) {
  Vars v;
  PrimExpr a = simplify(v.n * 4);
  PrimExpr b = simplify(4 * v.n);
  EXPECT_TRUE(same_expr(a, b));
  EXPECT_TRUE(same_expr(a, v.n * 4));
  EXPECT_TRUE(same_expr(simplify(v.x * v.y), simplify(v.y * v.x)));
  EXPECT_TRUE(same_expr(simplify(v.x + v.y + 1), simplify(tir::add(i64(1), v.y + v.x))));
}

TEST(ArithSimplify, CollectsLinearTerms) {
  Vars v;
  PrimExpr e = simplify((v.n + 1) * v.m - v.m);
  EXPECT_TRUE(same_expr(e, simplify(v.n * v.m)));
  const auto* mul = e.as<tir::MulNode>();
  ASSERT_NE(mul, nullptr) << show(e);
  EXPECT_TRUE(mul->a.is<tir::VarNode>() && mul->b.is<tir::VarNode>()) << show(e);
  EXPECT_TRUE(same_expr(simplify(v.x + v.x), v.x * 2));
  EXPECT_TRUE(same_expr(simplify(v.x - v.x), i64(0)));
  EXPECT_TRUE(same_expr(simplify((v.x + 3) - (v.x + 1)), i64(2)));
  EXPECT_TRUE(same_expr(simplify(v.x * 3 - v.x * 5 + v.y), v.y - v.x * 2));
  EXPECT_TRUE(same_expr(simplify(i64(16) - (v.x + 4)), i64(12) - v.x));
  EXPECT_TRUE(same_expr(simplify((v.x + 1) * (v.x - 1) + 1), v.x * v.x));
}

TEST(ArithSimplify, FloorDivisionRules) {
  Vars v;
  EXPECT_TRUE(same_expr(simplify(tir::floordiv(v.n * 4, i64(4))), v.n));
  EXPECT_TRUE(same_expr(simplify(tir::floordiv(v.x * 4 + 3, i64(4))), v.x));
  EXPECT_TRUE(same_expr(simplify(tir::floordiv(v.x * 4 - 1, i64(4))), v.x - 1));
  EXPECT_TRUE(
      same_expr(simplify(tir::floordiv(v.x * 4 + v.y, i64(4))), v.x + tir::floordiv(v.y, i64(4))));
  EXPECT_TRUE(
      same_expr(simplify(tir::floormod(v.x * 4 + v.y, i64(4))), tir::floormod(v.y, i64(4))));
  EXPECT_TRUE(same_expr(simplify(tir::floormod(v.x * 4 + 6, i64(4))), i64(2)));
  EXPECT_TRUE(same_expr(simplify(tir::floordiv(v.x, i64(1))), v.x));
  EXPECT_TRUE(same_expr(simplify(tir::floormod(v.x, i64(1))), i64(0)));
  // 6x == 4x + 2x: floordiv(6x, 4) == x + floordiv(x, 2).
  EXPECT_TRUE(
      same_expr(simplify(tir::floordiv(v.x * 6, i64(4))), v.x + tir::floordiv(v.x, i64(2))));
  EXPECT_TRUE(same_expr(simplify(tir::floormod(v.x * 6, i64(4))), tir::floormod(v.x, i64(2)) * 2));
  EXPECT_TRUE(same_expr(simplify(tir::floordiv(tir::floordiv(v.x, i64(2)), i64(3))),
                        tir::floordiv(v.x, i64(6))));
  EXPECT_TRUE(same_expr(simplify(tir::floormod(tir::floormod(v.x, i64(6)), i64(3))),
                        tir::floormod(v.x, i64(3))));
  // floordiv(x, c) * c + floormod(x, c) == x, and x - floordiv(x, c) * c == floormod(x, c).
  PrimExpr c = i64(4);
  EXPECT_TRUE(same_expr(simplify(tir::floordiv(v.x, c) * c + tir::floormod(v.x, c)), v.x));
  EXPECT_TRUE(same_expr(simplify(v.x - tir::floordiv(v.x, c) * c), tir::floormod(v.x, c)));
}

// x == d * s + f with d dividing c and 0 <= f < d: floordiv(x, c) == floordiv(s, c / d)
// and floormod(x, c) == d * floormod(s, c / d) + f, whatever s's sign. A thread's 4
// lanes beside its offset 4 * t in rows of 8 (a matmul's shared-tile copy): contiguous.
TEST(ArithSimplify, FloorDivisionSplitsOffABoundedRest) {
  Vars v;
  Var lane = tir::var("lane"), t = tir::var("t");
  Analyzer analyzer;
  analyzer.bind_bounds(lane, 0, 3);
  analyzer.bind_bounds(t, 0, 15);
  PrimExpr c4 = i64(4), c8 = i64(8), c2 = i64(2);
  EXPECT_TRUE(same_expr(analyzer.simplify(tir::floormod(v.y * 4 + lane, c8)),
                        analyzer.simplify(tir::floormod(v.y, c2) * c4 + lane)));
  EXPECT_TRUE(
      same_expr(analyzer.simplify(tir::floordiv(v.y * 4 + lane, c8)), tir::floordiv(v.y, c2)));
  // Two coarse steps: 64 * y + (4 * t + lane), the rest below 64.
  EXPECT_TRUE(same_expr(analyzer.simplify(tir::floormod(v.y * 64 + t * 4 + lane, i64(128))),
                        analyzer.simplify(tir::floormod(v.y, c2) * i64(64) + t * 4 + lane)));
  // Simplified with the lanes' range (as simplify-kernel does), the copy's index of A in
  // rows of 4096 steps by 1 from lane to lane without knowing it (as the back ends check).
  PrimExpr index = analyzer.simplify(tir::floordiv(v.y * 4 + lane, c8) * i64(4096) +
                                     tir::floormod(v.y * 4 + lane, c8));
  PrimExpr next = tir::substitute(index, {{lane, PrimExpr(lane) + 1}});
  EXPECT_TRUE(is_const_int(simplify(next - index), 1)) << show(index);
  // A rest that can reach d (lane up to 4 here) keeps the division.
  Analyzer wide;
  wide.bind_bounds(lane, 0, 4);
  PrimExpr kept = tir::floormod(v.y * 4 + lane, c8);
  EXPECT_TRUE(wide.simplify(kept).as<tir::FloorModNode>() != nullptr) << show(wide.simplify(kept));
}

TEST(ArithSimplify, TruncatedDivisionIsOnlyRewrittenWhenSound) {
  Vars v;
  // truncdiv(x * 4 - 1, 4) is 0 at x = 0, where the floor answer x - 1 is -1.
  PrimExpr e = tir::truncdiv(v.x * 4 - 1, i64(4));
  PrimExpr s = simplify(e);
  EXPECT_FALSE(same_expr(s, v.x - 1));
  // Non-negative dividends divide like floordiv.
  EXPECT_TRUE(same_expr(simplify(tir::truncdiv(v.n * 4 + 3, i64(4))), v.n));
  EXPECT_TRUE(same_expr(simplify(tir::truncmod(v.n * 4 + 3, i64(4))), i64(3)));
  EXPECT_TRUE(same_expr(simplify(tir::truncdiv(v.x, i64(1))), v.x));
}

TEST(ArithSimplify, MinMaxRules) {
  Vars v;
  EXPECT_TRUE(same_expr(simplify(tir::min(v.x, v.x)), v.x));
  EXPECT_TRUE(same_expr(simplify(tir::min(v.x + 1, v.x + 3)), v.x + 1));
  EXPECT_TRUE(same_expr(simplify(tir::max(v.x + 1, v.x + 3)), v.x + 3));
  EXPECT_TRUE(same_expr(simplify(tir::min(v.n, i64(-1))), i64(-1)));
  EXPECT_TRUE(same_expr(simplify(tir::max(v.n, i64(-1))), v.n));
  EXPECT_TRUE(same_expr(simplify(tir::min(v.x, v.y)), simplify(tir::min(v.y, v.x))));
  EXPECT_TRUE(same_expr(simplify(tir::min(tir::min(v.x, v.y), v.x)), simplify(tir::min(v.y, v.x))));
  // min(a + t, b + t) == min(a, b) + t.
  EXPECT_TRUE(
      same_expr(simplify(tir::min(v.x + v.n, v.y + v.n)), simplify(tir::min(v.x, v.y) + v.n)));
  Analyzer analyzer;
  analyzer.bind(v.x, tir::range(i64(0), i64(8)));
  EXPECT_TRUE(same_expr(analyzer.simplify(tir::min(v.x, i64(8))), v.x));
  EXPECT_TRUE(same_expr(analyzer.simplify(tir::max(v.x, i64(7))), i64(7)));
  // min(a, b) + max(a, b) == a + b, also scaled by other factors (a loop of min(n, 1)
  // iterations beside one of max(n, 1) - 1, as a pipelined loop's counts add up).
  EXPECT_TRUE(same_expr(simplify(tir::min(i64(1), v.n) + tir::max(v.n, i64(1)) - i64(1)), v.n));
  EXPECT_TRUE(same_expr(simplify(tir::min(v.x, v.y) * v.m * 3 + v.m * tir::max(v.y, v.x) * 3),
                        simplify(v.x * v.m * 3 + v.y * v.m * 3)));
  EXPECT_FALSE(
      same_expr(simplify(tir::min(v.x, v.y) * 2 + tir::max(v.x, v.y)), simplify(v.x * 2 + v.y)));
}

TEST(ArithSimplify, ComparisonsAndLogic) {
  Vars v;
  EXPECT_TRUE(tir::is_const_int(simplify(tir::ge(v.n, i64(0))), 1));
  EXPECT_TRUE(tir::is_const_int(simplify(tir::lt(v.x, v.x + 1)), 1));
  EXPECT_TRUE(tir::is_const_int(simplify(tir::eq(v.x * 2, v.y * 2 + 1)), 0));
  EXPECT_TRUE(same_expr(simplify(tir::le(v.x + 1, i64(16))), tir::lt(v.x, i64(16))));
  EXPECT_TRUE(same_expr(simplify(tir::gt(i64(16), v.x)), tir::lt(v.x, i64(16))));
  EXPECT_TRUE(same_expr(simplify(tir::lt(v.x * 4, i64(7))), tir::lt(v.x, i64(2))));
  EXPECT_TRUE(same_expr(simplify(tir::eq(v.x * 4, v.y * 4)), simplify(tir::eq(v.y, v.x))));
  PrimExpr lt = tir::lt(v.x, i64(5));
  EXPECT_TRUE(tir::is_const_int(simplify(tir::logical_and(lt, tir::logical_not(lt))), 0));
  EXPECT_TRUE(tir::is_const_int(simplify(tir::logical_or(lt, tir::ge(v.x, i64(5)))), 1));
  EXPECT_TRUE(same_expr(simplify(tir::logical_and(lt, tir::bool_imm(true))), lt));
  EXPECT_TRUE(same_expr(simplify(tir::logical_not(tir::logical_not(lt))), lt));
  EXPECT_TRUE(same_expr(simplify(tir::logical_not(lt)), simplify(tir::ge(v.x, i64(5)))));
  EXPECT_TRUE(same_expr(simplify(tir::select(tir::bool_imm(true), v.x, v.y)), v.x));
  EXPECT_TRUE(same_expr(simplify(tir::select(tir::bool_imm(false), v.x, v.y)), v.y));
  EXPECT_TRUE(same_expr(simplify(tir::select(lt, v.x + 1, tir::add(i64(1), v.x))), v.x + 1));
}

TEST(ArithSimplify, OpaqueNodesKeepTheirPlaceWithSimplifiedChildren) {
  Vars v;
  tir::Buffer a = tir::buffer("A", kI64, {i64(64)});
  PrimExpr load = tir::buffer_load(a, {v.x * 2 - v.x});
  PrimExpr e = simplify(load + load - load);
  EXPECT_TRUE(same_expr(e, tir::buffer_load(a, {v.x})));
  // A load is no constant: A[0] - A[0] cancels, A[0] < A[1] stays.
  PrimExpr diff = simplify(tir::buffer_load(a, {i64(0)}) - tir::buffer_load(a, {i64(0)}));
  EXPECT_TRUE(same_expr(diff, i64(0)));
  PrimExpr cmp = tir::lt(tir::buffer_load(a, {i64(0)}), tir::buffer_load(a, {i64(1)}));
  EXPECT_FALSE(simplify(cmp).is<tir::IntImmNode>());
}

TEST(ArithSimplify, SubstitutesBoundValues) {
  Vars v;
  Analyzer analyzer;
  analyzer.bind_value(v.x, v.n * 2);
  EXPECT_TRUE(same_expr(analyzer.simplify(v.x - v.n), v.n));
  EXPECT_EQ(analyzer.prove(tir::eq(tir::floormod(v.x, i64(2)), i64(0))), Proof::True);
  // A value that refers to its own variable is expanded once, not forever.
  analyzer.bind_value(v.y, v.y + 1);
  EXPECT_TRUE(same_expr(analyzer.simplify(v.y), v.y + 1));
}

TEST(ArithSimplify, ExtremeConstants) {
  Vars v;
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  PrimExpr by_minus_one = tir::floordiv(i64(kMin), i64(-1));
  EXPECT_TRUE(same_expr(simplify(by_minus_one), by_minus_one));
  EXPECT_TRUE(same_expr(simplify(tir::truncmod(i64(kMin), i64(-1))), i64(0)));
  EXPECT_TRUE(same_expr(simplify(v.x + i64(kMax) - i64(kMax)), v.x));
  // The coefficient 2 * kMax does not exist in int64: the product stays as written.
  PrimExpr product = simplify(v.x * kMax * 2);
  Env zero{{v.x.get(), 0}};
  EXPECT_EQ(Evaluator(zero)(product), std::optional<int64_t>(0));
  // Casts keep the low bits.
  PrimExpr narrowed = simplify(tir::cast(kI32, i64((int64_t{1} << 32) + 5)));
  EXPECT_TRUE(same_expr(narrowed, i32(5)));
  EXPECT_TRUE(same_expr(simplify(tir::cast(DataType::Int(8), i64(200))),
                        tir::int_imm(DataType::Int(8), -56)));
  // Bounds saturate instead of wrapping.
  Analyzer analyzer;
  analyzer.bind_bounds(v.x, 0, kMax);
  ConstIntBound b = analyzer.const_int_bound(v.x * 4 + 1);
  EXPECT_EQ(b.min, 1);
  EXPECT_EQ(b.max, ConstIntBound::kPosInf);
}

// --- Bounds.

TEST(ArithBound, IntervalPropagation) {
  Vars v;
  Analyzer analyzer;
  Var i = tir::var("i");
  analyzer.bind(i, tir::range(i64(0), i64(16)));
  analyzer.bind_bounds(v.x, -3, 5);
  auto expect_bound = [&](const PrimExpr& e, int64_t lo, int64_t hi) {
    ConstIntBound b = analyzer.const_int_bound(e);
    EXPECT_EQ(b.min, lo) << show(e);
    EXPECT_EQ(b.max, hi) << show(e);
  };
  expect_bound(i * 4 + 3, 3, 63);
  expect_bound(i - v.x, -5, 18);
  expect_bound(i * v.x, -45, 75);
  expect_bound(tir::floordiv(i, i64(4)), 0, 3);
  expect_bound(tir::floordiv(v.x, i64(2)), -2, 2);
  expect_bound(tir::floormod(v.y, i64(8)), 0, 7);
  expect_bound(tir::floormod(v.y, i64(-8)), -7, 0);
  expect_bound(tir::floormod(i, i64(32)), 0, 15);
  expect_bound(tir::truncmod(v.x, i64(4)), -3, 3);
  expect_bound(tir::truncdiv(v.x, i64(2)), -1, 2);
  expect_bound(tir::min(i, v.x), -3, 5);
  expect_bound(tir::max(i, v.x), 0, 15);
  expect_bound(tir::select(tir::lt(v.y, i64(0)), i, v.x + 100), 0, 105);
  expect_bound(tir::cast(kI32, i * 2), 0, 30);
  expect_bound(tir::cast(kI32, v.y), std::numeric_limits<int32_t>::min(),
               std::numeric_limits<int32_t>::max());
  expect_bound(v.n, 0, ConstIntBound::kPosInf);
  expect_bound(v.y, ConstIntBound::kNegInf, ConstIntBound::kPosInf);
  expect_bound(v.y - v.y, 0, 0);
  expect_bound(tir::floordiv(i, v.n + 1), 0, 15);
}

// --- Proofs.

TEST(ArithProve, DecidesWhatTheRulesReach) {
  Vars v;
  Analyzer analyzer;
  EXPECT_EQ(analyzer.prove(tir::eq(v.n * 4, 4 * v.n)), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::eq(tir::floordiv(v.n * 4, i64(4)), v.n)), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::eq((v.n + 1) * v.m - v.m, v.n * v.m)), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::eq(v.n, v.n + 1)), Proof::False);
  EXPECT_EQ(analyzer.prove(tir::eq(v.n, v.m)), Proof::Unknown);
  EXPECT_EQ(analyzer.prove(tir::ne(v.n, v.m)), Proof::Unknown);
  Var i = tir::var("i");
  analyzer.bind(i, tir::range(i64(0), i64(16)));
  EXPECT_EQ(analyzer.prove(tir::lt(i, i64(16))), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::ge(i, i64(16))), Proof::False);
  EXPECT_EQ(analyzer.prove(tir::lt(i, i64(15))), Proof::Unknown);
  EXPECT_EQ(analyzer.prove(tir::eq(i, i64(20))), Proof::False);
  EXPECT_EQ(analyzer.prove(tir::ge(v.n * v.m, i64(0))), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::le(v.x - tir::floordiv(v.x, i64(8)) * 8, i64(7))), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::le(tir::floordiv(v.x, i64(4)) * 4, v.x)), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::lt(tir::floormod(v.x, i64(4)), i64(4))), Proof::True);
  // Rounding up to a multiple of 4 never makes n smaller.
  EXPECT_EQ(analyzer.prove(tir::ge(tir::floordiv(v.n + 3, i64(4)) * 4, v.n)), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::logical_and(tir::lt(i, i64(16)), tir::ge(v.n, i64(0)))),
            Proof::True);
  EXPECT_EQ(analyzer.prove(tir::logical_or(tir::lt(i, i64(0)), tir::eq(v.n, v.n + 2))),
            Proof::False);
  EXPECT_TRUE(analyzer.can_prove_equal(v.n * 4, 4 * v.n));
  EXPECT_FALSE(analyzer.can_prove_equal(v.n, v.m));
  Var k = tir::var("k", kI32);
  EXPECT_FALSE(analyzer.can_prove_equal(k, v.n));
}

TEST(ArithProve, LoopRangeWithSymbolicExtent) {
  Vars v;
  Analyzer analyzer;
  Var i = tir::var("i");
  analyzer.bind(i, tir::range(v.n, i64(4)));
  EXPECT_EQ(analyzer.prove(tir::ge(i, i64(0))), Proof::True);
  EXPECT_EQ(analyzer.prove(tir::lt(i, i64(4))), Proof::Unknown);
}

// --- Hostile input stays bounded.

TEST(ArithLimits, DeepAndSharedExpressionsDoNotCrash) {
  Vars v;
  PrimExpr chain = v.x;
  for (int i = 0; i < 5000; ++i) chain = chain + v.y;
  PrimExpr s = simplify(chain);
  EXPECT_TRUE(same_expr(s, v.x + v.y * 5000));
  PrimExpr nested = v.x;
  for (int i = 0; i < 5000; ++i) nested = tir::floordiv(nested + 1, i64(2));
  Analyzer analyzer;
  EXPECT_TRUE(analyzer.simplify(nested).defined());
  EXPECT_EQ(analyzer.prove(tir::eq(nested, nested)), Proof::Unknown);
  ConstIntBound b = analyzer.const_int_bound(nested);
  EXPECT_LE(b.min, b.max);
  // 2^80 copies of x by sharing: the coefficient overflows, the meaning is kept.
  PrimExpr doubled = v.x;
  for (int i = 0; i < 80; ++i) doubled = doubled + doubled;
  PrimExpr d = simplify(doubled);
  Env env{{v.x.get(), 0}};
  EXPECT_EQ(Evaluator(env)(d), std::optional<int64_t>(0));
}

// --- Randomized properties (fixed seeds).

TEST(ArithRandom, SimplifyPreservesValues) {
  Vars v;
  ExprGenerator gen(0x5eed01, v.ranges(40, 40));
  int compared = 0;
  for (int round = 0; round < 2500; ++round) {
    DataType dtype = round % 4 == 0 ? kI32 : kI64;
    PrimExpr e = round % 3 == 0 ? gen.bool_expr(3) : gen.int_expr(4, dtype);
    PrimExpr s = simplify(e);
    ASSERT_EQ(s->dtype, e->dtype) << show(e);
    for (int sample = 0; sample < 24; ++sample) {
      Env env = gen.sample();
      std::optional<int64_t> want = Evaluator(env)(e);
      if (!want) continue;
      std::optional<int64_t> got = Evaluator(env, ValueRange::Wide)(s);
      ASSERT_EQ(got, want) << show(e) << "  simplified to  " << show(s);
      ++compared;
    }
  }
  EXPECT_GT(compared, 30000);
}

TEST(ArithRandom, ExtremeConstantsNeverOverflow) {
  // Where int64 arithmetic would overflow, the simplifier keeps the form it cannot
  // rewrite exactly; wherever the input has a value, the result has the same one.
  Vars v;
  ExprGenerator gen(0x5eed05, v.ranges(40, 40));
  gen.use_extreme_constants();
  int compared = 0;
  for (int round = 0; round < 800; ++round) {
    PrimExpr e = round % 3 == 0 ? gen.bool_expr(3) : gen.int_expr(4, round % 4 == 0 ? kI32 : kI64);
    PrimExpr s = simplify(e);
    ASSERT_EQ(s->dtype, e->dtype) << show(e);
    for (int sample = 0; sample < 8; ++sample) {
      Env env = gen.sample();
      std::optional<int64_t> want = Evaluator(env)(e);
      if (!want) continue;
      ASSERT_EQ(Evaluator(env, ValueRange::Wide)(s), want)
          << show(e) << "  simplified to  " << show(s);
      ++compared;
    }
  }
  EXPECT_GT(compared, 1000);
}

TEST(ArithRandom, SimplifyIsIdempotent) {
  Vars v;
  ExprGenerator gen(0x5eed02, v.ranges(40, 40));
  for (int round = 0; round < 1500; ++round) {
    PrimExpr e = round % 3 == 0 ? gen.bool_expr(3) : gen.int_expr(4, kI64);
    PrimExpr once = simplify(e);
    PrimExpr twice = simplify(once);
    ASSERT_TRUE(same_expr(twice, once)) << "from " << show(e);
  }
}

TEST(ArithRandom, BoundsAndSimplifyHoldWithinBoundRanges) {
  Vars v;
  Analyzer analyzer;
  analyzer.bind(v.x, tir::range(i64(-6), i64(13)));  // [-6, 6]
  analyzer.bind_bounds(v.n, 1, 32);
  analyzer.bind_bounds(v.k, 0, 9);
  std::vector<VarRange> ranges = {{v.x, -6, 6}, {v.y, -50, 50}, {v.n, 1, 32},
                                  {v.m, 0, 50}, {v.k, 0, 9},    {v.s, 0, 50}};
  ExprGenerator gen(0x5eed03, ranges);
  for (int round = 0; round < 2000; ++round) {
    PrimExpr e = gen.int_expr(4, round % 4 == 0 ? kI32 : kI64);
    ConstIntBound b = analyzer.const_int_bound(e);
    PrimExpr s = analyzer.simplify(e);
    for (int sample = 0; sample < 16; ++sample) {
      Env env = gen.sample();
      std::optional<int64_t> want = Evaluator(env)(e);
      if (!want) continue;
      ASSERT_GE(*want, b.min) << show(e);
      ASSERT_LE(*want, b.max) << show(e);
      ASSERT_EQ(Evaluator(env, ValueRange::Wide)(s), want)
          << show(e) << "  simplified to  " << show(s);
    }
  }
}

TEST(ArithRandom, ProofsHoldOnSamples) {
  Vars v;
  Analyzer analyzer;
  analyzer.bind(v.x, tir::range(i64(0), i64(16)));
  analyzer.bind_bounds(v.y, -8, 8);
  analyzer.bind_bounds(v.n, 1, 64);
  std::vector<VarRange> ranges = {{v.x, 0, 15}, {v.y, -8, 8},   {v.n, 1, 64},
                                  {v.m, 0, 64}, {v.k, -20, 20}, {v.s, 0, 20}};
  ExprGenerator gen(0x5eed04, ranges);
  int decided = 0;
  for (int round = 0; round < 3000; ++round) {
    PrimExpr cond = gen.bool_expr(2);
    Proof p = analyzer.prove(cond);
    if (p == Proof::Unknown) continue;
    ++decided;
    for (int sample = 0; sample < 24; ++sample) {
      Env env = gen.sample();
      std::optional<int64_t> truth = Evaluator(env)(cond);
      if (!truth) continue;
      ASSERT_EQ(*truth != 0, p == Proof::True) << show(cond);
    }
  }
  EXPECT_GT(decided, 300);
}

}  // namespace
}  // namespace relaxc::arith
