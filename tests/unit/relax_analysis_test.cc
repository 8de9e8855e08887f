// Tests of the Relax expression visitor and of the variable analyses built on it.
#include <gtest/gtest.h>
#include <pthread.h>

#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "ir/relax/analysis.h"
#include "ir/relax/expr_visitor.h"

namespace relaxc::relax {
namespace {

const DataType kF32 = DataType::Float(32);
const DataType kI64 = DataType::Int(64);

PrimExpr i64(int64_t v) { return tir::int_imm(kI64, v); }

// Nodes are built directly (no normalizer): these tests are about the walk.
Expr op_call(const std::string& op_name, std::vector<Expr> args, StructInfo sinfo,
             std::vector<StructInfo> sinfo_args = {}) {
  auto* op = make_node<OpNode>();
  op->name = op_name;
  op->struct_info = object_sinfo();
  auto* call = make_node<CallNode>();
  call->op = Expr(op);
  call->args = std::move(args);
  call->sinfo_args = std::move(sinfo_args);
  call->struct_info = std::move(sinfo);
  return Expr(call);
}

Expr call(Expr callee, std::vector<Expr> args, StructInfo sinfo) {
  auto* node = make_node<CallNode>();
  node->op = std::move(callee);
  node->args = std::move(args);
  node->struct_info = std::move(sinfo);
  return Expr(node);
}

Expr tuple(std::vector<Expr> fields) {
  auto* node = make_node<TupleNode>();
  std::vector<StructInfo> sinfo;
  for (const Expr& f : fields) sinfo.push_back(f->struct_info);
  node->struct_info = tuple_sinfo(std::move(sinfo));
  node->fields = std::move(fields);
  return Expr(node);
}

Expr seq_expr(std::vector<BindingBlock> blocks, Expr body) {
  auto* seq = make_node<SeqExprNode>();
  seq->struct_info = body->struct_info;
  seq->blocks = std::move(blocks);
  seq->body = std::move(body);
  return Expr(seq);
}

Function function(std::vector<Var> params, Expr body, StructInfo ret = {}) {
  auto* fn = make_node<FunctionNode>();
  std::vector<StructInfo> param_sinfo;
  for (const auto& p : params) param_sinfo.push_back(p->struct_info);
  fn->ret_struct_info = ret.defined() ? ret : body->struct_info;
  fn->struct_info = func_sinfo(std::move(param_sinfo), fn->ret_struct_info);
  fn->params = std::move(params);
  fn->body = std::move(body);
  return Function(fn);
}

template <typename T>
std::vector<std::string> names(const std::vector<Ref<T>>& vars) {
  std::vector<std::string> result;
  for (const auto& v : vars) result.push_back(v->name);
  return result;
}

using Names = std::vector<std::string>;

// def main(x: R.Tensor((n, 4)), y: R.Tensor((n, 4))) -> R.Tensor((n * 4,)):
//     with R.dataflow():
//         lv0 = R.add(x, y)
//         gv = R.reshape(lv0, R.shape([n * 4]))
//         R.output(gv)
//     return gv
struct Example {
  tir::Var n = tir::var("n");
  StructInfo t = tensor_sinfo({n, i64(4)}, kF32);
  StructInfo flat = tensor_sinfo({n * 4}, kF32);
  Var x = make_var("x", t);
  Var y = make_var("y", t);
  Var lv0 = make_dataflow_var("lv0", t);
  Var gv = make_var("gv", flat);
  Expr body = seq_expr(
      {make_binding_block(
          {make_var_binding(lv0, op_call("relax.add", {x, y}, t)),
           make_var_binding(gv, op_call("relax.reshape", {lv0, make_shape_expr({n * 4})}, flat))},
          /*dataflow=*/true)},
      gv);
  Function main = function({x, y}, body, flat);
};

TEST(RelaxAnalysis, FreeVarsOfAFunctionAndItsBody) {
  Example ex;
  EXPECT_EQ(names(free_vars(ex.main)), Names{});
  EXPECT_EQ(names(free_vars(ex.body)), (Names{"x", "y"}));
  EXPECT_EQ(names(free_vars(op_call("relax.add", {ex.y, ex.x}, ex.t))), (Names{"y", "x"}));
}

TEST(RelaxAnalysis, BoundVarsInOrder) {
  Example ex;
  EXPECT_EQ(names(bound_vars(ex.main)), (Names{"x", "y", "lv0", "gv"}));
  EXPECT_EQ(names(bound_vars(ex.body)), (Names{"lv0", "gv"}));
}

TEST(RelaxAnalysis, FreeVarsOfANestedFunctionIncludeCaptures) {
  Example ex;
  Var p = make_var("p", ex.t);
  Function inner = function({p}, seq_expr({}, op_call("relax.add", {p, ex.x}, ex.t)));
  EXPECT_EQ(names(free_vars(inner)), (Names{"x"}));
}

TEST(RelaxAnalysis, RecursiveLocalFunctionIsNotFree) {
  StructInfo t = tensor_sinfo_ndim(1, kF32);
  Var f = make_var("f", func_sinfo({t}, t));
  Var p = make_var("p", t);
  Var x = make_var("x", t);
  Var r = make_var("r", t);
  Function body_fn = function({p}, seq_expr({}, call(f, {p}, t)));
  Expr outer =
      seq_expr({make_binding_block(
                   {make_var_binding(f, body_fn), make_var_binding(r, call(f, {x}, t))}, false)},
               r);
  EXPECT_EQ(names(free_vars(body_fn)), (Names{"f"}));
  // f is bound by the binding whose value uses it.
  EXPECT_EQ(names(free_vars(outer)), (Names{"x"}));
  EXPECT_EQ(names(bound_vars(outer)), (Names{"p", "f", "r"}));
}

TEST(RelaxAnalysis, ShapeVarsInAnnotationsAreUses) {
  // lv: R.Tensor(s, "float32") where s is a shape variable bound outside.
  Var s = make_var("s", shape_sinfo_ndim(2));
  Var lv = make_var("lv", tensor_sinfo_shape(s, kF32));
  Var x = make_var("x", object_sinfo());
  Expr body = seq_expr({make_binding_block({make_match_cast(lv, x, lv->struct_info)}, false)}, lv);
  EXPECT_EQ(names(free_vars(body)), (Names{"x", "s"}));
}

TEST(RelaxAnalysis, FreeSymbolicVars) {
  Example ex;
  EXPECT_EQ(names(free_symbolic_vars(ex.main)), Names{});
  EXPECT_EQ(names(free_symbolic_vars(ex.body)), (Names{"n"}));
  tir::Var m = tir::var("m"), k = tir::var("k");
  EXPECT_EQ(names(free_symbolic_vars(tensor_sinfo({m * 2, ex.n, m}, kF32))), (Names{"m", "n"}));
  EXPECT_EQ(names(free_symbolic_vars(make_prim_value(k + 1))), (Names{"k"}));
  // A variable that never stands alone in a parameter is not defined by it.
  Var z = make_var("z", tensor_sinfo({k * 2}, kF32));
  EXPECT_EQ(names(free_symbolic_vars(function({z}, seq_expr({}, z)))), (Names{"k"}));
  // Parameters define for each other, in any order.
  Var a = make_var("a", tensor_sinfo({m * k}, kF32));
  Var b = make_var("b", tensor_sinfo({m, k}, kF32));
  EXPECT_EQ(names(free_symbolic_vars(function({a, b}, seq_expr({}, a)))), Names{});
}

TEST(RelaxAnalysis, MatchCastDefinesForTheRestOfItsSeqExpr) {
  tir::Var m = tir::var("m");
  StructInfo pattern = tensor_sinfo({m, m * 2}, kF32);
  Var x = make_var("x", object_sinfo());
  Var before = make_var("before", shape_sinfo({m + 1}));
  Var cast = make_var("cast", pattern);
  Var after = make_var("after", shape_sinfo({m + 1}));
  auto body_with = [&](std::vector<Binding> bindings) {
    return seq_expr({make_binding_block(std::move(bindings), false)}, x);
  };
  Expr shape_use = make_shape_expr({m + 1});
  Expr defined_first =
      body_with({make_match_cast(cast, x, pattern), make_var_binding(after, shape_use)});
  EXPECT_EQ(names(free_symbolic_vars(defined_first)), Names{});
  Expr used_first =
      body_with({make_var_binding(before, shape_use), make_match_cast(cast, x, pattern)});
  EXPECT_EQ(names(free_symbolic_vars(used_first)), (Names{"m"}));
  // Outside the SeqExpr the definition is gone.
  Expr outer = tuple({defined_first, shape_use});
  EXPECT_EQ(names(free_symbolic_vars(outer)), (Names{"m"}));
}

TEST(RelaxAnalysis, FuncStructInfoParamsDefineForIt) {
  tir::Var n = tir::var("n"), k = tir::var("k");
  StructInfo callable = func_sinfo({tensor_sinfo({n}, kF32)}, tensor_sinfo({n * 2, k}, kF32));
  EXPECT_EQ(names(free_symbolic_vars(callable)), (Names{"k"}));
}

TEST(RelaxAnalysis, DefinedSymbolicVars) {
  tir::Var n = tir::var("n"), m = tir::var("m"), k = tir::var("k"), v = tir::var("v");
  EXPECT_EQ(names(defined_symbolic_vars(tensor_sinfo({n, m * 2, i64(4), n}, kF32))), (Names{"n"}));
  EXPECT_EQ(names(defined_symbolic_vars(shape_sinfo({k, n}))), (Names{"k", "n"}));
  EXPECT_EQ(names(defined_symbolic_vars(prim_sinfo(kI64, v))), (Names{"v"}));
  EXPECT_EQ(names(defined_symbolic_vars(prim_sinfo(kI64, v + 1))), Names{});
  EXPECT_EQ(names(defined_symbolic_vars(tuple_sinfo(
                {tensor_sinfo({m}, kF32), tuple_sinfo({prim_sinfo(kI64, v), shape_sinfo({k})})}))),
            (Names{"m", "v", "k"}));
  Var s = make_var("s", shape_sinfo({n, m}));
  EXPECT_EQ(names(defined_symbolic_vars(tensor_sinfo_shape(s, kF32))), Names{});
  EXPECT_EQ(names(defined_symbolic_vars(func_sinfo({shape_sinfo({n})}, object_sinfo()))), Names{});
  EXPECT_EQ(names(defined_symbolic_vars(object_sinfo())), Names{});
}

TEST(RelaxAnalysis, CalledGlobalVars) {
  Example ex;
  GlobalVar exp_a = make_global_var("exp");
  GlobalVar exp_b = make_global_var("exp");
  GlobalVar helper = make_global_var("helper");
  Var lv = make_var("lv", ex.t);
  Var lv2 = make_var("lv2", ex.t);
  Var lv3 = make_var("lv3", ex.t);
  Expr body = seq_expr(
      {make_binding_block(
          {make_var_binding(lv, op_call("relax.call_tir", {exp_a, tuple({ex.x})}, ex.t, {ex.t})),
           make_var_binding(lv2, call(helper, {lv}, ex.t)),
           make_var_binding(lv3, op_call("relax.call_tir", {exp_b, tuple({lv2})}, ex.t, {ex.t}))},
          false)},
      lv3);
  EXPECT_EQ(names(called_global_vars(function({ex.x}, body))), (Names{"exp", "helper"}));
  EXPECT_EQ(names(called_global_vars(ex.main)), Names{});
}

TEST(RelaxAnalysis, PostOrderVisitsChildrenFirst) {
  Example ex;
  std::vector<std::string> kinds;
  post_order_visit(op_call("relax.add", {ex.x, tuple({ex.y})}, ex.t),
                   [&](const Expr& e) { kinds.push_back(node_kind_name(e->kind())); });
  EXPECT_EQ(kinds, (Names{"RelaxOp", "RelaxVar", "RelaxVar", "RelaxTuple", "RelaxCall"}));
}

// Records what each hook sees.
class HookRecorder final : public ExprVisitor {
 public:
  Names events;

