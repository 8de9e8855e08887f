// ONNX converters of the neural-network operators: Gemm, MatMul, Einsum, Conv,
// ConvTranspose, MatMulInteger, ConvInteger, QLinearMatMul and QLinearConv (in int32), the
// poolings, the normalizations, Softmax / LogSoftmax / Hardmax and LRN, on relaxc's matmul,
// einsum, nn.conv*, nn.*_pool2d and nn.*_norm operators.
//
// The library's convolutions are 1-D and 2-D and its poolings 2-D: a 1-D pooling or
// transposed convolution runs as a 2-D one over a height of 1, and 3-D forms are
// refused. auto_pad SAME_* is resolved at import time into explicit pads, which needs
// static spatial dimensions.
#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"
#include "frontend/onnx/shape_values.h"
#include "ir/relax/ops/op_common.h"
#include "ir/tir/expr.h"

namespace relaxc::onnx_import {

namespace {

using relax::Expr;
using relax::PrimExpr;

AttrValue ints(const std::vector<int64_t>& values) { return AttrValue::int_list(values); }

// 0, 1, ..., n - 1 shifted by `first`.
std::vector<int64_t> iota(int64_t first, int64_t n) {
  std::vector<int64_t> out(static_cast<size_t>(n));
  std::iota(out.begin(), out.end(), first);
  return out;
}

Expr expand_dims(NodeContext& ctx, Expr x, std::vector<int64_t> axes) {
  return ctx.emit_op("relax.expand_dims", {std::move(x)}, Attrs({{"axis", ints(axes)}}));
}

Expr squeeze(NodeContext& ctx, Expr x, std::vector<int64_t> axes) {
  return ctx.emit_op("relax.squeeze", {std::move(x)}, Attrs({{"axis", ints(axes)}}));
}

Expr reshape(NodeContext& ctx, Expr x, std::vector<PrimExpr> shape) {
  return ctx.emit_op("relax.reshape", {std::move(x), relax::make_shape_expr(std::move(shape))});
}

// The product of dims[begin, end), simplified (a product of constants is a constant,
// which shapes and PrimValues need).
PrimExpr dims_product(NodeContext& ctx, const std::vector<PrimExpr>& dims, size_t begin,
                      size_t end) {
  PrimExpr product = tir::int_imm(DataType::Int(64), 1);
  for (size_t i = begin; i < end; ++i) product = tir::mul(product, dims[i]);
  return ctx.builder().analyzer().simplify(product);
}

// ---------------------------------------------------------------- Gemm, MatMul, Einsum

std::vector<Value> convert_gemm(NodeContext& ctx) {
  const char* names[] = {"A", "B"};
  Expr operands[2];
  for (size_t i = 0; i < 2; ++i) {
    if (input_tensor(ctx, i, names[i]).ndim != 2) {
      ctx.invalid("input " + std::to_string(i) + " '" + names[i] + "' must be 2-D, got " +
                  std::to_string(input_tensor(ctx, i, names[i]).ndim) + " dimension(s)");
    }
    operands[i] = ctx.tensor(i);
    if (ctx.attr_int(i == 0 ? "transA" : "transB", 0) != 0) {
      operands[i] =
          ctx.emit_op("relax.permute_dims", {operands[i]}, Attrs({{"axes", ints({1, 0})}}));
    }
  }
  DataType dtype = input_tensor(ctx, 0, "A").dtype;
  Expr y = ctx.emit_op("relax.matmul", {operands[0], operands[1]});
  double alpha = ctx.attr_float("alpha", 1.0);
  if (alpha != 1.0) y = binary(ctx, "multiply", y, scalar_constant(ctx, dtype, alpha));
  if (ctx.has_input(2)) {
    Expr c = ctx.tensor(2);
    double beta = ctx.attr_float("beta", 1.0);
    if (beta != 1.0) c = binary(ctx, "multiply", c, scalar_constant(ctx, dtype, beta));
    y = binary(ctx, "add", y, c);
  }
  return single(y);
}

std::vector<Value> convert_matmul(NodeContext& ctx) {
  return single(ctx.emit_op("relax.matmul", {ctx.tensor(0), ctx.tensor(1)}));
}

std::vector<Value> convert_einsum(NodeContext& ctx) {
  std::string equation = ctx.attr_string("equation");
  equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
  std::vector<Expr> operands;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) operands.push_back(ctx.tensor(i));
  Expr tuple = ctx.builder().tuple(std::move(operands));
  return single(
      ctx.emit_op("relax.einsum", {tuple}, Attrs({{"subscripts", AttrValue::string(equation)}})));
}

// ---------------------------------------------------------------- sliding windows

// A convolution's or pooling's window over the spatial dimensions, as relaxc's
// operators take it: pads are all the begins, then all the ends.
struct Window {
  std::vector<int64_t> kernel, strides, dilations, pads;

