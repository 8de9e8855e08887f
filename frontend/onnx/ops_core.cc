// The core converters: Constant (every value* attribute), Identity, and Dropout in
// inference mode (the data passes through; the mask is all true).
#include <cstring>
#include <memory>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"
#include "onnx/onnx_pb.h"

namespace relaxc::onnx_import {
namespace {

HostTensor int64_tensor(std::vector<int64_t> shape, const std::vector<int64_t>& values) {
  auto bytes = std::make_shared<std::vector<uint8_t>>(values.size() * sizeof(int64_t));
  std::memcpy(bytes->data(), values.data(), bytes->size());
  return HostTensor{DataType::Int(64), std::move(shape), std::move(bytes)};
}

std::vector<Value> convert_constant(NodeContext& ctx) {
  const onnx::NodeProto& node = ctx.node();
  if (node.attribute_size() != 1) {
    ctx.invalid(
        "expects exactly one value attribute (value, value_float, value_floats, "
        "value_int, value_ints, ...), got " +
        std::to_string(node.attribute_size()) + " attributes");
  }
  const std::string& name = node.attribute(0).name();
  if (name == "value_string" || name == "value_strings") {
    ctx.unsupported("attribute '" + name + "': relaxc has no string tensors");
  }
  if (name == "sparse_value") ctx.unsupported("attribute 'sparse_value': sparse tensors");
  if (name == "value") return {ctx.constant_value(ctx.attr_tensor(name))};
  if (name == "value_float") {
    return {ctx.constant_value(
        HostTensor::from_doubles(DataType::Float(32), {}, {ctx.attr_float(name)}))};
  }
  if (name == "value_floats") {
    std::vector<double> values = ctx.attr_floats(name);
    auto n = static_cast<int64_t>(values.size());
    return {ctx.constant_value(HostTensor::from_doubles(DataType::Float(32), {n}, values))};
  }
  if (name == "value_int") return {ctx.constant_value(int64_tensor({}, {ctx.attr_int(name)}))};
  if (name != "value_ints") ctx.invalid("unknown attribute '" + name + "'");
  std::vector<int64_t> values = ctx.attr_ints(name);
  auto n = static_cast<int64_t>(values.size());
  return {ctx.constant_value(int64_tensor({n}, values))};
}

std::vector<Value> convert_identity(NodeContext& ctx) { return {ctx.input(0)}; }

// Dropout at inference: what the model computes when it is not training. Opsets 7 to 9
// give the mask the data's type, later ones bool.
std::vector<Value> convert_dropout(NodeContext& ctx) {
  if (ctx.has_input(2) && ctx.constant_input(2, "training_mode").element_as_int(0) != 0) {
    ctx.unsupported(
        "training_mode = true (dropout at random); relaxc imports models for "
        "inference");
  }
  std::vector<Value> outputs = {ctx.input(0)};
  if (has_output(ctx, 1)) {
    const auto* sinfo = ctx.tensor(0)->struct_info.as<relax::TensorStructInfoNode>();
    DataType mask_dtype = ctx.opset() < 10 ? sinfo->dtype : DataType::Bool();
    Attrs attrs({{"dtype", AttrValue::data_type(mask_dtype)}});
    outputs.push_back(Value{ctx.emit_op("relax.ones_like", {ctx.tensor(0)}, attrs)});
  }
  return outputs;
}

}  // namespace

void register_core_converters(ConverterTable& table) {
  table.add("Constant", 1, convert_constant);
  table.add("Identity", 1, convert_identity);
  table.add("Dropout", 7, convert_dropout);
}

}  // namespace relaxc::onnx_import
