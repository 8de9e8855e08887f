// The shape family's converters: Shape, Size, Reshape, Flatten, Squeeze, Unsqueeze,
// Transpose, Concat, Split, Slice, Expand, Tile, Pad, ConstantOfShape, Range, EyeLike.
// Shapes that the graph computes arrive as integer expressions (shape_values.h), so a
// shape built from a dynamic dim stays symbolic; operands known only at run time go
// through shape_run_time.h.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <string>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"
#include "frontend/onnx/shape_run_time.h"
#include "frontend/onnx/shape_values.h"
#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::onnx_import {

namespace {

using relax::Expr;
using relax::PrimExpr;

// The constant integers of a shape input; an error if one is symbolic.
std::vector<int64_t> const_shape_input(const NodeContext& ctx, size_t i, const std::string& what) {
  std::vector<int64_t> out;
  std::vector<PrimExpr> elements = ctx.shape_input(i, what);
  for (size_t k = 0; k < elements.size(); ++k) {
    const int64_t* c = tir::as_const_int(elements[k]);
    if (c == nullptr) {
      ctx.unsupported("input " + std::to_string(i) + " '" + what + "' must be constant; entry " +
                      std::to_string(k) + " depends on a dynamic dim");
    }
    out.push_back(*c);
  }
  return out;
}

PrimExpr product(const std::vector<PrimExpr>& dims, size_t begin, size_t end) {
  PrimExpr p = relax::const_dim(1);
  for (size_t k = begin; k < end; ++k) p = tir::mul(p, dims[k]);
  return simplify_dims(p);
}

// The -1 of a Reshape: the input's element count over the product of the other target
// dims. Equal factors cancel first, so that (b, s, 512) -> (b, s, 8, -1) infers 64,
// not floordiv(b * s * 512, b * s * 8). A constant product past int64 is invalid.
PrimExpr infer_dim(NodeContext& ctx, std::vector<PrimExpr> in, std::vector<PrimExpr> others) {
  arith::Analyzer analyzer;
  int64_t in_const = 1, other_const = 1;
  std::vector<PrimExpr> in_sym, other_sym;
  for (const PrimExpr& d : in) {
    if (const int64_t* c = tir::as_const_int(d)) {
      if (__builtin_mul_overflow(in_const, *c, &in_const)) {
        ctx.invalid("input 0 'data': its element count is past 2^63");
      }
    } else {
      in_sym.push_back(d);
    }
  }
  for (const PrimExpr& d : others) {
    if (const int64_t* c = tir::as_const_int(d)) {
      if (__builtin_mul_overflow(other_const, *c, &other_const)) {
        ctx.invalid("input 1 'shape': the product of its entries other than the -1 is past 2^63");
      }
      continue;
    }
    auto same = std::find_if(in_sym.begin(), in_sym.end(),
                             [&](const PrimExpr& e) { return analyzer.can_prove_equal(e, d); });
    if (same != in_sym.end()) {
      in_sym.erase(same);
    } else {
      other_sym.push_back(d);
    }
  }
  PrimExpr num = relax::const_dim(1), den = relax::const_dim(other_const);
  for (const PrimExpr& d : in_sym) num = tir::mul(num, d);
  for (const PrimExpr& d : other_sym) den = tir::mul(den, d);
  if (other_sym.empty() && other_const != 0 && in_const % other_const == 0) {
    return analyzer.simplify(tir::mul(num, relax::const_dim(in_const / other_const)));
  }
  return analyzer.simplify(tir::floordiv(tir::mul(num, relax::const_dim(in_const)), den));
}

// ---------------------------------------------------------------- Shape, Size

// Both are computed at import time from the input's StructInfo (fold_on_shapes); they
// reach their converter only when the importer does not know the input's shape.
std::vector<Value> convert_shape_of(NodeContext& ctx) {
  std::optional<std::vector<Value>> folded = fold_on_shapes(ctx);
  if (!folded) {
    ctx.unsupported(
        "the shape of input 0 'data' is not known at import time (it depends on "
        "tensor values)");
  }
  return *folded;
}

// ---------------------------------------------------------------- Reshape, Flatten

std::vector<Value> convert_reshape(NodeContext& ctx) {
  bool allowzero = ctx.opset() >= 14 && ctx.attr_int("allowzero", 0) != 0;
  if (!known_at_import(ctx, 1)) return reshape_at_run_time(ctx, allowzero);
  // (The shape was an attribute before opset 5, older than relaxc imports.)
  std::vector<PrimExpr> target = ctx.shape_input(1, "shape");
  // The input's dims are needed only to copy (0) or infer (-1) one.
  std::vector<PrimExpr> in;
  for (const PrimExpr& d : target) {
    if (tir::is_const_int(d, -1) || (tir::is_const_int(d, 0) && !allowzero)) {
      in = input_dims(ctx, 0, "data");
      break;
    }
  }
  int infer_at = -1;
  for (size_t k = 0; k < target.size(); ++k) {
    const int64_t* c = tir::as_const_int(target[k]);
    if (c == nullptr) continue;
    if (*c == 0 && !allowzero) {
      if (k >= in.size()) {
        ctx.invalid("input 1 'shape': entry " + std::to_string(k) +
                    " is 0 (copy the input's dim) but the input has rank " +
                    std::to_string(in.size()));
      }
      target[k] = in[k];
    } else if (*c == -1) {
      if (infer_at >= 0) ctx.invalid("input 1 'shape' has more than one -1");
      infer_at = static_cast<int>(k);
    } else if (*c < 0) {
      ctx.invalid("input 1 'shape': entry " + std::to_string(k) + " is " + std::to_string(*c));
    }
  }
  if (infer_at >= 0) {
    std::vector<PrimExpr> others = target;
    others.erase(others.begin() + infer_at);
    target[infer_at] = infer_dim(ctx, in, others);
  }
  return single(emit_reshape(ctx, ctx.tensor(0), target));
}

std::vector<Value> convert_flatten(NodeContext& ctx) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "input");
  auto rank = static_cast<int64_t>(dims.size());
  int64_t axis = ctx.attr_int("axis", 1);
  if (axis < -rank || axis > rank) {
    ctx.invalid("attribute 'axis' " + std::to_string(axis) + " is out of range for rank " +
                std::to_string(rank));
  }
  if (axis < 0) axis += rank;
  return single(
      emit_reshape(ctx, ctx.tensor(0), {product(dims, 0, axis), product(dims, axis, dims.size())}));
}