  size_t spatial() const { return kernel.size(); }
  // The window of a 1-D operation run as 2-D over a height of 1.
  Window lifted() const {
    Window w;
    w.kernel = {1, kernel[0]};
    w.strides = {1, strides[0]};
    w.dilations = {1, dilations[0]};
    w.pads = {0, pads[0], 0, pads[1]};
    return w;
  }
};

// A per-spatial-dimension attribute: `spatial` entries, each at least `min`.
std::vector<int64_t> spatial_attr(const NodeContext& ctx, const std::string& name, size_t spatial,
                                  int64_t def, int64_t min) {
  std::vector<int64_t> values = ctx.attr_ints(name, std::vector<int64_t>(spatial, def));
  if (values.size() != spatial) {
    ctx.invalid("attribute '" + name + "' has " + std::to_string(values.size()) +
                " entries; the input has " + std::to_string(spatial) + " spatial dimension(s)");
  }
  for (int64_t v : values) {
    if (v < min) {
      ctx.invalid("attribute '" + name + "' has the entry " + std::to_string(v) +
                  "; entries must be at least " + std::to_string(min));
    }
  }
  return values;
}

std::string auto_pad_of(const NodeContext& ctx) {
  std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID" && auto_pad != "SAME_UPPER" &&
      auto_pad != "SAME_LOWER") {
    ctx.invalid("attribute 'auto_pad' is \"" + auto_pad +
                "\"; expected NOTSET, SAME_UPPER, SAME_LOWER or VALID");
  }
  if (auto_pad != "NOTSET" && ctx.has_attr("pads")) {
    ctx.invalid("attribute 'pads' is given with auto_pad " + auto_pad +
                "; explicit pads need auto_pad NOTSET");
  }
  return auto_pad;
}

// Input dimension `axis` as a number; the error names `why` when it is symbolic.
int64_t static_dim(const NodeContext& ctx, const std::vector<PrimExpr>& dims, size_t axis,
                   const std::string& input, const std::string& why) {
  const int64_t* value = tir::as_const_int(dims[axis]);
  if (value == nullptr) {
    ctx.unsupported(why + " needs a static size; dimension " + std::to_string(axis) +
                    " of input '" + input + "' is symbolic");
  }
  return *value;
}

// The window of a convolution or pooling of input dims `x` (N, C, spatial...) with
// `kernel`: strides, dilations (when the operator has them) and pads from 'pads' or
// 'auto_pad'.
Window make_window(const NodeContext& ctx, const std::vector<PrimExpr>& x,
                   std::vector<int64_t> kernel, bool has_dilations) {
  size_t spatial = kernel.size();
  Window w;
  w.kernel = std::move(kernel);
  w.strides = spatial_attr(ctx, "strides", spatial, 1, 1);
  w.dilations = has_dilations ? spatial_attr(ctx, "dilations", spatial, 1, 1)
                              : std::vector<int64_t>(spatial, 1);
  std::string auto_pad = auto_pad_of(ctx);
  if (auto_pad == "NOTSET") {
    w.pads = spatial_attr(ctx, "pads", 2 * spatial, 0, 0);
    return w;
  }
  w.pads.assign(2 * spatial, 0);
  if (auto_pad == "VALID") return w;
  // SAME_*: the output has ceil(input / stride) elements, the padding split evenly with
  // the odd element at the end (UPPER) or the beginning (LOWER).
  for (size_t i = 0; i < spatial; ++i) {
    int64_t in = static_dim(ctx, x, 2 + i, "X", "auto_pad " + auto_pad);
    int64_t out = (in + w.strides[i] - 1) / w.strides[i];
    int64_t extent = (w.kernel[i] - 1) * w.dilations[i] + 1;
    int64_t total = std::max<int64_t>(0, (out - 1) * w.strides[i] + extent - in);
    int64_t small = total / 2, large = total - small;
    w.pads[i] = auto_pad == "SAME_LOWER" ? large : small;
    w.pads[spatial + i] = auto_pad == "SAME_LOWER" ? small : large;
  }
  return w;
}

// The rank of a convolution's or pooling's input X: 3 or 4 (N, C and 1 or 2 spatial
// dimensions); 5 (3-D) is refused.
size_t spatial_rank(const NodeContext& ctx, const std::string& what) {
  int ndim = input_tensor(ctx, 0, "X").ndim;
  if (ndim == 5) {
    ctx.unsupported("3-D " + what + " (a 5-D input 'X') is not supported: relaxc's operators " +
                    "cover 1-D and 2-D");
  }
  if (ndim != 3 && ndim != 4) {
    ctx.invalid("input 0 'X' must have 3 or 4 dimensions (N, C, spatial...), got " +
                std::to_string(ndim));
  }
  return static_cast<size_t>(ndim - 2);
}

// The kernel's spatial size from weight dims `w` (static), checked against the
// attribute 'kernel_shape' where the node gives it.
std::vector<int64_t> weight_kernel(const NodeContext& ctx, const std::vector<PrimExpr>& w,
                                   size_t spatial) {
  std::vector<int64_t> kernel;
  for (size_t i = 0; i < spatial; ++i) {
    kernel.push_back(static_dim(ctx, w, 2 + i, "W", "the kernel"));
  }
  if (ctx.has_attr("kernel_shape") && ctx.attr_ints("kernel_shape") != kernel) {
    ctx.invalid("attribute 'kernel_shape' does not match the spatial dimensions of input 1 'W'");
  }
  return kernel;
}

// Y + B with the bias B (one value per output channel) broadcast over the spatial
// dimensions.
Expr add_channel_bias(NodeContext& ctx, Expr y, size_t bias_input, size_t spatial) {
  if (!ctx.has_input(bias_input)) return y;
  Expr bias = expand_dims(ctx, ctx.tensor(bias_input), iota(1, static_cast<int64_t>(spatial)));
  return binary(ctx, "add", y, bias);
}

// ---------------------------------------------------------------- Conv, ConvTranspose

