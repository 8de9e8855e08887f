// Tests of the cleanup passes (dead-code-elimination, canonicalize-bindings,
// fold-constant): input text -> expected text, both parsed and compared with
// structural_equal; every output is well formed. Folded constants are checked against
// values computed by hand.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ir/relax/well_formed.h"
#include "ir/structural_equal.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/relax/transforms.h"

namespace relaxc::relax {
namespace {

using Pass = std::function<IRModule(const IRModule&)>;

IRModule parse(const std::string& text) { return text::parse_module(text, "cleanup_test.py"); }

IRModule run(const std::string& input, const std::vector<Pass>& passes) {
  IRModule module = parse(input);
  for (const Pass& pass : passes) module = pass(module);
  DiagnosticList diagnostics = check_well_formed(module);
  EXPECT_FALSE(diagnostics.has_errors()) << diagnostics.render() << "\n"
                                         << text::print_module(module);
  return module;
}

// Runs `passes` over `input`; the result must be well formed and equal `expected`,
// function by function.
void expect_result(const std::string& input, const std::vector<Pass>& passes,
                   const std::string& expected) {
  IRModule module = run(input, passes);
  IRModule want = parse(expected);
  bool equal = module->functions.size() == want->functions.size();
  for (size_t i = 0; equal && i < want->functions.size(); ++i) {
    equal = module->functions[i].first->name == want->functions[i].first->name &&
            structural_equal(module->functions[i].second, want->functions[i].second);
  }
  EXPECT_TRUE(equal) << "got:\n"
                     << text::print_module(module) << "\nexpected:\n"
                     << text::print_module(want);
}

// The value bound to `name` in function `func` of `module`.
Expr bound_value(const IRModule& module, const std::string& func, const std::string& name) {
  const auto* seq = module->relax_function(func)->body.as<SeqExprNode>();
  for (const BindingBlock& block : seq->blocks) {
    for (const Binding& binding : block->bindings) {
      if (binding->var->name == name) return binding->value;
    }
  }
  return {};
}

std::vector<double> constant_values(const Expr& expr) {
  const auto* constant = expr.as<ConstantNode>();
  EXPECT_NE(constant, nullptr) << (expr.defined() ? text::print_node(expr) : "no binding");
  std::vector<double> values;
  if (constant == nullptr) return values;
  for (int64_t i = 0; i < constant->data.num_elements(); ++i) {
    values.push_back(constant->data.element_as_double(i));
  }
  return values;
}

// ---------------------------------------------------------------- dead-code-elimination

TEST(DeadCodeElimination, UnusedBindingsAndImpureCalls) {
  expect_result(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            a = R.add(x, x)
            b = R.multiply(a, a)
            c = R.exp(b)
            R.output(a, c)
        d = R.subtract(a, x)
        e = R.print(x, format="{}")
        return a
)",
                {dead_code_elimination}, R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            a = R.add(x, x)
            R.output(a)
        e = R.print(x, format="{}")
        return a
)");
}

TEST(DeadCodeElimination, BindingsInsideBranchesAndLocalFunctions) {
  expect_result(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Tensor((), "bool")) -> R.Tensor((4,), "float32"):
        unused = R.add(x, x)
        if c:
            t = R.exp(x)
            u = R.multiply(x, x)
            r = t
        else:
            r = x
        return r
)",
                {dead_code_elimination}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), c: R.Tensor((), "bool")) -> R.Tensor((4,), "float32"):
        if c:
            t = R.exp(x)
            r = t
        else:
            r = x
        return r
)");
}

