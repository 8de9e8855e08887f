// Tests of structural equality, hashing and mismatch reports.
#include "ir/structural_equal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/module.h"
#include "ir/tir/stmt.h"

namespace relaxc {
namespace {

using relax::Expr;
using relax::StructInfo;
using tir::PrimExpr;

const DataType kF32 = DataType::Float(32);
const DataType kI64 = DataType::Int(64);

// Both the verdict and the hash, and the mismatch report agreeing with the verdict.
void expect_equal(const Ref<Object>& a, const Ref<Object>& b) {
  EXPECT_TRUE(structural_equal(a, b)) << structural_mismatch(a, b).value_or("");
  EXPECT_TRUE(structural_equal(b, a));
  EXPECT_EQ(structural_hash(a), structural_hash(b));
  EXPECT_EQ(structural_mismatch(a, b), std::nullopt);
}

void expect_mismatch(const Ref<Object>& a, const Ref<Object>& b, const std::string& report) {
  EXPECT_FALSE(structural_equal(a, b));
  EXPECT_FALSE(structural_equal(b, a));
  EXPECT_NE(structural_hash(a), structural_hash(b));
  EXPECT_EQ(structural_mismatch(a, b).value_or("<equal>"), report);
}

// ---------------------------------------------------------------- Relax builders

Expr op_call(const std::string& op_name, std::vector<Expr> args, StructInfo sinfo) {
  auto* op = make_node<relax::OpNode>();
  op->name = op_name;
  op->struct_info = relax::object_sinfo();
  auto* call = make_node<relax::CallNode>();
  call->op = Expr(op);
  call->args = std::move(args);
  call->struct_info = std::move(sinfo);
  return Expr(call);
}

Expr seq_expr(std::vector<relax::BindingBlock> blocks, Expr body) {
  auto* seq = make_node<relax::SeqExprNode>();
  seq->struct_info = body->struct_info;
  seq->blocks = std::move(blocks);
  seq->body = std::move(body);
  return Expr(seq);
}

relax::Function function(std::vector<relax::Var> params, Expr body, Attrs attrs = {}) {
  auto* fn = make_node<relax::FunctionNode>();
  std::vector<StructInfo> param_sinfo;
  for (const auto& p : params) param_sinfo.push_back(p->struct_info);
  fn->ret_struct_info = body->struct_info;
  fn->struct_info = relax::func_sinfo(std::move(param_sinfo), body->struct_info);
  fn->params = std::move(params);
  fn->body = std::move(body);
  fn->attrs = std::move(attrs);
  return relax::Function(fn);
}

// def main(x: R.Tensor((n, 4)), y: R.Tensor((n, 4))):
//     with R.dataflow():
//         lv0 = R.add(x, y)          # R.add(y, x) when swap_add
//         gv = R.multiply(lv0, x)
//         R.output(gv)
//     return gv
// with every variable named by `prefix`, so that two calls build renamed copies.
relax::Function example_function(const std::string& prefix, bool swap_add = false) {
  tir::Var n = tir::var(prefix + "n");
  StructInfo t = relax::tensor_sinfo({n, tir::int_imm(kI64, 4)}, kF32);
  relax::Var x = relax::make_var(prefix + "x", t);
  relax::Var y = relax::make_var(prefix + "y", t);
  relax::Var lv0 = relax::make_dataflow_var(prefix + "lv0", t);
  relax::Var gv = relax::make_var(prefix + "gv", t);
  Expr add = swap_add ? op_call("relax.add", {y, x}, t) : op_call("relax.add", {x, y}, t);
  relax::BindingBlock block = relax::make_binding_block(
      {relax::make_var_binding(lv0, add),
       relax::make_var_binding(gv, op_call("relax.multiply", {lv0, x}, t))},
      /*dataflow=*/true);
  return function({x, y}, seq_expr({block}, gv));
}

TEST(StructuralEqual, RenamedRelaxFunctionsAreEqual) {
  expect_equal(example_function("a_"), example_function("b_"));
}

TEST(StructuralEqual, SwappedUseInRelaxFunctionIsReported) {
  expect_mismatch(example_function("a_"), example_function("b_", /*swap_add=*/true),
                  "body.blocks[0].bindings[0].value.args[0]: RelaxVar 'a_x' vs RelaxVar "
                  "'b_y': 'a_x' was paired with 'b_x' at params[0]");
}

TEST(StructuralEqual, VariableAnnotationsAreCompared) {
  relax::Var x4 = relax::make_var("x", relax::tensor_sinfo({tir::int_imm(kI64, 4)}, kF32));
  relax::Var x5 = relax::make_var("x", relax::tensor_sinfo({tir::int_imm(kI64, 5)}, kF32));
  expect_mismatch(function({x4}, seq_expr({}, x4)), function({x5}, seq_expr({}, x5)),
                  "params[0].struct_info.shape.values[0].value: 4 vs 5");
}

TEST(StructuralEqual, VarAndDataflowVarDiffer) {
  StructInfo t = relax::tensor_sinfo_ndim(1, kF32);
  expect_mismatch(relax::make_var("x", t), relax::make_dataflow_var("x", t),
                  "<root>: RelaxVar 'x' vs RelaxDataflowVar 'x'");
}

TEST(StructuralEqual, TirVarNeverMatchesRelaxVar) {
  expect_mismatch(tir::var("x"), relax::make_var("x", relax::prim_sinfo(kI64)),
                  "<root>: TirVar 'x' vs RelaxVar 'x'");
}

TEST(StructuralEqual, DataflowBlockDiffersFromBindingBlock) {
  relax::Var x = relax::make_var("x", relax::object_sinfo());
  relax::Var y = relax::make_var("y", relax::object_sinfo());
  Expr a = seq_expr({relax::make_binding_block({relax::make_var_binding(y, x)}, true)}, y);
  Expr b = seq_expr({relax::make_binding_block({relax::make_var_binding(y, x)}, false)}, y);
  expect_mismatch(a, b, "blocks[0]: RelaxDataflowBlock vs RelaxBindingBlock");
}

TEST(StructuralEqual, GlobalVarsAndOpsCompareByName) {
  expect_equal(relax::make_global_var("f"), relax::make_global_var("f"));
  expect_mismatch(relax::make_global_var("f"), relax::make_global_var("g"), "name: \"f\" vs \"g\"");
  relax::Var x = relax::make_var("x", relax::object_sinfo());
  expect_equal(op_call("relax.add", {x, x}, relax::object_sinfo()),
               op_call("relax.add", {x, x}, relax::object_sinfo()));
  expect_mismatch(op_call("relax.add", {x}, relax::object_sinfo()),
                  op_call("relax.subtract", {x}, relax::object_sinfo()),
                  "op.name: \"relax.add\" vs \"relax.subtract\"");
}

TEST(StructuralEqual, FunctionAttributesAreCompared) {
  Attrs main_attrs({{"global_symbol", AttrValue::string("main")}});
  Attrs other_attrs({{"global_symbol", AttrValue::string("other")}});
  relax::Var x = relax::make_var("x", relax::object_sinfo());
  relax::Var y = relax::make_var("y", relax::object_sinfo());
  expect_equal(function({x}, seq_expr({}, x), main_attrs),
               function({y}, seq_expr({}, y), main_attrs));
  expect_mismatch(function({x}, seq_expr({}, x), main_attrs),
                  function({y}, seq_expr({}, y), other_attrs),
                  "attrs[\"global_symbol\"]: \"main\" vs \"other\"");
  expect_mismatch(function({x}, seq_expr({}, x), main_attrs), function({y}, seq_expr({}, y)),
                  "attrs: 1 entries vs 0 (first extra: \"global_symbol\")");
  Attrs list_a({{"axes", AttrValue::int_list({0, 1, 2})}});
  Attrs list_b({{"axes", AttrValue::int_list({0, 3, 2})}});
  expect_mismatch(function({x}, seq_expr({}, x), list_a), function({y}, seq_expr({}, y), list_b),
                  "attrs[\"axes\"][1]: 1 vs 3");
}

TEST(StructuralEqual, DictAttributesCompareKeysThenValues) {
  relax::Var x = relax::make_var("x", relax::object_sinfo());
  auto bounds = [&](std::vector<std::pair<std::string, AttrValue>> entries) {
    return function({x}, seq_expr({}, x),
                    Attrs({{"tir_var_upper_bound", AttrValue::dict_of(std::move(entries))}}));
  };
  // Written in any order, a dict holds its keys sorted.
  expect_equal(bounds({{"n", AttrValue::integer(1024)}, {"m", AttrValue::integer(8)}}),
               bounds({{"m", AttrValue::integer(8)}, {"n", AttrValue::integer(1024)}}));
  expect_mismatch(bounds({{"n", AttrValue::integer(1024)}}),
                  bounds({{"n", AttrValue::integer(2048)}}),
                  "attrs[\"tir_var_upper_bound\"][0]: 1024 vs 2048");
  expect_mismatch(bounds({{"n", AttrValue::integer(1024)}}),
                  bounds({{"m", AttrValue::integer(1024)}}),
                  "attrs[\"tir_var_upper_bound\"]: dict of {\"n\"} vs dict of {\"m\"}");
  // A dict is not the list of its pairs.
  expect_mismatch(
      bounds({{"n", AttrValue::integer(1024)}}),
      function({x}, seq_expr({}, x),
               Attrs({{"tir_var_upper_bound",
                       AttrValue::list_of({AttrValue::list_of(
                           {AttrValue::string("n"), AttrValue::integer(1024)})})}})),
      "attrs[\"tir_var_upper_bound\"]: dict dict of {\"n\"} vs list list of 1");
}

TEST(StructuralEqual, NaNAttributesAreEqual) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  relax::Var x = relax::make_var("x", relax::object_sinfo());
  Attrs a({{"eps", AttrValue::floating(nan)}});
  Attrs b({{"eps", AttrValue::floating(nan)}});
  expect_equal(function({x}, seq_expr({}, x), a), function({x}, seq_expr({}, x), b));
}

TEST(StructuralEqual, ConstantsCompareTheirData) {
  Expr a = relax::make_constant(HostTensor::from_doubles(kF32, {3}, {1, 2, 3}));
  Expr same = relax::make_constant(HostTensor::from_doubles(kF32, {3}, {1, 2, 3}));
  Expr other = relax::make_constant(HostTensor::from_doubles(kF32, {3}, {1, 2, 4}));
  Expr reshaped = relax::make_constant(HostTensor::from_doubles(kF32, {1, 3}, {1, 2, 3}));
  expect_equal(a, same);
  expect_mismatch(a, other, "data: element 2: 3 vs 4");
  expect_mismatch(a, reshaped, "data: shape [3] vs [1, 3]");
}

// ---------------------------------------------------------------- TensorIR

TEST(StructuralEqual, FloatImmediates) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  expect_equal(tir::float_imm(kF32, nan), tir::float_imm(kF32, nan));
  expect_equal(tir::float_imm(kF32, 0.0), tir::float_imm(kF32, -0.0));
  expect_mismatch(tir::float_imm(kF32, 1.5), tir::float_imm(kF32, 2.5), "value: 1.5 vs 2.5");
  expect_mismatch(tir::float_imm(kF32, 1.5), tir::float_imm(DataType::Float(16), 1.5),
                  "dtype: float32 vs float16");
}

