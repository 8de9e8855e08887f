// Tests of the decompose_reduction, rfactor and set_scope schedule primitives: the scheduled
// functions against expected TIR text, their results on the reference interpreter
// against the original functions, and every refusal's message.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/tir/schedule/schedule.h"
#include "tests/support/errors.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc {
namespace {

tir::PrimFunc parse_func(const std::string& source) {
  IRModule m = text::parse_module(source, "reduction.py");
  tir::PrimFunc f = m->prim_func("f");
  EXPECT_TRUE(f.defined()) << "no PrimFunc f";
  return f;
}

void expect_func(const tir::PrimFunc& actual, const std::string& expected_source) {
  tir::PrimFunc expected = parse_func(expected_source);
  std::optional<std::string> mismatch = structural_mismatch(actual, expected);
  EXPECT_FALSE(mismatch.has_value()) << mismatch.value_or("") << "\nactual:\n"
                                     << text::print_node(actual);
}

void expect_refused(tir::Schedule& s, const std::function<void()>& fn, const std::string& message) {
  tir::PrimFunc before = s.func();
  EXPECT_EQ(error_of(fn), message);
  EXPECT_TRUE(s.func().same_as(before));
}

tir::LoopRef loop_named(const tir::Schedule& s, const std::string& block, const std::string& name) {
  for (const tir::LoopRef& loop : s.get_loops(s.get_block(block))) {
    if (loop.var->name == name) return loop;
  }
  ADD_FAILURE() << "block '" << block << "' has no loop '" << name << "'";
  return {};
}

// Row sums over a symbolic number of rows, then a scaled copy.
constexpr const char* kRowSum = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_O: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 64))
        O = T.match_buffer(var_O, (n,))
        S = T.alloc_buffer((n,))
        for i, k in T.grid(n, 64):
            with T.block("S"):
                vi, vk = T.axis.remap("SR", [i, k])
                T.reads(A[vi, vk])
                T.writes(S[vi])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + A[vi, vk]
        for i in range(n):
            with T.block("O"):
                vi = T.axis.spatial(n, i)
                T.reads(S[vi])
                T.writes(O[vi])
                O[vi] = S[vi] * T.float32(0.5)
)";

void expect_row_sum_results(const tir::PrimFunc& scheduled) {
  for (int64_t n : {1, 7, 40}) {
    testing::expect_same_results(parse_func(kRowSum), scheduled, {{n, 64}, {n}}, 11);
  }
}

TEST(ScheduleDecomposeReduction, InitBeforeTheReductionLoop) {
  tir::Schedule s(parse_func(kRowSum));
  tir::BlockRef init = s.decompose_reduction(s.get_block("S"), loop_named(s, "S", "k"));
  EXPECT_EQ(init.name, "S_init");
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_O: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 64))
        O = T.match_buffer(var_O, (n,))
        S = T.alloc_buffer((n,))
        for i in range(n):
            with T.block("S_init"):
                vi = T.axis.spatial(n, i)
                T.reads()
                T.writes(S[vi])
                S[vi] = T.float32(0)
            for k in range(64):
                with T.block("S"):
                    vi, vk = T.axis.remap("SR", [i, k])
                    T.reads(S[vi], A[vi, vk])
                    T.writes(S[vi])
                    S[vi] = S[vi] + A[vi, vk]
        for i in range(n):
            with T.block("O"):
                vi = T.axis.spatial(n, i)
                T.reads(S[vi])
                T.writes(O[vi])
                O[vi] = S[vi] * T.float32(0.5)
)");
  expect_row_sum_results(s.func());
}

