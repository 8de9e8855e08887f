// Legalizations of the indexing operators: strided_slice, take, gather_elements,
// gather_nd, scatter_elements, scatter_nd.
#include <cmath>
#include <functional>
#include <optional>

#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"
#include "passes/relax/legalize/legalize.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;
using Indices = std::vector<tir::Var>;

// An index read from an index tensor (int32 or int64), as an index of `dtype`, with a
// negative one counting from the end of `extent` (ONNX's Gather, GatherElements and
// GatherND; numpy's take).
PrimExpr wrap_negative(PrimExpr index, const PrimExpr& extent) {
  DataType dtype = extent->dtype;
  if (index->dtype != dtype) index = tir::cast(dtype, index);
  return tir::select(tir::lt(index, tir::make_const(dtype, 0)), tir::add(index, extent), index);
}

// The index to read at: wrapped as above, then clamped into [0, extent), so that an index
// out of range (undefined in ONNX, unchecked in TVM's "fast" mode; a kernel cannot report
// it) reads the nearest element rather than memory outside the tensor.
PrimExpr read_index(const PrimExpr& index, const PrimExpr& extent) {
  DataType dtype = extent->dtype;
  PrimExpr last = arith::simplify(tir::sub(extent, tir::make_const(dtype, 1)));
  return tir::min(tir::max(wrap_negative(index, extent), tir::make_const(dtype, 0)), last);
}

Expr legalize_strided_slice(LegalizeContext& ctx) {
  tir::ComputeBuilder compute;
  tir::Tensor x = ctx.input(compute, 0);
  std::optional<StridedSlice> slice = strided_slice_of(ctx.call());
  RELAXC_ICHECK(slice) << "strided_slice legalized with an unknown result shape";
  tir::Tensor out = compute.compute(
      "T_strided_slice", ctx.result_shape(compute), x.dtype(), [&](const Indices& i) {
        std::vector<PrimExpr> idx(i.begin(), i.end());
        for (size_t k = 0; k < slice->axes.size(); ++k) {
          int a = slice->axes[k];
          idx[a] = tir::add(compute.import(slice->begins[k]),
                            tir::mul(i[a], const_dim(slice->strides[k])));
        }
        return x(idx);
      });
  return ctx.call_tir("strided_slice", compute, {out}, tir::OpPattern::Injective);
}

// The modes of TVM's take: "fast" reads the index as given (a negative one counting
// from the end, as ONNX's Gather), "clip" clamps it into the axis, "wrap" takes it
// modulo the axis, "nan" gives NaN where it is out of range.
Expr legalize_take(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  tir::ComputeBuilder compute;
  tir::Tensor x = ctx.input(compute, 0);
  // A PrimValue index is one index (a 0-d tensor of indices).
  std::optional<tir::Tensor> indices;
  PrimExpr scalar_index;
  if (call->args[1]->struct_info.is<PrimStructInfoNode>()) {
    scalar_index = ctx.prim_arg(compute, 1);
  } else {
    indices = ctx.input(compute, 1);
  }
  int indices_ndim = indices ? indices->ndim() : 0;
  const AttrValue* axis_attr = call->attrs.find("axis");
  int axis = axis_attr == nullptr || axis_attr->is_none()
                 ? 0
                 : normalize_axis(call, "axis", axis_attr->i, x.ndim());
  const std::string& mode = call->attrs.find("mode")->s;
  const PrimExpr& n = x.shape()[axis];
  tir::Tensor out =
      compute.compute("T_take", ctx.result_shape(compute), x.dtype(), [&](const Indices& i) {
        std::vector<PrimExpr> at(i.begin() + axis, i.begin() + axis + indices_ndim);
        PrimExpr index = indices ? (*indices)(at) : scalar_index;
        if (index->dtype != n->dtype) index = tir::cast(n->dtype, index);
        std::vector<PrimExpr> idx(i.begin(), i.begin() + axis);
        idx.push_back(PrimExpr());
        idx.insert(idx.end(), i.begin() + axis + indices_ndim, i.end());
        PrimExpr zero = tir::make_const(n->dtype, 0);
        if (mode == "clip") {
          idx[axis] = tir::min(tir::max(index, zero), tir::sub(n, tir::make_const(n->dtype, 1)));
        } else if (mode == "wrap") {
          idx[axis] = tir::floormod(index, n);
        } else if (mode == "nan") {
          idx[axis] = index;
          PrimExpr inside = tir::logical_and(tir::ge(index, zero), tir::lt(index, n));
          return tir::load_if(inside, x, idx, tir::make_const(x.dtype(), std::nan("")));
        } else {
          idx[axis] = read_index(index, n);
        }
        return x(idx);
      });
  return ctx.call_tir("take", compute, {out}, tir::OpPattern::Injective);
}

