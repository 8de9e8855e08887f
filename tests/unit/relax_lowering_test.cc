// Tests of the Relax lowering passes before shape lowering (lambda-lift,
// to-non-dataflow, remove-purity-checking, call-tir-rewrite, vm-builtin-lower) and of
// the memory and closure operators they introduce: input text -> expected text, both
// parsed and compared with structural_equal; every output is well formed.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "ir/relax/well_formed.h"
#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "passes/relax/transforms.h"
#include "tests/support/errors.h"

namespace relaxc::relax {
namespace {

using Pass = std::function<IRModule(const IRModule&)>;

const char* const kFile = "lowering_test.py";

IRModule parse(const std::string& text) { return text::parse_module(text, kFile); }

std::string well_formed_errors(const IRModule& module) {
  DiagnosticList diagnostics = check_well_formed(module);
  return diagnostics.has_errors() ? diagnostics.render() : std::string();
}

// Runs `passes` over `input`; the result must be well formed, print and parse back to
// itself, and equal `expected`.
void expect_lowered(const std::string& input, const std::vector<Pass>& passes,
                    const std::string& expected) {
  IRModule module = parse(input);
  for (const Pass& pass : passes) module = pass(module);
  std::string printed = text::print_module(module);
  EXPECT_EQ(well_formed_errors(module), "") << printed;
  IRModule reparsed = parse(printed);
  for (const auto& [gv, func] : module->functions) {
    EXPECT_TRUE(structural_equal(reparsed->lookup(gv->name), func))
        << gv->name << " does not round-trip:\n" << printed;
  }
  // Function by function, in order: each is compared on its own (a lifted function
  // shares the shape variables of the function it came from).
  IRModule want = parse(expected);
  bool equal = module->functions.size() == want->functions.size();
  for (size_t i = 0; equal && i < want->functions.size(); ++i) {
    equal = module->functions[i].first->name == want->functions[i].first->name &&
            structural_equal(module->functions[i].second, want->functions[i].second);
  }
  EXPECT_TRUE(equal) << "got:\n" << printed << "\nexpected:\n" << text::print_module(want);
}

// ---------------------------------------------------------------- Operators

const char* const kMemoryOps = R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 32), "float32")) -> R.Tensor(("n", 32), "float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        s = R.memory.alloc_storage(R.shape([n * 128]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        y = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([n, 32]), R.dtype("float32"))
        _ = R.call_packed("copy", x, y)
        k = R.memory.kill_storage(s)
        return y
)";

TEST(MemoryOps, InferAndRoundTrip) {
  IRModule module = parse(kMemoryOps);
  EXPECT_EQ(well_formed_errors(module), "");
  std::string printed = text::print_module(module);
  EXPECT_NE(printed.find("R.memory.alloc_storage(R.shape([n * 128]), R.prim_value(T.int64(0)), "
                         "R.str(\"global\"), R.dtype(\"uint8\"))"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("y: R.Tensor((n, 32), dtype=\"float32\") = R.memory.alloc_tensor("),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("R.memory.kill_storage(s)"), std::string::npos) << printed;
  EXPECT_TRUE(structural_equal(parse(printed), module)) << printed;
}

TEST(MemoryOps, ImpureInAPureFunction) {
  std::string text = kMemoryOps;
  text.replace(text.find("        R.func_attr({\"relax.force_pure\": True})\n"),
               std::string("        R.func_attr({\"relax.force_pure\": True})\n").size(), "");
  EXPECT_NE(well_formed_errors(parse(text))
                .find("[rule 7] function 'main' is pure, but the binding of 's' calls the impure "
                      "operator R.memory.alloc_storage"),
            std::string::npos);
}

// A function body with `binding` as its only statement, parsed; the error it raises.
std::string op_error(const std::string& binding) {
  std::string text = R"(
@R.function(pure=False)
def main(x: R.Tensor((4,), "float32"), s: R.Object, f: R.Callable([R.Tensor((4,), "float32")], R.Tensor((4,), "float32"))):
    )" + binding + R"(
    return x
)";
  return located_error_of([&] { parse(text); });
}

