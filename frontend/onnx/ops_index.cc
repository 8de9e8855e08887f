// The index family's converters: Gather, GatherElements, GatherND, Scatter,
// ScatterElements, ScatterND, ReverseSequence, OneHot, Resize, DepthToSpace, SpaceToDepth, Trilu.
// ONNX indices may be negative (counting from the end) where the Relax operators expect them in
// range, so indices not known to be non-negative are wrapped first.
#include <cmath>
#include <string>
#include <utility>

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

// `indices` (input `i`) with each negative entry plus `bounds` (broadcast against the
// indices: one dim, or one per last index axis): left as they are when they are a
// constant without negative entries.
Expr wrap_negative(NodeContext& ctx, size_t i, const std::vector<PrimExpr>& bounds) {
  const Value& indices = ctx.input(i);
  if (indices.constant) {
    bool negative = false;
    for (int64_t k = 0; k < indices.constant->num_elements(); ++k) {
      negative = negative || indices.constant->element_as_int(k) < 0;
    }
    if (!negative) return indices.expr;
  }
  DataType dtype = input_tensor_any_rank(ctx, i, "indices").dtype;
  Expr bound = elements_value(ctx, bounds, dtype, bounds.size() == 1).expr;
  Expr zero = ctx.constant_value(HostTensor::from_doubles(dtype, {}, {0.0})).expr;
  Expr negative = ctx.emit_op("relax.less", {indices.expr, zero});
  Expr shifted = ctx.emit_op("relax.add", {indices.expr, bound});
  return ctx.emit_op("relax.where", {negative, shifted, indices.expr});
}

// ---------------------------------------------------------------- gathers and scatters

// The axis of Gather, GatherElements and ScatterElements, and their indices (input 1)
// wrapped by that axis's dim.
std::pair<int64_t, Expr> axis_and_indices(NodeContext& ctx) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "data");
  int64_t axis = normalized_axis(ctx, ctx.attr_int("axis", 0), static_cast<int64_t>(dims.size()),
                                 "attribute 'axis'");
  return {axis, wrap_negative(ctx, 1, {dims[axis]})};
}

// Gather is relax.take, GatherElements relax.gather_elements, along the axis.
Converter gather_along_axis(const std::string& op) {
  return [op](NodeContext& ctx) -> std::vector<Value> {
    auto [axis, indices] = axis_and_indices(ctx);
    return single(
        ctx.emit_op(op, {ctx.tensor(0), indices}, Attrs({{"axis", AttrValue::integer(axis)}})));
  };
}

// The dims that the last axis of GatherND's and ScatterND's indices index: the data's
// dims after the batch dims.
std::vector<PrimExpr> indexed_dims(NodeContext& ctx, int64_t batch_dims) {
  std::vector<PrimExpr> data = input_dims(ctx, 0, "data");
  std::vector<PrimExpr> indices = input_dims(ctx, 1, "indices");
  const int64_t* depth = indices.empty() ? nullptr : tir::as_const_int(indices.back());
  if (depth == nullptr || batch_dims + *depth > static_cast<int64_t>(data.size())) {
    ctx.invalid(
        "the last dim of input 1 'indices' must be a constant of at most the data's "
        "rank minus 'batch_dims'");
  }
  return {data.begin() + batch_dims, data.begin() + batch_dims + *depth};
}

std::vector<Value> convert_gather_nd(NodeContext& ctx) {
  int64_t batch_dims = ctx.opset() >= 12 ? ctx.attr_int("batch_dims", 0) : 0;
  Expr indices = wrap_negative(ctx, 1, indexed_dims(ctx, batch_dims));
  return single(ctx.emit_op("relax.gather_nd", {ctx.tensor(0), indices},
                            Attrs({{"batch_dims", AttrValue::integer(batch_dims)}})));
}

// ONNX's reduction attribute as the Relax scatters name it.
std::string reduction_of(NodeContext& ctx) {
  std::string r = ctx.attr_string("reduction", "none");
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min") {
    ctx.unsupported("attribute 'reduction' \"" + r + "\" (none, add, mul, max and min are)");
  }
  return r == "none" ? "update" : r;
}

