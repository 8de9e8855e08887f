// The converters for operands known only at run time (graph inputs, tensors computed
// from data): Reshape's shape, Expand's shape, Slice's starts, ends, axes and steps,
// Range's bounds, Unsqueeze's, Squeeze's and ReduceSum's axes. What the output's
// shape needs is computed on the device with Relax operators, read back with
// R.tensor_to_shape and bound to new shape variables (run_time_dims, shape_values.h).
// Operands that ONNX forbids (an axis out of range, a delta of 0) make a shape entry
// -1, which the VM refuses, rather than a wrong result.
#include "frontend/onnx/shape_run_time.h"

#include <algorithm>
#include <string>

#include "frontend/onnx/op_helpers.h"
#include "frontend/onnx/shape_values.h"
#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::onnx_import {

using relax::Expr;
using relax::PrimExpr;

namespace {

// The int64 tensor of `dims` (constants, or expressions of the symbolic dims).
Expr dims_tensor(NodeContext& ctx, const std::vector<PrimExpr>& dims) {
  return elements_value(ctx, dims, DataType::Int(64), /*scalar=*/false).expr;
}

}  // namespace

bool known_at_import(const NodeContext& ctx, size_t i) {
  const Value& v = ctx.input(i);
  return v.constant.has_value() || v.shape_elements.has_value();
}

// A Reshape whose shape is known only at run time: the shape's 0s (copy the input's dim,
// unless allowzero) and its -1 (the element count over the product of the others) are
// resolved on the device, then the result becomes the output's shape variables.
std::vector<Value> reshape_at_run_time(NodeContext& ctx, bool allowzero) {
  std::vector<PrimExpr> in = input_dims(ctx, 0, "data");
  Expr shape = ctx.tensor(1);
  size_t length = run_time_length(ctx, shape, "input 1 'shape'");
  const DataType i64 = DataType::Int(64);
  auto entries_equal = [&](int64_t value) {
    return ctx.emit_op("relax.equal", {shape, scalar_constant(ctx, i64, value)});
  };
  if (!allowzero) {
    // Entries past the input's rank have no dim to copy: 0 there stays 0, and the
    // element count no longer matches (the VM's reshape refuses it).
    std::vector<PrimExpr> copied(length, relax::const_dim(0));
    for (size_t d = 0; d < copied.size() && d < in.size(); ++d) copied[d] = in[d];
    shape = ctx.emit_op("relax.where", {entries_equal(0), dims_tensor(ctx, copied), shape});
  }
  Expr inferred = entries_equal(-1);
  Expr others = ctx.emit_op(
      "relax.prod", {ctx.emit_op("relax.where", {inferred, scalar_constant(ctx, i64, 1), shape})});
  // A 0 among the others leaves nothing to infer from; dividing by 1 instead keeps the
  // division defined, and the element count then refuses the shape.
  others = ctx.emit_op("relax.maximum", {others, scalar_constant(ctx, i64, 1)});
  arith::Analyzer analyzer;
  Expr count = prim_expr_tensor(ctx, simplify_dims(relax::dims_product(in, analyzer)));
  Expr quotient = ctx.emit_op("relax.floor_divide", {count, others});
  shape = ctx.emit_op("relax.where", {inferred, quotient, shape});
  return single(emit_reshape(ctx, ctx.tensor(0), run_time_dims(ctx, shape, "input 1 'shape'")));
}