// ---------------------------------------------------------------- Squeeze, Unsqueeze

// Axes: an attribute before opset 13, an input since.
std::optional<std::vector<int64_t>> axes_of(NodeContext& ctx) {
  if (ctx.opset() < 13) {
    if (!ctx.has_attr("axes")) return std::nullopt;
    return ctx.attr_ints("axes");
  }
  if (!ctx.has_input(1)) return std::nullopt;
  return const_shape_input(ctx, 1, "axes");
}

// Where axes_of found the axes, for an error.
std::string axes_what(const NodeContext& ctx) {
  return ctx.opset() < 13 ? "attribute 'axes'" : "input 1 'axes'";
}

std::vector<Value> convert_squeeze(NodeContext& ctx) {
  if (ctx.opset() >= 13 && ctx.has_input(1) && !known_at_import(ctx, 1)) {
    return squeeze_at_run_time(ctx);
  }
  int rank = input_rank(ctx, 0, "data");
  std::optional<std::vector<int64_t>> axes = axes_of(ctx);
  std::vector<int64_t> normalized;
  if (axes) {
    for (int64_t a : *axes) normalized.push_back(normalized_axis(ctx, a, rank, axes_what(ctx)));
  } else {
    // Without axes, every dim that is 1; a symbolic dim may be 1 only at run time.
    std::vector<PrimExpr> dims = input_dims(ctx, 0, "data");
    for (int k = 0; k < rank; ++k) {
      if (tir::as_const_int(dims[k]) == nullptr) {
        ctx.unsupported("no 'axes' and dim " + std::to_string(k) +
                        " is symbolic: which dims are 1 is known only at run time");
      }
      if (tir::is_const_int(dims[k], 1)) normalized.push_back(k);
    }
  }
  return single(ctx.emit_op("relax.squeeze", {ctx.tensor(0)},
                            Attrs({{"axis", AttrValue::int_list(normalized)}})));
}

