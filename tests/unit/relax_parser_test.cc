// Tests of the parser's Relax builder: functions built through the BlockBuilder
// (StructInfo of every binding, symbolic dimensions, dataflow blocks, if/else,
// match_cast, calls between functions, leaves), and its diagnostics.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "ir/structural_equal.h"
#include "ir/support/diagnostics.h"
#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "tests/support/errors.h"

namespace relaxc {
namespace {

using relax::Binding;

std::string error_of(const std::string& source) {
  return located_error_of([&] { text::parse_module(source, "relax.py"); });
}

const relax::FunctionNode& function(const IRModule& m, const std::string& name) {
  relax::Function f = m->relax_function(name);
  if (!f.defined()) ADD_FAILURE() << "no Relax function " << name;
  static const relax::Function missing = [] {
    auto* n = make_node<relax::FunctionNode>();
    return relax::Function(n);
  }();
  return f.defined() ? *f.get() : *missing.get();
}

const relax::SeqExprNode& body(const relax::FunctionNode& f) {
  const auto* seq = f.body.as<relax::SeqExprNode>();
  if (seq == nullptr) {
    ADD_FAILURE() << "the body is not a SeqExpr";
    static const relax::SeqExprNode empty;
    return empty;
  }
  return *seq;
}

// Every binding of a SeqExpr, in order, across its blocks.
std::vector<Binding> bindings(const relax::SeqExprNode& seq) {
  std::vector<Binding> out;
  for (const relax::BindingBlock& block : seq.blocks) {
    out.insert(out.end(), block->bindings.begin(), block->bindings.end());
  }
  return out;
}

const relax::TensorStructInfoNode& tensor(const relax::StructInfo& s) {
  const auto* t = s.as<relax::TensorStructInfoNode>();
  if (t == nullptr) {
    ADD_FAILURE() << "not a tensor";
    static const relax::TensorStructInfoNode empty;
    return empty;
  }
  return *t;
}

std::vector<tir::PrimExpr> dims_of(const relax::StructInfo& s) {
  const std::vector<tir::PrimExpr>* dims = tensor(s).shape_values();
  return dims != nullptr ? *dims : std::vector<tir::PrimExpr>{};
}

int64_t const_value(const tir::PrimExpr& e) {
  const int64_t* v = tir::as_const_int(e);
  EXPECT_NE(v, nullptr) << "not a constant";
  return v != nullptr ? *v : -1;
}

std::string op_name(const relax::Expr& e) {
  const auto* call = e.as<relax::CallNode>();
  if (call == nullptr) return "<not a call>";
  const auto* op = call->op.as<relax::OpNode>();
  return op != nullptr ? op->name : "<not an op>";
}

// A module of one Relax function `main(x: (2, 3) float32, y: (2, 3) float32)` whose
// body lines (indented by 8 spaces) start at line 5.
std::string relax_module(const std::string& body) {
  return "@I.ir_module\nclass Module:\n    @R.function\n"
         "    def main(x: R.Tensor((2, 3), dtype=\"float32\"), y: R.Tensor((2, 3), "
         "dtype=\"float32\")):\n" +
         body;
}

constexpr const char* kDocExample = R"(@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, 4))
        y = T.match_buffer(var_y, (n, 4))
        for i, j in T.grid(n, 4):
            with T.block("y"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(x[vi, vj])
                T.writes(y[vi, vj])
                y[vi, vj] = T.exp(x[vi, vj])

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")) -> R.Tensor(("n * 4",), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            lv0: R.Tensor((n, 4), dtype="float32") = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((n, 4), dtype="float32"))
            lv1: R.Tensor((n * 4,), dtype="float32") = R.reshape(lv0, R.shape([n * 4]))
            R.output(lv1)
        return lv1
)";

TEST(RelaxParser, DataflowBlockWithSymbolicShapes) {
  IRModule m = text::parse_module(kDocExample, "doc.py");
  const relax::FunctionNode& main = function(m, "main");
  EXPECT_EQ(main.attrs.find("global_symbol")->s, "main");
  EXPECT_EQ(m->prim_func("exp")->attrs.find("global_symbol"), nullptr);
  // The parameter: (n, 4) with n a fresh int64 shape variable and 4 an int64 literal.
  ASSERT_EQ(main.params.size(), 1u);
  std::vector<tir::PrimExpr> x_dims = dims_of(main.params[0]->struct_info);
  ASSERT_EQ(x_dims.size(), 2u);
  const auto* n = x_dims[0].as<tir::VarNode>();
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->name, "n");
  EXPECT_EQ(n->dtype, DataType::Int(64));
  EXPECT_EQ(x_dims[1]->dtype, DataType::Int(64));
  EXPECT_EQ(const_value(x_dims[1]), 4);
  EXPECT_EQ(tensor(main.params[0]->struct_info).dtype, DataType::Float(32));
  // The return annotation "n * 4" uses the same n.
  std::vector<tir::PrimExpr> ret_dims = dims_of(main.ret_struct_info);
  ASSERT_EQ(ret_dims.size(), 1u);
  const auto* product = ret_dims[0].as<tir::MulNode>();
  ASSERT_NE(product, nullptr);
  EXPECT_TRUE(product->a.same_as(x_dims[0]));
  EXPECT_EQ(product->b->dtype, DataType::Int(64));
  EXPECT_EQ(const_value(product->b), 4);