TEST(DeadCodeElimination, UnreachableFunctions) {
  IRModule module = run(R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def copy(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("y"):
                vi = T.axis.spatial(4, i)
                y[vi] = x[vi]

    @T.prim_func(private=True)
    def unused_tir(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("y"):
                vi = T.axis.spatial(4, i)
                y[vi] = x[vi] * T.float32(2)

    @T.prim_func
    def public_tir(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("y"):
                vi = T.axis.spatial(4, i)
                y[vi] = x[vi]

    @R.function(private=True)
    def helper(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir(cls.copy, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y

    @R.function(private=True)
    def called_from_dead_binding(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        y = R.call_tir(cls.unused_tir, (x,), out_sinfo=R.Tensor((4,), "float32"))
        return y

    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        cls = Module
        a = cls.helper(x)
        b = cls.called_from_dead_binding(x)
        return a
)",
                        {dead_code_elimination});
  std::vector<std::string> names;
  for (const auto& [gv, func] : module->functions) names.push_back(gv->name);
  EXPECT_EQ(names, (std::vector<std::string>{"copy", "public_tir", "helper", "main"}));
}

// ---------------------------------------------------------------- canonicalize-bindings

TEST(CanonicalizeBindings, VarChainsMatchCastsAndTupleItems) {
  expect_result(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor(("n",), "float32")) -> R.Tensor((4,), "float32"):
        n = T.int64()
        a = x
        b = a
        c = R.match_cast(b, R.Tensor((4,), "float32"))
        t = (c, y)
        d = t[0]
        e = R.add(d, b)
        f = R.match_cast(y, R.Tensor((n,), "float32"))
        g = R.match_cast(y, R.Tensor((4,), "float32"))
        h = R.add(e, g)
        return h
)",
                {canonicalize_bindings}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32"), y: R.Tensor(("n",), "float32")) -> R.Tensor((4,), "float32"):
        n = T.int64()
        t = (x, y)
        e = R.add(x, x)
        g = R.match_cast(y, R.Tensor((4,), "float32"))
        h = R.add(e, g)
        return h
)");
}

TEST(CanonicalizeBindings, OutputVarTakesOverItsDataflowVar) {
  expect_result(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            a = R.add(x, x)
            b = R.multiply(a, a)
            gv = b
            gv2 = b
            R.output(gv, gv2)
        c = R.add(gv, gv2)
        return c
)",
                {canonicalize_bindings}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            a = R.add(x, x)
            gv = R.multiply(a, a)
            R.output(gv)
        c = R.add(gv, gv)
        return c
)");
}

TEST(CanonicalizeBindings, OutputVarOfAParameter) {
  expect_result(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            lv = x
            gv = lv
            R.output(gv)
        return gv
)",
                {canonicalize_bindings}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return x
)");
}

// ---------------------------------------------------------------- fold-constant

TEST(FoldConstant, ConstantSubgraphFoldsToItsValues) {
  IRModule module = run(R"(
@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((2, 2), "float32"):
        with R.dataflow():
            a = R.const([[1.0, 2.0], [3.0, 4.0]], "float32")
            b = R.add(a, R.const(0.5, "float32"))
            c = R.matmul(b, a)
            d = R.sum(c, axis=[1], keepdims=True)
            e = R.subtract(c, d)
            R.output(e)
        return e
)",
                        {legalize_ops, fold_constant});
  // b = [[1.5, 2.5], [3.5, 4.5]]; c = b @ a = [[9, 13], [17, 25]]; d = [[22], [42]].
  EXPECT_EQ(constant_values(bound_value(module, "main", "c")),
            (std::vector<double>{9, 13, 17, 25}));
  EXPECT_EQ(constant_values(bound_value(module, "main", "e")),
            (std::vector<double>{-13, -9, -25, -17}));
  // Nothing of the graph is left to run: dead-code-elimination removes the kernels.
  IRModule clean = dead_code_elimination(module);
  EXPECT_EQ(clean->functions.size(), 1u) << text::print_module(clean);
}

TEST(FoldConstant, IntegerAndTupleOutputs) {
  IRModule module = run(R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def divmod(a: T.Buffer((3,), "int32"), q: T.Buffer((3,), "int32"), r: T.Buffer((3,), "int32")):
        for i in range(3):
            with T.block("qr"):
                vi = T.axis.spatial(3, i)
                q[vi] = T.floordiv(a[vi], 4)
                r[vi] = T.floormod(a[vi], 4)

    @R.function
    def main() -> R.Tensor((3,), "int32"):
        cls = Module
        t = R.call_tir(cls.divmod, (R.const([-7, 9, 16], "int32"),), out_sinfo=[R.Tensor((3,), "int32"), R.Tensor((3,), "int32")])
        r = t[1]
        s = R.call_tir(cls.divmod, (r,), out_sinfo=[R.Tensor((3,), "int32"), R.Tensor((3,), "int32")])
        return r
)",
                        {fold_constant});
  const auto* tuple = bound_value(module, "main", "t").as<TupleNode>();
  ASSERT_NE(tuple, nullptr) << text::print_module(module);
  EXPECT_EQ(constant_values(tuple->fields[0]), (std::vector<double>{-2, 2, 4}));
  EXPECT_EQ(constant_values(tuple->fields[1]), (std::vector<double>{1, 1, 0}));
  // The item of a folded tuple is a constant for the next call.
  EXPECT_TRUE(bound_value(module, "main", "s").is<TupleNode>()) << text::print_module(module);
}

