// Tests of the decompose_reduction, rfactor, set_scope, transform_layout and pad_einsum schedule
// primitives: the
// scheduled functions against expected TIR text, their results on the reference interpreter against
// the original functions, and every refusal's message.
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

// A scaled copy through an intermediate S[i, j] that the second block reads transposed.
std::string transposing_source(const std::string& s_shape, const std::string& s_write,
                               const std::string& s_read) {
  return R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_O: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, 6))
        O = T.match_buffer(var_O, (6, n))
        S = T.alloc_buffer()" +
         s_shape + R"()
        for i, j in T.grid(n, 6):
            with T.block("S"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi, vj])
                T.writes()" +
         s_write + R"()
                )" +
         s_write +
         R"( = A[vi, vj] * T.float32(2)
        for j, i in T.grid(6, n):
            with T.block("O"):
                vj, vi = T.axis.remap("SS", [j, i])
                T.reads()" +
         s_read + R"()
                T.writes(O[vj, vi])
                O[vj, vi] = )" +
         s_read + R"( + T.float32(1)
)";
}

TEST(ScheduleTransformLayout, PermutesTheBufferAndEveryAccess) {
  tir::PrimFunc f = parse_func(transposing_source("(n, 6)", "S[vi, vj]", "S[vi, vj]"));
  tir::Schedule s(f);
  s.transform_layout(s.get_block("S"), 0, {1, 0});
  expect_func(s.func(), transposing_source("(6, n)", "S[vj, vi]", "S[vj, vi]"));
  for (int64_t n : {1, 5}) testing::expect_same_results(f, s.func(), {{n, 6}, {6, n}}, 3);
}

TEST(ScheduleTransformLayout, Refusals) {
  tir::Schedule s(parse_func(transposing_source("(n, 6)", "S[vi, vj]", "S[vi, vj]")));
  expect_refused(
      s,
      [&] {
        s.transform_layout(s.get_block("S"), 0, {0, 0});
      },
      "transform_layout of 'S': [0, 0] is not a permutation of its 2 dimensions");
  expect_refused(
      s,
      [&] {
        s.transform_layout(s.get_block("S"), 0, {1, 0, 2});
      },
      "transform_layout of 'S': [1, 0, 2] is not a permutation of its 2 dimensions");
  expect_refused(
      s,
      [&] {
        s.transform_layout(s.get_block("O"), 0, {1, 0});
      },
      "transform_layout: 'O', written by block 'O', is a parameter of the function; its "
      "layout is the caller's");
  expect_refused(
      s,
      [&] {
        s.transform_layout(s.get_block("S"), 1, {1, 0});
      },
      "transform_layout: block 'S' has 1 write regions; write_index 1 is out of range");
}