TEST(StructuralEqual, FreeVariablesMatchOneToOne) {
  tir::Var x = tir::var("x"), y = tir::var("y"), a = tir::var("a"), b = tir::var("b");
  expect_equal(x + y, a + b);
  expect_equal(x * x, a * a);
  expect_mismatch(x + x, a + b, "b: TirVar 'x' vs TirVar 'b': 'x' was paired with 'a' at a");
  expect_mismatch(x + y, a + a, "b: TirVar 'y' vs TirVar 'a': 'a' was paired with 'x' at a");
  // Swapping the uses of two variables is a different program.
  expect_mismatch(x - y + y, a - b + a,
                  "b: TirVar 'y' vs TirVar 'a': 'y' was paired with 'b' at a.b");
  expect_mismatch(x + 1, tir::var("x", DataType::Int(32)) + 1, "dtype: int64 vs int32");
  expect_mismatch(tir::var("n"), tir::size_var("n"), "is_size_var: false vs true");
}

// def f(a: T.handle, b: T.handle):
//     A = T.match_buffer(a, (n,));  B = T.match_buffer(b, (n,))
//     for i in range(n):  B[i] = A[load_index] + addend
tir::PrimFunc example_prim_func(const std::string& prefix, double addend = 1.0,
                                bool load_from_b = false) {
  tir::Var n = tir::var(prefix + "n");
  tir::Var a = tir::var(prefix + "a", DataType::Handle());
  tir::Var b = tir::var(prefix + "b", DataType::Handle());
  tir::Buffer A = tir::buffer(prefix + "A", kF32, {n});
  tir::Buffer B = tir::buffer(prefix + "B", kF32, {n});
  tir::Var i = tir::var(prefix + "i");
  PrimExpr load = tir::buffer_load(load_from_b ? B : A, {i});
  tir::Stmt body =
      tir::for_loop(i, tir::int_imm(kI64, 0), n, tir::ForKind::Serial,
                    tir::buffer_store(B, tir::add(load, tir::float_imm(kF32, addend)), {i}));
  auto* fn = make_node<tir::PrimFuncNode>();
  fn->params = {a, b};
  fn->buffer_map = {{a, A}, {b, B}};
  fn->body = body;
  return tir::PrimFunc(fn);
}