// The dimensions of a convolution's X and W, which have as many as each other.
struct ConvOperands {
  size_t spatial;
  std::vector<PrimExpr> x, w;
};

// `weight`: W's input (1; QLinearConv's is 3).
ConvOperands conv_operands(const NodeContext& ctx, const std::string& what, size_t weight = 1) {
  ConvOperands operands{spatial_rank(ctx, what), input_dims(ctx, 0, "X"),
                        input_dims(ctx, weight, "W")};
  if (operands.w.size() != operands.x.size()) {
    ctx.invalid("input " + std::to_string(weight) +
                " 'W' must have as many dimensions as input 0 'X' (" +
                std::to_string(operands.x.size()) + "), got " + std::to_string(operands.w.size()));
  }
  return operands;
}

// The convolution of the node's attributes (Conv's, ConvInteger's, QLinearConv's) of
// `data` and `weight`, which stand for the inputs X and W whose dims `operands` holds.
Expr convolve(NodeContext& ctx, const ConvOperands& operands, Expr data, Expr weight) {
  Window win = make_window(ctx, operands.x, weight_kernel(ctx, operands.w, operands.spatial), true);
  Attrs attrs({{"strides", ints(win.strides)},
               {"padding", ints(win.pads)},
               {"dilation", ints(win.dilations)},
               {"groups", AttrValue::integer(ctx.attr_int("group", 1))}});
  return ctx.emit_op(operands.spatial == 1 ? "relax.nn.conv1d" : "relax.nn.conv2d",
                     {std::move(data), std::move(weight)}, attrs);
}

std::vector<Value> convert_conv(NodeContext& ctx) {
  ConvOperands operands = conv_operands(ctx, "convolution");
  Expr y = convolve(ctx, operands, ctx.tensor(0), ctx.tensor(1));
  return single(add_channel_bias(ctx, y, 2, operands.spatial));
}

// ---------------------------------------------------------------- MatMulInteger, ConvInteger

// Input `i`, a quantization parameter (a scale or a zero point), shaped to broadcast: one
// of one element is per tensor (a scalar); a 1-D one of L > 1 elements is per row of A,
// column of B or output channel of W, and becomes (L, 1, ...) with `trailing_ones` ones;
// one of higher rank already has the operand's rank (MatMulInteger's N-D per-row form).
Expr quantization_parameter(NodeContext& ctx, size_t i, const std::string& name,
                            size_t trailing_ones) {
  if (input_tensor(ctx, i, name).ndim != 1) return ctx.tensor(i);
  PrimExpr length = input_dims(ctx, i, name)[0];
  std::vector<PrimExpr> shape;
  if (!tir::is_const_int(length, 1)) {
    shape.assign(trailing_ones + 1, relax::const_dim(1));
    shape[0] = length;
  }
  return emit_reshape(ctx, ctx.tensor(i), shape);
}

// An error unless input `i` holds one element (a per-tensor quantization parameter).
void require_per_tensor(const NodeContext& ctx, size_t i, const std::string& name) {
  const std::vector<PrimExpr>* dims = input_tensor(ctx, i, name).shape_values();
  if (dims == nullptr || dims->size() > 1 ||
      (dims->size() == 1 && !tir::is_const_int((*dims)[0], 1))) {
    ctx.invalid("input " + std::to_string(i) + " '" + name +
                "' must be a scalar (per-tensor quantization)");
  }
}

// Input `i` (uint8 or int8) as int32 minus its zero point, input `zero_point` (of the
// same type, shaped by quantization_parameter; none: 0).
Expr minus_zero_point(NodeContext& ctx, size_t i, const std::string& name, size_t zero_point,
                      const std::string& zero_point_name, size_t trailing_ones) {
  const DataType i32 = DataType::Int(32);
  DataType dtype = input_tensor_any_rank(ctx, i, name).dtype;
  if (dtype != DataType::UInt(8) && dtype != DataType::Int(8)) {
    ctx.invalid("input " + std::to_string(i) + " '" + name + "' must be uint8 or int8, got " +
                dtype.str());
  }
  Attrs to_i32({{"dtype", AttrValue::data_type(i32)}});
  Expr operand = ctx.emit_op("relax.astype", {ctx.tensor(i)}, to_i32);
  if (!ctx.has_input(zero_point)) return operand;
  const std::string what = "input " + std::to_string(zero_point) + " '" + zero_point_name + "'";
  const relax::TensorStructInfoNode& info = input_tensor(ctx, zero_point, zero_point_name);
  if (info.dtype != dtype) {
    ctx.invalid(what + " must have the type of input " + std::to_string(i) + " '" + name + "' (" +
                dtype.str() + "), got " + info.dtype.str());
  }
  Expr shift = ctx.emit_op(
      "relax.astype", {quantization_parameter(ctx, zero_point, zero_point_name, trailing_ones)},
      to_i32);
  return binary(ctx, "subtract", operand, shift);
}

// MatMulInteger: (A - a_zero_point) @ (B - b_zero_point) in int32.
std::vector<Value> convert_matmul_integer(NodeContext& ctx) {
  Expr a = minus_zero_point(ctx, 0, "A", 2, "a_zero_point", 1);
  Expr b = minus_zero_point(ctx, 1, "B", 3, "b_zero_point", 0);
  return single(ctx.emit_op("relax.matmul", {a, b}));
}