std::vector<Value> convert_unsqueeze(NodeContext& ctx) {
  if (ctx.opset() >= 13 && ctx.has_input(1) && !known_at_import(ctx, 1)) {
    return unsqueeze_at_run_time(ctx);
  }
  std::optional<std::vector<int64_t>> axes = axes_of(ctx);
  if (!axes) ctx.invalid("needs 'axes'");
  int64_t out_rank = input_rank(ctx, 0, "data") + static_cast<int64_t>(axes->size());
  std::vector<int64_t> normalized;
  for (int64_t a : *axes) normalized.push_back(normalized_axis(ctx, a, out_rank, axes_what(ctx)));
  std::sort(normalized.begin(), normalized.end());
  return single(ctx.emit_op("relax.expand_dims", {ctx.tensor(0)},
                            Attrs({{"axis", AttrValue::int_list(normalized)}})));
}

// ---------------------------------------------------------------- Transpose, Concat

std::vector<Value> convert_transpose(NodeContext& ctx) {
  int rank = input_rank(ctx, 0, "data");
  std::vector<int64_t> perm;
  for (int k = rank - 1; k >= 0; --k) perm.push_back(k);
  perm = ctx.attr_ints("perm", perm);
  if (static_cast<int>(perm.size()) != rank) {
    ctx.invalid("attribute 'perm' has " + std::to_string(perm.size()) +
                " entries for an input of rank " + std::to_string(rank));
  }
  return single(ctx.emit_op("relax.permute_dims", {ctx.tensor(0)},
                            Attrs({{"axes", AttrValue::int_list(perm)}})));
}

std::vector<Value> convert_concat(NodeContext& ctx) {
  std::vector<Expr> parts;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) parts.push_back(ctx.tensor(i));
  int64_t axis =
      normalized_axis(ctx, ctx.attr_int("axis"), input_rank(ctx, 0, "inputs"), "attribute 'axis'");
  return single(ctx.emit_op("relax.concat", {ctx.builder().tuple(parts)},
                            Attrs({{"axis", AttrValue::integer(axis)}})));
}

// ---------------------------------------------------------------- Split

std::vector<Value> convert_split(NodeContext& ctx) {
  int rank = input_rank(ctx, 0, "input");
  int64_t axis = normalized_axis(ctx, ctx.attr_int("axis", 0), rank, "attribute 'axis'");
  auto outputs = static_cast<int64_t>(ctx.node().output_size());
  std::optional<std::vector<int64_t>> sizes;
  if (ctx.opset() < 13) {
    if (ctx.has_attr("split")) sizes = ctx.attr_ints("split");
  } else if (ctx.has_input(1)) {
    if (!known_at_import(ctx, 1)) return split_at_run_time(ctx, axis, static_cast<size_t>(outputs));
    sizes = const_shape_input(ctx, 1, "split");
  }
  AttrValue sections = AttrValue::integer(outputs);
  if (sizes) {
    if (static_cast<int64_t>(sizes->size()) != outputs) {
      ctx.invalid("'split' has " + std::to_string(sizes->size()) + " sizes for " +
                  std::to_string(outputs) + " outputs");
    }
    PrimExpr dim = input_dims(ctx, 0, "input")[axis];
    int64_t total = 0;
    std::vector<int64_t> indices;
    for (size_t k = 0; k + 1 < sizes->size(); ++k) indices.push_back(total += (*sizes)[k]);
    total += sizes->back();
    arith::Analyzer analyzer;
    if (!analyzer.can_prove_equal(dim, relax::const_dim(total))) {
      ctx.invalid("the sizes in 'split' add up to " + std::to_string(total) +
                  ", not to the dim being split");
    }
    sections = AttrValue::int_list(indices);
  }
  Expr tuple =
      ctx.emit_op("relax.split", {ctx.tensor(0)},
                  Attrs({{"indices_or_sections", sections}, {"axis", AttrValue::integer(axis)}}));
  std::vector<Value> out;
  for (int64_t k = 0; k < outputs; ++k) {
    out.push_back(Value{
        ctx.builder().emit(ctx.builder().tuple_get_item(tuple, static_cast<int>(k))), {}, {}});
  }
  return out;
}

