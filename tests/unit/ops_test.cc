// Tests of the operator registry: StructInfo inference of every built-in operator
// (static and symbolic shapes), its errors, and the attribute schema check.
#include <gtest/gtest.h>

#include "ir/relax/block_builder.h"
#include "ir/relax/op_registry.h"
#include "tests/support/errors.h"

namespace relaxc::relax {
namespace {

const DataType f32 = DataType::Float(32);
const DataType f16 = DataType::Float(16);
const DataType i32 = DataType::Int(32);

PrimExpr I(int64_t v) { return tir::int_imm(DataType::Int(64), v); }

StructInfo tensor(std::vector<PrimExpr> dims, DataType dtype = f32) {
  return tensor_sinfo(std::move(dims), dtype);
}

class OpsTest : public ::testing::Test {
 protected:
  void SetUp() override { bb.begin_scope(); }

  Var var(const std::string& name, StructInfo sinfo) { return make_var(name, std::move(sinfo)); }

  StructInfo infer(const std::string& op, std::vector<Expr> args, Attrs attrs = {},
                   std::vector<StructInfo> sinfo_args = {}) {
    return bb.call_op("relax." + op, std::move(args), std::move(sinfo_args), std::move(attrs))
        ->struct_info;
  }

  std::string infer_error(const std::string& op, std::vector<Expr> args, Attrs attrs = {},
                          std::vector<StructInfo> sinfo_args = {}) {
    return error_of([&] { infer(op, args, attrs, sinfo_args); });
  }

  // Whether `sinfo` is a tensor of `dtype` with exactly the dimensions `expected`
  // (compared with arith, so that n * 4 and 4 * n agree).
  ::testing::AssertionResult is_tensor(const StructInfo& sinfo, std::vector<PrimExpr> expected,
                                       DataType dtype = f32) {
    const auto* t = sinfo.as<TensorStructInfoNode>();
    if (t == nullptr) return ::testing::AssertionFailure() << "not a tensor";
    if (t->dtype != dtype) return ::testing::AssertionFailure() << "dtype " << t->dtype.str();
    const std::vector<PrimExpr>* dims = t->shape_values();
    if (dims == nullptr) return ::testing::AssertionFailure() << "shape unknown";
    if (dims->size() != expected.size() || t->ndim != static_cast<int>(expected.size())) {
      return ::testing::AssertionFailure() << "rank " << dims->size();
    }
    arith::Analyzer analyzer;
    for (size_t i = 0; i < dims->size(); ++i) {
      if (!analyzer.can_prove_equal((*dims)[i], expected[i])) {
        return ::testing::AssertionFailure() << "dimension " << i << " differs";
      }
    }
    return ::testing::AssertionSuccess();
  }

  // A tensor StructInfo of `ndim` and `dtype` without a shape.
  ::testing::AssertionResult is_rank_only(const StructInfo& sinfo, int ndim, DataType dtype = f32) {
    const auto* t = sinfo.as<TensorStructInfoNode>();
    if (t == nullptr) return ::testing::AssertionFailure() << "not a tensor";
    if (t->shape.defined()) return ::testing::AssertionFailure() << "shape is known";
    if (t->ndim != ndim) return ::testing::AssertionFailure() << "ndim " << t->ndim;
    if (t->dtype != dtype) return ::testing::AssertionFailure() << "dtype " << t->dtype.str();
    return ::testing::AssertionSuccess();
  }

