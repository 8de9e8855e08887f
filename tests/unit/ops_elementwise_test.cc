// Tests of the element-wise and creation operators (unary_ops.cc, binary_ops.cc,
// creation_ops.cc): StructInfo inference with static and symbolic shapes, TVM's printed
// forms read and printed back, and the located error of each kind of bad argument.
#include <gtest/gtest.h>

#include "ir/text/parser.h"
#include "ir/text/printer.h"
#include "tests/support/errors.h"

namespace relaxc {
namespace {

// A module whose main(x: (n, 4) f32, y: (4,) f32, i: (n, 4) i32, b: (n, 4) bool,
// s: (2, 3) f32, u: f32 of rank 2, v: f32 of unknown rank) binds `r = <call>` and
// returns it.
std::string module_text(const std::string& call) {
  return "@I.ir_module\nclass Module:\n    @R.function\n"
         "    def main(x: R.Tensor((\"n\", 4), dtype=\"float32\"), y: R.Tensor((4,), "
         "dtype=\"float32\"), i: R.Tensor((\"n\", 4), dtype=\"int32\"), b: R.Tensor((\"n\", 4), "
         "dtype=\"bool\"), s: R.Tensor((2, 3), dtype=\"float32\"), u: R.Tensor(dtype=\"float32\", "
         "ndim=2), v: R.Tensor(dtype=\"float32\")):\n"
         "        n = T.int64()\n"
         "        r = " +
         call + "\n        return r\n";
}

// The binding of r as the module prints it: "R.Tensor((n, 4), dtype=\"bool\") =
// R.less(x, y)".
std::string bound(const std::string& call) {
  std::string text = text::print_module(text::parse_module(module_text(call)));
  size_t start = text.find("        r: ");
  if (start == std::string::npos) return "no binding of r in:\n" + text;
  start += 11;
  return text.substr(start, text.find('\n', start) - start);
}

// The message of the error that parsing the call gives, if it is located at the call
// (line 6, column 13); else the message with its place.
std::string error(const std::string& call) {
  std::string message = located_error_of([&] { text::parse_module(module_text(call)); });
  const std::string place = "6:13: ";
  return message.rfind(place, 0) == 0 ? message.substr(place.size()) : message;
}

TEST(OpsElementwise, BinaryBroadcastsAndComparisonsGiveBool) {
  EXPECT_EQ(bound("R.add(x, y)"), "R.Tensor((n, 4), dtype=\"float32\") = R.add(x, y)");
  EXPECT_EQ(bound("R.power(y, x)"), "R.Tensor((n, 4), dtype=\"float32\") = R.power(y, x)");
  EXPECT_EQ(bound("R.floor_mod(i, R.prim_value(T.int32(3)))"),
            "R.Tensor((n, 4), dtype=\"int32\") = R.floor_mod(i, R.prim_value(T.int32(3)))");
  EXPECT_EQ(bound("R.less(x, y)"), "R.Tensor((n, 4), dtype=\"bool\") = R.less(x, y)");
  EXPECT_EQ(bound("x >= y"), "R.Tensor((n, 4), dtype=\"bool\") = R.greater_equal(x, y)");
  EXPECT_EQ(bound("R.logical_xor(b, b)"), "R.Tensor((n, 4), dtype=\"bool\") = R.logical_xor(b, b)");
  EXPECT_EQ(bound("R.left_shift(i, i)"), "R.Tensor((n, 4), dtype=\"int32\") = R.left_shift(i, i)");
}

TEST(OpsElementwise, UnknownShapesFallBackToRankOrNothing) {
  EXPECT_EQ(bound("R.add(u, y)"), "R.Tensor(dtype=\"float32\", ndim=2) = R.add(u, y)");
  EXPECT_EQ(bound("R.less(v, y)"), "R.Tensor(dtype=\"bool\") = R.less(v, y)");
  EXPECT_EQ(bound("R.where(b, u, y)"), "R.Tensor(dtype=\"float32\", ndim=2) = R.where(b, u, y)");
  EXPECT_EQ(bound("R.astype(v, dtype=\"int32\")"),
            "R.Tensor(dtype=\"int32\") = R.astype(v, dtype=\"int32\")");
  EXPECT_EQ(bound("R.isnan(u)"), "R.Tensor(dtype=\"bool\", ndim=2) = R.isnan(u)");
  EXPECT_EQ(bound("R.tril(v, R.prim_value(0))"),
            "R.Tensor(dtype=\"float32\") = R.tril(v, R.prim_value(T.int64(0)))");
}

TEST(OpsElementwise, BinaryErrors) {
  EXPECT_EQ(error("R.maximum(x, s)"),
            "R.maximum: cannot broadcast dimension 1 of the operands: 4 (x1) vs 3 (x2)");
  EXPECT_EQ(error("R.equal(x, i)"), "R.equal: operand dtypes differ: float32 (x1) vs int32 (x2)");
  EXPECT_EQ(error("R.bitwise_and(x, x)"),
            "R.bitwise_and: arguments 'x1' and 'x2' must have an integer or bool dtype, got "
            "float32");
}

TEST(OpsElementwise, WhereBroadcastsThreeWays) {
  EXPECT_EQ(bound("R.where(b, x, y)"), "R.Tensor((n, 4), dtype=\"float32\") = R.where(b, x, y)");
  EXPECT_EQ(bound("R.where(b, R.prim_value(T.float32(1)), R.prim_value(T.float32(0)))"),
            "R.Tensor((n, 4), dtype=\"float32\") = R.where(b, R.prim_value(T.float32(1)), "
            "R.prim_value(T.float32(0)))");
  EXPECT_EQ(error("R.where(x, x, y)"),
            "R.where: argument 'condition' must have dtype bool, got "
            "float32");
  EXPECT_EQ(error("R.where(b, x, i)"),
            "R.where: operand dtypes differ: float32 (x1) vs int32 (x2)");
  EXPECT_EQ(error("R.where(b, s, s)"),
            "R.where: cannot broadcast dimension 1 of the operands: 4 "
            "(condition) vs 3 (x1 and x2)");
}

TEST(OpsElementwise, Astype) {
  EXPECT_EQ(bound("R.astype(x, dtype=\"int32\")"),
            "R.Tensor((n, 4), dtype=\"int32\") = R.astype(x, dtype=\"int32\")");
  EXPECT_EQ(error("R.astype(x)"), "R.astype: missing attribute 'dtype'");
}

TEST(OpsElementwise, UnaryMathChecksAndClip) {
  EXPECT_EQ(bound("R.asinh(x)"), "R.Tensor((n, 4), dtype=\"float32\") = R.asinh(x)");
  EXPECT_EQ(bound("R.sign(i)"), "R.Tensor((n, 4), dtype=\"int32\") = R.sign(i)");
  EXPECT_EQ(bound("R.isnan(x)"), "R.Tensor((n, 4), dtype=\"bool\") = R.isnan(x)");
  EXPECT_EQ(bound("-x"), "R.Tensor((n, 4), dtype=\"float32\") = R.negative(x)");
  EXPECT_EQ(bound("R.clip(x, R.prim_value(T.float32(0)), R.prim_value(T.float32(6)))"),
            "R.Tensor((n, 4), dtype=\"float32\") = R.clip(x, R.prim_value(T.float32(0)), "
            "R.prim_value(T.float32(6)))");
  EXPECT_EQ(error("R.sqrt(i)"), "R.sqrt: argument 'x' must have a floating-point dtype, got int32");
  EXPECT_EQ(error("R.bitwise_not(x)"),
            "R.bitwise_not: argument 'x' must have an integer or bool dtype, got float32");
  EXPECT_EQ(error("R.clip(x, y, y)"),
            "R.clip: argument 'min' must be a prim value (R.prim_value(...)), got "
            "R.Tensor((4,), dtype=\"float32\")");
}

TEST(OpsElementwise, Activations) {
  EXPECT_EQ(bound("R.nn.leakyrelu(x, alpha=0.2)"),
            "R.Tensor((n, 4), dtype=\"float32\") = R.nn.leakyrelu(x, alpha=0.2)");
  EXPECT_EQ(bound("R.nn.softplus(x)"),
            "R.Tensor((n, 4), dtype=\"float32\") = R.nn.softplus(x, beta=1.0, threshold=20.0)");
  EXPECT_EQ(bound("R.nn.gelu_tanh(x)"), "R.Tensor((n, 4), dtype=\"float32\") = R.nn.gelu_tanh(x)");
  EXPECT_EQ(bound("R.nn.prelu(x, y, axis=-1)"),
            "R.Tensor((n, 4), dtype=\"float32\") = R.nn.prelu(x, y, axis=-1)");
  EXPECT_EQ(bound("R.nn.dropout(x, rate=0.1)"),
            "R.Tuple(R.Tensor((n, 4), dtype=\"float32\"), R.Tensor((n, 4), dtype=\"float32\")) = "
            "R.nn.dropout(x, rate=0.1)");
  EXPECT_EQ(error("R.nn.silu(i)"),
            "R.nn.silu: argument 'data' must have a floating-point dtype, got int32");
  EXPECT_EQ(error("R.nn.leakyrelu(x, alpha=\"a\")"),
            "R.nn.leakyrelu: attribute 'alpha' must be a number");
  EXPECT_EQ(error("R.nn.prelu(x, y, axis=2)"),
            "R.nn.prelu: attribute 'axis': axis 2 is out of range for a tensor of 2 dimension(s)");
  EXPECT_EQ(error("R.nn.prelu(s, y, axis=1)"),
            "R.nn.prelu: argument 'alpha' has 4 slopes but dimension 1 (attribute 'axis') of "
            "argument 'data' has 3 channels");
  EXPECT_EQ(error("R.nn.dropout(x, rate=1.5)"),
            "R.nn.dropout: attribute 'rate' (1.5) must be in [0, 1)");
}

TEST(OpsElementwise, FullZerosOnes) {
  EXPECT_EQ(bound("R.full(R.shape([n, 2]), R.const(1.5, \"float32\"), dtype=\"void\")"),
            "R.Tensor((n, 2), dtype=\"float32\") = R.full(R.shape([n, 2]), R.const(1.5, "
            "\"float32\"), dtype=\"void\")");
  EXPECT_EQ(bound("R.full((n, 2), R.const(1, \"int32\"), dtype=\"float32\")"),
            "R.Tensor((n, 2), dtype=\"float32\") = R.full(R.shape([n, 2]), R.const(1, "
            "\"int32\"), dtype=\"float32\")");
  EXPECT_EQ(bound("R.zeros(R.shape([3, n]), dtype=\"int64\")"),
            "R.Tensor((3, n), dtype=\"int64\") = R.zeros(R.shape([3, n]), dtype=\"int64\")");
  EXPECT_EQ(bound("R.ones_like(x, dtype=\"bool\")"),
            "R.Tensor((n, 4), dtype=\"bool\") = R.ones_like(x, dtype=\"bool\")");
  EXPECT_EQ(bound("R.full_like(x, R.const(2, \"float32\"))"),
            "R.Tensor((n, 4), dtype=\"float32\") = R.full_like(x, R.const(2.0, \"float32\"), "
            "dtype=\"void\")");
  EXPECT_EQ(error("R.full(R.shape([2]), y)"),
            "R.full: argument 'fill_value' must be a 0-d tensor (a scalar), got 1 dimension(s)");
  EXPECT_EQ(error("R.zeros(x, dtype=\"float32\")"),
            "R.zeros: argument 'shape' must be a shape (R.shape([...]) or a shape variable), got "
            "R.Tensor((n, 4), dtype=\"float32\")");
  EXPECT_EQ(error("R.ones(R.shape([2]))"), "R.ones: missing attribute 'dtype'");
}

TEST(OpsElementwise, ArangeEyeTrilOneHot) {
  EXPECT_EQ(bound("R.arange(R.prim_value(2), R.prim_value(11), R.prim_value(3), "
                  "dtype=\"int64\")"),
            "R.Tensor((3,), dtype=\"int64\") = R.arange(R.prim_value(T.int64(2)), "
            "R.prim_value(T.int64(11)), R.prim_value(T.int64(3)), dtype=\"int64\")");
  EXPECT_EQ(bound("R.arange(R.prim_value(10), R.prim_value(0), R.prim_value(-3), "
                  "dtype=\"int64\")")
                .substr(0, 34),
            "R.Tensor((4,), dtype=\"int64\") = R.");
  EXPECT_EQ(bound("R.arange(R.prim_value(0), R.prim_value(n), R.prim_value(1), "
                  "dtype=\"int64\")")
                .substr(0, 34),
            "R.Tensor((n,), dtype=\"int64\") = R.");
  EXPECT_EQ(bound("R.arange(R.prim_value(T.float32(0)), R.prim_value(T.float32(1)), "
                  "R.prim_value(T.float32(0.25)), dtype=\"float32\")")
                .substr(0, 36),
            "R.Tensor((4,), dtype=\"float32\") = R.");
  EXPECT_EQ(error("R.arange(R.prim_value(0), R.prim_value(4), R.prim_value(0), "
                  "dtype=\"int64\")"),
            "R.arange: argument 'step' must not be 0");
  // A float range too long for any tensor is refused, not wrapped around to empty.
  EXPECT_EQ(error("R.arange(R.prim_value(T.float32(0)), R.prim_value(T.float32(1e30)), "
                  "R.prim_value(T.float32(1e-30)), dtype=\"float32\")"),
            "R.arange: the range from 0 to 1e+30 by 1e-30 has 1e+60 elements, more than a "
            "tensor can hold");
  EXPECT_EQ(
      bound("R.eye(R.prim_value(n), R.prim_value(3), R.prim_value(1), dtype=\"float32\")"),
      "R.Tensor((n, 3), dtype=\"float32\") = R.eye(R.prim_value(n), R.prim_value(T.int64(3)), "
      "R.prim_value(T.int64(1)), dtype=\"float32\")");
  EXPECT_EQ(bound("R.tril(x, R.prim_value(T.int64(-1)))"),
            "R.Tensor((n, 4), dtype=\"float32\") = R.tril(x, R.prim_value(T.int64(-1)))");
  EXPECT_EQ(error("R.triu(y, R.prim_value(0))"),
            "R.triu: argument 'x' must have at least 2 dimensions, got 1");
  EXPECT_EQ(bound("R.one_hot(i, R.prim_value(T.float32(1)), R.prim_value(T.float32(0)), "
                  "depth=5, axis=1)")
                .substr(0, 39),
            "R.Tensor((n, 5, 4), dtype=\"float32\") = ");
  EXPECT_EQ(error("R.one_hot(x, R.prim_value(1), R.prim_value(0), depth=5)"),
            "R.one_hot: argument 'indices' must have an integer dtype, got float32");
  EXPECT_EQ(error("R.one_hot(i, R.prim_value(1), R.prim_value(0), depth=5, axis=3)"),
            "R.one_hot: attribute 'axis': axis 3 is out of range for a tensor of 3 dimension(s)");
  EXPECT_EQ(error("R.one_hot(i, R.prim_value(1), R.prim_value(0), depth=0)"),
            "R.one_hot: attribute 'depth' (0) must be positive");
}

}  // namespace
}  // namespace relaxc