namespace {

// The int64 copy of an integer tensor.
Expr to_i64(NodeContext& ctx, const Expr& e) {
  return ctx.emit_op("relax.astype", {e},
                     Attrs({{"dtype", AttrValue::data_type(DataType::Int(64))}}));
}

// How many of the run-time `axes` (input `i`, k entries, negative ones counting from the
// end) name each dim of a rank-`rank` input: an int64 tensor of `rank` entries.
Expr axis_matches(NodeContext& ctx, size_t i, int64_t k, int64_t rank) {
  const DataType i64 = DataType::Int(64);
  auto constant = [&](int64_t v) { return scalar_constant(ctx, i64, static_cast<double>(v)); };
  Expr axes = to_i64(ctx, ctx.tensor(i));
  axes = ctx.emit_op("relax.where", {ctx.emit_op("relax.less", {axes, constant(0)}),
                                     ctx.emit_op("relax.add", {axes, constant(rank)}), axes});
  std::vector<PrimExpr> positions;
  for (int64_t p = 0; p < rank; ++p) positions.push_back(relax::const_dim(p));
  Expr column =
      emit_reshape(ctx, dims_tensor(ctx, positions), {relax::const_dim(rank), relax::const_dim(1)});
  Expr hits = ctx.emit_op(
      "relax.equal", {emit_reshape(ctx, axes, {relax::const_dim(1), relax::const_dim(k)}), column});
  return ctx.emit_op("relax.sum", {to_i64(ctx, hits)}, Attrs({{"axis", AttrValue::int_list({1})}}));
}

// `x` of dims `in` without the dims that input `i`'s k run-time axes name: a reshape to
// the dims that are not squeezed, output dim q being the input's dim p where p is the
// (q+1)-th kept dim (an argmax over the running count of kept dims). A squeezed dim that
// is not 1, or an axis out of range or repeated, which ONNX forbids, makes the shape's
// entries -1, which the VM refuses (a squeeze to a scalar has no entries: its reshape
// checks the element count).
Expr squeeze_run_time_axes(NodeContext& ctx, const Expr& x, const std::vector<PrimExpr>& in,
                           size_t i, int64_t k) {
  const DataType i64 = DataType::Int(64);
  auto constant = [&](int64_t v) { return scalar_constant(ctx, i64, static_cast<double>(v)); };
  auto rank = static_cast<int64_t>(in.size());
  int64_t out_rank = rank - k;
  Expr matches = axis_matches(ctx, i, k, rank);
  Expr squeezed = ctx.emit_op("relax.greater", {matches, constant(0)});
  Expr dims = dims_tensor(ctx, in);
  Expr bad =
      ctx.emit_op("relax.logical_or",
                  {ctx.emit_op("relax.greater", {matches, constant(1)}),
                   ctx.emit_op("relax.logical_and",
                               {squeezed, ctx.emit_op("relax.not_equal", {dims, constant(1)})})});
  Expr valid = ctx.emit_op(
      "relax.logical_and",
      {ctx.emit_op("relax.equal", {ctx.emit_op("relax.sum", {to_i64(ctx, bad)}), constant(0)}),
       ctx.emit_op("relax.equal", {ctx.emit_op("relax.sum", {matches}), constant(k)})});
  Expr kept = ctx.emit_op("relax.logical_not", {squeezed});
  Expr running = ctx.emit_op(
      "relax.cumsum", {to_i64(ctx, kept)},
      Attrs({{"axis", AttrValue::integer(0)}, {"exclusive", AttrValue::boolean(false)}}));
  std::vector<PrimExpr> ordinals;
  for (int64_t q = 1; q <= out_rank; ++q) ordinals.push_back(relax::const_dim(q));
  auto as_row = [&](const Expr& e) {
    return emit_reshape(ctx, e, {relax::const_dim(1), relax::const_dim(rank)});
  };
  Expr is_source = ctx.emit_op(
      "relax.logical_and",
      {ctx.emit_op("relax.equal", {as_row(running), emit_reshape(ctx, dims_tensor(ctx, ordinals),
                                                                 {relax::const_dim(out_rank),
                                                                  relax::const_dim(1)})}),
       as_row(kept)});
  Expr source = ctx.emit_op("relax.argmax", {to_i64(ctx, is_source)},
                            Attrs({{"axis", AttrValue::integer(1)}}));
  Expr shape = ctx.emit_op("relax.take", {dims, source}, Attrs({{"axis", AttrValue::integer(0)}}));
  shape = ctx.emit_op("relax.where", {valid, shape, constant(-1)});
  return emit_reshape(ctx, x, run_time_dims(ctx, shape, "the output's shape"));
}

}  // namespace

