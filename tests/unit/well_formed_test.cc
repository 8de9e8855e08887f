// Tests of the well-formedness checker on IR built directly (make_node), which can
// express every violation, including those the text format cannot.
#include "ir/relax/well_formed.h"

#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "ir/relax/op_registry.h"

namespace relaxc::relax {
namespace {

const DataType kF32 = DataType::Float(32);
const DataType kI64 = DataType::Int(64);

// Operators of this test only: one pure, one impure (like R.print).
const char* const kPureOp = "test.wf.pure";
const char* const kImpureOp = "test.wf.impure";

Op op(const char* name) {
  static std::once_flag once;
  std::call_once(once, [] {
    OpInfo pure;
    pure.name = kPureOp;
    pure.arg_names = {"args"};
    register_op(pure);
    OpInfo impure;
    impure.name = kImpureOp;
    impure.arg_names = {"args"};
    impure.pure = false;
    register_op(impure);
  });
  return get_op(name);
}

// A source file whose spans the tests point into.
Span at(uint32_t line, uint32_t col = 1) {
  static const SourceFile* file = [] {
    std::string text;
    for (int i = 1; i <= 60; ++i) text += "line " + std::to_string(i) + "\n";
    return SourceFile::add("wf.py", std::move(text));
  }();
  return Span{file, line, col};
}

PrimExpr i64(int64_t v) { return tir::int_imm(kI64, v); }
StructInfo tensor(std::vector<PrimExpr> dims) { return tensor_sinfo(std::move(dims), kF32); }

Expr call(Expr callee, std::vector<Expr> args, StructInfo sinfo,
          std::vector<StructInfo> sinfo_args = {}) {
  auto* n = make_node<CallNode>();
  n->op = std::move(callee);
  n->args = std::move(args);
  n->sinfo_args = std::move(sinfo_args);
  n->struct_info = std::move(sinfo);
  return Expr(n);
}

Expr seq(std::vector<BindingBlock> blocks, Expr body) {
  auto* n = make_node<SeqExprNode>();
  n->blocks = std::move(blocks);
  n->struct_info = body->struct_info;
  n->body = std::move(body);
  return Expr(n);
}

Expr tuple(std::vector<Expr> fields) {
  std::vector<StructInfo> sinfos;
  for (const Expr& f : fields) sinfos.push_back(f->struct_info);
  auto* n = make_node<TupleNode>();
  n->fields = std::move(fields);
  n->struct_info = tuple_sinfo(std::move(sinfos));
  return Expr(n);
}

Expr if_then_else(Expr cond, Expr then_branch, Expr else_branch) {
  auto* n = make_node<IfNode>();
  n->struct_info = then_branch->struct_info;
  n->cond = std::move(cond);
  n->true_branch = std::move(then_branch);
  n->false_branch = std::move(else_branch);
  return Expr(n);
}

Function function(std::vector<Var> params, Expr body, StructInfo ret = {}, bool is_pure = true,
                  Attrs attrs = {}, Span span = {}) {
  std::vector<StructInfo> param_sinfo;
  for (const Var& p : params) param_sinfo.push_back(p->struct_info);
  auto* n = make_node<FunctionNode>();
  n->struct_info = func_sinfo(param_sinfo, ret.defined() ? ret : body->struct_info, is_pure);
  n->params = std::move(params);
  n->body = std::move(body);
  n->ret_struct_info = std::move(ret);
  n->is_pure = is_pure;
  n->attrs = std::move(attrs);
  n->span = span;
  return Function(n);
}

BindingBlock block(std::vector<Binding> bindings) {
  return make_binding_block(std::move(bindings), false);
}
BindingBlock dataflow(std::vector<Binding> bindings) {
  return make_binding_block(std::move(bindings), true);
}
Binding bind(Var var, Expr value, Span span = {}) {
  return make_var_binding(std::move(var), std::move(value), span);
}

IRModule module_of(std::vector<std::pair<std::string, Ref<Object>>> functions) {
  std::vector<std::pair<GlobalVar, Ref<Object>>> entries;
  for (auto& [name, func] : functions) entries.emplace_back(make_global_var(name), func);
  return make_module(std::move(entries));
}

std::vector<std::string> messages(const IRModule& module) {
  DiagnosticList diagnostics = check_well_formed(module);
  std::vector<std::string> out;
  for (const Diagnostic& d : diagnostics.all()) out.push_back(d.message);
  return out;
}

using Messages = std::vector<std::string>;

// main(x: R.Tensor((n, 4))) with a dataflow block, a match_cast and a call of a
// second function: every construct the checker scopes, used correctly.
TEST(WellFormed, AcceptsWellFormedModule) {
  tir::Var n = tir::var("n"), m = tir::var("m");
  Var x = make_var("x", tensor({n, i64(4)}));
  Var lv0 = make_dataflow_var("lv0", tensor({n, i64(4)}));
  Var gv = make_var("gv", tensor({n, i64(4)}));
  Var y = make_var("y", tensor({m}));
  Var z = make_var("z", tensor({m}));
  Expr pure = op(kPureOp);
  tir::Var k = tir::var("k");
  Var a = make_var("a", tensor({k}));
  Function helper = function({a}, seq({}, a), tensor({k}));
  Function main = function(
      {x},
      seq({dataflow({bind(lv0, call(pure, {x, x}, lv0->struct_info)),
                     bind(gv, call(pure, {lv0, x}, gv->struct_info))}),
           block({make_match_cast(
                      y, call(pure, {gv, make_shape_expr({n * 4})}, tensor_sinfo_ndim(1, kF32)),
                      tensor({m})),
                  bind(z, call(make_global_var("helper"), {y}, tensor({m})))})},
          z),
      tensor_sinfo_ndim(1, kF32));
  EXPECT_EQ(messages(module_of({{"main", main}, {"helper", helper}})), Messages{});
}

// ---------------------------------------------------------------- Rule 1

TEST(WellFormed, Rule1DataflowVarBoundOutsideDataflowBlock) {
  Var x = make_var("x", tensor({i64(4)}));
  Var lv = make_dataflow_var("lv", tensor({i64(4)}));
  Function main = function({x}, seq({block({bind(lv, x, at(3, 5))})}, x));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 1] DataflowVar 'lv' is bound outside a dataflow block"});
}

TEST(WellFormed, Rule1DataflowVarUsedAfterItsBlock) {
  Var x = make_var("x", tensor({i64(4)}));
  Var lv0 = make_dataflow_var("lv0", tensor({i64(4)}));
  Var gv = make_var("gv", tensor({i64(4)}));
  Var lv1 = make_var("lv1", tensor({i64(4)}));
  Expr pure = op(kPureOp);
  Function main =
      function({x}, seq({dataflow({bind(lv0, call(pure, {x}, x->struct_info)), bind(gv, lv0)}),
                         block({bind(lv1, call(pure, {lv0, gv}, x->struct_info), at(7, 9))})},
                        lv1));
  DiagnosticList diagnostics = check_well_formed(module_of({{"main", main}}));
  ASSERT_EQ(diagnostics.all().size(), 1u);
  EXPECT_EQ(diagnostics.all()[0].message,
            "[rule 1] DataflowVar 'lv0' is used outside the dataflow block that binds it (in the "
            "binding of 'lv1')");
  EXPECT_EQ(diagnostics.all()[0].span.line, 7u);
  EXPECT_EQ(diagnostics.all()[0].span.col, 9u);
}

TEST(WellFormed, Rule1DataflowVarAsParameter) {
  Var x = make_dataflow_var("x", tensor({i64(4)}));
  Function main = function({x}, seq({}, x));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 1] DataflowVar 'x' is a parameter of function 'main'; only a dataflow "
                     "block may bind a DataflowVar"});
}

