// Tests of the loop schedule primitives (split, fuse, reorder, bind, unroll, vectorize):
// the scheduled function against an expected one written as text, the same results as
// the original on the reference interpreter, and every legality error's message.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/tir/schedule/schedule.h"
#include "tests/support/errors.h"
#include "tests/support/tir_interpreter.h"

namespace relaxc::tir {
namespace {

using testing::HostArray;

PrimFunc parse_func(const std::string& source, const std::string& name = "f") {
  IRModule m = text::parse_module(source, "schedule.py");
  PrimFunc f = m->prim_func(name);
  EXPECT_TRUE(f.defined()) << "no PrimFunc " << name;
  return f;
}

// A module around one PrimFunc `f` with the given signature and body lines.
std::string module_of(const std::string& signature, const std::string& body) {
  return "@I.ir_module\nclass Module:\n    @T.prim_func\n    def f(" + signature + "):\n" + body;
}

// Checks that `actual` equals `expected_source` structurally, and that it prints as text
// that parses back to itself.
void expect_func(const PrimFunc& actual, const std::string& expected_source) {
  PrimFunc expected = parse_func(expected_source);
  auto mismatch = structural_mismatch(actual, expected);
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\nactual:\n" << text::print_node(actual);
  std::string printed = text::print_node(actual);
  IRModule reparsed = text::parse_module(
      "@I.ir_module\nclass Module:\n" +
          [&] {
            std::string indented;
            size_t start = 0;
            while (start < printed.size()) {
              size_t end = printed.find('\n', start);
              if (end == std::string::npos) end = printed.size();
              indented += "    " + printed.substr(start, end - start) + "\n";
              start = end + 1;
            }
            return indented;
          }(),
      "printed.py");
  ASSERT_EQ(reparsed->functions.size(), 1u);
  EXPECT_TRUE(structural_equal(reparsed->functions[0].second, actual)) << printed;
}

// The first seed of the random inputs of expect_same_results.
constexpr uint64_t kSeed = 11;
using testing::expect_same_results;

const std::string kVectorAddSignature = "var_A: T.handle, var_B: T.handle, var_C: T.handle";
const std::string kVectorAddBuffers = R"(        n = T.int64()
        A = T.match_buffer(var_A, (n,))
        B = T.match_buffer(var_B, (n,))
        C = T.match_buffer(var_C, (n,))
)";
const std::string kVectorAdd = module_of(kVectorAddSignature, kVectorAddBuffers + R"(
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]
)");

const std::string kMatmulSignature =
    R"(A: T.Buffer((64, 16), "float32"), B: T.Buffer((16, 32), "float32"), C: T.Buffer((64, 32), "float32"))";
const std::string kMatmul = module_of(kMatmulSignature, R"(
        for i, j, k in T.grid(64, 32, 16):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)");