std::vector<Value> scatter_elements(NodeContext& ctx, const std::string& reduction) {
  auto [axis, indices] = axis_and_indices(ctx);
  return single(ctx.emit_op(
      "relax.scatter_elements", {ctx.tensor(0), indices, ctx.tensor(2)},
      Attrs({{"axis", AttrValue::integer(axis)}, {"reduction", AttrValue::string(reduction)}})));
}

std::vector<Value> convert_scatter_elements(NodeContext& ctx) {
  return scatter_elements(ctx, reduction_of(ctx));
}

// Scatter (opsets 9 and 10; the ONNX checker refuses it from 11, where it is deprecated)
// is ScatterElements without a reduction.
std::vector<Value> convert_scatter(NodeContext& ctx) { return scatter_elements(ctx, "update"); }

std::vector<Value> convert_scatter_nd(NodeContext& ctx) {
  Expr indices = wrap_negative(ctx, 1, indexed_dims(ctx, 0));
  return single(ctx.emit_op("relax.scatter_nd", {ctx.tensor(0), indices, ctx.tensor(2)},
                            Attrs({{"reduction", AttrValue::string(reduction_of(ctx))}})));
}

// ---------------------------------------------------------------- ReverseSequence

// ReverseSequence reverses the first sequence_lens[b] entries along the time axis of each
// batch entry b: gather_elements along the time axis with the index
// where(t < len[b], len[b] - 1 - t, t) over the (time, batch) plane, broadcast over the
// other axes. A length outside [0, time dim], which ONNX forbids, is clamped into it, so
// that no index leaves the tensor.
std::vector<Value> convert_reverse_sequence(NodeContext& ctx) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "input");
  if (dims.size() < 2) ctx.invalid("input 0 'input' must have rank 2 or more");
  int64_t batch_axis = ctx.attr_int("batch_axis", 1);
  int64_t time_axis = ctx.attr_int("time_axis", 0);
  if (batch_axis < 0 || batch_axis > 1 || time_axis < 0 || time_axis > 1 ||
      batch_axis == time_axis) {
    ctx.invalid("attributes 'batch_axis' (" + std::to_string(batch_axis) + ") and 'time_axis' (" +
                std::to_string(time_axis) + ") must be 0 and 1, one each");
  }
  const relax::TensorStructInfoNode& lens_info = input_tensor(ctx, 1, "sequence_lens");
  if (lens_info.ndim != 1 || lens_info.dtype != DataType::Int(64)) {
    ctx.invalid("input 1 'sequence_lens' must be a 1-D int64 tensor");
  }
  const PrimExpr& batch = dims[static_cast<size_t>(batch_axis)];
  const PrimExpr& time = dims[static_cast<size_t>(time_axis)];
  PrimExpr lens_length = input_dims(ctx, 1, "sequence_lens")[0];
  if (!ctx.builder().analyzer().can_prove_equal(lens_length, batch)) {
    const int64_t* given = tir::as_const_int(lens_length);
    const int64_t* expected = tir::as_const_int(batch);
    std::string what = "input 1 'sequence_lens' must have one entry per batch entry (dim " +
                       std::to_string(batch_axis) + " of input 0)";
    if (given != nullptr && expected != nullptr) {
      ctx.invalid(what + ": it has " + std::to_string(*given) + ", the batch " +
                  std::to_string(*expected));
    }
    ctx.unsupported(what + "; their lengths are not known to be equal");
  }
  const DataType i64 = DataType::Int(64);
  std::vector<PrimExpr> time_shape(2, relax::const_dim(1)), batch_shape(2, relax::const_dim(1));
  time_shape[static_cast<size_t>(time_axis)] = time;
  batch_shape[static_cast<size_t>(batch_axis)] = batch;
  Expr t = emit_reshape(ctx, iota(ctx, time, relax::const_dim(0), 1), time_shape);
  Expr lens = binary(ctx, "maximum", ctx.tensor(1), scalar_constant(ctx, i64, 0));
  lens = emit_reshape(ctx, binary(ctx, "minimum", lens, prim_expr_tensor(ctx, time)), batch_shape);
  Expr reversed =
      binary(ctx, "subtract", binary(ctx, "subtract", lens, scalar_constant(ctx, i64, 1)), t);
  Expr index = ctx.emit_op("relax.where", {binary(ctx, "less", t, lens), reversed, t});
  std::vector<PrimExpr> plane(dims.size(), relax::const_dim(1));
  plane[0] = dims[0];
  plane[1] = dims[1];
  index = ctx.emit_op("relax.broadcast_to",
                      {emit_reshape(ctx, index, plane), relax::make_shape_expr(dims)});
  return single(ctx.emit_op("relax.gather_elements", {ctx.tensor(0), index},
                            Attrs({{"axis", AttrValue::integer(time_axis)}})));
}

