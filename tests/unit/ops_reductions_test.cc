// Tests of the reduction, linear algebra, normalization and sorting operators
// (statistical_ops.cc, linear_algebra_ops.cc, nn_norm_ops.cc, sort_ops.cc): each call
// is parsed as TVM prints it, its StructInfo inferred (static and symbolic shapes,
// negative axes), printed back the same, and every kind of bad attribute or shape
// gives a message naming the operator, the argument and the dimension.
#include <gtest/gtest.h>

#include <string>

#include "tests/support/op_calls.h"

namespace relaxc {
namespace {

// The StructInfo `call` infers; the call must print back as written.
std::string infer(const std::string& params, const std::string& call) {
  EXPECT_EQ(testing::printed_op_call(params, call), call);
  return testing::inferred_struct_info(params, call);
}

std::string error(const std::string& params, const std::string& call) {
  return testing::op_call_error(params, call);
}

const char* kX = R"(x: R.Tensor(("n", 3, "m"), dtype="float32"))";

TEST(OpsReductions, StatisticalAxesAndKeepdims) {
  for (const char* op : {"sum", "mean", "max", "min", "prod", "variance", "std"}) {
    std::string r = std::string("R.") + op;
    EXPECT_EQ(infer(kX, r + "(x, axis=[1], keepdims=False)"),
              R"(R.Tensor((n, m), dtype="float32"))")
        << op;
    EXPECT_EQ(infer(kX, r + "(x, axis=[-1, 0], keepdims=True)"),
              R"(R.Tensor((1, 3, 1), dtype="float32"))")
        << op;
    EXPECT_EQ(infer(kX, r + "(x, axis=None, keepdims=False)"), R"(R.Tensor((), dtype="float32"))")
        << op;
  }
  // An integer axis is the list TVM makes of it.
  EXPECT_EQ(testing::printed_op_call(kX, "R.mean(x, axis=-2)"),
            "R.mean(x, axis=[-2], keepdims=False)");
  EXPECT_EQ(infer("x: R.Tensor(dtype=\"float32\", ndim=3)", "R.sum(x, axis=[1], keepdims=False)"),
            R"(R.Tensor(dtype="float32", ndim=2))");
  EXPECT_EQ(infer("x: R.Tensor(dtype=\"float32\")", "R.prod(x, axis=None, keepdims=False)"),
            R"(R.Tensor((), dtype="float32"))");
}

TEST(OpsReductions, StatisticalErrors) {
  EXPECT_EQ(error(kX, "R.max(x, axis=[3])"),
            "R.max: attribute 'axis': axis 3 is out of range for a tensor of 3 dimension(s)");
  EXPECT_EQ(error(kX, "R.variance(x, axis=[1, -2])"),
            "R.variance: attribute 'axis': axis 1 appears more than once");
  EXPECT_EQ(error(kX, "R.std(x, keepdims=1)"), "R.std: attribute 'keepdims' must be True or False");
  EXPECT_EQ(error("x: R.Shape([2])", "R.mean(x)"),
            "R.mean: argument 'x' must be a tensor, got R.Shape([2])");
}

TEST(OpsReductions, ArgmaxArgmin) {
  EXPECT_EQ(infer(kX, "R.argmax(x, axis=-1, keepdims=False)"),
            R"(R.Tensor((n, 3), dtype="int64"))");
  EXPECT_EQ(infer(kX, "R.argmin(x, axis=0, keepdims=True)"),
            R"(R.Tensor((1, 3, m), dtype="int64"))");
  EXPECT_EQ(infer(kX, "R.argmax(x, axis=None, keepdims=False)"), R"(R.Tensor((), dtype="int64"))");
  EXPECT_EQ(infer(kX, "R.argmin(x, axis=None, keepdims=True)"),
            R"(R.Tensor((1, 1, 1), dtype="int64"))");
  EXPECT_EQ(error(kX, "R.argmax(x, axis=-4)"),
            "R.argmax: attribute 'axis': axis -4 is out of range for a tensor of 3 dimension(s)");
  EXPECT_EQ(error(kX, "R.argmin(x, axis=[0])"), "R.argmin: attribute 'axis' must be an integer");
}

// out_dtype=None, as TVM's frontends write it, is the unknown dtype: printed "void".
TEST(OpsReductions, DataTypeAttributeNoneIsVoid) {
  const char* params =
      R"(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3, 4), dtype="float32"))";
  EXPECT_EQ(testing::printed_op_call(params, "R.matmul(a, b, out_dtype=None)"),
            "R.matmul(a, b, out_dtype=\"void\")");
  EXPECT_EQ(testing::inferred_struct_info(params, "R.matmul(a, b, out_dtype=None)"),
            R"(R.Tensor((2, 4), dtype="float32"))");
}

TEST(OpsReductions, Matmul) {
  const char* ab =
      R"(a: R.Tensor((2, "n", 4), dtype="float16"), b: R.Tensor((4, "m"), dtype="float16"), c: R.Tensor((5, 2), dtype="float16"))";
  EXPECT_EQ(infer(ab, R"(R.matmul(a, b, out_dtype="void"))"),
            R"(R.Tensor((2, n, m), dtype="float16"))");
  EXPECT_EQ(infer(ab, R"(R.matmul(a, b, out_dtype="float32"))"),
            R"(R.Tensor((2, n, m), dtype="float32"))");
  EXPECT_EQ(
      error(ab, "R.matmul(a, c)"),
      "R.matmul: reduction dimensions differ: 4 (dimension 2 of x1) vs 5 (dimension 0 of x2)");
}

TEST(OpsReductions, Einsum) {
  const char* ab =
      R"(a: R.Tensor(("n", 4), dtype="float32"), b: R.Tensor((4, "m"), dtype="float32"))";
  EXPECT_EQ(infer(ab, R"(R.einsum((a, b), subscripts="ij,jk->ik"))"),
            R"(R.Tensor((n, m), dtype="float32"))");
  // The implicit output: the letters used once, sorted.
  EXPECT_EQ(infer(ab, R"(R.einsum((b, a), subscripts="jk,ij"))"),
            R"(R.Tensor((n, m), dtype="float32"))");
  EXPECT_EQ(infer(ab, R"(R.einsum((a,), subscripts="ij->"))"), R"(R.Tensor((), dtype="float32"))");
  const char* batched =
      R"(a: R.Tensor((5, 1, 2, 3), dtype="float32"), b: R.Tensor((7, 3, 4), dtype="float32"))";
  EXPECT_EQ(infer(batched, R"(R.einsum((a, b), subscripts="...ij,...jk->...ik"))"),
            R"(R.Tensor((5, 7, 2, 4), dtype="float32"))");
  EXPECT_EQ(error(batched, R"(R.einsum((a, b), subscripts="...ij,...ik"))"),
            "R.einsum: subscript 'i' is 2 in operand 0 but 3 in operand 1 (dimension 1)");
  EXPECT_EQ(error(ab, R"(R.einsum((a, b), subscripts="ij->ij"))"),
            "R.einsum: attribute 'subscripts' (\"ij->ij\") has 1 input term(s) but argument "
            "'operands' has 2 tensor(s)");
  EXPECT_EQ(error(ab, R"(R.einsum((a, b), subscripts="ijk,jk->ik"))"),
            "R.einsum: term 'ijk' of attribute 'subscripts' names 3 dimension(s) but operand 0 "
            "has 2");
  EXPECT_EQ(error(ab, R"(R.einsum((a, b), subscripts="ij,jk->iz"))"),
            "R.einsum: output subscript 'z' of attribute 'subscripts' appears in no input term");
  EXPECT_EQ(error(ab, R"(R.einsum((a, b), subscripts="i1,jk"))"),
            "R.einsum: attribute 'subscripts': unexpected '1' in term 'i1' (expected letters and "
            "at most one '...')");
}

TEST(OpsReductions, SoftmaxAndLogSoftmax) {
  for (const char* op : {"softmax", "log_softmax"}) {
    std::string r = std::string("R.nn.") + op;
    EXPECT_EQ(infer(kX, r + "(x, axis=-1)"), R"(R.Tensor((n, 3, m), dtype="float32"))");
    EXPECT_EQ(error(kX, r + "(x, axis=3)"),
              r + ": attribute 'axis': axis 3 is out of range for a tensor of 3 dimension(s)");
    EXPECT_EQ(error(R"(x: R.Tensor((3,), dtype="int32"))", r + "(x)"),
              r + ": argument 'data' must have a floating-point dtype, got int32");
  }
}

TEST(OpsReductions, LayerNormAndRmsNorm) {
  const char* args =
      R"(x: R.Tensor(("n", 3, "m"), dtype="float32"), g: R.Tensor((3, "m"), dtype="float32"), b: R.Tensor((3, "m"), dtype="float32"))";
  EXPECT_EQ(infer(args,
                  "R.nn.layer_norm(x, g, b, axes=[-2, -1], epsilon=1e-05, "
                  "center=True, scale=True)"),
            R"(R.Tensor((n, 3, m), dtype="float32"))");
  EXPECT_EQ(infer(args, "R.nn.rms_norm(x, g, axes=[1, 2], epsilon=1e-05)"),
            R"(R.Tensor((n, 3, m), dtype="float32"))");
  const char* fixed =
      R"(x: R.Tensor((2, 3, 4), dtype="float32"), g: R.Tensor((3, 4), dtype="float32"), b: R.Tensor((3, 4), dtype="float32"))";
  EXPECT_EQ(error(fixed, "R.nn.layer_norm(x, g, b, axes=[0, 2])"),
            "R.nn.layer_norm: dimension 0 of argument 'gamma' is 3 but dimension 0 of argument "
            "'data' is 2");
  EXPECT_EQ(error(args, "R.nn.layer_norm(x, g, b, axes=[-1])"),
            "R.nn.layer_norm: argument 'gamma' must have 1 dimension(s) (one per entry of "
            "attribute 'axes'), got 2");
  EXPECT_EQ(error(args, "R.nn.layer_norm(x, g, b)"), "R.nn.layer_norm: missing attribute 'axes'");
  EXPECT_EQ(error(args, "R.nn.rms_norm(x, g, axes=[1, 5])"),
            "R.nn.rms_norm: attribute 'axes': axis 5 is out of range for a tensor of 3 "
            "dimension(s)");
  EXPECT_EQ(error(args, "R.nn.rms_norm(x, g, axes=[1, 2], epsilon=\"small\")"),
            "R.nn.rms_norm: attribute 'epsilon' must be a number");
}

const char* kImage =
    R"(x: R.Tensor(("n", 6, "m", "m"), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32"))";

