// The ONNX importer's pieces that the lit tests (tests/lit/onnx) do not reach through
// relaxc: the converter table's opset lookup, shape variables shared by dim_param, and
// the errors of models that the ONNX checker lets through.
#include <gtest/gtest.h>

#include <cctype>
#include <span>
#include <string>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/importer.h"
#include "onnx/onnx_pb.h"
#include "tests/support/errors.h"

namespace relaxc::onnx_import {
namespace {

std::vector<Value> no_outputs(NodeContext&) { return {}; }

TEST(OnnxConverterTable, PicksTheNewestConverterNotAboveTheOpset) {
  ConverterTable table;
  table.add("Foo", 7, no_outputs);
  table.add("Foo", 13, no_outputs);
  table.add("Bar", 11, no_outputs);
  EXPECT_NE(table.find("Foo", 7), nullptr);
  EXPECT_EQ(table.find("Foo", 7), table.find("Foo", 12));
  EXPECT_NE(table.find("Foo", 12), table.find("Foo", 13));
  EXPECT_EQ(table.find("Foo", 13), table.find("Foo", 17));
  EXPECT_EQ(table.find("Bar", 10), nullptr);
  EXPECT_EQ(table.find("Baz", 13), nullptr);
  EXPECT_EQ(table.op_types(), (std::vector<std::string>{"Bar", "Foo"}));
  EXPECT_THROW(table.add("Foo", 13, no_outputs), InternalError);
}

TEST(OnnxConverterTable, HasTheCoreConverters) {
  for (const char* op : {"Constant", "Identity", "Dropout"}) {
    EXPECT_NE(converter_table().find(op, 13), nullptr) << op;
  }
  EXPECT_EQ(converter_table().find("Dropout", 6), nullptr);
}

onnx::ValueInfoProto tensor_info(const std::string& name, std::vector<std::string> dims) {
  onnx::ValueInfoProto info;
  info.set_name(name);
  auto* type = info.mutable_type()->mutable_tensor_type();
  type->set_elem_type(onnx::TensorProto::FLOAT);
  auto* shape = type->mutable_shape();
  for (const std::string& dim : dims) {
    auto* d = shape->add_dim();
    if (dim == "?") continue;
    if (std::isdigit(static_cast<unsigned char>(dim[0])) != 0) {
      d->set_dim_value(std::stoll(dim));
    } else {
      d->set_dim_param(dim);
    }
  }
  return info;
}

// A model whose nodes are Identity from each input to an output named after it + "_out".
onnx::ModelProto identity_model(const std::vector<onnx::ValueInfoProto>& inputs) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(13);
  auto* graph = model.mutable_graph();
  graph->set_name("g");
  for (const onnx::ValueInfoProto& input : inputs) {
    *graph->add_input() = input;
    auto* node = graph->add_node();
    node->set_op_type("Identity");
    node->add_input(input.name());
    node->add_output(input.name() + "_out");
    onnx::ValueInfoProto output = input;
    output.set_name(input.name() + "_out");
    *graph->add_output() = output;
  }
  return model;
}

IRModule import(const onnx::ModelProto& model) {
  std::string bytes = model.SerializeAsString();
  return import_model(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()),
                      "m.onnx");
}

const std::vector<relax::PrimExpr>& dims_of(const relax::Var& param) {
  return *param->struct_info.as<relax::TensorStructInfoNode>()->shape_values();
}

TEST(OnnxImporter, SharesShapeVariablesByDimParam) {
  IRModule module = import(identity_model({tensor_info("input.1", {"batch size", "3"}),
                                           tensor_info("mask", {"batch size", "?", "?"})}));
  relax::Function main = module->relax_function("main");
  ASSERT_TRUE(main.defined());
  ASSERT_EQ(main->params.size(), 2u);
  EXPECT_EQ(main->params[0]->name, "input_1");
  const auto& x = dims_of(main->params[0]);
  const auto& mask = dims_of(main->params[1]);
  EXPECT_TRUE(x[0].same_as(mask[0]));
  EXPECT_EQ(x[0].as<tir::VarNode>()->name, "batch_size");
  // Unnamed dims: a variable each, named after the input and the axis.
  EXPECT_FALSE(mask[1].same_as(mask[2]));
  EXPECT_EQ(mask[1].as<tir::VarNode>()->name, "mask_dim1");
  EXPECT_EQ(output_names(module), (std::vector<std::string>{"input.1_out", "mask_out"}));
}

TEST(OnnxImporter, NamesTheNodeInItsErrors) {
  onnx::ModelProto model = identity_model({tensor_info("x", {"2"})});
  auto* constant = model.mutable_graph()->add_node();
  constant->set_op_type("Constant");
  constant->add_output("c");
  EXPECT_EQ(error_of([&] { import(model); }),
            "m.onnx: node #1 (Constant, opset 13): invalid: expects exactly one value attribute "
            "(value, value_float, value_floats, value_int, value_ints, ...), got 0 attributes");
  constant->set_name("k");
  auto* value = constant->add_attribute();
  value->set_name("value");
  value->set_type(onnx::AttributeProto::TENSOR);
  value->mutable_t()->set_data_type(onnx::TensorProto::FLOAT);
  value->mutable_t()->add_dims(3);
  value->mutable_t()->add_float_data(1.0F);
  EXPECT_EQ(error_of([&] { import(model); }),
            "m.onnx: node 'k' (Constant, opset 13): invalid: attribute 'value': the tensor has 3 "
            "elements but its data field holds 1");
}

TEST(OnnxImporter, RecognizesModelsByExtension) {
  EXPECT_TRUE(is_onnx_path("dir/resnet18.onnx"));
  EXPECT_FALSE(is_onnx_path(".onnx"));
  EXPECT_FALSE(is_onnx_path("model.py"));
  EXPECT_FALSE(is_onnx_path("model.onnx.py"));
}

}  // namespace
}  // namespace relaxc::onnx_import