Expr legalize_gather_elements(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  tir::Tensor indices = ctx.input(compute, 1);
  int axis = normalize_axis(call, "axis", call->attrs.find("axis")->i, data.ndim());
  tir::Tensor out = compute.compute("T_gather_elements", ctx.result_shape(compute), data.dtype(),
                                    [&](const Indices& i) {
                                      std::vector<PrimExpr> idx(i.begin(), i.end());
                                      idx[axis] = read_index(indices(i), data.shape()[axis]);
                                      return data(idx);
                                    });
  return ctx.call_tir("gather_elements", compute, {out}, tir::OpPattern::Injective);
}

// out[b, j, t] = data[b, indices[b, j, 0], ..., indices[b, j, depth - 1], t] for batch
// indices b, index positions j and trailing indices t.
Expr legalize_gather_nd(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  tir::Tensor indices = ctx.input(compute, 1);
  int batch_dims = static_cast<int>(call->attrs.find("batch_dims")->i);
  int positions = indices.ndim() - 1;
  int depth = static_cast<int>(*tir::as_const_int(indices.shape().back()));
  tir::Tensor out = compute.compute(
      "T_gather_nd", ctx.result_shape(compute), data.dtype(), [&](const Indices& i) {
        std::vector<PrimExpr> idx(i.begin(), i.begin() + batch_dims);
        for (int k = 0; k < depth; ++k) {
          std::vector<PrimExpr> at(i.begin(), i.begin() + positions);
          at.push_back(tir::make_const(indices.shape().back()->dtype, k));
          idx.push_back(read_index(indices(at), data.shape()[batch_dims + k]));
        }
        idx.insert(idx.end(), i.begin() + positions, i.end());
        return data(idx);
      });
  return ctx.call_tir("gather_nd", compute, {out}, tir::OpPattern::Injective);
}

// The scatters, over one reduction index r: one candidate update per r may target
// output index i. out[i] = data[i] where none does; otherwise the last that does
// ("update"), or data[i] combined with every one that does ("add", "mul", "max",
// "min"). A reduction over r finds them (with "update", the last one's r), a second
// stage combines it with data.
struct ScatterTargets {
  PrimExpr extent;  // of r
  // Whether candidate r targets output index i (its reads guarded).
  std::function<PrimExpr(const std::vector<PrimExpr>& i, const PrimExpr& r)> targets;
  // The indices into updates of candidate r for output index i.
  std::function<std::vector<PrimExpr>(const std::vector<PrimExpr>& i, const PrimExpr& r)> update_at;
};

Expr scatter(LegalizeContext& ctx, tir::ComputeBuilder& compute, const tir::Tensor& data,
             const tir::Tensor& updates, const ScatterTargets& t, const std::string& name) {
  const CallNode* call = ctx.call();
  const std::string& reduction = call->attrs.find("reduction")->s;
  const std::vector<PrimExpr>& shape = data.shape();
  DataType dtype = data.dtype();
  auto exprs = [](const Indices& i) { return std::vector<PrimExpr>(i.begin(), i.end()); };
  if (reduction == "update") {
    tir::Tensor last = compute.reduce(
        "T_" + name + "_last", shape, DataType::Int(64), tir::ReduceKind::Max, {t.extent},
        [&](const Indices& i, const Indices& r) {
          return tir::select(t.targets(exprs(i), r[0]), PrimExpr(r[0]), const_dim(-1));
        });
    tir::Tensor out = compute.compute("T_" + name, shape, dtype, [&](const Indices& i) {
      PrimExpr r = last(i);
      return tir::load_if(tir::ge(r, const_dim(0)), updates, t.update_at(exprs(i), r), data(i));
    });
    return ctx.call_tir(name, compute, {out}, tir::OpPattern::Opaque);
  }
  using Combine = PrimExpr (*)(PrimExpr, PrimExpr, Span);
  tir::ReduceKind kind;
  Combine combine;
  if (reduction == "add") {
    kind = tir::ReduceKind::Sum, combine = tir::add;
  } else if (reduction == "mul") {
    kind = tir::ReduceKind::Prod, combine = tir::mul;
  } else if (reduction == "max") {
    kind = tir::ReduceKind::Max, combine = tir::max;
  } else if (reduction == "min") {
    kind = tir::ReduceKind::Min, combine = tir::min;
  } else {
    user_error(ctx.span()) << ctx.describe() << ": cannot legalize attribute 'reduction' \""
                           << reduction << "\" yet (\"update\", \"add\", \"mul\", \"max\" and "
                           << "\"min\" are)";
  }
  tir::Tensor combined = compute.reduce("T_" + name + "_" + reduction, shape, dtype, kind,
                                        {t.extent}, [&](const Indices& i, const Indices& r) {
                                          return tir::load_if(t.targets(exprs(i), r[0]), updates,
                                                              t.update_at(exprs(i), r[0]),
                                                              tir::reduce_identity(kind, dtype));
                                        });
  tir::Tensor out = compute.compute("T_" + name, shape, dtype, [&](const Indices& i) {
    return combine(data(i), combined(i), Span());
  });
  return ctx.call_tir(name, compute, {out}, tir::OpPattern::Opaque);
}

