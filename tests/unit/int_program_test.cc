// Tests of the host's integer programs: each op against hand-checked values, validation
// messages, run-time errors (overflow, division by zero, slots) and the infix text.
#include "runtime/vm/int_program.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "runtime/dtype.h"

namespace relaxc::runtime::vm {
namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

IntInstr c(int64_t v) { return {IntOp::Const, v}; }
IntInstr ld(int64_t slot) { return {IntOp::Load, slot}; }
IntInstr op(IntOp o) { return {o, 0}; }

IntProgram binary(IntOp o, int64_t a, int64_t b) { return IntProgram{{c(a), c(b), op(o)}}; }

int64_t eval(const IntProgram& p, std::vector<int64_t> slots = {}) {
  EXPECT_EQ(validate_int_program(p), "");
  return evaluate_int_program(p, slots, "test");
}

int64_t eval_binary(IntOp o, int64_t a, int64_t b) { return eval(binary(o, a, b)); }

std::string eval_error(const IntProgram& p, std::vector<int64_t> slots = {}) {
  try {
    evaluate_int_program(p, slots, "the grid size of kernel 'k'");
  } catch (const RuntimeError& e) {
    return e.what();
  }
  return "<no error>";
}

TEST(IntProgram, ConstantAndLoad) {
  EXPECT_EQ(eval(int_constant(-42)), -42);
  EXPECT_EQ(eval(int_load(2), {10, 20, 30}), 30);
  EXPECT_EQ(int_constant(7).code, (std::vector<IntInstr>{{IntOp::Const, 7}}));
  EXPECT_EQ(int_load(3).code, (std::vector<IntInstr>{{IntOp::Load, 3}}));
}

TEST(IntProgram, Arithmetic) {
  EXPECT_EQ(eval_binary(IntOp::Add, 3, 4), 7);
  EXPECT_EQ(eval_binary(IntOp::Sub, 3, 10), -7);  // left operand pushed first
  EXPECT_EQ(eval_binary(IntOp::Mul, -6, 7), -42);
  EXPECT_EQ(eval_binary(IntOp::Min, -6, 7), -6);
  EXPECT_EQ(eval_binary(IntOp::Max, -6, 7), 7);
}

TEST(IntProgram, FloorDivisionRoundsTowardMinusInfinity) {
  EXPECT_EQ(eval_binary(IntOp::FloorDiv, 7, 2), 3);
  EXPECT_EQ(eval_binary(IntOp::FloorDiv, -7, 2), -4);
  EXPECT_EQ(eval_binary(IntOp::FloorDiv, 7, -2), -4);
  EXPECT_EQ(eval_binary(IntOp::FloorDiv, -7, -2), 3);
  EXPECT_EQ(eval_binary(IntOp::FloorDiv, -8, 2), -4);
  EXPECT_EQ(eval_binary(IntOp::FloorMod, 7, 3), 1);
  EXPECT_EQ(eval_binary(IntOp::FloorMod, -7, 3), 2);
  EXPECT_EQ(eval_binary(IntOp::FloorMod, 7, -3), -2);
  EXPECT_EQ(eval_binary(IntOp::FloorMod, -7, -3), -1);
  EXPECT_EQ(eval_binary(IntOp::FloorMod, -6, 3), 0);
  EXPECT_EQ(eval_binary(IntOp::FloorMod, kMin, -1), 0);
  EXPECT_EQ(eval_binary(IntOp::FloorDiv, kMin, 1), kMin);
}

TEST(IntProgram, TruncDivisionRoundsTowardZero) {
  EXPECT_EQ(eval_binary(IntOp::TruncDiv, 7, 2), 3);
  EXPECT_EQ(eval_binary(IntOp::TruncDiv, -7, 2), -3);
  EXPECT_EQ(eval_binary(IntOp::TruncDiv, 7, -2), -3);
  EXPECT_EQ(eval_binary(IntOp::TruncDiv, -7, -2), 3);
  EXPECT_EQ(eval_binary(IntOp::TruncMod, 7, 3), 1);
  EXPECT_EQ(eval_binary(IntOp::TruncMod, -7, 3), -1);
  EXPECT_EQ(eval_binary(IntOp::TruncMod, 7, -3), 1);
  EXPECT_EQ(eval_binary(IntOp::TruncMod, -7, -3), -1);
  EXPECT_EQ(eval_binary(IntOp::TruncMod, kMin, -1), 0);
}

TEST(IntProgram, ComparisonsAndLogic) {
  EXPECT_EQ(eval_binary(IntOp::EQ, 3, 3), 1);
  EXPECT_EQ(eval_binary(IntOp::EQ, 3, 4), 0);
  EXPECT_EQ(eval_binary(IntOp::NE, 3, 4), 1);
  EXPECT_EQ(eval_binary(IntOp::LT, 3, 4), 1);
  EXPECT_EQ(eval_binary(IntOp::LT, 4, 3), 0);
  EXPECT_EQ(eval_binary(IntOp::LE, 4, 4), 1);
  EXPECT_EQ(eval_binary(IntOp::GT, 4, 3), 1);
  EXPECT_EQ(eval_binary(IntOp::GT, -4, 3), 0);
  EXPECT_EQ(eval_binary(IntOp::GE, 3, 3), 1);
  EXPECT_EQ(eval_binary(IntOp::And, 5, -2), 1);  // non-zero is true
  EXPECT_EQ(eval_binary(IntOp::And, 5, 0), 0);
  EXPECT_EQ(eval_binary(IntOp::Or, 0, 0), 0);
  EXPECT_EQ(eval_binary(IntOp::Or, 0, 9), 1);
  EXPECT_EQ(eval(IntProgram{{c(0), op(IntOp::Not)}}), 1);
  EXPECT_EQ(eval(IntProgram{{c(-3), op(IntOp::Not)}}), 0);
}

TEST(IntProgram, SelectPopsConditionThenBothValues) {
  EXPECT_EQ(eval(IntProgram{{c(1), c(10), c(20), op(IntOp::Select)}}), 10);
  EXPECT_EQ(eval(IntProgram{{c(0), c(10), c(20), op(IntOp::Select)}}), 20);
  // select(s0 < s1, s0, s1) is min(s0, s1).
  IntProgram min_prog{{ld(0), ld(1), op(IntOp::LT), ld(0), ld(1), op(IntOp::Select)}};
  EXPECT_EQ(eval(min_prog, {5, 9}), 5);
  EXPECT_EQ(eval(min_prog, {9, 5}), 5);
}

TEST(IntProgram, NestedExpression) {
  // floordiv(s0 * s1 + 3, 4) with s0 = 5, s1 = -2: floordiv(-7, 4) = -2.
  IntProgram p{{ld(0), ld(1), op(IntOp::Mul), c(3), op(IntOp::Add), c(4), op(IntOp::FloorDiv)}};
  EXPECT_EQ(eval(p, {5, -2}), -2);
  EXPECT_EQ(eval(p, {5, 2}), 3);
}

TEST(IntProgram, OverflowIsAnError) {
  EXPECT_EQ(eval_error(binary(IntOp::Add, kMax, 1)),
            "the grid size of kernel 'k': int64 overflow in add(9223372036854775807, 1)");
  EXPECT_EQ(eval_error(binary(IntOp::Sub, kMin, 1)),
            "the grid size of kernel 'k': int64 overflow in sub(-9223372036854775808, 1)");
  EXPECT_EQ(eval_error(binary(IntOp::Mul, int64_t{1} << 32, int64_t{1} << 31)),
            "the grid size of kernel 'k': int64 overflow in mul(4294967296, 2147483648)");
  EXPECT_EQ(eval_error(binary(IntOp::FloorDiv, kMin, -1)),
            "the grid size of kernel 'k': int64 overflow in floordiv(-9223372036854775808, -1)");
  EXPECT_EQ(eval_error(binary(IntOp::TruncDiv, kMin, -1)),
            "the grid size of kernel 'k': int64 overflow in truncdiv(-9223372036854775808, -1)");
}

TEST(IntProgram, DivisionByZeroIsAnError) {
  EXPECT_EQ(eval_error(binary(IntOp::FloorDiv, 1, 0)),
            "the grid size of kernel 'k': division by zero");
  EXPECT_EQ(eval_error(binary(IntOp::TruncDiv, 1, 0)),
            "the grid size of kernel 'k': division by zero");
  EXPECT_EQ(eval_error(binary(IntOp::FloorMod, 1, 0)),
            "the grid size of kernel 'k': modulo by zero");
  EXPECT_EQ(eval_error(IntProgram{{c(1), ld(0), op(IntOp::TruncMod)}}, {0}),
            "the grid size of kernel 'k': modulo by zero");
}

TEST(IntProgram, LoadOutsideTheSlotsIsAnError) {
  EXPECT_EQ(eval_error(int_load(3), {1, 2, 3}),
            "the grid size of kernel 'k': load of slot 3, there are 3 slots");
  EXPECT_EQ(eval_error(int_load(0)),
            "the grid size of kernel 'k': load of slot 0, there are 0 slots");
}

TEST(IntProgram, UnvalidatedProgramThrowsInsteadOfCrashing) {
  EXPECT_EQ(eval_error(IntProgram{{c(1), op(IntOp::Add)}}),
            "the grid size of kernel 'k': invalid int program: instruction 1 (Add) needs 2 "
            "operands, the stack has 1");
  EXPECT_EQ(eval_error(IntProgram{}),
            "the grid size of kernel 'k': invalid int program: the program ends with 0 values "
            "on the stack, expected 1");
  IntProgram deep;
  for (int i = 0; i <= kMaxIntProgramDepth; ++i) deep.code.push_back(c(i));
  EXPECT_NE(eval_error(deep).find("makes the stack 65 deep"), std::string::npos);
  EXPECT_NE(eval_error(IntProgram{{{static_cast<IntOp>(200), 0}}}).find("unknown op (200)"),
            std::string::npos);
}

TEST(IntProgram, ValidationMessages) {
  EXPECT_EQ(validate_int_program(
                IntProgram{{c(1), c(2), c(3), op(IntOp::Add), op(IntOp::Add), op(IntOp::Add)}}),
            "instruction 5 (Add) needs 2 operands, the stack has 1");
  EXPECT_EQ(validate_int_program(IntProgram{{op(IntOp::Not)}}),
            "instruction 0 (Not) needs 1 operand, the stack has 0");
  EXPECT_EQ(validate_int_program(IntProgram{{c(1), c(2), op(IntOp::Select)}}),
            "instruction 2 (Select) needs 3 operands, the stack has 2");
  EXPECT_EQ(validate_int_program(IntProgram{{c(1), c(2)}}),
            "the program ends with 2 values on the stack, expected 1");
  EXPECT_EQ(validate_int_program(IntProgram{}),
            "the program ends with 0 values on the stack, expected 1");
  EXPECT_EQ(validate_int_program(IntProgram{{ld(-1)}}),
            "instruction 0 (Load) loads slot -1, slots are >= 0");
  EXPECT_EQ(validate_int_program(IntProgram{{c(1), {IntOp::Not, 4}}}),
            "instruction 1 (Not) has operand 4, expected 0");
  EXPECT_EQ(validate_int_program(IntProgram{{c(1), {static_cast<IntOp>(kNumIntOps), 0}}}),
            "instruction 1 has an unknown op (21)");
  IntProgram deep;
  for (int i = 0; i <= kMaxIntProgramDepth; ++i) deep.code.push_back(c(i));
  EXPECT_EQ(validate_int_program(deep),
            "instruction 64 (Const) makes the stack 65 deep, the most is 64");
  // Exactly the maximum depth is fine.
  deep.code.pop_back();
  for (int i = 1; i < kMaxIntProgramDepth; ++i) deep.code.push_back(op(IntOp::Add));
  EXPECT_EQ(validate_int_program(deep), "");
  EXPECT_EQ(eval(deep), 63 * 64 / 2);
}

TEST(IntProgram, ValidationReportsTheLargestSlot) {
  int64_t max_slot = 99;
  EXPECT_EQ(validate_int_program(IntProgram{{ld(3), ld(7), op(IntOp::Max), ld(2), op(IntOp::Add)}},
                                 &max_slot),
            "");
  EXPECT_EQ(max_slot, 7);
  EXPECT_EQ(validate_int_program(int_constant(5), &max_slot), "");
  EXPECT_EQ(max_slot, -1);
}

TEST(IntProgram, InfixText) {
  EXPECT_EQ(
      int_program_to_string(IntProgram{{ld(0), c(3), op(IntOp::Add), c(4), op(IntOp::FloorDiv)}}),
      "floordiv(s0 + 3, 4)");
  EXPECT_EQ(int_program_to_string(IntProgram{{ld(0), ld(1), op(IntOp::Mul)}}, "n"), "n0 * n1");
  EXPECT_EQ(
      int_program_to_string(IntProgram{{ld(0), ld(1), ld(2), op(IntOp::Add), op(IntOp::Mul)}}),
      "s0 * (s1 + s2)");
  EXPECT_EQ(
      int_program_to_string(IntProgram{{ld(0), ld(1), op(IntOp::Mul), ld(2), op(IntOp::Add)}}),
      "s0 * s1 + s2");
  EXPECT_EQ(
      int_program_to_string(IntProgram{{ld(0), ld(1), ld(2), op(IntOp::Sub), op(IntOp::Sub)}}),
      "s0 - (s1 - s2)");
  EXPECT_EQ(
      int_program_to_string(IntProgram{{ld(0), ld(1), op(IntOp::Sub), ld(2), op(IntOp::Sub)}}),
      "s0 - s1 - s2");
  EXPECT_EQ(int_program_to_string(IntProgram{{ld(0), c(1), op(IntOp::LT), ld(1), c(0),
                                              op(IntOp::NE), op(IntOp::And), op(IntOp::Not)}}),
            "!(s0 < 1 && s1 != 0)");
  EXPECT_EQ(int_program_to_string(
                IntProgram{{ld(0), c(-2), c(5), op(IntOp::TruncMod), ld(1), op(IntOp::Select)}}),
            "select(s0, truncmod(-2, 5), s1)");
  EXPECT_EQ(int_program_to_string(IntProgram{{c(1), op(IntOp::Add)}}),
            "<invalid int program: instruction 1 (Add) needs 2 operands, the stack has 1>");
}

TEST(DType, Spelling) {
  EXPECT_EQ(DType::Float(32).str(), "float32");
  EXPECT_EQ(DType::Int(64).str(), "int64");
  EXPECT_EQ(DType::UInt(8).str(), "uint8");
  EXPECT_EQ(DType::Bool().str(), "bool");
  EXPECT_EQ((DType{DType::Code::Float, 16, 4}).str(), "float16x4");
  EXPECT_EQ((DType{DType::Code::BFloat, 16, 1}).str(), "bfloat16");
  EXPECT_EQ(DType::Void().str(), "void");
}

TEST(DType, Validity) {
  EXPECT_TRUE(DType::Float(16).is_valid());
  EXPECT_TRUE(DType::Int(8).is_valid());
  EXPECT_TRUE(DType::Bool().is_valid());
  EXPECT_TRUE(DType::Void().is_valid());
  EXPECT_TRUE((DType{DType::Code::BFloat, 16, 1}).is_valid());
  EXPECT_FALSE(DType::Int(7).is_valid());
  EXPECT_FALSE(DType::Float(8).is_valid());
  EXPECT_FALSE(DType::Int(1).is_valid());
  EXPECT_FALSE((DType{DType::Code::Float, 32, 0}).is_valid());
  EXPECT_FALSE((DType{static_cast<DType::Code>(3), 32, 1}).is_valid());
  EXPECT_EQ((DType{static_cast<DType::Code>(3), 32, 1}).str(), "code3_32");
}

}  // namespace
}  // namespace relaxc::runtime::vm
