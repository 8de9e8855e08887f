// Legalizations of sort, argsort and topk by ranks: the rank of each element along the
// axis is the number of elements ordered before it (ties by position, so ranks are a
// permutation: a stable sort), a sum reduction; output position p then gathers the
// element of rank p with a sum over the axis of which every other term is 0. O(n^2) work per row,
// every stage a reduction the default GPU schedule runs across threads.
#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;
using tir::ReduceKind;
using tir::Tensor;
using tir::Var;

// `index` with entry `axis` replaced by `value`.
std::vector<PrimExpr> at_axis(const std::vector<Var>& index, int axis, const PrimExpr& value) {
  std::vector<PrimExpr> out(index.begin(), index.end());
  out[axis] = value;
  return out;
}

struct Ranked {
  Tensor x, rank;
  int axis;
};

// The rank of every element of argument 0 along `axis`: ascending, or descending.
Ranked rank(LegalizeContext& ctx, tir::ComputeBuilder& compute, bool descending) {
  Ranked r;
  r.x = ctx.input(compute, 0);
  r.axis = normalize_axis(ctx.call(), "axis", int_attr(ctx.call(), "axis"), r.x.ndim());
  const Tensor& x = r.x;
  int axis = r.axis;
  DataType index = DataType::Int(64);
  r.rank =
      compute.reduce("T_rank", x.shape(), index, ReduceKind::Sum, {x.shape()[axis]},
                     [&](const std::vector<Var>& i, const std::vector<Var>& j) {
                       PrimExpr mine = x(i), other = x(at_axis(i, axis, j[0]));
                       PrimExpr before = descending ? tir::gt(other, mine) : tir::lt(other, mine);
                       before = tir::logical_or(
                           before, tir::logical_and(tir::eq(other, mine), tir::lt(j[0], i[axis])));
                       return tir::cast(index, before);
                     });
  return r;
}

// The stage gathering, at each position p < out_shape[axis], `value(j)` of the element
// whose rank is p.
Tensor gather_by_rank(tir::ComputeBuilder& compute, const Ranked& r, const std::string& name,
                      const std::vector<PrimExpr>& out_shape, DataType dtype,
                      const std::function<PrimExpr(const std::vector<PrimExpr>&)>& value) {
  int axis = r.axis;
  // A sum: 0 + v is v for every value but -0.0 (which becomes 0.0), where a max would
  // turn -inf into its identity, the lowest finite value, and kernels refuse the least
  // int64 as a constant.
  return compute.reduce(name, out_shape, dtype, ReduceKind::Sum, {r.x.shape()[axis]},
                        [&](const std::vector<Var>& p, const std::vector<Var>& j) {
                          std::vector<PrimExpr> source = at_axis(p, axis, j[0]);
                          PrimExpr position = p[axis];
                          return tir::select(tir::eq(r.rank(source), position), value(source),
                                             tir::make_const(dtype, 0));
                        });
}

PrimExpr position_of(const std::vector<PrimExpr>& index, int axis, DataType dtype) {
  return index[axis]->dtype == dtype ? index[axis] : tir::cast(dtype, index[axis]);
}

Expr legalize_sort(LegalizeContext& ctx) {
  tir::ComputeBuilder compute;
  Ranked r = rank(ctx, compute, bool_attr(ctx.call(), "descending"));
  Tensor out = gather_by_rank(compute, r, "T_sort", r.x.shape(), r.x.dtype(),
                              [&](const std::vector<PrimExpr>& s) { return r.x(s); });
  return ctx.call_tir("sort", compute, {out}, tir::OpPattern::Opaque);
}

Expr legalize_argsort(LegalizeContext& ctx) {
  tir::ComputeBuilder compute;
  Ranked r = rank(ctx, compute, bool_attr(ctx.call(), "descending"));
  DataType dtype = ctx.result_dtype();
  Tensor out =
      gather_by_rank(compute, r, "T_argsort", r.x.shape(), dtype,
                     [&](const std::vector<PrimExpr>& s) { return position_of(s, r.axis, dtype); });
  return ctx.call_tir("argsort", compute, {out}, tir::OpPattern::Opaque);
}

// topk: the first k of the sort (descending for the largest), values and/or indices.
Expr legalize_topk(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  tir::ComputeBuilder compute;
  Ranked r = rank(ctx, compute, bool_attr(call, "largest"));
  std::string ret_type = string_attr(call, "ret_type");
  bool both = ret_type == "both";
  std::vector<tir::Tensor> outputs;
  if (both || ret_type == "values") {
    outputs.push_back(gather_by_rank(compute, r, "T_topk_values",
                                     ctx.result_shape(compute, both ? 0 : -1), r.x.dtype(),
                                     [&](const std::vector<PrimExpr>& s) { return r.x(s); }));
  }
  if (both || ret_type == "indices") {
    DataType dtype = ctx.result_dtype(both ? 1 : -1);
    outputs.push_back(gather_by_rank(
        compute, r, "T_topk_indices", ctx.result_shape(compute, both ? 1 : -1), dtype,
        [&](const std::vector<PrimExpr>& s) { return position_of(s, r.axis, dtype); }));
  }
  return ctx.call_tir("topk", compute, outputs, tir::OpPattern::Opaque);
}

}  // namespace

void add_sort_legalizations(LegalizationTable& table) {
  table["relax.sort"] = legalize_sort;
  table["relax.argsort"] = legalize_argsort;
  table["relax.topk"] = legalize_topk;
}

}  // namespace relaxc::relax
