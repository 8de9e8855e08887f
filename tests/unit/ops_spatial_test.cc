// StructInfo inference of the spatial operators (conv1d, conv2d, conv2d_transpose,
// max/avg/adaptive pooling, pad, image.resize2d, attention): static and symbolic shapes,
// layouts, the canonical attributes TVM prints, and one test per kind of bad attribute.
#include <gtest/gtest.h>

#include "ir/relax/block_builder.h"
#include "ir/text/printer.h"
#include "tests/support/errors.h"

namespace relaxc::relax {
namespace {

PrimExpr I(int64_t v) { return tir::int_imm(DataType::Int(64), v); }

AttrValue ints(const std::vector<int64_t>& v) { return AttrValue::int_list(v); }
AttrValue str(const std::string& s) { return AttrValue::string(s); }

class SpatialOpsTest : public ::testing::Test {
 protected:
  void SetUp() override { bb.begin_scope(); }

  Var x(std::vector<PrimExpr> dims, DataType dtype = DataType::Float(32)) {
    return make_var("x", tensor_sinfo(std::move(dims), dtype));
  }

  Expr call(const std::string& op, std::vector<Expr> args, Attrs attrs = {}) {
    return bb.call_op("relax." + op, std::move(args), {}, std::move(attrs));
  }
  // The StructInfo of the call as the text format writes it.
  std::string sinfo(const std::string& op, std::vector<Expr> args, Attrs attrs = {}) {
    return text::print_node(call(op, std::move(args), std::move(attrs))->struct_info);
  }
  std::string error(const std::string& op, std::vector<Expr> args, Attrs attrs = {}) {
    return error_of([&] { call(op, args, attrs); });
  }

  BlockBuilder bb;
  tir::Var n = tir::size_var("n");
  tir::Var h = tir::size_var("h");
  tir::Var w = tir::size_var("w");
};

std::string f32(const std::string& shape) { return "R.Tensor(" + shape + ", dtype=\"float32\")"; }

TEST_F(SpatialOpsTest, Conv2dShapes) {
  Var weight = x({I(8), I(16), I(3), I(3)});
  EXPECT_EQ(sinfo("nn.conv2d", {x({I(1), I(16), I(32), I(32)}), weight},
                  Attrs({{"strides", ints({2, 2})}, {"padding", ints({1, 1, 1, 1})}})),
            f32("(1, 8, 16, 16)"));
  // Symbolic batch and spatial dimensions stay symbolic.
  EXPECT_EQ(sinfo("nn.conv2d", {x({n, I(16), h, w}), weight}, Attrs({{"padding", ints({1})}})),
            f32("(n, 8, h, w)"));
  EXPECT_EQ(sinfo("nn.conv2d", {x({n, I(16), h, w}), weight},
                  Attrs({{"strides", AttrValue::integer(2)}, {"dilation", ints({2, 1})}})),
            f32("(n, 8, (h + 1) // 2 - 2, (w + 1) // 2 - 1)"));
  // NHWC data with an HWIO kernel; the output in the data's layout.
  EXPECT_EQ(sinfo("nn.conv2d", {x({I(1), h, I(32), I(16)}), x({I(3), I(3), I(16), I(8)})},
                  Attrs({{"padding", ints({1, 1})},
                         {"data_layout", str("NHWC")},
                         {"kernel_layout", str("HWIO")}})),
            f32("(1, h, 32, 8)"));
  // Depthwise: one input channel per group.
  EXPECT_EQ(sinfo("nn.conv2d", {x({n, I(16), I(8), I(8)}), x({I(16), I(1), I(3), I(3)})},
                  Attrs({{"groups", AttrValue::integer(16)}})),
            f32("(n, 16, 6, 6)"));
  EXPECT_EQ(sinfo("nn.conv2d", {x({I(1), I(4), I(5), I(5)}), x({I(2), I(4), I(1), I(1)})},
                  Attrs({{"out_layout", str("NHWC")}})),
            f32("(1, 5, 5, 2)"));
  Var half = x({I(1), I(4), I(5), I(5)}, DataType::Float(16));
  EXPECT_EQ(sinfo("nn.conv2d", {half, x({I(2), I(4), I(1), I(1)}, DataType::Float(16))},
                  Attrs({{"out_dtype", str("float32")}})),
            f32("(1, 2, 5, 5)"));
  // Unknown shapes: the rank of the output layout.
  EXPECT_EQ(sinfo("nn.conv2d", {make_var("u", tensor_sinfo_ndim(4, DataType::Float(32))), weight}),
            "R.Tensor(dtype=\"float32\", ndim=4)");
}

TEST_F(SpatialOpsTest, Conv2dCanonicalAttributes) {
  Expr c = call("nn.conv2d", {x({I(1), I(16), I(8), I(8)}), x({I(8), I(16), I(3), I(3)})},
                Attrs({{"strides", AttrValue::integer(1)}, {"padding", ints({1, 2})}}));
  const Attrs& attrs = c.as<CallNode>()->attrs;
  std::vector<std::string> names;
  for (const auto& [name, value] : attrs.entries()) names.push_back(name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"strides", "padding", "dilation", "groups", "data_layout",
                                      "kernel_layout", "out_layout", "out_dtype"}));
  EXPECT_EQ(*attrs.find("strides"), ints({1, 1}));
  EXPECT_EQ(*attrs.find("padding"), ints({1, 2, 1, 2}));
  EXPECT_EQ(*attrs.find("out_layout"), str("NCHW"));
  EXPECT_EQ(text::print_node(c).substr(0, 12), "R.nn.conv2d(");
}