  const relax::SeqExprNode& seq = body(main);
  ASSERT_EQ(seq.blocks.size(), 1u);
  EXPECT_TRUE(seq.blocks[0]->is_dataflow());
  ASSERT_EQ(seq.blocks[0]->bindings.size(), 2u);
  const Binding& lv0 = seq.blocks[0]->bindings[0];
  const Binding& lv1 = seq.blocks[0]->bindings[1];
  // R.output(lv1): lv1 is a Var, lv0 stays a DataflowVar.
  EXPECT_EQ(lv0->var->name, "lv0");
  EXPECT_TRUE(lv0->var.is<relax::DataflowVarNode>());
  EXPECT_EQ(lv1->var->kind(), NodeKind::RelaxVar);
  // call_tir(cls.exp, (x,), out_sinfo=...): the GlobalVar, the argument tuple, one sinfo.
  EXPECT_EQ(op_name(lv0->value), "relax.call_tir");
  const auto* call = lv0->value.as<relax::CallNode>();
  const auto* callee = call->args[0].as<relax::GlobalVarNode>();
  ASSERT_NE(callee, nullptr);
  EXPECT_EQ(callee->name, "exp");
  const auto* args = call->args[1].as<relax::TupleNode>();
  ASSERT_NE(args, nullptr);
  EXPECT_TRUE(args->fields[0].same_as(main.params[0]));
  ASSERT_EQ(call->sinfo_args.size(), 1u);
  // `n = T.int64()` in the body is the signature's n.
  EXPECT_TRUE(dims_of(call->sinfo_args[0])[0].same_as(x_dims[0]));
  EXPECT_TRUE(dims_of(lv0->var->struct_info)[0].same_as(x_dims[0]));
  EXPECT_EQ(op_name(lv1->value), "relax.reshape");
  std::vector<tir::PrimExpr> lv1_dims = dims_of(lv1->var->struct_info);
  ASSERT_EQ(lv1_dims.size(), 1u);
  EXPECT_EQ(structural_mismatch(lv1_dims[0], ret_dims[0]), std::nullopt);
  EXPECT_TRUE(seq.body.same_as(lv1->var));
}

TEST(RelaxParser, ModuleNameAndClsReferToTheSameFunctions) {
  std::string source = kDocExample;
  std::string with_module_name = source;
  with_module_name.replace(with_module_name.find("R.call_tir(cls.exp"), 18,
                           "R.call_tir(Module.exp");
  IRModule a = text::parse_module(source);
  IRModule b = text::parse_module(with_module_name);
  EXPECT_EQ(structural_mismatch(a, b), std::nullopt);
}

TEST(RelaxParser, BindingsWithoutAnnotationsInferTheirStructInfo) {
  IRModule m = text::parse_module(relax_module(R"(        z = R.add(x, y)
        w: R.Tensor(dtype="float32", ndim=2) = R.multiply(z, x)
        return w
)"));
  const relax::FunctionNode& main = function(m, "main");
  std::vector<Binding> b = bindings(body(main));
  ASSERT_EQ(b.size(), 2u);
  std::vector<tir::PrimExpr> z_dims = dims_of(b[0]->var->struct_info);
  ASSERT_EQ(z_dims.size(), 2u);
  EXPECT_EQ(const_value(z_dims[0]), 2);
  EXPECT_EQ(const_value(z_dims[1]), 3);
  // An annotation less specific than the value is kept on the variable.
  const relax::TensorStructInfoNode& w = tensor(b[1]->var->struct_info);
  EXPECT_EQ(w.ndim, 2);
  EXPECT_FALSE(w.shape.defined());
  EXPECT_EQ(w.dtype, DataType::Float(32));
}

TEST(RelaxParser, SignatureStringsAndSizeVariables) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(("n * m + 1",), dtype="float32"), p: R.Prim(value="m")) -> R.Shape(["n", 2]):
        n = T.int64(is_size_var=True)
        s = R.shape([n, 2])
        return s
)");
  const relax::FunctionNode& f = function(m, "f");
  std::vector<tir::PrimExpr> x_dims = dims_of(f.params[0]->struct_info);
  ASSERT_EQ(x_dims.size(), 2u);
  // n is declared in the body as a size variable: the signature uses that variable.
  EXPECT_TRUE(x_dims[0].as<tir::VarNode>()->is_size_var);
  EXPECT_FALSE(x_dims[1].as<tir::VarNode>()->is_size_var);
  std::vector<tir::PrimExpr> y_dims = dims_of(f.params[1]->struct_info);
  const auto* sum = y_dims[0].as<tir::AddNode>();
  ASSERT_NE(sum, nullptr);
  const auto* product = sum->a.as<tir::MulNode>();
  ASSERT_NE(product, nullptr);
  EXPECT_TRUE(product->a.same_as(x_dims[0]));
  EXPECT_TRUE(product->b.same_as(x_dims[1]));
  const auto* prim = f.params[2]->struct_info.as<relax::PrimStructInfoNode>();
  ASSERT_NE(prim, nullptr);
  EXPECT_TRUE(prim->value.same_as(x_dims[1]));
  EXPECT_EQ(prim->dtype, DataType::Int(64));
  const auto* ret = f.ret_struct_info.as<relax::ShapeStructInfoNode>();
  ASSERT_NE(ret, nullptr);
  ASSERT_TRUE(ret->values.has_value());
  EXPECT_TRUE((*ret->values)[0].same_as(x_dims[0]));
  // R.shape([n, 2]): int64 dimensions.
  Binding s = bindings(body(f))[0];
  const auto* shape = s->value.as<relax::ShapeExprNode>();
  ASSERT_NE(shape, nullptr);
  EXPECT_TRUE(shape->values[0].same_as(x_dims[0]));
  EXPECT_EQ(shape->values[1]->dtype, DataType::Int(64));
}

TEST(RelaxParser, MatchCastBindsNewShapeVariables) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), p: R.Prim("int64")) -> R.Tensor(dtype="float32", ndim=1):
        m = T.int64()
        k = T.int64()
        c = T.int64()
        y: R.Tensor((m, k), dtype="float32") = R.match_cast(x, R.Tensor((m, k), dtype="float32"))
        q = R.match_cast(p, R.Prim(value=c))
        with R.dataflow():
            z = R.reshape(y, R.shape([m * k]))
            R.output(z)
        return z
)");
  const relax::FunctionNode& main = function(m, "main");
  std::vector<Binding> b = bindings(body(main));
  ASSERT_EQ(b.size(), 3u);
  const auto* cast = b[0].as<relax::MatchCastNode>();
  ASSERT_NE(cast, nullptr);
  EXPECT_EQ(cast->var->name, "y");
  EXPECT_TRUE(cast->value.same_as(main.params[0]));
  std::vector<tir::PrimExpr> cast_dims = dims_of(cast->struct_info);
  ASSERT_EQ(cast_dims.size(), 2u);
  EXPECT_EQ(cast_dims[0].as<tir::VarNode>()->name, "m");
  EXPECT_EQ(cast_dims[1].as<tir::VarNode>()->name, "k");
  EXPECT_TRUE(dims_of(cast->var->struct_info)[0].same_as(cast_dims[0]));
  const auto* prim_cast = b[1].as<relax::MatchCastNode>();
  ASSERT_NE(prim_cast, nullptr);
  EXPECT_EQ(prim_cast->struct_info.as<relax::PrimStructInfoNode>()->value.as<tir::VarNode>()->name,
            "c");
  // The reshape's result uses the variables the cast bound.
  std::vector<tir::PrimExpr> z_dims = dims_of(b[2]->var->struct_info);
  ASSERT_EQ(z_dims.size(), 1u);
  const auto* product = z_dims[0].as<tir::MulNode>();
  ASSERT_NE(product, nullptr);
  EXPECT_TRUE(product->a.same_as(cast_dims[0]));
  EXPECT_TRUE(product->b.same_as(cast_dims[1]));
}

