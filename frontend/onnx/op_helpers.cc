// Helpers shared by the nn and reduce converters (op_helpers.h).
#include "frontend/onnx/op_helpers.h"

#include <onnx/onnx_pb.h>

namespace relaxc::onnx_import {

const relax::TensorStructInfoNode& input_tensor(const NodeContext& ctx, size_t i,
                                                const std::string& name) {
  const auto* tensor = ctx.tensor(i)->struct_info.as<relax::TensorStructInfoNode>();
  std::string where = "input " + std::to_string(i) + " '" + name + "'";
  if (tensor == nullptr) ctx.invalid(where + " must be a tensor");
  if (tensor->ndim < 0) ctx.unsupported(where + " has an unknown rank");
  return *tensor;
}

std::vector<relax::PrimExpr> input_dims(const NodeContext& ctx, size_t i, const std::string& name) {
  const std::vector<relax::PrimExpr>* dims = input_tensor(ctx, i, name).shape_values();
  if (dims == nullptr) {
    ctx.unsupported("input " + std::to_string(i) + " '" + name + "' has unknown dimensions");
  }
  return *dims;
}

int64_t normalized_axis(const NodeContext& ctx, int64_t axis, int64_t ndim,
                        const std::string& attr) {
  if (axis < -ndim || axis >= ndim) {
    ctx.invalid("attribute '" + attr + "' is " + std::to_string(axis) + "; it must be in [" +
                std::to_string(-ndim) + ", " + std::to_string(ndim) + ") for a tensor of rank " +
                std::to_string(ndim));
  }
  return axis < 0 ? axis + ndim : axis;
}

relax::Expr binary(NodeContext& ctx, const std::string& op, relax::Expr a, relax::Expr b) {
  return ctx.emit_op("relax." + op, {std::move(a), std::move(b)});
}

relax::Expr scalar_constant(NodeContext& ctx, DataType dtype, double value) {
  return ctx.constant_value(HostTensor::from_doubles(dtype, {}, {value})).expr;
}

bool has_output(const NodeContext& ctx, size_t i) {
  const onnx::NodeProto& node = ctx.node();
  return static_cast<int>(i) < node.output_size() && !node.output(static_cast<int>(i)).empty();
}

std::vector<Value> single(relax::Expr expr) { return {Value{std::move(expr), {}, {}}}; }

}  // namespace relaxc::onnx_import