// A Squeeze whose axes are known only at run time.
std::vector<Value> squeeze_at_run_time(NodeContext& ctx) {
  std::vector<PrimExpr> in = input_dims(ctx, 0, "data");
  auto k = static_cast<int64_t>(run_time_length(ctx, ctx.tensor(1), "input 1 'axes'"));
  if (k > static_cast<int64_t>(in.size())) {
    ctx.invalid("input 1 'axes' has " + std::to_string(k) + " entries; the input has rank " +
                std::to_string(in.size()));
  }
  return single(squeeze_run_time_axes(ctx, ctx.tensor(0), in, 1, k));
}

// A ReduceSum whose k > 0 axes are known only at run time: axis by axis, where the axis
// is reduced the sum over it (kept as a dim of 1) broadcasts over the dim, so the shape
// stays the input's; then each dim is cut to its first entry where reduced (a take of
// [0, out_d) with out_d, 1 or the dim, read at run time), and without keepdims the reduced
// dims are squeezed. An axis out of range or repeated, which ONNX forbids, makes out_d -1,
// which the VM refuses.
std::vector<Value> reduce_sum_at_run_time(NodeContext& ctx, bool keepdims) {
  std::vector<PrimExpr> in = input_dims(ctx, 0, "data");
  const DataType i64 = DataType::Int(64);
  auto constant = [&](int64_t v) { return scalar_constant(ctx, i64, static_cast<double>(v)); };
  auto k = static_cast<int64_t>(run_time_length(ctx, ctx.tensor(1), "input 1 'axes'"));
  auto rank = static_cast<int64_t>(in.size());
  if (k > rank) {
    ctx.invalid("input 1 'axes' has " + std::to_string(k) + " entries; the input has rank " +
                std::to_string(rank));
  }
  Expr matches = axis_matches(ctx, 1, k, rank);
  Expr reduced = ctx.emit_op("relax.greater", {matches, constant(0)});
  Expr valid =
      ctx.emit_op("relax.logical_and",
                  {ctx.emit_op("relax.less_equal", {matches, constant(1)}),
                   ctx.emit_op("relax.equal", {ctx.emit_op("relax.sum", {matches}), constant(k)})});
  Expr out = ctx.emit_op("relax.where", {reduced, constant(1), dims_tensor(ctx, in)});
  out = ctx.emit_op("relax.where", {valid, out, constant(-1)});
  Expr x = ctx.tensor(0);
  Attrs at({{"axis", AttrValue::integer(0)}});
  for (int64_t d = 0; d < rank; ++d) {
    Expr sum = ctx.emit_op(
        "relax.sum", {x},
        Attrs({{"axis", AttrValue::int_list({d})}, {"keepdims", AttrValue::boolean(true)}}));
    Expr flag =
        ctx.emit_op("relax.take", {reduced, relax::make_prim_value(relax::const_dim(d))}, at);
    x = ctx.emit_op("relax.where", {flag, sum, x});
  }
  std::vector<PrimExpr> dims = run_time_dims(ctx, out, "the output's shape");
  for (int64_t d = 0; d < rank; ++d) {
    x = ctx.emit_op("relax.take", {x, iota(ctx, dims[d], relax::const_dim(0), 1)},
                    Attrs({{"axis", AttrValue::integer(d)}}));
  }
  return single(keepdims ? x : squeeze_run_time_axes(ctx, x, dims, 1, k));
}