TEST(StructuralEqual, RenamedPrimFuncsAreEqual) {
  expect_equal(example_prim_func("p_"), example_prim_func("q_"));
}

TEST(StructuralEqual, PrimFuncDifferencesAreReported) {
  expect_mismatch(example_prim_func("p_"), example_prim_func("q_", 2.0),
                  "body.body.value.b.value: 1 vs 2");
  expect_mismatch(example_prim_func("p_"), example_prim_func("q_", 1.0, /*load_from_b=*/true),
                  "body.body.value.a.buffer: TirBuffer 'p_A' vs TirBuffer 'q_B': 'p_A' was "
                  "paired with 'q_A' at buffer_map[0]");
}

TEST(StructuralEqual, ModulesNameTheFunction) {
  relax::GlobalVar f = relax::make_global_var("f");
  relax::GlobalVar main = relax::make_global_var("main");
  IRModule a = make_module({{f, example_prim_func("p_")}, {main, example_function("a_")}});
  IRModule b = make_module({{f, example_prim_func("q_")}, {main, example_function("b_")}});
  IRModule c = make_module({{f, example_prim_func("q_")}, {main, example_function("b_", true)}});
  expect_equal(a, b);
  expect_mismatch(a, c,
                  "functions[1].body.blocks[0].bindings[0].value.args[0]: RelaxVar 'a_x' vs "
                  "RelaxVar 'b_y': 'a_x' was paired with 'b_x' at functions[1].params[0]");
}