  BlockBuilder bb;
  tir::Var n = tir::size_var("n");
  tir::Var m = tir::size_var("m");
  tir::Var k = tir::size_var("k");
};

TEST_F(OpsTest, RegistryListsEveryOperatorWithInference) {
  for (const char* name :
       {"call_tir", "call_dps_packed", "call_packed", "call_pure_packed", "shape_of", "null_value",
        "print", "add", "subtract", "multiply", "divide", "exp", "nn.relu", "matmul", "reshape",
        "flatten", "permute_dims", "sum", "nn.softmax"}) {
    const OpInfo* info = find_op(std::string("relax.") + name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_TRUE(static_cast<bool>(info->infer)) << name;
  }
  EXPECT_FALSE(find_op("relax.call_packed")->pure);
  EXPECT_TRUE(find_op("relax.call_pure_packed")->pure);
  EXPECT_FALSE(find_op("relax.print")->pure);
  EXPECT_EQ(find_op("relax.call_tir")->sinfo_args_keyword, "out_sinfo");
  EXPECT_EQ(op_script_name("relax.nn.relu"), "nn.relu");
}

TEST_F(OpsTest, BinaryBroadcastsStaticShapes) {
  Var a = var("a", tensor({I(2), I(3)}));
  EXPECT_TRUE(is_tensor(infer("add", {a, var("b", tensor({I(3)}))}), {I(2), I(3)}));
  EXPECT_TRUE(
      is_tensor(infer("subtract", {var("c", tensor({I(4), I(1)})), var("d", tensor({I(1), I(5)}))}),
                {I(4), I(5)}));
  EXPECT_TRUE(is_tensor(infer("multiply", {a, var("s", tensor({}))}), {I(2), I(3)}));
  EXPECT_TRUE(
      is_tensor(infer("divide", {var("e", tensor({I(7), I(1), I(3)})), a}), {I(7), I(2), I(3)}));
}

TEST_F(OpsTest, BinaryStaticErrorsNameOperatorArgumentAndDimension) {
  Var a = var("a", tensor({I(2), I(3)}));
  EXPECT_EQ(infer_error("add", {a, var("b", tensor({I(4), I(5)}))}),
            "R.add: cannot broadcast dimension 1 of the operands: 3 (x1) vs 5 (x2)");
  EXPECT_EQ(infer_error("multiply", {a, var("c", tensor({I(4), I(3)}))}),
            "R.multiply: cannot broadcast dimension 0 of the operands: 2 (x1) vs 4 (x2)");
  EXPECT_EQ(infer_error("add", {a, var("i", tensor({I(2), I(3)}, i32))}),
            "R.add: operand dtypes differ: float32 (x1) vs int32 (x2)");
  EXPECT_EQ(infer_error("add", {a, var("s", shape_sinfo({I(2)}))}),
            "R.add: argument 'x2' must be a tensor or a prim value, got R.Shape([2])");
}

TEST_F(OpsTest, BinarySymbolicShapes) {
  Var x = var("x", tensor({n, I(4)}));
  EXPECT_TRUE(is_tensor(infer("add", {x, x}), {n, I(4)}));
  EXPECT_TRUE(
      is_tensor(infer("add", {var("a", tensor({n, I(1)})), var("b", tensor({I(1), m}))}), {n, m}));
  EXPECT_TRUE(is_tensor(infer("add", {x, var("c", tensor({n * 1, I(4)}))}), {n, I(4)}));
  // n and m may differ (or be 1): the shape is unknown, the rank is not.
  EXPECT_TRUE(is_rank_only(infer("add", {x, var("y", tensor({m, I(4)}))}), 2));
  EXPECT_TRUE(is_rank_only(infer("add", {x, var("u", tensor_sinfo_ndim(-1, f32))}), -1));
  EXPECT_TRUE(is_rank_only(infer("add", {x, var("r", tensor_sinfo_ndim(3, f32))}), 3));
  // n + 1 and n + 2 can never be equal, and neither can be 1.
  EXPECT_NE(infer_error("add", {var("p", tensor({n + 2})), var("q", tensor({n + 3}))})
                .find("R.add: cannot broadcast dimension 0"),
            std::string::npos);
}

TEST_F(OpsTest, BinaryWithPrimValues) {
  DataType i64 = DataType::Int(64);
  StructInfo both = infer("add", {make_prim_value(I(1)), make_prim_value(I(2))});
  const auto* p = both.as<PrimStructInfoNode>();
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->dtype, i64);
  EXPECT_TRUE(is_tensor(infer("multiply", {var("x", tensor({I(3)}, i64)), make_prim_value(I(2))}),
                        {I(3)}, i64));
}

TEST_F(OpsTest, UnaryAndSoftmax) {
  Var x = var("x", tensor({n, I(4)}));
  EXPECT_TRUE(is_tensor(infer("exp", {x}), {n, I(4)}));
  EXPECT_TRUE(is_tensor(infer("nn.relu", {var("i", tensor({I(2)}, i32))}), {I(2)}, i32));
  EXPECT_EQ(infer_error("exp", {var("i", tensor({I(2)}, i32))}),
            "R.exp: argument 'x' must have a floating-point dtype, got int32");
  EXPECT_EQ(infer_error("nn.relu", {var("s", shape_sinfo({I(2)}))}),
            "R.nn.relu: argument 'data' must be a tensor, got R.Shape([2])");
  EXPECT_TRUE(is_tensor(infer("nn.softmax", {x}), {n, I(4)}));
  EXPECT_TRUE(
      is_tensor(infer("nn.softmax", {x}, Attrs({{"axis", AttrValue::integer(0)}})), {n, I(4)}));
  EXPECT_EQ(infer_error("nn.softmax", {x}, Attrs({{"axis", AttrValue::integer(2)}})),
            "R.nn.softmax: attribute 'axis': axis 2 is out of range for a tensor of 2 "
            "dimension(s)");
}

TEST_F(OpsTest, MatmulStatic) {
  EXPECT_TRUE(
      is_tensor(infer("matmul", {var("a", tensor({I(2), I(3)})), var("b", tensor({I(3), I(4)}))}),
                {I(2), I(4)}));
  EXPECT_EQ(infer_error("matmul", {var("a", tensor({I(2), I(3)})), var("b", tensor({I(4), I(5)}))}),
            "R.matmul: reduction dimensions differ: 3 (dimension 1 of x1) vs 4 (dimension 0 of "
            "x2)");
  // 1-D operands: a row vector on the left, a column on the right, removed after.
  Var v3 = var("v", tensor({I(3)}));
  EXPECT_TRUE(is_tensor(infer("matmul", {v3, var("b", tensor({I(3), I(4)}))}), {I(4)}));
  EXPECT_TRUE(is_tensor(infer("matmul", {var("a", tensor({I(2), I(3)})), v3}), {I(2)}));
  EXPECT_TRUE(is_tensor(infer("matmul", {v3, v3}), {}));
  // Batch dimensions broadcast.
  EXPECT_TRUE(is_tensor(
      infer("matmul", {var("a", tensor({I(5), I(2), I(3)})), var("b", tensor({I(3), I(4)}))}),
      {I(5), I(2), I(4)}));
  EXPECT_TRUE(is_tensor(infer("matmul", {var("a", tensor({I(5), I(1), I(2), I(3)})),
                                         var("b", tensor({I(7), I(3), I(4)}))}),
                        {I(5), I(7), I(2), I(4)}));
  EXPECT_EQ(infer_error("matmul", {var("a", tensor({I(2), I(2), I(3)})),
                                   var("b", tensor({I(3), I(3), I(4)}))}),
            "R.matmul: cannot broadcast batch dimension 0 of the operands: 2 (x1) vs 3 (x2)");
  EXPECT_EQ(infer_error("matmul", {var("s", tensor({})), v3}),
            "R.matmul: argument 'x1' must have at least 1 dimension, got a 0-d tensor");
}

TEST_F(OpsTest, MatmulSymbolicAndDtypes) {
  EXPECT_TRUE(
      is_tensor(infer("matmul", {var("a", tensor({n, k})), var("b", tensor({k, m}))}), {n, m}));
  // The reduction length is checked where it can be: n vs m is left to run time.
  EXPECT_TRUE(is_tensor(infer("matmul", {var("a", tensor({I(2), n})), var("b", tensor({m, I(3)}))}),
                        {I(2), I(3)}));
  EXPECT_TRUE(is_rank_only(
      infer("matmul", {var("a", tensor_sinfo_ndim(3, f32)), var("b", tensor_sinfo_ndim(1, f32))}),
      2));
  EXPECT_TRUE(is_rank_only(
      infer("matmul", {var("a", tensor_sinfo_ndim(-1, f32)), var("b", tensor({I(3)}))}), -1));
  Var h1 = var("h1", tensor({I(2), I(3)}, f16));
  Var h2 = var("h2", tensor({I(3), I(4)}, f16));
  EXPECT_TRUE(is_tensor(infer("matmul", {h1, h2}), {I(2), I(4)}, f16));
  EXPECT_TRUE(is_tensor(
      infer("matmul", {h1, h2}, Attrs({{"out_dtype", AttrValue::data_type(f32)}})), {I(2), I(4)}));
  // The text format spells the dtype as a string.
  EXPECT_TRUE(
      is_tensor(infer("matmul", {h1, h2}, Attrs({{"out_dtype", AttrValue::string("float32")}})),
                {I(2), I(4)}));
  EXPECT_EQ(infer_error("matmul", {h1, var("b", tensor({I(3), I(4)}))}),
            "R.matmul: operand dtypes differ: float16 (x1) vs float32 (x2)");
  EXPECT_EQ(infer_error("matmul", {h1, h2}, Attrs({{"out_dtype", AttrValue::string("flaot32")}})),
            "R.matmul: attribute 'out_dtype': unknown data type 'flaot32'");
}

TEST_F(OpsTest, Reshape) {
  Expr call =
      bb.call_op("relax.reshape", {var("x", tensor({n, I(2), I(2)})), make_shape_expr({n, I(4)})});
  EXPECT_TRUE(is_tensor(call->struct_info, {n, I(4)}));
  EXPECT_EQ(infer_error("reshape", {var("x", tensor({I(2), I(3)})), make_shape_expr({I(4), I(2)})}),
            "R.reshape: cannot reshape a tensor of shape (2, 3) (6 elements) to shape (4, 2) (8 "
            "elements)");
  // -1 is inferred from the element count, and the call carries the result.
  Expr inferred = bb.call_op(
      "relax.reshape", {var("y", tensor({I(2), I(3), I(4)})), make_shape_expr({I(-1), I(4)})});
  EXPECT_TRUE(is_tensor(inferred->struct_info, {I(6), I(4)}));
  const auto* shape_arg = inferred.as<CallNode>()->args[1].as<ShapeExprNode>();
  ASSERT_NE(shape_arg, nullptr);
  EXPECT_TRUE(tir::is_const_int(shape_arg->values[0], 6));
  EXPECT_TRUE(is_tensor(infer("reshape", {var("z", tensor({n, I(4)})), make_shape_expr({I(-1)})}),
                        {n * 4}));
  EXPECT_TRUE(is_tensor(
      infer("reshape", {var("z", tensor({n, I(2), I(2)})), make_shape_expr({I(-1), I(4)})}),
      {n, I(4)}));
  EXPECT_EQ(infer_error("reshape", {var("w", tensor({I(6)})), make_shape_expr({I(-1), I(-1)})}),
            "R.reshape: at most one dimension of the new shape may be -1");
  EXPECT_NE(infer_error("reshape", {var("w", tensor({I(6)})), make_shape_expr({I(-1), I(4)})})
                .find("cannot reshape a tensor of shape (6,)"),
            std::string::npos);
  // A shape variable as the new shape: the tensor's shape is that variable.
  Var s = var("s", shape_sinfo({m, I(3)}));
  StructInfo by_var = infer("reshape", {var("u", tensor({I(3), m})), s});
  const auto* t = by_var.as<TensorStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->shape.same_as(s));
  EXPECT_TRUE(is_tensor(by_var, {m, I(3)}));
  EXPECT_EQ(infer_error("reshape", {var("u", tensor({I(3)})), var("t", tensor({I(3)}))}),
            "R.reshape: argument 'shape' must be a shape (R.shape([...]) or a shape variable), "
            "got R.Tensor((3,), dtype=\"float32\")");
}

TEST_F(OpsTest, FlattenAndPermuteDims) {
  EXPECT_TRUE(is_tensor(infer("flatten", {var("x", tensor({n, I(4)}))}), {n * 4}));
  EXPECT_TRUE(is_tensor(infer("flatten", {var("y", tensor({I(2), I(3), I(4)}))}), {I(24)}));
  EXPECT_TRUE(is_rank_only(infer("flatten", {var("u", tensor_sinfo_ndim(-1, f32))}), 1));

  Var x = var("x", tensor({I(2), I(3), n}));
  EXPECT_TRUE(is_tensor(infer("permute_dims", {x}), {n, I(3), I(2)}));
  EXPECT_TRUE(
      is_tensor(infer("permute_dims", {x}, Attrs({{"axes", AttrValue::int_list({0, 2, 1})}})),
                {I(2), n, I(3)}));
  EXPECT_TRUE(
      is_tensor(infer("permute_dims", {x}, Attrs({{"axes", AttrValue::int_list({-1, 0, 1})}})),
                {n, I(2), I(3)}));
  EXPECT_EQ(infer_error("permute_dims", {x}, Attrs({{"axes", AttrValue::int_list({0, 1})}})),
            "R.permute_dims: attribute 'axes' has 2 entries but argument 'x' has 3 dimension(s)");
  EXPECT_EQ(infer_error("permute_dims", {x}, Attrs({{"axes", AttrValue::int_list({0, 1, -3})}})),
            "R.permute_dims: attribute 'axes': axis 0 appears more than once");
  EXPECT_TRUE(is_rank_only(infer("permute_dims", {var("u", tensor_sinfo_ndim(-1, f32))},
                                 Attrs({{"axes", AttrValue::int_list({1, 0})}})),
                           2));
}

TEST_F(OpsTest, Sum) {
  Var x = var("x", tensor({I(2), n, I(4)}));
  EXPECT_TRUE(is_tensor(infer("sum", {x}), {}));
  EXPECT_TRUE(is_tensor(infer("sum", {x}, Attrs({{"keepdims", AttrValue::boolean(true)}})),
                        {I(1), I(1), I(1)}));
  EXPECT_TRUE(
      is_tensor(infer("sum", {x}, Attrs({{"axis", AttrValue::int_list({1})}})), {I(2), I(4)}));
  EXPECT_TRUE(is_tensor(infer("sum", {x},
                              Attrs({{"axis", AttrValue::int_list({-1, 0})},
                                     {"keepdims", AttrValue::boolean(true)}})),
                        {I(1), n, I(1)}));
  EXPECT_EQ(infer_error("sum", {x}, Attrs({{"axis", AttrValue::int_list({3})}})),
            "R.sum: attribute 'axis': axis 3 is out of range for a tensor of 3 dimension(s)");
  // An integer axis is the one-element list TVM makes of it.
  EXPECT_TRUE(is_tensor(infer("sum", {x}, Attrs({{"axis", AttrValue::integer(1)}})), {I(2), I(4)}));
  EXPECT_EQ(infer_error("sum", {x}, Attrs({{"axis", AttrValue::string("all")}})),
            "R.sum: attribute 'axis' must be None or a list of integers");
  EXPECT_TRUE(is_tensor(infer("sum", {var("u", tensor_sinfo_ndim(-1, f32))}), {}));
}

TEST_F(OpsTest, AttributeSchema) {
  Var x = var("x", tensor({I(2), I(3)}));
  // Defaults are filled in, in the schema's order; a None default stays absent.
  Expr plain = bb.call_op("relax.sum", {x});
  const Attrs& attrs = plain.as<CallNode>()->attrs;
  ASSERT_EQ(attrs.entries().size(), 1u);
  EXPECT_EQ(attrs.entries()[0].first, "keepdims");
  EXPECT_EQ(attrs.entries()[0].second, AttrValue::boolean(false));
  Expr reordered = bb.call_op(
      "relax.sum", {x}, {},
      Attrs({{"keepdims", AttrValue::boolean(true)}, {"axis", AttrValue::int_list({1})}}));
  const auto& entries = reordered.as<CallNode>()->attrs.entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].first, "axis");
  EXPECT_EQ(entries[1].first, "keepdims");
  // An explicit None is the same as absent.
  Expr none = bb.call_op("relax.sum", {x}, {}, Attrs({{"axis", AttrValue::none()}}));
  EXPECT_EQ(none.as<CallNode>()->attrs, attrs);
  EXPECT_EQ(bb.call_op("relax.matmul", {x, var("y", tensor({I(3), I(1)}))})
                .as<CallNode>()
                ->attrs.entries()[0]
                .second,
            AttrValue::data_type(DataType::Void()));

  EXPECT_EQ(infer_error("sum", {x}, Attrs({{"axes", AttrValue::int_list({1})}})),
            "R.sum: unknown attribute 'axes' (expected axis, keepdims)");
  EXPECT_EQ(infer_error("add", {x, x}, Attrs({{"axis", AttrValue::integer(1)}})),
            "R.add: unknown attribute 'axis' (it takes none)");
  EXPECT_EQ(infer_error("add", {x}), "R.add: missing argument 'x2'");
  EXPECT_EQ(infer_error("add", {x, x, x}), "R.add takes at most 2 argument(s) (x1, x2), got 3");
  EXPECT_EQ(infer_error("add", {x, x}, {}, {tensor({I(2)})}),
            "R.add takes no StructInfo arguments (sinfo_args/out_sinfo)");
  EXPECT_EQ(infer_error("ad", {x, x}), "unknown operator 'R.ad'");
}