// An Unsqueeze whose axes are known only at run time is a reshape to a shape computed on
// the device: output dim p is 1 where p is an axis, else the input's dim p minus the
// number of axes before p. Axes out of range or repeated, which ONNX forbids, make the
// shape's entries -1, which the VM refuses.
std::vector<Value> unsqueeze_at_run_time(NodeContext& ctx) {
  std::vector<PrimExpr> in = input_dims(ctx, 0, "data");
  const DataType i64 = DataType::Int(64);
  auto constant = [&](int64_t v) { return scalar_constant(ctx, i64, static_cast<double>(v)); };
  auto k = static_cast<int64_t>(run_time_length(ctx, ctx.tensor(1), "input 1 'axes'"));
  auto rank = static_cast<int64_t>(in.size());
  int64_t out_rank = rank + k;
  if (rank == 0) {
    return single(emit_reshape(ctx, ctx.tensor(0), std::vector<PrimExpr>(k, relax::const_dim(1))));
  }
  Expr axes =
      ctx.emit_op("relax.astype", {ctx.tensor(1)}, Attrs({{"dtype", AttrValue::data_type(i64)}}));
  axes = ctx.emit_op("relax.where", {ctx.emit_op("relax.less", {axes, constant(0)}),
                                     ctx.emit_op("relax.add", {axes, constant(out_rank)}), axes});
  Expr row = emit_reshape(ctx, axes, {relax::const_dim(1), relax::const_dim(k)});
  std::vector<PrimExpr> positions;
  for (int64_t p = 0; p < out_rank; ++p) positions.push_back(relax::const_dim(p));
  Expr position = dims_tensor(ctx, positions);
  Expr column = emit_reshape(ctx, position, {relax::const_dim(out_rank), relax::const_dim(1)});
  Attrs over_axes({{"axis", AttrValue::int_list({1})}});
  auto count = [&](const char* compare) {
    Expr hits = ctx.emit_op(compare, {row, column});
    return ctx.emit_op(
        "relax.sum",
        {ctx.emit_op("relax.astype", {hits}, Attrs({{"dtype", AttrValue::data_type(i64)}}))},
        over_axes);
  };
  Expr matches = count("relax.equal");
  Expr source = ctx.emit_op("relax.subtract", {position, count("relax.less")});
  source = ctx.emit_op("relax.clip", {source, relax::make_prim_value(relax::const_dim(0)),
                                      relax::make_prim_value(relax::const_dim(rank - 1))});
  Expr dims = ctx.emit_op("relax.take", {dims_tensor(ctx, in), source},
                          Attrs({{"axis", AttrValue::integer(0)}}));
  Expr shape = ctx.emit_op(
      "relax.where", {ctx.emit_op("relax.greater", {matches, constant(0)}), constant(1), dims});
  Expr valid =
      ctx.emit_op("relax.logical_and",
                  {ctx.emit_op("relax.less_equal", {matches, constant(1)}),
                   ctx.emit_op("relax.equal", {ctx.emit_op("relax.sum", {matches}), constant(k)})});
  shape = ctx.emit_op("relax.where", {valid, shape, constant(-1)});
  return single(emit_reshape(ctx, ctx.tensor(0), run_time_dims(ctx, shape, "the output's shape")));
}

