// Tests of StructInfo analysis: is_base_of, LCA, erasure and call derivation.
#include <gtest/gtest.h>

#include "ir/relax/struct_info_analysis.h"
#include "ir/support/diagnostics.h"
#include "ir/text/printer.h"
#include "tests/support/errors.h"

namespace relaxc::relax {
namespace {

const DataType f32 = DataType::Float(32);
const DataType i32 = DataType::Int(32);

PrimExpr I(int64_t v) { return tir::int_imm(DataType::Int(64), v); }

StructInfo tensor(std::vector<PrimExpr> dims, DataType dtype = f32) {
  return tensor_sinfo(std::move(dims), dtype);
}

// The dimensions of a tensor StructInfo, or empty if unknown.
std::vector<PrimExpr> dims_of(const StructInfo& sinfo) {
  const auto* t = sinfo.as<TensorStructInfoNode>();
  if (t == nullptr || t->shape_values() == nullptr) return {};
  return *t->shape_values();
}

// Whether `sinfo` is a tensor of exactly `expected` dimensions (compared with arith).
bool has_shape(const StructInfo& sinfo, const std::vector<PrimExpr>& expected) {
  const auto* t = sinfo.as<TensorStructInfoNode>();
  if (t == nullptr || t->shape_values() == nullptr) return false;
  const auto& dims = *t->shape_values();
  if (dims.size() != expected.size()) return false;
  arith::Analyzer analyzer;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!analyzer.can_prove_equal(dims[i], expected[i])) return false;
  }
  return true;
}

TEST(IsBaseOf, ObjectIsTheTop) {
  EXPECT_EQ(is_base_of(object_sinfo(), tensor({I(2)})), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(object_sinfo(), tuple_sinfo({})), BaseCheck::Pass);
  // An Object may be a tensor: fitting it takes a run-time check.
  EXPECT_EQ(is_base_of(tensor({I(2)}), object_sinfo()), BaseCheck::RuntimeCheck);
  EXPECT_EQ(is_base_of(tuple_sinfo({}), object_sinfo()), BaseCheck::RuntimeCheck);
}

TEST(IsBaseOf, StaticTensors) {
  StructInfo t23 = tensor({I(2), I(3)});
  EXPECT_EQ(is_base_of(t23, tensor({I(2), I(3)})), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(t23, tensor({I(2), I(4)})), BaseCheck::Fail);
  EXPECT_EQ(is_base_of(t23, tensor({I(2), I(3)}, i32)), BaseCheck::Fail);
  EXPECT_EQ(is_base_of(t23, tensor({I(2), I(3), I(1)})), BaseCheck::Fail);
  // Less known on the base side: passes; less known on the derived side: a check.
  EXPECT_EQ(is_base_of(tensor_sinfo_ndim(2, f32), t23), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(tensor_sinfo_ndim(-1, DataType::Void()), t23), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(t23, tensor_sinfo_ndim(2, f32)), BaseCheck::RuntimeCheck);
  EXPECT_EQ(is_base_of(t23, tensor_sinfo_ndim(-1, f32)), BaseCheck::RuntimeCheck);
  EXPECT_EQ(is_base_of(t23, tensor({I(2), I(3)}, DataType::Void())), BaseCheck::RuntimeCheck);
  EXPECT_EQ(is_base_of(tensor_sinfo_ndim(3, f32), t23), BaseCheck::Fail);
  EXPECT_EQ(is_base_of(t23, shape_sinfo({I(2), I(3)})), BaseCheck::Fail);
}

TEST(IsBaseOf, SymbolicDimensionsUseArith) {
  tir::Var n = tir::size_var("n"), m = tir::size_var("m");
  EXPECT_EQ(is_base_of(tensor({n, I(4)}), tensor({n, I(4)})), BaseCheck::Pass);
  // n * 4 and 4 * n are one value; n and m may or may not be.
  EXPECT_EQ(is_base_of(tensor({n * 4}), tensor({4 * PrimExpr(n)})), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(tensor({n, I(4)}), tensor({m, I(4)})), BaseCheck::RuntimeCheck);
  // n + 1 is never n.
  EXPECT_EQ(is_base_of(tensor({n + 1}), tensor({n})), BaseCheck::Fail);
  EXPECT_EQ(is_base_of(tensor({n, I(4)}), tensor({m, I(5)})), BaseCheck::Fail);
}