TEST(OpsReductions, GroupAndInstanceNorm) {
  EXPECT_EQ(infer(kImage,
                  "R.nn.group_norm(x, g, b, num_groups=3, channel_axis=1, axes=[2, 3], "
                  "epsilon=1e-05, center=True, scale=True)"),
            R"(R.Tensor((n, 6, m, m), dtype="float32"))");
  EXPECT_EQ(infer(kImage,
                  "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[2, 3], "
                  "epsilon=1e-05, center=True, scale=True)"),
            R"(R.Tensor((n, 6, m, m), dtype="float32"))");
  EXPECT_EQ(error(kImage, "R.nn.group_norm(x, g, b, num_groups=4, channel_axis=1, axes=[2, 3])"),
            "R.nn.group_norm: attribute 'num_groups' (4) does not divide the 6 channels of "
            "argument 'data' (dimension 1)");
  EXPECT_EQ(error(kImage, "R.nn.group_norm(x, g, b, num_groups=0, channel_axis=1, axes=[2, 3])"),
            "R.nn.group_norm: attribute 'num_groups' must be positive, got 0");
  EXPECT_EQ(error(kImage, "R.nn.instance_norm(x, g, b, channel_axis=1, axes=[1, 2])"),
            "R.nn.instance_norm: attribute 'axes' contains the channel axis 1 (attribute "
            "'channel_axis')");
  const char* fixed =
      R"(x: R.Tensor((2, 6, 5, 5), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32"))";
  EXPECT_EQ(error(fixed, "R.nn.instance_norm(x, g, b, channel_axis=2, axes=[3])"),
            "R.nn.instance_norm: dimension 0 of argument 'gamma' is 6 but dimension 2 of "
            "argument 'data' is 5");
  EXPECT_EQ(error(kImage, "R.nn.instance_norm(x, g, b, channel_axis=None, axes=[3])"),
            "R.nn.instance_norm: attribute 'channel_axis' must not be None");
}