// ---------------------------------------------------------------- Rules 2 and 3

TEST(WellFormed, Rule2VarBoundTwice) {
  Var x = make_var("x", tensor({i64(4)}));
  Var y = make_var("y", tensor({i64(4)}));
  Function main = function({x}, seq({block({bind(y, x), bind(y, x)})}, y));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 2] Var 'y' is bound more than once"});
}

TEST(WellFormed, Rule2ParameterReboundAndSharedAcrossFunctions) {
  Var x = make_var("x", tensor({i64(4)}));
  Function f = function({x}, seq({block({bind(x, make_prim_value(i64(1)))})}, x));
  EXPECT_EQ(messages(module_of({{"f", f}})), Messages{"[rule 2] Var 'x' is bound more than once"});
  // One Var object as the parameter of two functions is bound twice in the program.
  Var p = make_var("p", tensor({i64(4)}));
  EXPECT_EQ(
      messages(module_of({{"f", function({p}, seq({}, p))}, {"g", function({p}, seq({}, p))}})),
      Messages{"[rule 2] Var 'p' is bound more than once"});
}

TEST(WellFormed, Rule2VarNeverBound) {
  Var x = make_var("x", tensor({i64(4)}));
  Var stray = make_var("stray", tensor({i64(4)}));
  Var y = make_var("y", tensor({i64(4)}));
  Function main =
      function({x}, seq({block({bind(y, call(op(kPureOp), {x, stray}, x->struct_info))})}, y));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      Messages{"[rule 2] Var 'stray' is used (in the binding of 'y') but is neither a parameter "
               "nor bound by a binding of function 'main'"});
}

TEST(WellFormed, Rule2SelfReferenceOutsideAFunctionBinding) {
  Var x = make_var("x", tensor({i64(4)}));
  Var y = make_var("y", tensor({i64(4)}));
  Function main =
      function({x}, seq({block({bind(y, call(op(kPureOp), {y, x}, x->struct_info))})}, y));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 2] Var 'y' is used in its own binding; only a binding of a local "
                     "function may refer to its own variable"});
}