TEST(IsBaseOf, ShapesAndPrims) {
  tir::Var n = tir::size_var("n");
  EXPECT_EQ(is_base_of(shape_sinfo({n, I(4)}), shape_sinfo({n, I(4)})), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(shape_sinfo_ndim(-1), shape_sinfo({n})), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(shape_sinfo({n}), shape_sinfo_ndim(1)), BaseCheck::RuntimeCheck);
  EXPECT_EQ(is_base_of(shape_sinfo({n}), shape_sinfo_ndim(2)), BaseCheck::Fail);

  DataType i64 = DataType::Int(64);
  EXPECT_EQ(is_base_of(prim_sinfo(i64), prim_sinfo(i64, I(3))), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(prim_sinfo(i64, n), prim_sinfo(i64)), BaseCheck::RuntimeCheck);
  EXPECT_EQ(is_base_of(prim_sinfo(i64, I(3)), prim_sinfo(i64, I(4))), BaseCheck::Fail);
  EXPECT_EQ(is_base_of(prim_sinfo(i64), prim_sinfo(f32)), BaseCheck::Fail);
}

TEST(IsBaseOf, TuplesTakeTheWeakestField) {
  StructInfo base = tuple_sinfo({tensor({I(2)}), shape_sinfo({I(3)})});
  EXPECT_EQ(is_base_of(base, tuple_sinfo({tensor({I(2)}), shape_sinfo({I(3)})})), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(base, tuple_sinfo({tensor_sinfo_ndim(1, f32), shape_sinfo({I(3)})})),
            BaseCheck::RuntimeCheck);
  EXPECT_EQ(is_base_of(base, tuple_sinfo({tensor({I(2)}), shape_sinfo({I(4)})})), BaseCheck::Fail);
  EXPECT_EQ(is_base_of(base, tuple_sinfo({tensor({I(2)})})), BaseCheck::Fail);
}

TEST(IsBaseOf, FunctionsAreContravariantInParameters) {
  StructInfo general = func_sinfo({tensor_sinfo_ndim(2, f32)}, tensor_sinfo_ndim(2, f32));
  StructInfo accepts_more = func_sinfo({tensor_sinfo_ndim(-1, f32)}, tensor({I(2), I(3)}));
  // accepts_more takes any tensor and returns a (2, 3) one: it can stand for `general`.
  EXPECT_EQ(is_base_of(general, accepts_more), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(accepts_more, general), BaseCheck::RuntimeCheck);
  StructInfo impure = func_sinfo({tensor_sinfo_ndim(2, f32)}, tensor_sinfo_ndim(2, f32), false);
  EXPECT_EQ(is_base_of(general, impure), BaseCheck::Fail);
  EXPECT_EQ(is_base_of(impure, general), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(opaque_func_sinfo(object_sinfo(), false), general), BaseCheck::Pass);
  EXPECT_EQ(is_base_of(general, opaque_func_sinfo(object_sinfo(), true)), BaseCheck::RuntimeCheck);
  EXPECT_EQ(is_base_of(general, func_sinfo({}, tensor_sinfo_ndim(2, f32))), BaseCheck::Fail);
}

TEST(Lca, KeepsWhatBothAgreeOn) {
  StructInfo t23 = tensor({I(2), I(3)});
  EXPECT_TRUE(struct_info_lca(t23, tensor({I(2), I(3)})).same_as(t23));
  StructInfo differ = struct_info_lca(t23, tensor({I(2), I(4)}));
  const auto* t = differ.as<TensorStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->ndim, 2);
  EXPECT_EQ(t->dtype, f32);
  EXPECT_FALSE(t->shape.defined());

  StructInfo void_dtype = struct_info_lca(t23, tensor({I(2), I(3)}, i32));
  t = void_dtype.as<TensorStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_TRUE(t->dtype.is_void());
  EXPECT_TRUE(has_shape(void_dtype, {I(2), I(3)}));

  StructInfo other_rank = struct_info_lca(t23, tensor({I(2)}));
  t = other_rank.as<TensorStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->ndim, -1);

  EXPECT_TRUE(struct_info_lca(t23, shape_sinfo({I(2)})).is<ObjectStructInfoNode>());
}