// ---------------------------------------------------------------- OneHot

// A OneHot whose depth or values are known only at run time: the depth (truncated to
// int64) becomes a shape variable `<output>_0`, and the output is where(indices ==
// [0, depth) along the axis, on_value, off_value) (indices cast to int64, as ONNX says,
// negative ones wrapped by the depth; one out of range matches no position).
std::vector<Value> one_hot_at_run_time(NodeContext& ctx) {
  const DataType i64 = DataType::Int(64);
  auto to_i64 = [&](const Expr& e) {
    return ctx.emit_op("relax.astype", {e}, Attrs({{"dtype", AttrValue::data_type(i64)}}));
  };
  int64_t rank = input_rank(ctx, 0, "indices");
  int64_t axis = normalized_axis(ctx, ctx.attr_int("axis", -1), rank + 1, "attribute 'axis'");
  if (input_tensor_any_rank(ctx, 1, "depth").ndim > 1) {
    ctx.invalid("input 1 'depth' must be a scalar or hold one value");
  }
  std::vector<PrimExpr> values_dims = input_dims(ctx, 2, "values");
  if (values_dims.size() != 1 || !tir::is_const_int(values_dims[0], 2)) {
    ctx.invalid("input 2 'values' must hold [off_value, on_value]");
  }
  Expr depth = to_i64(ctx.tensor(1));
  PrimExpr d =
      run_time_dims(ctx, emit_reshape(ctx, depth, {relax::const_dim(1)}), "input 1 'depth'")[0];
  Expr indices = to_i64(ctx.tensor(0));
  Expr negative = ctx.emit_op("relax.less", {indices, scalar_constant(ctx, i64, 0)});
  indices =
      ctx.emit_op("relax.where", {negative, ctx.emit_op("relax.add", {indices, depth}), indices});
  indices =
      ctx.emit_op("relax.expand_dims", {indices}, Attrs({{"axis", AttrValue::int_list({axis})}}));
  std::vector<PrimExpr> along(static_cast<size_t>(rank + 1), relax::const_dim(1));
  along[static_cast<size_t>(axis)] = d;
  Expr positions = emit_reshape(ctx, iota(ctx, d, relax::const_dim(0), 1), along);
  Expr hot = ctx.emit_op("relax.equal", {indices, positions});
  Attrs at({{"axis", AttrValue::integer(0)}});
  auto value = [&](int64_t k) {
    return ctx.emit_op("relax.take", {ctx.tensor(2), relax::make_prim_value(relax::const_dim(k))},
                       at);
  };
  return single(ctx.emit_op("relax.where", {hot, value(1), value(0)}));
}

std::vector<Value> convert_one_hot(NodeContext& ctx) {
  if (!ctx.input(1).constant || !ctx.input(2).constant) return one_hot_at_run_time(ctx);
  const HostTensor& depth_tensor = ctx.constant_input(1, "depth");
  if (depth_tensor.num_elements() != 1) ctx.invalid("input 1 'depth' must hold one value");
  // ONNX allows a float depth, truncated.
  auto depth = static_cast<int64_t>(depth_tensor.element_as_double(0));
  if (depth <= 0) ctx.invalid("input 1 'depth' is " + std::to_string(depth) + "; must be positive");
  const HostTensor& values = ctx.constant_input(2, "values");
  if (values.num_elements() != 2) ctx.invalid("input 2 'values' must hold [off_value, on_value]");
  auto scalar = [&](int64_t k) {
    PrimExpr v = values.dtype.is_float() ? tir::float_imm(values.dtype, values.element_as_double(k))
                                         : tir::int_imm(values.dtype, values.element_as_int(k));
    return relax::make_prim_value(v);
  };
  Expr indices = wrap_negative(ctx, 0, {relax::const_dim(depth)});
  int64_t rank = input_tensor_any_rank(ctx, 0, "indices").ndim;
  int64_t axis = ctx.attr_int("axis", -1);
  if (rank >= 0) axis = normalized_axis(ctx, axis, rank + 1, "attribute 'axis'");
  return single(ctx.emit_op(
      "relax.one_hot", {indices, scalar(1), scalar(0)},
      Attrs({{"depth", AttrValue::integer(depth)}, {"axis", AttrValue::integer(axis)}})));
}

