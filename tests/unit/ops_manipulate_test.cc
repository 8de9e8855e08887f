// Tests of the manipulation and indexing operators' StructInfo inference, written as
// TVM prints them: each case is one call in a function of the given parameters; the
// result is the printed StructInfo of the call, or its error.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/op_calls.h"

namespace relaxc {
namespace {

std::string infer(const std::string& params, const std::string& call) {
  return testing::inferred_struct_info(params, call);
}

std::string error(const std::string& params, const std::string& call) {
  return testing::op_call_error(params, call);
}

const char* kX = "x: R.Tensor((\"n\", 4, 6), \"float32\"), i: R.Tensor((\"m\",), \"int64\")";

std::string f32(const std::string& shape) { return "R.Tensor(" + shape + ", dtype=\"float32\")"; }

TEST(OpsManipulate, ExpandDimsAndSqueeze) {
  EXPECT_EQ(infer(kX, "R.expand_dims(x, axis=[-1, 1])"), f32("(n, 1, 4, 6, 1)"));
  EXPECT_EQ(infer(kX, "R.expand_dims(x, 0)"), f32("(1, n, 4, 6)"));
  EXPECT_EQ(error(kX, "R.expand_dims(x, axis=[5])"),
            "R.expand_dims: attribute 'axis': axis 5 is out of range for a tensor of 4 "
            "dimension(s)");
  const char* y = "y: R.Tensor((1, \"n\", 1, 3), \"float32\")";
  EXPECT_EQ(infer(y, "R.squeeze(y)"), f32("(n, 3)"));
  EXPECT_EQ(infer(y, "R.squeeze(y, axis=[-2])"), f32("(1, n, 3)"));
  EXPECT_EQ(infer(y, "R.squeeze(y, axis=[1])"), f32("(1, 1, 3)"));
  EXPECT_EQ(error(y, "R.squeeze(y, axis=[3])"),
            "R.squeeze: attribute 'axis': dimension 3 of argument 'x' is 3, not 1");
}

TEST(OpsManipulate, AttributesMayFollowTheArgumentsPositionally) {
  EXPECT_EQ(infer(kX, "R.repeat(x, 2, 1)"), f32("(n, 8, 6)"));
  EXPECT_EQ(infer(kX, "R.take(x, i, 2, \"clip\")"), f32("(n, 4, m)"));
  EXPECT_EQ(error(kX, "R.flip(x, 1, 2)"), "R.flip takes at most 2 arguments (data, axis), got 3");
  EXPECT_EQ(error(kX, "R.repeat(x, 2, 1, axis=0)"), "R.repeat: attribute 'axis' is given twice");
}

TEST(OpsManipulate, Concat) {
  const char* p = "a: R.Tensor((\"n\", 4), \"float32\"), b: R.Tensor((\"n\", 2), \"float32\")";
  EXPECT_EQ(infer(p, "R.concat((a, b), axis=-1)"), f32("(n, 6)"));
  EXPECT_EQ(infer(p, "R.concat((a, a), axis=0)"), f32("(n * 2, 4)"));
  EXPECT_EQ(infer(p, "R.concat((a, b), axis=None)"), f32("(n * 6,)"));
  EXPECT_EQ(error(p, "R.concat((a, b), axis=0)"),
            "R.concat: dimension 1 differs between the tensors: 4 (tensors[0]) vs 2 (tensors[1])");
  EXPECT_EQ(error("a: R.Tensor((2, 4), \"float32\"), b: R.Tensor((4,), \"float32\")",
                  "R.concat((a, b), axis=0)"),
            "R.concat: tensors have different ranks: 2 (tensors[0]) vs 1 (tensors[1])");
  EXPECT_EQ(
      error("a: R.Tensor((2, 4), \"float32\"), b: R.Tensor((2, 4), \"int32\")", "R.concat((a, b))"),
      "R.concat: tensor dtypes differ: float32 (tensors[0]) vs int32 (tensors[1])");
}

TEST(OpsManipulate, Split) {
  EXPECT_EQ(
      infer(kX, "R.split(x, indices_or_sections=3, axis=-1)"),
      "R.Tuple(" + f32("(n, 4, 2)") + ", " + f32("(n, 4, 2)") + ", " + f32("(n, 4, 2)") + ")");
  EXPECT_EQ(infer(kX, "R.split(x, indices_or_sections=[1, 5, 9], axis=2)"),
            "R.Tuple(" + f32("(n, 4, 1)") + ", " + f32("(n, 4, 4)") + ", " + f32("(n, 4, 1)") +
                ", " + f32("(n, 4, 0)") + ")");
  // Sections of a symbolic dimension: ceil(n / 2), and the rest.
  EXPECT_EQ(
      infer(kX, "R.split(x, indices_or_sections=2)"),
      "R.Tuple(" + f32("((n + 1) // 2, 4, 6)") + ", " + f32("(n - (n + 1) // 2, 4, 6)") + ")");
  EXPECT_EQ(error(kX, "R.split(x, indices_or_sections=0)"),
            "R.split: attribute 'indices_or_sections': the number of sections must be positive, "
            "got 0");
  EXPECT_EQ(error(kX, "R.split(x, indices_or_sections=5, axis=2)"),
            "R.split: attribute 'indices_or_sections': 6 (dimension 2 of argument 'x') cannot be "
            "split into 5 sections of 2");
}

TEST(OpsManipulate, BroadcastTileRepeatFlip) {
  const char* p = "a: R.Tensor((\"n\", 1), \"float32\")";
  EXPECT_EQ(infer(p, "R.broadcast_to(a, R.shape([2, n, 5]))"), f32("(2, n, 5)"));
  EXPECT_EQ(error("b: R.Tensor((2, 1), \"float32\")", "R.broadcast_to(b, R.shape([4, 3, 5]))"),
            "R.broadcast_to: dimension 0 of argument 'x' is 2, neither 1 nor dimension 1 (3) of "
            "argument 'shape'");
  // A negative dimension is refused at the call by the normalizer, for every operator.
  EXPECT_EQ(error(p, "R.broadcast_to(a, R.shape([n, -1]))"),
            "R.broadcast_to: dimension 1 of the result would be -1; a dimension is at least 0");
  EXPECT_EQ(infer(p, "R.tile(a, repeats=[2, 1, 3])"), f32("(2, n, 3)"));
  EXPECT_EQ(infer(p, "R.tile(a, 2)"), f32("(n, 2)"));
  EXPECT_EQ(infer(p, "R.repeat(a, repeats=3, axis=0)"), f32("(n * 3, 1)"));
  EXPECT_EQ(infer(p, "R.repeat(a, repeats=3)"), f32("(n * 3,)"));
  EXPECT_EQ(infer(p, "R.flip(a, axis=-1)"), f32("(n, 1)"));
  EXPECT_EQ(error(p, "R.flip(a, axis=2)"),
            "R.flip: attribute 'axis': axis 2 is out of range for a tensor of 2 dimension(s)");
}

TEST(OpsManipulate, Scans) {
  EXPECT_EQ(infer(kX, "R.cumsum(x, axis=-1)"), f32("(n, 4, 6)"));
  EXPECT_EQ(infer(kX, "R.cumprod(x)"), f32("(n * 24,)"));
  EXPECT_EQ(infer(kX, "R.cumsum(x, axis=0, dtype=\"float16\", exclusive=True)"),
            "R.Tensor((n, 4, 6), dtype=\"float16\")");
}

TEST(OpsIndex, StridedSlice) {
  // As TVM prints it: axes, begin, end, strides as tuples of prim values.
  EXPECT_EQ(infer(kX,
                  "R.strided_slice(x, (R.prim_value(2),), (R.prim_value(1),), "
                  "(R.prim_value(5),), (R.prim_value(2),), assume_inbound=False)"),
            f32("(n, 4, 2)"));
  // Negative and reverse strides, ends past the dimension, negative axes.
  EXPECT_EQ(infer(kX,
                  "R.strided_slice(x, axes=[-1, 1], begin=[-1, 0], end=[-100, 99], "
                  "strides=[-2, 3])"),
            f32("(n, 2, 3)"));
  EXPECT_EQ(infer(kX, "R.strided_slice(x, [0], [1], [n])"),
            f32("(T.max(0, n - T.min(n, 1)), 4, 6)"));
  // ONNX's "to the end": INT64_MAX forward, INT64_MIN backward.
  EXPECT_EQ(infer(kX,
                  "R.strided_slice(x, [0, 1], [0, -1], [9223372036854775807, "
                  "-9223372036854775807], [1, -1])"),
            f32("(n, 4, 6)"));
  EXPECT_EQ(error(kX, "R.strided_slice(x, [0], [1, 2], [3])"),
            "R.strided_slice: argument 'begin' has 2 entries but argument 'axes' has 1");
  EXPECT_EQ(error(kX, "R.strided_slice(x, [3], [1], [3])"),
            "R.strided_slice: attribute 'axes': axis 3 is out of range for a tensor of 3 "
            "dimension(s)");
  EXPECT_EQ(error(kX, "R.strided_slice(x, [1], [1], [3], [0])"),
            "R.strided_slice: entry 0 of argument 'strides' is 0");
}

TEST(OpsIndex, DynamicStridedSlice) {
  const char* p =
      "x: R.Tensor((\"n\", 4), \"float32\"), b: R.Tensor((2,), \"int64\"), "
      "c: R.Tensor((3,), \"int64\")";
  EXPECT_EQ(infer(p, "R.dynamic_strided_slice(x, b, b, b)"), "R.Tensor(dtype=\"float32\", ndim=2)");
  EXPECT_EQ(error(p, "R.dynamic_strided_slice(x, b, c, b)"),
            "R.dynamic_strided_slice: argument 'end' has 3 entries but argument 'x' has 2 "
            "dimension(s)");
}

TEST(OpsIndex, Take) {
  EXPECT_EQ(infer(kX, "R.take(x, i, axis=1)"), f32("(n, m, 6)"));
  EXPECT_EQ(infer(kX, "R.take(x, i, axis=-1, mode=\"wrap\")"), f32("(n, 4, m)"));
  EXPECT_EQ(
      infer("v: R.Tensor((\"n\",), \"float32\"), j: R.Tensor((2, 3), \"int32\")", "R.take(v, j)"),
      f32("(2, 3)"));
  EXPECT_EQ(error(kX, "R.take(x, i)"),
            "R.take: without attribute 'axis', argument 'x' must be 1-D, got 3 dimension(s)");
  EXPECT_EQ(error(kX, "R.take(x, x, axis=0)"),
            "R.take: argument 'indices' must have an integer dtype, got float32");
  EXPECT_EQ(error(kX, "R.take(x, i, axis=0, mode=\"raise\")"),
            "R.take: attribute 'mode' must be one of \"fast\", \"clip\", \"wrap\", \"nan\"");
}

TEST(OpsIndex, Gathers) {
  const char* p =
      "d: R.Tensor((\"n\", 4, 5), \"float32\"), j: R.Tensor((\"n\", 2, 5), \"int64\"), "
      "k: R.Tensor((\"m\", 2), \"int64\"), b: R.Tensor((\"n\", 3, 1), \"int64\")";
  EXPECT_EQ(infer(p, "R.gather_elements(d, j, axis=1)"), f32("(n, 2, 5)"));
  EXPECT_EQ(error(p, "R.gather_elements(d, k)"),
            "R.gather_elements: argument 'indices' has 2 dimension(s) but argument 'data' has 3");
  EXPECT_EQ(infer(p, "R.gather_nd(d, k)"), f32("(m, 5)"));
  EXPECT_EQ(infer(p, "R.gather_nd(d, b, batch_dims=1)"), f32("(n, 3, 5)"));
  EXPECT_EQ(error(p, "R.gather_nd(d, j)"),
            "R.gather_nd: the last dimension of argument 'indices' (5) must be between 1 and 3 "
            "(the rank of argument 'data' less attribute 'batch_dims')");
  EXPECT_EQ(error(p, "R.gather_nd(d, k, batch_dims=2)"),
            "R.gather_nd: attribute 'batch_dims' (2) must be at least 0 and less than the rank of "
            "argument 'indices'");
}

TEST(OpsIndex, Scatters) {
  const char* p =
      "d: R.Tensor((\"n\", 4), \"float32\"), j: R.Tensor((\"n\", 2), \"int64\"), "
      "u: R.Tensor((\"n\", 2), \"float32\"), k: R.Tensor((3, 1), \"int64\"), "
      "v: R.Tensor((3, 4), \"float32\")";
  EXPECT_EQ(infer(p, "R.scatter_elements(d, j, u, axis=1, reduction=\"add\")"), f32("(n, 4)"));
  EXPECT_EQ(error(p, "R.scatter_elements(d, j, v)"),
            "R.scatter_elements: dimension 1 differs: 2 (indices) vs 4 (updates)");
  EXPECT_EQ(error(p, "R.scatter_elements(d, j, u, reduction=\"sum\")"),
            "R.scatter_elements: attribute 'reduction' must be one of \"update\", \"add\", "
            "\"mul\", \"mean\", \"max\", \"min\"");
  EXPECT_EQ(infer(p, "R.scatter_nd(d, k, v)"), f32("(n, 4)"));
  EXPECT_EQ(error(p, "R.scatter_nd(d, k, u)"),
            "R.scatter_nd: dimension 1 of argument 'updates' is 2; expected 4");
}

}  // namespace
}  // namespace relaxc