TEST(Lca, SymbolicTuplesPrimsAndFunctions) {
  tir::Var n = tir::size_var("n");
  EXPECT_TRUE(has_shape(struct_info_lca(tensor({n * 2}), tensor({2 * PrimExpr(n)})), {n * 2}));

  StructInfo a = tuple_sinfo({tensor({I(2)}), prim_sinfo(DataType::Int(64), I(1))});
  StructInfo b = tuple_sinfo({tensor({I(2)}), prim_sinfo(DataType::Int(64), I(2))});
  StructInfo ab = struct_info_lca(a, b);
  const auto* tup = ab.as<TupleStructInfoNode>();
  ASSERT_NE(tup, nullptr);
  EXPECT_TRUE(has_shape(tup->fields[0], {I(2)}));
  const auto* prim = tup->fields[1].as<PrimStructInfoNode>();
  ASSERT_NE(prim, nullptr);
  EXPECT_FALSE(prim->value.defined());
  EXPECT_TRUE(struct_info_lca(a, tuple_sinfo({})).is<ObjectStructInfoNode>());
  EXPECT_TRUE(struct_info_lca(prim_sinfo(f32), prim_sinfo(i32)).is<ObjectStructInfoNode>());

  StructInfo pure_f = func_sinfo({tensor({I(2)})}, tensor({I(2)}));
  StructInfo impure_f = func_sinfo({tensor({I(2)})}, tensor({I(3)}), false);
  StructInfo either = struct_info_lca(pure_f, impure_f);
  const auto* f = either.as<FuncStructInfoNode>();
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->purity);
  ASSERT_TRUE(f->params.has_value());
  EXPECT_EQ(f->ret.as<TensorStructInfoNode>()->ndim, 1);
  StructInfo fewer_params = struct_info_lca(pure_f, func_sinfo({}, tensor({I(2)})));
  f = fewer_params.as<FuncStructInfoNode>();
  ASSERT_NE(f, nullptr);
  EXPECT_FALSE(f->params.has_value());
  EXPECT_TRUE(f->purity);
}

// One StructInfo of every kind and form (known and unknown parts, symbolic dimensions,
// nesting), for the tests that go over every pair.
std::vector<StructInfo> every_kind() {
  tir::Var n = tir::size_var("n");
  Var shape = make_var("s", shape_sinfo({n, I(4)}));
  return {object_sinfo(),
          object_sinfo(),  // a second Object that is not the same node
          prim_sinfo(DataType::Int(64)),
          prim_sinfo(DataType::Int(64), n),
          prim_sinfo(DataType::Bool()),
          prim_sinfo(f32),
          shape_sinfo({n, I(4)}),
          shape_sinfo_ndim(2),
          shape_sinfo_ndim(-1),
          tensor({I(1)}),
          tensor({n, I(4)}),
          tensor_sinfo_shape(shape, f32),
          tensor_sinfo_ndim(2, f32),
          tensor_sinfo_ndim(-1, DataType::Void()),
          tensor({}, DataType::Bool()),
          tuple_sinfo({}),
          tuple_sinfo({tensor({I(2)}), object_sinfo()}),
          tuple_sinfo({tuple_sinfo({object_sinfo()}), prim_sinfo(i32)}),
          func_sinfo({tensor({n})}, tensor({n})),
          func_sinfo({object_sinfo()}, object_sinfo(), false),
          opaque_func_sinfo(object_sinfo()),
          opaque_func_sinfo(tensor({I(2)}), true, "test.derive")};
}

