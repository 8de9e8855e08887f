// Tests of the normalizer (BlockBuilder) and ExprMutator: normal form, annotation
// checks, purity in dataflow blocks, If and function StructInfo, calls of functions.
#include <gtest/gtest.h>

#include "ir/relax/block_builder.h"
#include "ir/relax/expr_mutator.h"
#include "passes/pass_registry.h"
#include "tests/support/errors.h"

namespace relaxc::relax {
namespace {

const DataType f32 = DataType::Float(32);

PrimExpr I(int64_t v) { return tir::int_imm(DataType::Int(64), v); }

StructInfo tensor(std::vector<PrimExpr> dims, DataType dtype = f32) {
  return tensor_sinfo(std::move(dims), dtype);
}

// Whether `sinfo` is a tensor with exactly the dimensions `expected` (by arith).
::testing::AssertionResult has_shape(const StructInfo& sinfo, std::vector<PrimExpr> expected) {
  const auto* t = sinfo.as<TensorStructInfoNode>();
  if (t == nullptr) return ::testing::AssertionFailure() << "not a tensor";
  const std::vector<PrimExpr>* dims = t->shape_values();
  if (dims == nullptr) return ::testing::AssertionFailure() << "shape unknown, ndim " << t->ndim;
  if (dims->size() != expected.size()) return ::testing::AssertionFailure() << "rank differs";
  arith::Analyzer analyzer;
  for (size_t i = 0; i < dims->size(); ++i) {
    if (!analyzer.can_prove_equal((*dims)[i], expected[i])) {
      return ::testing::AssertionFailure() << "dimension " << i << " differs";
    }
  }
  return ::testing::AssertionSuccess();
}

const SeqExprNode& seq_of(const Expr& e) {
  const auto* seq = e.as<SeqExprNode>();
  EXPECT_NE(seq, nullptr);
  return *seq;
}

const CallNode* call_of(const Binding& b) { return b->value.as<CallNode>(); }

bool is_op_call(const Expr& e, const std::string& op) {
  const auto* call = e.as<CallNode>();
  return call != nullptr && call->op.is<OpNode>() && call->op.as<OpNode>()->name == op;
}

// f(x: R.Tensor((n, 4), "float32")) -> R.Tensor((n * 4,), "float32"): reshape(x, (n * 4,)).
Function make_flatten_function(BlockBuilder& bb, const tir::Var& n, bool pure = true) {
  Var x = make_var("x", tensor({n, I(4)}));
  bb.begin_scope({x});
  bb.begin_block(true);
  Var lv = bb.emit(bb.call_op("relax.reshape", {x, make_shape_expr({n * 4})}), "lv", VarKind::Var);
  bb.end_block();
  Expr body = bb.end_scope(lv);
  return bb.function({x}, body, {}, pure);
}

class NormalizerTest : public ::testing::Test {
 protected:
  void SetUp() override { bb.begin_scope(); }