TEST(MemoryOps, ArgumentKindErrors) {
  EXPECT_EQ(op_error("a = R.memory.alloc_storage(x, R.prim_value(0), R.str(\"global\"), "
                     "R.dtype(\"uint8\"))"),
            "4:9: R.memory.alloc_storage: argument 'size' must be a shape of one dimension, the "
            "size in bytes (R.shape([bytes])), got R.Tensor((4,), dtype=\"float32\")");
  EXPECT_EQ(op_error("a = R.memory.alloc_storage(R.shape([16, 2]), R.prim_value(0), "
                     "R.str(\"global\"), R.dtype(\"uint8\"))"),
            "4:9: R.memory.alloc_storage: argument 'size' must be a shape of one dimension, the "
            "size in bytes (R.shape([bytes])), got R.Shape([16, 2])");
  EXPECT_EQ(op_error("a = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([4]), R.str(\"f\"))"),
            "4:9: R.memory.alloc_tensor: argument 'dtype' must be a data type (R.dtype), got "
            "R.Object");
  EXPECT_EQ(op_error("a = R.memory.alloc_tensor(x, R.prim_value(0), R.shape([4]), "
                     "R.dtype(\"float32\"))"),
            "4:9: R.memory.alloc_tensor: argument 'storage' must be a storage (the result of "
            "R.memory.alloc_storage), got R.Tensor((4,), dtype=\"float32\")");
  EXPECT_EQ(op_error("a = R.memory.kill_tensor(s)"),
            "4:9: R.memory.kill_tensor: argument 'tensor' must be a tensor, got R.Object");
  EXPECT_EQ(op_error("a = R.make_closure(f, (x,))"),
            "4:9: R.make_closure: argument 'func' must be a Relax function of the module "
            "(cls.name), got R.Callable((R.Tensor((4,), dtype=\"float32\"),), "
            "R.Tensor((4,), dtype=\"float32\"), True)");
  EXPECT_EQ(op_error("a = R.invoke_closure(f, (x,))"),
            "4:9: R.invoke_closure: sinfo_args (the StructInfo of the result) is required");
  EXPECT_EQ(op_error("a = R.invoke_closure(x, (x,), sinfo_args=R.Object)"),
            "4:9: R.invoke_closure: argument 'closure' must be a closure, got "
            "R.Tensor((4,), dtype=\"float32\")");
}

// ---------------------------------------------------------------- Direct PrimFunc calls

const char* const kDirectCall = R"(
@I.ir_module
class Module:
    @T.prim_func
    def fill(a: T.handle):
        A = T.match_buffer(a, (4,), "float32")
        for i in range(4):
            with T.block("A"):
                vi = T.axis.spatial(4, i)
                A[vi] = T.float32(1)

    @R.function
    def main(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        _ = Module.fill(y)
        return y
)";

TEST(DirectPrimFuncCall, OpaqueImpureResultObject) {
  IRModule module = parse(kDirectCall);
  std::string errors = well_formed_errors(module);
  EXPECT_NE(errors.find(kFile + std::string(":14:13: error: [rule 7] function 'main' is pure, but "
                                            "the binding of '_' calls the TensorIR function "
                                            "'fill' directly, which writes into its arguments; "
                                            "use R.call_tir")),
            std::string::npos)
      << errors;
  std::string forced = kDirectCall;
  forced.replace(forced.find("@R.function"), 11, "@R.function(pure=False)");
  IRModule impure = parse(forced);
  EXPECT_EQ(well_formed_errors(impure), "");
  const auto* main = impure->relax_function("main").get();
  const auto* seq = main->body.as<SeqExprNode>();
  EXPECT_TRUE(seq->blocks[0]->bindings[0]->var->struct_info.is<ObjectStructInfoNode>());
}

// ---------------------------------------------------------------- to-non-dataflow

TEST(ToNonDataflow, DataflowVarsBecomeVars) {
  expect_lowered(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        with R.dataflow():
            a = R.add(x, x)
            b = R.multiply(a, x)
            R.output(b)
        c = R.add(b, b)
        with R.dataflow():
            d = R.multiply(c, c)
            R.output(d)
        return d
)",
                 {to_non_dataflow}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        a = R.add(x, x)
        b = R.multiply(a, x)
        c = R.add(b, b)
        d = R.multiply(c, c)
        return d
)");
}

// ---------------------------------------------------------------- remove-purity-checking