// ---------------------------------------------------------------- Resize

// The output's height and width from 'scales' known only at run time: floor(dim *
// scale) in float32 as ONNX Runtime computes it, read back with R.tensor_to_shape;
// `scale` becomes the (height, width) scales that resize2d's coordinate transformation
// divides by. A batch or channel scale other than 1, a scale that is not positive and
// a size past 2^62 make the sizes -1, which the VM refuses.
std::vector<PrimExpr> resize_run_time_scales(NodeContext& ctx, const std::vector<PrimExpr>& dims,
                                             size_t at, Expr* scale) {
  const std::string what = "input " + std::to_string(at) + " 'scales'";
  const auto& info = input_tensor(ctx, at, "scales");
  const std::vector<PrimExpr>* length = info.shape_values();
  if (info.dtype != DataType::Float(32) || info.ndim != 1 ||
      (length != nullptr && !tir::is_const_int((*length)[0], 4))) {
    ctx.invalid(what + " must be a float32 tensor of 4 entries");
  }
  if (length == nullptr) ctx.unsupported(what + " has a length not known at import; 4 expected");
  const DataType f32 = DataType::Float(32);
  Expr scales = ctx.tensor(at);
  Expr sizes = ctx.emit_op(
      "relax.floor",
      {ctx.emit_op(
          "relax.multiply",
          {ctx.emit_op("relax.astype", {elements_value(ctx, dims, DataType::Int(64), false).expr},
                       Attrs({{"dtype", AttrValue::data_type(f32)}})),
           scales})});
  Expr fixed =
      elements_value(
          ctx, {relax::const_dim(1), relax::const_dim(1), relax::const_dim(0), relax::const_dim(0)},
          DataType::Bool(), false)
          .expr;
  Expr valid = ctx.emit_op(
      "relax.logical_and",
      {ctx.emit_op("relax.greater", {scales, scalar_constant(ctx, f32, 0)}),
       ctx.emit_op("relax.less", {sizes, scalar_constant(ctx, f32, std::ldexp(1.0, 62))})});
  valid = ctx.emit_op(
      "relax.logical_and",
      {valid, ctx.emit_op("relax.logical_or",
                          {ctx.emit_op("relax.logical_not", {fixed}),
                           ctx.emit_op("relax.equal", {scales, scalar_constant(ctx, f32, 1)})})});
  sizes = ctx.emit_op("relax.where", {valid, sizes, scalar_constant(ctx, f32, -1)});
  sizes = ctx.emit_op("relax.astype", {sizes},
                      Attrs({{"dtype", AttrValue::data_type(DataType::Int(64))}}));
  std::vector<PrimExpr> out = run_time_dims(ctx, sizes, what, {dims[0], dims[1]});
  Expr spatial =
      elements_value(ctx, {relax::const_dim(2), relax::const_dim(3)}, DataType::Int(64), false)
          .expr;
  *scale = ctx.emit_op("relax.take", {scales, spatial}, Attrs({{"axis", AttrValue::integer(0)}}));
  return {out[2], out[3]};
}