TEST(WellFormed, Rule2VarUsedOutsideItsSeqExpr) {
  Var cond = make_var("cond", prim_sinfo(DataType::Bool()));
  Var x = make_var("x", tensor({i64(4)}));
  Var inner = make_var("inner", tensor({i64(4)}));
  Var v = make_var("v", tensor({i64(4)}));
  Var after = make_var("after", tensor({i64(4)}));
  Expr branch = if_then_else(cond, seq({block({bind(inner, x)})}, inner), seq({}, x));
  Function main = function(
      {cond, x},
      seq({block({bind(v, branch), bind(after, call(op(kPureOp), {inner}, x->struct_info))})},
          after));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      Messages{"[rule 2] Var 'inner' is used outside the scope of its binding (in the binding "
               "of 'after')"});
}

TEST(WellFormed, Rule2GlobalVarsOfTheModule) {
  Var x = make_var("x", tensor({i64(4)}));
  Var y = make_var("y", tensor({i64(4)}));
  Function main = function(
      {x}, seq({block({bind(y, call(make_global_var("missing"), {x}, x->struct_info))})}, y));
  Var p = make_var("p", tensor({i64(4)}));
  Function twice = function({p}, seq({}, p));
  EXPECT_EQ(
      messages(module_of({{"main", main}, {"f", twice}, {"f", twice}})),
      (Messages{"[rule 2] GlobalVar 'f' is bound more than once in the module",
                "[rule 2] GlobalVar 'missing' is not bound in the module (used in the binding "
                "of 'y')"}));
}

TEST(WellFormed, Rule3VarUsedBeforeItsBinding) {
  Var x = make_var("x", tensor({i64(4)}));
  Var a = make_var("a", tensor({i64(4)}));
  Var b = make_var("b", tensor({i64(4)}));
  Function main =
      function({x}, seq({block({bind(a, call(op(kPureOp), {b}, x->struct_info)), bind(b, x)})}, a));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 3] Var 'b' is used before it is bound (in the binding of 'a')"});
}

// ---------------------------------------------------------------- Shape variables

TEST(WellFormed, Rule4ReturnAnnotationUsesUnboundShapeVar) {
  tir::Var n = tir::var("n"), m = tir::var("m");
  Var x = make_var("x", tensor({n}));
  Var y = make_var("y", tensor({m}));
  Function main = function({x}, seq({block({make_match_cast(y, x, tensor({m}))})}, y), tensor({m}));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 4] the return annotation of function 'main' uses shape variable 'm', "
                     "which is not in scope where the function is defined; only parameter "
                     "annotations and the enclosing scope bind shape variables"});
}

TEST(WellFormed, Rule5ShapeExprUsesUnboundShapeVar) {
  tir::Var n = tir::var("n"), m = tir::var("m");
  Var x = make_var("x", tensor({n}));
  Var s = make_var("s", shape_sinfo({m * 2}));
  // The annotation of s repeats m: one unbound variable, one diagnostic.
  Function main = function({x}, seq({block({bind(s, make_shape_expr({m * 2}))})}, x));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      Messages{"[rule 5] shape variable 'm' is used in a shape in the binding of 's' before it "
               "is bound; a function signature or R.match_cast binds shape variables"});
}

TEST(WellFormed, Rule5MatchCastShapeVarScopedToItsSeqExpr) {
  tir::Var n = tir::var("n"), m = tir::var("m");
  Var cond = make_var("cond", prim_sinfo(DataType::Bool()));
  Var x = make_var("x", tensor({n}));
  Var inner = make_var("inner", tensor({m}));
  Var v = make_var("v", tensor_sinfo_ndim(1, kF32));
  Var s = make_var("s", shape_sinfo_ndim(1));
  Expr branch =
      if_then_else(cond, seq({block({make_match_cast(inner, x, tensor({m}))})}, x), seq({}, x));
  Function main =
      function({cond, x}, seq({block({bind(v, branch), bind(s, make_shape_expr({m}))})}, v));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 5] shape variable 'm' is used in a shape in the binding of 's' outside "
                     "the scope that binds it"});
}

TEST(WellFormed, Rule6SignatureShapeVarNeverAlone) {
  tir::Var n = tir::var("n"), m = tir::var("m"), k = tir::var("k");
  // n * m in the first parameter is fine: n and m stand alone in later ones.
  Var a = make_var("a", tensor({n * m}));
  Var b = make_var("b", tensor({n}));
  Var c = make_var("c", tensor({m, k * 2}));
  Function main = function({a, b, c}, seq({}, a));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 6] shape variable 'k' in the annotation of parameter 'c' is never "
                     "bound: it stands alone in no dimension of a parameter annotation of "
                     "function 'main'"});
}