TEST(RemovePurityChecking, ForcePureAndImpureVariants) {
  expect_lowered(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        y = R.call_pure_packed("my_exp", x, sinfo_args=R.Tensor((4,), "float32"))
        return y

    @R.function(pure=False)
    def effect(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.print(x, format="{}")
        return x
)",
                 {remove_purity_checking}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.func_attr({"relax.force_pure": True})
        y = R.call_packed("my_exp", x, sinfo_args=R.Tensor((4,), "float32"))
        return y

    @R.function(pure=False)
    def effect(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        R.print(x, format="{}")
        return x
)");
}

// ---------------------------------------------------------------- call-tir-rewrite

const char* const kKernels = R"(
    @T.prim_func
    def dense(x: T.handle, W: T.Buffer((16, 32), "float32"), y: T.handle, m: T.int64):
        n = T.int64()
        X = T.match_buffer(x, (n, 16), "float32")
        Y = T.match_buffer(y, (n, 32), "float32")
        for i, j in T.grid(n, 32):
            with T.block("Y"):
                vi, vj = T.axis.remap("SS", [i, j])
                Y[vi, vj] = X[vi, 0] * W[0, vj] + T.Cast("float32", m)

    @T.prim_func
    def split(x: T.handle, a: T.handle, b: T.handle):
        n = T.int64()
        X = T.match_buffer(x, (n, 2), "float16")
        A = T.match_buffer(a, (n,), "float16")
        B = T.match_buffer(b, (n,), "int8")
        for i in range(n):
            with T.block("AB"):
                vi = T.axis.spatial(n, i)
                A[vi] = X[vi, 0]
                B[vi] = T.Cast("int8", X[vi, 1])
)";

std::string module_text(const std::string& relax) {
  return "@I.ir_module\nclass Module:" + std::string(kKernels) + relax;
}

