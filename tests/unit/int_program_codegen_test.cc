// Tests of PrimExpr -> IntProgram: random integer expressions (negative operands and
// floor/trunc division included) evaluated by the VM's stack machine against
// arith::simplify of the expression with the values substituted; heap loads, casts and
// the errors for what the host cannot compute.
#include "codegen/vm/int_program_codegen.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/support/diagnostics.h"
#include "ir/tir/functor.h"

namespace relaxc::codegen {
namespace {

using runtime::vm::evaluate_int_program;
using runtime::vm::IntProgram;
using tir::PrimExpr;

// A random integer expression over `vars` whose divisors are never zero: either a
// non-zero constant (negative ones too) or max(e, 1) / min(e, -1).
class ExprGenerator {
 public:
  ExprGenerator(std::vector<tir::Var> vars, uint32_t seed) : vars_(std::move(vars)), rng_(seed) {}

  PrimExpr integer(int depth) {
    if (depth == 0 || pick(4) == 0) return leaf();
    PrimExpr a = integer(depth - 1);
    switch (pick(9)) {
      case 0:
        return tir::add(a, integer(depth - 1));
      case 1:
        return tir::sub(a, integer(depth - 1));
      case 2:
        return tir::mul(a, small());
      case 3:
        return tir::floordiv(a, divisor(depth - 1));
      case 4:
        return tir::floormod(a, divisor(depth - 1));
      case 5:
        return tir::truncdiv(a, divisor(depth - 1));
      case 6:
        return tir::truncmod(a, divisor(depth - 1));
      case 7:
        return pick(2) ? tir::min(a, integer(depth - 1)) : tir::max(a, integer(depth - 1));
      default:
        return tir::select(boolean(depth - 1), a, integer(depth - 1));
    }
  }

  PrimExpr boolean(int depth) {
    if (depth <= 0 || pick(3) == 0) {
      PrimExpr a = integer(0), b = integer(0);
      switch (pick(6)) {
        case 0:
          return tir::eq(a, b);
        case 1:
          return tir::ne(a, b);
        case 2:
          return tir::lt(a, b);
        case 3:
          return tir::le(a, b);
        case 4:
          return tir::gt(a, b);
        default:
          return tir::ge(a, b);
      }
    }
    switch (pick(3)) {
      case 0:
        return tir::logical_and(boolean(depth - 1), boolean(depth - 1));
      case 1:
        return tir::logical_or(boolean(depth - 1), boolean(depth - 1));
      default:
        return tir::logical_not(boolean(depth - 1));
    }
  }

 private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  PrimExpr small() {
    return tir::int_imm(DataType::Int(64), std::uniform_int_distribution<int>(-7, 7)(rng_));
  }
  PrimExpr leaf() {
    if (pick(3) == 0) return small();
    return vars_[static_cast<size_t>(pick(static_cast<int>(vars_.size())))];
  }
  PrimExpr divisor(int depth) {
    switch (pick(3)) {
      case 0:
        return tir::max(integer(depth), tir::int_imm(DataType::Int(64), 1));
      case 1:
        return tir::min(integer(depth), tir::int_imm(DataType::Int(64), -1));
      default: {
        int v = std::uniform_int_distribution<int>(1, 9)(rng_);
        return tir::int_imm(DataType::Int(64), pick(2) ? v : -v);
      }
    }
  }