TEST(WellFormed, Rule14To16ShapeVarsOutOfScopeInAnnotations) {
  tir::Var n = tir::var("n"), m1 = tir::var("m1"), m2 = tir::var("m2"), m3 = tir::var("m3");
  Var x = make_var("x", tensor({n}));
  Var t = make_var("t", tensor({m1}));
  Var s = make_var("s", shape_sinfo({m2}));
  Var p = make_var("p", prim_sinfo(kI64, m3));
  Var again = make_var("again", tensor({m1}));
  Expr pure = op(kPureOp);
  Function main =
      function({x}, seq({block({bind(t, call(pure, {x}, tensor({m1}))),
                                bind(s, call(pure, {x}, shape_sinfo({m2}))),
                                bind(p, call(pure, {x}, prim_sinfo(kI64, m3))), bind(again, t)})},
                        x));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            (Messages{"[rule 14] shape variable 'm1' in the annotation of 't' is not bound here; a "
                      "function signature or R.match_cast binds shape variables",
                      "[rule 15] shape variable 'm2' in the annotation of 's' is not bound here; a "
                      "function signature or R.match_cast binds shape variables",
                      "[rule 16] shape variable 'm3' in the annotation of 'p' is not bound here; a "
                      "function signature or R.match_cast binds shape variables"}));
}

TEST(WellFormed, MatchCastBindsShapeVarsInAnyDimensionOrder) {
  tir::Var n = tir::var("n"), m = tir::var("m");
  Var x = make_var("x", tensor_sinfo_ndim(2, kF32));
  Var y = make_var("y", tensor({m * 2, m}));
  Var s = make_var("s", shape_sinfo({n}));
  Var p = make_var("p", prim_sinfo(kI64));
  Var q = make_var("q", prim_sinfo(kI64, n));
  Function main = function(
      {x, p},
      seq({block({make_match_cast(y, x, tensor({m * 2, m})),
                  make_match_cast(q, p, prim_sinfo(kI64, n)), bind(s, make_shape_expr({n}))})},
          y));
  EXPECT_EQ(messages(module_of({{"main", main}})), Messages{});
}

TEST(WellFormed, Rule14TensorShapeMustBeShapeExprOrVarInScope) {
  Var x = make_var("x", tensor({i64(4)}));
  Var shape = make_var("shape", shape_sinfo_ndim(1));
  // A tensor annotation whose shape is a Var bound later, and one whose shape is a Call.
  auto* by_var = make_node<TensorStructInfoNode>();
  by_var->shape = shape;
  by_var->dtype = kF32;
  by_var->ndim = 1;
  auto* by_call = make_node<TensorStructInfoNode>();
  by_call->shape = call(op(kPureOp), {x}, shape_sinfo_ndim(1));
  by_call->dtype = kF32;
  by_call->ndim = 1;
  Var a = make_var("a", StructInfo(by_var));
  Var b = make_var("b", StructInfo(by_call));
  Function main = function(
      {x}, seq({block({bind(a, x), bind(b, x), bind(shape, make_shape_expr({i64(4)}))})}, x));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            (Messages{"[rule 14] the shape of the tensor in the annotation of 'a' is Var 'shape', "
                      "which is not in scope here",
                      "[rule 14] the shape of the tensor in the annotation of 'b' is a Call; a "
                      "tensor's shape is a ShapeExpr or a Var"}));
}

// ---------------------------------------------------------------- ndim (10, 14, 15)

StructInfo tensor_with_ndim(std::vector<PrimExpr> dims, int ndim) {
  auto* n = make_node<TensorStructInfoNode>();
  n->shape = make_shape_expr(std::move(dims));
  n->dtype = kF32;
  n->ndim = ndim;
  return StructInfo(n);
}

StructInfo shape_with_ndim(std::vector<PrimExpr> values, int ndim) {
  auto* n = make_node<ShapeStructInfoNode>();
  n->values = std::move(values);
  n->ndim = ndim;
  return StructInfo(n);
}

TEST(WellFormed, Rule10VariableAnnotationNdimMismatch) {
  Var x = make_var("x", tensor_with_ndim({i64(2), i64(3)}, 3));
  Var s = make_var("s", shape_with_ndim({i64(2)}, 2));
  Var y = make_var("y", tensor({i64(2), i64(3)}));
  Function main = function({x, s}, seq({block({bind(y, x)})}, y));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            (Messages{"[rule 10] the tensor in the annotation of parameter 'x' has ndim 3 but its "
                      "shape has 2 dimensions",
                      "[rule 10] the shape in the annotation of parameter 's' has ndim 2 but 1 "
                      "values"}));
}