TEST_F(OpsTest, CallTir) {
  GlobalVar f = make_global_var("f");
  Var x = var("x", tensor({n, I(4)}));
  StructInfo out = tensor({n, I(4)});
  EXPECT_TRUE(infer("call_tir", {f, bb.tuple({x})}, {}, {out}).same_as(out));
  StructInfo two = infer("call_tir", {f, bb.tuple({x, x})}, {}, {out, tensor({n})});
  const auto* tup = two.as<TupleStructInfoNode>();
  ASSERT_NE(tup, nullptr);
  ASSERT_EQ(tup->fields.size(), 2u);
  EXPECT_TRUE(is_tensor(tup->fields[1], {n}));
  EXPECT_TRUE(infer("call_tir", {f, bb.tuple({x}), make_shape_expr({n})}, {}, {out}).same_as(out));

  EXPECT_EQ(infer_error("call_tir", {f, bb.tuple({x})}), "R.call_tir: out_sinfo is required");
  EXPECT_EQ(infer_error("call_tir", {f, x}, {}, {out}),
            "R.call_tir: argument 'args' must be a tuple, got R.Tensor((n, 4), dtype=\"float32\")");
  EXPECT_EQ(infer_error("call_tir", {x, bb.tuple({x})}, {}, {out}),
            "R.call_tir: argument 'func' must be a TensorIR function of the module (cls.name)");
  EXPECT_EQ(infer_error("call_tir", {f, bb.tuple({x})}, {}, {tensor_sinfo_ndim(2, f32)}),
            "R.call_tir: out_sinfo 0 must be a tensor with known shape and dtype, got "
            "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(infer_error("call_tir", {f, bb.tuple({x}), x}, {}, {out}),
            "R.call_tir: argument 'tir_vars' must be a shape (R.shape([...])), got "
            "R.Tensor((n, 4), dtype=\"float32\")");
}