TEST(OpsReductions, BatchNormReturnsTvmTuple) {
  std::string args =
      std::string(kImage) +
      R"(, mean: R.Tensor((6,), dtype="float32"), var: R.Tensor((6,), dtype="float32"))";
  EXPECT_EQ(
      infer(args,
            "R.nn.batch_norm(x, g, b, mean, var, axis=1, epsilon=1e-05, "
            "center=True, scale=True, momentum=0.1, training=False)"),
      R"(R.Tuple(R.Tensor((n, 6, m, m), dtype="float32"), R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")))");
  EXPECT_EQ(error(args, "R.nn.batch_norm(x, g, b, mean, var, axis=4)"),
            "R.nn.batch_norm: attribute 'axis': axis 4 is out of range for a tensor of 4 "
            "dimension(s)");
  std::string wide =
      std::string(kImage) +
      R"(, mean: R.Tensor((6, 1), dtype="float32"), var: R.Tensor((6,), dtype="float32"))";
  EXPECT_EQ(error(wide, "R.nn.batch_norm(x, g, b, mean, var, axis=1)"),
            "R.nn.batch_norm: argument 'moving_mean' must have 1 dimension(s) (the channels), "
            "got 2");
  EXPECT_EQ(error(args, "R.nn.batch_norm(x, g, b, mean, var, axis=1, momentum=1.5)"),
            "R.nn.batch_norm: attribute 'momentum' (1.5) must be in [0, 1]");
  EXPECT_EQ(error(args, "R.nn.batch_norm(x, g, b, mean, var)"),
            "R.nn.batch_norm: missing attribute 'axis'");
  std::string half =
      std::string(kImage) +
      R"(, mean: R.Tensor((6,), dtype="float16"), var: R.Tensor((6,), dtype="float32"))";
  EXPECT_EQ(error(half, "R.nn.batch_norm(x, g, b, mean, var, axis=1)"),
            "R.nn.batch_norm: operand dtypes differ: float32 (data) vs float16 (moving_mean)");
}