TEST_F(SpatialOpsTest, Conv2dErrors) {
  Var data = x({I(1), I(16), I(8), I(8)});
  Var weight = x({I(8), I(16), I(3), I(3)});
  EXPECT_EQ(error("nn.conv2d", {data, x({I(8), I(5), I(3), I(3)})},
                  Attrs({{"groups", AttrValue::integer(3)}})),
            "R.nn.conv2d: attribute 'groups' (3) does not divide the 16 input channels of "
            "argument 'data' (dimension 1)");
  EXPECT_EQ(error("nn.conv2d", {data, x({I(8), I(4), I(3), I(3)})},
                  Attrs({{"groups", AttrValue::integer(2)}})),
            "R.nn.conv2d: the 16 input channels of argument 'data' (dimension 1) do not match "
            "argument 'weight': 4 input channels per group (dimension 1) times 'groups' 2");
  EXPECT_EQ(error("nn.conv2d", {x({I(1), h, w, I(16)}), x({I(3), I(3), I(8), I(8)})},
                  Attrs({{"data_layout", str("NHWC")}, {"kernel_layout", str("HWIO")}})),
            "R.nn.conv2d: the 16 input channels of argument 'data' (dimension 3) do not match "
            "argument 'weight': 8 input channels per group (dimension 2)");
  EXPECT_EQ(error("nn.conv2d", {data, x({I(6), I(4), I(3), I(3)})},
                  Attrs({{"groups", AttrValue::integer(4)}})),
            "R.nn.conv2d: attribute 'groups' (4) does not divide the 6 output channels of "
            "argument 'weight' (dimension 0)");
  EXPECT_EQ(error("nn.conv2d", {data, weight}, Attrs({{"padding", ints({1, 1, 1})}})),
            "R.nn.conv2d: attribute 'padding' has 3 entries; expected 1, 2 or 4 (before and "
            "after each spatial dimension)");
  EXPECT_EQ(error("nn.conv2d", {data, weight}, Attrs({{"strides", ints({1, 0})}})),
            "R.nn.conv2d: attribute 'strides': entry 1 is 0; it must be positive");
  EXPECT_EQ(error("nn.conv2d", {data, weight}, Attrs({{"dilation", ints({1, 1, 1})}})),
            "R.nn.conv2d: attribute 'dilation' has 3 entries; expected 1 or 2 (one per spatial "
            "dimension)");
  EXPECT_EQ(error("nn.conv2d", {data, weight}, Attrs({{"groups", AttrValue::integer(0)}})),
            "R.nn.conv2d: attribute 'groups' is 0; it must be positive");
  EXPECT_EQ(error("nn.conv2d", {x({I(1), I(16), I(2), I(8)}), weight}),
            "R.nn.conv2d: the window (3: dimension 2 of argument 'weight') is larger than the "
            "padded input (2: dimension 2 of argument 'data' with padding 0 + 0)");
  EXPECT_EQ(error("nn.conv2d", {data, weight}, Attrs({{"dilation", ints({1, 4})}})),
            "R.nn.conv2d: the window (9: dimension 3 of argument 'weight' dilated by 4) is "
            "larger than the padded input (8: dimension 3 of argument 'data' with padding 0 + "
            "0)");
  EXPECT_EQ(error("nn.conv2d", {data, weight}, Attrs({{"data_layout", str("NCHW4c")}})),
            "R.nn.conv2d: attribute 'data_layout' (\"NCHW4c\") must order the axes N, C, H, W "
            "(as \"NCHW\" does); split layouts are not supported");
  EXPECT_EQ(error("nn.conv2d", {x({I(16), I(8), I(8)}), weight}),
            "R.nn.conv2d: argument 'data' must have 4 dimensions (layout NCHW), got 3");
  EXPECT_EQ(error("nn.conv2d", {data, x({I(8), I(16), I(3), I(3)}, DataType::Float(16))}),
            "R.nn.conv2d: operand dtypes differ: float32 (data) vs float16 (weight)");
  EXPECT_EQ(error("nn.conv2d", {data, weight}, Attrs({{"strides", str("2")}})),
            "R.nn.conv2d: attribute 'strides' must be an integer or a list of integers");
}