// Candidate r of output index i is the update at i with the axis index r, where i
// lies within updates' other dimensions.
Expr legalize_scatter_elements(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  tir::Tensor indices = ctx.input(compute, 1);
  tir::Tensor updates = ctx.input(compute, 2);
  int axis = normalize_axis(call, "axis", call->attrs.find("axis")->i, data.ndim());
  ScatterTargets t;
  t.extent = updates.shape()[axis];
  t.update_at = [axis](const std::vector<PrimExpr>& i, const PrimExpr& r) {
    std::vector<PrimExpr> at = i;
    at[axis] = r;
    return at;
  };
  // Where updates is as long as data in a dimension, every i lies within it.
  std::vector<int> shorter;
  for (int d = 0; d < data.ndim(); ++d) {
    if (d != axis &&
        !ctx.builder().analyzer().can_prove_equal(updates.shape()[d], data.shape()[d])) {
      shorter.push_back(d);
    }
  }
  t.targets = [&](const std::vector<PrimExpr>& i, const PrimExpr& r) {
    PrimExpr index = indices(t.update_at(i, r));
    PrimExpr inside;
    for (int d : shorter) {
      PrimExpr within = tir::lt(i[d], updates.shape()[d]);
      inside = inside.defined() ? tir::logical_and(inside, within) : within;
    }
    if (inside.defined()) {
      index = tir::load_if(inside, indices, t.update_at(i, r), tir::make_const(index->dtype, 0));
    }
    PrimExpr hit = tir::eq(wrap_negative(index, data.shape()[axis]), i[axis]);
    return inside.defined() ? tir::logical_and(inside, hit) : hit;
  };
  return scatter(ctx, compute, data, updates, t, "scatter_elements");
}

// Candidate r is row r of indices (flattened to (rows, depth)) and of updates
// (flattened to (rows,) + data.shape[depth:]): reshape views.
Expr legalize_scatter_nd(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  const auto& index_sinfo = *call->args[1]->struct_info.as<TensorStructInfoNode>();
  const std::vector<PrimExpr>& index_dims = *known_dims(index_sinfo);
  const int64_t depth = *tir::as_const_int(index_dims.back());
  arith::Analyzer& analyzer = ctx.builder().analyzer();
  PrimExpr rows =
      dims_product(std::vector<PrimExpr>(index_dims.begin(), index_dims.end() - 1), analyzer);
  const auto& data_sinfo = *call->args[0]->struct_info.as<TensorStructInfoNode>();
  std::vector<PrimExpr> update_dims = {rows};
  for (size_t d = static_cast<size_t>(depth); d < known_dims(data_sinfo)->size(); ++d) {
    update_dims.push_back((*known_dims(data_sinfo))[d]);
  }
  Expr flat_indices = call->args[1], flat_updates = call->args[2];
  if (index_dims.size() != 2) {
    flat_indices = ctx.emit_op(
        "relax.reshape", {flat_indices, make_shape_expr({rows, const_dim(depth)}, call->span)});
    flat_updates =
        ctx.emit_op("relax.reshape", {flat_updates, make_shape_expr(update_dims, call->span)});
  }
  tir::ComputeBuilder compute;
  tir::Tensor data = ctx.input(compute, 0);
  tir::Tensor indices = ctx.input(compute, flat_indices, "indices");
  tir::Tensor updates = ctx.input(compute, flat_updates, "updates");
  ScatterTargets t;
  t.extent = indices.shape()[0];
  t.update_at = [depth](const std::vector<PrimExpr>& i, const PrimExpr& r) {
    std::vector<PrimExpr> at = {r};
    at.insert(at.end(), i.begin() + depth, i.end());
    return at;
  };
  t.targets = [&](const std::vector<PrimExpr>& i, const PrimExpr& r) {
    PrimExpr match;
    for (int64_t j = 0; j < depth; ++j) {
      PrimExpr index = indices({r, tir::make_const(indices.shape()[1]->dtype, j)});
      PrimExpr hit = tir::eq(wrap_negative(index, data.shape()[j]), i[j]);
      match = match.defined() ? tir::logical_and(match, hit) : hit;
    }
    return match;
  };
  return scatter(ctx, compute, data, updates, t, "scatter_nd");
}

// Its result's shape depends on the values of begin, end and strides: a data-dependent
// shape, which legalize-ops leaves to later work (as nonzero and unique).
Expr refuse_dynamic_strided_slice(LegalizeContext& ctx) {
  user_error(ctx.span())
      << ctx.describe()
      << ": cannot legalize: the result's shape depends on the values of arguments 'begin', "
         "'end' and 'strides' (a data-dependent shape, not supported yet); use "
         "R.strided_slice with constant begin, end and strides";
}

}  // namespace

void add_index_legalizations(LegalizationTable& table) {
  table["relax.strided_slice"] = legalize_strided_slice;
  table["relax.take"] = legalize_take;
  table["relax.gather_elements"] = legalize_gather_elements;
  table["relax.gather_nd"] = legalize_gather_nd;
  table["relax.scatter_elements"] = legalize_scatter_elements;
  table["relax.scatter_nd"] = legalize_scatter_nd;
  table["relax.dynamic_strided_slice"] = refuse_dynamic_strided_slice;
}

}  // namespace relaxc::relax