// The output's height and width, from 'sizes' or from 'scales' (which, known at import,
// must make whole dims: relax.image.resize2d then derives its coordinate scale from the
// sizes; known at run time, `scale` is set to them).
std::vector<PrimExpr> resize_sizes(NodeContext& ctx, const std::vector<PrimExpr>& dims,
                                   Expr* scale) {
  size_t scales_at = ctx.opset() >= 11 ? 2 : 1;
  // Resize is registered from opset 10: before 9 the node is an Upsample, whose scales are
  // an attribute.
  const bool attribute = ctx.opset() < 9;
  const std::string what =
      attribute ? "attribute 'scales'" : "input " + std::to_string(scales_at) + " 'scales'";
  if (ctx.opset() >= 11 && ctx.has_input(3)) {
    if (!known_at_import(ctx, 3)) {
      // Read at run time; the match_cast checks that the batch and channel dims stay.
      if (run_time_length(ctx, ctx.tensor(3), "input 3 'sizes'") != 4) {
        ctx.invalid("input 3 'sizes' must have 4 entries");
      }
      std::vector<PrimExpr> sizes =
          run_time_dims(ctx, ctx.tensor(3), "input 3 'sizes'", {dims[0], dims[1]});
      return {sizes[2], sizes[3]};
    }
    std::vector<PrimExpr> sizes = ctx.shape_input(3, "sizes");
    if (sizes.size() != 4) ctx.invalid("input 3 'sizes' must have 4 entries");
    arith::Analyzer analyzer;
    for (int k = 0; k < 2; ++k) {
      if (!analyzer.can_prove_equal(sizes[k], dims[k])) {
        ctx.unsupported("input 3 'sizes' resizes the batch or channel dim");
      }
    }
    return {sizes[2], sizes[3]};
  }
  if (!attribute && !known_at_import(ctx, scales_at)) {
    return resize_run_time_scales(ctx, dims, scales_at, scale);
  }
  HostTensor scales;
  if (attribute) {
    std::vector<double> values = ctx.attr_floats("scales");
    scales = HostTensor::from_doubles(DataType::Float(32), {static_cast<int64_t>(values.size())},
                                      values);
  } else {
    scales = ctx.constant_input(scales_at, "scales");
  }
  if (scales.num_elements() != 4) ctx.invalid(what + " must have 4 entries");
  if (scales.element_as_double(0) != 1.0 || scales.element_as_double(1) != 1.0) {
    ctx.unsupported(what + " resizes the batch or channel dim");
  }
  std::vector<PrimExpr> out;
  for (int k = 2; k < 4; ++k) {
    double scale = scales.element_as_double(k);
    // Past 2^62 no dim is a tensor's; the casts below must not see such a value.
    const double kLargestSize = std::ldexp(1.0, 62);
    if (!(scale > 0) || scale >= kLargestSize) {
      ctx.invalid(what + ": entry " + std::to_string(k) + " is " + std::to_string(scale) +
                  "; a scale is positive and less than 2^62");
    }
    if (const int64_t* d = tir::as_const_int(dims[k])) {
      double size = static_cast<double>(*d) * scale;
      if (size >= kLargestSize) {
        ctx.unsupported(what + ": dim " + std::to_string(k) +
                        " times its scale is more than a tensor can hold");
      }
      if (size != std::floor(size)) {
        ctx.unsupported(what + ": dim " + std::to_string(k) +
                        " times its scale is not a whole number");
      }
      out.push_back(relax::const_dim(static_cast<int64_t>(size)));
    } else if (scale == std::floor(scale)) {
      out.push_back(tir::mul(dims[k], relax::const_dim(static_cast<int64_t>(scale))));
    } else {
      ctx.unsupported(what + ": a fractional scale of the symbolic dim " + std::to_string(k));
    }
  }
  return out;
}

// tf_crop_and_resize's region of interest (input 1, a constant of ONNX's [starts...,
// ends...] over the 4 dims) as resize2d's [start_h, start_w, end_h, end_w]; the batch
// and channel dims must keep their whole extent.
AttrValue resize_roi(NodeContext& ctx) {
  if (!ctx.has_input(1))
    ctx.invalid("coordinate_transformation_mode \"tf_crop_and_resize\" needs input 1 'roi'");
  const HostTensor& roi = ctx.constant_input(1, "roi");
  if (roi.num_elements() != 8) ctx.invalid("input 1 'roi' must have 8 entries (4 starts, 4 ends)");
  for (int k = 0; k < 2; ++k) {
    if (roi.element_as_double(k) != 0.0 || roi.element_as_double(4 + k) != 1.0) {
      ctx.unsupported("input 1 'roi' crops the batch or channel dim");
    }
  }
  std::vector<AttrValue> spatial;
  for (int k : {2, 3, 6, 7}) spatial.push_back(AttrValue::floating(roi.element_as_double(k)));
  return AttrValue::list_of(std::move(spatial));
}