// C[m, n] = A[m, k] @ B[k, n] over 30 x 20 x 7, and over a symbolic m.
std::string matmul_source(const std::string& rows) {
  return R"(@I.ir_module
class Module:
    @T.prim_func
    def f(var_A: T.handle, var_B: T.handle, var_C: T.handle):
        m = T.int64()
        A = T.match_buffer(var_A, ()" +
         rows + R"(, 7))
        B = T.match_buffer(var_B, (7, 20))
        C = T.match_buffer(var_C, ()" +
         rows + R"(, 20))
        for i, j, k in T.grid()" +
         rows + R"(, 20, 7):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)";
}

TEST(SchedulePadEinsum, PadsTheOperandsAndCropsTheResult) {
  tir::Schedule s(parse_func(matmul_source("30")));
  tir::PaddedEinsum padded = s.pad_einsum(s.get_block("C"), {8, 8, 4});
  ASSERT_EQ(padded.inputs.size(), 2u);
  EXPECT_EQ(padded.inputs[0].name, "A_pad");
  EXPECT_EQ(padded.inputs[1].name, "B_pad");
  ASSERT_TRUE(padded.output.has_value());
  EXPECT_EQ(padded.output->name, "C_crop");
  // 30, 20 and 7 rounded up to 32, 24 and 8; zeros past A's and B's ends.
  expect_func(s.func(), R"(@I.ir_module
class Module:
    @T.prim_func
    def f(A: T.Buffer((30, 7)), B: T.Buffer((7, 20)), C: T.Buffer((30, 20))):
        C_pad = T.alloc_buffer((32, 24))
        A_pad = T.alloc_buffer((32, 8))
        B_pad = T.alloc_buffer((8, 24))
        for ax0, ax1 in T.grid(32, 8):
            with T.block("A_pad"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(A[v0, v1])
                T.writes(A_pad[v0, v1])
                A_pad[v0, v1] = T.if_then_else(v0 < 30 and v1 < 7, A[v0, v1], T.float32(0))
        for ax0, ax1 in T.grid(8, 24):
            with T.block("B_pad"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(B[v0, v1])
                T.writes(B_pad[v0, v1])
                B_pad[v0, v1] = T.if_then_else(v0 < 7 and v1 < 20, B[v0, v1], T.float32(0))
        for i, j, k in T.grid(32, 24, 8):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A_pad[vi, vk], B_pad[vk, vj])
                T.writes(C_pad[vi, vj])
                with T.init():
                    C_pad[vi, vj] = T.float32(0)
                C_pad[vi, vj] = C_pad[vi, vj] + A_pad[vi, vk] * B_pad[vk, vj]
        for ax0, ax1 in T.grid(30, 20):
            with T.block("C_crop"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(C_pad[v0, v1])
                T.writes(C[v0, v1])
                C[v0, v1] = C_pad[v0, v1]
)");
  testing::expect_same_results(parse_func(matmul_source("30")), s.func(),
                               {{30, 7}, {7, 20}, {30, 20}}, 3);
}

// A symbolic extent pads to (m + 7) // 8 * 8 (in int64); a factor that divides the extent (20 by 4)
// leaves it alone, and so does a factor of 1.
TEST(SchedulePadEinsum, SymbolicRows) {
  tir::Schedule s(parse_func(matmul_source("m")));
  tir::PaddedEinsum padded = s.pad_einsum(s.get_block("C"), {8, 4, 1});
  ASSERT_EQ(padded.inputs.size(), 1u);
  EXPECT_EQ(padded.inputs[0].name, "A_pad");
  tir::Buffer a_pad = s.get_block_realize(s.get_block("A_pad"))->block->writes[0]->buffer;
  EXPECT_EQ(text::print_node(a_pad->shape[0]), "(m + T.int64(7)) // T.int64(8) * T.int64(8)");
  EXPECT_TRUE(tir::is_const_int(a_pad->shape[1], 7));
  for (int64_t m : {1, 8, 13}) {
    testing::expect_same_results(parse_func(matmul_source("m")), s.func(),
                                 {{m, 7}, {7, 20}, {m, 20}}, 5);
  }
}

TEST(SchedulePadEinsum, ExtentsTheFactorsDivideAreLeftAlone) {
  tir::Schedule s(parse_func(matmul_source("30")));
  tir::PrimFunc before = s.func();
  tir::PaddedEinsum padded = s.pad_einsum(s.get_block("C"), {5, 4, 7});
  EXPECT_TRUE(padded.inputs.empty());
  EXPECT_FALSE(padded.output.has_value());
  EXPECT_TRUE(s.func().same_as(before));
}

TEST(SchedulePadEinsum, Refusals) {
  tir::Schedule s(parse_func(matmul_source("30")));
  expect_refused(
      s,
      [&] {
        s.pad_einsum(s.get_block("C"), {8, 8});
      },
      "pad_einsum: block 'C' has 3 iteration variables; 2 padding factors were given");
  expect_refused(
      s,
      [&] {
        s.pad_einsum(s.get_block("C"), {8, 0, 1});
      },
      "pad_einsum: padding factor 0 of iteration variable 'vj' of block 'C' is not positive");
  expect_refused(
      s, [&] { s.pad_einsum(tir::BlockRef{"D"}, {1}); },
      "pad_einsum: no block named 'D' in the function");
  tir::Schedule split(parse_func(matmul_source("30")));
  split.split(loop_named(split, "C", "i"), {tir::PrimExpr(), tir::int_imm(DataType::Int(64), 8)});
  expect_refused(
      split,
      [&] {
        split.pad_einsum(split.get_block("C"), {8, 8, 4});
      },
      "pad_einsum: block 'C' is not one store alone in a perfect loop nest whose loops, from 0 "
      "and unpredicated, bind its iteration variables in order");
  // Padding k of a maximum would add maxima with 0.
  tir::Schedule row_max(parse_func(kRowMax));
  expect_refused(
      row_max,
      [&] {
        row_max.pad_einsum(row_max.get_block("M"), {1, 48});
      },
      "pad_einsum: block 'M' would add terms over padded reduction variable 'vk'; that keeps "
      "its result only for C = C + x * y * ... with an init of 0 and every factor a load that "
      "reads the variable");
  // A strided window: the padded row would read past the image.
  tir::Schedule window(parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(X: T.Buffer((9,)), W: T.Buffer((3,)), Y: T.Buffer((7,))):
        for i, r in T.grid(7, 3):
            with T.block("Y"):
                vi, vr = T.axis.remap("SR", [i, r])
                with T.init():
                    Y[vi] = T.float32(0)
                Y[vi] = Y[vi] + X[vi + vr] * W[vr]
)"));
  expect_refused(
      window,
      [&] {
        window.pad_einsum(window.get_block("Y"), {4, 1});
      },
      "pad_einsum: block 'Y' indexes 'X' by vi + vr, which uses padded iteration variable "
      "'vi' but is not that variable");
  // A buffer longer than the loop over it.
  tir::Schedule longer(parse_func(R"(@I.ir_module
class Module:
    @T.prim_func
    def f(X: T.Buffer((9,)), Y: T.Buffer((7,))):
        for i in range(7):
            with T.block("Y"):
                vi = T.axis.spatial(7, i)
                Y[vi] = X[vi]
)"));
  expect_refused(
      longer, [&] { longer.pad_einsum(longer.get_block("Y"), {4}); },
      "pad_einsum: block 'Y' indexes dimension 0 of 'X' (extent 9) by iteration variable 'vi' "
      "over 7; padding needs them equal");
}

}  // namespace
}  // namespace relaxc