  BlockBuilder bb;
  tir::Var n = tir::size_var("n");
  tir::Var m = tir::size_var("m");
  Var x = make_var("x", tensor({I(2), I(3)}));
  Var unknown = make_var("u", tensor_sinfo_ndim(2, f32));
};

TEST_F(NormalizerTest, NestedCallsAreBound) {
  bb.begin_block(true);
  Expr inner = bb.call_op("relax.exp", {x});
  Var y = bb.emit(bb.call_op("relax.add", {inner, x}), "y", VarKind::DataflowVar);
  Var z = bb.emit(y, "z");
  bb.end_block();
  Expr scope = bb.end_scope(z);
  const SeqExprNode& seq = seq_of(scope);
  ASSERT_EQ(seq.blocks.size(), 1u);
  const BindingBlock& block = seq.blocks[0];
  EXPECT_TRUE(block->is_dataflow());
  ASSERT_EQ(block->bindings.size(), 3u);
  // The nested exp got a DataflowVar of its own, and the add uses it.
  EXPECT_TRUE(block->bindings[0]->var.is<DataflowVarNode>());
  EXPECT_TRUE(is_op_call(block->bindings[0]->value, "relax.exp"));
  EXPECT_TRUE(call_of(block->bindings[1])->args[0].same_as(block->bindings[0]->var));
  EXPECT_TRUE(block->bindings[1]->var.same_as(y));
  EXPECT_TRUE(seq.body.same_as(z));
  EXPECT_TRUE(has_shape(seq.struct_info, {I(2), I(3)}));
}

TEST_F(NormalizerTest, BlocksAreConsolidated) {
  bb.begin_block(false);
  Var a = bb.emit(bb.call_op("relax.exp", {x}), "a");
  bb.end_block();
  bb.begin_block(false);
  Var b = bb.emit(bb.call_op("relax.exp", {a}), "b");
  bb.end_block();
  bb.begin_block(true);  // empty: dropped
  bb.end_block();
  bb.begin_block(true);
  Var c = bb.emit(bb.call_op("relax.exp", {b}), "c", VarKind::DataflowVar);
  Var d = bb.emit(c, "d");
  bb.end_block();
  bb.begin_block(true);
  Var e = bb.emit(bb.call_op("relax.exp", {d}), "e");
  bb.end_block();
  Var f = bb.emit(bb.call_op("relax.exp", {e}), "f");  // no open block: a plain one
  Expr scope = bb.end_scope(f);
  const SeqExprNode& seq = seq_of(scope);
  ASSERT_EQ(seq.blocks.size(), 3u);
  EXPECT_FALSE(seq.blocks[0]->is_dataflow());
  EXPECT_EQ(seq.blocks[0]->bindings.size(), 2u);
  EXPECT_TRUE(seq.blocks[1]->is_dataflow());
  EXPECT_EQ(seq.blocks[1]->bindings.size(), 3u);
  EXPECT_FALSE(seq.blocks[2]->is_dataflow());
  EXPECT_EQ(seq.blocks[2]->bindings.size(), 1u);

  bb.begin_scope();
  bb.begin_block(true);
  bb.end_block();
  EXPECT_TRUE(seq_of(bb.end_scope(x)).blocks.empty());
}

TEST_F(NormalizerTest, NonLeafBodyIsBoundInAFinalBlock) {
  bb.begin_block(true);
  Var a = bb.emit(bb.call_op("relax.exp", {x}), "a");
  Expr seq_expr = bb.end_scope(bb.call_op("relax.exp", {a}));
  const SeqExprNode& seq = seq_of(seq_expr);
  ASSERT_EQ(seq.blocks.size(), 2u);
  EXPECT_TRUE(seq.blocks[0]->is_dataflow());
  EXPECT_FALSE(seq.blocks[1]->is_dataflow());
  ASSERT_EQ(seq.blocks[1]->bindings.size(), 1u);
  EXPECT_TRUE(seq.body.same_as(seq.blocks[1]->bindings[0]->var));
  EXPECT_TRUE(seq.body.is<VarNode>() && !seq.body.is<DataflowVarNode>());
}

TEST_F(NormalizerTest, NestedSeqExprIsFlattened) {
  bb.begin_scope();
  Var inner_var = bb.emit(bb.call_op("relax.exp", {x}), "inner");
  Expr inner = bb.end_scope(bb.call_op("relax.exp", {inner_var}));
  ASSERT_EQ(seq_of(inner).blocks[0]->bindings.size(), 2u);

  Var v = bb.emit(inner, "v");
  Expr scope = bb.end_scope(v);
  const SeqExprNode& seq = seq_of(scope);
  ASSERT_EQ(seq.blocks.size(), 1u);
  const auto& bindings = seq.blocks[0]->bindings;
  ASSERT_EQ(bindings.size(), 3u);
  EXPECT_TRUE(bindings[0]->var.same_as(inner_var));
  // v is bound to the inner SeqExpr's body.
  EXPECT_TRUE(bindings[2]->var.same_as(v));
  EXPECT_TRUE(bindings[2]->value.same_as(bindings[1]->var));

  // A plain block cannot move into a dataflow block.
  bb.begin_scope();
  bb.begin_scope();
  Var w = bb.emit(bb.call_op("relax.exp", {x}), "w");
  Expr plain = bb.end_scope(w);
  bb.begin_block(true);
  EXPECT_EQ(error_of([&] { bb.emit(plain, "p"); }),
            "a SeqExpr with a non-dataflow block cannot be flattened into a dataflow block");
}

TEST_F(NormalizerTest, NormalizeBindsHandBuiltNesting) {
  // add(exp(x), x), built without the builder: no StructInfo, a nested call.
  auto* inner = make_node<CallNode>();
  inner->op = get_op("relax.exp");
  inner->args = {x};
  auto* outer = make_node<CallNode>();
  outer->op = get_op("relax.add");
  outer->args = {Expr(inner), x};
  Expr normalized = bb.normalize(Expr(outer));
  EXPECT_TRUE(has_shape(normalized->struct_info, {I(2), I(3)}));
  const auto* call = normalized.as<CallNode>();
  ASSERT_NE(call, nullptr);
  EXPECT_TRUE(call->args[0].is<VarNode>());
  Expr scope = bb.end_scope(normalized);
  const SeqExprNode& seq = seq_of(scope);
  ASSERT_EQ(seq.blocks.size(), 1u);
  ASSERT_EQ(seq.blocks[0]->bindings.size(), 2u);
  EXPECT_TRUE(seq.blocks[0]->bindings[0]->var.same_as(call->args[0]));
}

TEST_F(NormalizerTest, AnnotationsMustFit) {
  Expr value = bb.call_op("relax.add", {x, x});
  EXPECT_EQ(error_of([&] {
              bb.emit(value, "y", VarKind::Var, tensor({I(4), I(5)}));
            }),
            "variable 'y': annotation R.Tensor((4, 5), dtype=\"float32\") is incompatible with "
            "the value's StructInfo R.Tensor((2, 3), dtype=\"float32\")");
  // A less specific annotation is what the variable carries.
  StructInfo loose = tensor_sinfo_ndim(2, f32);
  Var y = bb.emit(value, "y", VarKind::Var, loose);
  EXPECT_TRUE(y->struct_info.same_as(loose));
  // A value less specific than its annotation needs a run-time check.
  EXPECT_EQ(error_of([&] {
              bb.emit(unknown, "z", VarKind::Var, tensor({I(2), I(3)}));
            }),
            "variable 'z': the value's StructInfo R.Tensor(dtype=\"float32\", ndim=2) is less "
            "specific than the annotation R.Tensor((2, 3), dtype=\"float32\"); use R.match_cast "
            "to check it at run time");
  EXPECT_EQ(error_of([&] { bb.emit(x, "w", VarKind::DataflowVar); }),
            "DataflowVar 'w' can only be bound inside a dataflow block");
}

TEST_F(NormalizerTest, MatchCastBindsNewShapeVariables) {
  Var y = bb.emit_match_cast(unknown, tensor({m, n}), "y");
  EXPECT_TRUE(has_shape(y->struct_info, {m, n}));
  EXPECT_TRUE(has_shape(bb.call_op("relax.add", {y, y})->struct_info, {m, n}));
  Expr seq_expr = bb.end_scope(y);
  const SeqExprNode& seq = seq_of(seq_expr);
  ASSERT_EQ(seq.blocks.size(), 1u);
  EXPECT_TRUE(seq.blocks[0]->bindings[0].is<MatchCastNode>());
  // m and n were first bound inside this scope: outside it, only the rank is known.
  const auto* t = seq.struct_info.as<TensorStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->ndim, 2);
  EXPECT_FALSE(t->shape.defined());