// A Slice whose starts, ends, axes or steps are known only at run time. Each dim d of
// the input gets its begin, step and length on the device: the entries whose axis is d
// (none: the whole dim), made non-negative and clamped as ONNX does; the lengths become
// shape variables `<output>_d` and each dim is a take of begin + step * [0, length).
std::vector<Value> slice_at_run_time(NodeContext& ctx) {
  std::vector<PrimExpr> in = input_dims(ctx, 0, "data");
  const DataType i64 = DataType::Int(64);
  auto rank = static_cast<int64_t>(in.size());
  auto as_i64 = [&](Expr e) {
    if (e->struct_info.as<relax::TensorStructInfoNode>()->dtype == i64) return e;
    return ctx.emit_op("relax.astype", {e}, Attrs({{"dtype", AttrValue::data_type(i64)}}));
  };
  auto constant = [&](int64_t v) { return scalar_constant(ctx, i64, static_cast<double>(v)); };
  static const char* const kNames[] = {"", "starts", "ends", "axes", "steps"};
  std::vector<Expr> given(5);
  size_t length = 0;
  for (size_t i = 1; i < 5; ++i) {
    if (i >= 3 && !ctx.has_input(i)) continue;
    std::string what = "input " + std::to_string(i) + " '" + kNames[i] + "'";
    size_t n = run_time_length(ctx, ctx.tensor(i), what);
    if (i > 1 && n != length) ctx.invalid(what + " must have as many entries as 'starts'");
    length = n;
    given[i] = as_i64(ctx.tensor(i));
  }
  auto m = static_cast<int64_t>(length);
  std::vector<PrimExpr> default_axes;
  for (int64_t k = 0; k < m; ++k) default_axes.push_back(relax::const_dim(k));
  Expr axes = given[3].defined() ? given[3] : dims_tensor(ctx, default_axes);
  axes = ctx.emit_op("relax.where", {ctx.emit_op("relax.less", {axes, constant(0)}),
                                     ctx.emit_op("relax.add", {axes, constant(rank)}), axes});
  Expr steps = given[4].defined()
                   ? given[4]
                   : dims_tensor(ctx, std::vector<PrimExpr>(length, relax::const_dim(1)));
  // mask[d, k]: entry k slices dim d.
  std::vector<PrimExpr> dim_indices;
  for (int64_t d = 0; d < rank; ++d) dim_indices.push_back(relax::const_dim(d));
  Expr mask = ctx.emit_op("relax.equal",
                          {emit_reshape(ctx, axes, {relax::const_dim(1), relax::const_dim(m)}),
                           emit_reshape(ctx, dims_tensor(ctx, dim_indices),
                                        {relax::const_dim(rank), relax::const_dim(1)})});
  Attrs over_entries({{"axis", AttrValue::int_list({1})}});
  Expr matches = ctx.emit_op(
      "relax.sum",
      {ctx.emit_op("relax.astype", {mask}, Attrs({{"dtype", AttrValue::data_type(i64)}}))},
      over_entries);
  Expr sliced = ctx.emit_op("relax.greater", {matches, constant(0)});
  // An axis out of range (no dim matches it) or given twice, which ONNX forbids, makes
  // the lengths -1, which the VM refuses, rather than a slice that ignores it.
  Expr valid =
      ctx.emit_op("relax.logical_and",
                  {ctx.emit_op("relax.less_equal", {matches, constant(1)}),
                   ctx.emit_op("relax.equal", {ctx.emit_op("relax.sum", {matches}), constant(m)})});
  auto per_dim = [&](const Expr& entries, const Expr& otherwise) {
    Expr row = emit_reshape(ctx, entries, {relax::const_dim(1), relax::const_dim(m)});
    Expr picked = ctx.emit_op("relax.sum", {ctx.emit_op("relax.where", {mask, row, constant(0)})},
                              over_entries);
    return ctx.emit_op("relax.where", {sliced, picked, otherwise});
  };
  Expr n = dims_tensor(ctx, in);
  Expr step = per_dim(steps, constant(1));
  Expr forward = ctx.emit_op("relax.greater", {step, constant(0)});
  Expr one = constant(1);
  Expr lo = ctx.emit_op("relax.where", {forward, constant(0), constant(-1)});
  Expr hi = ctx.emit_op("relax.where", {forward, n, ctx.emit_op("relax.subtract", {n, one})});
  auto clamp = [&](const Expr& index) {
    Expr v = ctx.emit_op("relax.where", {ctx.emit_op("relax.less", {index, constant(0)}),
                                         ctx.emit_op("relax.add", {index, n}), index});
    return ctx.emit_op("relax.minimum", {ctx.emit_op("relax.maximum", {v, lo}), hi});
  };
  Expr begin = clamp(per_dim(given[1], constant(0)));
  Expr end = clamp(per_dim(given[2], n));
  Expr span = ctx.emit_op("relax.where", {forward, ctx.emit_op("relax.subtract", {end, begin}),
                                          ctx.emit_op("relax.subtract", {begin, end})});
  // A step of 0, which ONNX forbids, divides by 1 (defined) and its length is then -1.
  Expr magnitude = ctx.emit_op("relax.maximum", {ctx.emit_op("relax.abs", {step}), one});
  valid = ctx.emit_op("relax.logical_and",
                      {valid, ctx.emit_op("relax.not_equal", {step, constant(0)})});
  Expr count = ctx.emit_op(
      "relax.floor_divide",
      {ctx.emit_op("relax.subtract", {ctx.emit_op("relax.add", {span, magnitude}), one}),
       magnitude});
  count = ctx.emit_op("relax.maximum", {count, constant(0)});
  count = ctx.emit_op("relax.where", {valid, count, constant(-1)});
  std::vector<PrimExpr> lengths = run_time_dims(ctx, count, "the slice's lengths");
  Expr x = ctx.tensor(0);
  for (int64_t d = 0; d < rank; ++d) {
    Attrs at({{"axis", AttrValue::integer(0)}});
    Expr index = relax::make_prim_value(relax::const_dim(d));
    Expr indices = ctx.emit_op("relax.multiply", {iota(ctx, lengths[d], relax::const_dim(0), 1),
                                                  ctx.emit_op("relax.take", {step, index}, at)});
    indices = ctx.emit_op("relax.add", {indices, ctx.emit_op("relax.take", {begin, index}, at)});
    x = ctx.emit_op("relax.take", {x, indices}, Attrs({{"axis", AttrValue::integer(d)}}));
  }
  return single(x);
}