// ---------------------------------------------------------------- Slice

Expr prim_tuple(NodeContext& ctx, const std::vector<PrimExpr>& values) {
  std::vector<Expr> fields;
  for (const PrimExpr& v : values) fields.push_back(relax::make_prim_value(v));
  return ctx.builder().tuple(fields);
}

std::vector<Value> convert_slice(NodeContext& ctx) {
  int rank = input_rank(ctx, 0, "data");
  std::vector<PrimExpr> starts, ends;
  std::vector<int64_t> axes, steps;
  if (ctx.opset() >= 10) {
    for (size_t i = 1; i < 5; ++i) {
      if ((i < 3 || ctx.has_input(i)) && !known_at_import(ctx, i)) return slice_at_run_time(ctx);
    }
  }
  if (ctx.opset() < 10) {
    for (int64_t s : ctx.attr_ints("starts")) starts.push_back(relax::const_dim(s));
    for (int64_t e : ctx.attr_ints("ends")) ends.push_back(relax::const_dim(e));
    if (ctx.has_attr("axes")) axes = ctx.attr_ints("axes");
  } else {
    starts = ctx.shape_input(1, "starts");
    ends = ctx.shape_input(2, "ends");
    if (ctx.has_input(3)) axes = const_shape_input(ctx, 3, "axes");
    if (ctx.has_input(4)) steps = const_shape_input(ctx, 4, "steps");
  }
  if (starts.size() != ends.size()) ctx.invalid("'starts' and 'ends' differ in length");
  if (axes.empty()) {
    for (size_t k = 0; k < starts.size(); ++k) axes.push_back(static_cast<int64_t>(k));
  }
  if (steps.empty()) steps.assign(starts.size(), 1);
  const std::string axes_what = ctx.opset() < 10 ? "attribute 'axes'" : "input 3 'axes'";
  if (axes.size() != starts.size() || steps.size() != starts.size()) {
    ctx.invalid("'axes' and 'steps' must have as many entries as 'starts'");
  }
  // Constant bounds go to one strided_slice (which clamps as ONNX does); a bound computed
  // from a dynamic dim is a take of the indices start + step * [0, length).
  std::vector<PrimExpr> axis_values, begin_values, end_values, step_values;
  std::vector<size_t> symbolic;
  for (size_t k = 0; k < axes.size(); ++k) {
    if (steps[k] == 0) ctx.invalid("'steps' entry " + std::to_string(k) + " is 0");
    if (!tir::as_const_int(starts[k]) || !tir::as_const_int(ends[k])) {
      symbolic.push_back(k);
      continue;
    }
    axis_values.push_back(relax::const_dim(normalized_axis(ctx, axes[k], rank, axes_what)));
    begin_values.push_back(starts[k]);
    end_values.push_back(ends[k]);
    step_values.push_back(relax::const_dim(steps[k]));
  }
  Expr x = ctx.tensor(0);
  if (!axis_values.empty()) {
    x = ctx.emit_op("relax.strided_slice",
                    {x, prim_tuple(ctx, axis_values), prim_tuple(ctx, begin_values),
                     prim_tuple(ctx, end_values), prim_tuple(ctx, step_values)});
  }
  for (size_t k : symbolic) {
    int64_t axis = normalized_axis(ctx, axes[k], rank, axes_what);
    PrimExpr n = input_dims(ctx, 0, "data")[axis];
    int64_t step = steps[k];
    auto clamp = [&](const PrimExpr& index) {
      PrimExpr v = tir::select(tir::lt(index, relax::const_dim(0)), tir::add(index, n), index);
      PrimExpr lo = step > 0 ? relax::const_dim(0) : relax::const_dim(-1);
      PrimExpr hi = step > 0 ? n : tir::sub(n, relax::const_dim(1));
      return simplify_dims(tir::min(tir::max(v, lo), hi));
    };
    PrimExpr begin = clamp(starts[k]), end = clamp(ends[k]);
    PrimExpr span = step > 0 ? tir::sub(end, begin) : tir::sub(begin, end);
    int64_t magnitude = step > 0 ? step : -step;
    PrimExpr length = simplify_dims(tir::max(
        tir::floordiv(tir::add(span, relax::const_dim(magnitude - 1)), relax::const_dim(magnitude)),
        relax::const_dim(0)));
    x = ctx.emit_op("relax.take", {x, iota(ctx, length, begin, step)},
                    Attrs({{"axis", AttrValue::integer(axis)}}));
  }
  return single(x);
}