// The float32 scale of input `i`, shaped as quantization_parameter does.
Expr scale_input(NodeContext& ctx, size_t i, const std::string& name, size_t trailing_ones) {
  DataType dtype = input_tensor(ctx, i, name).dtype;
  if (dtype != DataType::Float(32)) {
    ctx.invalid("input " + std::to_string(i) + " '" + name + "' must be float32, got " +
                dtype.str());
  }
  return quantization_parameter(ctx, i, name, trailing_ones);
}

// The QLinear operators' output: the int32 accumulator `acc` times the product of the
// operands' scales (`scales`, float32) over y_scale (input `y_scale`, shaped as
// quantization_parameter does with `trailing_ones`), rounded with halves to even, plus
// y_zero_point (input y_scale + 1, whose type the output has), saturated.
Expr requantize(NodeContext& ctx, const Expr& acc, const Expr& scales, size_t y_scale,
                size_t trailing_ones) {
  const DataType f32 = DataType::Float(32);
  DataType quantized = input_tensor(ctx, y_scale + 1, "y_zero_point").dtype;
  if (quantized != DataType::UInt(8) && quantized != DataType::Int(8)) {
    ctx.invalid("input " + std::to_string(y_scale + 1) +
                " 'y_zero_point' must be uint8 or int8, got " + quantized.str());
  }
  Attrs to_f32({{"dtype", AttrValue::data_type(f32)}});
  Expr multiplier =
      binary(ctx, "divide", scales, scale_input(ctx, y_scale, "y_scale", trailing_ones));
  Expr steps = binary(ctx, "multiply", ctx.emit_op("relax.astype", {acc}, to_f32), multiplier);
  Expr zero_point = ctx.emit_op(
      "relax.astype", {quantization_parameter(ctx, y_scale + 1, "y_zero_point", trailing_ones)},
      to_f32);
  return quantize_steps(ctx, steps, zero_point, quantized);
}

// QLinearMatMul: MatMulInteger's accumulator requantized with a_scale * b_scale / y_scale
// (a_scale and y_scale per tensor or per row, b_scale per tensor or per column).
std::vector<Value> convert_qlinear_matmul(NodeContext& ctx) {
  Expr a = minus_zero_point(ctx, 0, "a", 2, "a_zero_point", 1);
  Expr b = minus_zero_point(ctx, 3, "b", 5, "b_zero_point", 0);
  Expr scales =
      binary(ctx, "multiply", scale_input(ctx, 1, "a_scale", 1), scale_input(ctx, 4, "b_scale", 0));
  return single(requantize(ctx, ctx.emit_op("relax.matmul", {a, b}), scales, 6, 1));
}

// ConvInteger: Conv of (x - x_zero_point) and (w - w_zero_point) in int32; padding with
// zeros after the shift pads x with its zero point.
std::vector<Value> convert_conv_integer(NodeContext& ctx) {
  ConvOperands operands = conv_operands(ctx, "convolution");
  if (ctx.has_input(2)) require_per_tensor(ctx, 2, "x_zero_point");
  Expr x = minus_zero_point(ctx, 0, "x", 2, "x_zero_point", 0);
  Expr w = minus_zero_point(ctx, 1, "w", 3, "w_zero_point", operands.spatial + 1);
  return single(convolve(ctx, operands, x, w));
}

// QLinearConv: ConvInteger's accumulator plus the int32 bias B (whose scale is x_scale *
// w_scale), requantized with x_scale * w_scale / y_scale (w_scale per tensor or per
// output channel; x's and y's parameters per tensor).
std::vector<Value> convert_qlinear_conv(NodeContext& ctx) {
  ConvOperands operands = conv_operands(ctx, "convolution", 3);
  for (const auto& [i, name] : {std::pair<size_t, const char*>{1, "x_scale"},
                                {2, "x_zero_point"},
                                {6, "y_scale"},
                                {7, "y_zero_point"}}) {
    require_per_tensor(ctx, i, name);
  }
  Expr x = minus_zero_point(ctx, 0, "x", 2, "x_zero_point", 0);
  Expr w = minus_zero_point(ctx, 3, "w", 5, "w_zero_point", operands.spatial + 1);
  Expr acc = convolve(ctx, operands, x, w);
  if (ctx.has_input(8)) {
    DataType bias = input_tensor(ctx, 8, "B").dtype;
    if (bias != DataType::Int(32)) ctx.invalid("input 8 'B' must be int32, got " + bias.str());
    acc = add_channel_bias(ctx, acc, 8, operands.spatial);
  }
  Expr scales = binary(ctx, "multiply", scale_input(ctx, 1, "x_scale", 0),
                       scale_input(ctx, 4, "w_scale", operands.spatial));
  return single(requantize(ctx, acc, scales, 6, 0));
}

