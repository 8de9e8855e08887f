// Tests of fuse-ops and fuse-tir together (passes/relax/fuse_ops.cc, fuse_tir.cc): a
// module of hand-written PrimFuncs (their patterns computed from their blocks) fused
// into one PrimFunc, compared by structural equality with the expected module.
#include <gtest/gtest.h>

#include <string>

#include "ir/module.h"
#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/relax/transforms.h"

namespace relaxc {
namespace {

constexpr const char* kHeader =
    "# from tvm.script import ir as I\n# from tvm.script import tir as T\n"
    "# from tvm.script import relax as R\n\n";

// An elementwise exp feeding an add that also reads the exp's input: one group; the
// input both callees read is one parameter; the callees' own shape variables (n, m)
// become the caller's; the exp's output is an intermediate of the root block.
constexpr const char* kBefore = R"(@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        for i, j in T.grid(n, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = T.exp(x[vi, vj])

    @T.prim_func(private=True)
    def add(var_a: T.handle, var_b: T.handle, var_c: T.handle):
        m = T.int64()
        a = T.match_buffer(var_a, (m, T.int64(4)))
        b = T.match_buffer(var_b, (m, T.int64(4)))
        c = T.match_buffer(var_c, (m, T.int64(4)))
        for i, j in T.grid(m, T.int64(4)):
            with T.block("c"):
                vi, vj = T.axis.remap("SS", [i, j])
                c[vi, vj] = a[vi, vj] + b[vi, vj]

    @R.function
    def main(x: R.Tensor(("s", 4), dtype="float32")) -> R.Tensor(("s", 4), dtype="float32"):
        s = T.int64()
        cls = Module
        with R.dataflow():
            e = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((s, 4), dtype="float32"))
            gv = R.call_tir(cls.add, (e, x), out_sinfo=R.Tensor((s, 4), dtype="float32"))
            R.output(gv)
        return gv
)";

constexpr const char* kAfter = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("s", 4), dtype="float32")) -> R.Tensor(("s", 4), dtype="float32"):
        s = T.int64()
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.fused_exp_add, (x,), out_sinfo=R.Tensor((s, 4), dtype="float32"))
            R.output(gv)
        return gv

    @T.prim_func(private=True)
    def fused_exp_add(var_x: T.handle, var_c: T.handle):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        s = T.int64()
        x = T.match_buffer(var_x, (s, T.int64(4)))
        c = T.match_buffer(var_c, (s, T.int64(4)))
        y = T.alloc_buffer((s, T.int64(4)))
        for i, j in T.grid(s, T.int64(4)):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = T.exp(x[vi, vj])
        for i, j in T.grid(s, T.int64(4)):
            with T.block("c"):
                vi, vj = T.axis.remap("SS", [i, j])
                c[vi, vj] = y[vi, vj] + x[vi, vj]
)";

TEST(Fusion, AChainBecomesOnePrimFuncWithSharedParametersAndUnifiedShapes) {
  IRModule before = text::parse_module(std::string(kHeader) + kBefore, "before.py");
  IRModule fused = relax::fuse_tir(relax::fuse_ops(before));
  IRModule expected = text::parse_module(std::string(kHeader) + kAfter, "after.py");
  auto mismatch = structural_mismatch(fused, expected);
  EXPECT_FALSE(mismatch.has_value()) << *mismatch << "\n" << text::print_module(fused);
}

// fuse-tir on a module without Primitive functions returns it unchanged.
TEST(Fusion, NothingToFuseLeavesTheModule) {
  IRModule module = text::parse_module(std::string(kHeader) + kAfter, "after.py");
  EXPECT_TRUE(relax::fuse_tir(module).same_as(module));
  EXPECT_FALSE(structural_mismatch(relax::fuse_ops(module), module).has_value());
}

}  // namespace
}  // namespace relaxc
