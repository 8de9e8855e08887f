// ONNX converters of the reductions (Reduce*), ArgMax / ArgMin, TopK and CumSum, on
// relaxc's statistical operators (sum, mean, max, min, prod, argmax, argmin), topk and
// cumsum; ReduceL1, L2, LogSum, LogSumExp and SumSquare are composed from them.
#include <onnx/onnx_pb.h>

#include <optional>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"
#include "frontend/onnx/shape_run_time.h"
#include "frontend/onnx/shape_values.h"
#include "ir/relax/ops/op_common.h"
#include "ir/text/printer.h"
#include "ir/tir/expr.h"

namespace relaxc::onnx_import {

namespace {

using relax::Expr;

// What a Reduce* node reduces: `axes` (non-negative; none: every axis), or nothing at
// all (noop_with_empty_axes with no axes: the node is the identity).
struct Reduction {
  std::optional<std::vector<int64_t>> axes;
  bool keepdims = true;
  bool identity = false;

  Attrs attrs(bool keep) const {
    return Attrs({{"axis", axes ? AttrValue::int_list(*axes) : AttrValue::none()},
                  {"keepdims", AttrValue::boolean(keep)}});
  }
};

// ReduceSum takes its axes as an (optional) input from opset 13, the others from opset
// 18; before that they are the attribute 'axes'.
Reduction reduction_of(const NodeContext& ctx, bool axes_from_input) {
  int64_t ndim = input_tensor(ctx, 0, "data").ndim;
  std::vector<int64_t> axes;
  if (axes_from_input) {
    // Axes known only at run time with no entries are known to be none.
    bool empty = ctx.has_input(1) && !known_at_import(ctx, 1) &&
                 run_time_length(ctx, ctx.tensor(1), "input 1 'axes'") == 0;
    if (ctx.has_input(1) && !empty) {
      const HostTensor& given = ctx.constant_input(1, "axes");
      for (int64_t i = 0; i < given.num_elements(); ++i) axes.push_back(given.element_as_int(i));
    }
  } else {
    axes = ctx.attr_ints("axes", std::vector<int64_t>{});
  }
  Reduction r;
  r.keepdims = ctx.attr_int("keepdims", 1) != 0;
  if (axes.empty()) {
    r.identity = ctx.attr_int("noop_with_empty_axes", 0) != 0;
    return r;
  }
  r.axes =
      normalized_axes(ctx, axes, ndim, axes_from_input ? "input 1 'axes'" : "attribute 'axes'");
  return r;
}

enum class ReduceKind { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

Expr unary(NodeContext& ctx, const std::string& op, Expr x) {
  return ctx.emit_op("relax." + op, {std::move(x)});
}

// The reduction of `x` by `kind` as Relax calls.
Expr reduce(NodeContext& ctx, ReduceKind kind, const Reduction& r, Expr x) {
  auto sum = [&](Expr e, bool keep) {
    return ctx.emit_op("relax.sum", {std::move(e)}, r.attrs(keep));
  };
  switch (kind) {
    case ReduceKind::Sum:
      return sum(x, r.keepdims);
    case ReduceKind::Mean:
      return ctx.emit_op("relax.mean", {x}, r.attrs(r.keepdims));
    case ReduceKind::Max:
      return ctx.emit_op("relax.max", {x}, r.attrs(r.keepdims));
    case ReduceKind::Min:
      return ctx.emit_op("relax.min", {x}, r.attrs(r.keepdims));
    case ReduceKind::Prod:
      return ctx.emit_op("relax.prod", {x}, r.attrs(r.keepdims));
    case ReduceKind::L1:
      return sum(unary(ctx, "abs", x), r.keepdims);
    case ReduceKind::L2:
      return unary(ctx, "sqrt", sum(binary(ctx, "multiply", x, x), r.keepdims));
    case ReduceKind::LogSum:
      return unary(ctx, "log", sum(x, r.keepdims));
    case ReduceKind::SumSquare:
      return sum(binary(ctx, "multiply", x, x), r.keepdims);
    case ReduceKind::LogSumExp: {
      // log(sum(exp(x - m))) + m with m the maximum, so that exp does not overflow.
      Expr m = ctx.emit_op("relax.max", {x}, r.attrs(true));
      Expr s = sum(unary(ctx, "exp", binary(ctx, "subtract", x, m)), r.keepdims);
      Expr shift = r.keepdims ? m : ctx.emit_op("relax.max", {x}, r.attrs(false));
      return binary(ctx, "add", unary(ctx, "log", s), shift);
    }
  }
  return x;
}

Converter reduce_converter(ReduceKind kind, bool axes_input_from_13) {
  return [kind, axes_input_from_13](NodeContext& ctx) {
    bool float_only =
        kind == ReduceKind::L2 || kind == ReduceKind::LogSum || kind == ReduceKind::LogSumExp;
    DataType dtype = input_tensor(ctx, 0, "data").dtype;
    if (float_only && !dtype.is_float()) {
      ctx.unsupported("input 0 'data' of type " + dtype.str() +
                      " is not supported: this reduction is computed in floating point");
    }
    bool axes_from_input = ctx.opset() >= (axes_input_from_13 ? 13 : 18);
    if (axes_from_input && ctx.has_input(1) && !known_at_import(ctx, 1) &&
        run_time_length(ctx, ctx.tensor(1), "input 1 'axes'") > 0) {
      if (kind != ReduceKind::Sum) {
        ctx.unsupported(
            "input 1 'axes' must be known when the model is imported (only "
            "ReduceSum takes axes known at run time)");
      }
      return reduce_sum_at_run_time(ctx, ctx.attr_int("keepdims", 1) != 0);
    }
    Reduction r = reduction_of(ctx, axes_from_input);
    if (r.identity) return single(ctx.tensor(0));
    return single(reduce(ctx, kind, r, ctx.tensor(0)));
  };
}

// ArgMax / ArgMin; select_last_index finds the last extremum as the first one of the
// reversed axis, whose index i is size - 1 - i in the original order.
Converter arg_reduce(const std::string& op) {
  return [op](NodeContext& ctx) {
    const relax::TensorStructInfoNode& info = input_tensor(ctx, 0, "data");
    int64_t axis = normalized_axis(ctx, ctx.attr_int("axis", 0), info.ndim, "attribute 'axis'");
    Attrs attrs({{"axis", AttrValue::integer(axis)},
                 {"keepdims", AttrValue::boolean(ctx.attr_int("keepdims", 1) != 0)}});
    if (ctx.attr_int("select_last_index", 0) == 0) {
      return single(ctx.emit_op("relax." + op, {ctx.tensor(0)}, attrs));
    }
    std::vector<relax::PrimExpr> dims = input_dims(ctx, 0, "data");
    const int64_t* size = tir::as_const_int(dims[static_cast<size_t>(axis)]);
    if (size == nullptr) {
      ctx.unsupported(
          "attribute 'select_last_index' = 1 needs a static size of the reduced axis; "
          "dimension " +
          std::to_string(axis) + " of input 0 'data' is symbolic");
    }
    Expr reversed =
        ctx.emit_op("relax.flip", {ctx.tensor(0)}, Attrs({{"axis", AttrValue::integer(axis)}}));
    Expr index = ctx.emit_op("relax." + op, {reversed}, attrs);
    return single(binary(ctx, "subtract",
                         scalar_constant(ctx, DataType::Int(64), static_cast<double>(*size - 1)),
                         index));
  };
}

// TopK: k is the attribute 'k' before opset 10, then the input K (a 1-element tensor
// known at import time). sorted = 0 leaves the order to the implementation, and the
// sorted order is one.
std::vector<Value> convert_topk(NodeContext& ctx) {
  const relax::TensorStructInfoNode& info = input_tensor(ctx, 0, "X");
  int64_t axis = normalized_axis(ctx, ctx.attr_int("axis", -1), info.ndim, "attribute 'axis'");
  int64_t k = 0;
  // K known only at run time: the whole axis sorted, then its first K, a shape variable
  // read back with R.tensor_to_shape (a K past the axis, which ONNX forbids, is -1 there,
  // which the VM refuses).
  std::optional<relax::PrimExpr> run_time_k;
  std::vector<relax::PrimExpr> dims = input_dims(ctx, 0, "X");
  const int64_t* extent = tir::as_const_int(dims[static_cast<size_t>(axis)]);
  if (ctx.opset() < 10) {
    k = ctx.attr_int("k");
  } else if (!known_at_import(ctx, 1)) {
    if (run_time_length(ctx, ctx.tensor(1), "input 1 'K'") != 1) {
      ctx.invalid("input 1 'K' must hold one element");
    }
    if (extent == nullptr) {
      ctx.unsupported("input 1 'K' is known only at run time and axis " + std::to_string(axis) +
                      " has the symbolic length " +
                      text::print_node(dims[static_cast<size_t>(axis)]) +
                      "; relaxc sorts the whole axis, whose length it needs at import");
    }
    k = *extent;
    const DataType i64 = DataType::Int(64);
    Expr given =
        ctx.emit_op("relax.astype", {ctx.tensor(1)}, Attrs({{"dtype", AttrValue::data_type(i64)}}));
    Expr valid =
        ctx.emit_op("relax.less_equal", {given, scalar_constant(ctx, i64, static_cast<double>(k))});
    given = ctx.emit_op("relax.where", {valid, given, scalar_constant(ctx, i64, -1)});
    run_time_k = run_time_dims(ctx, given, "input 1 'K'")[0];
  } else {
    const HostTensor& given = ctx.constant_input(1, "K");
    if (given.num_elements() != 1) {
      ctx.invalid("input 1 'K' must hold one element, got " + std::to_string(given.num_elements()));
    }
    k = given.element_as_int(0);
  }
  if (k < 0) ctx.invalid("k is " + std::to_string(k) + "; it must not be negative");
  if (extent != nullptr && k > *extent) {
    ctx.invalid("k is " + std::to_string(k) + ", more than the " + std::to_string(*extent) +
                " elements of axis " + std::to_string(axis));
  }
  if (k == 0) ctx.unsupported("k = 0 (empty outputs) is not supported");
  Attrs attrs({{"k", AttrValue::integer(k)},
               {"axis", AttrValue::integer(axis)},
               {"ret_type", AttrValue::string("both")},
               {"largest", AttrValue::boolean(ctx.attr_int("largest", 1) != 0)},
               {"dtype", AttrValue::data_type(DataType::Int(64))}});
  Expr both = ctx.emit_op("relax.topk", {ctx.tensor(0)}, attrs);
  relax::BlockBuilder& bb = ctx.builder();
  std::vector<Value> out;
  for (int i = 0; i < 2; ++i) {
    Expr part = bb.tuple_get_item(both, i);
    if (run_time_k) {
      part = ctx.emit_op("relax.take", {part, iota(ctx, *run_time_k, relax::const_dim(0), 1)},
                         Attrs({{"axis", AttrValue::integer(axis)}}));
    }
    out.push_back(Value{part, {}, {}});
  }
  return out;
}

// CumSum along one axis; reverse scans from the end, as a scan of the flipped axis
// flipped back.
Expr cumsum_along(NodeContext& ctx, Expr x, int64_t axis) {
  Attrs flip({{"axis", AttrValue::integer(axis)}});
  bool reverse = ctx.attr_int("reverse", 0) != 0;
  if (reverse) x = ctx.emit_op("relax.flip", {x}, flip);
  Expr y =
      ctx.emit_op("relax.cumsum", {x},
                  Attrs({{"axis", AttrValue::integer(axis)},
                         {"exclusive", AttrValue::boolean(ctx.attr_int("exclusive", 0) != 0)}}));
  return reverse ? ctx.emit_op("relax.flip", {y}, flip) : y;
}

// CumSum: the axis is an input, a scalar. Known at import time (as exported models give
// it), it is the operator's attribute; a 1-D input has one axis whatever the value says;
// otherwise the scan along every axis is computed and the input's value picks one
// (axis k is given as k or k - rank), so that the result never depends on a guess.
std::vector<Value> convert_cumsum(NodeContext& ctx) {
  const relax::TensorStructInfoNode& info = input_tensor(ctx, 0, "x");
  int64_t ndim = info.ndim;
  if (ndim == 0) ctx.invalid("input 0 'x' must have at least 1 dimension");
  const Value& axis_input = ctx.input(1);
  if (axis_input.constant) {
    const HostTensor& given = *axis_input.constant;
    if (given.num_elements() != 1) {
      ctx.invalid("input 1 'axis' must hold one element, got " +
                  std::to_string(given.num_elements()));
    }
    return single(cumsum_along(
        ctx, ctx.tensor(0), normalized_axis(ctx, given.element_as_int(0), ndim, "input 1 'axis'")));
  }
  Expr y = cumsum_along(ctx, ctx.tensor(0), ndim - 1);
  DataType axis_dtype = input_tensor(ctx, 1, "axis").dtype;
  for (int64_t k = ndim - 2; k >= 0; --k) {
    Expr is_k =
        ctx.emit_op("relax.logical_or",
                    {binary(ctx, "equal", axis_input.expr,
                            scalar_constant(ctx, axis_dtype, static_cast<double>(k))),
                     binary(ctx, "equal", axis_input.expr,
                            scalar_constant(ctx, axis_dtype, static_cast<double>(k - ndim)))});
    y = ctx.emit_op("relax.where", {is_k, cumsum_along(ctx, ctx.tensor(0), k), y});
  }
  return single(y);
}

}  // namespace

void register_reduce_converters(ConverterTable& table) {
  const std::pair<const char*, ReduceKind> reductions[] = {
      {"ReduceSum", ReduceKind::Sum},
      {"ReduceMean", ReduceKind::Mean},
      {"ReduceMax", ReduceKind::Max},
      {"ReduceMin", ReduceKind::Min},
      {"ReduceProd", ReduceKind::Prod},
      {"ReduceL1", ReduceKind::L1},
      {"ReduceL2", ReduceKind::L2},
      {"ReduceLogSum", ReduceKind::LogSum},
      {"ReduceLogSumExp", ReduceKind::LogSumExp},
      {"ReduceSumSquare", ReduceKind::SumSquare}};
  for (const auto& [name, kind] : reductions) {
    table.add(name, 1, reduce_converter(kind, kind == ReduceKind::Sum));
  }
  table.add("ArgMax", 1, arg_reduce("argmax"));
  table.add("ArgMin", 1, arg_reduce("argmin"));
  table.add("TopK", 1, convert_topk);
  table.add("CumSum", 11, convert_cumsum);
}

}  // namespace relaxc::onnx_import