// Every pair of kinds: the join never fails and is a base of both sides; subsumption and
// erasure give an answer for every kind (the join of two Objects once aborted with
// "unknown StructInfo kind").
TEST(Lca, EveryPairOfKindsJoinsToABaseOfBoth) {
  const std::vector<StructInfo> kinds = every_kind();
  for (size_t i = 0; i < kinds.size(); ++i) {
    for (size_t j = 0; j < kinds.size(); ++j) {
      SCOPED_TRACE("pair " + std::to_string(i) + ", " + std::to_string(j));
      StructInfo joined = struct_info_lca(kinds[i], kinds[j]);
      ASSERT_TRUE(joined.defined());
      EXPECT_NE(is_base_of(joined, kinds[i]), BaseCheck::Fail);
      EXPECT_NE(is_base_of(joined, kinds[j]), BaseCheck::Fail);
      is_base_of(kinds[i], kinds[j]);
    }
    EXPECT_TRUE(erase_to_well_defined(kinds[i], {}, {}).defined());
  }
  EXPECT_TRUE(struct_info_lca(object_sinfo(), object_sinfo()).is<ObjectStructInfoNode>());
}

TEST(EraseToWellDefined, DropsWhatIsOutOfScope) {
  tir::Var n = tir::size_var("n"), m = tir::size_var("m");
  StructInfo t = tensor({n, I(4)});
  EXPECT_TRUE(erase_to_well_defined(t, {n}, {}).same_as(t));
  StructInfo erased = erase_to_well_defined(t, {m}, {});
  const auto* et = erased.as<TensorStructInfoNode>();
  ASSERT_NE(et, nullptr);
  EXPECT_EQ(et->ndim, 2);
  EXPECT_FALSE(et->shape.defined());

  StructInfo shape = erase_to_well_defined(shape_sinfo({n, m}), {n}, {});
  const auto* es = shape.as<ShapeStructInfoNode>();
  ASSERT_NE(es, nullptr);
  EXPECT_EQ(es->ndim, 2);
  EXPECT_FALSE(es->values.has_value());

  StructInfo prim = erase_to_well_defined(prim_sinfo(DataType::Int(64), m), {n}, {});
  const auto* ep = prim.as<PrimStructInfoNode>();
  ASSERT_NE(ep, nullptr);
  EXPECT_FALSE(ep->value.defined());
}

TEST(EraseToWellDefined, ShapeVarFallsBackToItsStructInfo) {
  tir::Var n = tir::size_var("n");
  Var s = make_var("s", shape_sinfo({n, I(4)}));
  StructInfo t = tensor_sinfo_shape(s, f32);
  EXPECT_TRUE(erase_to_well_defined(t, {n}, {s}).same_as(t));
  // s out of scope: its StructInfo still says (n, 4).
  StructInfo erased = erase_to_well_defined(t, {n}, {});
  EXPECT_TRUE(has_shape(erased, {n, I(4)}));
  // Neither in scope: only the rank remains.
  StructInfo rank_only = erase_to_well_defined(t, {}, {});
  const auto* et = rank_only.as<TensorStructInfoNode>();
  ASSERT_NE(et, nullptr);
  EXPECT_EQ(et->ndim, 2);
  EXPECT_FALSE(et->shape.defined());
}

TEST(EraseToWellDefined, SubstitutesAndKeepsFunctionParameters) {
  tir::Var n = tir::size_var("n"), m = tir::size_var("m");
  StructInfo t = tensor({n * 4});
  StructInfo mapped = substitute_struct_info(
      t, [&](const tir::Var& v) -> PrimExpr { return v.same_as(n) ? m + 1 : PrimExpr(v); },
      [](const Var& v) -> Expr { return v; });
  EXPECT_TRUE(has_shape(mapped, {(m + 1) * 4}));

  // The function's own parameter binds n: nothing to erase.
  StructInfo f = func_sinfo({tensor({n})}, tensor({n * 2}));
  EXPECT_TRUE(erase_to_well_defined(f, {}, {}).same_as(f));
}