TEST(WellFormed, Rule14And15NdimMismatchOutsideVariableAnnotations) {
  Var x = make_var("x", tensor({i64(2)}));
  Var y = make_var("y", tensor({i64(2)}));
  Var s = make_var("s", shape_sinfo_ndim(-1));
  Function main = function(
      {x},
      seq({block(
              {bind(y, call(op(kPureOp), {x}, tensor({i64(2)}), {tensor_with_ndim({i64(2)}, 2)})),
               make_match_cast(s, make_shape_expr({i64(1)}), shape_with_ndim({i64(1)}, -1))})},
          y));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      (Messages{"[rule 14] the tensor in the sinfo_args of the call in the binding of 'y' has "
                "ndim 2 but its shape has 1 dimensions",
                "[rule 15] the shape in the StructInfo of the R.match_cast bound to 's' has "
                "ndim -1 but 1 values"}));
}

// ---------------------------------------------------------------- Rule 7

TEST(WellFormed, Rule7IfInsideDataflowBlock) {
  Var cond = make_var("cond", prim_sinfo(DataType::Bool()));
  Var x = make_var("x", tensor({i64(4)}));
  Var v = make_var("v", tensor({i64(4)}));
  Function main = function(
      {cond, x}, seq({dataflow({bind(v, if_then_else(cond, seq({}, x), seq({}, x)))})}, v));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 7] an If in the binding of 'v' is inside a dataflow block; dataflow "
                     "blocks are free of control flow"});
}

TEST(WellFormed, Rule7RecursionInsideDataflowBlock) {
  Var x = make_var("x", tensor({i64(4)}));
  Var lv = make_var("lv", tensor({i64(4)}));
  Function f = function(
      {x}, seq({dataflow({bind(lv, call(make_global_var("f"), {x}, x->struct_info))})}, lv));
  // g and h call each other; k only calls g (not recursive with it).
  Var gx = make_var("x", tensor({i64(4)}));
  Var glv = make_var("glv", tensor({i64(4)}));
  Function g = function(
      {gx}, seq({dataflow({bind(glv, call(make_global_var("h"), {gx}, gx->struct_info))})}, glv));
  Var hx = make_var("x", tensor({i64(4)}));
  Var hlv = make_var("hlv", tensor({i64(4)}));
  Function h = function(
      {hx}, seq({block({bind(hlv, call(make_global_var("g"), {hx}, hx->struct_info))})}, hlv));
  Var kx = make_var("x", tensor({i64(4)}));
  Var klv = make_var("klv", tensor({i64(4)}));
  Function k = function(
      {kx}, seq({dataflow({bind(klv, call(make_global_var("g"), {kx}, kx->struct_info))})}, klv));
  EXPECT_EQ(
      messages(module_of({{"f", f}, {"g", g}, {"h", h}, {"k", k}})),
      (Messages{"[rule 7] the call of 'f' in the binding of 'lv' is a recursive call inside a "
                "dataflow block",
                "[rule 7] the call of 'h' in the binding of 'glv' is inside a dataflow block, "
                "and 'h' is mutually recursive with 'g'"}));
}

TEST(WellFormed, Rule7LocalRecursiveFunctionInsideDataflowBlock) {
  Var x = make_var("x", tensor({i64(4)}));
  Var local = make_var("local", func_sinfo({tensor({i64(4)})}, tensor({i64(4)})));
  Var a = make_var("a", tensor({i64(4)}));
  Var lv = make_var("lv", tensor({i64(4)}));
  Function body = function({a}, seq({dataflow({bind(lv, call(local, {a}, a->struct_info))})}, lv));
  Var r = make_var("r", tensor({i64(4)}));
  Function main = function(
      {x}, seq({block({bind(local, body), bind(r, call(local, {x}, x->struct_info))})}, r));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      Messages{"[rule 7] the call of 'local' in the binding of 'lv' is a recursive call inside "
               "a dataflow block"});
}

TEST(WellFormed, Rule7ImpureCalls) {
  Var x = make_var("x", tensor({i64(4)}));
  Var lv = make_var("lv", object_sinfo());
  Var out = make_var("out", object_sinfo());
  Var packed = make_var("packed", object_sinfo());
  // Impure in a dataflow block: an impure operator, and a packed function.
  Function main = function(
      {x}, seq({dataflow({bind(lv, call(op(kImpureOp), {x}, object_sinfo())),
                          bind(packed, call(make_extern_func("ext"), {x}, object_sinfo()))}),
                block({bind(out, call(op(kImpureOp), {x}, object_sinfo()))})},
               x));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      (Messages{"[rule 7] the call of the impure operator R.test.wf.impure in the binding of "
                "'lv' is inside a dataflow block; dataflow blocks are free of side effects",
                "[rule 7] the call of the impure packed function 'ext' in the binding of "
                "'packed' is inside a dataflow block; dataflow blocks are free of side effects",
                "[rule 7] function 'main' is pure, but the binding of 'out' calls the impure "
                "operator R.test.wf.impure; declare the function impure (pure=False) or set "
                "relax.force_pure"}));
}