TEST_F(SpatialOpsTest, Conv1dAndConv2dTranspose) {
  EXPECT_EQ(sinfo("nn.conv1d", {x({n, I(4), w}), x({I(8), I(4), I(3)})}), f32("(n, 8, w - 2)"));
  EXPECT_EQ(sinfo("nn.conv1d", {x({n, w, I(4)}), x({I(3), I(4), I(8)})},
                  Attrs({{"padding", AttrValue::integer(1)},
                         {"data_layout", str("NWC")},
                         {"kernel_layout", str("WIO")}})),
            f32("(n, w, 8)"));
  Expr c1 =
      call("nn.conv1d", {x({n, I(4), w}), x({I(8), I(4), I(3)})}, Attrs({{"padding", ints({2})}}));
  EXPECT_EQ(*c1.as<CallNode>()->attrs.find("padding"), ints({2, 2}));

  // (in - 1) * stride - pads + dilation * (kernel - 1) + output_padding + 1
  EXPECT_EQ(sinfo("nn.conv2d_transpose", {x({I(1), I(8), I(4), h}), x({I(8), I(4), I(3), I(3)})},
                  Attrs({{"strides", ints({2, 2})},
                         {"padding", ints({1, 1})},
                         {"output_padding", ints({1, 0})}})),
            f32("(1, 4, 8, h * 2 - 1)"));
  EXPECT_EQ(sinfo("nn.conv2d_transpose", {x({I(1), I(8), I(4), I(4)}), x({I(8), I(3), I(2), I(2)})},
                  Attrs({{"groups", AttrValue::integer(2)}})),
            f32("(1, 6, 5, 5)"));
  EXPECT_EQ(
      error("nn.conv2d_transpose", {x({I(1), I(8), I(4), I(4)}), x({I(6), I(4), I(3), I(3)})}),
      "R.nn.conv2d_transpose: the 8 input channels of argument 'data' (dimension 1) do not "
      "match argument 'weight': 6 input channels (dimension 0)");
  EXPECT_EQ(error("nn.conv2d_transpose", {x({I(1), I(8), I(4), I(4)}), x({I(8), I(4), I(3), I(3)})},
                  Attrs({{"output_padding", ints({1, 1})}})),
            "R.nn.conv2d_transpose: attribute 'output_padding': entry 0 (1) must be smaller than "
            "the stride (1)");
}