TEST_F(OpsTest, CallTirChecksTheTargetInTheModule) {
  // exp(a: (4,), b: (4,)): two buffers, no scalars.
  auto* pf = make_node<tir::PrimFuncNode>();
  tir::Var a = tir::var("a", DataType::Handle()), b = tir::var("b", DataType::Handle());
  pf->params = {a, b};
  pf->buffer_map = {{a, tir::buffer("A", f32, {I(4)})}, {b, tir::buffer("B", f32, {I(4)})}};
  pf->body = tir::evaluate(tir::int_imm(i32, 0));
  GlobalVar exp = make_global_var("exp");
  GlobalVar main = make_global_var("main");
  auto* rf = make_node<FunctionNode>();
  rf->struct_info = func_sinfo({}, tuple_sinfo({}));
  IRModule module = make_module({{exp, tir::PrimFunc(pf)}, {main, Function(rf)}});

  BlockBuilder with_module(module);
  with_module.begin_scope();
  Var x = var("x", tensor({I(4)}));
  StructInfo out = tensor({I(4)});
  EXPECT_TRUE(with_module.call_op("relax.call_tir", {exp, with_module.tuple({x})}, {out})
                  ->struct_info.same_as(out));
  EXPECT_EQ(error_of([&] {
              with_module.call_op("relax.call_tir", {exp, with_module.tuple({x, x})}, {out});
            }),
            "R.call_tir: 'exp' takes 2 buffer(s) and 0 scalar(s), but the call passes 2 "
            "input(s), 1 output(s) and 0 tir_vars");
  EXPECT_EQ(error_of([&] {
              with_module.call_op("relax.call_tir", {main, with_module.tuple({x})}, {out});
            }),
            "R.call_tir: 'main' is a Relax function; call it directly instead");
}