std::vector<Value> convert_conv_transpose(NodeContext& ctx) {
  auto [spatial, x, w] = conv_operands(ctx, "transposed convolution");
  std::vector<int64_t> kernel = weight_kernel(ctx, w, spatial);
  std::vector<int64_t> output_padding = spatial_attr(ctx, "output_padding", spatial, 0, 0);
  std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  bool has_output_shape = ctx.has_attr("output_shape");
  Window win = make_window(ctx, x, kernel, true);
  if (has_output_shape || auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    // The padding comes from the wanted output size: the full output is
    // stride * (in - 1) + output_padding + (kernel - 1) * dilation + 1; what exceeds the
    // wanted size is cut (the odd element at the end for SAME_UPPER, else at the
    // beginning), and a shortfall is added at the end as output padding.
    std::vector<int64_t> wanted;
    if (has_output_shape) {
      wanted = ctx.attr_ints("output_shape");
      if (wanted.size() == spatial + 2) wanted.erase(wanted.begin(), wanted.begin() + 2);
      if (wanted.size() != spatial) {
        ctx.invalid("attribute 'output_shape' has " + std::to_string(wanted.size()) +
                    " entries; the input has " + std::to_string(spatial) + " spatial dimension(s)");
      }
    }
    for (size_t i = 0; i < spatial; ++i) {
      int64_t in = static_dim(ctx, x, 2 + i, "X", "attribute 'output_shape' or auto_pad SAME");
      int64_t target = has_output_shape ? wanted[i] : in * win.strides[i];
      int64_t full =
          win.strides[i] * (in - 1) + output_padding[i] + (kernel[i] - 1) * win.dilations[i] + 1;
      int64_t total = full - target;
      if (total < 0) {
        win.pads[i] = win.pads[spatial + i] = 0;
        output_padding[i] -= total;
        continue;
      }
      int64_t small = total / 2, large = total - small;
      win.pads[i] = auto_pad == "SAME_UPPER" ? small : large;
      win.pads[spatial + i] = auto_pad == "SAME_UPPER" ? large : small;
    }
  }
  for (size_t i = 0; i < spatial; ++i) {
    if (output_padding[i] >= win.strides[i]) {
      ctx.unsupported("an output padding of " + std::to_string(output_padding[i]) +
                      " in spatial dimension " + std::to_string(i) +
                      " (from 'output_padding' or 'output_shape') is not below the stride");
    }
  }
  Expr data = ctx.tensor(0), weight = ctx.tensor(1);
  if (spatial == 1) {
    data = expand_dims(ctx, data, {2});
    weight = expand_dims(ctx, weight, {2});
    win = win.lifted();
    output_padding.insert(output_padding.begin(), 0);
  }
  Attrs attrs({{"strides", ints(win.strides)},
               {"padding", ints(win.pads)},
               {"output_padding", ints(output_padding)},
               {"dilation", ints(win.dilations)},
               {"groups", AttrValue::integer(ctx.attr_int("group", 1))}});
  Expr y = ctx.emit_op("relax.nn.conv2d_transpose", {data, weight}, attrs);
  if (spatial == 1) y = squeeze(ctx, y, {2});
  return single(add_channel_bias(ctx, y, 2, spatial));
}

// ---------------------------------------------------------------- pooling

// relax.nn.max_pool2d or avg_pool2d of `x` (N, C, spatial...) with `win`, a 1-D
// pooling run over a height of 1.
Expr pool(NodeContext& ctx, const std::string& op, Expr x, Window win, bool ceil_mode,
          bool count_include_pad) {
  bool one_d = win.spatial() == 1;
  if (one_d) {
    x = expand_dims(ctx, x, {2});
    win = win.lifted();
  }
  Attrs attrs({{"pool_size", ints(win.kernel)},
               {"strides", ints(win.strides)},
               {"dilation", ints(win.dilations)},
               {"padding", ints(win.pads)},
               {"ceil_mode", AttrValue::boolean(ceil_mode)},
               {"count_include_pad", AttrValue::boolean(count_include_pad)}});
  Expr y = ctx.emit_op("relax.nn." + op, {x}, attrs);
  return one_d ? squeeze(ctx, y, {2}) : y;
}

Window pool_window(const NodeContext& ctx, size_t spatial, bool has_dilations) {
  return make_window(ctx, input_dims(ctx, 0, "X"), spatial_attr(ctx, "kernel_shape", spatial, 1, 1),
                     has_dilations);
}

std::vector<Value> convert_max_pool(NodeContext& ctx) {
  if (has_output(ctx, 1)) {
    ctx.unsupported(
        "output 1 'Indices' is not supported: relaxc's max pooling gives the values "
        "only");
  }
  size_t spatial = spatial_rank(ctx, "max pooling");
  Window win = pool_window(ctx, spatial, true);
  return single(
      pool(ctx, "max_pool2d", ctx.tensor(0), win, ctx.attr_int("ceil_mode", 0) != 0, false));
}

std::vector<Value> convert_average_pool(NodeContext& ctx) {
  size_t spatial = spatial_rank(ctx, "average pooling");
  Window win = pool_window(ctx, spatial, false);
  return single(pool(ctx, "avg_pool2d", ctx.tensor(0), win, ctx.attr_int("ceil_mode", 0) != 0,
                     ctx.attr_int("count_include_pad", 0) != 0));
}

// The attribute 'p' of LpPool and GlobalLpPool: the norm's order.
int64_t lp_order(const NodeContext& ctx) {
  int64_t p = ctx.attr_int("p", 2);
  if (p < 1) ctx.invalid("attribute 'p' is " + std::to_string(p) + "; it must be at least 1");
  return p;
}

// |x|^p, and its inverse s^(1/p), with p = 1 and 2 spelled without power.
Expr abs_power(NodeContext& ctx, Expr x, int64_t p, DataType dtype) {
  Expr a = ctx.emit_op("relax.abs", {std::move(x)});
  if (p == 1) return a;
  if (p == 2) return binary(ctx, "multiply", a, a);
  return binary(ctx, "power", a, scalar_constant(ctx, dtype, static_cast<double>(p)));
}