TEST_F(SpatialOpsTest, Pool2d) {
  Attrs window({{"pool_size", ints({3, 3})}, {"strides", ints({2, 2})}, {"padding", ints({1})}});
  EXPECT_EQ(sinfo("nn.max_pool2d", {x({n, I(8), h, w})}, window),
            f32("(n, 8, (h + 1) // 2, (w + 1) // 2)"));
  EXPECT_EQ(sinfo("nn.avg_pool2d", {x({n, I(8), I(16), I(16)})}, window), f32("(n, 8, 8, 8)"));
  // ceil_mode keeps a last partial window unless it would start in the padding.
  Attrs ceil({{"pool_size", ints({2, 2})},
              {"strides", ints({2, 2})},
              {"ceil_mode", AttrValue::boolean(true)}});
  EXPECT_EQ(sinfo("nn.max_pool2d", {x({I(1), I(8), I(5), I(6)})}, ceil), f32("(1, 8, 3, 3)"));
  EXPECT_EQ(sinfo("nn.max_pool2d", {x({I(1), I(5), I(5), I(8)})},
                  Attrs({{"pool_size", AttrValue::integer(2)}, {"layout", str("NHWC")}})),
            f32("(1, 4, 4, 8)"));
  EXPECT_EQ(
      error("nn.max_pool2d", {x({I(1), I(8), I(2), I(2)})}, Attrs({{"pool_size", ints({3, 3})}})),
      "R.nn.max_pool2d: the window (3: entry 0 of attribute 'pool_size') is larger than "
      "the padded input (2: dimension 2 of argument 'data' with padding 0 + 0)");
  EXPECT_EQ(error("nn.avg_pool2d", {x({I(1), I(8), I(4), I(4)})},
                  Attrs({{"pool_size", ints({2, 2, 2})}})),
            "R.nn.avg_pool2d: attribute 'pool_size' has 3 entries; expected 1 or 2 (one per "
            "spatial dimension)");
  EXPECT_EQ(error("nn.avg_pool2d", {x({I(1), I(8), I(4), I(4)})}, Attrs({{"padding", ints({-1})}})),
            "R.nn.avg_pool2d: attribute 'padding': entry 0 is -1; it must be non-negative");

  EXPECT_EQ(sinfo("nn.adaptive_avg_pool2d", {x({n, I(8), h, w})}), f32("(n, 8, h, w)"));
  EXPECT_EQ(sinfo("nn.adaptive_avg_pool2d", {x({n, h, w, I(8)})},
                  Attrs({{"output_size", AttrValue::integer(1)}, {"layout", str("NHWC")}})),
            f32("(n, 1, 1, 8)"));
  EXPECT_EQ(error("nn.adaptive_avg_pool2d", {x({n, I(8), h})}),
            "R.nn.adaptive_avg_pool2d: argument 'data' must have 4 dimensions (layout NCHW), "
            "got 3");
}

TEST_F(SpatialOpsTest, Pad) {
  EXPECT_EQ(sinfo("nn.pad", {x({n, I(3), I(4)})}, Attrs({{"pad_width", ints({0, 0, 1, 2, 3, 4})}})),
            f32("(n, 6, 11)"));
  EXPECT_EQ(sinfo("nn.pad", {x({n, h})},
                  Attrs({{"pad_width", ints({0, 1, 2, 2})}, {"pad_mode", str("edge")}})),
            f32("(n + 1, h + 4)"));
  EXPECT_EQ(error("nn.pad", {x({n, h})}, Attrs({{"pad_width", ints({1, 1})}})),
            "R.nn.pad: attribute 'pad_width' has 2 entries; argument 'data' has 2 dimension(s), "
            "so it needs 4 (before and after each)");
  EXPECT_EQ(error("nn.pad", {x({n, h})},
                  Attrs({{"pad_width", ints({0, 0, 1, 1})}, {"pad_mode", str("wrap")}})),
            "R.nn.pad: attribute 'pad_mode' is \"wrap\"; expected one of \"constant\", "
            "\"reflect\", \"edge\"");
  EXPECT_EQ(error("nn.pad", {x({n, I(3)})},
                  Attrs({{"pad_width", ints({0, 0, 3, 1})}, {"pad_mode", str("reflect")}})),
            "R.nn.pad: attribute 'pad_width' pads dimension 1 of argument 'data' (3) by 3 and 1; "
            "\"reflect\" padding must be smaller than the dimension");
  EXPECT_EQ(error("nn.pad", {x({n, I(3)})}, Attrs({{"pad_width", ints({0, -1, 0, 0})}})),
            "R.nn.pad: attribute 'pad_width': entry 1 is -1; padding must be non-negative");
  EXPECT_EQ(error("nn.pad", {x({n, I(3)})},
                  Attrs({{"pad_width", ints({0, 0, INT64_MAX, 1})}})),
            "R.nn.pad: attribute 'pad_width' pads dimension 1 by 9223372036854775807 and 1, "
            "more than a tensor can hold");
  EXPECT_EQ(error("nn.pad", {x({n, I(3)})}), "R.nn.pad: missing attribute 'pad_width'");
}