  bb.begin_scope();
  EXPECT_NE(error_of([&] {
              bb.emit_match_cast(x, tensor({I(4), m}), "z");
            }).find("R.match_cast of 'z' can never succeed"),
            std::string::npos);
  EXPECT_NE(
      error_of([&] { bb.emit_match_cast(x, shape_sinfo_ndim(2), "s"); }).find("can never succeed"),
      std::string::npos);
}

TEST_F(NormalizerTest, ImpureCallsAreRejectedInDataflowBlocks) {
  Attrs format({{"format", AttrValue::string("{}")}});
  // Outside a dataflow block an impure call is fine.
  bb.emit(bb.call_op("relax.print", {x}, {}, format), "_");
  bb.begin_block(true);
  EXPECT_EQ(error_of([&] { bb.emit(bb.call_op("relax.print", {x}, {}, format), "_"); }),
            "R.print is impure and cannot be called inside a dataflow block");
  // Also when the impure call is an argument bound by the normalizer.
  Expr packed = bb.call_op("relax.call_packed", {make_string_imm("f"), x}, {tensor({I(2), I(3)})});
  EXPECT_EQ(error_of([&] {
              bb.emit(bb.call_op("relax.add", {packed, x}), "y");
            }),
            "R.call_packed is impure and cannot be called inside a dataflow block");
  EXPECT_EQ(error_of([&] { bb.emit(bb.call(make_extern_func("g"), {x}), "y"); }),
            "R.ExternFunc(\"g\") is impure and cannot be called inside a dataflow block");
  Expr pure =
      bb.call_op("relax.call_pure_packed", {make_string_imm("f"), x}, {tensor({I(2), I(3)})});
  EXPECT_TRUE(has_shape(bb.emit(pure, "ok")->struct_info, {I(2), I(3)}));
}

TEST_F(NormalizerTest, TuplesAndItems) {
  Expr t = bb.tuple({bb.call_op("relax.exp", {x}), make_shape_expr({n})});
  const auto* tuple = t.as<TupleNode>();
  ASSERT_NE(tuple, nullptr);
  EXPECT_TRUE(tuple->fields[0].is<VarNode>());  // the exp call was bound
  Var tv = bb.emit(t, "t");
  EXPECT_TRUE(has_shape(bb.tuple_get_item(tv, 0)->struct_info, {I(2), I(3)}));
  EXPECT_TRUE(bb.tuple_get_item(tv, 1)->struct_info.is<ShapeStructInfoNode>());
  EXPECT_EQ(error_of([&] { bb.tuple_get_item(tv, 2); }),
            "tuple index 2 is out of range for a tuple of 2 field(s)");
  EXPECT_EQ(error_of([&] { bb.tuple_get_item(x, 0); }),
            "cannot index a value that is not a tuple: its StructInfo is R.Tensor((2, 3), "
            "dtype=\"float32\")");
  Var obj = make_var("o", object_sinfo());
  EXPECT_TRUE(bb.tuple_get_item(obj, 5)->struct_info.is<ObjectStructInfoNode>());
}

TEST_F(NormalizerTest, IfJoinsItsBranches) {
  Var cond = make_var("c", prim_sinfo(DataType::Bool()));
  Var y = make_var("y", tensor({I(2), I(4)}));
  bb.begin_scope();
  Var a = bb.emit(bb.call_op("relax.add", {x, x}), "a");
  Expr then_branch = bb.end_scope(a);
  bb.begin_scope();
  Expr else_branch = bb.end_scope(x);
  Expr same = bb.if_then_else(cond, then_branch, else_branch);
  EXPECT_TRUE(has_shape(same->struct_info, {I(2), I(3)}));

  // Leaf branches are wrapped in SeqExprs; (2, 3) and (2, 4) join to a rank-2 tensor.
  Expr joined = bb.if_then_else(cond, x, y);
  const auto* node = joined.as<IfNode>();
  ASSERT_NE(node, nullptr);
  EXPECT_TRUE(node->true_branch.is<SeqExprNode>());
  EXPECT_TRUE(seq_of(node->false_branch).body.same_as(y));
  const auto* t = joined->struct_info.as<TensorStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->ndim, 2);
  EXPECT_FALSE(t->shape.defined());