Expr root(NodeContext& ctx, Expr s, int64_t p, DataType dtype) {
  if (p == 1) return s;
  if (p == 2) return ctx.emit_op("relax.sqrt", {std::move(s)});
  return binary(ctx, "power", s, scalar_constant(ctx, dtype, 1.0 / static_cast<double>(p)));
}

// LpPool: the window sum of |x|^p is the average with the padding counted (as zeros)
// times the window size.
std::vector<Value> convert_lp_pool(NodeContext& ctx) {
  size_t spatial = spatial_rank(ctx, "Lp pooling");
  DataType dtype = input_tensor(ctx, 0, "X").dtype;
  int64_t p = lp_order(ctx);
  Window win = pool_window(ctx, spatial, false);
  Expr average = pool(ctx, "avg_pool2d", abs_power(ctx, ctx.tensor(0), p, dtype), win, false, true);
  int64_t size =
      std::accumulate(win.kernel.begin(), win.kernel.end(), int64_t{1}, std::multiplies<int64_t>());
  Expr sum =
      binary(ctx, "multiply", average, scalar_constant(ctx, dtype, static_cast<double>(size)));
  return single(root(ctx, sum, p, dtype));
}

// GlobalAveragePool, GlobalMaxPool, GlobalLpPool: a reduction over every spatial
// dimension, kept as dimensions of 1.
std::vector<int64_t> spatial_axes(const NodeContext& ctx) {
  int ndim = input_tensor(ctx, 0, "X").ndim;
  if (ndim < 3) {
    ctx.invalid("input 0 'X' must have at least 3 dimensions (N, C, spatial...), got " +
                std::to_string(ndim));
  }
  return iota(2, ndim - 2);
}

Converter global_pool(const std::string& reduction) {
  return [reduction](NodeContext& ctx) {
    Attrs attrs({{"axis", ints(spatial_axes(ctx))}, {"keepdims", AttrValue::boolean(true)}});
    return single(ctx.emit_op("relax." + reduction, {ctx.tensor(0)}, attrs));
  };
}

std::vector<Value> convert_global_lp_pool(NodeContext& ctx) {
  DataType dtype = input_tensor(ctx, 0, "X").dtype;
  int64_t p = lp_order(ctx);
  Attrs attrs({{"axis", ints(spatial_axes(ctx))}, {"keepdims", AttrValue::boolean(true)}});
  Expr sum = ctx.emit_op("relax.sum", {abs_power(ctx, ctx.tensor(0), p, dtype)}, attrs);
  return single(root(ctx, sum, p, dtype));
}

// ---------------------------------------------------------------- normalizations

// BatchNormalization in inference normalizes with the given statistics. With
// training_mode = 1 (opset 14 on) the batch's statistics normalize (the mean and the
// biased variance over every axis but the channel) and outputs 1 and 2 are the running
// statistics, input * momentum + batch * (1 - momentum): relax.nn.batch_norm in training,
// whose momentum weighs the batch instead. Before opset 14 the training form (outputs 1
// to 4) is refused.
std::vector<Value> convert_batch_norm(NodeContext& ctx) {
  bool training = false;
  if (ctx.opset() >= 14) {
    int64_t mode = ctx.attr_int("training_mode", 0);
    if (mode != 0 && mode != 1) {
      ctx.invalid("attribute 'training_mode' is " + std::to_string(mode) + "; it must be 0 or 1");
    }
    training = mode == 1;
    if (!training && (has_output(ctx, 1) || has_output(ctx, 2))) {
      ctx.invalid(
          "outputs 1 and 2 (the running statistics) are given only with attribute "
          "'training_mode' = 1");
    }
  } else {
    for (size_t i = 1; i < 5; ++i) {
      if (has_output(ctx, i)) {
        ctx.unsupported("output " + std::to_string(i) +
                        " (a training statistic) is not supported before opset 14: relaxc "
                        "imports the inference form of BatchNormalization");
      }
    }
  }
  if (ctx.attr_int("spatial", 1) != 1) {
    ctx.unsupported(
        "attribute 'spatial' = 0 (statistics per element, not per channel) is not "
        "supported");
  }
  const relax::TensorStructInfoNode& x = input_tensor(ctx, 0, "X");
  if (x.ndim < 2) ctx.invalid("input 0 'X' must have at least 2 dimensions (N, C, ...)");
  static const char* const kParameters[] = {"scale", "B", "input_mean", "input_var"};
  for (size_t i = 1; i < 5; ++i) {
    DataType dtype = input_tensor_any_rank(ctx, i, kParameters[i - 1]).dtype;
    if (dtype != x.dtype) {
      ctx.unsupported("input " + std::to_string(i) + " '" + kParameters[i - 1] + "' is " +
                      dtype.str() + " and input 0 'X' " + x.dtype.str() +
                      "; relaxc's batch_norm takes one dtype");
    }
  }
  double momentum = ctx.attr_float("momentum", 0.9);
  if (training && !(momentum >= 0 && momentum <= 1)) {
    ctx.unsupported("attribute 'momentum' is " + std::to_string(momentum) +
                    "; relaxc's batch_norm takes a momentum in [0, 1]");
  }
  Attrs attrs({{"axis", AttrValue::integer(1)},
               {"epsilon", AttrValue::floating(ctx.attr_float("epsilon", 1e-5))},
               {"momentum", AttrValue::floating(1 - momentum)},
               {"training", AttrValue::boolean(training)}});
  Expr tuple = ctx.emit_op(
      "relax.nn.batch_norm",
      {ctx.tensor(0), ctx.tensor(1), ctx.tensor(2), ctx.tensor(3), ctx.tensor(4)}, attrs);
  relax::BlockBuilder& bb = ctx.builder();
  std::vector<Value> out = single(bb.tuple_get_item(tuple, 0));
  if (training) {
    out.push_back(Value{bb.tuple_get_item(tuple, 1), {}, {}});
    out.push_back(Value{bb.tuple_get_item(tuple, 2), {}, {}});
  }
  return out;
}