// An Expand whose shape is known only at run time: each output dim is the shape's entry,
// or the input's dim where the entry is 1. Where the input's dim is not the constant 1
// the output dim must be that dim (relax.broadcast_to reads a symbolic dim as it is),
// which the match_cast checks; the other dims are new shape variables.
std::vector<Value> expand_at_run_time(NodeContext& ctx, std::vector<PrimExpr> in) {
  Expr shape = ctx.tensor(1);
  size_t length = run_time_length(ctx, shape, "input 1 'shape'");
  const DataType i64 = DataType::Int(64);
  size_t rank = std::max(in.size(), length);
  in.insert(in.begin(), rank - in.size(), relax::const_dim(1));
  if (length < rank) {
    std::vector<PrimExpr> ones(rank - length, relax::const_dim(1));
    shape = ctx.emit_op("relax.concat", {ctx.builder().tuple({dims_tensor(ctx, ones), shape})},
                        Attrs({{"axis", AttrValue::integer(0)}}));
  }
  Expr ones = ctx.emit_op("relax.equal", {shape, scalar_constant(ctx, i64, 1)});
  shape = ctx.emit_op("relax.where", {ones, dims_tensor(ctx, in), shape});
  std::vector<PrimExpr> expected(rank);
  for (size_t d = 0; d < rank; ++d) {
    if (!tir::is_const_int(in[d], 1)) expected[d] = in[d];
  }
  std::vector<PrimExpr> out = run_time_dims(ctx, shape, "input 1 'shape'", expected);
  return single(
      ctx.emit_op("relax.broadcast_to", {ctx.tensor(0), relax::make_shape_expr(std::move(out))}));
}

// A Range whose bounds are known only at run time: its length max(ceil((limit - start) /
// delta), 0) is computed on the device (in int64 for integer bounds, exactly) and becomes
// a shape variable; the output is start + delta * [0, length). A delta of 0, which ONNX
// forbids, makes the length -1, which the VM refuses.
std::vector<Value> range_at_run_time(NodeContext& ctx, DataType dtype) {
  const DataType i64 = DataType::Int(64);
  std::vector<Expr> bounds;
  for (size_t i = 0; i < 3; ++i) {
    Expr b = ctx.tensor(i);
    if (!dtype.is_float()) {
      b = ctx.emit_op("relax.astype", {b}, Attrs({{"dtype", AttrValue::data_type(i64)}}));
    }
    bounds.push_back(b);
  }
  DataType math = dtype.is_float() ? dtype : i64;
  Expr span = ctx.emit_op("relax.subtract", {bounds[1], bounds[0]});
  Expr count;
  if (dtype.is_float()) {
    count = ctx.emit_op("relax.ceil", {ctx.emit_op("relax.divide", {span, bounds[2]})});
    count = ctx.emit_op("relax.astype", {count}, Attrs({{"dtype", AttrValue::data_type(i64)}}));
  } else {
    // ceil(a / b) is -floor(-a / b).
    Expr negated = ctx.emit_op("relax.negative", {span});
    count =
        ctx.emit_op("relax.negative", {ctx.emit_op("relax.floor_divide", {negated, bounds[2]})});
  }
  count = ctx.emit_op("relax.maximum", {count, scalar_constant(ctx, i64, 0)});
  Expr zero_delta = ctx.emit_op("relax.equal", {bounds[2], scalar_constant(ctx, math, 0)});
  count = ctx.emit_op("relax.where", {zero_delta, scalar_constant(ctx, i64, -1), count});
  count = emit_reshape(ctx, count, {relax::const_dim(1)});
  PrimExpr length = run_time_dims(ctx, count, "the length of the range")[0];
  Expr steps = iota(ctx, length, relax::const_dim(0), 1);
  if (math != i64) {
    steps = ctx.emit_op("relax.astype", {steps}, Attrs({{"dtype", AttrValue::data_type(math)}}));
  }
  Expr out =
      ctx.emit_op("relax.add", {bounds[0], ctx.emit_op("relax.multiply", {steps, bounds[2]})});
  if (math != dtype) {
    out = ctx.emit_op("relax.astype", {out}, Attrs({{"dtype", AttrValue::data_type(dtype)}}));
  }
  return single(out);
}