TEST(CallTirRewrite, SingleOutputWithTirVars) {
  // bytes: n * 32 float32 = n * 128.
  expect_lowered(module_text(R"(
    @R.function
    def main(x: R.Tensor(("n", 16), "float32"), w: R.Tensor((16, 32), "float32")) -> R.Tensor(("n", 32), "float32"):
        n = T.int64()
        with R.dataflow():
            y = R.call_tir(Module.dense, (x, w), out_sinfo=R.Tensor((n, 32), "float32"), tir_vars=R.shape([7]))
            R.output(y)
        return y
)"),
                 {to_non_dataflow, remove_purity_checking, call_tir_rewrite}, module_text(R"(
    @R.function
    def main(x: R.Tensor(("n", 16), "float32"), w: R.Tensor((16, 32), "float32")) -> R.Tensor(("n", 32), "float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        storage = R.memory.alloc_storage(R.shape([n * 128]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        y = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 32]), R.dtype("float32"))
        _ = Module.dense(x, w, y, R.shape([7]))
        return y
)"));
}

TEST(CallTirRewrite, TupleOutputsAndDpsPacked) {
  // bytes: n float16 = n * 2; n int8 = n; (n, 2) float16 = n * 4.
  expect_lowered(module_text(R"(
    @R.function
    def main(x: R.Tensor(("n", 2), "float16")) -> R.Tensor(("n", 2), "float16"):
        n = T.int64()
        t = R.call_tir(Module.split, (x,), out_sinfo=[R.Tensor((n,), "float16"), R.Tensor((n,), "int8")])
        a = t[0]
        z = R.call_dps_packed("custom_tile", (a, x), out_sinfo=R.Tensor((n, 2), "float16"))
        return z
)"),
                 {remove_purity_checking, call_tir_rewrite}, module_text(R"(
    @R.function
    def main(x: R.Tensor(("n", 2), "float16")) -> R.Tensor(("n", 2), "float16"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        s0 = R.memory.alloc_storage(R.shape([n * 2]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t0 = R.memory.alloc_tensor(s0, R.prim_value(0), R.shape([n]), R.dtype("float16"))
        s1 = R.memory.alloc_storage(R.shape([n]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t1 = R.memory.alloc_tensor(s1, R.prim_value(0), R.shape([n]), R.dtype("int8"))
        _ = Module.split(x, t0, t1)
        t = (t0, t1)
        a = t[0]
        s2 = R.memory.alloc_storage(R.shape([n * 4]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        z = R.memory.alloc_tensor(s2, R.prim_value(0), R.shape([n, 2]), R.dtype("float16"))
        _1 = R.call_packed("custom_tile", a, x, z)
        return z
)"));
}

TEST(CallTirRewrite, DataflowBlockIsAnError) {
  IRModule module = parse(module_text(R"(
    @R.function
    def main(x: R.Tensor(("n", 2), "float16")) -> R.Tensor(("n",), "float16"):
        n = T.int64()
        with R.dataflow():
            t = R.call_tir(Module.split, (x,), out_sinfo=[R.Tensor((n,), "float16"), R.Tensor((n,), "int8")])
            a = t[0]
            R.output(a)
        return a
)"));
  EXPECT_EQ(located_error_of([&] { call_tir_rewrite(module); }),
            "29:13: R.call_tir (binding 't'): call-tir-rewrite needs plain blocks; run "
            "to-non-dataflow first");
}

// ---------------------------------------------------------------- lambda-lift

TEST(LambdaLift, CaptureBecomesClosure) {
  expect_lowered(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        @R.function
        def add_x(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            z = R.add(y, x)
            return z

        r = add_x(x)
        return r
)",
                 {lambda_lift}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        add_x = R.make_closure(Module.main_add_x, (x,))
        r = R.invoke_pure_closure(add_x, (x,), sinfo_args=R.Tensor((4,), "float32"))
        return r

    @R.function(private=True)
    def main_add_x(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        z = R.add(y, x)
        return z
)");
}

TEST(LambdaLift, NoCaptureBecomesDirectCallAndNamesAreUnique) {
  expect_lowered(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        @R.function
        def double(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            z = R.add(y, y)
            return z

        r = double(x)
        return r

    @R.function(private=True)
    def main_double(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return y
)",
                 {lambda_lift}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        r = Module.main_double_1(x)
        return r

    @R.function(private=True)
    def main_double_1(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        z = R.add(y, y)
        return z

    @R.function(private=True)
    def main_double(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        return y
)");
}

TEST(LambdaLift, RecursiveLocalFunctionWithCapture) {
  // count(i) adds x to i until i reaches `limit`; x and limit are captured.
  expect_lowered(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((), "int64"), limit: R.Tensor((), "bool")) -> R.Tensor((), "int64"):
        @R.function(pure=False)
        def count(i: R.Tensor((), "int64")) -> R.Tensor((), "int64"):
            if limit:
                r = i
            else:
                j = R.add(i, x)
                r = count(j)
            return r

        out = count(x)
        return out
)",
                 {lambda_lift}, R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((), "int64"), limit: R.Tensor((), "bool")) -> R.Tensor((), "int64"):
        count = R.make_closure(Module.main_count, (limit, x))
        out = R.invoke_closure(count, (x,), sinfo_args=R.Tensor((), "int64"))
        return out

    @R.function(pure=False, private=True)
    def main_count(limit: R.Tensor((), "bool"), x: R.Tensor((), "int64"), i: R.Tensor((), "int64")) -> R.Tensor((), "int64"):
        if limit:
            r = i
        else:
            j = R.add(i, x)
            r = Module.main_count(limit, x, j)
        return r
)");
}

// A function lifted out of another comes first in the module (it is lifted first).
TEST(LambdaLift, NestedLocalFunctions) {
  expect_lowered(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        @R.function
        def outer(y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
            @R.function
            def inner(z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
                w = R.multiply(z, x)
                return w

            v = inner(y)
            return v

        r = outer(x)
        return r
)",
                 {lambda_lift}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        outer = R.make_closure(Module.main_outer, (x,))
        r = R.invoke_pure_closure(outer, (x,), sinfo_args=R.Tensor((4,), "float32"))
        return r

    @R.function(private=True)
    def main_inner(x: R.Tensor((4,), "float32"), z: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        w = R.multiply(z, x)
        return w

    @R.function(private=True)
    def main_outer(x: R.Tensor((4,), "float32"), y: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        inner = R.make_closure(Module.main_inner, (x,))
        v = R.invoke_pure_closure(inner, (y,), sinfo_args=R.Tensor((4,), "float32"))
        return v
)");
}

// ---------------------------------------------------------------- vm-builtin-lower

TEST(VmBuiltinLower, OperatorsBecomeBuiltins) {
  expect_lowered(R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), "float32"), f: R.Callable([R.Tensor((6,), "float32")], R.Tensor((6,), "float32"))) -> R.Tensor((6,), "float32"):
        s = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        t = R.memory.alloc_tensor(s, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"))
        a = R.reshape(x, R.shape([3, 2]))
        b = R.flatten(a)
        sh = R.shape_of(t)
        nv = R.null_value()
        R.print(b, sh, format="{} {}")
        c = R.make_closure(Module.scale, (x,))
        d = R.invoke_closure(c, (b,), sinfo_args=R.Tensor((6,), "float32"))
        e = R.invoke_pure_closure(f, (d,), sinfo_args=R.Tensor((6,), "float32"))
        k = R.memory.kill_tensor(t)
        ko = R.vm.kill_object(c)
        return e

    @R.function(private=True)
    def scale(x: R.Tensor((2, 3), "float32"), y: R.Tensor((6,), "float32")) -> R.Tensor((6,), "float32"):
        return y
)",
                 {vm_builtin_lower}, R"(
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((2, 3), "float32"), f: R.Callable([R.Tensor((6,), "float32")], R.Tensor((6,), "float32"))) -> R.Tensor((6,), "float32"):
        s = R.call_packed("vm.builtin.alloc_storage", R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("uint8"), sinfo_args=R.Object)
        t = R.call_packed("vm.builtin.alloc_tensor", s, R.prim_value(0), R.shape([2, 3]), R.dtype("float32"), sinfo_args=R.Tensor((2, 3), "float32"))
        a = R.call_packed("vm.builtin.reshape", x, R.shape([3, 2]), sinfo_args=R.Tensor((3, 2), "float32"))
        b = R.call_packed("vm.builtin.reshape", a, R.shape([6]), sinfo_args=R.Tensor((6,), "float32"))
        sh = R.call_packed("vm.builtin.shape_of", t, sinfo_args=R.Shape([2, 3]))
        nv = R.call_packed("vm.builtin.null_value", sinfo_args=R.Object)
        _ = R.call_packed("vm.builtin.print", R.str("{} {}"), b, sh)
        c = R.call_packed("vm.builtin.make_closure", Module.scale, x, sinfo_args=R.Callable([R.Tensor((6,), "float32")], R.Tensor((6,), "float32")))
        d = R.call_packed("vm.builtin.invoke_closure", c, b, sinfo_args=R.Tensor((6,), "float32"))
        e = R.call_packed("vm.builtin.invoke_closure", f, d, sinfo_args=R.Tensor((6,), "float32"))
        k = R.memory.kill_tensor(t)
        ko = R.vm.kill_object(c)
        return e

    @R.function(private=True)
    def scale(x: R.Tensor((2, 3), "float32"), y: R.Tensor((6,), "float32")) -> R.Tensor((6,), "float32"):
        return y
)");
}

TEST(VmBuiltinLower, FlattenOfUnknownShape) {
  expect_lowered(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=1):
        R.func_attr({"relax.force_pure": True})
        b = R.flatten(x)
        return b
)",
                 {vm_builtin_lower}, R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=1):
        R.func_attr({"relax.force_pure": True})
        b = R.call_packed("vm.builtin.flatten", x, sinfo_args=R.Tensor(dtype="float32", ndim=1))
        return b
)");
}

TEST(VmBuiltinLower, ComputingOperatorIsAnError) {
  IRModule module = parse(R"(
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), "float32")) -> R.Tensor((4,), "float32"):
        z = R.nn.relu(x)
        return z
)");
  EXPECT_EQ(located_error_of([&] { vm_builtin_lower(module); }),
            "6:9: R.nn.relu (binding 'z'): run legalize-ops before vm-builtin-lower");
}

// ---------------------------------------------------------------- The passes in order

TEST(Lowering, AllPassesInOrder) {
  expect_lowered(module_text(R"(
    @R.function
    def main(x: R.Tensor(("n", 16), "float32"), w: R.Tensor((16, 32), "float32")) -> R.Tensor(("n * 32",), "float32"):
        n = T.int64()
        @R.function
        def run(v: R.Tensor(("n", 16), "float32")) -> R.Tensor(("n", 32), "float32"):
            with R.dataflow():
                y = R.call_tir(Module.dense, (v, w), out_sinfo=R.Tensor((n, 32), "float32"), tir_vars=R.shape([1]))
                R.output(y)
            return y

        with R.dataflow():
            y = run(x)
            f = R.reshape(y, R.shape([n * 32]))
            R.output(f)
        return f
)"),
                 {lambda_lift, to_non_dataflow, remove_purity_checking, call_tir_rewrite,
                  vm_builtin_lower},
                 module_text(R"(
    @R.function
    def main(x: R.Tensor(("n", 16), "float32"), w: R.Tensor((16, 32), "float32")) -> R.Tensor(("n * 32",), "float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        run = R.call_packed("vm.builtin.make_closure", Module.main_run, w, sinfo_args=R.Callable([R.Tensor(("n", 16), "float32")], R.Tensor(("n", 32), "float32")))
        y = R.call_packed("vm.builtin.invoke_closure", run, x, sinfo_args=R.Tensor((n, 32), "float32"))
        f = R.call_packed("vm.builtin.reshape", y, R.shape([n * 32]), sinfo_args=R.Tensor((n * 32,), "float32"))
        return f

    @R.function(private=True)
    def main_run(w: R.Tensor((16, 32), "float32"), v: R.Tensor(("n", 16), "float32")) -> R.Tensor(("n", 32), "float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        storage = R.call_packed("vm.builtin.alloc_storage", R.shape([n * 128]), R.prim_value(0), R.str("global"), R.dtype("uint8"), sinfo_args=R.Object)
        y = R.call_packed("vm.builtin.alloc_tensor", storage, R.prim_value(0), R.shape([n, 32]), R.dtype("float32"), sinfo_args=R.Tensor((n, 32), "float32"))
        _ = Module.dense(v, w, y, R.shape([1]))
        return y
)"));
}

}  // namespace
}  // namespace relaxc::relax