TEST(WellFormed, Rule7ImpureCallsAllowedOutsideDataflowInImpureOrForcePureFunctions) {
  auto make = [](bool is_pure, Attrs attrs) {
    Var x = make_var("x", tensor({i64(4)}));
    Var out = make_var("out", object_sinfo());
    Var prim = make_var("prim", object_sinfo());
    return function({x},
                    seq({block({bind(out, call(op(kImpureOp), {x}, object_sinfo())),
                                bind(prim, call(make_global_var("kernel"), {x}, object_sinfo()))})},
                        x),
                    {}, is_pure, std::move(attrs));
  };
  tir::Buffer buf = tir::buffer("A", kF32, {i64(4)});
  tir::Var handle = tir::var("a", DataType::Handle());
  auto* kernel = make_node<tir::PrimFuncNode>();
  kernel->params = {handle};
  kernel->buffer_map = {{handle, buf}};
  kernel->body = tir::buffer_store(buf, tir::float_imm(kF32, 0), {i64(0)});
  Ref<Object> prim_func(kernel);
  EXPECT_EQ(messages(module_of({{"f", make(false, {})}, {"kernel", prim_func}})), Messages{});
  Attrs force_pure = Attrs().with("relax.force_pure", AttrValue::boolean(true));
  EXPECT_EQ(messages(module_of({{"f", make(true, force_pure)}, {"kernel", prim_func}})),
            Messages{});
  // Without either, both the impure operator and the direct PrimFunc call are reported.
  EXPECT_EQ(messages(module_of({{"f", make(true, {})}, {"kernel", prim_func}})),
            (Messages{"[rule 7] function 'f' is pure, but the binding of 'out' calls the impure "
                      "operator R.test.wf.impure; declare the function impure (pure=False) or set "
                      "relax.force_pure",
                      "[rule 7] function 'f' is pure, but the binding of 'prim' calls the "
                      "TensorIR function 'kernel' directly, which writes into its arguments; "
                      "use R.call_tir"}));
}

// ---------------------------------------------------------------- Rules 9 and 11

TEST(WellFormed, Rule9OpUsedAsAValue) {
  Var x = make_var("x", tensor({i64(4)}));
  Var f = make_var("f", object_sinfo());
  Var y = make_var("y", tensor({i64(4)}));
  Function main =
      function({x}, seq({block({bind(f, op(kPureOp)),
                                bind(y, call(op(kPureOp), {x, op(kPureOp)}, x->struct_info))})},
                        y));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      (Messages{"[rule 9] Op 'test.wf.pure' is used as a value in the binding of 'f'; an Op may "
                "appear only as the callee of a Call",
                "[rule 9] Op 'test.wf.pure' is used as a value in the binding of 'y'; an Op may "
                "appear only as the callee of a Call"}));
}

TEST(WellFormed, Rule11LocalFunctionCapturesDataflowVar) {
  Var x = make_var("x", tensor({i64(4)}));
  Var lv0 = make_dataflow_var("lv0", tensor({i64(4)}));
  Var a = make_var("a", tensor({i64(4)}));
  Var inner = make_var("inner", tensor({i64(4)}));
  Function local = function(
      {a}, seq({block({bind(inner, call(op(kPureOp), {a, lv0, x}, a->struct_info))})}, inner));
  Var f = make_dataflow_var("f", local->struct_info);
  Var gv = make_var("gv", tensor({i64(4)}));
  Function main = function(
      {x},
      seq({dataflow({bind(lv0, x), bind(f, local), bind(gv, call(f, {x}, x->struct_info))})}, gv));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      Messages{"[rule 11] the local function 'f' uses DataflowVar 'lv0' of the enclosing "
               "dataflow block; a local function may not capture DataflowVars (in the binding "
               "of 'inner')"});
}

// ---------------------------------------------------------------- Rules 13 and 21

TEST(WellFormed, Rule13GlobalSymbolMustMatchTheName) {
  Var x = make_var("x", tensor({i64(4)}));
  Function main = function({x}, seq({}, x), {}, true,
                           Attrs().with("global_symbol", AttrValue::string("entry")), at(2));
  auto* kernel = make_node<tir::PrimFuncNode>();
  kernel->body = tir::evaluate(i64(0));
  kernel->attrs = Attrs().with("global_symbol", AttrValue::string("kernel"));
  DiagnosticList diagnostics =
      check_well_formed(module_of({{"main", main}, {"kernel", Ref<Object>(kernel)}}));
  ASSERT_EQ(diagnostics.all().size(), 1u);
  EXPECT_EQ(diagnostics.all()[0].message,
            "[rule 13] function 'main' has global_symbol 'entry', which differs from its name");
  EXPECT_EQ(diagnostics.all()[0].span.line, 2u);
}

