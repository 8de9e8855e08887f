// The data-dependent family's converters: NonZero, Compress and Unique, whose output
// shape depends on the input's values. Each becomes R.nonzero or R.unique (computed by
// the VM on the host: passes/relax/legalize/data_dependent.cc), whose result of unknown
// dims R.match_cast binds to new shape variables named after the node's output, so that
// the nodes after it see symbolic shapes and the model compiles once for every size.
#include <onnx/onnx_pb.h>

#include <string>
#include <utility>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"
#include "frontend/onnx/shape_values.h"
#include "ir/arith/analyzer.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::onnx_import {

namespace {

using relax::Expr;
using relax::PrimExpr;

const DataType kInt64 = DataType::Int(64);

PrimExpr element_count(const std::vector<PrimExpr>& dims) {
  arith::Analyzer analyzer;
  return relax::dims_product(dims, analyzer);
}

// `value` bound by R.match_cast to `sinfo` (whose new shape variables it binds).
Expr bind_dims(NodeContext& ctx, const Expr& value, relax::StructInfo sinfo,
               const std::string& name) {
  return ctx.builder().emit_match_cast(value, std::move(sinfo), name, relax::VarKind::DataflowVar,
                                       ctx.span());
}

// The name of a new shape variable for the node's first output: "<output>_<what>".
std::string dim_name(const NodeContext& ctx, const std::string& what) {
  return (ctx.node().output_size() > 0 ? ctx.node().output(0) : "dim") + "_" + what;
}

// R.nonzero of `x` (rank `rank`): an int64 tensor (max(rank, 1), count), the count a
// new shape variable.
Expr nonzero_indices(NodeContext& ctx, const Expr& x, int rank, const std::string& count_name) {
  Expr indices = ctx.emit_op("relax.nonzero", {x});
  PrimExpr rows = relax::const_dim(rank > 0 ? rank : 1);
  PrimExpr count = ctx.fresh_dim(count_name);
  return bind_dims(ctx, indices, relax::tensor_sinfo({rows, count}, kInt64), "nonzero");
}

std::vector<Value> convert_nonzero(NodeContext& ctx) {
  int rank = input_rank(ctx, 0, "X");
  return single(nonzero_indices(ctx, ctx.tensor(0), rank, dim_name(ctx, "count")));
}

// Compress: the slices (along `axis`; of the flattened input without it) where the 1-D
// condition is true. A condition shorter than the axis drops the slices past it; a
// longer one is invalid, checked here when both lengths are known (otherwise the take
// clamps its indices, so that no read leaves the input).
std::vector<Value> convert_compress(NodeContext& ctx) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "input");
  const relax::TensorStructInfoNode& condition = input_tensor(ctx, 1, "condition");
  if (condition.ndim != 1 || !condition.dtype.is_bool()) {
    ctx.invalid("input 1 'condition' must be a 1-D bool tensor");
  }
  Expr x = ctx.tensor(0);
  int64_t axis = 0;
  PrimExpr length;
  if (ctx.has_attr("axis")) {
    axis = normalized_axis(ctx, ctx.attr_int("axis"), static_cast<int64_t>(dims.size()),
                           "attribute 'axis'");
    length = dims[static_cast<size_t>(axis)];
  } else {
    length = element_count(dims);
    x = emit_reshape(ctx, x, {length});
  }
  const std::vector<PrimExpr>* condition_dims = condition.shape_values();
  const int64_t* condition_length =
      condition_dims != nullptr ? tir::as_const_int((*condition_dims)[0]) : nullptr;
  const int64_t* axis_length = tir::as_const_int(length);
  if (condition_length != nullptr && axis_length != nullptr && *condition_length > *axis_length) {
    ctx.invalid(
        "input 1 'condition' has " + std::to_string(*condition_length) +
        " entries; the input has " + std::to_string(*axis_length) +
        (ctx.has_attr("axis") ? " along axis " + std::to_string(axis) : std::string(" elements")));
  }
  Expr indices = nonzero_indices(ctx, ctx.tensor(1), 1, dim_name(ctx, "count"));
  Expr selected =
      ctx.emit_op("relax.squeeze", {indices}, Attrs({{"axis", AttrValue::int_list({0})}}));
  bool checked = condition_length != nullptr && axis_length != nullptr;
  return single(ctx.emit_op("relax.take", {x, selected},
                            Attrs({{"axis", AttrValue::integer(axis)},
                                   {"mode", AttrValue::string(checked ? "fast" : "clip")}})));
}

// Unique: R.unique with every output, each bound to shape variables: the number of
// distinct values (or slices) is one new variable, shared by Y's axis, indices and
// counts; inverse_indices has one entry per element (or slice) of X.
std::vector<Value> convert_unique(NodeContext& ctx) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "X");
  int64_t sorted = ctx.attr_int("sorted", 1);
  if (sorted != 0 && sorted != 1) {
    ctx.invalid("attribute 'sorted' is " + std::to_string(sorted) + ", expected 0 or 1");
  }
  std::vector<Attrs::Entry> attrs = {{"sorted", AttrValue::boolean(sorted == 1)},
                                     {"return_index", AttrValue::boolean(true)},
                                     {"return_inverse", AttrValue::boolean(true)},
                                     {"return_counts", AttrValue::boolean(true)}};
  PrimExpr distinct = ctx.fresh_dim(dim_name(ctx, "unique"));
  std::vector<PrimExpr> values_dims = {distinct};
  PrimExpr slices = element_count(dims);
  if (ctx.has_attr("axis")) {
    int64_t axis = normalized_axis(ctx, ctx.attr_int("axis"), static_cast<int64_t>(dims.size()),
                                   "attribute 'axis'");
    attrs.emplace_back("axis", AttrValue::integer(axis));
    values_dims = dims;
    values_dims[static_cast<size_t>(axis)] = distinct;
    slices = dims[static_cast<size_t>(axis)];
  }
  Expr all = ctx.emit_op("relax.unique", {ctx.tensor(0)}, Attrs(std::move(attrs)));
  DataType dtype = input_tensor_any_rank(ctx, 0, "X").dtype;
  std::vector<relax::StructInfo> fields = {
      relax::tensor_sinfo(values_dims, dtype), relax::tensor_sinfo({distinct}, kInt64),
      relax::tensor_sinfo({slices}, kInt64), relax::tensor_sinfo({distinct}, kInt64)};
  std::vector<Value> outputs;
  for (size_t k = 0; k < fields.size(); ++k) {
    Expr field =
        ctx.builder().emit(ctx.builder().tuple_get_item(all, static_cast<int>(k)), "unique");
    outputs.push_back(Value{bind_dims(ctx, field, fields[k], "unique"), {}, {}});
  }
  return outputs;
}

}  // namespace

void register_data_dependent_converters(ConverterTable& table) {
  table.add("NonZero", 9, convert_nonzero);
  table.add("Compress", 9, convert_compress);
  table.add("Unique", 11, convert_unique);
}

}  // namespace relaxc::onnx_import