TEST(OpsReductions, SortArgsortTopk) {
  EXPECT_EQ(infer(kX, "R.sort(x, axis=-1, descending=False)"),
            R"(R.Tensor((n, 3, m), dtype="float32"))");
  EXPECT_EQ(infer(kX, R"(R.argsort(x, axis=1, descending=True, dtype="int64"))"),
            R"(R.Tensor((n, 3, m), dtype="int64"))");
  EXPECT_EQ(infer(kX, R"(R.topk(x, k=2, axis=1, ret_type="both", largest=True, dtype="int32"))"),
            R"(R.Tuple(R.Tensor((n, 2, m), dtype="float32"), R.Tensor((n, 2, m), dtype="int32")))");
  // k past a known dimension keeps the dimension; a symbolic one becomes k.
  EXPECT_EQ(infer(kX, R"(R.topk(x, k=5, axis=1, ret_type="values", largest=False, dtype="int32"))"),
            R"(R.Tensor((n, 3, m), dtype="float32"))");
  EXPECT_EQ(
      infer(kX, R"(R.topk(x, k=5, axis=-1, ret_type="indices", largest=True, dtype="int32"))"),
      R"(R.Tensor((n, 3, 5), dtype="int32"))");
  EXPECT_EQ(error(kX, "R.sort(x, axis=3)"),
            "R.sort: attribute 'axis': axis 3 is out of range for a tensor of 3 dimension(s)");
  EXPECT_EQ(error(kX, R"(R.topk(x, ret_type="all"))"),
            "R.topk: attribute 'ret_type' must be \"both\", \"values\" or \"indices\", got "
            "\"all\"");
  EXPECT_EQ(error(kX, R"(R.argsort(x, dtype="int33"))"),
            "R.argsort: attribute 'dtype': unknown data type 'int33'");
}

}  // namespace
}  // namespace relaxc