TEST(RelaxParser, IfElseBindsTheValueOfBothBranches) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @R.function
    def select(c: R.Tensor((), dtype="bool"), x: R.Tensor(("n",), dtype="float32")) -> R.Tensor(("n",), dtype="float32"):
        n = T.int64()
        if c:
            lv: R.Tensor((n,), dtype="float32") = R.add(x, x)
            v: R.Tensor((n,), dtype="float32") = lv
        else:
            v: R.Tensor((n,), dtype="float32") = R.multiply(x, x)
        return v
)");
  const relax::FunctionNode& f = function(m, "select");
  std::vector<Binding> b = bindings(body(f));
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0]->var->name, "v");
  const auto* branch = b[0]->value.as<relax::IfNode>();
  ASSERT_NE(branch, nullptr);
  EXPECT_TRUE(branch->cond.same_as(f.params[0]));
  // The true branch: the binding of lv, and lv as its value.
  const auto* then_seq = branch->true_branch.as<relax::SeqExprNode>();
  ASSERT_NE(then_seq, nullptr);
  std::vector<Binding> then_bindings = bindings(*then_seq);
  ASSERT_EQ(then_bindings.size(), 1u);
  EXPECT_EQ(then_bindings[0]->var->name, "lv");
  EXPECT_TRUE(then_seq->body.same_as(then_bindings[0]->var));
  // The false branch: its value, a call, bound in the branch by the normalizer.
  const auto* else_seq = branch->false_branch.as<relax::SeqExprNode>();
  ASSERT_NE(else_seq, nullptr);
  std::vector<Binding> else_bindings = bindings(*else_seq);
  ASSERT_EQ(else_bindings.size(), 1u);
  EXPECT_EQ(op_name(else_bindings[0]->value), "relax.multiply");
  // v has the branches' StructInfo, (n,) with the signature's n.
  std::vector<tir::PrimExpr> v_dims = dims_of(b[0]->var->struct_info);
  ASSERT_EQ(v_dims.size(), 1u);
  EXPECT_TRUE(v_dims[0].same_as(dims_of(f.params[1]->struct_info)[0]));
  EXPECT_TRUE(body(f).body.same_as(b[0]->var));
}

// TVM's parser binds a branch's last call statement to '_' and the If to '_': the same
// function as the branches ending in '_ = R.print(...)'.
TEST(RelaxParser, IfBranchesEndingInACallAreBoundToUnderscore) {
  auto conditional = [](const std::string& then_last, const std::string& else_last) {
    return text::parse_module(R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def f(x: R.Tensor((), "int32"), c: R.Tensor((), "bool")) -> R.Tensor((), "int32"):
        if c:
            )" + then_last + R"(
        else:
            )" + else_last + R"(
        return x
)");
  };
  IRModule sugared = conditional(R"(R.print(x, format="yes {}"))", R"(R.print(x, format="no {}"))");
  IRModule unsugared =
      conditional(R"(_ = R.print(x, format="yes {}"))", R"(_ = R.print(x, format="no {}"))");
  EXPECT_TRUE(structural_equal(sugared, unsugared));
  std::vector<Binding> b = bindings(body(function(sugared, "f")));
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0]->var->name, "_");
  EXPECT_TRUE(b[0]->value.is<relax::IfNode>());
}

TEST(RelaxParser, NestedIfRecursionAndCallsInAnyOrder) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((), dtype="bool"), x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        if a:
            if a:
                r = cls.helper(x)
            else:
                r = x
            out = r
        else:
            out = cls.main(a, x)
        return out

    @R.function
    def helper(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x
)");
  const relax::FunctionNode& main = function(m, "main");
  std::vector<Binding> b = bindings(body(main));
  ASSERT_EQ(b.size(), 1u);
  const auto* outer = b[0]->value.as<relax::IfNode>();
  ASSERT_NE(outer, nullptr);
  const auto* then_seq = outer->true_branch.as<relax::SeqExprNode>();
  std::vector<Binding> inner = bindings(*then_seq);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_EQ(inner[0]->var->name, "r");
  const auto* inner_if = inner[0]->value.as<relax::IfNode>();
  ASSERT_NE(inner_if, nullptr);
  // helper is defined after main, and main calls itself: both calls know their result.
  const auto* helper_call =
      bindings(*inner_if->true_branch.as<relax::SeqExprNode>())[0]->value.as<relax::CallNode>();
  ASSERT_NE(helper_call, nullptr);
  EXPECT_TRUE(helper_call->op.same_as(m->global_var("helper")));
  EXPECT_EQ(dims_of(helper_call->struct_info).size(), 1u);
  const auto* else_seq = outer->false_branch.as<relax::SeqExprNode>();
  const auto* recursive = bindings(*else_seq)[0]->value.as<relax::CallNode>();
  ASSERT_NE(recursive, nullptr);
  EXPECT_TRUE(recursive->op.same_as(m->global_var("main")));
  EXPECT_EQ(const_value(dims_of(recursive->struct_info)[0]), 4);
}