TEST(StructuralEqual, NullsAndIdentity) {
  PrimExpr x = tir::var("x");
  EXPECT_TRUE(structural_equal(nullptr, nullptr));
  EXPECT_TRUE(structural_equal(x, x));
  expect_mismatch(x, nullptr, "<root>: TirVar 'x' vs null");
  tir::Stmt with_else = tir::if_then_else(tir::bool_imm(true), tir::evaluate(x), tir::evaluate(x));
  tir::Stmt without_else = tir::if_then_else(tir::bool_imm(true), tir::evaluate(x));
  expect_mismatch(with_else, without_else, "else_case: TirEvaluate vs null");
}

// A chain of 10^5 nested additions: compared and hashed without deep recursion.
TEST(StructuralEqual, DeepChainsDoNotExhaustTheStack) {
  constexpr int kDepth = 100000;
  tir::Var x = tir::var("x"), y = tir::var("y");
  // Every level is kept alive here so that releasing the chain happens one node at a
  // time from the top, instead of recursively through the nodes' destructors.
  std::vector<PrimExpr> a_levels = {x}, b_levels = {y}, c_levels = {y};
  for (int i = 0; i < kDepth; ++i) {
    a_levels.push_back(a_levels.back() + tir::int_imm(kI64, 1));
    b_levels.push_back(b_levels.back() + tir::int_imm(kI64, 1));
    c_levels.push_back(c_levels.back() + tir::int_imm(kI64, i == 0 ? 2 : 1));
  }
  expect_equal(a_levels.back(), b_levels.back());
  std::string path;
  for (int i = 0; i < kDepth - 1; ++i) path += i == 0 ? "a" : ".a";
  expect_mismatch(a_levels.back(), c_levels.back(), path + ".b.value: 1 vs 2");
  while (!a_levels.empty()) a_levels.pop_back();
  while (!b_levels.empty()) b_levels.pop_back();
  while (!c_levels.empty()) c_levels.pop_back();
}