TEST_F(OpsTest, PackedCalls) {
  Var x = var("x", tensor({I(2)}));
  // A name becomes the ExternFunc it denotes.
  Expr dps = bb.call_op("relax.call_dps_packed", {make_string_imm("my_func"), bb.tuple({x})},
                        {tensor({I(2)})});
  const auto* callee = dps.as<CallNode>()->args[0].as<ExternFuncNode>();
  ASSERT_NE(callee, nullptr);
  EXPECT_EQ(callee->global_symbol, "my_func");
  EXPECT_TRUE(is_tensor(dps->struct_info, {I(2)}));

  StructInfo none = infer("call_packed", {make_string_imm("f"), x, x});
  EXPECT_TRUE(none.is<ObjectStructInfoNode>());
  StructInfo shape = shape_sinfo({I(2)});
  EXPECT_TRUE(infer("call_pure_packed", {make_extern_func("f"), x}, {}, {shape}).same_as(shape));
  StructInfo pair = infer("call_packed", {make_string_imm("f")}, {}, {shape, shape});
  ASSERT_TRUE(pair.is<TupleStructInfoNode>());
  EXPECT_EQ(pair.as<TupleStructInfoNode>()->fields.size(), 2u);
  EXPECT_EQ(infer_error("call_packed", {x}),
            "R.call_packed: argument 'func' must be a packed function (a name or R.ExternFunc), "
            "got R.Tensor((2,), dtype=\"float32\")");
  EXPECT_EQ(infer_error("call_packed", {}), "R.call_packed: missing argument 'func'");
}