std::vector<Value> convert_instance_norm(NodeContext& ctx) {
  Attrs attrs({{"channel_axis", AttrValue::integer(1)},
               {"axes", ints(spatial_axes(ctx))},
               {"epsilon", AttrValue::floating(ctx.attr_float("epsilon", 1e-5))}});
  return single(
      ctx.emit_op("relax.nn.instance_norm", {ctx.tensor(0), ctx.tensor(1), ctx.tensor(2)}, attrs));
}

// LayerNormalization normalizes over dimensions axis.. in the stash type (float32),
// then returns Y in X's type; the optional outputs Mean and InvStdDev (stash type, the
// reduced dimensions kept as 1) are computed beside it when the node asks for them.
std::vector<Value> convert_layer_norm(NodeContext& ctx) {
  const relax::TensorStructInfoNode& x = input_tensor(ctx, 0, "X");
  int64_t ndim = x.ndim;
  int64_t axis = normalized_axis(ctx, ctx.attr_int("axis", -1), ndim, "attribute 'axis'");
  if (ctx.attr_int("stash_type", 1) != 1) {
    ctx.unsupported("attribute 'stash_type' = " + std::to_string(ctx.attr_int("stash_type")) +
                    " is not supported; only 1 (float32 statistics)");
  }
  double epsilon = ctx.attr_float("epsilon", 1e-5);
  std::vector<int64_t> axes = iota(axis, ndim - axis);
  DataType stash = DataType::Float(32);
  auto stashed = [&](Expr e) {
    return x.dtype == stash ? e
                            : ctx.emit_op("relax.astype", {std::move(e)},
                                          Attrs({{"dtype", AttrValue::data_type(stash)}}));
  };
  Expr data = stashed(ctx.tensor(0));
  Expr scale = stashed(ctx.tensor(1));
  Expr bias = ctx.has_input(2) ? stashed(ctx.tensor(2)) : ctx.emit_op("relax.zeros_like", {scale});
  Attrs attrs({{"axes", ints(axes)}, {"epsilon", AttrValue::floating(epsilon)}});
  Expr y = ctx.emit_op("relax.nn.layer_norm", {data, scale, bias}, attrs);
  if (x.dtype != stash) {
    y = ctx.emit_op("relax.astype", {y}, Attrs({{"dtype", AttrValue::data_type(x.dtype)}}));
  }
  std::vector<Value> out = single(y);
  if (!has_output(ctx, 1) && !has_output(ctx, 2)) return out;
  Attrs reduce({{"axis", ints(axes)}, {"keepdims", AttrValue::boolean(true)}});
  Expr mean = ctx.emit_op("relax.mean", {data}, reduce);
  Expr centered = binary(ctx, "subtract", data, mean);
  Expr variance = ctx.emit_op("relax.mean", {binary(ctx, "multiply", centered, centered)}, reduce);
  Expr inv_std_dev = ctx.emit_op(
      "relax.rsqrt", {binary(ctx, "add", variance, scalar_constant(ctx, stash, epsilon))});
  out.push_back(Value{mean, {}, {}});
  out.push_back(Value{inv_std_dev, {}, {}});
  return out;
}

// MeanVarianceNormalization: (X - mean) / (sqrt(variance) + 1e-9) over 'axes' (default
// [0, 2, 3]), as the operator's ONNX function body defines it; the variance is the mean
// of the squared deviations, which the body's E[X^2] - E[X]^2 equals without its
// cancellation.
std::vector<Value> convert_mean_variance_normalization(NodeContext& ctx) {
  const relax::TensorStructInfoNode& x = input_tensor(ctx, 0, "X");
  std::vector<int64_t> axes = normalized_axes(
      ctx, ctx.attr_ints("axes", std::vector<int64_t>{0, 2, 3}), x.ndim, "attribute 'axes'");
  Attrs reduce({{"axis", ints(axes)}, {"keepdims", AttrValue::boolean(true)}});
  Expr mean = ctx.emit_op("relax.mean", {ctx.tensor(0)}, reduce);
  Expr centered = binary(ctx, "subtract", ctx.tensor(0), mean);
  Expr variance = ctx.emit_op("relax.mean", {binary(ctx, "multiply", centered, centered)}, reduce);
  Expr deviation = binary(ctx, "add", ctx.emit_op("relax.sqrt", {variance}),
                          scalar_constant(ctx, x.dtype, 1e-9));
  return single(binary(ctx, "divide", centered, deviation));
}