TEST(RelaxParser, LocalFunctions) {
  IRModule m = text::parse_module(relax_module(R"(        @R.function
        def twice(t: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
            u = R.add(t, t)
            return u

        @R.function
        def plain(t: R.Tensor((2, 3), dtype="float32")):
            return t

        w = twice(x)
        v = plain(w)
        return v
)"));
  const relax::FunctionNode& main = function(m, "main");
  std::vector<Binding> b = bindings(body(main));
  ASSERT_EQ(b.size(), 4u);
  const auto* twice = b[0]->value.as<relax::FunctionNode>();
  ASSERT_NE(twice, nullptr);
  EXPECT_EQ(b[0]->var->name, "twice");
  EXPECT_EQ(twice->attrs.find("global_symbol"), nullptr);  // local functions have none
  EXPECT_TRUE(b[0]->var->struct_info.is<relax::FuncStructInfoNode>());
  EXPECT_TRUE(b[1]->value.is<relax::FunctionNode>());
  const auto* call = b[2]->value.as<relax::CallNode>();
  ASSERT_NE(call, nullptr);
  EXPECT_TRUE(call->op.same_as(b[0]->var));
  EXPECT_EQ(const_value(dims_of(b[2]->var->struct_info)[1]), 3);
  EXPECT_TRUE(b[3]->value.as<relax::CallNode>()->op.same_as(b[1]->var));
}

// Found by tests/fuzz/fuzz_parser: a local function defined in a dataflow block prints
// in R.output (its variable is a Var), which the parser refused ("R.output names
// 'inner', which this dataflow block does not bind").
TEST(RelaxParser, LocalFunctionOfADataflowBlockIsAnOutput) {
  IRModule m = text::parse_module(relax_module(R"(        with R.dataflow():
            @R.function
            def inner(t: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
                return t
            gv = inner(x)
            R.output(inner, gv)
        return gv
)"));
  std::string printed = text::print_module(m);
  EXPECT_NE(printed.find("R.output(inner, gv)"), std::string::npos) << printed;
  IRModule reparsed = text::parse_module(printed, "printed.py");
  EXPECT_EQ(structural_mismatch(m, reparsed), std::nullopt);
}

TEST(RelaxParser, LeavesAndConstants) {
  IRModule m =
      text::parse_module(relax_module(R"(        c = R.const([[1, 2, 3], [4, 5, -6]], "int32")
        f = R.const(1.5)
        big = R.const(9007199254740993, "int64")
        s = R.shape([2, 3])
        p = R.prim_value(3)
        q = R.prim_value(T.float32(0.5))
        t = R.str("hello")
        d = R.dtype("float16")
        z = R.null_value()
        e = R.ExternFunc("my_func")
        return c
)"));
  std::vector<Binding> b = bindings(body(function(m, "main")));
  ASSERT_EQ(b.size(), 10u);
  const auto* c = b[0]->value.as<relax::ConstantNode>();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->data.dtype, DataType::Int(32));
  EXPECT_EQ(c->data.shape, (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(c->data.data->size(), 6u * 4u);
  int32_t elements[6];
  std::memcpy(elements, c->data.data->data(), sizeof(elements));
  EXPECT_EQ(elements[0], 1);
  EXPECT_EQ(elements[4], 5);
  EXPECT_EQ(elements[5], -6);
  EXPECT_EQ(dims_of(b[0]->var->struct_info).size(), 2u);
  const auto* f = b[1]->value.as<relax::ConstantNode>();
  EXPECT_EQ(f->data.dtype, DataType::Float(32));  // a float without dtype is float32
  EXPECT_TRUE(f->data.shape.empty());
  EXPECT_EQ(f->data.element_as_double(0), 1.5);
  // int64 constants keep every bit (2^53 + 1 is not a double).
  EXPECT_EQ(b[2]->value.as<relax::ConstantNode>()->data.element_as_int(0), 9007199254740993);
  const auto* shape = b[3]->value.as<relax::ShapeExprNode>();
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->values[0]->dtype, DataType::Int(64));
  const auto* p = b[4]->value.as<relax::PrimValueNode>();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->value->dtype, DataType::Int(64));  // R.prim_value(3) is int64
  EXPECT_EQ(b[5]->value.as<relax::PrimValueNode>()->value->dtype, DataType::Float(32));
  EXPECT_EQ(b[6]->value.as<relax::StringImmNode>()->value, "hello");
  EXPECT_EQ(b[7]->value.as<relax::DataTypeImmNode>()->value, DataType::Float(16));
  EXPECT_EQ(op_name(b[8]->value), "relax.null_value");
  EXPECT_EQ(b[9]->value.as<relax::ExternFuncNode>()->global_symbol, "my_func");
}

TEST(RelaxParser, StructInfoAnnotationForms) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @R.function
    def forms(a: R.Object, b: R.Prim("int64"), c: R.Prim(dtype="bool"), d: R.Tensor(("n", 4), "float16"), e: R.Shape(["n", 4]), f: R.Shape(ndim=2), g: R.Shape, h: R.Tensor(dtype="float32", ndim=2), i: R.Tensor(("n", 4)), j: R.Tensor, k: R.Tuple(R.Tensor((2,), dtype="int32"), R.Shape([2])), l: R.Tuple, fn: R.Callable((R.Tensor((2,), dtype="float32"),), R.Tensor((2,), dtype="float32"), True), impure: R.Callable((R.Object,), R.Object, purity=False), o: R.Object(), s2: R.Shape((3, 4)), t2: R.Tensor("float32", ndim=1), s3: R.Shape(), u: R.Tuple(), t3: R.Tensor(ndim=3)):
        return a
)");
  const relax::FunctionNode& f = function(m, "forms");
  ASSERT_EQ(f.params.size(), 20u);
  auto sinfo = [&](size_t i) { return f.params[i]->struct_info; };
  EXPECT_TRUE(sinfo(0).is<relax::ObjectStructInfoNode>());
  EXPECT_EQ(sinfo(1).as<relax::PrimStructInfoNode>()->dtype, DataType::Int(64));
  EXPECT_FALSE(sinfo(1).as<relax::PrimStructInfoNode>()->value.defined());
  EXPECT_EQ(sinfo(2).as<relax::PrimStructInfoNode>()->dtype, DataType::Bool());
  EXPECT_EQ(tensor(sinfo(3)).dtype, DataType::Float(16));
  EXPECT_EQ(tensor(sinfo(3)).ndim, 2);
  const auto* e = sinfo(4).as<relax::ShapeStructInfoNode>();
  ASSERT_TRUE(e->values.has_value());
  EXPECT_TRUE((*e->values)[0].same_as(dims_of(sinfo(3))[0]));  // the same n
  EXPECT_EQ(sinfo(5).as<relax::ShapeStructInfoNode>()->ndim, 2);
  EXPECT_FALSE(sinfo(5).as<relax::ShapeStructInfoNode>()->values.has_value());
  EXPECT_EQ(sinfo(6).as<relax::ShapeStructInfoNode>()->ndim, -1);
  EXPECT_EQ(tensor(sinfo(7)).ndim, 2);
  EXPECT_FALSE(tensor(sinfo(7)).shape.defined());
  EXPECT_TRUE(tensor(sinfo(8)).dtype.is_void());  // unknown dtype
  EXPECT_EQ(tensor(sinfo(8)).ndim, 2);
  EXPECT_EQ(tensor(sinfo(9)).ndim, -1);
  EXPECT_EQ(sinfo(10).as<relax::TupleStructInfoNode>()->fields.size(), 2u);
  EXPECT_TRUE(sinfo(11).as<relax::TupleStructInfoNode>()->fields.empty());
  const auto* fn = sinfo(12).as<relax::FuncStructInfoNode>();
  ASSERT_NE(fn, nullptr);
  ASSERT_TRUE(fn->params.has_value());
  EXPECT_EQ(fn->params->size(), 1u);
  EXPECT_TRUE(fn->purity);
  EXPECT_FALSE(sinfo(13).as<relax::FuncStructInfoNode>()->purity);
  EXPECT_TRUE(sinfo(14).is<relax::ObjectStructInfoNode>());
  EXPECT_EQ(sinfo(15).as<relax::ShapeStructInfoNode>()->ndim, 2);
  EXPECT_EQ(tensor(sinfo(16)).dtype, DataType::Float(32));
  EXPECT_EQ(tensor(sinfo(16)).ndim, 1);
  EXPECT_EQ(sinfo(17).as<relax::ShapeStructInfoNode>()->ndim, -1);
  EXPECT_TRUE(sinfo(18).as<relax::TupleStructInfoNode>()->fields.empty());
  EXPECT_EQ(tensor(sinfo(19)).ndim, 3);
  EXPECT_TRUE(tensor(sinfo(19)).dtype.is_void());
}

TEST(RelaxParser, CallTirWithTirVarsAndTupleOutputs) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @T.prim_func
    def k(A: T.Buffer((8,), "float32"), B: T.Buffer((4,), "float32"), C: T.Buffer((4,), "float32"), n: T.int64):
        for i in range(4):
            B[i] = A[i]
            C[i] = A[i + 4]

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), s: R.Shape(["n"])):
        n = T.int64()
        cls = Module
        halves = R.call_tir(cls.k, (x,), out_sinfo=[R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")], tir_vars=R.shape([n]))
        return halves
)");
  const relax::FunctionNode& main = function(m, "main");
  std::vector<Binding> b = bindings(body(main));
  ASSERT_EQ(b.size(), 1u);
  const auto* call = b[0]->value.as<relax::CallNode>();
  ASSERT_NE(call, nullptr);
  ASSERT_EQ(call->args.size(), 3u);
  const auto* tir_vars = call->args[2].as<relax::ShapeExprNode>();
  ASSERT_NE(tir_vars, nullptr);
  const auto* s = main.params[1]->struct_info.as<relax::ShapeStructInfoNode>();
  EXPECT_TRUE(tir_vars->values[0].same_as((*s->values)[0]));
  // out_sinfo=[A, B] is one sinfo_arg per output; the result is their tuple.
  EXPECT_EQ(call->sinfo_args.size(), 2u);
  const auto* result = b[0]->var->struct_info.as<relax::TupleStructInfoNode>();
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(result->fields.size(), 2u);
}

