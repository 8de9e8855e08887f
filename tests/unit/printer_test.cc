// Tests of the text-format printer: IR built with the constructors, printed, and compared
// with the text of docs/text_format.md written out by hand.
#include "ir/text/printer.h"

#include <gtest/gtest.h>

#include <cmath>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "ir/relax/op_registry.h"
#include "ir/text/printer_names.h"

namespace relaxc {
namespace {

using tir::PrimExpr;

const DataType kF32 = DataType::Float(32);
const DataType kI32 = DataType::Int(32);
const DataType kI64 = DataType::Int(64);

PrimExpr i32(int64_t v) { return tir::int_imm(kI32, v); }
PrimExpr i64(int64_t v) { return tir::int_imm(kI64, v); }
PrimExpr f32(double v) { return tir::float_imm(kF32, v); }

std::string print(const PrimExpr& e) { return text::print_node(e); }

// ---------------------------------------------------------------- TIR builders

tir::IterVar iter_var(tir::Var var, PrimExpr min, PrimExpr extent, tir::IterKind kind) {
  auto* n = make_node<tir::IterVarNode>();
  n->var = std::move(var);
  n->dom = tir::range(std::move(min), std::move(extent));
  n->kind = kind;
  return tir::IterVar(n);
}

// The region of `buffer` made of the ranges [min, min + extent), given as (min, extent).
tir::BufferRegion region(tir::Buffer buffer, std::vector<std::pair<PrimExpr, PrimExpr>> ranges) {
  auto* n = make_node<tir::BufferRegionNode>();
  n->buffer = std::move(buffer);
  for (auto& [min, extent] : ranges) n->region.push_back(tir::range(min, extent));
  return tir::BufferRegion(n);
}

struct BlockParts {
  std::string name;
  std::vector<tir::IterVar> iter_vars;
  std::vector<tir::BufferRegion> reads, writes;
  tir::Stmt init;
  tir::Stmt body;
  std::vector<tir::Buffer> alloc_buffers;
  std::vector<tir::MatchBufferRegion> match_buffers;
  Attrs annotations;
};

tir::Block block(BlockParts parts) {
  auto* n = make_node<tir::BlockNode>();
  n->name = std::move(parts.name);
  n->iter_vars = std::move(parts.iter_vars);
  n->reads = std::move(parts.reads);
  n->writes = std::move(parts.writes);
  n->init = std::move(parts.init);
  n->body = std::move(parts.body);
  n->alloc_buffers = std::move(parts.alloc_buffers);
  n->match_buffers = std::move(parts.match_buffers);
  n->annotations = std::move(parts.annotations);
  return tir::Block(n);
}

// The implicit root block the parser builds around a body with blocks.
tir::Stmt root(tir::Stmt body, std::vector<tir::Buffer> alloc_buffers = {}) {
  BlockParts parts{"root"};
  parts.body = std::move(body);
  parts.alloc_buffers = std::move(alloc_buffers);
  return tir::block_realize({}, {}, block(std::move(parts)));
}

tir::PrimFunc prim_func(std::vector<tir::Var> params,
                        std::vector<std::pair<tir::Var, tir::Buffer>> buffer_map, tir::Stmt body,
                        Attrs attrs = {}) {
  auto* n = make_node<tir::PrimFuncNode>();
  n->params = std::move(params);
  n->buffer_map = std::move(buffer_map);
  n->body = std::move(body);
  n->attrs = std::move(attrs);
  return tir::PrimFunc(n);
}

tir::Stmt serial(const tir::Var& v, PrimExpr min, PrimExpr extent, tir::Stmt body) {
  return tir::for_loop(v, std::move(min), std::move(extent), tir::ForKind::Serial, std::move(body));
}

PrimExpr load(const tir::Buffer& b, std::vector<PrimExpr> indices) {
  return tir::buffer_load(b, std::move(indices));
}

Attrs global_symbol(const std::string& name) {
  return Attrs({{"global_symbol", AttrValue::string(name)}});
}

// ---------------------------------------------------------------- Relax builders

// Registers a test operator unless the registry already has it.
void ensure_op(const std::string& name, std::vector<std::string> arg_names, int required,
               std::vector<relax::OpAttrSpec> attrs = {}, std::string sinfo_keyword = {},
               bool pure = true) {
  if (relax::find_op(name) != nullptr) return;
  relax::OpInfo info;
  info.name = name;
  info.arg_names = std::move(arg_names);
  info.num_required_args = required;
  info.attrs = std::move(attrs);
  info.sinfo_args_keyword = std::move(sinfo_keyword);
  info.pure = pure;
  info.infer = [](const relax::CallNode*, const relax::BlockBuilder&) {
    return relax::object_sinfo();
  };
  relax::register_op(std::move(info));
}

void ensure_test_ops() {
  ensure_op("relax.add", {"x1", "x2"}, 2);
  ensure_op("relax.multiply", {"x1", "x2"}, 2);
  ensure_op("relax.nn.relu", {"data"}, 1);
  ensure_op("relax.reshape", {"x", "shape"}, 2);
  ensure_op("relax.call_tir", {"func", "args", "tir_vars"}, 2, {}, "out_sinfo");
  ensure_op("relax.call_dps_packed", {"func", "args"}, 2, {}, "out_sinfo");
  ensure_op("relax.test_printer.reduce", {"x"}, 1,
            {{"axis", AttrValue::none(), false}, {"keepdims", AttrValue::boolean(false), false}});
}

relax::Expr call(const std::string& op, std::vector<relax::Expr> args,
                 relax::StructInfo sinfo = relax::object_sinfo(),
                 std::vector<relax::StructInfo> sinfo_args = {}, Attrs attrs = {}) {
  auto* n = make_node<relax::CallNode>();
  n->op = relax::get_op(op);
  n->args = std::move(args);
  n->sinfo_args = std::move(sinfo_args);
  n->attrs = std::move(attrs);
  n->struct_info = std::move(sinfo);
  return relax::Expr(n);
}

relax::Expr call_expr(relax::Expr callee, std::vector<relax::Expr> args,
                      std::vector<relax::StructInfo> sinfo_args = {}) {
  auto* n = make_node<relax::CallNode>();
  n->op = std::move(callee);
  n->args = std::move(args);
  n->sinfo_args = std::move(sinfo_args);
  n->struct_info = relax::object_sinfo();
  return relax::Expr(n);
}

relax::Expr tuple(std::vector<relax::Expr> fields) {
  auto* n = make_node<relax::TupleNode>();
  std::vector<relax::StructInfo> sinfos;
  for (const relax::Expr& f : fields) sinfos.push_back(f->struct_info);
  n->fields = std::move(fields);
  n->struct_info = relax::tuple_sinfo(std::move(sinfos));
  return relax::Expr(n);
}

relax::Expr tuple_get_item(relax::Expr t, int index) {
  auto* n = make_node<relax::TupleGetItemNode>();
  n->tuple = std::move(t);
  n->index = index;
  n->struct_info = relax::object_sinfo();
  return relax::Expr(n);
}

relax::Expr seq(std::vector<relax::BindingBlock> blocks, relax::Expr body) {
  auto* n = make_node<relax::SeqExprNode>();
  n->struct_info = body->struct_info;
  n->blocks = std::move(blocks);
  n->body = std::move(body);
  return relax::Expr(n);
}

relax::Expr if_expr(relax::Expr cond, relax::Expr then_branch, relax::Expr else_branch) {
  auto* n = make_node<relax::IfNode>();
  n->struct_info = then_branch->struct_info;
  n->cond = std::move(cond);
  n->true_branch = std::move(then_branch);
  n->false_branch = std::move(else_branch);
  return relax::Expr(n);
}

relax::Function function(std::vector<relax::Var> params, relax::Expr body,
                         relax::StructInfo ret = {}, Attrs attrs = {}, bool pure = true) {
  auto* n = make_node<relax::FunctionNode>();
  n->params = std::move(params);
  n->body = std::move(body);
  n->ret_struct_info = std::move(ret);
  n->attrs = std::move(attrs);
  n->is_pure = pure;
  n->struct_info = relax::object_sinfo();
  return relax::Function(n);
}

relax::StructInfo tensor(std::vector<PrimExpr> shape, DataType dtype = kF32) {
  return relax::tensor_sinfo(std::move(shape), dtype);
}

// ---------------------------------------------------------------- TIR expressions

TEST(PrinterExpr, PrecedenceUsesMinimalParentheses) {
  tir::Var a = tir::var("a", kI32), b = tir::var("b", kI32), c = tir::var("c", kI32);
  EXPECT_EQ(print((a + b) * c), "(a + b) * c");
  EXPECT_EQ(print(a + b * c), "a + b * c");
  EXPECT_EQ(print(a - (b - c)), "a - (b - c)");
  EXPECT_EQ(print((a - b) - c), "a - b - c");
  EXPECT_EQ(print(a + (b + c)), "a + (b + c)");
  EXPECT_EQ(print(tir::floordiv(a * b, c)), "a * b // c");
  EXPECT_EQ(print(a * tir::floordiv(b, c)), "a * (b // c)");
  EXPECT_EQ(print(tir::floormod(a + b, c)), "(a + b) % c");
  EXPECT_EQ(print(a * i32(-1)), "a * -1");
}

TEST(PrinterExpr, ComparisonsAndLogic) {
  tir::Var a = tir::var("a", kI32), b = tir::var("b", kI32), c = tir::var("c", kI32);
  PrimExpr lt = tir::lt(a, b);
  PrimExpr ge = tir::ge(b + c, a);
  EXPECT_EQ(print(lt), "a < b");
  EXPECT_EQ(print(tir::eq(lt, tir::lt(b, c))), "(a < b) == (b < c)");
  EXPECT_EQ(print(tir::logical_and(lt, ge)), "a < b and b + c >= a");
  EXPECT_EQ(print(tir::logical_and(tir::logical_or(lt, ge), lt)),
            "(a < b or b + c >= a) and a < b");
  EXPECT_EQ(print(tir::logical_or(lt, tir::logical_and(ge, lt))), "a < b or b + c >= a and a < b");
  EXPECT_EQ(print(tir::logical_not(tir::logical_and(lt, ge))), "not (a < b and b + c >= a)");
  EXPECT_EQ(print(tir::logical_not(lt)), "not a < b");
  EXPECT_EQ(print(tir::logical_and(tir::logical_not(lt), ge)), "not a < b and b + c >= a");
  EXPECT_EQ(print(tir::ne(a, b)), "a != b");
  EXPECT_EQ(print(tir::le(a, b)), "a <= b");
  EXPECT_EQ(print(tir::gt(a, b)), "a > b");
}

TEST(PrinterExpr, TypedLiterals) {
  EXPECT_EQ(print(i32(7)), "7");
  EXPECT_EQ(print(i32(-7)), "-7");
  EXPECT_EQ(print(i64(4)), "T.int64(4)");
  EXPECT_EQ(print(tir::int_imm(DataType::UInt(8), 3)), "T.uint8(3)");
  EXPECT_EQ(print(tir::bool_imm(true)), "True");
  EXPECT_EQ(print(tir::bool_imm(false)), "False");
  EXPECT_EQ(print(f32(0)), "T.float32(0)");
  EXPECT_EQ(print(f32(2.5)), "T.float32(2.5)");
  EXPECT_EQ(print(tir::float_imm(DataType::Float(16), 1)), "T.float16(1)");
  EXPECT_EQ(print(tir::float_imm(DataType::Float(64), -0.0)), "T.float64(-0.0)");
  EXPECT_EQ(print(f32(1e-5)), "T.float32(1e-05)");
  EXPECT_EQ(print(f32(1e20)), "T.float32(1e+20)");
  EXPECT_EQ(print(f32(1.0 / 0.0)), "T.float32(\"inf\")");
  EXPECT_EQ(print(tir::string_imm("say \"hi\"\n")), "\"say \\\"hi\\\"\\n\"");
}

TEST(PrinterExpr, FloatsReadBackToTheSameDouble) {
  const double values[] = {0.1, 1.0 / 3.0, 123456.789, 6.02214076e23, 5e-324, -2.5e-8};
  for (double value : values) {
    std::string text = print(f32(value));
    ASSERT_EQ(text.rfind("T.float32(", 0), 0u) << text;
    std::string digits = text.substr(10, text.size() - 11);
    EXPECT_EQ(std::strtod(digits.c_str(), nullptr), value) << text;
  }
  EXPECT_EQ(print(f32(0.1)), "T.float32(0.1)");
}

TEST(PrinterExpr, CallsCastsAndVectors) {
  tir::Var x = tir::var("x", kF32), y = tir::var("y", kF32);
  tir::Var a = tir::var("a", kI32), b = tir::var("b", kI32);
  EXPECT_EQ(print(tir::call(kF32, "tir.exp", {x})), "T.exp(x)");
  EXPECT_EQ(print(tir::call(kF32, "tir.pow", {x, y})), "T.pow(x, y)");
  EXPECT_EQ(print(tir::call(kF32, "tir.call_extern", {tir::string_imm("my_fn"), x, a})),
            "T.call_extern(\"float32\", \"my_fn\", x, a)");
  EXPECT_EQ(print(tir::call(kF32, "tir.if_then_else", {tir::lt(a, b), x, y})),
            "T.if_then_else(a < b, x, y)");
  EXPECT_EQ(print(tir::truncdiv(a, b)), "T.truncdiv(a, b)");
  EXPECT_EQ(print(tir::truncmod(a + 1, b)), "T.truncmod(a + 1, b)");
  EXPECT_EQ(print(tir::truncdiv(x, y) + x), "x / y + x");
  EXPECT_EQ(print(tir::min(a, b) + tir::max(a, b)), "T.min(a, b) + T.max(a, b)");
  EXPECT_EQ(print(tir::cast(DataType::Float(16), x)), "T.Cast(\"float16\", x)");
  EXPECT_EQ(print(tir::select(tir::lt(a, b), a, b)), "T.Select(a < b, a, b)");
  EXPECT_EQ(print(tir::ramp(a, i32(1), 4)), "T.Ramp(a, 1, 4)");
  EXPECT_EQ(print(tir::broadcast(x, 8)), "T.Broadcast(x, 8)");
  tir::Var v = tir::var("v", kI32);
  // TVM prints a Let with its variable in a where dict (declared elsewhere).
  EXPECT_EQ(print(tir::let(v, a + 1, v * v)), "T.Let(v * v, where={v: a + 1})");
}

TEST(PrinterExpr, NamesAreMadeUniqueAndValid) {
  tir::Var n1 = tir::var("n"), n2 = tir::var("n"), unnamed = tir::var("");
  tir::Var keyword = tir::var("in"), dotted = tir::var("x.y"), digit = tir::var("0a");
  EXPECT_EQ(print(n1 + n2 + n1), "n + n_1 + n");
  EXPECT_EQ(print(unnamed + keyword), "v + in_1");
  EXPECT_EQ(print(dotted * digit), "x_y * _0a");
}

TEST(PrinterNames, SmallestFreeSuffixInScope) {
  std::vector<tir::Var> vars;
  for (int i = 0; i < 6; ++i) vars.push_back(tir::var("x"));
  text::NameTable names;
  EXPECT_EQ(names.define(vars[0].get(), "x", "v"), "x");
  EXPECT_EQ(names.define(vars[0].get(), "other", "v"), "x");  // a node keeps its name
  {
    text::NameScope scope(names);
    EXPECT_EQ(names.define(vars[1].get(), "x", "v"), "x_1");
    EXPECT_EQ(names.define(vars[2].get(), "x", "v"), "x_2");
  }
  EXPECT_EQ(names.find(vars[1].get()), nullptr);
  // x_1 and x_2 are free again; a literal hint "x_1" takes the first of them.
  EXPECT_EQ(names.define(vars[3].get(), "x_1", "v"), "x_1");
  EXPECT_EQ(names.define(vars[4].get(), "x", "v"), "x_2");
  EXPECT_EQ(names.define(vars[5].get(), "", "v"), "v");
  EXPECT_EQ(*names.find(vars[4].get()), "x_2");
}

TEST(PrinterExpr, BufferLoads) {
  tir::Buffer A = tir::buffer("A", kF32, {i32(4), i32(8)});
  tir::Buffer S = tir::buffer("S", kF32, {});
  tir::Var i = tir::var("i", kI32);
  EXPECT_EQ(print(load(A, {i, i + 1}) * load(S, {})), "A[i, i + 1] * S[()]");
}

// ---------------------------------------------------------------- TIR functions

// docs/text_format.md's `exp`: symbolic shapes, so handles and T.match_buffer.
tir::PrimFunc exp_func() {
  tir::Var n = tir::var("n");
  tir::Var var_x = tir::var("var_x", DataType::Handle());
  tir::Var var_y = tir::var("var_y", DataType::Handle());
  tir::Buffer x = tir::buffer("x", kF32, {n, i64(4)});
  tir::Buffer y = tir::buffer("y", kF32, {n, i64(4)});
  tir::Var i = tir::var("i"), j = tir::var("j"), vi = tir::var("vi"), vj = tir::var("vj");
  BlockParts parts{"y"};
  parts.iter_vars = {iter_var(vi, i64(0), n, tir::IterKind::Spatial),
                     iter_var(vj, i64(0), i64(4), tir::IterKind::Spatial)};
  parts.reads = {region(x, {{vi, i64(1)}, {vj, i64(1)}})};
  parts.writes = {region(y, {{vi, i64(1)}, {vj, i64(1)}})};
  parts.body = tir::buffer_store(y, tir::call(kF32, "tir.exp", {load(x, {vi, vj})}), {vi, vj});
  tir::Stmt realize = tir::block_realize({i, j}, {}, block(std::move(parts)));
  tir::Stmt loops = serial(i, i64(0), n, serial(j, i64(0), i64(4), realize));
  return prim_func({var_x, var_y}, {{var_x, x}, {var_y, y}}, root(loops));
}

TEST(PrinterTir, SymbolicFunctionUsesMatchBuffer) {
  EXPECT_EQ(text::print_node(exp_func()), R"(@T.prim_func(private=True)
def main(var_x: T.handle, var_y: T.handle):
    n = T.int64()
    x = T.match_buffer(var_x, (n, T.int64(4)))
    y = T.match_buffer(var_y, (n, T.int64(4)))
    # with T.block("root"):
    for i, j in T.grid(n, T.int64(4)):
        with T.block("y"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(x[vi, vj])
            T.writes(y[vi, vj])
            y[vi, vj] = T.exp(x[vi, vj]))");
}

TEST(PrinterTir, ConstantShapesUseBufferAnnotationsAndInit) {
  tir::Var a = tir::var("a", DataType::Handle()), b = tir::var("b", DataType::Handle());
  tir::Var c = tir::var("c", DataType::Handle());
  tir::Buffer A = tir::buffer("A", kF32, {i32(128), i32(64)});
  tir::Buffer B = tir::buffer("B", DataType::Float(16), {i32(64), i32(128)});
  tir::Buffer C = tir::buffer("C", kF32, {i32(128), i32(128)});
  tir::Var i = tir::var("i", kI32), j = tir::var("j", kI32), k = tir::var("k", kI32);
  tir::Var vi = tir::var("vi", kI32), vj = tir::var("vj", kI32), vk = tir::var("vk", kI32);
  BlockParts parts{"C"};
  parts.iter_vars = {iter_var(vi, i32(0), i32(128), tir::IterKind::Spatial),
                     iter_var(vj, i32(0), i32(128), tir::IterKind::Spatial),
                     iter_var(vk, i32(0), i32(64), tir::IterKind::Reduce)};
  parts.reads = {region(A, {{vi, i32(1)}, {vk, i32(1)}}), region(B, {{vk, i32(1)}, {vj, i32(1)}})};
  parts.writes = {region(C, {{vi, i32(1)}, {vj, i32(1)}})};
  parts.init = tir::buffer_store(C, f32(0), {vi, vj});
  parts.body = tir::buffer_store(
      C, load(C, {vi, vj}) + load(A, {vi, vk}) * tir::cast(kF32, load(B, {vk, vj})), {vi, vj});
  tir::Stmt loops = serial(
      i, i32(0), i32(128),
      serial(
          j, i32(0), i32(128),
          serial(k, i32(0), i32(64), tir::block_realize({i, j, k}, {}, block(std::move(parts))))));
  Attrs attrs(
      {{"global_symbol", AttrValue::string("matmul")}, {"tir.noalias", AttrValue::boolean(true)}});
  tir::PrimFunc f = prim_func({a, b, c}, {{a, A}, {b, B}, {c, C}}, root(loops), attrs);
  IRModule m = make_module({{relax::make_global_var("matmul"), f}});
  EXPECT_EQ(text::print_module(m), R"(# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def matmul(A: T.Buffer((128, 64)), B: T.Buffer((64, 128), "float16"), C: T.Buffer((128, 128))):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i, j, k in T.grid(128, 128, 64):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(A[vi, vk], B[vk, vj])
                T.writes(C[vi, vj])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * T.Cast("float32", B[vk, vj])
)");
}

TEST(PrinterTir, GlobalSymbolOtherThanTheNameIsAnAttribute) {
  tir::PrimFunc f = prim_func({}, {}, tir::evaluate(i32(0)), global_symbol("entry"));
  IRModule m = make_module({{relax::make_global_var("kernel"), f}});
  EXPECT_EQ(text::print_module(m), R"(# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def kernel():
        T.func_attr({"global_symbol": "entry"})
        T.evaluate(0)
)");
}

TEST(PrinterTir, LoopsOfEveryKind) {
  tir::Var n = tir::var("n", kI32), m = tir::var("m", kI32);
  tir::Buffer A = tir::buffer("A", kF32, {n});
  tir::Var i = tir::var("i", kI32);
  auto store = [&](const tir::Var& v) { return tir::buffer_store(A, f32(1), {v}); };
  std::vector<tir::Stmt> loops = {
      serial(i, i32(2), i32(8), store(i)),
      serial(i, m, n, store(i)),
      tir::for_loop(i, i32(0), n, tir::ForKind::Parallel, store(i)),
      tir::for_loop(i, i32(0), i32(4), tir::ForKind::Vectorized, store(i)),
      tir::for_loop(i, i32(0), i32(4), tir::ForKind::Unrolled, store(i)),
      tir::for_loop(i, i32(0), i32(256), tir::ForKind::ThreadBinding, store(i), "threadIdx.x"),
      tir::for_loop(i, i32(1), i32(4), tir::ForKind::ThreadBinding, store(i), "blockIdx.x"),
      tir::for_loop(i, i32(0), i32(4), tir::ForKind::Serial, store(i), {},
                    Attrs({{"pragma_unroll", AttrValue::integer(1)}})),
  };
  EXPECT_EQ(text::print_node(tir::seq_stmt(loops)), R"(for i in range(2, 10):
    A[i] = T.float32(1)
for i in range(m, m + n):
    A[i] = T.float32(1)
for i in T.parallel(n):
    A[i] = T.float32(1)
for i in T.vectorized(4):
    A[i] = T.float32(1)
for i in T.unroll(4):
    A[i] = T.float32(1)
for i in T.thread_binding(256, thread="threadIdx.x"):
    A[i] = T.float32(1)
for i in T.thread_binding(1, 5, thread="blockIdx.x"):
    A[i] = T.float32(1)
for i in T.serial(4, annotations={"pragma_unroll": 1}):
    A[i] = T.float32(1))");
}

TEST(PrinterTir, GridStopsAtDependentOrImperfectNests) {
  tir::Buffer A = tir::buffer("A", kF32, {i32(16), i32(16)});
  tir::Var i = tir::var("i", kI32), j = tir::var("j", kI32), k = tir::var("k", kI32);
  // j's extent depends on i: no T.grid. k's loop follows a statement: its own loop.
  tir::Stmt triangle =
      serial(i, i32(0), i32(16), serial(j, i32(0), i + 1, tir::buffer_store(A, f32(0), {i, j})));
  tir::Stmt imperfect =
      serial(i, i32(0), i32(4),
             tir::seq_stmt({tir::buffer_store(A, f32(0), {i, i}),
                            serial(k, i32(0), i32(4), tir::buffer_store(A, f32(1), {i, k}))}));
  EXPECT_EQ(text::print_node(tir::seq_stmt({triangle, imperfect})), R"(for i in range(16):
    for j in range(i + 1):
        A[i, j] = T.float32(0)
for i in range(4):
    A[i, i] = T.float32(0)
    for k in range(4):
        A[i, k] = T.float32(1))");
}

TEST(PrinterTir, BlockWithExplicitAxesPredicateAndBuffers) {
  tir::Var n = tir::var("n", kI32);
  tir::Buffer A = tir::buffer("A", kF32, {i32(128), i32(64)});
  tir::Buffer B = tir::buffer("B", kF32, {i32(64)});
  tir::Buffer acc = tir::buffer("acc", kF32, {i32(4)}, "local");
  tir::Buffer A_sub = tir::buffer("A_sub", kF32, {i32(4)});
  tir::Var i = tir::var("i", kI32), j = tir::var("j", kI32);
  tir::Var vi = tir::var("vi", kI32), vj = tir::var("vj", kI32), vk = tir::var("vk", kI32);
  auto* match = make_node<tir::MatchBufferRegionNode>();
  match->buffer = A_sub;
  match->source = region(A, {{vi, i32(1)}, {i32(0), i32(4)}});
  BlockParts parts{"B"};
  parts.iter_vars = {iter_var(vi, i32(0), i32(128), tir::IterKind::Spatial),
                     iter_var(vj, i32(2), i32(8), tir::IterKind::Spatial),
                     iter_var(vk, i32(0), i32(64), tir::IterKind::Reduce)};
  parts.reads = {region(A, {{vi, i32(1)}, {i32(0), i32(64)}})};
  parts.writes = {region(B, {{vj, i32(1)}})};
  parts.annotations = Attrs({{"schedule_rule", AttrValue::string("none")}});
  parts.alloc_buffers = {acc};
  parts.match_buffers = {tir::MatchBufferRegion(match)};
  parts.body = tir::buffer_store(B, load(A_sub, {i32(0)}) + load(acc, {i32(0)}), {vj});
  // vi is bound to i but over another domain than i's loop; vj to an expression.
  tir::Stmt realize = tir::block_realize({i, j * 2, j}, tir::lt(i, n), block(std::move(parts)));
  tir::Stmt loops = serial(i, i32(0), i32(64), serial(j, i32(0), i32(64), realize));
  EXPECT_EQ(text::print_node(loops), R"(for i, j in T.grid(64, 64):
    with T.block("B"):
        vi = T.axis.spatial(128, i)
        vj = T.axis.spatial((2, 10), j * 2)
        vk = T.axis.reduce(64, j)
        T.where(i < n)
        T.reads(A[vi, 0:64])
        T.writes(B[vj])
        T.block_attr({"schedule_rule": "none"})
        acc = T.alloc_buffer((4,), scope="local")
        A_sub = T.match_buffer(A[vi, 0:4], (4,))
        B[vj] = A_sub[0] + acc[0])");
}

TEST(PrinterTir, RemapGroupsConsecutiveLoopBoundAxes) {
  tir::Buffer A = tir::buffer("A", kF32, {i32(8), i32(8), i32(8)});
  tir::Var i = tir::var("i", kI32), j = tir::var("j", kI32), k = tir::var("k", kI32);
  tir::Var vi = tir::var("vi", kI32), vj = tir::var("vj", kI32), vk = tir::var("vk", kI32);
  BlockParts parts{"A"};
  parts.iter_vars = {iter_var(vi, i32(0), i32(8), tir::IterKind::Spatial),
                     iter_var(vj, i32(0), i32(8), tir::IterKind::Spatial),
                     iter_var(vk, i32(0), i32(8), tir::IterKind::Spatial)};
  parts.writes = {region(A, {{vi, i32(1)}, {vj, i32(1)}, {vk, i32(1)}})};
  parts.body = tir::buffer_store(A, f32(0), {vi, vj, vk});
  tir::Stmt realize = tir::block_realize({i, j, k + 0}, {}, block(std::move(parts)));
  tir::Stmt loops =
      serial(i, i32(0), i32(8), serial(j, i32(0), i32(8), serial(k, i32(0), i32(8), realize)));
  EXPECT_EQ(text::print_node(loops), R"(for i, j, k in T.grid(8, 8, 8):
    with T.block("A"):
        vi, vj = T.axis.remap("SS", [i, j])
        vk = T.axis.spatial(8, k + 0)
        T.reads()
        T.writes(A[vi, vj, vk])
        A[vi, vj, vk] = T.float32(0))");
}

TEST(PrinterTir, ControlFlowLetAndAllocate) {
  tir::Var n = tir::var("n", kI32);
  tir::Buffer A = tir::buffer("A", kF32, {n});
  tir::Buffer shared = tir::buffer("S", kF32, {i32(32)}, "shared");
  tir::Var x = tir::var("x", kI32), y = tir::var("y", kI32);
  tir::Stmt branch = tir::if_then_else(tir::lt(n, i32(4)), tir::buffer_store(A, f32(0), {i32(0)}),
                                       tir::buffer_store(A, f32(1), {i32(0)}));
  tir::Stmt then_only = tir::if_then_else(tir::gt(n, i32(0)), tir::evaluate(n));
  tir::Stmt loop = tir::while_loop(tir::lt(n, i32(8)), tir::evaluate(i32(0)));
  // A let in the middle of a sequence keeps its scope; the last one is an assignment.
  tir::Stmt inner_let = tir::let_stmt(y, n * 2, tir::buffer_store(A, f32(2), {y}));
  tir::Stmt alloc = tir::allocate(shared, tir::buffer_store(shared, load(A, {x}), {x}));
  tir::Stmt tail_let = tir::let_stmt(x, n + 1, alloc);
  EXPECT_EQ(text::print_node(tir::seq_stmt({branch, then_only, loop, inner_let, tail_let})),
            R"(if n < 4:
    A[0] = T.float32(0)
else:
    A[0] = T.float32(1)
if n > 0:
    T.evaluate(n)
while n < 8:
    T.evaluate(0)
with T.LetStmt(n * 2) as y:
    A[y] = T.float32(2)
x: T.int32 = n + 1
S = T.alloc_buffer((32,), scope="shared")
S[x] = A[x])");
}

TEST(PrinterTir, SiblingScopesReuseNamesNestedOnesDoNot) {
  tir::Buffer A = tir::buffer("A", kF32, {i32(4), i32(4)});
  tir::Var i1 = tir::var("i", kI32), i2 = tir::var("i", kI32), i3 = tir::var("i", kI32);
  tir::Stmt first = serial(i1, i32(0), i32(4), tir::buffer_store(A, f32(0), {i1, i1}));
  // i3 is inside i2's loop: a distinct variable with a hint already in use.
  tir::Stmt second = tir::for_loop(i2, i32(0), i32(4), tir::ForKind::Parallel,
                                   tir::for_loop(i3, i32(0), i32(4), tir::ForKind::Parallel,
                                                 tir::buffer_store(A, f32(1), {i2, i3})));
  EXPECT_EQ(text::print_node(tir::seq_stmt({first, second})), R"(for i in range(4):
    A[i, i] = T.float32(0)
for i in T.parallel(4):
    for i_1 in T.parallel(4):
        A[i, i_1] = T.float32(1))");
}

TEST(PrinterTir, RootBuffersFreeVariablesAndScalarParams) {
  tir::Var n = tir::var("n", kI32);
  tir::Var m = tir::size_var("m");
  tir::Var a = tir::var("a", DataType::Handle());
  tir::Buffer A = tir::buffer("A", kF32, {m});
  tir::Buffer tmp = tir::buffer("tmp", kF32, {i32(16)});
  tir::Var i = tir::var("i"), vi = tir::var("vi");
  BlockParts parts{"tmp"};
  parts.iter_vars = {iter_var(vi, i64(0), m, tir::IterKind::Spatial)};
  parts.reads = {region(A, {{vi, i64(1)}})};
  parts.writes = {region(tmp, {{i32(0), i32(1)}})};
  parts.body = tir::buffer_store(tmp, load(A, {vi}) * tir::cast(kF32, n), {i32(0)});
  tir::Stmt body = serial(i, i64(0), m, tir::block_realize({i}, {}, block(std::move(parts))));
  // n is a scalar parameter; m is free (declared at the top).
  tir::PrimFunc f = prim_func({a, n}, {{a, A}}, root(body, {tmp}), global_symbol("scale"));
  EXPECT_EQ(text::print_node(f), R"(@T.prim_func
def scale(a: T.handle, n: T.int32):
    m = T.int64(is_size_var=True)
    A = T.match_buffer(a, (m,))
    # with T.block("root"):
    tmp = T.alloc_buffer((16,))
    for i in range(m):
        with T.block("tmp"):
            vi = T.axis.spatial(m, i)
            T.reads(A[vi])
            T.writes(tmp[0])
            tmp[0] = A[vi] * T.Cast("float32", n))");
}

TEST(PrinterTir, HandleUsedInTheBodyKeepsTheMatchBufferForm) {
  tir::Var a = tir::var("a", DataType::Handle());
  tir::Buffer A = tir::buffer("A", kF32, {i32(8)});
  tir::Stmt body = tir::evaluate(tir::call(kI32, "tir.call_extern", {tir::string_imm("f"), a}));
  tir::PrimFunc f = prim_func({a}, {{a, A}}, body, global_symbol("g"));
  EXPECT_EQ(text::print_node(f), R"(@T.prim_func
def g(a: T.handle):
    A = T.match_buffer(a, (8,))
    T.evaluate(T.call_extern("int32", "f", a)))");
}

TEST(PrinterTir, SingleNodes) {
  tir::Buffer A = tir::buffer("A", DataType::Int(8), {i32(4), i32(64)}, "shared");
  tir::Var v = tir::var("vi", kI32);
  EXPECT_EQ(text::print_node(A), "A: T.Buffer((4, 64), \"int8\", scope=\"shared\")");
  EXPECT_EQ(text::print_node(region(A, {{v, i32(1)}, {i32(0), i32(64)}})), "A[vi, 0:64]");
  EXPECT_EQ(text::print_node(tir::range(i32(2), i32(6))), "2:8");
  EXPECT_EQ(text::print_node(iter_var(v, i32(0), i32(16), tir::IterKind::Reduce)),
            "vi = T.axis.reduce(16)");
}

// A chain of `depth` additions x + 1 + 1 ...; every level is kept in `levels`, so that
// releasing them one at a time from the top never recurses through the destructors.
PrimExpr chain(const tir::Var& x, int depth, std::vector<PrimExpr>& levels) {
  levels.push_back(x);
  for (int i = 0; i < depth; ++i) levels.push_back(levels.back() + 1);
  return levels.back();
}

void release(std::vector<PrimExpr>& levels) {
  while (!levels.empty()) levels.pop_back();
}

TEST(PrinterTir, DeepNestingIsPrintedOrReportedNeverACrash) {
  tir::Var x = tir::var("x", kI32);
  std::vector<PrimExpr> levels;
  // 300 levels fit the stack guard's margin in every build (sanitizers included).
  std::string text = print(chain(x, 300, levels));
  EXPECT_EQ(text.substr(0, 9), "x + 1 + 1");
  EXPECT_EQ(text.size(), 1 + 4 * 300u);
  release(levels);
  PrimExpr deep = chain(x, 100000, levels);
  try {
    print(deep);
    FAIL() << "expected a UserError";
  } catch (const UserError& error) {
    EXPECT_NE(std::string(error.what()).find("nests too deeply"), std::string::npos)
        << error.what();
  }
  deep = PrimExpr();
  release(levels);
}

// Lets over the rest of their body print flat, at any length (as the parser folds them).
TEST(PrinterTir, LongLetChainsPrintFlat) {
  constexpr int kLets = 20000;
  tir::Buffer A = tir::buffer("A", kI32, {i32(1)});
  std::vector<tir::Var> vars;
  for (int i = 0; i < kLets; ++i) vars.push_back(tir::var("x", kI32));
  std::vector<tir::Stmt> levels = {tir::buffer_store(A, vars.back(), {i32(0)})};
  for (int i = kLets - 1; i >= 0; --i) {
    PrimExpr value = i == 0 ? i32(0) : vars[i - 1] + 1;
    levels.push_back(tir::let_stmt(vars[i], value, levels.back()));
  }
  std::string text = text::print_node(levels.back());
  std::string expected = "x: T.int32 = 0\nx_1: T.int32 = x + 1\nx_2: T.int32 = x_1 + 1\n";
  EXPECT_EQ(text.substr(0, expected.size()), expected);
  std::string last_line = "A[0] = x_" + std::to_string(kLets - 1);
  EXPECT_EQ(text.substr(text.size() - last_line.size()), last_line);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), kLets);
  while (!levels.empty()) levels.pop_back();
}

// ---------------------------------------------------------------- Relax

std::string print(const relax::StructInfo& s) { return text::print_node(s); }
std::string print(const relax::Expr& e) { return text::print_node(e); }

TEST(PrinterRelax, StructInfoForms) {
  tir::Var n = tir::var("n");
  relax::StructInfo t = tensor({n, i64(4)});
  EXPECT_EQ(print(relax::object_sinfo()), "R.Object");
  EXPECT_EQ(print(relax::prim_sinfo(kI64)), "R.Prim(\"int64\")");
  EXPECT_EQ(print(relax::prim_sinfo(kI64, n)), "R.Prim(value=n)");
  EXPECT_EQ(print(relax::prim_sinfo(kI64, i64(3))), "R.Prim(value=T.int64(3))");
  EXPECT_EQ(print(relax::prim_sinfo(kI32, i32(3))), "R.Prim(value=T.int32(3))");
  EXPECT_EQ(print(relax::shape_sinfo({n, i64(4)})), "R.Shape([n, 4])");
  EXPECT_EQ(print(relax::shape_sinfo({i32(4)})), "R.Shape([T.int32(4)])");
  EXPECT_EQ(print(relax::shape_sinfo_ndim(2)), "R.Shape(ndim=2)");
  EXPECT_EQ(print(relax::shape_sinfo_ndim(-1)), "R.Shape");
  EXPECT_EQ(print(t), "R.Tensor((n, 4), dtype=\"float32\")");
  EXPECT_EQ(print(tensor({n}, DataType::Void())), "R.Tensor((n,))");
  EXPECT_EQ(print(tensor({})), "R.Tensor((), dtype=\"float32\")");
  EXPECT_EQ(print(relax::tensor_sinfo_ndim(2, kF32)), "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(print(relax::tensor_sinfo_ndim(2, DataType::Void())), "R.Tensor(ndim=2)");
  EXPECT_EQ(print(relax::tensor_sinfo_ndim(-1, DataType::Float(16))),
            "R.Tensor(dtype=\"float16\")");
  EXPECT_EQ(print(relax::tensor_sinfo_ndim(-1, DataType::Void())), "R.Tensor");
  relax::Var s = relax::make_var("s", relax::shape_sinfo_ndim(2));
  EXPECT_EQ(print(relax::tensor_sinfo_shape(s, kF32)), "R.Tensor(s, dtype=\"float32\")");
  EXPECT_EQ(print(relax::tuple_sinfo({t, relax::shape_sinfo({n})})),
            "R.Tuple(R.Tensor((n, 4), dtype=\"float32\"), R.Shape([n]))");
  EXPECT_EQ(print(relax::tuple_sinfo({})), "R.Tuple");
  EXPECT_EQ(print(relax::func_sinfo({t}, t, true)),
            "R.Callable((R.Tensor((n, 4), dtype=\"float32\"),), R.Tensor((n, 4), "
            "dtype=\"float32\"), True)");
  EXPECT_EQ(print(relax::func_sinfo({}, relax::object_sinfo(), false)),
            "R.Callable((), R.Object, False)");
  EXPECT_EQ(print(relax::opaque_func_sinfo(relax::object_sinfo(), false)),
            "R.Callable(purity=False)");
  EXPECT_EQ(print(relax::opaque_func_sinfo(t, true, "my.derive")),
            "R.Callable(ret=R.Tensor((n, 4), dtype=\"float32\"), derive_func=\"my.derive\")");
}

TEST(PrinterRelax, LeafExpressions) {
  tir::Var n = tir::var("n");
  relax::Var a = relax::make_var("a", relax::object_sinfo());
  relax::Var b = relax::make_var("b", relax::object_sinfo());
  EXPECT_EQ(print(relax::make_constant(HostTensor::from_doubles(kF32, {}, {1.0}))),
            "R.const(1.0, \"float32\")");
  EXPECT_EQ(print(relax::make_constant(HostTensor::from_doubles(kF32, {}, {0.1}))),
            "R.const(0.1, \"float32\")");
  EXPECT_EQ(print(relax::make_constant(HostTensor::from_doubles(kI32, {2, 2}, {1, 2, 3, 4}))),
            "R.const([[1, 2], [3, 4]], \"int32\")");
  // Integers truncate toward zero and saturate to the dtype's range (NaN: 0).
  EXPECT_EQ(print(relax::make_constant(HostTensor::from_doubles(
                kI32, {5}, {7.2e22, -7.2e22, std::nan(""), 2.9, -2.9}))),
            "R.const([2147483647, -2147483648, 0, 2, -2], \"int32\")");
  EXPECT_EQ(print(relax::make_constant(
                HostTensor::from_doubles(DataType::UInt(8), {3}, {-5, 300, 255.5}))),
            "R.const([0, 255, 255], \"uint8\")");
  // Narrow floats print the fewest digits that convert back to the same bits.
  EXPECT_EQ(print(relax::make_constant(
                HostTensor::from_doubles(DataType::Float(16), {3}, {0.1, -2, 65504}))),
            "R.const([0.1, -2.0, 65500.0], \"float16\")");
  EXPECT_EQ(
      print(relax::make_constant(HostTensor::from_doubles(DataType::BFloat(16), {}, {3.140625}))),
      "R.const(3.141, \"bfloat16\")");
  EXPECT_EQ(print(relax::make_constant(HostTensor::from_doubles(DataType::Bool(), {2}, {1, 0}))),
            "R.const([True, False], \"bool\")");
  EXPECT_EQ(print(relax::make_constant(HostTensor::from_doubles(kF32, {2, 0}, {}))),
            "R.const([[], []], \"float32\")");
  EXPECT_EQ(print(tuple({a, b})), "(a, b)");
  EXPECT_EQ(print(tuple({a})), "(a,)");
  EXPECT_EQ(print(tuple({})), "()");
  EXPECT_EQ(print(tuple_get_item(a, 1)), "a[1]");
  EXPECT_EQ(print(relax::make_shape_expr({n, i64(4)})), "R.shape([n, 4])");
  EXPECT_EQ(print(relax::make_prim_value(i64(3))), "R.prim_value(T.int64(3))");
  EXPECT_EQ(print(relax::make_prim_value(n + 1)), "R.prim_value(n + T.int64(1))");
  EXPECT_EQ(print(relax::make_prim_value(f32(0.5))), "R.prim_value(T.float32(0.5))");
  // Found by tests/fuzz/fuzz_parser: an int32 printed bare ("R.prim_value(3)") read back
  // as int64 ("bindings[1].var.struct_info.dtype: int32 vs int64").
  EXPECT_EQ(print(relax::make_prim_value(i32(3))), "R.prim_value(T.int32(3))");
  EXPECT_EQ(print(relax::make_string_imm("a \"b\"")), "R.str(\"a \\\"b\\\"\")");
  EXPECT_EQ(print(relax::make_data_type_imm(DataType::Float(16))), "R.dtype(\"float16\")");
  EXPECT_EQ(print(relax::make_extern_func("my_func")), "R.ExternFunc(\"my_func\")");
}

TEST(PrinterRelax, Calls) {
  ensure_test_ops();
  tir::Var n = tir::var("n");
  relax::Var x = relax::make_var("x", tensor({n}));
  relax::Var y = relax::make_var("y", tensor({i64(4)}, kI32));
  relax::GlobalVar f = relax::make_global_var("f");
  EXPECT_EQ(print(call("relax.nn.relu", {x})), "R.nn.relu(x)");
  EXPECT_EQ(print(call("relax.add", {x, x})), "R.add(x, x)");
  // Attributes come out in the operator's order, whatever order the call holds them in.
  Attrs attrs({{"keepdims", AttrValue::boolean(false)}, {"axis", AttrValue::int_list({1})}});
  EXPECT_EQ(print(call("relax.test_printer.reduce", {x}, relax::object_sinfo(), {}, attrs)),
            "R.test_printer.reduce(x, axis=[1], keepdims=False)");
  // An attribute left out of the call whose default is None prints as None, as in TVM.
  Attrs keepdims_only({{"keepdims", AttrValue::boolean(true)}});
  EXPECT_EQ(
      print(call("relax.test_printer.reduce", {x}, relax::object_sinfo(), {}, keepdims_only)),
      "R.test_printer.reduce(x, axis=None, keepdims=True)");
  EXPECT_EQ(print(call("relax.call_tir", {f, tuple({x})}, relax::object_sinfo(), {tensor({n})})),
            "R.call_tir(cls.f, (x,), out_sinfo=R.Tensor((n,), dtype=\"float32\"))");
  EXPECT_EQ(print(call("relax.call_tir", {f, tuple({x, y}), relax::make_shape_expr({n})},
                       relax::object_sinfo(),
                       {relax::tuple_sinfo({tensor({n}), tensor({i64(4)}, kI32)})})),
            "R.call_tir(cls.f, (x, y), out_sinfo=[R.Tensor((n,), dtype=\"float32\"), "
            "R.Tensor((4,), dtype=\"int32\")], tir_vars=R.shape([n]))");
  EXPECT_EQ(print(call("relax.call_dps_packed", {relax::make_extern_func("my_kernel"), tuple({x})},
                       relax::object_sinfo(), {tensor({n})})),
            "R.call_dps_packed(\"my_kernel\", (x,), out_sinfo=R.Tensor((n,), "
            "dtype=\"float32\"))");
  EXPECT_EQ(print(call_expr(relax::make_extern_func("vm.print"), {x, y}, {relax::object_sinfo()})),
            "R.call_packed(\"vm.print\", x, y, sinfo_args=(R.Object,))");
  relax::Var g = relax::make_var("g", relax::func_sinfo({tensor({n})}, tensor({n})));
  EXPECT_EQ(print(call_expr(f, {x})), "cls.f(x)");
  EXPECT_EQ(print(call_expr(g, {x})), "g(x)");
}

// docs/text_format.md's module: a PrimFunc and a Relax function calling it.
TEST(PrinterRelax, ModuleOfTheContract) {
  ensure_test_ops();
  tir::Var n = tir::var("n");
  relax::Var x = relax::make_var("x", tensor({n, i64(4)}));
  relax::GlobalVar exp = relax::make_global_var("exp");
  relax::Var lv0 = relax::make_dataflow_var("lv0", tensor({n, i64(4)}));
  relax::Var lv1 = relax::make_var("lv1", tensor({n * 4}));
  relax::Expr tir_call =
      call("relax.call_tir", {exp, tuple({x})}, tensor({n, i64(4)}), {tensor({n, i64(4)})});
  relax::Expr reshape =
      call("relax.reshape", {lv0, relax::make_shape_expr({n * 4})}, tensor({n * 4}));
  relax::BindingBlock block = relax::make_binding_block(
      {relax::make_var_binding(lv0, tir_call), relax::make_var_binding(lv1, reshape)}, true);
  relax::Function main = function({x}, seq({block}, lv1), tensor({n * 4}), global_symbol("main"));
  IRModule m = make_module({{exp, exp_func()}, {relax::make_global_var("main"), main}});
  EXPECT_EQ(text::print_module(m), R"(# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(var_x: T.handle, var_y: T.handle):
        n = T.int64()
        x = T.match_buffer(var_x, (n, T.int64(4)))
        y = T.match_buffer(var_y, (n, T.int64(4)))
        # with T.block("root"):
        for i, j in T.grid(n, T.int64(4)):
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
)");
  EXPECT_EQ(text::print_module(m), text::print_module(m));
}

TEST(PrinterRelax, IfBindsTheVariableAssignedInBothBranches) {
  ensure_test_ops();
  relax::StructInfo scalar = tensor({});
  relax::Var cond = relax::make_var("cond", relax::prim_sinfo(DataType::Bool()));
  relax::Var x = relax::make_var("x", scalar);
  relax::Var lv = relax::make_var("lv", scalar);
  relax::Var v = relax::make_var("v", scalar);
  relax::Expr then_branch = seq(
      {relax::make_binding_block({relax::make_var_binding(lv, call("relax.add", {x, x}))}, false)},
      lv);
  relax::Expr else_branch = seq({}, call("relax.multiply", {x, x}, scalar));
  relax::BindingBlock block = relax::make_binding_block(
      {relax::make_var_binding(v, if_expr(cond, then_branch, else_branch))}, false);
  relax::Function f = function({cond, x}, seq({block}, v), scalar);
  EXPECT_EQ(text::print_node(f), R"(@R.function(private=True)
def main(cond: R.Prim("bool"), x: R.Tensor((), dtype="float32")) -> R.Tensor((), dtype="float32"):
    if cond:
        lv: R.Tensor((), dtype="float32") = R.add(x, x)
        v: R.Tensor((), dtype="float32") = lv
    else:
        v: R.Tensor((), dtype="float32") = R.multiply(x, x)
    return v)");
}

TEST(PrinterRelax, MatchCastNestedFunctionsAndNames) {
  ensure_test_ops();
  tir::Var n = tir::var("n"), m = tir::var("m");
  relax::StructInfo nm = tensor({n, m});
  relax::Var x = relax::make_var("x", relax::tensor_sinfo_ndim(2, kF32));
  // A Relax parameter with the hint of a shape variable: the shape variable keeps "n".
  relax::Var shape = relax::make_var("n", relax::shape_sinfo({n}));
  relax::Var y = relax::make_var("y", nm);
  relax::Var z = relax::make_var("z", nm);
  relax::Var g = relax::make_var("g", relax::func_sinfo({nm}, nm));
  relax::Var lv1 = relax::make_var("lv", nm);
  relax::Var lv2 = relax::make_var("lv", relax::object_sinfo());
  relax::Var discarded = relax::make_var("_", relax::object_sinfo());
  relax::Function local = function({z}, seq({}, z), nm);
  relax::BindingBlock block = relax::make_binding_block(
      {relax::make_match_cast(y, x, nm), relax::make_var_binding(g, local),
       relax::make_var_binding(lv1, call_expr(g, {y})),
       relax::make_var_binding(
           lv2, call_expr(relax::make_extern_func("vm.print"), {lv1}, {relax::object_sinfo()})),
       relax::make_var_binding(
           discarded, call_expr(relax::make_extern_func("vm.flush"), {}, {relax::object_sinfo()}))},
      false);
  Attrs attrs({{"global_symbol", AttrValue::string("main")},
               {"zeta", AttrValue::integer(1)},
               {"alpha", AttrValue::string("x")}});
  relax::Function f = function({x, shape}, seq({block}, lv1), relax::tensor_sinfo_ndim(2, kF32),
                               attrs, /*pure=*/false);
  EXPECT_EQ(text::print_node(f), R"(@R.function(pure=False)
def main(x: R.Tensor(dtype="float32", ndim=2), n_1: R.Shape(["n"])) -> R.Tensor(dtype="float32", ndim=2):
    R.func_attr({"alpha": "x", "zeta": 1})
    n = T.int64()
    m = T.int64()
    y: R.Tensor((n, m), dtype="float32") = R.match_cast(x, R.Tensor((n, m), dtype="float32"))
    @R.function
    def g(z: R.Tensor((n, m), dtype="float32")) -> R.Tensor((n, m), dtype="float32"):
        return z

    lv: R.Tensor((n, m), dtype="float32") = g(y)
    lv_1: R.Object = R.call_packed("vm.print", lv, sinfo_args=(R.Object,))
    _: R.Object = R.call_packed("vm.flush", sinfo_args=(R.Object,))
    return lv)");
}

TEST(PrinterRelax, ModuleAttributesAndEmptyModules) {
  EXPECT_EQ(text::print_module(make_module({})), R"(# from tvm.script import ir as I

@I.ir_module
class Module:
    pass
)");
  IRModule m = make_module({}, Attrs({{"target", AttrValue::string("cuda")}}));
  EXPECT_EQ(text::print_module(m), R"(# from tvm.script import ir as I

@I.ir_module
class Module:
    I.module_attrs({"target": "cuda"})
)");
}

TEST(PrinterRelax, BindingBlocksAlone) {
  relax::Var a = relax::make_var("a", relax::object_sinfo());
  relax::Var b = relax::make_dataflow_var("b", relax::object_sinfo());
  relax::Var c = relax::make_var("c", relax::object_sinfo());
  relax::Var unnamed = relax::make_dataflow_var("", relax::object_sinfo());
  relax::BindingBlock block =
      relax::make_binding_block({relax::make_var_binding(b, a), relax::make_var_binding(unnamed, b),
                                 relax::make_var_binding(c, unnamed)},
                                true);
  EXPECT_EQ(text::print_node(block), R"(with R.dataflow():
    b: R.Object = a
    lv: R.Object = b
    c: R.Object = lv
    R.output(c))");
}

}  // namespace
}  // namespace relaxc