  std::vector<tir::Var> vars_;
  std::mt19937 rng_;
};

// The value arith computes for `e` with each var replaced by its value.
int64_t reference_value(const PrimExpr& e, const std::vector<tir::Var>& vars,
                        const std::vector<int64_t>& values) {
  tir::VarMap map;
  for (size_t i = 0; i < vars.size(); ++i) map[vars[i]] = tir::int_imm(vars[i]->dtype, values[i]);
  PrimExpr folded = arith::simplify(tir::substitute(e, map));
  const int64_t* v = tir::as_const_int(folded);
  EXPECT_NE(v, nullptr) << "arith did not fold " << folded.get();
  return v == nullptr ? 0 : *v;
}

TEST(IntProgramCodegen, RandomExpressionsMatchArith) {
  std::vector<tir::Var> vars = {tir::var("n"), tir::var("m"), tir::var("k")};
  IntSlots slots;
  for (size_t i = 0; i < vars.size(); ++i) slots.vars[vars[i].get()] = static_cast<int64_t>(i);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> value(-1000, 1000);
  for (uint32_t seed = 0; seed < 300; ++seed) {
    ExprGenerator gen(vars, seed);
    PrimExpr e = seed % 5 == 4 ? tir::cast(DataType::Int(64), gen.boolean(3)) : gen.integer(4);
    IntProgram program = int_program_codegen(e, slots, "test");
    ASSERT_EQ(runtime::vm::validate_int_program(program), "");
    for (int trial = 0; trial < 8; ++trial) {
      std::vector<int64_t> values = {value(rng), value(rng), value(rng)};
      SCOPED_TRACE("seed " + std::to_string(seed) + ", n=" + std::to_string(values[0]) +
                   ", m=" + std::to_string(values[1]) + ", k=" + std::to_string(values[2]));
      EXPECT_EQ(evaluate_int_program(program, values, "test"), reference_value(e, vars, values));
    }
  }
}

TEST(IntProgramCodegen, NegativeFloorAndTruncDivision) {
  tir::Var n = tir::var("n");
  IntSlots slots;
  slots.vars[n.get()] = 0;
  auto eval = [&](const PrimExpr& e, int64_t v) {
    return evaluate_int_program(int_program_codegen(e, slots, "test"), std::vector<int64_t>{v},
                                "test");
  };
  PrimExpr four = tir::int_imm(DataType::Int(64), 4);
  // Hand-checked: floor rounds toward -infinity, trunc toward zero.
  EXPECT_EQ(eval(tir::floordiv(n, four), -7), -2);
  EXPECT_EQ(eval(tir::floormod(n, four), -7), 1);
  EXPECT_EQ(eval(tir::truncdiv(n, four), -7), -1);
  EXPECT_EQ(eval(tir::truncmod(n, four), -7), -3);
  EXPECT_EQ(eval(tir::floordiv(n, tir::int_imm(DataType::Int(64), -4)), 7), -2);
}

TEST(IntProgramCodegen, HeapLoadsAndIfThenElse) {
  tir::Buffer heap = tir::buffer("H", DataType::Int(64), {tir::int_imm(DataType::Int(64), 4)});
  IntSlots slots;
  slots.heap = heap.get();
  auto h = [&](int64_t i) { return tir::buffer_load(heap, {tir::int_imm(DataType::Int(64), i)}); };
  PrimExpr e = tir::call(DataType::Int(64), "tir.if_then_else",
                         {tir::lt(h(0), h(1)), h(2) * 3, tir::floordiv(h(3) + 1, h(1))});
  IntProgram p = int_program_codegen(e, slots, "test");
  EXPECT_EQ(evaluate_int_program(p, std::vector<int64_t>{1, 2, 5, 9}, "test"), 15);
  EXPECT_EQ(evaluate_int_program(p, std::vector<int64_t>{3, 2, 5, 9}, "test"), 5);
}

TEST(IntProgramCodegen, NarrowingCastsWrapAround) {
  tir::Var n = tir::var("n");
  IntSlots slots;
  slots.vars[n.get()] = 0;
  auto eval = [&](DataType to, int64_t v) {
    return evaluate_int_program(int_program_codegen(tir::cast(to, n), slots, "test"),
                                std::vector<int64_t>{v}, "test");
  };
  EXPECT_EQ(eval(DataType::Int(32), 5), 5);
  EXPECT_EQ(eval(DataType::Int(32), -5), -5);
  EXPECT_EQ(eval(DataType::Int(32), (int64_t{1} << 31) + 3), -(int64_t{1} << 31) + 3);
  EXPECT_EQ(eval(DataType::UInt(8), -1), 255);
  EXPECT_EQ(eval(DataType::Bool(), 7), 1);
  EXPECT_EQ(eval(DataType::Bool(), 0), 0);
}

std::string codegen_error(const PrimExpr& e, const IntSlots& slots) {
  try {
    int_program_codegen(e, slots, "the grid size of kernel 'k'");
  } catch (const UserError& err) {
    return err.what();
  }
  return "<no error>";
}

TEST(IntProgramCodegen, RefusesWhatTheHostCannotCompute) {
  tir::Var n = tir::var("n");
  tir::Var x = tir::var("x", DataType::Float(32));
  IntSlots slots;
  slots.vars[n.get()] = 0;
  EXPECT_NE(codegen_error(tir::add(n, tir::var("q")), slots)
                .find("the grid size of kernel 'k': variable 'q' has no value on the host"),
            std::string::npos);
  EXPECT_NE(codegen_error(x, slots).find("only integer scalars, got an expression of type float32"),
            std::string::npos);
  tir::Buffer a = tir::buffer("A", DataType::Int(64), {n});
  EXPECT_NE(codegen_error(tir::buffer_load(a, {tir::int_imm(DataType::Int(64), 0)}), slots)
                .find("cannot read buffer 'A'"),
            std::string::npos);
  slots.heap = a.get();
  EXPECT_NE(codegen_error(tir::buffer_load(a, {n}), slots)
                .find("must be read at a constant non-negative index"),
            std::string::npos);
}

}  // namespace
}  // namespace relaxc::codegen