 private:
  void visit_var_def(const Var& var) override {
    events.push_back("def " + var->name);
    ExprVisitor::visit_var_def(var);
  }
  void visit_var_use(const Var& var) override { events.push_back("use " + var->name); }
  void visit_prim_expr(const PrimExpr& expr) override {
    if (const auto* v = expr.as<tir::VarNode>()) events.push_back("prim " + v->name);
    if (const int64_t* c = tir::as_const_int(expr)) events.push_back("prim " + std::to_string(*c));
    if (expr.is<tir::MulNode>()) events.push_back("prim mul");
  }
  void visit_binding(const Binding& binding) override {
    events.push_back("binding " + binding->var->name);
    ExprVisitor::visit_binding(binding);
  }
};

TEST(RelaxAnalysis, VisitorHooksSeeDefinitionsUsesAndShapes) {
  Example ex;
  HookRecorder recorder;
  recorder.visit_expr(ex.main);
  EXPECT_EQ(recorder.events, (Names{"def x", "prim n", "prim 4",  // x: R.Tensor((n, 4))
                                    "def y", "prim n", "prim 4",  // y: R.Tensor((n, 4))
                                    "binding lv0", "use x", "use y", "def lv0", "prim n", "prim 4",
                                    "binding gv", "use lv0", "prim mul", "def gv", "prim mul",
                                    "use gv",       // the body
                                    "prim mul"}));  // the return type
}

// Runs fn on a new thread with a 4 MiB stack, so that how deep a walk can go does not
// depend on the test runner's stack limit; rethrows what fn throws.
void run_with_small_stack(const std::function<void()>& fn) {
  struct Job {
    const std::function<void()>* fn;
    std::exception_ptr error;
  } job{&fn, nullptr};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 4 << 20), 0);
  pthread_t thread;
  auto body = [](void* arg) -> void* {
    auto* job = static_cast<Job*>(arg);
    try {
      (*job->fn)();
    } catch (...) {
      job->error = std::current_exception();
    }
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attr, body, &job), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  if (job.error) std::rethrow_exception(job.error);
}

TEST(RelaxAnalysis, DeeplyNestedTuplesAreAUserError) {
  // Released from the top, one level at a time: releasing a long chain at once would
  // recurse through the nodes' destructors.
  std::vector<Expr> levels = {make_var("x", object_sinfo())};
  for (int i = 0; i < 100000; ++i) levels.push_back(tuple({levels.back()}));
  run_with_small_stack([&] { EXPECT_THROW(free_vars(levels.back()), UserError); });
  while (!levels.empty()) levels.pop_back();
}

}  // namespace
}  // namespace relaxc::relax
