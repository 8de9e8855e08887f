// Legalizations of the creation operators: full, zeros, ones (and their _like forms),
// arange, eye, tril, triu, one_hot.
#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;

// `x` in `dtype`, cast only where it differs.
PrimExpr cast_to(DataType dtype, const PrimExpr& x) {
  return x->dtype == dtype ? x : tir::cast(dtype, x);
}

// A tensor of the call's result shape holding fill(i) at index i, from the tensors
// `inputs` (argument indices) and the scalars of the call's PrimValue arguments, in order.
struct FillArgs {
  std::vector<tir::Tensor> inputs;
  std::vector<PrimExpr> scalars;
};
using FillFn =
    std::function<PrimExpr(const FillArgs& a, const std::vector<tir::Var>& i, DataType dtype)>;

LegalizeFn filled(const std::string& name, std::vector<size_t> inputs, tir::OpPattern pattern,
                  FillFn fill) {
  return [name, inputs, pattern, fill](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    FillArgs args;
    for (size_t index : inputs) args.inputs.push_back(ctx.input(compute, index));
    const CallNode* call = ctx.call();
    for (size_t k = 0; k < call->args.size(); ++k) {
      if (call->args[k]->struct_info.is<PrimStructInfoNode>()) {
        args.scalars.push_back(ctx.prim_arg(compute, k));
      }
    }
    DataType dtype = ctx.result_dtype();
    tir::Tensor out =
        compute.compute("T_" + name, ctx.result_shape(compute), dtype,
                        [&](const std::vector<tir::Var>& i) { return fill(args, i, dtype); });
    return ctx.call_tir(name, compute, {out}, pattern);
  };
}

// Every element the 0-d tensor argument `fill_index` holds.
LegalizeFn full(const std::string& name, size_t fill_index) {
  return filled(name, {fill_index}, tir::OpPattern::ElemWise,
                [](const FillArgs& a, const std::vector<tir::Var>&, DataType dtype) {
                  return cast_to(dtype, a.inputs[0](std::vector<PrimExpr>{}));
                });
}

LegalizeFn constant_fill(const std::string& name, double value) {
  return filled(name, {}, tir::OpPattern::ElemWise,
                [value](const FillArgs&, const std::vector<tir::Var>&, DataType dtype) {
                  return tir::make_const(dtype, value);
                });
}

PrimExpr as_int64(const PrimExpr& x) { return cast_to(DataType::Int(64), x); }

// Keeps the elements of the last two dimensions on or below the k-th diagonal (tril), or
// on or above it (triu).
LegalizeFn triangle(const std::string& name, bool lower) {
  return filled(name, {0}, tir::OpPattern::ElemWise,
                [lower](const FillArgs& a, const std::vector<tir::Var>& i, DataType dtype) {
                  PrimExpr k = as_int64(a.scalars[0]);
                  PrimExpr offset = tir::sub(i[i.size() - 1], i[i.size() - 2]);
                  PrimExpr keep = lower ? tir::le(offset, k) : tir::ge(offset, k);
                  return tir::select(keep, a.inputs[0](i), tir::make_const(dtype, 0));
                });
}

}  // namespace

void add_creation_legalizations(LegalizationTable& table) {
  table["relax.full"] = full("full", 1);
  table["relax.full_like"] = full("full_like", 1);
  table["relax.zeros"] = constant_fill("zeros", 0);
  table["relax.zeros_like"] = constant_fill("zeros_like", 0);
  table["relax.ones"] = constant_fill("ones", 1);
  table["relax.ones_like"] = constant_fill("ones_like", 1);
  // start + i * step in the bounds' type, then the result's dtype.
  table["relax.arange"] =
      filled("arange", {}, tir::OpPattern::Injective,
             [](const FillArgs& a, const std::vector<tir::Var>& i, DataType dtype) {
               const PrimExpr& start = a.scalars[0];
               DataType bounds = start->dtype;
               PrimExpr offset = tir::mul(cast_to(bounds, i[0]), cast_to(bounds, a.scalars[2]));
               return cast_to(dtype, tir::add(start, offset));
             });
  table["relax.eye"] = filled(
      "eye", {}, tir::OpPattern::Injective,
      [](const FillArgs& a, const std::vector<tir::Var>& i, DataType dtype) {
        PrimExpr on_diagonal = tir::eq(tir::sub(i[1], i[0]), as_int64(a.scalars[2]));
        return tir::select(on_diagonal, tir::make_const(dtype, 1), tir::make_const(dtype, 0));
      });
  table["relax.tril"] = triangle("tril", true);
  table["relax.triu"] = triangle("triu", false);
  // on_value where the index along `axis` equals the index the input holds there.
  table["relax.one_hot"] = [](LegalizeContext& ctx) {
    int ndim = tensor_arg(ctx.call(), 0).ndim + 1;
    int axis = normalize_axis(ctx.call(), "axis", int_attr(ctx.call(), "axis"), ndim);
    return filled("one_hot", {0}, tir::OpPattern::Injective,
                  [axis](const FillArgs& a, const std::vector<tir::Var>& i, DataType dtype) {
                    std::vector<PrimExpr> at;
                    for (int d = 0; d < static_cast<int>(i.size()); ++d) {
                      if (d != axis) at.push_back(i[d]);
                    }
                    PrimExpr hit = tir::eq(as_int64(a.inputs[0](at)), as_int64(i[axis]));
                    return tir::select(hit, cast_to(dtype, a.scalars[0]),
                                       cast_to(dtype, a.scalars[1]));
                  })(ctx);
  };
}

}  // namespace relaxc::relax
