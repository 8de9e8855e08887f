// Tests of the fusion pattern of PrimFuncs (ir/tir/op_pattern.h): hand-written
// TensorIR of each kind, analysed from its blocks, and the attribute winning over the
// analysis.
#include "ir/tir/op_pattern.h"

#include <gtest/gtest.h>

#include <string>

#include "ir/module.h"
#include "ir/text/parser.h"

namespace relaxc::tir {
namespace {

// The pattern of the PrimFunc "f" of a module whose only function is `func_text`.
OpPattern pattern_of(const std::string& func_text) {
  std::string text =
      "# from tvm.script import ir as I\n# from tvm.script import tir as T\n\n"
      "@I.ir_module\nclass Module:\n" +
      func_text;
  IRModule module = text::parse_module(text, "op_pattern_test.py");
  return op_pattern_of(module->prim_func("f"));
}

TEST(OpPattern, ElementwiseReadsEachInputAtTheStoreIndex) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((4, 8), "float32"), y: T.Buffer((4, 8), "float32"), z: T.Buffer((4, 8), "float32")):
        for i, j in T.grid(4, 8):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                z[vi, vj] = T.exp(x[vi, vj]) + y[vi, vj]
)"),
            OpPattern::ElemWise);
}

TEST(OpPattern, BroadcastDropsOrZeroesAxes) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((8,), "float32"), y: T.Buffer((1, 8), "float32"), z: T.Buffer((4, 8), "float32")):
        for i, j in T.grid(4, 8):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                z[vi, vj] = x[vj] * y[0, vj]
)"),
            OpPattern::Broadcast);
}

TEST(OpPattern, BroadcastNextToASameShapeReadIsElementwise) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((4, 8), "float32"), b: T.Buffer((8,), "float32"), z: T.Buffer((4, 8), "float32")):
        for i, j in T.grid(4, 8):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                z[vi, vj] = x[vi, vj] + b[vj]
)"),
            OpPattern::ElemWise);
}

TEST(OpPattern, TransposeIsInjective) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((8, 4), "float32"), z: T.Buffer((4, 8), "float32")):
        for i, j in T.grid(4, 8):
            with T.block("z"):
                vi, vj = T.axis.remap("SS", [i, j])
                z[vi, vj] = x[vj, vi]
)"),
            OpPattern::Injective);
}

TEST(OpPattern, RowSumIsAReduction) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((4, 8), "float32"), z: T.Buffer((4,), "float32")):
        for i, k in T.grid(4, 8):
            with T.block("z"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    z[vi] = T.float32(0)
                z[vi] = z[vi] + x[vi, vk]
)"),
            OpPattern::CommReduce);
}

TEST(OpPattern, MatmulIsOutElementwiseFusable) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(a: T.Buffer((4, 8), "float32"), b: T.Buffer((8, 6), "float32"), c: T.Buffer((4, 6), "float32")):
        for i, j, k in T.grid(4, 6, 8):
            with T.block("c"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    c[vi, vj] = T.float32(0)
                c[vi, vj] = c[vi, vj] + a[vi, vk] * b[vk, vj]
)"),
            OpPattern::OutEWiseFusable);
}

// A reduction into an intermediate, mapped elementwise into the output: the output
// block is the reduction's epilogue.
TEST(OpPattern, ReductionWithAnElementwiseOutputBlockIsOutElementwiseFusable) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((4, 8), "float32"), z: T.Buffer((4,), "float32")):
        s = T.alloc_buffer((4,))
        for i, k in T.grid(4, 8):
            with T.block("s"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    s[vi] = T.float32(0)
                s[vi] = s[vi] + x[vi, vk]
        for i in range(4):
            with T.block("z"):
                vi = T.axis.spatial(4, i)
                z[vi] = s[vi] * T.float32(0.125)
)"),
            OpPattern::OutEWiseFusable);
}

TEST(OpPattern, ARunningSumIsOpaque) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((8,), "float32"), y: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("y"):
                vi = T.axis.spatial(8, i)
                y[vi] = T.float32(0)
                for j in range(vi + 1):
                    y[vi] = y[vi] + x[j]
)"),
            OpPattern::Opaque);
}

TEST(OpPattern, TwoStoreIndexingsInABlockAreOpaque) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((8,), "float32"), y: T.Buffer((16,), "float32")):
        for i in range(8):
            with T.block("y"):
                vi = T.axis.spatial(8, i)
                y[vi] = x[vi]
                y[vi + 8] = x[vi]
)"),
            OpPattern::Opaque);
}

TEST(OpPattern, TheAttributeWinsOverTheBlocks) {
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((8,), "float32"), y: T.Buffer((8,), "float32")):
        T.func_attr({"op_pattern": 2})
        for i in range(8):
            with T.block("y"):
                vi = T.axis.spatial(8, i)
                y[vi] = x[vi]
)"),
            OpPattern::Injective);
  // "tuple" (7) names no pattern of a PrimFunc: opaque.
  EXPECT_EQ(pattern_of(R"(
    @T.prim_func
    def f(x: T.Buffer((8,), "float32"), y: T.Buffer((8,), "float32")):
        T.func_attr({"op_pattern": 7})
        for i in range(8):
            with T.block("y"):
                vi = T.axis.spatial(8, i)
                y[vi] = x[vi]
)"),
            OpPattern::Opaque);
}

}  // namespace
}  // namespace relaxc::tir