TEST(RelaxParser, TensorShapedByAShapeVariable) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @R.function
    def f(x: R.Tensor(dtype="float32", ndim=2)) -> R.Tensor(dtype="float32", ndim=2):
        s = R.shape_of(x)
        y: R.Tensor(s, dtype="float32") = R.match_cast(x, R.Tensor(s, dtype="float32"))
        return y
)");
  std::vector<Binding> b = bindings(body(function(m, "f")));
  ASSERT_EQ(b.size(), 2u);
  const relax::TensorStructInfoNode& t = tensor(b[1].as<relax::MatchCastNode>()->struct_info);
  EXPECT_TRUE(t.shape.same_as(b[0]->var));
}

TEST(RelaxParser, PackedCallsPrintAndPurity) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @R.function(pure=False)
    def f(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        R.print(x, format="x = {}")
        y = R.call_packed("test.scale", x, R.const(2.0, "float32"), sinfo_args=(R.Tensor((2, 3), dtype="float32"),))
        with R.dataflow():
            z = R.call_dps_packed("test.relu", (y,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            w = R.call_pure_packed("test.double", z, sinfo_args=R.Tensor((2, 3), dtype="float32"))
            R.output(w)
        return w

    @R.function
    def forced(x: R.Tensor((2, 3), dtype="float32")):
        R.func_attr({"relax.force_pure": True, "a_first": 1})
        R.print(x, format="{}")
        return x
)");
  const relax::FunctionNode& f = function(m, "f");
  EXPECT_FALSE(f.is_pure);
  std::vector<Binding> b = bindings(body(f));
  ASSERT_EQ(b.size(), 4u);
  // A bare call is bound to '_'.
  EXPECT_EQ(b[0]->var->name, "_");
  EXPECT_EQ(op_name(b[0]->value), "relax.print");
  const auto* print = b[0]->value.as<relax::CallNode>();
  EXPECT_EQ(print->attrs.find("format")->s, "x = {}");
  EXPECT_EQ(op_name(b[1]->value), "relax.call_packed");
  const auto* packed = b[1]->value.as<relax::CallNode>();
  ASSERT_EQ(packed->args.size(), 3u);
  EXPECT_EQ(packed->args[0].as<relax::ExternFuncNode>()->global_symbol, "test.scale");
  EXPECT_EQ(dims_of(b[1]->var->struct_info).size(), 2u);
  EXPECT_EQ(op_name(b[2]->value), "relax.call_dps_packed");
  EXPECT_TRUE(b[2]->var.is<relax::DataflowVarNode>());
  EXPECT_EQ(op_name(b[3]->value), "relax.call_pure_packed");
  EXPECT_FALSE(b[3]->var.is<relax::DataflowVarNode>());

  const relax::FunctionNode& forced = function(m, "forced");
  // Attributes sorted, global_symbol added.
  ASSERT_EQ(forced.attrs.entries().size(), 3u);
  EXPECT_EQ(forced.attrs.entries()[0].first, "a_first");
  EXPECT_EQ(forced.attrs.entries()[1].first, "global_symbol");
  EXPECT_EQ(forced.attrs.entries()[2].first, "relax.force_pure");
}

TEST(RelaxParser, OperatorKeywordsAndAttributes) {
  IRModule m = text::parse_module(relax_module(R"(        s = R.sum(x, axis=[1], keepdims=True)
        t = R.add(x1=x, x2=y)
        u = R.permute_dims(x, axes=None)
        return s
)"));
  std::vector<Binding> b = bindings(body(function(m, "main")));
  ASSERT_EQ(b.size(), 3u);
  const auto* sum = b[0]->value.as<relax::CallNode>();
  ASSERT_NE(sum, nullptr);
  EXPECT_EQ(sum->attrs.find("axis")->as_int_list(), (std::vector<int64_t>{1}));
  EXPECT_TRUE(sum->attrs.find("keepdims")->b);
  std::vector<tir::PrimExpr> s_dims = dims_of(b[0]->var->struct_info);
  ASSERT_EQ(s_dims.size(), 2u);
  EXPECT_EQ(const_value(s_dims[1]), 1);
  const auto* add = b[1]->value.as<relax::CallNode>();
  EXPECT_TRUE(add->args[0].same_as(function(m, "main").params[0]));
  EXPECT_TRUE(add->args[1].same_as(function(m, "main").params[1]));
  EXPECT_EQ(dims_of(b[2]->var->struct_info).size(), 2u);
}

TEST(RelaxParser, NamesStayVisibleAfterTheirBlockAndRebindingShadows) {
  // out, an output of the block, stays visible after it (lv, a DataflowVar, does not:
  // RelaxParserErrors.DataflowVarOfAnEndedBlock).
  IRModule m = text::parse_module(relax_module(R"(        with R.dataflow():
            lv = R.add(x, y)
            out = R.add(lv, y)
            R.output(out)
        z = R.add(out, out)
        z = R.multiply(z, z)
        return z
)"));
  const relax::SeqExprNode& seq = body(function(m, "main"));
  std::vector<Binding> b = bindings(seq);
  ASSERT_EQ(b.size(), 4u);
  const auto* use = b[2]->value.as<relax::CallNode>();
  EXPECT_TRUE(use->args[0].same_as(b[1]->var));
  EXPECT_TRUE(b[0]->var.is<relax::DataflowVarNode>());
  // The second z is a new variable; the function returns it.
  EXPECT_FALSE(b[3]->var.same_as(b[2]->var));
  EXPECT_TRUE(b[3]->value.as<relax::CallNode>()->args[0].same_as(b[2]->var));
  EXPECT_TRUE(seq.body.same_as(b[3]->var));
  ASSERT_EQ(seq.blocks.size(), 2u);
  EXPECT_TRUE(seq.blocks[0]->is_dataflow());
  EXPECT_FALSE(seq.blocks[1]->is_dataflow());
}

TEST(RelaxParser, TuplesAndIndexing) {
  IRModule m = text::parse_module(relax_module(R"(        t = (x, (y,), ())
        a = t[1]
        b = a[0]
        return (b, t)
)"));
  const relax::SeqExprNode& seq = body(function(m, "main"));
  std::vector<Binding> b = bindings(seq);
  ASSERT_EQ(b.size(), 3u);
  const auto* t = b[0]->var->struct_info.as<relax::TupleStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->fields.size(), 3u);
  EXPECT_EQ(b[1]->value.as<relax::TupleGetItemNode>()->index, 1);
  EXPECT_EQ(const_value(dims_of(b[2]->var->struct_info)[0]), 2);
  EXPECT_TRUE(seq.body.is<relax::TupleNode>());
}

TEST(RelaxParserErrors, UnknownOperatorsAndNames) {
  EXPECT_EQ(error_of(relax_module("        lv0 = R.ad(x, y)\n        return lv0\n")),
            "5:15: unknown operator 'R.ad'");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.nn.relux(x)\n        return lv0\n")),
            "5:15: unknown operator 'R.nn.relux'");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.add(x, nowhere)\n        return lv0\n")),
            "5:24: unknown name 'nowhere'");
  EXPECT_EQ(error_of(relax_module("        lv0 = cls.f(x)\n        return lv0\n")),
            "5:15: unknown name 'cls'");
  EXPECT_EQ(error_of(relax_module("        lv0 = Module.g(x)\n        return lv0\n")),
            "5:22: the module has no function 'g'");
  EXPECT_EQ(error_of(relax_module("        lv0 = main(x, y)\n        return lv0\n")),
            "5:15: unknown name 'main' (a function of the module is written Module.main)");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.Tensor((2,))\n        return lv0\n")),
            "5:15: R.Tensor is a StructInfo annotation, not a value");
}