// A Split (opset 13 on) whose sizes are known only at run time: they become shape
// variables, and output k is a take of [offset_k, offset_k + size_k) along the axis.
// Sizes that are negative or do not add up to the dim, which ONNX forbids, all become
// -1, which the VM refuses.
std::vector<Value> split_at_run_time(NodeContext& ctx, int64_t axis, size_t outputs) {
  std::vector<PrimExpr> in = input_dims(ctx, 0, "input");
  const DataType i64 = DataType::Int(64);
  auto constant = [&](int64_t v) { return scalar_constant(ctx, i64, static_cast<double>(v)); };
  size_t length = run_time_length(ctx, ctx.tensor(1), "input 1 'split'");
  if (length != outputs) {
    ctx.invalid("input 1 'split' has " + std::to_string(length) + " sizes for " +
                std::to_string(outputs) + " outputs");
  }
  Expr sizes = to_i64(ctx, ctx.tensor(1));
  Expr valid = ctx.emit_op(
      "relax.logical_and",
      {ctx.emit_op("relax.equal", {ctx.emit_op("relax.sum", {sizes}),
                                   prim_expr_tensor(ctx, in[static_cast<size_t>(axis)])}),
       ctx.emit_op("relax.greater_equal", {ctx.emit_op("relax.min", {sizes}), constant(0)})});
  sizes = ctx.emit_op("relax.where", {valid, sizes, constant(-1)});
  std::vector<PrimExpr> lengths = run_time_dims(ctx, sizes, "input 1 'split'");
  std::vector<Value> out;
  PrimExpr offset = relax::const_dim(0);
  for (const PrimExpr& n : lengths) {
    out.push_back(Value{ctx.emit_op("relax.take", {ctx.tensor(0), iota(ctx, n, offset, 1)},
                                    Attrs({{"axis", AttrValue::integer(axis)}})),
                        {},
                        {}});
    offset = simplify_dims(offset + n);
  }
  return out;
}