// ---------------------------------------------------------------- Expand, Tile

// ONNX's bidirectional broadcast of the input's dims with the target shape: each dim
// is the one that is not 1.

std::vector<Value> convert_expand(NodeContext& ctx) {
  std::vector<PrimExpr> in = input_dims(ctx, 0, "input");
  if (!known_at_import(ctx, 1)) return expand_at_run_time(ctx, std::move(in));
  std::vector<PrimExpr> target = ctx.shape_input(1, "shape");
  size_t rank = std::max(in.size(), target.size());
  in.insert(in.begin(), rank - in.size(), relax::const_dim(1));
  target.insert(target.begin(), rank - target.size(), relax::const_dim(1));
  arith::Analyzer analyzer;
  std::vector<PrimExpr> out;
  for (size_t k = 0; k < rank; ++k) {
    if (tir::is_const_int(in[k], 1)) {
      out.push_back(target[k]);
    } else if (tir::is_const_int(target[k], 1) || analyzer.can_prove_equal(in[k], target[k])) {
      out.push_back(in[k]);
    } else if (tir::as_const_int(in[k]) && tir::as_const_int(target[k])) {
      ctx.invalid("dim " + std::to_string(k) + " of the input does not broadcast to the shape");
    } else {
      ctx.unsupported("dim " + std::to_string(k) +
                      ": which of the input's dim and the shape's broadcasts is known only at "
                      "run time");
    }
  }
  return single(
      ctx.emit_op("relax.broadcast_to", {ctx.tensor(0), relax::make_shape_expr(std::move(out))}));
}

// Repeats computed from a dynamic dim (PyTorch's x.repeat(batch, 1)), or known only at
// run time (then shape variables), cannot be relax.tile's attribute: each dim d repeated
// k times is then a broadcast of (1, d) to (k, d), merged back, which is what tiling does.
std::vector<Value> convert_tile(NodeContext& ctx) {
  int rank = input_rank(ctx, 0, "input");
  std::vector<PrimExpr> repeats = known_at_import(ctx, 1)
                                      ? ctx.shape_input(1, "repeats")
                                      : run_time_dims(ctx, ctx.tensor(1), "input 1 'repeats'");
  if (static_cast<int>(repeats.size()) != rank) {
    ctx.invalid("input 1 'repeats' has " + std::to_string(repeats.size()) +
                " entries; the input has rank " + std::to_string(rank));
  }
  std::vector<int64_t> constant;
  for (const PrimExpr& k : repeats) {
    if (const int64_t* c = tir::as_const_int(k)) constant.push_back(*c);
  }
  if (constant.size() == repeats.size()) {
    return single(ctx.emit_op("relax.tile", {ctx.tensor(0)},
                              Attrs({{"repeats", AttrValue::int_list(constant)}})));
  }
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "input");
  std::vector<PrimExpr> split, broadcast, merged;
  for (int d = 0; d < rank; ++d) {
    split.insert(split.end(), {relax::const_dim(1), dims[d]});
    broadcast.insert(broadcast.end(), {repeats[d], dims[d]});
    merged.push_back(tir::mul(repeats[d], dims[d]));
  }
  Expr x = emit_reshape(ctx, ctx.tensor(0), split);
  x = ctx.emit_op("relax.broadcast_to", {x, relax::make_shape_expr(std::move(broadcast))});
  return single(emit_reshape(ctx, x, merged));
}