TEST_F(SpatialOpsTest, Resize2d) {
  Expr size = make_shape_expr({h * 2, I(7)});
  EXPECT_EQ(sinfo("image.resize2d", {x({n, I(3), h, w}), size}), f32("(n, 3, h * 2, 7)"));
  EXPECT_EQ(sinfo("image.resize2d", {x({n, h, w, I(3)}), size},
                  Attrs({{"layout", str("NHWC")}, {"method", str("nearest_neighbor")}})),
            f32("(n, h * 2, 7, 3)"));
  EXPECT_EQ(error("image.resize2d", {x({n, I(3), h, w}), size}, Attrs({{"method", str("area")}})),
            "R.image.resize2d: attribute 'method' is \"area\"; expected one of "
            "\"nearest_neighbor\", \"linear\", \"cubic\"");
  EXPECT_EQ(error("image.resize2d", {x({n, I(3), h, w}), make_shape_expr({I(4)})}),
            "R.image.resize2d: argument 'size' must be a shape of 2 dimensions (height, width), "
            "got R.Shape([4])");
  // The scales the coordinate transformation divides by, when given: float32, 2 entries.
  EXPECT_EQ(sinfo("image.resize2d", {x({n, I(3), h, w}), size, x({I(2)})}),
            f32("(n, 3, h * 2, 7)"));
  EXPECT_EQ(error("image.resize2d", {x({n, I(3), h, w}), size, x({I(4)})}),
            "R.image.resize2d: argument 'scale' must be a float32 tensor of 2 entries (height, "
            "width), got R.Tensor((4,), dtype=\"float32\")");
}

TEST_F(SpatialOpsTest, Attention) {
  Var q = x({I(2), n, I(4), I(8)});
  Var k = x({I(2), h, I(2), I(8)});
  Var v = x({I(2), h, I(2), I(5)});
  EXPECT_EQ(sinfo("nn.attention", {q, k, v}), f32("(2, n, 4, 5)"));
  // With a bias the call is nn.attention_bias, as TVM builds and prints it.
  Expr biased = call("nn.attention", {q, k, v, x({I(1), I(4), n, h})},
                     Attrs({{"scale", AttrValue::floating(0.5)}, {"causal_mask", str("TopLeft")}}));
  EXPECT_EQ(biased.as<CallNode>()->op.as<OpNode>()->name, "relax.nn.attention_bias");
  EXPECT_EQ(text::print_node(biased->struct_info), f32("(2, n, 4, 5)"));

  EXPECT_EQ(error("nn.attention", {q, x({I(2), h, I(2), I(4)}), v}),
            "R.nn.attention: the head dimension of 'query' (8, dimension 3) and of 'key' (4, "
            "dimension 3) differ");
  EXPECT_EQ(error("nn.attention", {q, k, x({I(3), h, I(2), I(5)})}),
            "R.nn.attention: the batch size of 'query' (2, dimension 0) and of 'value' (3, "
            "dimension 0) differ");
  EXPECT_EQ(error("nn.attention", {q, x({I(2), h, I(3), I(8)}), v}),
            "R.nn.attention: the number of heads of 'query' (4, dimension 2) and of 'key' (3, "
            "dimension 2) must be a multiple of the latter");
  EXPECT_EQ(error("nn.attention", {q, x({I(2), I(7), I(2), I(8)}), x({I(2), I(6), I(2), I(5)})}),
            "R.nn.attention: the sequence length of 'key' (7, dimension 1) and of 'value' (6, "
            "dimension 1) differ");
  EXPECT_EQ(error("nn.attention", {q, k, v, x({I(1), I(3), n, h})}),
            "R.nn.attention_bias: dimension 1 of argument 'bias' (3) must be 1 or 4, the number "
            "of heads of 'query' (dimension 2)");
  EXPECT_EQ(error("nn.attention", {q, k, v}, Attrs({{"causal_mask", str("Top")}})),
            "R.nn.attention: attribute 'causal_mask' is \"Top\"; expected \"TopLeft\", "
            "\"BottomRight\" or None");
  EXPECT_EQ(error("nn.attention", {x({I(2), n, I(8)}), k, v}),
            "R.nn.attention: argument 'query' must have 4 dimensions (batch, sequence, heads, "
            "head dimension), got 3");
}

}  // namespace
}  // namespace relaxc::relax