// LRN: the sum of squares over a window of channels is an average pooling (padding
// counted) over the channel axis of x^2 seen as (N, 1, C, rest), times the window size;
// alpha / size * sum is therefore alpha * average.
std::vector<Value> convert_lrn(NodeContext& ctx) {
  std::vector<PrimExpr> dims = input_dims(ctx, 0, "X");
  if (dims.size() < 3) {
    ctx.invalid("input 0 'X' must have at least 3 dimensions (N, C, spatial...), got " +
                std::to_string(dims.size()));
  }
  DataType dtype = input_tensor(ctx, 0, "X").dtype;
  int64_t size = ctx.attr_int("size");
  if (size < 1)
    ctx.invalid("attribute 'size' is " + std::to_string(size) + "; it must be positive");
  Expr x = ctx.tensor(0);
  Expr squares = reshape(ctx, binary(ctx, "multiply", x, x),
                         {dims[0], tir::int_imm(DataType::Int(64), 1), dims[1],
                          dims_product(ctx, dims, 2, dims.size())});
  Window win{{size, 1}, {1, 1}, {1, 1}, {(size - 1) / 2, 0, size / 2, 0}};
  Expr average = reshape(ctx, pool(ctx, "avg_pool2d", squares, win, false, true), dims);
  Expr scaled =
      binary(ctx, "multiply", average, scalar_constant(ctx, dtype, ctx.attr_float("alpha", 1e-4)));
  Expr base = binary(ctx, "add", scaled, scalar_constant(ctx, dtype, ctx.attr_float("bias", 1.0)));
  Expr denominator =
      binary(ctx, "power", base, scalar_constant(ctx, dtype, ctx.attr_float("beta", 0.75)));
  return single(binary(ctx, "divide", x, denominator));
}

// ---------------------------------------------------------------- Softmax, LogSoftmax, Hardmax

// One-hot of the first maximum along `axis`, in x's dtype.
Expr hardmax(NodeContext& ctx, Expr x, int64_t axis, const std::vector<PrimExpr>& dims,
             DataType dtype) {
  Expr index = ctx.emit_op(
      "relax.argmax", {x},
      Attrs({{"axis", AttrValue::integer(axis)}, {"keepdims", AttrValue::boolean(true)}}));
  DataType i64 = DataType::Int(64);
  // iota, not relax.arange: the axis's dim may be symbolic.
  Expr positions = iota(ctx, dims[static_cast<size_t>(axis)], tir::int_imm(i64, 0), 1);
  std::vector<PrimExpr> along(dims.size(), tir::int_imm(i64, 1));
  along[static_cast<size_t>(axis)] = dims[static_cast<size_t>(axis)];
  Expr hot = binary(ctx, "equal", index, reshape(ctx, positions, along));
  return ctx.emit_op("relax.astype", {hot}, Attrs({{"dtype", AttrValue::data_type(dtype)}}));
}

// Before opset 13 these operators see the input as 2-D, dimensions before `axis`
// against the rest; from 13 they work along the one axis.
Converter softmax_like(const std::string& kind) {
  return [kind](NodeContext& ctx) {
    const relax::TensorStructInfoNode& info = input_tensor(ctx, 0, "input");
    int64_t ndim = info.ndim;
    bool coerced = ctx.opset() < 13;
    int64_t axis =
        normalized_axis(ctx, ctx.attr_int("axis", coerced ? 1 : -1), ndim, "attribute 'axis'");
    if (ndim == 0) ctx.invalid("input 0 'input' must have at least 1 dimension");
    Expr x = ctx.tensor(0);
    std::vector<PrimExpr> dims = input_dims(ctx, 0, "input");
    // Coercion changes nothing when `axis` is the last dimension.
    bool flatten = coerced && axis != ndim - 1;
    if (flatten) {
      dims = {dims_product(ctx, dims, 0, static_cast<size_t>(axis)),
              dims_product(ctx, dims, static_cast<size_t>(axis), dims.size())};
      x = reshape(ctx, x, dims);
      axis = 1;
    }
    Expr y = kind == "hardmax" ? hardmax(ctx, x, axis, dims, info.dtype)
                               : ctx.emit_op("relax.nn." + kind, {x},
                                             Attrs({{"axis", AttrValue::integer(axis)}}));
    if (flatten) y = reshape(ctx, y, input_dims(ctx, 0, "input"));
    return single(y);
  };
}

}  // namespace

void register_nn_converters(ConverterTable& table) {
  table.add("Gemm", 1, convert_gemm);
  table.add("MatMul", 1, convert_matmul);
  table.add("Einsum", 12, convert_einsum);
  table.add("Conv", 1, convert_conv);
  table.add("ConvTranspose", 1, convert_conv_transpose);
  table.add("MatMulInteger", 10, convert_matmul_integer);
  table.add("ConvInteger", 10, convert_conv_integer);
  table.add("QLinearMatMul", 10, convert_qlinear_matmul);
  table.add("QLinearConv", 10, convert_qlinear_conv);
  table.add("MaxPool", 1, convert_max_pool);
  table.add("AveragePool", 1, convert_average_pool);
  table.add("LpPool", 1, convert_lp_pool);
  table.add("GlobalAveragePool", 1, global_pool("mean"));
  table.add("GlobalMaxPool", 1, global_pool("max"));
  table.add("GlobalLpPool", 1, convert_global_lp_pool);
  table.add("BatchNormalization", 1, convert_batch_norm);
  table.add("InstanceNormalization", 1, convert_instance_norm);
  table.add("LayerNormalization", 17, convert_layer_norm);
  table.add("LRN", 1, convert_lrn);
  table.add("MeanVarianceNormalization", 9, convert_mean_variance_normalization);
  table.add("Softmax", 1, softmax_like("softmax"));
  table.add("LogSoftmax", 1, softmax_like("log_softmax"));
  table.add("Hardmax", 1, softmax_like("hardmax"));
}

}  // namespace relaxc::onnx_import