// ---------------------------------------------------------------- Pad

std::vector<Value> convert_pad(NodeContext& ctx) {
  int rank = input_rank(ctx, 0, "data");
  std::string mode = ctx.attr_string("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") {
    ctx.unsupported("attribute 'mode' \"" + mode + "\" (constant, reflect and edge are)");
  }
  if (ctx.opset() >= 11 &&
      (!known_at_import(ctx, 1) || (ctx.has_input(2) && !known_at_import(ctx, 2)))) {
    return pad_at_run_time(ctx, mode);
  }
  std::vector<int64_t> pads;
  double value = 0;
  if (ctx.opset() < 11) {
    pads = ctx.attr_ints("pads");
    value = ctx.attr_float("value", 0.0);
  } else {
    pads = const_shape_input(ctx, 1, "pads");
    if (ctx.has_input(2)) {
      const HostTensor& v = ctx.constant_input(2, "constant_value");
      if (v.num_elements() != 1) ctx.invalid("input 2 'constant_value' must hold one value");
      value = v.element_as_double(0);
    }
  }
  if (static_cast<int>(pads.size()) != 2 * rank) {
    ctx.invalid("'pads' has " + std::to_string(pads.size()) + " entries; an input of rank " +
                std::to_string(rank) + " needs " + std::to_string(2 * rank));
  }
  // ONNX lists all begins then all ends; relax.nn.pad takes (begin, end) per dim.
  std::vector<int64_t> widths;
  for (int k = 0; k < rank; ++k) {
    if (pads[k] < 0 || pads[k + rank] < 0) {
      ctx.unsupported("negative 'pads' (cropping) on dim " + std::to_string(k));
    }
    widths.push_back(pads[k]);
    widths.push_back(pads[k + rank]);
  }
  return single(ctx.emit_op("relax.nn.pad", {ctx.tensor(0)},
                            Attrs({{"pad_width", AttrValue::int_list(widths)},
                                   {"pad_value", AttrValue::floating(value)},
                                   {"pad_mode", AttrValue::string(mode)}})));
}

// ---------------------------------------------------------------- ConstantOfShape, Range, EyeLike

std::vector<Value> convert_constant_of_shape(NodeContext& ctx) {
  std::vector<PrimExpr> shape = known_at_import(ctx, 0)
                                    ? ctx.shape_input(0, "input")
                                    : run_time_dims(ctx, ctx.tensor(0), "input 0 'input'");
  HostTensor value = ctx.has_attr("value")
                         ? ctx.attr_tensor("value")
                         : HostTensor::from_doubles(DataType::Float(32), {1}, {0.0});
  if (value.num_elements() != 1) ctx.invalid("attribute 'value' must hold one element");
  value.shape = {};
  Expr fill = ctx.constant_value(value).expr;
  return single(ctx.emit_op("relax.full", {relax::make_shape_expr(std::move(shape)), fill},
                            Attrs({{"dtype", AttrValue::data_type(value.dtype)}})));
}