  EXPECT_EQ(error_of([&] { bb.if_then_else(x, x, x); }),
            "the condition of an If must be a bool or integer R.Prim or a tensor of one "
            "element, got R.Tensor((2, 3), dtype=\"float32\")");
  Var scalar = make_var("s", tensor({}, DataType::Bool()));
  EXPECT_TRUE(has_shape(bb.if_then_else(scalar, x, x)->struct_info, {I(2), I(3)}));

  // A non-leaf condition is bound first.
  Expr computed_cond = bb.call_op("relax.call_pure_packed", {make_string_imm("pred")},
                                  {prim_sinfo(DataType::Bool())});
  EXPECT_TRUE(bb.if_then_else(computed_cond, x, x).as<IfNode>()->cond.is<VarNode>());
}

TEST_F(NormalizerTest, IfErasesShapeVariablesOfItsBranches) {
  Var cond = make_var("c", prim_sinfo(DataType::Bool()));
  bb.begin_scope();
  Var v = bb.emit_match_cast(unknown, tensor({m, I(3)}), "v");
  Expr then_branch = bb.end_scope(v);
  Expr result = bb.if_then_else(cond, then_branch, x);
  const auto* t = result->struct_info.as<TensorStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->ndim, 2);
  EXPECT_EQ(t->dtype, f32);
  EXPECT_FALSE(t->shape.defined());
}