TEST(DeriveCall, SubstitutesTheCallersDimensions) {
  tir::Var n = tir::size_var("n"), m = tir::size_var("m");
  // f(x: (n, 4)) -> (n * 4,) called with (m, 4) gives (m * 4,).
  StructInfo f = func_sinfo({tensor({n, I(4)})}, tensor({n * 4}));
  Var arg = make_var("y", tensor({m, I(4)}));
  StructInfo ret = derive_call_ret_struct_info(*f.as<FuncStructInfoNode>(), {arg}, "f", {});
  EXPECT_TRUE(has_shape(ret, {m * 4}));
  EXPECT_EQ(ret.as<TensorStructInfoNode>()->dtype, f32);

  // A static argument gives a static result.
  Var c = make_var("c", tensor({I(3), I(4)}));
  EXPECT_TRUE(
      has_shape(derive_call_ret_struct_info(*f.as<FuncStructInfoNode>(), {c}, "f", {}), {I(12)}));
}

TEST(DeriveCall, BindsInAnyParameterOrder) {
  tir::Var n = tir::size_var("n");
  // g(a: (n * 2,), b: (n,)) -> (n + 1,): n is bound by the second parameter.
  StructInfo g = func_sinfo({tensor({n * 2}), tensor({n})}, tensor({n + 1}));
  Var a = make_var("a", tensor({I(6)}));
  Var b = make_var("b", tensor({I(3)}));
  EXPECT_TRUE(
      has_shape(derive_call_ret_struct_info(*g.as<FuncStructInfoNode>(), {a, b}, "g", {}), {I(4)}));
  // (8,) is not 3 * 2.
  Var bad = make_var("bad", tensor({I(8)}));
  std::string msg = error_of([&] {
    derive_call_ret_struct_info(*g.as<FuncStructInfoNode>(), {bad, b}, "g", {});
  });
  EXPECT_NE(msg.find("g: argument 0 does not fit its parameter"), std::string::npos) << msg;
}

TEST(DeriveCall, ErrorsAndUnknownArguments) {
  tir::Var n = tir::size_var("n");
  StructInfo f = func_sinfo({tensor({n}), tensor({n})}, tensor({n}));
  const auto& fn = *f.as<FuncStructInfoNode>();
  Var x3 = make_var("x", tensor({I(3)}));
  Var x4 = make_var("y", tensor({I(4)}));
  EXPECT_EQ(error_of([&] { derive_call_ret_struct_info(fn, {x3}, "f", {}); }),
            "f takes 2 argument(s), got 1");
  std::string msg = error_of([&] { derive_call_ret_struct_info(fn, {x3, x4}, "f", {}); });
  EXPECT_NE(msg.find("f: argument 1 does not fit its parameter"), std::string::npos) << msg;
  Var s = make_var("s", shape_sinfo({I(3)}));
  msg = error_of([&] { derive_call_ret_struct_info(fn, {x3, s}, "f", {}); });
  EXPECT_NE(msg.find("argument 1"), std::string::npos) << msg;

  // An argument of unknown shape binds nothing: the result keeps only its rank.
  Var unknown = make_var("u", tensor_sinfo_ndim(1, f32));
  StructInfo ret = derive_call_ret_struct_info(fn, {unknown, unknown}, "f", {});
  const auto* t = ret.as<TensorStructInfoNode>();
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->ndim, 1);
  EXPECT_FALSE(t->shape.defined());
  EXPECT_TRUE(dims_of(ret).empty());
}

// A call of a function whose parameter is of any kind, with an argument of any kind:
// a result or a located UserError, never an internal error; and every kind prints.
TEST(DeriveCall, EveryPairOfParameterAndArgumentKinds) {
  const std::vector<StructInfo> kinds = every_kind();
  for (size_t i = 0; i < kinds.size(); ++i) {
    EXPECT_FALSE(text::print_node(kinds[i]).empty());
    StructInfo f = func_sinfo({kinds[i]}, kinds[i]);
    for (size_t j = 0; j < kinds.size(); ++j) {
      SCOPED_TRACE("parameter " + std::to_string(i) + ", argument " + std::to_string(j));
      Var arg = make_var("a", kinds[j]);
      try {
        EXPECT_TRUE(
            derive_call_ret_struct_info(*f.as<FuncStructInfoNode>(), {arg}, "f", {}).defined());
      } catch (const UserError& e) {
        EXPECT_NE(std::string(e.what()).find("f: argument 0 does not fit its parameter"),
                  std::string::npos)
            << e.what();
      }
    }
  }
}

}  // namespace
}  // namespace relaxc::relax