std::vector<Value> convert_resize(NodeContext& ctx) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "X");
  if (dims.size() != 4)
    ctx.unsupported("input 0 has rank " + std::to_string(dims.size()) +
                    "; only 4-D (NCHW) images are resized");
  std::string mode = ctx.attr_string("mode", "nearest");
  std::string method;
  if (mode == "nearest") {
    method = "nearest_neighbor";
  } else if (mode == "linear" || (mode == "cubic" && ctx.opset() >= 11)) {
    method = mode;
  } else {
    ctx.invalid("attribute 'mode' \"" + mode + "\"; expected nearest, linear" +
                (ctx.opset() >= 11 ? " or cubic" : " (cubic from opset 11)"));
  }
  std::string transform = "asymmetric";
  std::string rounding = "floor";
  AttrValue zero = AttrValue::floating(0.0);
  AttrValue roi = AttrValue::list_of({zero, zero, zero, zero});
  if (ctx.opset() >= 11) {
    transform = ctx.attr_string("coordinate_transformation_mode", "half_pixel");
    if (transform != "half_pixel" && transform != "pytorch_half_pixel" &&
        transform != "align_corners" && transform != "asymmetric" &&
        transform != "tf_half_pixel_for_nn" && transform != "tf_crop_and_resize") {
      ctx.unsupported("attribute 'coordinate_transformation_mode' \"" + transform +
                      "\" (half_pixel, pytorch_half_pixel, align_corners, asymmetric, "
                      "tf_half_pixel_for_nn and tf_crop_and_resize are)");
    }
    if (transform == "tf_crop_and_resize") roi = resize_roi(ctx);
    rounding = ctx.attr_string("nearest_mode", "round_prefer_floor");
    if (rounding != "round_prefer_floor" && rounding != "round_prefer_ceil" &&
        rounding != "floor" && rounding != "ceil") {
      ctx.invalid("attribute 'nearest_mode' \"" + rounding + "\"");
    }
  }
  Expr scale;
  std::vector<PrimExpr> sizes = resize_sizes(ctx, dims, &scale);
  // exclude_outside changes only cubic: the taps of nearest and linear outside the
  // image carry the edge value, which dropping them and renormalizing also gives.
  Attrs attrs(
      {{"roi", roi},
       {"method", AttrValue::string(method)},
       {"coordinate_transformation_mode", AttrValue::string(transform)},
       {"rounding_method", AttrValue::string(mode == "nearest" ? rounding : "")},
       {"cubic_alpha", AttrValue::floating(ctx.attr_float("cubic_coeff_a", -0.75))},
       {"cubic_exclude", AttrValue::integer(ctx.attr_int("exclude_outside", 0) != 0 ? 1 : 0)},
       {"extrapolation_value", AttrValue::floating(ctx.attr_float("extrapolation_value", 0.0))}});
  std::vector<Expr> args = {ctx.tensor(0), relax::make_shape_expr(std::move(sizes))};
  if (scale.defined()) args.push_back(scale);
  return single(ctx.emit_op("relax.image.resize2d", std::move(args), attrs));
}

// ---------------------------------------------------------------- DepthToSpace, SpaceToDepth

Expr permute(NodeContext& ctx, const Expr& x, std::vector<int64_t> axes) {
  return ctx.emit_op("relax.permute_dims", {x}, Attrs({{"axes", AttrValue::int_list(axes)}}));
}

std::vector<PrimExpr> image_dims(NodeContext& ctx, int64_t block) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "input");
  if (dims.size() != 4) ctx.invalid("input 0 must have rank 4 (NCHW)");
  if (block <= 0) ctx.invalid("attribute 'blocksize' must be positive");
  return dims;
}

// DCR moves depth-column-row: the channel splits as (block, block, C'); CRD as
// (C', block, block).
std::vector<Value> convert_depth_to_space(NodeContext& ctx) {
  int64_t b = ctx.attr_int("blocksize");
  std::vector<PrimExpr> d = image_dims(ctx, b);
  std::string mode = ctx.opset() >= 11 ? ctx.attr_string("mode", "DCR") : "DCR";
  if (mode != "DCR" && mode != "CRD") ctx.invalid("attribute 'mode' \"" + mode + "\"");
  PrimExpr c = tir::floordiv(d[1], relax::const_dim(b * b));
  Expr x = ctx.tensor(0);
  if (mode == "DCR") {
    x = emit_reshape(ctx, x, {d[0], relax::const_dim(b), relax::const_dim(b), c, d[2], d[3]});
    x = permute(ctx, x, {0, 3, 4, 1, 5, 2});
  } else {
    x = emit_reshape(ctx, x, {d[0], c, relax::const_dim(b), relax::const_dim(b), d[2], d[3]});
    x = permute(ctx, x, {0, 1, 4, 2, 5, 3});
  }
  return single(emit_reshape(
      ctx, x, {d[0], c, tir::mul(d[2], relax::const_dim(b)), tir::mul(d[3], relax::const_dim(b))}));
}

