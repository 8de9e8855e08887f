// Helpers shared by the ONNX converters (op_helpers.h).
#include "frontend/onnx/op_helpers.h"

#include <onnx/onnx_pb.h>

#include <algorithm>

#include "ir/support/diagnostics.h"
#include "frontend/onnx/tensor_proto.h"

namespace relaxc::onnx_import {

namespace {

std::string input_name(size_t i, const std::string& name) {
  return "input " + std::to_string(i) + " '" + name + "'";
}

}  // namespace

const relax::TensorStructInfoNode& input_tensor_any_rank(const NodeContext& ctx, size_t i,
                                                         const std::string& name) {
  const auto* tensor = ctx.tensor(i)->struct_info.as<relax::TensorStructInfoNode>();
  if (tensor == nullptr) ctx.invalid(input_name(i, name) + " must be a tensor");
  return *tensor;
}

const relax::TensorStructInfoNode& input_tensor(const NodeContext& ctx, size_t i,
                                                const std::string& name) {
  const relax::TensorStructInfoNode& tensor = input_tensor_any_rank(ctx, i, name);
  if (tensor.ndim < 0) ctx.unsupported(input_name(i, name) + " has an unknown rank");
  return tensor;
}

int input_rank(const NodeContext& ctx, size_t i, const std::string& name) {
  return input_tensor(ctx, i, name).ndim;
}

std::vector<relax::PrimExpr> input_dims(const NodeContext& ctx, size_t i, const std::string& name) {
  const std::vector<relax::PrimExpr>* dims = input_tensor(ctx, i, name).shape_values();
  if (dims == nullptr) {
    ctx.unsupported(input_name(i, name) +
                    " has dimensions not known at import time (they depend on tensor values)");
  }
  return *dims;
}

int64_t normalized_axis(const NodeContext& ctx, int64_t axis, int64_t ndim,
                        const std::string& what) {
  if (axis < -ndim || axis >= ndim) {
    ctx.invalid(what + " is " + std::to_string(axis) + "; it must be in [" + std::to_string(-ndim) +
                ", " + std::to_string(ndim) + ") for a tensor of rank " + std::to_string(ndim));
  }
  return axis < 0 ? axis + ndim : axis;
}

std::vector<int64_t> normalized_axes(const NodeContext& ctx, const std::vector<int64_t>& axes,
                                     int64_t ndim, const std::string& what) {
  std::vector<int64_t> normalized;
  for (int64_t axis : axes) {
    int64_t a = normalized_axis(ctx, axis, ndim, what);
    if (std::find(normalized.begin(), normalized.end(), a) != normalized.end()) {
      ctx.invalid(what + " names axis " + std::to_string(a) + " twice");
    }
    normalized.push_back(a);
  }
  return normalized;
}

DataType attr_element_type(const NodeContext& ctx, const std::string& name,
                           std::optional<int64_t> def) {
  int64_t code = ctx.attr_int(name, def);
  if (!onnx::TensorProto_DataType_IsValid(static_cast<int>(code))) {
    ctx.invalid("attribute '" + name + "' (" + std::to_string(code) + ") is no ONNX element type");
  }
  std::optional<DataType> dtype = dtype_of(static_cast<int32_t>(code));
  if (!dtype) {
    ctx.unsupported("attribute '" + name + "': relaxc has no tensors of element type " +
                    onnx_type_name(static_cast<int32_t>(code)));
  }
  return *dtype;
}

relax::Expr binary(NodeContext& ctx, const std::string& op, relax::Expr a, relax::Expr b) {
  return ctx.emit_op("relax." + op, {std::move(a), std::move(b)});
}

relax::Expr scalar_constant(NodeContext& ctx, DataType dtype, double value) {
  return ctx.constant_value(HostTensor::from_doubles(dtype, {}, {value})).expr;
}

relax::Expr hard_sigmoid(NodeContext& ctx, const relax::Expr& x, double alpha, double beta) {
  const auto* info = x->struct_info.as<relax::TensorStructInfoNode>();
  RELAXC_ICHECK(info != nullptr) << "hard_sigmoid of a value that is no tensor";
  DataType dtype = info->dtype;
  relax::Expr linear =
      binary(ctx, "add", binary(ctx, "multiply", x, scalar_constant(ctx, dtype, alpha)),
             scalar_constant(ctx, dtype, beta));
  return binary(ctx, "maximum", binary(ctx, "minimum", linear, scalar_constant(ctx, dtype, 1)),
                scalar_constant(ctx, dtype, 0));
}

relax::Expr quantize_steps(NodeContext& ctx, const relax::Expr& steps,
                           const relax::Expr& zero_point, DataType quantized) {
  DataType dtype = steps->struct_info.as<relax::TensorStructInfoNode>()->dtype;
  double low = quantized.is_uint() ? 0 : -128;
  double high = quantized.is_uint() ? 255 : 127;
  relax::Expr q = ctx.emit_op("relax.round", {steps});
  if (zero_point.defined()) q = binary(ctx, "add", q, zero_point);
  q = binary(ctx, "minimum", binary(ctx, "maximum", q, scalar_constant(ctx, dtype, low)),
             scalar_constant(ctx, dtype, high));
  return ctx.emit_op("relax.astype", {q}, Attrs({{"dtype", AttrValue::data_type(quantized)}}));
}

bool has_output(const NodeContext& ctx, size_t i) {
  const onnx::NodeProto& node = ctx.node();
  return static_cast<int>(i) < node.output_size() && !node.output(static_cast<int>(i)).empty();
}

std::vector<Value> single(relax::Expr expr) { return {Value{std::move(expr), {}, {}}}; }

}  // namespace relaxc::onnx_import