// Two loop nests under one loop: not a perfect nest.
const std::string kTwoNests =
    module_of(R"(A: T.Buffer((8, 4), "float32"), B: T.Buffer((8, 4), "float32"))", R"(
        for i in range(8):
            for j in range(4):
                with T.block("A"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    A[vi, vj] = T.float32(1)
            for j2 in range(4):
                with T.block("B"):
                    vi, vj = T.axis.remap("SS", [i, j2])
                    B[vi, vj] = A[vi, vj] * T.float32(2)
)");

TEST(ScheduleSplit, SymbolicExtentGetsTailGuard) {
  PrimFunc f = parse_func(kVectorAdd);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  ASSERT_EQ(loops.size(), 1u);
  std::vector<LoopRef> parts = s.split(loops[0], {PrimExpr(), int_imm(DataType::Int(32), 4)});
  ASSERT_EQ(parts.size(), 2u);
  expect_func(s.func(), module_of(kVectorAddSignature, kVectorAddBuffers + R"(
        for i_0 in range((n + T.int64(3)) // T.int64(4)):
            for i_1 in range(T.int64(4)):
                with T.block("C"):
                    vi = T.axis.spatial(n, i_0 * T.int64(4) + i_1)
                    T.where(i_0 * T.int64(4) + i_1 < n)
                    C[vi] = A[vi] + B[vi]
)"));
  for (int64_t n : {1, 4, 13, 64}) expect_same_results(f, s.func(), {{n}, {n}, {n}}, kSeed);
  // The handles that split returned name the new loops.
  EXPECT_EQ(s.get_for(parts[1])->loop_var->name, "i_1");
}

TEST(ScheduleSplit, ExactConstantSplitHasNoGuardAndInfersTheMiddle) {
  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  s.split(loops[0], {int_imm(DataType::Int(32), 2), PrimExpr(), int_imm(DataType::Int(32), 8)});
  expect_func(s.func(), module_of(kMatmulSignature, R"(
        for i_0, i_1, i_2, j, k in T.grid(2, 4, 8, 32, 16):
            with T.block("C"):
                vi = T.axis.spatial(64, (i_0 * 4 + i_1) * 8 + i_2)
                vj, vk = T.axis.remap("SR", [j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)"));
  expect_same_results(f, s.func(), {{64, 16}, {16, 32}, {64, 32}}, kSeed);
}

TEST(ScheduleSplit, NonDividingConstantFactor) {
  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  s.split(loops[1], {PrimExpr(), int_imm(DataType::Int(32), 5)});  // 32 = 7 * 5 - 3
  s.split(loops[2], {int_imm(DataType::Int(32), 3), PrimExpr()});  // 16 = 3 * 6 - 2
  expect_same_results(f, s.func(), {{64, 16}, {16, 32}, {64, 32}}, kSeed);
}

TEST(ScheduleSplit, LoopNotStartingAtZeroAndSymbolicFactor) {
  PrimFunc f = parse_func(module_of(R"(A: T.Buffer((12,), "float32"))", R"(
        for i in range(2, 12):
            with T.block("A"):
                vi = T.axis.spatial(12, i)
                A[vi] = A[vi] * T.float32(3)
)"));
  Schedule s(f);
  s.split(s.get_loops(s.get_block("A"))[0], {PrimExpr(), int_imm(DataType::Int(32), 4)});
  expect_same_results(f, s.func(), {{12}}, kSeed);

  PrimFunc g = parse_func(module_of(kVectorAddSignature, kVectorAddBuffers + R"(
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]
)"));
  Schedule t(g);
  Var n = g->buffer_of(g->params[0])->shape[0].cast<VarNode>();
  // Factors that are expressions of the function's shape variables.
  t.split(t.get_loops(t.get_block("C"))[0], {PrimExpr(), floordiv(n, int_imm(n->dtype, 2))});
  for (int64_t len : {2, 7, 10}) expect_same_results(g, t.func(), {{len}, {len}, {len}}, kSeed);
}

TEST(ScheduleSplit, Errors) {
  PrimFunc f = parse_func(kVectorAdd);
  Schedule s(f);
  LoopRef i = s.get_loops(s.get_block("C"))[0];
  PrimExpr four = int_imm(DataType::Int(32), 4);
  EXPECT_EQ(error_of([&] {
              s.split(i, {int_imm(DataType::Int(32), 0), PrimExpr()});
            }),
            "split of loop 'i': factor 0 is not positive");
  EXPECT_EQ(error_of([&] {
              s.split(i, {PrimExpr(), four, PrimExpr()});
            }),
            "split of loop 'i': at most one factor may be None (inferred), got more");
  EXPECT_EQ(error_of([&] { s.split(i, {four}); }),
            "split of loop 'i': expected at least 2 factors, got 1");
  EXPECT_TRUE(s.func().same_as(f)) << "a refused split changed the function";
  s.split(i, {PrimExpr(), four});
  EXPECT_EQ(error_of([&] {
              s.split(i, {PrimExpr(), four});
            }),
            "loop 'i' no longer exists in the function (a split or fuse replaced it; use the "
            "handles that primitive returned)");
}

TEST(ScheduleFuse, ConstantLoops) {
  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  LoopRef fused = s.fuse({loops[0], loops[1]});
  EXPECT_EQ(s.get_for(fused)->loop_var->name, "i_j_fused");
  expect_func(s.func(), module_of(kMatmulSignature, R"(
        for i_j_fused, k in T.grid(2048, 16):
            with T.block("C"):
                vi = T.axis.spatial(64, i_j_fused // 32)
                vj = T.axis.spatial(32, i_j_fused % 32)
                vk = T.axis.reduce(16, k)
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)"));
  expect_same_results(f, s.func(), {{64, 16}, {16, 32}, {64, 32}}, kSeed);
}

const std::string kTransposeSignature = "var_A: T.handle, var_B: T.handle";
const std::string kTransposeBuffers = R"(        m = T.int64()
        n = T.int64()
        A = T.match_buffer(var_A, (m, n))
        B = T.match_buffer(var_B, (n, m))
)";

TEST(ScheduleFuse, SymbolicLoopsThenSplit) {
  PrimFunc f = parse_func(module_of(kTransposeSignature, kTransposeBuffers + R"(
        for i, j in T.grid(m, n):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vj, vi] = A[vi, vj]
)"));
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("B"));
  LoopRef fused = s.fuse(loops);
  expect_func(s.func(), module_of(kTransposeSignature, kTransposeBuffers + R"(
        for i_j_fused in range(m * n):
            with T.block("B"):
                vi = T.axis.spatial(m, i_j_fused // n)
                vj = T.axis.spatial(n, i_j_fused % n)
                B[vj, vi] = A[vi, vj]
)"));
  s.split(fused, {PrimExpr(), int_imm(DataType::Int(64), 8)});
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {3, 5}, {16, 8}, {7, 33}}) {
    expect_same_results(f, s.func(), {{m, n}, {n, m}}, kSeed);
  }
}

TEST(ScheduleFuse, Errors) {
  PrimFunc f = parse_func(kTwoNests);
  Schedule s(f);
  LoopRef i = s.get_loops(s.get_block("A"))[0];
  LoopRef j = s.get_loops(s.get_block("A"))[1];
  EXPECT_EQ(error_of([&] {
              s.fuse({i, j});
            }),
            "fuse: loop 'j' is not the only statement in the body of loop 'i' (the loops must "
            "form a perfect chain, outermost first)");
  PrimFunc matmul = parse_func(kMatmul);
  Schedule m(matmul);
  std::vector<LoopRef> loops = m.get_loops(m.get_block("C"));
  EXPECT_EQ(error_of([&] {
              m.fuse({loops[1], loops[0]});
            }),
            "fuse: loop 'i' is not the only statement in the body of loop 'j' (the loops must "
            "form a perfect chain, outermost first)");
  EXPECT_EQ(error_of([&] {
              m.fuse({loops[0], loops[2]});
            }),
            "fuse: loop 'k' is not the only statement in the body of loop 'i' (the loops must "
            "form a perfect chain, outermost first)");
  m.bind(loops[1], "threadIdx.x");
  EXPECT_EQ(error_of([&] {
              m.fuse({loops[0], loops[1]});
            }),
            "fuse of loop 'j': the loop is bound to threadIdx.x; fuse before binding");

  PrimFunc offset = parse_func(module_of(R"(A: T.Buffer((10, 4), "float32"))", R"(
        for i in range(2, 10):
            for j in range(4):
                with T.block("A"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    A[vi, vj] = T.float32(1)
)"));
  Schedule o(offset);
  std::vector<LoopRef> ol = o.get_loops(o.get_block("A"));
  EXPECT_EQ(error_of([&] { o.fuse(ol); }), "fuse: loop 'i' starts at 2, not 0");
  EXPECT_TRUE(o.func().same_as(offset));
}

TEST(ScheduleReorder, PermutesAPerfectNest) {
  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  s.reorder({loops[2], loops[0]});  // i, j, k -> k, j, i
  expect_func(s.func(), module_of(kMatmulSignature, R"(
        for k, j, i in T.grid(16, 32, 64):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)"));
  expect_same_results(f, s.func(), {{64, 16}, {16, 32}, {64, 32}}, kSeed);
  std::vector<LoopRef> now = s.get_loops(s.get_block("C"));
  EXPECT_EQ(s.get_for(now[0])->loop_var->name, "k");
}

TEST(ScheduleReorder, AfterSplitWithSymbolicExtent) {
  PrimFunc f = parse_func(module_of(kTransposeSignature, kTransposeBuffers + R"(
        for i, j in T.grid(m, n):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vj, vi] = A[vi, vj]
)"));
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("B"));
  std::vector<LoopRef> is = s.split(loops[0], {PrimExpr(), int_imm(DataType::Int(64), 4)});
  std::vector<LoopRef> js = s.split(loops[1], {PrimExpr(), int_imm(DataType::Int(64), 4)});
  s.reorder({is[0], js[0], is[1], js[1]});
  for (auto [m, n] : {std::pair<int64_t, int64_t>{1, 1}, {5, 3}, {8, 12}}) {
    expect_same_results(f, s.func(), {{m, n}, {n, m}}, kSeed);
  }
}

TEST(ScheduleReorder, Errors) {
  PrimFunc f = parse_func(kTwoNests);
  Schedule s(f);
  LoopRef i = s.get_loops(s.get_block("A"))[0];
  LoopRef j = s.get_loops(s.get_block("A"))[1];
  LoopRef j2 = s.get_loops(s.get_block("B"))[1];
  EXPECT_EQ(error_of([&] {
              s.reorder({j, j2});
            }),
            "reorder: loop 'j2' and loop 'j' are not in one loop nest");
  EXPECT_EQ(error_of([&] { s.reorder({j, i, j}); }), "reorder: loop 'j' is given more than once");
  EXPECT_EQ(error_of([&] {
              s.reorder({j, i});
            }),
            "reorder: loop 'i' and loop 'j' do not form a perfect nest (a sequence of statements "
            "stands between them)");
  EXPECT_TRUE(s.func().same_as(f));
}

TEST(ScheduleBind, SplitAndBindMatchesTheGpuForm) {
  PrimFunc f = parse_func(kVectorAdd);
  Schedule s(f);
  std::vector<LoopRef> parts =
      s.split(s.get_loops(s.get_block("C"))[0], {PrimExpr(), int_imm(DataType::Int(64), 256)});
  s.bind(parts[0], "blockIdx.x");
  s.bind(parts[1], "threadIdx.x");
  expect_func(s.func(), module_of(kVectorAddSignature, kVectorAddBuffers + R"(
        for i_0 in T.thread_binding((n + T.int64(255)) // T.int64(256), thread="blockIdx.x"):
            for i_1 in T.thread_binding(T.int64(256), thread="threadIdx.x"):
                with T.block("C"):
                    vi = T.axis.spatial(n, i_0 * T.int64(256) + i_1)
                    T.where(i_0 * T.int64(256) + i_1 < n)
                    C[vi] = A[vi] + B[vi]
)"));
  for (int64_t n : {1, 255, 257, 1000}) expect_same_results(f, s.func(), {{n}, {n}, {n}}, kSeed);
}

TEST(ScheduleBind, ReductionLoopToThreadIdx) {
  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  s.bind(loops[0], "blockIdx.x");
  s.bind(loops[2], "threadIdx.x");  // a cross-thread reduction
  EXPECT_EQ(s.get_for(loops[2])->kind, ForKind::ThreadBinding);
  expect_same_results(f, s.func(), {{64, 16}, {16, 32}, {64, 32}}, kSeed);
}

// A threadIdx loop inside one bound to the same axis (a cooperative fetch) is accepted:
// kernel lowering merges the two.
TEST(ScheduleBind, NestedThreadIdxForCooperativeFetch) {
  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  s.bind(loops[0], "threadIdx.x");
  s.bind(loops[1], "threadIdx.x");
  EXPECT_EQ(s.get_for(loops[1])->kind, ForKind::ThreadBinding);
  EXPECT_EQ(s.get_for(loops[1])->thread_tag, "threadIdx.x");
}

TEST(ScheduleBind, Errors) {
  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  EXPECT_EQ(error_of([&] { s.bind(loops[0], "warp.x"); }),
            "bind of loop 'i': unknown thread axis 'warp.x' (expected blockIdx.x/y/z or "
            "threadIdx.x/y/z)");
  EXPECT_EQ(error_of([&] { s.bind(loops[2], "blockIdx.x"); }),
            "bind of loop 'k' to blockIdx.x: the loop iterates over a reduction of block 'C'; "
            "only threadIdx.* may take a reduction loop (a cross-thread reduction)");
  s.bind(loops[0], "threadIdx.x");
  EXPECT_EQ(error_of([&] { s.bind(loops[0], "threadIdx.y"); }),
            "bind of loop 'i': the loop is bound to threadIdx.x already");
  PrimFunc before = s.func();

  Schedule inner(f);
  std::vector<LoopRef> il = inner.get_loops(inner.get_block("C"));
  inner.bind(il[1], "blockIdx.y");
  EXPECT_EQ(error_of([&] { inner.bind(il[0], "blockIdx.y"); }),
            "bind of loop 'i': blockIdx.y is bound already to loop 'j' inside it");

  Schedule outer(f);
  std::vector<LoopRef> ol = outer.get_loops(outer.get_block("C"));
  outer.bind(ol[0], "blockIdx.x");
  EXPECT_EQ(error_of([&] { outer.bind(ol[1], "blockIdx.x"); }),
            "bind of loop 'j': blockIdx.x is bound already to the enclosing loop 'i'");
  EXPECT_TRUE(s.func().same_as(before));
}

TEST(ScheduleUnrollVectorize, SetLoopKinds) {
  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  s.reorder({loops[0], loops[2], loops[1]});
  s.unroll(loops[2]);
  std::vector<LoopRef> js = s.split(loops[1], {PrimExpr(), int_imm(DataType::Int(32), 4)});
  s.vectorize(js[1]);
  expect_func(s.func(), module_of(kMatmulSignature, R"(
        for i in range(64):
            for k in T.unroll(16):
                for j_0 in range(8):
                    for j_1 in T.vectorized(4):
                        with T.block("C"):
                            vi = T.axis.spatial(64, i)
                            vj = T.axis.spatial(32, j_0 * 4 + j_1)
                            vk = T.axis.reduce(16, k)
                            with T.init():
                                C[vi, vj] = T.float32(0)
                            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)"));
  expect_same_results(f, s.func(), {{64, 16}, {16, 32}, {64, 32}}, kSeed);
}

TEST(ScheduleUnrollVectorize, Errors) {
  PrimFunc add = parse_func(kVectorAdd);
  Schedule a(add);
  LoopRef i = a.get_loops(a.get_block("C"))[0];
  EXPECT_EQ(error_of([&] { a.unroll(i); }), "unroll of loop 'i': its extent n is not a constant");
  EXPECT_EQ(error_of([&] { a.vectorize(i); }),
            "vectorize of loop 'i': its extent n is not a constant");

  PrimFunc f = parse_func(kMatmul);
  Schedule s(f);
  std::vector<LoopRef> loops = s.get_loops(s.get_block("C"));
  EXPECT_EQ(error_of([&] { s.vectorize(loops[2]); }),
            "vectorize of loop 'k': the loop carries a reduction of block 'C'");
  EXPECT_EQ(error_of([&] { s.vectorize(loops[1]); }),
            "vectorize of loop 'j': it is not the innermost loop (loop 'k' is inside it)");
  s.bind(loops[0], "blockIdx.x");
  EXPECT_EQ(error_of([&] { s.unroll(loops[0]); }),
            "unroll of loop 'i': the loop is bound to blockIdx.x already");
}

// A unit loop around a block, bound to one thread: the block that every thread of the
// thread block would run runs on thread 0 alone.
TEST(ScheduleAddUnitLoop, WrapsTheBlockForABinding) {
  PrimFunc f = parse_func(kTwoNests);
  Schedule s(f);
  LoopRef unit = s.add_unit_loop(s.get_block("B"));
  EXPECT_EQ(unit.var->name, "B_unit");
  s.bind(unit, "threadIdx.x");
  expect_func(s.func(),
              module_of(R"(A: T.Buffer((8, 4), "float32"), B: T.Buffer((8, 4), "float32"))", R"(
        for i in range(8):
            for j in range(4):
                with T.block("A"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    A[vi, vj] = T.float32(1)
            for j2 in range(4):
                for B_unit in T.thread_binding(1, thread="threadIdx.x"):
                    with T.block("B"):
                        vi, vj = T.axis.remap("SS", [i, j2])
                        B[vi, vj] = A[vi, vj] * T.float32(2)
)"));
}

TEST(ScheduleQueries, BlocksAndLoops) {
  PrimFunc f = parse_func(kTwoNests);
  Schedule s(f);
  std::vector<BlockRef> blocks = s.get_blocks();
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].name, "A");
  EXPECT_EQ(blocks[1].name, "B");
  std::vector<LoopRef> loops = s.get_loops(blocks[1]);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(loops[0].var->name, "i");
  EXPECT_EQ(loops[1].var->name, "j2");
  EXPECT_EQ(s.get_block_realize(blocks[0])->block->name, "A");
  EXPECT_EQ(error_of([&] { s.get_block("D"); }), "no block named 'D' in the function");
  EXPECT_EQ(error_of([&] { s.get_block("root"); }), "no block named 'root' in the function");
}

}  // namespace
}  // namespace relaxc::tir