TEST(WellFormed, Rule21ForcePureOnImpureFunction) {
  Var x = make_var("x", tensor({i64(4)}));
  Function main = function({x}, seq({}, x), {}, /*is_pure=*/false,
                           Attrs().with("relax.force_pure", AttrValue::boolean(true)));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            Messages{"[rule 21] function 'main' has the attribute relax.force_pure but is not pure "
                     "(is_pure is false); force_pure may only be set on a pure function"});
}

// ---------------------------------------------------------------- Rules 17-20, 22

TEST(WellFormed, Rule17FuncStructInfoParamsAndDeriveFunc) {
  auto* both = make_node<FuncStructInfoNode>();
  both->params = std::vector<StructInfo>{tensor({i64(4)})};
  both->ret = tensor({i64(4)});
  both->derive_func = "infer_it";
  auto* neither = make_node<FuncStructInfoNode>();
  Var f = make_var("f", StructInfo(both));
  Var g = make_var("g", StructInfo(neither));
  // An opaque function with only a result StructInfo is well formed.
  Var h = make_var("h", opaque_func_sinfo(tensor({i64(4)})));
  Function main = function({f, g, h}, seq({}, f));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      (Messages{"[rule 17] the R.Callable in the annotation of parameter 'f' has both params and "
                "derive_func 'infer_it'; it has one or the other",
                "[rule 17] the R.Callable in the annotation of parameter 'g' has neither params, "
                "derive_func nor a result StructInfo"}));
}

TEST(WellFormed, CallableParamsBindTheirOwnShapeVars) {
  tir::Var n = tir::var("n");
  Var f = make_var("f", func_sinfo({tensor({n})}, tensor({n * 2})));
  Function main = function({f}, seq({}, f));
  EXPECT_EQ(messages(module_of({{"main", main}})), Messages{});
}

TEST(WellFormed, Rule18PrimValueHoldsOnlyImmediates) {
  tir::Var n = tir::var("n");
  Var x = make_var("x", tensor({n}));
  Var a = make_var("a", prim_sinfo(kI64));
  Var b = make_var("b", prim_sinfo(kI64));
  Var c = make_var("c", prim_sinfo(kF32));
  auto prim_value = [](PrimExpr value, DataType dtype) {
    auto* pv = make_node<PrimValueNode>();
    pv->value = std::move(value);
    pv->struct_info = prim_sinfo(dtype);
    return Expr(pv);
  };
  Function main =
      function({x}, seq({block({bind(a, prim_value(n, kI64)), bind(b, prim_value(n + 1, kI64)),
                                bind(c, prim_value(tir::float_imm(kF32, 1.5), kF32))})},
                        x));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            (Messages{"[rule 18] the PrimValue in the binding of 'a' holds the variable 'n'; a "
                      "PrimValue holds only an integer or float immediate of one lane",
                      "[rule 18] the PrimValue in the binding of 'b' holds an Add expression; a "
                      "PrimValue holds only an integer or float immediate of one lane"}));
}

TEST(WellFormed, Rule19And22PrimStructInfo) {
  Var h = make_var("h", prim_sinfo(DataType::Handle()));
  Var p = make_var("p", prim_sinfo(DataType::Int(32), i64(3)));
  Var ok = make_var("ok", prim_sinfo(DataType::Bool(), tir::bool_imm(true)));
  Function main = function({h, p, ok}, seq({}, h));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      (Messages{"[rule 19] the R.Prim in the annotation of parameter 'h' has dtype 'handle'; it "
                "must be an int, uint or float type",
                "[rule 22] the R.Prim in the annotation of parameter 'p' has dtype 'int32' but "
                "its value has dtype 'int64'"}));
}

TEST(WellFormed, Rule20DataTypesOfAnnotations) {
  Var a = make_var("a", tensor_sinfo({i64(4)}, DataType(DataType::Code::Int, 7, 1)));
  Var b = make_var("b", tensor_sinfo({i64(4)}, DataType::Float(32, 4)));
  Var c = make_var("c", tensor_sinfo({i64(4)}, DataType::Handle()));
  Var d = make_var("d", tensor_sinfo({i64(4)}, DataType::Float(8)));
  Var fine = make_var("fine", tuple_sinfo({tensor_sinfo({i64(4)}, DataType::BFloat(16)),
                                           tensor_sinfo({i64(4)}, DataType::Bool()),
                                           tensor_sinfo_ndim(-1, DataType::Void())}));
  Function main = function({a, b, c, d, fine}, seq({}, a));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      (Messages{"[rule 20] the annotation of parameter 'a' uses the data type 'int7'; int and "
                "uint have 1, 8, 16, 32 or 64 bits, float 16, 32 or 64",
                "[rule 20] the annotation of parameter 'b' uses the data type 'float32x4'; Relax "
                "data types have one lane",
                "[rule 20] the annotation of parameter 'c' uses the data type 'handle'; Relax "
                "data types are int, uint, float or void (unknown)",
                "[rule 20] the annotation of parameter 'd' uses the data type 'float8'; int and "
                "uint have 1, 8, 16, 32 or 64 bits, float 16, 32 or 64"}));
}