TEST(FoldConstant, InputsKeepTheirPart) {
  expect_result(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        with R.dataflow():
            a = R.multiply(R.const([1.0, 2.0], "float32"), R.const(3.0, "float32"))
            b = R.add(x, a)
            R.output(b)
        return b
)",
                {legalize_ops, fold_constant, dead_code_elimination}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), "float32")) -> R.Tensor((2,), "float32"):
        cls = Module
        with R.dataflow():
            a = R.const([3.0, 6.0], "float32")
            b = R.call_tir(cls.add, (x, a), out_sinfo=R.Tensor((2,), "float32"))
            R.output(b)
        return b

    @T.prim_func(private=True)
    def add(x1: T.Buffer((T.int64(2),)), x2: T.Buffer((T.int64(2),)), T_add: T.Buffer((T.int64(2),))):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        for ax0 in range(T.int64(2)):
            with T.block("T_add"):
                v_ax0 = T.axis.spatial(T.int64(2), ax0)
                T.reads(x1[v_ax0], x2[v_ax0])
                T.writes(T_add[v_ax0])
                T_add[v_ax0] = x1[v_ax0] + x2[v_ax0]
)");
}

TEST(FoldConstant, StaticShapeOf) {
  expect_result(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor(("n", 3), "float32")) -> R.Tuple(R.Shape([2, 3]), R.Shape(ndim=2)):
        a = R.shape_of(x)
        b = R.shape_of(y)
        return (a, b)
)",
                {fold_constant}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), "float32"), y: R.Tensor(("n", 3), "float32")) -> R.Tuple(R.Shape([2, 3]), R.Shape(ndim=2)):
        a = R.shape([2, 3])
        b = R.shape_of(y)
        return (a, b)
)");
}

TEST(FoldConstant, InexactLargeOrScheduledCallsAreLeft) {
  IRModule module = run(R"(
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def square(a: T.Buffer((1,), "int64"), b: T.Buffer((1,), "int64")):
        with T.block("b"):
            b[0] = a[0] * a[0]

    @T.prim_func(private=True)
    def fill(b: T.Buffer((2048,), "float32")):
        for i in range(2048):
            with T.block("b"):
                vi = T.axis.spatial(2048, i)
                b[vi] = T.float32(1)

    @T.prim_func(private=True)
    def long_loop(a: T.Buffer((1,), "float32"), b: T.Buffer((1,), "float32")):
        for i in range(10000000):
            with T.block("b"):
                vi = T.axis.reduce(10000000, i)
                with T.init():
                    b[0] = T.float32(0)
                b[0] = b[0] + a[0]

    @T.prim_func(private=True)
    def scheduled_copy(a: T.Buffer((4,), "float32"), b: T.Buffer((4,), "float32")):
        for i in T.thread_binding(4, thread="threadIdx.x"):
            with T.block("b"):
                vi = T.axis.spatial(4, i)
                b[vi] = a[vi]

    @R.function
    def main():
        cls = Module
        small = R.call_tir(cls.square, (R.const([3], "int64"),), out_sinfo=R.Tensor((1,), "int64"))
        big = R.call_tir(cls.square, (R.const([1073741824], "int64"),), out_sinfo=R.Tensor((1,), "int64"))
        created = R.call_tir(cls.fill, (), out_sinfo=R.Tensor((2048,), "float32"))
        slow = R.call_tir(cls.long_loop, (R.const([1.0], "float32"),), out_sinfo=R.Tensor((1,), "float32"))
        gpu = R.call_tir(cls.scheduled_copy, (R.const([1.0, 2.0, 3.0, 4.0], "float32"),), out_sinfo=R.Tensor((4,), "float32"))
        return (small, big, created, slow, gpu)
)",
                        {fold_constant});
  EXPECT_EQ(constant_values(bound_value(module, "main", "small")), (std::vector<double>{9}));
  for (const char* name : {"big", "created", "slow", "gpu"}) {
    EXPECT_TRUE(bound_value(module, "main", name).is<CallNode>()) << name;
  }
}

}  // namespace
}  // namespace relaxc::relax