std::vector<Value> convert_space_to_depth(NodeContext& ctx) {
  int64_t b = ctx.attr_int("blocksize");
  std::vector<PrimExpr> d = image_dims(ctx, b);
  PrimExpr h = tir::floordiv(d[2], relax::const_dim(b)),
           w = tir::floordiv(d[3], relax::const_dim(b));
  Expr x = emit_reshape(ctx, ctx.tensor(0),
                        {d[0], d[1], h, relax::const_dim(b), w, relax::const_dim(b)});
  x = permute(ctx, x, {0, 3, 5, 1, 2, 4});
  return single(emit_reshape(ctx, x, {d[0], tir::mul(d[1], relax::const_dim(b * b)), h, w}));
}

// ---------------------------------------------------------------- Trilu

// With k known only at run time: the entries whose column minus row is at least k
// (upper) or at most k (lower) kept, the others zero. The mask is computed from iotas
// along the last two axes, as relax.triu / relax.tril take k as an immediate.
Expr trilu_at_run_time(NodeContext& ctx, bool upper) {
  const relax::TensorStructInfoNode& k_info = input_tensor(ctx, 1, "k");
  if (k_info.ndim != 0) {
    ctx.invalid("input 1 'k' must be a 0-d tensor, got " + std::to_string(k_info.ndim) +
                " dimensions");
  }
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "input");
  if (dims.size() < 2) ctx.invalid("input 0 must have rank 2 or more");
  const PrimExpr& rows = dims[dims.size() - 2];
  const PrimExpr& cols = dims.back();
  Expr row =
      emit_reshape(ctx, iota(ctx, rows, relax::const_dim(0), 1), {rows, relax::const_dim(1)});
  Expr diagonal = binary(ctx, "subtract", iota(ctx, cols, relax::const_dim(0), 1), row);
  Expr keep = binary(ctx, upper ? "greater_equal" : "less_equal", diagonal, ctx.tensor(1));
  DataType dtype = input_tensor(ctx, 0, "input").dtype;
  return ctx.emit_op("relax.where", {keep, ctx.tensor(0), scalar_constant(ctx, dtype, 0)});
}

std::vector<Value> convert_trilu(NodeContext& ctx) {
  bool upper = ctx.attr_int("upper", 1) != 0;
  PrimExpr k = relax::const_dim(0);
  if (ctx.has_input(1)) {
    if (!ctx.input(1).constant) return single(trilu_at_run_time(ctx, upper));
    const HostTensor& t = *ctx.input(1).constant;
    if (t.num_elements() != 1) ctx.invalid("input 1 'k' must hold one value");
    k = relax::const_dim(t.element_as_int(0));
  }
  return single(
      ctx.emit_op(upper ? "relax.triu" : "relax.tril", {ctx.tensor(0), relax::make_prim_value(k)}));
}

}  // namespace

void register_index_converters(ConverterTable& table) {
  table.add("Gather", 1, gather_along_axis("relax.take"));
  table.add("GatherElements", 11, gather_along_axis("relax.gather_elements"));
  table.add("GatherND", 11, convert_gather_nd);
  table.add("Scatter", 9, convert_scatter);
  table.add("ScatterElements", 11, convert_scatter_elements);
  table.add("ScatterND", 11, convert_scatter_nd);
  table.add("ReverseSequence", 10, convert_reverse_sequence);
  table.add("OneHot", 9, convert_one_hot);
  table.add("Resize", 10, convert_resize);
  // Upsample (opsets 7 to 9, then deprecated) is Resize of opset 10.
  table.add("Upsample", 7, convert_resize);
  table.add("DepthToSpace", 1, convert_depth_to_space);
  table.add("SpaceToDepth", 1, convert_space_to_depth);
  table.add("Trilu", 14, convert_trilu);
}

}  // namespace relaxc::onnx_import