TEST(RelaxParserErrors, ArgumentCountsAndKeywords) {
  EXPECT_EQ(error_of(relax_module("        lv0 = R.add(x)\n        return lv0\n")),
            "5:15: R.add is missing argument 'x2'");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.add(x, y, x)\n        return lv0\n")),
            "5:27: R.add takes 2 arguments (x1, x2), got 3");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.sum(x, axs=[1])\n        return lv0\n")),
            "5:24: R.sum got an unknown keyword argument 'axs'");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.add(x, x1=y)\n        return lv0\n")),
            "5:24: R.add got two values for argument 'x1'");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.const(1, \"int32\", 2)\n        return lv0\n")),
            "5:35: R.const takes at most 2 arguments (value, dtype), got 3");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.shape([2], ndim=1)\n        return lv0\n")),
            "5:28: R.shape got an unknown keyword argument 'ndim'");
}

TEST(RelaxParserErrors, AnnotationsAndTypes) {
  EXPECT_EQ(error_of("@I.ir_module\nclass Module:\n    @R.function\n"
                     "    def f(x: R.Tensr((4,))):\n        return x\n"),
            "4:14: expected a StructInfo annotation such as R.Tensor((n, 4), dtype=\"float32\")");
  EXPECT_EQ(error_of("@I.ir_module\nclass Module:\n    @R.function\n"
                     "    def f(x):\n        return x\n"),
            "4:11: parameter 'x' needs a StructInfo annotation, such as R.Tensor((\"n\", 4), "
            "dtype=\"float32\")");
  EXPECT_EQ(error_of("@I.ir_module\nclass Module:\n    @R.function\n"
                     "    def f(x: R.Tensor((4,), dtype=\"flaot32\")):\n        return x\n"),
            "4:35: unknown data type 'flaot32'");
  EXPECT_EQ(error_of("@I.ir_module\nclass Module:\n    @R.function\n"
                     "    def f(x: R.Tensor((4,), ndim=2)):\n        return x\n"),
            "4:34: ndim=2 disagrees with the shape's 1 dimension(s)");
  EXPECT_EQ(error_of("@I.ir_module\nclass Module:\n    @R.function\n"
                     "    def f(x: R.Tensor((n,))):\n        return x\n"),
            "4:24: unknown name 'n'");
  EXPECT_EQ(error_of(relax_module("        n = T.int64()\n        m = T.int32()\n"
                                  "        lv0: R.Tensor((2.5,)) = x\n        return lv0\n")),
            "7:24: a shape dimension must be an integer, got float32");
  // Relax shapes are int64: an int32 shape variable would meet the int64 arithmetic of
  // the operators' inference (found by fuzz_parser).
  EXPECT_EQ(error_of(relax_module("        m = T.int32()\n        lv0: R.Tensor((m, 3)) = x\n"
                                  "        return lv0\n")),
            "6:24: a shape dimension must be int64, got int32; declare its variables as T.int64()");
  // An error inside a shape string points into the string.
  EXPECT_EQ(error_of(relax_module("        n = T.int64()\n        lv0: R.Tensor((\"n + q\",)) = x\n"
                                  "        return lv0\n")),
            "6:29: unknown name 'q'");
  EXPECT_EQ(error_of(relax_module("        lv0: R.Tensor((\"(2\",)) = x\n        return lv0\n")),
            "5:25: '(' was never closed");
  EXPECT_EQ(error_of(relax_module(
                "        lv0 = R.const([[1, 2], [3]], \"int32\")\n        return lv0\n")),
            "5:32: R.const: the nested lists are ragged");
  EXPECT_EQ(error_of(relax_module("        lv0 = R.const(300, \"int8\")\n        return lv0\n")),
            "5:23: value 300 does not fit in int8");
}

TEST(RelaxParserErrors, NormalizerErrorsPropagateWithTheCallsPlace) {
  std::string message = error_of(R"(@I.ir_module
class Module:
    @R.function
    def f(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((4, 5), dtype="float32")):
        c = R.add(a, b)
        return c
)");
  EXPECT_EQ(message.rfind("5:13: R.add", 0), 0u) << message;
  // An annotation the value cannot have.
  message = error_of(relax_module(
      "        z: R.Tensor((3, 3), dtype=\"float32\") = R.add(x, y)\n        return z\n"));
  EXPECT_EQ(message.rfind("5:9: variable 'z'", 0), 0u) << message;
}