TEST_F(NormalizerTest, FunctionStructInfo) {
  Function f = make_flatten_function(bb, n);
  const auto* finfo = f->struct_info.as<FuncStructInfoNode>();
  ASSERT_NE(finfo, nullptr);
  ASSERT_TRUE(finfo->params.has_value());
  EXPECT_TRUE(has_shape((*finfo->params)[0], {n, I(4)}));
  EXPECT_TRUE(has_shape(finfo->ret, {n * 4}));
  EXPECT_TRUE(finfo->purity);
  EXPECT_TRUE(has_shape(f->ret_struct_info, {n * 4}));
  EXPECT_TRUE(f->body.is<SeqExprNode>());

  // The body's own shape variables are erased from the result.
  Var p = make_var("p", tensor_sinfo_ndim(1, f32));
  bb.begin_scope({p});
  Var cast = bb.emit_match_cast(p, tensor({m}), "q");
  Function g = bb.function({p}, bb.end_scope(cast));
  const auto* ret = g->struct_info.as<FuncStructInfoNode>()->ret.as<TensorStructInfoNode>();
  ASSERT_NE(ret, nullptr);
  EXPECT_EQ(ret->ndim, 1);
  EXPECT_FALSE(ret->shape.defined());
}

TEST_F(NormalizerTest, FunctionReturnAnnotation) {
  Var p = make_var("p", tensor({I(2), I(4)}));
  bb.begin_scope({p});
  Var r = bb.emit(bb.call_op("relax.flatten", {p}), "r");
  Expr body = bb.end_scope(r);
  EXPECT_EQ(error_of([&] { bb.function({p}, body, tensor({I(9)})); }),
            "the function's return annotation R.Tensor((9,), dtype=\"float32\") does not fit "
            "its body's StructInfo R.Tensor((8,), dtype=\"float32\")");
  Function ok = bb.function({p}, body, tensor({I(8)}));
  EXPECT_TRUE(has_shape(ok->struct_info.as<FuncStructInfoNode>()->ret, {I(8)}));

  // A body less specific than the annotation is checked when the function returns.
  Var q = make_var("q", tensor_sinfo_ndim(1, f32));
  bb.begin_scope({q});
  Expr loose_body = bb.end_scope(q);
  Function checked = bb.function({q}, loose_body, tensor({I(8)}));
  EXPECT_TRUE(has_shape(checked->ret_struct_info, {I(8)}));

  Var dv = make_dataflow_var("d", tensor({I(2)}));
  EXPECT_EQ(error_of([&] { bb.function({dv}, bb.end_scope(dv)); }),
            "function parameter 'd' cannot be a DataflowVar");
}