// A Pad (opset 11 on) whose pads or constant value are known only at run time. Output
// dim d is n + begin + end, read at run time; its index j reads input index j - begin,
// clamped to the dim (edge), mirrored about the first and last entries (reflect), or
// masked to the value where outside the dim (constant), each dim a take. Negative pads
// crop. A dim of -1, which the VM refuses, marks what ONNX forbids or relaxc can't
// express: reflect pads past n - 1 (more than one mirror image), a padded dim of 0.
std::vector<Value> pad_at_run_time(NodeContext& ctx, const std::string& mode) {
  std::vector<PrimExpr> in = input_dims(ctx, 0, "data");
  DataType dtype = input_tensor(ctx, 0, "data").dtype;
  const DataType i64 = DataType::Int(64);
  auto constant = [&](int64_t v) { return scalar_constant(ctx, i64, static_cast<double>(v)); };
  auto rank = static_cast<int64_t>(in.size());
  size_t length = run_time_length(ctx, ctx.tensor(1), "input 1 'pads'");
  if (static_cast<int64_t>(length) != 2 * rank) {
    ctx.invalid("input 1 'pads' has " + std::to_string(length) + " entries; an input of rank " +
                std::to_string(rank) + " needs " + std::to_string(2 * rank));
  }
  Expr pads =
      emit_reshape(ctx, to_i64(ctx, ctx.tensor(1)), {relax::const_dim(2), relax::const_dim(rank)});
  Attrs row0({{"axis", AttrValue::integer(0)}});
  Expr begin = ctx.emit_op("relax.take", {pads, relax::make_prim_value(relax::const_dim(0))}, row0);
  Expr end = ctx.emit_op("relax.take", {pads, relax::make_prim_value(relax::const_dim(1))}, row0);
  Expr n = dims_tensor(ctx, in);
  Expr out = ctx.emit_op("relax.add", {n, ctx.emit_op("relax.add", {begin, end})});
  Expr padded =
      ctx.emit_op("relax.logical_or", {ctx.emit_op("relax.not_equal", {begin, constant(0)}),
                                       ctx.emit_op("relax.not_equal", {end, constant(0)})});
  // Padding an empty dim has nothing to copy from, except with a constant.
  Expr valid =
      mode == "constant"
          ? ctx.emit_op("relax.greater_equal", {out, constant(0)})
          : ctx.emit_op("relax.logical_not",
                        {ctx.emit_op("relax.logical_and",
                                     {padded, ctx.emit_op("relax.equal", {n, constant(0)})})});
  if (mode == "reflect") {
    Expr last = ctx.emit_op("relax.subtract", {n, constant(1)});
    valid = ctx.emit_op(
        "relax.logical_and",
        {valid, ctx.emit_op("relax.logical_and", {ctx.emit_op("relax.less_equal", {begin, last}),
                                                  ctx.emit_op("relax.less_equal", {end, last})})});
  }
  out = ctx.emit_op("relax.where", {valid, out, constant(-1)});
  std::vector<PrimExpr> dims = run_time_dims(ctx, out, "the output's shape");
  Expr x = ctx.tensor(0);
  Expr inside;
  Attrs at({{"axis", AttrValue::integer(0)}});
  for (int64_t d = 0; d < rank; ++d) {
    Expr index = relax::make_prim_value(relax::const_dim(d));
    Expr size = ctx.emit_op("relax.take", {n, index}, at);
    Expr last = ctx.emit_op("relax.subtract", {size, constant(1)});
    Expr source = ctx.emit_op("relax.subtract",
                              {iota(ctx, dims[static_cast<size_t>(d)], relax::const_dim(0), 1),
                               ctx.emit_op("relax.take", {begin, index}, at)});
    if (mode == "reflect") {
      source = ctx.emit_op("relax.abs", {source});
      Expr mirrored =
          ctx.emit_op("relax.subtract", {ctx.emit_op("relax.add", {last, last}), source});
      source = ctx.emit_op("relax.where",
                           {ctx.emit_op("relax.greater", {source, last}), mirrored, source});
    } else if (mode == "constant") {
      Expr within = ctx.emit_op("relax.logical_and",
                                {ctx.emit_op("relax.greater_equal", {source, constant(0)}),
                                 ctx.emit_op("relax.less", {source, size})});
      std::vector<PrimExpr> shape(static_cast<size_t>(rank), relax::const_dim(1));
      shape[static_cast<size_t>(d)] = dims[static_cast<size_t>(d)];
      within = emit_reshape(ctx, within, shape);
      inside = inside.defined() ? ctx.emit_op("relax.logical_and", {inside, within}) : within;
    }
    // Clamped for edge, and so that the masked entries of constant read inside the dim.
    source =
        ctx.emit_op("relax.maximum", {ctx.emit_op("relax.minimum", {source, last}), constant(0)});
    x = ctx.emit_op("relax.take", {x, source}, Attrs({{"axis", AttrValue::integer(d)}}));
  }
  if (mode != "constant") return single(x);
  Expr value = scalar_constant(ctx, dtype, 0);
  if (ctx.has_input(2)) {
    size_t count = 1;
    for (const PrimExpr& dim : input_dims(ctx, 2, "constant_value")) {
      const int64_t* c = tir::as_const_int(dim);
      count = c != nullptr ? count * static_cast<size_t>(*c) : 0;
    }
    if (count != 1) ctx.invalid("input 2 'constant_value' must hold one value");
    value = emit_reshape(ctx, ctx.tensor(2), {});
  }
  return single(ctx.emit_op("relax.where", {inside, x, value}));
}

}  // namespace relaxc::onnx_import