TEST(RelaxParserErrors, BlockAndControlFlowStructure) {
  EXPECT_EQ(error_of(relax_module("        with R.dataflow():\n            z = R.add(x, y)\n"
                                  "            R.output(w)\n        return z\n")),
            "7:22: R.output names 'w', which this dataflow block does not bind");
  EXPECT_EQ(error_of(relax_module("        with R.dataflow():\n            R.output(x)\n"
                                  "            z = R.add(x, y)\n        return z\n")),
            "6:13: R.output must be the last statement of a dataflow block");
  EXPECT_EQ(error_of(relax_module("        with R.dataflow():\n            with R.dataflow():\n"
                                  "                z = x\n        return x\n")),
            "6:13: dataflow blocks cannot be nested");
  EXPECT_EQ(error_of(relax_module("        if x:\n            z = x\n        return z\n")),
            "5:9: an 'if' in a Relax function needs an 'else' branch");
  EXPECT_EQ(
      error_of(relax_module("        if x:\n            z = x\n        else:\n            w = y\n"
                            "        return z\n")),
      "8:13: both branches of an 'if' must end by assigning the same name: 'z' and 'w'");
  // A branch may end in a call statement (bound to '_', as TVM binds it).
  EXPECT_EQ(error_of(relax_module(
                "        if x:\n            R.print(x)\n        else:\n            w = y\n"
                "        return w\n")),
            "8:13: both branches of an 'if' must end by assigning the same name: '_' and 'w'");
  EXPECT_EQ(
      error_of(relax_module("        if x:\n            x\n        else:\n            R.print(x)\n"
                            "        return x\n")),
      "6:13: a branch of an 'if' must end by assigning its value to a name or by a call");
  EXPECT_EQ(error_of(relax_module("        z = R.add(x, y)\n")),
            "4:9: function 'main' has no return");
  EXPECT_EQ(error_of(relax_module("        return x\n        z = x\n")),
            "6:9: statement after 'return'");
  EXPECT_EQ(error_of(relax_module("        a, b = (x, y)\n        return a\n")),
            "5:9: tuple unpacking is not supported in Relax except to declare shape variables "
            "(n, m = T.int64(), T.int64()); bind the tuple and index it (t[0])");
  EXPECT_EQ(error_of(relax_module("        n, m = T.int64(), y\n        return x\n")),
            "5:9: tuple unpacking is not supported in Relax except to declare shape variables "
            "(n, m = T.int64(), T.int64()); bind the tuple and index it (t[0])");
  EXPECT_EQ(
      error_of(relax_module("        for i in range(3):\n            pass\n        return x\n")),
      "5:9: loops are not part of Relax; write them in a @T.prim_func");
  EXPECT_EQ(error_of(relax_module("        z = R.match_cast(x)\n        return z\n")),
            "5:13: R.match_cast is missing argument 'struct_info'");
  EXPECT_EQ(
      error_of(relax_module("        z = R.add(R.match_cast(x, R.Object), y)\n        return z\n")),
      "5:19: R.match_cast must be the value of a binding: y = R.match_cast(x, SI)");
  EXPECT_EQ(
      error_of(relax_module("        n = T.int64()\n        n = T.int32()\n        return x\n")),
      "6:13: shape variable 'n' is int64, not int32");
}

// A DataflowVar is scoped to its dataflow block (spec rule 1), also when the next block is
// a dataflow block too (the two are merged as they are built, so only the parser can tell).
TEST(RelaxParserErrors, DataflowVarOfAnEndedBlock) {
  const std::string expected =
      "[rule 1] DataflowVar 'lv' is used outside the dataflow block that binds it; list it in "
      "that block's R.output to use it afterwards";
  EXPECT_EQ(error_of(relax_module("        with R.dataflow():\n            lv = R.add(x, y)\n"
                                  "            out = R.add(lv, y)\n            R.output(out)\n"
                                  "        z = R.add(lv, out)\n        return z\n")),
            "9:19: " + expected);
  EXPECT_EQ(error_of(relax_module("        with R.dataflow():\n            lv = R.add(x, y)\n"
                                  "            out = R.add(lv, y)\n            R.output(out)\n"
                                  "        with R.dataflow():\n            z = R.add(out, lv)\n"
                                  "            R.output(z)\n        return z\n")),
            "10:28: " + expected);
  // A name bound again after the block names the new variable.
  EXPECT_NO_THROW(text::parse_module(relax_module(
      "        with R.dataflow():\n            lv = R.add(x, y)\n            R.output()\n"
      "        lv = R.add(x, x)\n        z = R.add(lv, y)\n        return z\n")));
}

// TVM declares several shape variables on one line; that is the same as one a line.
TEST(RelaxParser, ShapeVariablesDeclaredOnOneLine) {
  const std::string one_line = R"(@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor(("n * m",), dtype="float32"):
        n, m = T.int64(), T.int64()
        k, = T.int64(),
        y = R.reshape(x, R.shape([n * m]))
        return y
)";
  std::string per_line = one_line;
  per_line.replace(per_line.find("n, m = T.int64(), T.int64()"), 27,
                   "n = T.int64()\n        m = T.int64()");
  per_line.replace(per_line.find("k, = T.int64(),"), 15, "k = T.int64()");
  IRModule a = text::parse_module(one_line);
  EXPECT_TRUE(structural_equal(a, text::parse_module(per_line)));
  const auto& ret = tensor(function(a, "main").ret_struct_info);
  ASSERT_NE(ret.shape_values(), nullptr);
  EXPECT_EQ(text::print_node((*ret.shape_values())[0]), "n * m");
  EXPECT_EQ(error_of(relax_module("        n, m = T.int64(), T.int32()\n        n = T.int32()\n"
                                  "        return x\n")),
            "6:13: shape variable 'n' is int64, not int32");
}

// R.call_tir(f, x, out_sinfo) is R.call_tir(f, (x,), out_sinfo=out_sinfo), as TVM's
// R.call_tir makes a single argument a tuple of one; likewise R.call_dps_packed.
TEST(RelaxParser, CallTirWithOneArgumentAndPositionalOutSinfo) {
  const std::string head = R"(@I.ir_module
class Module:
    @T.prim_func
    def k(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32"), n: T.int64):
        for i in range(4):
            B[i] = A[i]

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), s: R.Shape(["n"])):
        n = T.int64()
        cls = Module
)";
  const std::string keywords =
      head +
      "        y = R.call_tir(cls.k, (x,), out_sinfo=R.Tensor((4,), "
      "dtype=\"float32\"), tir_vars=R.shape([n]))\n"
      "        z = R.call_dps_packed(\"f\", (y,), out_sinfo=R.Tensor((4,), "
      "dtype=\"float32\"))\n        return z\n";
  const std::string positional = head +
                                 "        y = R.call_tir(cls.k, x, R.Tensor((4,), "
                                 "dtype=\"float32\"), R.shape([n]))\n"
                                 "        z = R.call_dps_packed(\"f\", y, R.Tensor((4,), "
                                 "dtype=\"float32\"))\n        return z\n";
  IRModule a = text::parse_module(keywords);
  IRModule b = text::parse_module(positional);
  EXPECT_TRUE(structural_equal(a, b));
  std::vector<Binding> binds = bindings(body(function(b, "main")));
  ASSERT_EQ(binds.size(), 2u);
  const auto* args = binds[0]->value.as<relax::CallNode>()->args[1].as<relax::TupleNode>();
  ASSERT_NE(args, nullptr);
  EXPECT_EQ(args->fields.size(), 1u);

  // A tuple-typed variable is the argument tuple itself, as in TVM.
  const std::string tuple_var = head +
                                "        t = (x,)\n        y = R.call_tir(cls.k, t, R.Tensor((4,), "
                                "dtype=\"float32\"), R.shape([n]))\n        return y\n";
  binds = bindings(body(function(text::parse_module(tuple_var), "main")));
  EXPECT_TRUE(binds[1]->value.as<relax::CallNode>()->args[1].same_as(binds[0]->var));

  EXPECT_EQ(error_of(head + "        y = R.call_tir(cls.k, x, R.Tensor((4,), dtype=\"float32\"), "
                            "out_sinfo=R.Tensor((4,), dtype=\"float32\"))\n        return y\n"),
            "12:67: R.call_tir got two values for argument 'out_sinfo'");
  EXPECT_EQ(error_of(head + "        y = R.call_tir(cls.k, x, R.Tensor((4,), dtype=\"float32\"), "
                            "R.shape([n]), x)\n        return y\n"),
            "12:81: R.call_tir takes at most 4 arguments (func, args, out_sinfo, tir_vars), got 5");
}