// At the outer loop, the init gets a copy of it; a split's tail guard comes along.
TEST(ScheduleDecomposeReduction, InitInCopiesOfTheSpatialLoops) {
  tir::Schedule s(parse_func(kRowSum));
  std::vector<tir::LoopRef> parts =
      s.split(loop_named(s, "S", "i"), {tir::PrimExpr(), tir::int_imm(DataType::Int(64), 4)});
  s.decompose_reduction(s.get_block("S"), parts[0]);
  std::vector<tir::LoopRef> init_loops = s.get_loops(s.get_block("S_init"));
  ASSERT_EQ(init_loops.size(), 2u);
  EXPECT_EQ(init_loops[0].var->name, "i_0_init");
  tir::PrimExpr guard = s.get_block_realize(s.get_block("S_init"))->predicate;
  EXPECT_TRUE(guard.defined() && !tir::is_const_int(guard, 1));
  expect_row_sum_results(s.func());
}

TEST(ScheduleDecomposeReduction, RefusesABlockWithoutInit) {
  tir::Schedule s(parse_func(kRowSum));
  expect_refused(
      s, [&] { s.decompose_reduction(s.get_block("O"), loop_named(s, "O", "i")); },
      "decompose_reduction: block 'O' has no T.init to decompose");
}

TEST(ScheduleDecomposeReduction, RefusesALoopOfAnotherBlock) {
  tir::Schedule s(parse_func(kRowSum));
  expect_refused(
      s, [&] { s.decompose_reduction(s.get_block("S"), loop_named(s, "O", "i")); },
      "decompose_reduction: loop 'i' is not a loop of block 'S' (in its block scope)");
}

TEST(ScheduleDecomposeReduction, RefusesAReductionLoopAbove) {
  tir::Schedule s(parse_func(kRowSum));
  s.reorder({loop_named(s, "S", "k"), loop_named(s, "S", "i")});
  expect_refused(
      s, [&] { s.decompose_reduction(s.get_block("S"), loop_named(s, "S", "i")); },
      "decompose_reduction: loop 'k', above loop 'i', is a reduction loop of block "
      "'S'; the init would run in every iteration of it");
}

TEST(ScheduleDecomposeReduction, RefusesAFusedSpatialAndReductionLoop) {
  tir::Schedule s(parse_func(kRowSum));
  tir::LoopRef fused = s.fuse({loop_named(s, "S", "i"), loop_named(s, "S", "k")});
  expect_refused(
      s, [&] { s.decompose_reduction(s.get_block("S"), fused); },
      "decompose_reduction: loop 'i_k_fused' binds both spatial and reduction "
      "iteration variables of block 'S'");
}

// A row maximum over a symbolic number of rows.
constexpr const char* kRowMax = R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_M: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 64))
        M = T.match_buffer(var_M, (n,))
        for i, k in T.grid(n, 64):
            with T.block("M"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    M[vi] = T.float32(-5)
                M[vi] = T.max(M[vi], A[vi, vk])
)";

TEST(ScheduleRfactor, PartialSumsOfTheInnerLoop) {
  tir::Schedule s(parse_func(kRowSum));
  std::vector<tir::LoopRef> k =
      s.split(loop_named(s, "S", "k"), {tir::PrimExpr(), tir::int_imm(DataType::Int(64), 4)});
  tir::BlockRef rf = s.rfactor(k[1], 0);
  EXPECT_EQ(rf.name, "S_rf");
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_O: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 64))
        O = T.match_buffer(var_O, (n,))
        S = T.alloc_buffer((n,))
        S_rf = T.alloc_buffer((4, n))
        for i, k_0, k_1 in T.grid(n, 16, 4):
            with T.block("S_rf"):
                vi = T.axis.spatial(n, i)
                vk_0 = T.axis.reduce(16, k_0)
                vk_1 = T.axis.spatial(4, k_1)
                T.reads(A[vi, vk_0 * 4 + vk_1])
                T.writes(S_rf[vk_1, vi])
                with T.init():
                    S_rf[vk_1, vi] = T.float32(0)
                S_rf[vk_1, vi] = S_rf[vk_1, vi] + A[vi, vk_0 * 4 + vk_1]
        for i_wb, k_1_wb in T.grid(n, 4):
            with T.block("S"):
                vi = T.axis.spatial(n, i_wb)
                vk_1 = T.axis.reduce(4, k_1_wb)
                T.reads(S_rf[vk_1, vi])
                T.writes(S[vi])
                with T.init():
                    S[vi] = T.float32(0)
                S[vi] = S[vi] + S_rf[vk_1, vi]
        for i in range(n):
            with T.block("O"):
                vi = T.axis.spatial(n, i)
                T.reads(S[vi])
                T.writes(O[vi])
                O[vi] = S[vi] * T.float32(0.5)
)");
  expect_row_sum_results(s.func());
}