TEST_F(OpsTest, Builtins) {
  StructInfo shape = infer("shape_of", {var("x", tensor({n, I(4)}))});
  const auto* s = shape.as<ShapeStructInfoNode>();
  ASSERT_NE(s, nullptr);
  ASSERT_TRUE(s->values.has_value());
  EXPECT_TRUE((*s->values)[0].same_as(n));
  StructInfo unknown = infer("shape_of", {var("u", tensor_sinfo_ndim(3, f32))});
  EXPECT_EQ(unknown.as<ShapeStructInfoNode>()->ndim, 3);
  EXPECT_TRUE(infer("null_value", {}).is<ObjectStructInfoNode>());
  StructInfo printed = infer("print", {var("x", tensor({I(2)})), var("y", tensor({I(3)}))},
                             Attrs({{"format", AttrValue::string("{} {}")}}));
  ASSERT_TRUE(printed.is<TupleStructInfoNode>());
  EXPECT_TRUE(printed.as<TupleStructInfoNode>()->fields.empty());
  EXPECT_EQ(infer_error("print", {}, Attrs({{"format", AttrValue::integer(1)}})),
            "R.print: attribute 'format' must be a string");
}

TEST_F(OpsTest, TensorToShapeHasTheTensorsLengthAsNdim) {
  const DataType i64 = DataType::Int(64);
  StructInfo three = infer("tensor_to_shape", {var("t", tensor({I(3)}, i64))});
  const auto* s = three.as<ShapeStructInfoNode>();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->ndim, 3);
  EXPECT_FALSE(s->values.has_value());
  EXPECT_EQ(
      infer("tensor_to_shape", {var("u", tensor({I(2)}, i32))}).as<ShapeStructInfoNode>()->ndim, 2);
  // A length known only at run time, or an unknown rank, gives a shape of unknown ndim.
  EXPECT_EQ(infer("tensor_to_shape", {var("v", tensor({n}, i64))}).as<ShapeStructInfoNode>()->ndim,
            -1);
  EXPECT_EQ(infer("tensor_to_shape", {var("w", tensor_sinfo_ndim(-1, i64))})
                .as<ShapeStructInfoNode>()
                ->ndim,
            -1);
  EXPECT_EQ(infer_error("tensor_to_shape", {var("m", tensor({I(2), I(3)}, i64))}),
            "R.tensor_to_shape: argument 'x' must be a 1-D integer tensor, got "
            "R.Tensor((2, 3), dtype=\"int64\")");
  EXPECT_EQ(infer_error("tensor_to_shape", {var("f", tensor({I(3)}))}),
            "R.tensor_to_shape: argument 'x' must be a 1-D integer tensor, got "
            "R.Tensor((3,), dtype=\"float32\")");
  EXPECT_EQ(infer_error("tensor_to_shape", {var("b", tensor({I(3)}, DataType::Bool()))}),
            "R.tensor_to_shape: argument 'x' must be a 1-D integer tensor, got "
            "R.Tensor((3,), dtype=\"bool\")");
  EXPECT_EQ(infer_error("tensor_to_shape", {var("s", shape_sinfo({I(2)}))}),
            "R.tensor_to_shape: argument 'x' must be a tensor, got R.Shape([2])");
}

}  // namespace
}  // namespace relaxc::relax