// The condition of an If, as TVM's normalizer and VM take it.
TEST(RelaxParser, IfConditionsTheVmCanRead) {
  auto module = [](const std::string& cond_sinfo) {
    return "@I.ir_module\nclass Module:\n    @R.function\n    def main(c: " + cond_sinfo +
           ", x: R.Tensor((4,), dtype=\"float32\")):\n        if c:\n            y = x\n"
           "        else:\n            y = R.add(x, x)\n        return y\n";
  };
  for (const char* ok :
       {"R.Tensor((), dtype=\"bool\")", "R.Tensor((1,), dtype=\"int32\")",
        "R.Tensor((1, 1), dtype=\"float32\")", "R.Tensor(ndim=1, dtype=\"float32\")",
        "R.Tensor((\"n\",), dtype=\"int64\")", "R.Tensor", "R.Object", "R.Prim(\"bool\")",
        "R.Prim(\"int32\")"}) {
    EXPECT_NO_THROW(text::parse_module(module(ok))) << ok;
  }
  const std::string expected =
      "5:9: the condition of an If must be a bool or integer R.Prim or a tensor of one "
      "element, got ";
  EXPECT_EQ(error_of(module("R.Tensor((2,), dtype=\"bool\")")),
            expected + "R.Tensor((2,), dtype=\"bool\")");
  EXPECT_EQ(error_of(module("R.Tensor((0,), dtype=\"bool\")")),
            expected + "R.Tensor((0,), dtype=\"bool\")");
  EXPECT_EQ(error_of(module("R.Prim(\"float32\")")), expected + "R.Prim(\"float32\")");
  EXPECT_EQ(error_of(module("R.Shape([1])")), expected + "R.Shape([1])");
  EXPECT_EQ(error_of(module("R.Tuple(R.Object)")), expected + "R.Tuple(R.Object)");
}

// TVM's VM recursion test: the If joins a packed call's result (an R.Object) with a
// constant or another R.Object (the join of two Objects once aborted the checker).
TEST(RelaxParser, IfJoinsObjectsOfPackedCalls) {
  IRModule m = text::parse_module(R"(@I.ir_module
class Module:
    @R.function
    def recursion(n: R.Tensor((1,), "float32")) -> R.Tensor:
        cond = R.call_pure_packed("test.vm.equal_zero", n)
        if cond:
            res = R.call_pure_packed("test.vm.one", n)
        else:
            gv0 = R.call_pure_packed("test.vm.subtract_one", n)
            tmp = Module.recursion(gv0)
            res = R.call_pure_packed("test.vm.add", tmp, tmp)
        return res

    @R.function
    def constant(n: R.Tensor((1,), "float32")) -> R.Tensor:
        cond = R.call_pure_packed("test.vm.equal_zero", n, sinfo_args=(R.Tensor(ndim=1, dtype="float32")))
        if cond:
            res = R.const(1.0)
        else:
            res = R.call_pure_packed("test.vm.add", n, n)
        return res
)");
  for (const char* name : {"recursion", "constant"}) {
    std::vector<Binding> b = bindings(body(function(m, name)));
    EXPECT_TRUE(b.back()->var->struct_info.is<relax::ObjectStructInfoNode>()) << name;
  }
}

// A shape argument written as a tuple or list is the shape, as TVM's R.reshape takes it.
TEST(RelaxParser, ShapeArgumentAsATupleOrList) {
  const std::string shape_call =
      relax_module("        y = R.reshape(x, R.shape([3, 2]))\n        return y\n");
  for (const char* shape : {"(3, 2)", "[3, 2]"}) {
    std::string source = shape_call;
    source.replace(source.find("R.shape([3, 2])"), 15, shape);
    EXPECT_TRUE(structural_equal(text::parse_module(source), text::parse_module(shape_call)))
        << shape;
  }
  // Another argument written as a tuple stays a tuple.
  EXPECT_EQ(error_of(relax_module("        y = R.reshape((x,), (3, 2))\n        return y\n")),
            "5:13: R.reshape: argument 'x' must be a tensor, got R.Tuple(R.Tensor((2, 3), "
            "dtype=\"float32\"))");
}

// The spellings of TVM after 0.23 read as the forms they rename.
TEST(RelaxParser, NewerTvmSpellingsAreTheNamesTheyRename) {
  const std::string newer = R"(@I.ir_module(s_tir=True)
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), h: R.Any) -> R.Tuple([R.Tensor((4,), dtype="float32"), R.Any]):
        y = R.call_dps_packed("f", (x,), out_ty=R.Tensor((4,), dtype="float32"))
        z = R.call_pure_packed("g", y, ty_args=(R.Tensor((4,), dtype="float32"),))
        return (z, h)
)";
  std::string older = newer;
  auto replace_all = [&older](const std::string& from, const std::string& to) {
    for (size_t at = older.find(from); at != std::string::npos; at = older.find(from, at)) {
      older.replace(at, from.size(), to);
      at += to.size();
    }
  };
  replace_all("(s_tir=True)", "");
  replace_all("R.Any", "R.Object");
  replace_all("R.Tuple([", "R.Tuple(");
  replace_all("])", ")");
  replace_all("out_ty", "out_sinfo");
  replace_all("ty_args", "sinfo_args");
  EXPECT_TRUE(structural_equal(text::parse_module(newer), text::parse_module(older))) << older;
  EXPECT_EQ(error_of(relax_module("        z = R.call_pure_packed(\"g\", x, ty_args=R.Object, "
                                  "sinfo_args=R.Object)\n        return z\n")),
            "5:58: R.call_pure_packed got two values for argument 'sinfo_args'");
}

}  // namespace
}  // namespace relaxc
