// Legalizations of the reductions. sum, prod, max and min are one reduction block over
// the folded axes; mean divides the sum in a second stage; variance and std reduce the
// squared distance to the mean (two passes, for accuracy); argmax/argmin find the
// extreme value, then the least flat position holding it (a min reduction), so that
// every stage is a reduction the default GPU schedule runs across threads.
#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"
#include "passes/relax/legalize/reduction_axes.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;
using tir::ReduceKind;
using tir::Tensor;
using tir::Var;

// The axes a call folds: attribute 'axis' None (all), an integer or a list.
ReductionAxes call_axes(const CallNode* call, int ndim) {
  ReductionAxes axes;
  axes.keepdims = bool_attr(call, "keepdims");
  const AttrValue* axis = call->attrs.find("axis");
  bool all = axis == nullptr || axis->is_none();
  axes.reduced.assign(ndim, all);
  if (all) return axes;
  std::vector<int64_t> listed =
      axis->kind == AttrValue::Kind::Int ? std::vector<int64_t>{axis->i} : axis->as_int_list();
  for (int a : normalize_axes(call, "axis", listed, ndim)) axes.reduced[a] = true;
  return axes;
}

// A reduction of `x` over `axes` of `body(input index)`, on the call's result shape.
Tensor fold(
    LegalizeContext& ctx, tir::ComputeBuilder& compute, const std::string& name, const Tensor& x,
    const ReductionAxes& axes, ReduceKind kind,
    const std::function<PrimExpr(const std::vector<PrimExpr>&, const std::vector<Var>&)>& body) {
  return compute.reduce(name, ctx.result_shape(compute), x.dtype(), kind, axes.extents(x),
                        [&](const std::vector<Var>& i, const std::vector<Var>& r) {
                          return body(axes.input_index(i, r), i);
                        });
}

LegalizeFn simple(const std::string& name, ReduceKind kind) {
  return [name, kind](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    Tensor x = ctx.input(compute, 0);
    ReductionAxes axes = call_axes(ctx.call(), x.ndim());
    Tensor out =
        fold(ctx, compute, "T_" + name, x, axes, kind,
             [&](const std::vector<PrimExpr>& in, const std::vector<Var>&) { return x(in); });
    return ctx.call_tir(name, compute, {out}, tir::OpPattern::CommReduce);
  };
}

// mean (squared = false); variance and std (squared, with a square root for std).
LegalizeFn moment(const std::string& name, bool squared, bool root) {
  return [name, squared, root](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    Tensor x = ctx.input(compute, 0);
    ReductionAxes axes = call_axes(ctx.call(), x.ndim());
    PrimExpr n = axes.count(x, x.dtype());
    auto identity = [&](const std::vector<PrimExpr>& in, const std::vector<Var>&) { return x(in); };
    Tensor sum = fold(ctx, compute, "T_sum", x, axes, ReduceKind::Sum, identity);
    Tensor mean =
        compute.compute("T_mean", ctx.result_shape(compute), x.dtype(),
                        [&](const std::vector<Var>& i) { return tir::truncdiv(sum(i), n); });
    Tensor out = mean;
    if (squared) {
      Tensor square_sum = fold(ctx, compute, "T_square_sum", x, axes, ReduceKind::Sum,
                               [&](const std::vector<PrimExpr>& in, const std::vector<Var>& i) {
                                 PrimExpr d = tir::sub(x(in), mean(i));
                                 return tir::mul(d, d);
                               });
      out = compute.compute("T_" + name, ctx.result_shape(compute), x.dtype(),
                            [&](const std::vector<Var>& i) {
                              PrimExpr v = tir::truncdiv(square_sum(i), n);
                              return root ? tir::call(v->dtype, "tir.sqrt", {v}) : v;
                            });
    }
    return ctx.call_tir(name, compute, {out}, tir::OpPattern::CommReduce);
  };
}

// argmax (largest) / argmin: the least flat position, among the folded axes, holding
// the extreme value (numpy's first occurrence).
LegalizeFn arg_extreme(const std::string& name, bool largest) {
  return [name, largest](LegalizeContext& ctx) {
    tir::ComputeBuilder compute;
    Tensor x = ctx.input(compute, 0);
    ReductionAxes axes = call_axes(ctx.call(), x.ndim());
    DataType index_dtype = ctx.result_dtype();
    Tensor extreme =
        fold(ctx, compute, largest ? "T_max" : "T_min", x, axes,
             largest ? ReduceKind::Max : ReduceKind::Min,
             [&](const std::vector<PrimExpr>& in, const std::vector<Var>&) { return x(in); });
    // The position is found in int32 (kernels index in int32 and refuse the largest
    // int64 as a constant, the identity of an int64 min), then widened.
    std::vector<PrimExpr> extents = axes.extents(x);
    DataType position_dtype = DataType::Int(32);
    PrimExpr past_end = axes.count(x, position_dtype);
    Tensor position = compute.reduce(
        "T_" + name + "_position", ctx.result_shape(compute), position_dtype, ReduceKind::Min,
        extents, [&](const std::vector<Var>& i, const std::vector<Var>& r) {
          PrimExpr flat = r[0];
          for (size_t k = 1; k < r.size(); ++k) flat = tir::add(tir::mul(flat, extents[k]), r[k]);
          return tir::select(tir::eq(x(axes.input_index(i, r)), extreme(i)),
                             tir::cast(position_dtype, flat), past_end);
        });
    Tensor out = compute.compute(
        "T_" + name, ctx.result_shape(compute), index_dtype,
        [&](const std::vector<Var>& i) { return tir::cast(index_dtype, position(i)); });
    return ctx.call_tir(name, compute, {out}, tir::OpPattern::CommReduce);
  };
}

}  // namespace

void add_statistical_legalizations(LegalizationTable& table) {
  table["relax.sum"] = simple("sum", ReduceKind::Sum);
  table["relax.prod"] = simple("prod", ReduceKind::Prod);
  table["relax.max"] = simple("max", ReduceKind::Max);
  table["relax.min"] = simple("min", ReduceKind::Min);
  table["relax.mean"] = moment("mean", false, false);
  table["relax.variance"] = moment("variance", true, false);
  table["relax.std"] = moment("std", true, true);
  table["relax.argmax"] = arg_extreme("argmax", true);
  table["relax.argmin"] = arg_extreme("argmin", false);
}

}  // namespace relaxc::relax
