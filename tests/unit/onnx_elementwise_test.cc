// The elementwise converters' shape arithmetic (Value::shape_elements through Add, Sub,
// Mul, Div, Mod, Sum, Max, Min, Cast), which no lit test sees: only the shape-taking
// converters (Reshape, Expand, ...) read it. The converters run on a NodeContext of
// their own here, with inputs whose elements are symbolic.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

#include "frontend/onnx/converter.h"
#include "ir/relax/block_builder.h"
#include "ir/text/printer.h"
#include "onnx/onnx_pb.h"

namespace relaxc::onnx_import {
namespace {

using relax::PrimExpr;

// A node's context with given input Values and integer attributes; what the shape
// arithmetic does not use throws.
class TestContext final : public NodeContext {
 public:
  TestContext(const onnx::NodeProto& node, std::vector<Value> inputs,
              std::map<std::string, int64_t> attrs)
      : NodeContext(node, 13), inputs_(std::move(inputs)), attrs_(std::move(attrs)) {
    std::vector<relax::Var> params;
    for (const Value& v : inputs_) {
      if (const auto* var = v.expr.as<relax::VarNode>()) params.push_back(relax::Var(var));
    }
    bb_.begin_scope(params);
    bb_.begin_block(true);
  }

  size_t num_inputs() const override { return inputs_.size(); }
  bool has_input(size_t i) const override { return i < inputs_.size(); }
  const Value& input(size_t i) const override { return inputs_.at(i); }
  const HostTensor& constant_input(size_t, const std::string&) const override { unused(); }
  std::vector<PrimExpr> shape_input(size_t, const std::string&) const override { unused(); }
  bool has_attr(const std::string& name) const override { return attrs_.contains(name); }
  int64_t attr_int(const std::string& name, std::optional<int64_t> def) const override {
    return has_attr(name) ? attrs_.at(name) : def.value();
  }
  double attr_float(const std::string&, std::optional<double>) const override { unused(); }
  std::string attr_string(const std::string&, std::optional<std::string>) const override {
    unused();
  }
  std::vector<int64_t> attr_ints(const std::string&,
                                 std::optional<std::vector<int64_t>>) const override {
    unused();
  }
  std::vector<double> attr_floats(const std::string&,
                                  std::optional<std::vector<double>>) const override {
    unused();
  }
  HostTensor attr_tensor(const std::string&) const override { unused(); }
  relax::BlockBuilder& builder() override { return bb_; }
  relax::Expr emit_op(const std::string& op_name, std::vector<relax::Expr> args, relax::Attrs attrs,
                      std::vector<relax::StructInfo> sinfo_args) override {
    return bb_.emit(bb_.call_op(op_name, std::move(args), std::move(sinfo_args), std::move(attrs)),
                    "v", relax::VarKind::DataflowVar);
  }
  Value constant_value(HostTensor tensor) override {
    return Value{relax::make_constant(tensor), tensor, std::nullopt};
  }
  [[noreturn]] void unsupported(const std::string& message) const override {
    throw std::runtime_error("unsupported: " + message);
  }
  [[noreturn]] void invalid(const std::string& message) const override {
    throw std::runtime_error("invalid: " + message);
  }

 private:
  [[noreturn]] static void unused() { throw std::logic_error("not used by these converters"); }

  std::vector<Value> inputs_;
  std::map<std::string, int64_t> attrs_;
  relax::BlockBuilder bb_;
};

const tir::Var kBatch = tir::size_var("batch");

// A 1-d int64 tensor parameter whose elements are known (the result of a Shape).
Value shape_of(std::vector<PrimExpr> elements) {
  auto count = static_cast<int64_t>(elements.size());
  relax::Var var = relax::make_var(
      "s", relax::tensor_sinfo({tir::int_imm(DataType::Int(64), count)}, DataType::Int(64)));
  return Value{var, std::nullopt, std::move(elements)};
}

Value int64_constant(std::vector<int64_t> shape, const std::vector<double>& values) {
  HostTensor t = HostTensor::from_doubles(DataType::Int(64), std::move(shape), values);
  return Value{relax::make_constant(t), t, std::nullopt};
}

// The shape elements of `op`'s result on `inputs`, as text (empty: none).
std::vector<std::string> elements_of(const std::string& op, std::vector<Value> inputs,
                                     std::map<std::string, int64_t> attrs = {}) {
  onnx::NodeProto node;
  node.set_op_type(op);
  node.add_output("y");
  TestContext ctx(node, std::move(inputs), std::move(attrs));
  std::vector<Value> out = (*converter_table().find(op, 13))(ctx);
  std::vector<std::string> text;
  if (!out.at(0).shape_elements) return text;
  for (const PrimExpr& e : *out[0].shape_elements) text.push_back(text::print_node(e));
  return text;
}

using Texts = std::vector<std::string>;

TEST(OnnxElementwiseShapes, ArithmeticOnShapeElementsAndConstants) {
  PrimExpr n = kBatch;
  PrimExpr four = tir::int_imm(DataType::Int(64), 4);
  EXPECT_EQ(elements_of("Add", {shape_of({n, four}), int64_constant({1}, {1})}),
            (Texts{"batch + T.int64(1)", "T.int64(5)"}));
  EXPECT_EQ(elements_of("Mul", {int64_constant({}, {3}), shape_of({n, four})}),
            (Texts{"batch * T.int64(3)", "T.int64(12)"}));
  EXPECT_EQ(elements_of("Sub", {shape_of({n, four}), int64_constant({2}, {1, 4})}),
            (Texts{"batch - T.int64(1)", "T.int64(0)"}));
  EXPECT_EQ(elements_of("Sum", {shape_of({n}), shape_of({n}), int64_constant({1}, {2})}),
            (Texts{"batch * T.int64(2) + T.int64(2)"}));
  EXPECT_EQ(elements_of("Max", {shape_of({n, four}), int64_constant({2}, {1, 7})}),
            (Texts{"T.max(batch, T.int64(1))", "T.int64(7)"}));
}

TEST(OnnxElementwiseShapes, DivisionAndModuloFollowOnnx) {
  PrimExpr n = kBatch * int64_t{4};
  EXPECT_EQ(elements_of("Div", {shape_of({n}), int64_constant({}, {2})}),
            (Texts{"batch * T.int64(2)"}));
  EXPECT_EQ(elements_of("Mod", {shape_of({n}), int64_constant({}, {4})}), (Texts{"T.int64(0)"}));
}

TEST(OnnxElementwiseShapes, CastKeepsIntegerElements) {
  EXPECT_EQ(elements_of("Cast", {shape_of({kBatch})}, {{"to", onnx::TensorProto::INT64}}),
            (Texts{"batch"}));
  EXPECT_EQ(elements_of("Cast", {shape_of({kBatch})}, {{"to", onnx::TensorProto::FLOAT}}), Texts{});
}

TEST(OnnxElementwiseShapes, NoElementsWhereAnInputIsUnknown) {
  relax::Var plain = relax::make_var(
      "t", relax::tensor_sinfo({tir::int_imm(DataType::Int(64), 2)}, DataType::Int(64)));
  EXPECT_EQ(elements_of("Add", {shape_of({kBatch, kBatch}), Value{plain, {}, {}}}), Texts{});
  // Operands of 2 and 3 elements do not broadcast: the Relax operator refuses them, and
  // the shape arithmetic is not reached.
  EXPECT_THROW(elements_of("Add", {shape_of({kBatch, kBatch}), int64_constant({3}, {1, 2, 3})}),
               UserError);
}

}  // namespace
}  // namespace relaxc::onnx_import