// The maximum factored at the outer loop, its partials last: the init (not max's
// identity) is applied once, by the write-back.
TEST(ScheduleRfactor, PartialMaximaStartFromTheIdentity) {
  tir::Schedule s(parse_func(kRowMax));
  std::vector<tir::LoopRef> k =
      s.split(loop_named(s, "M", "k"), {tir::int_imm(DataType::Int(64), 8), tir::PrimExpr()});
  s.rfactor(k[0], -1);
  tir::Buffer partials = s.get_block_realize(s.get_block("M_rf"))->block->writes[0]->buffer;
  ASSERT_EQ(partials->shape.size(), 2u);
  EXPECT_TRUE(tir::is_const_int(partials->shape[1], 8));
  for (int64_t n : {1, 7, 40}) {
    testing::expect_same_results(parse_func(kRowMax), s.func(), {{n, 64}, {n}}, 13);
  }
}

TEST(ScheduleRfactor, Refusals) {
  tir::Schedule s(parse_func(kRowSum));
  expect_refused(
      s, [&] { s.rfactor(loop_named(s, "S", "i"), 0); },
      "rfactor: loop 'i' is not a loop of the reduction iteration variables of block "
      "'S' alone");
  expect_refused(
      s, [&] { s.rfactor(loop_named(s, "O", "i"), 0); },
      "rfactor: block 'O' is not a reduction `B[...] = op(B[...], x)` with op one of +, "
      "*, min, max and a T.init");
  expect_refused(
      s, [&] { s.rfactor(loop_named(s, "S", "k"), 2); },
      "rfactor: factor_axis 2 is out of range for 'S' of 1 dimensions");
  tir::Schedule guarded(parse_func(kRowSum));
  std::vector<tir::LoopRef> k = guarded.split(
      loop_named(guarded, "S", "k"), {tir::PrimExpr(), tir::int_imm(DataType::Int(64), 5)});
  expect_refused(
      guarded, [&] { guarded.rfactor(k[1], 0); },
      "rfactor: block 'S' has a predicate; a partial result whose iterations it all "
      "excludes would never be initialized");
}

TEST(ScheduleSetScope, MovesABufferToShared) {
  tir::Schedule s(parse_func(kRowSum));
  s.set_scope(s.get_block("S"), 0, "shared");
  tir::Buffer written = s.get_block_realize(s.get_block("S"))->block->writes[0]->buffer;
  EXPECT_EQ(written->scope, "shared");
  EXPECT_TRUE(s.get_block_realize(s.get_block("O"))->block->reads[0]->buffer.same_as(written));
  expect_row_sum_results(s.func());
}

TEST(ScheduleSetScope, Refusals) {
  tir::Schedule s(parse_func(kRowSum));
  expect_refused(
      s, [&] { s.set_scope(s.get_block("O"), 0, "local"); },
      "set_scope: 'O', written by block 'O', is a parameter of the function; its "
      "storage is the caller's");
  expect_refused(
      s, [&] { s.set_scope(s.get_block("S"), 1, "local"); },
      "set_scope: block 'S' has 1 write regions; write_index 1 is out of range");
  expect_refused(
      s, [&] { s.set_scope(s.get_block("S"), 0, "texture"); },
      "set_scope: unknown storage scope 'texture' (expected \"shared\", \"local\" or "
      "\"global\")");
}

}  // namespace
}  // namespace relaxc
