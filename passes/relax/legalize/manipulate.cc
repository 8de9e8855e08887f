// Legalizations of the manipulation operators: expand_dims and squeeze as reshape
// views, permute_dims, concat, split, broadcast_to, tile, repeat, flip, and the scans
// cumsum and cumprod.
#include "ir/relax/ops/op_common.h"
#include "ir/text/printer.h"
#include "passes/relax/legalize/legalize.h"

namespace relaxc::relax {

namespace {

using tir::PrimExpr;
using Indices = std::vector<tir::Var>;

std::vector<PrimExpr> as_exprs(const Indices& i) { return {i.begin(), i.end()}; }

int64_t int_attr_of(const CallNode* call, const std::string& name) {
  return call->attrs.find(name)->i;
}

// The attribute `name` if it is set (not None).
const AttrValue* set_attr(const CallNode* call, const std::string& name) {
  const AttrValue* v = call->attrs.find(name);
  return v != nullptr && !v->is_none() ? v : nullptr;
}

// The row-major indices into `shape` of flat index `flat`.
std::vector<PrimExpr> unravel(PrimExpr flat, const std::vector<PrimExpr>& shape) {
  std::vector<PrimExpr> out(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    out[d] = d == 0 ? flat : tir::floormod(flat, shape[d]);
    flat = tir::floordiv(flat, shape[d]);
  }
  return out;
}

// A view of the call's first argument with the call's result shape (R.reshape, which
// the VM runs without a copy): expand_dims and squeeze only move dimensions of 1.
Expr reshape_view(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  const std::vector<PrimExpr>* shape = known_dims(*call->struct_info.as<TensorStructInfoNode>());
  if (shape == nullptr) {
    user_error(ctx.span()) << ctx.describe()
                           << ": cannot legalize: the shape of the result is not known ("
                           << text::print_node(call->struct_info) << ")";
  }
  return ctx.builder().call_op(
      "relax.reshape", {call->args[0], make_shape_expr(*shape, call->span)}, {}, {}, call->span);
}

// A tensor argument flattened to 1-D (a reshape view), for the axis=None forms.
Expr flattened(LegalizeContext& ctx, const Expr& tensor) {
  const auto& sinfo = *tensor->struct_info.as<TensorStructInfoNode>();
  PrimExpr count = dims_product(*known_dims(sinfo), ctx.builder().analyzer());
  return ctx.emit_op("relax.reshape", {tensor, make_shape_expr({count}, ctx.call()->span)});
}

Expr legalize_permute_dims(LegalizeContext& ctx) {
  tir::ComputeBuilder compute;
  tir::Tensor x = ctx.input(compute, 0);
  std::optional<std::vector<int64_t>> axes = optional_int_list_attr(ctx.call(), "axes");
  std::vector<int> perm(x.ndim());
  for (int k = 0; k < x.ndim(); ++k) {
    perm[k] = axes ? normalize_axis(ctx.call(), "axes", (*axes)[k], x.ndim()) : x.ndim() - 1 - k;
  }
  tir::Tensor out =
      compute.compute("T_transpose", ctx.result_shape(compute), x.dtype(), [&](const Indices& i) {
        std::vector<PrimExpr> at(x.ndim());
        for (int k = 0; k < x.ndim(); ++k) at[perm[k]] = i[k];
        return x(at);
      });
  return ctx.call_tir("transpose", compute, {out}, tir::OpPattern::Injective);
}

// Each output element reads the one tensor whose range along the axis holds it; the
// reads are guarded (tir.if_then_else), so no tensor is read outside its extent.
Expr legalize_concat(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  const auto* tuple = call->args[0].as<TupleNode>();
  std::vector<Expr> fields;
  if (tuple != nullptr) {
    fields = tuple->fields;
  } else {
    size_t count = call->args[0]->struct_info.as<TupleStructInfoNode>()->fields.size();
    for (size_t k = 0; k < count; ++k) {
      fields.push_back(ctx.builder().tuple_get_item(call->args[0], static_cast<int>(k)));
    }
  }
  const AttrValue* axis_attr = set_attr(call, "axis");
  if (axis_attr == nullptr) {
    for (Expr& field : fields) field = flattened(ctx, field);
  }
  tir::ComputeBuilder compute;
  std::vector<tir::Tensor> tensors;
  for (size_t k = 0; k < fields.size(); ++k) {
    tensors.push_back(ctx.input(compute, fields[k], "tensors_" + std::to_string(k)));
  }
  int ndim = tensors[0].ndim();
  int axis = axis_attr == nullptr ? 0 : normalize_axis(call, "axis", axis_attr->i, ndim);
  arith::Analyzer& analyzer = ctx.builder().analyzer();
  std::vector<PrimExpr> offsets = {const_dim(0)};
  for (const tir::Tensor& t : tensors) {
    offsets.push_back(analyzer.simplify(tir::add(offsets.back(), t.shape()[axis])));
  }
  tir::Tensor out = compute.compute(
      "T_concat", ctx.result_shape(compute), ctx.result_dtype(), [&](const Indices& i) {
        auto at = [&](size_t k) {
          std::vector<PrimExpr> idx = as_exprs(i);
          if (!tir::is_const_int(offsets[k], 0)) idx[axis] = tir::sub(i[axis], offsets[k]);
          return idx;
        };
        PrimExpr value = tensors.back()(at(tensors.size() - 1));
        for (size_t k = tensors.size() - 1; k-- > 0;) {
          value = tir::load_if(tir::lt(i[axis], offsets[k + 1]), tensors[k], at(k), value);
        }
        return value;
      });
  return ctx.call_tir("concatenate", compute, {out}, tir::OpPattern::Injective);
}

// One function writes every part: part k reads the input from its first index on.
Expr legalize_split(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  size_t count = call->struct_info.as<TupleStructInfoNode>()->fields.size();
  // One part is the input itself: no kernel.
  if (count == 1) return ctx.builder().tuple({call->args[0]}, call->span);
  tir::ComputeBuilder compute;
  tir::Tensor x = ctx.input(compute, 0);
  int axis = normalize_axis(call, "axis", int_attr_of(call, "axis"), x.ndim());
  const AttrValue& spec = *call->attrs.find("indices_or_sections");
  const PrimExpr& n = x.shape()[axis];
  std::vector<tir::Tensor> parts;
  for (size_t k = 0; k < count; ++k) {
    PrimExpr begin;
    if (spec.kind == AttrValue::Kind::Int) {
      begin = tir::mul(ctx.result_shape(compute, 0)[axis], const_dim(static_cast<int64_t>(k)));
    } else {
      begin = k == 0 ? const_dim(0)
                     : tir::min(tir::max(const_dim(spec.list[k - 1].i), const_dim(0)), n);
    }
    begin = ctx.builder().analyzer().simplify(begin);
    parts.push_back(compute.compute("T_split_" + std::to_string(k),
                                    ctx.result_shape(compute, static_cast<int>(k)), x.dtype(),
                                    [&](const Indices& i) {
                                      std::vector<PrimExpr> idx = as_exprs(i);
                                      if (!tir::is_const_int(begin, 0)) {
                                        idx[axis] = tir::add(i[axis], begin);
                                      }
                                      return x(idx);
                                    }));
  }
  return ctx.call_tir("split", compute, parts, tir::OpPattern::Injective);
}

// numpy broadcasting of `x` to the output (aligned at the right; a dimension of 1 reads
// index 0).
std::vector<PrimExpr> broadcast_read(const tir::Tensor& x, const Indices& i) {
  std::vector<PrimExpr> idx;
  size_t offset = i.size() - x.shape().size();
  for (size_t d = 0; d < x.shape().size(); ++d) {
    idx.push_back(tir::is_const_int(x.shape()[d], 1) ? tir::make_const(i[offset + d]->dtype, 0)
                                                     : PrimExpr(i[offset + d]));
  }
  return idx;
}

Expr legalize_broadcast_to(LegalizeContext& ctx) {
  tir::ComputeBuilder compute;
  tir::Tensor x = ctx.input(compute, 0);
  tir::Tensor out = compute.compute("T_broadcast_to", ctx.result_shape(compute), x.dtype(),
                                    [&](const Indices& i) { return x(broadcast_read(x, i)); });
  return ctx.call_tir("broadcast_to", compute, {out}, tir::OpPattern::Broadcast);
}

Expr legalize_tile(LegalizeContext& ctx) {
  tir::ComputeBuilder compute;
  tir::Tensor x = ctx.input(compute, 0);
  tir::Tensor out =
      compute.compute("T_tile", ctx.result_shape(compute), x.dtype(), [&](const Indices& i) {
        std::vector<PrimExpr> idx;
        size_t offset = i.size() - x.shape().size();
        for (size_t d = 0; d < x.shape().size(); ++d) {
          idx.push_back(tir::floormod(i[offset + d], x.shape()[d]));
        }
        return x(idx);
      });
  return ctx.call_tir("tile", compute, {out}, tir::OpPattern::Injective);
}

Expr legalize_repeat(LegalizeContext& ctx) {
  const CallNode* call = ctx.call();
  tir::ComputeBuilder compute;
  tir::Tensor x = ctx.input(compute, 0);
  PrimExpr repeats = const_dim(int_attr_of(call, "repeats"));
  const AttrValue* axis_attr = set_attr(call, "axis");
  tir::Tensor out =
      compute.compute("T_repeat", ctx.result_shape(compute), x.dtype(), [&](const Indices& i) {
        if (axis_attr == nullptr) return x(unravel(tir::floordiv(i[0], repeats), x.shape()));
        int axis = normalize_axis(call, "axis", axis_attr->i, x.ndim());
        std::vector<PrimExpr> idx = as_exprs(i);
        idx[axis] = tir::floordiv(i[axis], repeats);
        return x(idx);
      });
  return ctx.call_tir("repeat", compute, {out}, tir::OpPattern::Injective);
}

Expr legalize_flip(LegalizeContext& ctx) {
  tir::ComputeBuilder compute;
  tir::Tensor x = ctx.input(compute, 0);
  int axis = normalize_axis(ctx.call(), "axis", int_attr_of(ctx.call(), "axis"), x.ndim());
  PrimExpr last = ctx.builder().analyzer().simplify(tir::sub(x.shape()[axis], const_dim(1)));
  tir::Tensor out = compute.compute("T_reverse", x.shape(), x.dtype(), [&](const Indices& i) {
    std::vector<PrimExpr> idx = as_exprs(i);
    idx[axis] = tir::sub(last, i[axis]);
    return x(idx);
  });
  return ctx.call_tir("flip", compute, {out}, tir::OpPattern::Injective);
}

// out[i] = the sum (product) of x along the axis up to i (exclusive: before i), as a
// reduction over the whole axis whose terms past i are the identity: a block schedules
// see as a reduction.
LegalizeFn scan(const std::string& name, tir::ReduceKind kind) {
  return [name, kind](LegalizeContext& ctx) {
    const CallNode* call = ctx.call();
    const AttrValue* axis_attr = set_attr(call, "axis");
    Expr data = axis_attr == nullptr ? flattened(ctx, call->args[0]) : call->args[0];
    tir::ComputeBuilder compute;
    tir::Tensor x = ctx.input(compute, data, "data");
    int axis = axis_attr == nullptr ? 0 : normalize_axis(call, "axis", axis_attr->i, x.ndim());
    bool exclusive = call->attrs.find("exclusive")->b;
    DataType dtype = ctx.result_dtype();
    tir::Tensor out = compute.reduce(
        "T_" + name, ctx.result_shape(compute), dtype, kind, {x.shape()[axis]},
        [&](const Indices& i, const Indices& r) {
          std::vector<PrimExpr> idx = as_exprs(i);
          idx[axis] = r[0];
          PrimExpr in_range = exclusive ? tir::lt(r[0], i[axis]) : tir::le(r[0], i[axis]);
          PrimExpr value = x(idx);
          if (value->dtype != dtype) value = tir::cast(dtype, value);
          return tir::select(in_range, value, tir::reduce_identity(kind, dtype));
        });
    return ctx.call_tir(name, compute, {out}, tir::OpPattern::Opaque);
  };
}

}  // namespace

void add_manipulate_legalizations(LegalizationTable& table) {
  table["relax.expand_dims"] = reshape_view;
  table["relax.squeeze"] = reshape_view;
  table["relax.permute_dims"] = legalize_permute_dims;
  table["relax.concat"] = legalize_concat;
  table["relax.split"] = legalize_split;
  table["relax.broadcast_to"] = legalize_broadcast_to;
  table["relax.tile"] = legalize_tile;
  table["relax.repeat"] = legalize_repeat;
  table["relax.flip"] = legalize_flip;
  table["relax.cumsum"] = scan("cumsum", tir::ReduceKind::Sum);
  table["relax.cumprod"] = scan("cumprod", tir::ReduceKind::Prod);
}

}  // namespace relaxc::relax