TEST_F(NormalizerTest, GlobalCallsDeriveTheirResult) {
  BlockBuilder module_bb;
  GlobalVar f_gv = make_global_var("f");
  Function f = make_flatten_function(module_bb, n);
  Function impure = make_flatten_function(module_bb, n, /*pure=*/false);
  GlobalVar impure_gv = make_global_var("impure");
  auto* pf = make_node<tir::PrimFuncNode>();
  pf->body = tir::evaluate(tir::int_imm(DataType::Int(32), 0));
  GlobalVar prim_gv = make_global_var("kernel");
  IRModule module = make_module({{f_gv, f}, {impure_gv, impure}, {prim_gv, tir::PrimFunc(pf)}});

  BlockBuilder caller(module);
  caller.begin_scope();
  // f(x: (n, 4)) -> (n * 4,) called with (m, 4) gives (m * 4,).
  Var y = make_var("y", tensor({m, I(4)}));
  EXPECT_TRUE(has_shape(caller.call(f_gv, {y})->struct_info, {m * 4}));
  EXPECT_TRUE(
      has_shape(caller.call(f_gv, {make_var("c", tensor({I(3), I(4)}))})->struct_info, {I(12)}));
  EXPECT_EQ(error_of([&] { caller.call(f_gv, {y, y}); }), "f takes 1 argument(s), got 2");
  EXPECT_EQ(error_of([&] {
              caller.call(f_gv, {make_var("b", tensor({I(3), I(5)}))});
            }),
            "f: argument 0 does not fit its parameter: expected R.Tensor((n, 4), "
            "dtype=\"float32\"), got R.Tensor((3, 5), dtype=\"float32\")");
  // A direct call of a PrimFunc (destination passing) is opaque and impure: R.Object.
  Expr kernel_call = caller.call(prim_gv, {y});
  EXPECT_TRUE(kernel_call->struct_info.is<ObjectStructInfoNode>());
  EXPECT_EQ(error_of([&] { caller.call(make_global_var("g"), {y}); }),
            "call of unknown function 'g'");

  // A GlobalVar used as a value carries the function's StructInfo.
  Var fn = caller.emit(f_gv, "fn");
  EXPECT_TRUE(fn->struct_info.is<FuncStructInfoNode>());
  EXPECT_TRUE(has_shape(caller.call(fn, {y})->struct_info, {m * 4}));

  caller.begin_block(true);
  EXPECT_EQ(error_of([&] { caller.emit(caller.call(impure_gv, {y}), "z"); }),
            "impure is impure and cannot be called inside a dataflow block");
  EXPECT_EQ(error_of([&] { caller.emit(caller.call(prim_gv, {y}), "k"); }),
            "kernel is impure and cannot be called inside a dataflow block");
  EXPECT_TRUE(has_shape(caller.emit(caller.call(f_gv, {y}), "w")->struct_info, {m * 4}));
  caller.end_block();

  // A function not yet in the module (recursion): its declared StructInfo.
  GlobalVar later = make_global_var("later");
  caller.declare_global(later, func_sinfo({tensor({n})}, tensor({n, n})));
  EXPECT_TRUE(
      has_shape(caller.call(later, {make_var("v", tensor({I(5)}))})->struct_info, {I(5), I(5)}));
}

TEST_F(NormalizerTest, LocalClosureCalls) {
  Function inner = make_flatten_function(bb, n);
  Var closure = bb.emit(inner, "inner");
  EXPECT_TRUE(closure->struct_info.is<FuncStructInfoNode>());
  Var y = make_var("y", tensor({m, I(4)}));
  EXPECT_TRUE(has_shape(bb.call(closure, {y})->struct_info, {m * 4}));
  EXPECT_EQ(error_of([&] { bb.call(x, {y}); }),
            "'x' is not a function: its StructInfo is R.Tensor((2, 3), dtype=\"float32\")");
}

TEST(NormalizeModule, PutsHandBuiltFunctionsInNormalForm) {
  // main(x: (n, 4)) { return exp(flatten(x)) }, with nested calls and no StructInfo.
  tir::Var n = tir::size_var("n");
  Var x = make_var("x", tensor({n, I(4)}));
  auto* flatten = make_node<CallNode>();
  flatten->op = get_op("relax.flatten");
  flatten->args = {x};
  auto* exp = make_node<CallNode>();
  exp->op = get_op("relax.exp");
  exp->args = {Expr(flatten)};
  auto* func = make_node<FunctionNode>();
  func->params = {x};
  func->body = Expr(exp);
  GlobalVar main = make_global_var("main");
  IRModule module = make_module({{main, Function(func)}});

  const PassInfo* pass = find_pass("normalize");
  ASSERT_NE(pass, nullptr);
  PassState state{module, std::nullopt};
  pass->run(state, PassContext{});
  IRModule normalized = state.module;
  Function result = normalized->relax_function("main");
  ASSERT_TRUE(result.defined());
  const SeqExprNode& body = seq_of(result->body);
  ASSERT_EQ(body.blocks.size(), 1u);
  const auto& bindings = body.blocks[0]->bindings;
  ASSERT_EQ(bindings.size(), 2u);
  EXPECT_TRUE(is_op_call(bindings[0]->value, "relax.flatten"));
  EXPECT_TRUE(is_op_call(bindings[1]->value, "relax.exp"));
  EXPECT_TRUE(call_of(bindings[1])->args[0].same_as(bindings[0]->var));
  EXPECT_TRUE(body.body.same_as(bindings[1]->var));
  EXPECT_TRUE(has_shape(result->ret_struct_info, {n * 4}));
  EXPECT_TRUE(has_shape(result->struct_info.as<FuncStructInfoNode>()->ret, {n * 4}));

  // Normalizing again changes nothing that matters: same shape of program.
  pass->run(state, PassContext{});
  Function again = state.module->relax_function("main");
  EXPECT_EQ(seq_of(again->body).blocks[0]->bindings.size(), 2u);
}