// ---------------------------------------------------------------- Hash consistency

// A random expression over variables v0..v3 and small constants, described by a recipe
// in prefix form ("+ v0 * v1 2"); the same recipe builds renamed copies.
std::string random_recipe(std::mt19937& rng, int depth) {
  std::uniform_int_distribution<int> pick(0, 9);
  int choice = pick(rng);
  if (depth == 0 || choice < 4) {
    if (choice % 2 == 0) return "c" + std::to_string(choice / 2 % 2);
    return "v" + std::to_string(std::uniform_int_distribution<int>(0, 3)(rng));
  }
  const char* ops[] = {"+", "*", "min"};
  std::string op = ops[choice % 3];
  return op + " " + random_recipe(rng, depth - 1) + " " + random_recipe(rng, depth - 1);
}

PrimExpr build(const std::vector<std::string>& tokens, size_t& pos,
               const std::vector<tir::Var>& vars) {
  const std::string& token = tokens[pos++];
  if (token[0] == 'c') return tir::int_imm(kI64, token[1] - '0');
  if (token[0] == 'v') return vars[token[1] - '0'];
  PrimExpr a = build(tokens, pos, vars);
  PrimExpr b = build(tokens, pos, vars);
  if (token == "+") return tir::add(a, b);
  if (token == "*") return tir::mul(a, b);
  return tir::min(a, b);
}

std::vector<std::string> split(const std::string& recipe) {
  std::vector<std::string> tokens;
  size_t start = 0;
  while (start < recipe.size()) {
    size_t end = recipe.find(' ', start);
    if (end == std::string::npos) end = recipe.size();
    tokens.push_back(recipe.substr(start, end - start));
    start = end + 1;
  }
  return tokens;
}

// The recipe with variables renumbered by first occurrence (in prefix order, which is
// the order the comparison meets them): equal canonical forms mean equal up to renaming.
std::string canonical(const std::string& recipe) {
  std::unordered_map<std::string, int> numbers;
  std::string out;
  for (const std::string& token : split(recipe)) {
    std::string t = token;
    if (token[0] == 'v') {
      auto [it, fresh] = numbers.emplace(token, static_cast<int>(numbers.size()));
      t = "v" + std::to_string(it->second);
    }
    out += t + " ";
  }
  return out;
}

TEST(StructuralEqual, HashAgreesWithEqualityOnRandomPairs) {
  std::mt19937 rng(20240611);
  auto fresh_vars = [](const std::string& prefix) {
    std::vector<tir::Var> vars;
    for (int i = 0; i < 4; ++i) vars.push_back(tir::var(prefix + std::to_string(i)));
    return vars;
  };
  int equal_pairs = 0, unequal_pairs = 0, collisions = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string ra = random_recipe(rng, 3);
    std::string rb = trial % 3 == 0 ? ra : random_recipe(rng, 3);
    std::vector<std::string> ta = split(ra), tb = split(rb);
    size_t pa = 0, pb = 0;
    PrimExpr a = build(ta, pa, fresh_vars("a"));
    PrimExpr b = build(tb, pb, fresh_vars("b"));
    bool expected = canonical(ra) == canonical(rb);
    ASSERT_EQ(structural_equal(a, b), expected) << ra << " vs " << rb;
    ASSERT_EQ(structural_mismatch(a, b).has_value(), !expected) << ra << " vs " << rb;
    if (expected) {
      ++equal_pairs;
      ASSERT_EQ(structural_hash(a), structural_hash(b)) << ra << " vs " << rb;
    } else {
      ++unequal_pairs;
      collisions += structural_hash(a) == structural_hash(b);
    }
  }
  EXPECT_GE(equal_pairs, 1000);
  EXPECT_GT(unequal_pairs, 1000);
  EXPECT_EQ(collisions, 0);
}

}  // namespace
}  // namespace relaxc