// Range's bounds are scalars: constants make a relax.arange; integer bounds computed
// from dynamic dims, with a constant delta, make start + delta * [0, length); other
// bounds are known only at run time (range_at_run_time).
std::vector<Value> convert_range(NodeContext& ctx) {
  static const char* const kNames[] = {"start", "limit", "delta"};
  DataType dtype = input_tensor_any_rank(ctx, 0, "start").dtype;
  auto what = [&](size_t i) { return "input " + std::to_string(i) + " '" + kNames[i] + "'"; };
  if (ctx.input(0).constant && ctx.input(1).constant && ctx.input(2).constant) {
    std::vector<Expr> bounds;
    for (size_t i = 0; i < 3; ++i) {
      const HostTensor& t = *ctx.input(i).constant;
      if (t.num_elements() != 1) ctx.invalid(what(i) + " must be a scalar");
      PrimExpr v = dtype.is_float() ? tir::float_imm(dtype, t.element_as_double(0))
                                    : tir::int_imm(DataType::Int(64), t.element_as_int(0));
      bounds.push_back(relax::make_prim_value(v));
    }
    return single(
        ctx.emit_op("relax.arange", bounds, Attrs({{"dtype", AttrValue::data_type(dtype)}})));
  }
  std::vector<PrimExpr> bounds;
  for (size_t i = 0; i < 3; ++i) {
    std::optional<std::vector<PrimExpr>> e = known_elements(ctx.input(i));
    if (!e || e->size() != 1) return range_at_run_time(ctx, dtype);
    bounds.push_back((*e)[0]);
  }
  const int64_t* delta = tir::as_const_int(bounds[2]);
  if (delta == nullptr) return range_at_run_time(ctx, dtype);
  if (*delta == 0) ctx.invalid(what(2) + " is 0");
  int64_t magnitude = *delta > 0 ? *delta : -*delta;
  PrimExpr span = *delta > 0 ? tir::sub(bounds[1], bounds[0]) : tir::sub(bounds[0], bounds[1]);
  PrimExpr length = simplify_dims(tir::max(
      tir::floordiv(tir::add(span, relax::const_dim(magnitude - 1)), relax::const_dim(magnitude)),
      relax::const_dim(0)));
  Expr out = iota(ctx, length, bounds[0], *delta);
  if (dtype != DataType::Int(64)) {
    out = ctx.emit_op("relax.astype", {out}, Attrs({{"dtype", AttrValue::data_type(dtype)}}));
  }
  return single(out);
}

std::vector<Value> convert_eye_like(NodeContext& ctx) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "input");
  if (dims.size() != 2) ctx.invalid("input 0 must have rank 2");
  DataType dtype = input_tensor(ctx, 0, "input").dtype;
  if (ctx.has_attr("dtype")) dtype = attr_element_type(ctx, "dtype");
  if (!tir::as_const_int(dims[0]) || !tir::as_const_int(dims[1])) {
    ctx.unsupported("input 0 has dynamic dims; relax.eye takes constant sizes");
  }
  return single(ctx.emit_op("relax.eye",
                            {relax::make_prim_value(dims[0]), relax::make_prim_value(dims[1]),
                             relax::make_prim_value(relax::const_dim(ctx.attr_int("k", 0)))},
                            Attrs({{"dtype", AttrValue::data_type(dtype)}})));
}

}  // namespace

void register_shape_converters(ConverterTable& table) {
  table.add("Shape", 1, convert_shape_of);
  table.add("Size", 1, convert_shape_of);
  table.add("Reshape", 1, convert_reshape);
  table.add("Flatten", 1, convert_flatten);
  table.add("Squeeze", 1, convert_squeeze);
  table.add("Unsqueeze", 1, convert_unsqueeze);
  table.add("Transpose", 1, convert_transpose);
  table.add("Concat", 1, convert_concat);
  table.add("Split", 1, convert_split);
  table.add("Slice", 1, convert_slice);
  table.add("Expand", 8, convert_expand);
  table.add("Tile", 6, convert_tile);
  table.add("Pad", 2, convert_pad);
  table.add("ConstantOfShape", 9, convert_constant_of_shape);
  table.add("Range", 11, convert_range);
  table.add("EyeLike", 9, convert_eye_like);
}

}  // namespace relaxc::onnx_import