// Replaces exp by relu (same StructInfo).
class ExpToRelu : public ExprMutator {
 protected:
  Expr visit_node(const CallNode* node) override {
    Expr rebuilt = ExprMutator::visit_node(node);
    if (!is_op_call(rebuilt, "relax.exp")) return rebuilt;
    return builder_.call_op("relax.nn.relu", rebuilt.as<CallNode>()->args);
  }
};

// Replaces exp by sum (a different StructInfo).
class ExpToSum : public ExprMutator {
 protected:
  Expr visit_node(const CallNode* node) override {
    Expr rebuilt = ExprMutator::visit_node(node);
    if (!is_op_call(rebuilt, "relax.exp")) return rebuilt;
    return builder_.call_op("relax.sum", rebuilt.as<CallNode>()->args);
  }
};

// main(x: (2, 3)) { a = exp(x); b = add(a, a); return b }
Function make_exp_add_function() {
  BlockBuilder bb;
  Var x = make_var("x", tensor({I(2), I(3)}));
  bb.begin_scope({x});
  bb.begin_block(true);
  Var a = bb.emit(bb.call_op("relax.exp", {x}), "a", VarKind::DataflowVar);
  Var b = bb.emit(bb.call_op("relax.add", {a, a}), "b");
  bb.end_block();
  return bb.function({x}, bb.end_scope(b));
}

TEST(ExprMutator, UnchangedFunctionIsTheSameNode) {
  Function f = make_exp_add_function();
  ExprMutator identity;
  EXPECT_TRUE(identity.visit_expr(f).same_as(f));
}

TEST(ExprMutator, KeepsVariablesWhenStructInfoIsUnchanged) {
  Function f = make_exp_add_function();
  Expr rewritten = ExpToRelu().visit_expr(f);
  ASSERT_FALSE(rewritten.same_as(f));
  const auto& before = seq_of(f->body).blocks[0]->bindings;
  const auto& after = seq_of(rewritten.as<FunctionNode>()->body).blocks[0]->bindings;
  ASSERT_EQ(after.size(), 2u);
  EXPECT_TRUE(is_op_call(after[0]->value, "relax.nn.relu"));
  EXPECT_TRUE(after[0]->var.same_as(before[0]->var));
  // The unchanged binding is re-emitted as it was.
  EXPECT_TRUE(after[1].same_as(before[1]));
}

TEST(ExprMutator, RebindsAndReinfersWhenStructInfoChanges) {
  Function f = make_exp_add_function();
  Expr rewritten = ExpToSum().visit_expr(f);
  const auto* g = rewritten.as<FunctionNode>();
  ASSERT_NE(g, nullptr);
  const auto& before = seq_of(f->body).blocks[0]->bindings;
  const auto& after = seq_of(g->body).blocks[0]->bindings;
  ASSERT_EQ(after.size(), 2u);
  EXPECT_TRUE(is_op_call(after[0]->value, "relax.sum"));
  EXPECT_FALSE(after[0]->var.same_as(before[0]->var));
  EXPECT_TRUE(after[0]->var.is<DataflowVarNode>());
  EXPECT_EQ(after[0]->var->name, "a");
  // The add now uses the new variable and has the sum's 0-d result.
  EXPECT_TRUE(call_of(after[1])->args[0].same_as(after[0]->var));
  EXPECT_TRUE(has_shape(after[1]->var->struct_info, {}));
  EXPECT_TRUE(has_shape(g->struct_info.as<FuncStructInfoNode>()->ret, {}));
}

}  // namespace
}  // namespace relaxc::relax