// ---------------------------------------------------------------- Normal form

TEST(WellFormed, NormalForm1NestedNonLeafExpressions) {
  Var x = make_var("x", tensor({i64(4)}));
  Var y = make_var("y", tensor({i64(4)}));
  Expr pure = op(kPureOp);
  Expr inner = call(pure, {x}, x->struct_info);
  // A nested call in a call, and in a tuple; and a SeqExpr whose result is a call.
  Var t = make_var("t", tuple_sinfo({x->struct_info}));
  Function main = function(
      {x}, seq({block({bind(y, call(pure, {inner}, x->struct_info)), bind(t, tuple({inner}))})},
               call(pure, {y}, x->struct_info)));
  EXPECT_EQ(messages(module_of({{"main", main}})),
            (Messages{"[normal form 1] a Call is nested in the binding of 'y'; non-leaf "
                      "subexpressions must be bound to variables",
                      "[normal form 1] a Call is nested in the binding of 't'; non-leaf "
                      "subexpressions must be bound to variables",
                      "[normal form 1] the return value of function 'main' is a Call, not a leaf "
                      "expression; it must be bound to a variable"}));
}

TEST(WellFormed, NormalForm2And3SeqExprPlacement) {
  Var cond = make_var("cond", prim_sinfo(DataType::Bool()));
  Var x = make_var("x", tensor({i64(4)}));
  Var s = make_var("s", tensor({i64(4)}));
  Var v = make_var("v", tensor({i64(4)}));
  Var inner = make_var("inner", tensor({i64(4)}));
  Function main = function({cond, x}, seq({block({bind(s, seq({block({bind(inner, x)})}, inner)),
                                                  bind(v, if_then_else(cond, x, seq({}, x)))})},
                                          v));
  Var p = make_var("p", tensor({i64(4)}));
  Function bare = function({p}, p);
  EXPECT_EQ(
      messages(module_of({{"main", main}, {"bare", bare}})),
      (Messages{"[normal form 2] a SeqExpr appears in the binding of 's'; a SeqExpr may appear "
                "only as a function body or an If branch",
                "[normal form 3] the true branch of the If in the binding of 'v' is a Var, not "
                "a SeqExpr",
                "[normal form 3] the body of function 'bare' is a Var, not a SeqExpr"}));
}

TEST(WellFormed, NormalForm4BlocksAreConsolidated) {
  Var x = make_var("x", tensor({i64(4)}));
  Var a = make_var("a", tensor({i64(4)}));
  Var b = make_var("b", tensor({i64(4)}));
  Var c = make_var("c", tensor({i64(4)}));
  Function main = function(
      {x},
      seq({dataflow({bind(a, x)}), block({}), dataflow({bind(b, a)}), block({bind(c, b)})}, c));
  EXPECT_EQ(
      messages(module_of({{"main", main}})),
      (Messages{"[normal form 4] the body of function 'main' has an empty binding block; empty "
                "blocks are dropped",
                "[normal form 4] the body of function 'main' has two consecutive dataflow "
                "blocks; consecutive blocks of one kind are merged into one"}));
}

// ---------------------------------------------------------------- Robustness

TEST(WellFormed, NullFieldsAreReportedNotDereferenced) {
  Var x = make_var("x", {});
  Var y = make_var("y", tensor({i64(4)}));
  auto* no_body = make_node<FunctionNode>();
  no_body->params = {make_var("p", tensor({i64(1)}))};
  no_body->struct_info = object_sinfo();
  Function main = function({x}, seq({block({bind(y, Expr())})}, y));
  EXPECT_EQ(
      messages(module_of({{"main", main}, {"no_body", Ref<Object>(no_body)}})),
      (Messages{"[ir] the annotation of parameter 'x' is missing; every variable and "
                "annotation carries StructInfo",
                "[ir] the binding of 'y' has no value", "[ir] function 'no_body' has no body"}));
}

TEST(WellFormed, DeepNestingIsCutOffWithADiagnostic) {
  Var x = make_var("x", tensor({i64(4)}));
  Expr nested = x;
  for (int i = 0; i < 2000; ++i) nested = tuple({nested});
  Var t = make_var("t", nested->struct_info);
  Function main = function({x}, seq({block({bind(t, nested)})}, x));
  Messages found = messages(module_of({{"main", main}}));
  ASSERT_FALSE(found.empty());
  EXPECT_EQ(found[0],
            "[ir] the IR is nested more than 512 levels deep here; the checker does not "
            "look deeper");
}

}  // namespace
}  // namespace relaxc::relax
