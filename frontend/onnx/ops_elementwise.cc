// Converters of the elementwise ONNX operators: arithmetic, comparison and logic with
// NumPy broadcasting, math functions, activations, Cast/CastLike, Clip, Where, the
// variadic Sum/Mean/Max/Min, and (Dynamic)QuantizeLinear/DequantizeLinear. Each becomes
// Relax operators of ir/relax/ops/ (activations without an operator of their own are
// composed from the elementwise ones). Arithmetic on shapes never reaches them: the
// importer folds it first (shape_values.h).
#include <cmath>
#include <sstream>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"

namespace relaxc::onnx_import {

namespace {

using relax::Expr;

const relax::TensorStructInfoNode& tensor_info(const Expr& expr) {
  const auto* info = expr->struct_info.as<relax::TensorStructInfoNode>();
  RELAXC_ICHECK(info != nullptr) << "the importer gives converters tensors only";
  return *info;
}

DataType tensor_dtype(const Expr& expr) { return tensor_info(expr).dtype; }

Expr call(NodeContext& ctx, const std::string& op, std::vector<Expr> args, Attrs attrs = {}) {
  return ctx.emit_op("relax." + op, std::move(args), std::move(attrs));
}

// -------------------------------------------------------------------- dtypes

// x converted to `dtype` with ONNX's rules: to bool, nonzero is true (a plain
// conversion would keep the lowest bit); otherwise a C conversion (floats to integers
// truncate toward zero).
Expr convert(NodeContext& ctx, const Expr& x, DataType dtype) {
  DataType from = tensor_dtype(x);
  if (from == dtype) return x;
  if (dtype.is_bool()) return call(ctx, "not_equal", {x, scalar_constant(ctx, from, 0)});
  return call(ctx, "astype", {x}, Attrs({{"dtype", AttrValue::data_type(dtype)}}));
}

std::vector<Value> convert_cast(NodeContext& ctx) {
  return single(convert(ctx, ctx.tensor(0), attr_element_type(ctx, "to")));
}

std::vector<Value> convert_cast_like(NodeContext& ctx) {
  return single(convert(ctx, ctx.tensor(0), tensor_dtype(ctx.tensor(1))));
}

// ------------------------------------------------------------------ arithmetic

// A binary operator with NumPy broadcasting.
Converter binary(const std::string& op) {
  return [op](NodeContext& ctx) { return single(call(ctx, op, {ctx.tensor(0), ctx.tensor(1)})); };
}

// Pow: since opset 12 the exponent may have another dtype than the base; the result has
// the base's. A float exponent of an integer base is applied in float and the result
// truncated, as a C conversion of the power.
std::vector<Value> convert_pow(NodeContext& ctx) {
  Expr base = ctx.tensor(0);
  Expr exponent = ctx.tensor(1);
  DataType base_dtype = tensor_dtype(base);
  DataType exponent_dtype = tensor_dtype(exponent);
  if (base_dtype.is_float() || !exponent_dtype.is_float()) {
    return single(call(ctx, "power", {base, convert(ctx, exponent, base_dtype)}));
  }
  Expr power = call(ctx, "power", {convert(ctx, base, exponent_dtype), exponent});
  return single(convert(ctx, power, base_dtype));
}

// Mod: fmod=1 takes the dividend's sign (C's fmod), fmod=0 the divisor's (Python's %),
// which ONNX defines for integers only.
std::vector<Value> convert_mod(NodeContext& ctx) {
  int64_t fmod = ctx.attr_int("fmod", 0);
  if (fmod != 0 && fmod != 1) {
    ctx.invalid("attribute 'fmod' must be 0 or 1, got " + std::to_string(fmod));
  }
  if (fmod == 0 && tensor_dtype(ctx.tensor(0)).is_float()) {
    ctx.invalid("attribute 'fmod' must be 1 for floating-point inputs (" +
                tensor_dtype(ctx.tensor(0)).str() + ")");
  }
  return single(call(ctx, fmod == 1 ? "mod" : "floor_mod", {ctx.tensor(0), ctx.tensor(1)}));
}

std::vector<Value> convert_bit_shift(NodeContext& ctx) {
  std::string direction = ctx.attr_string("direction");
  if (direction != "LEFT" && direction != "RIGHT") {
    ctx.invalid("attribute 'direction' must be \"LEFT\" or \"RIGHT\", got \"" + direction + "\"");
  }
  return single(call(ctx, direction == "LEFT" ? "left_shift" : "right_shift",
                     {ctx.tensor(0), ctx.tensor(1)}));
}

// A left fold of a binary operator over every input (one input is the identity): Sum,
// Max, Min and Mean's sum.
Expr fold(NodeContext& ctx, const std::string& op) {
  if (ctx.num_inputs() == 0) ctx.invalid("expected at least one input");
  Expr acc = ctx.tensor(0);
  for (size_t k = 1; k < ctx.num_inputs(); ++k) acc = call(ctx, op, {acc, ctx.tensor(k)});
  return acc;
}

Converter variadic(const std::string& op) {
  return [op](NodeContext& ctx) { return single(fold(ctx, op)); };
}

std::vector<Value> convert_mean(NodeContext& ctx) {
  Expr sum = fold(ctx, "add");
  auto count = static_cast<double>(ctx.num_inputs());
  return single(call(ctx, "divide", {sum, scalar_constant(ctx, tensor_dtype(sum), count)}));
}

// ------------------------------------------------------------------- unary math

Converter unary(const std::string& op) {
  return [op](NodeContext& ctx) { return single(call(ctx, op, {ctx.tensor(0)})); };
}

std::vector<Value> convert_reciprocal(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  return single(call(ctx, "divide", {scalar_constant(ctx, tensor_dtype(x), 1), x}));
}

// IsInf(detect_positive, detect_negative): the infinities of the signs asked for.
std::vector<Value> convert_is_inf(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  bool positive = ctx.attr_int("detect_positive", 1) != 0;
  bool negative = ctx.attr_int("detect_negative", 1) != 0;
  if (!positive && !negative) {
    return single(
        call(ctx, "zeros_like", {x}, Attrs({{"dtype", AttrValue::data_type(DataType::Bool())}})));
  }
  Expr inf = call(ctx, "isinf", {x});
  if (positive && negative) return single(inf);
  Expr sign =
      call(ctx, positive ? "greater" : "less", {x, scalar_constant(ctx, tensor_dtype(x), 0)});
  return single(call(ctx, "logical_and", {inf, sign}));
}

// -------------------------------------------------------------------- activations

// x where x >= 0, else `negative`.
Expr where_negative(NodeContext& ctx, const Expr& x, const Expr& negative) {
  Expr is_negative = call(ctx, "less", {x, scalar_constant(ctx, tensor_dtype(x), 0)});
  return call(ctx, "where", {is_negative, negative, x});
}

std::vector<Value> convert_leaky_relu(NodeContext& ctx) {
  double alpha = ctx.attr_float("alpha", 0.01);
  return single(
      call(ctx, "nn.leakyrelu", {ctx.tensor(0)}, Attrs({{"alpha", AttrValue::floating(alpha)}})));
}

// PRelu: the slope broadcasts to x (unidirectionally, since opset 7), so any slope shape
// ONNX allows is a multiply with broadcasting.
std::vector<Value> convert_prelu(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  return single(where_negative(ctx, x, call(ctx, "multiply", {x, ctx.tensor(1)})));
}

// alpha * (exp(x) - 1), the negative part of Elu and (scaled) Selu.
Expr exp_minus_one(NodeContext& ctx, const Expr& x, double alpha) {
  DataType dtype = tensor_dtype(x);
  Expr expm1 = call(ctx, "subtract", {call(ctx, "exp", {x}), scalar_constant(ctx, dtype, 1)});
  return call(ctx, "multiply", {expm1, scalar_constant(ctx, dtype, alpha)});
}

std::vector<Value> convert_elu(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  return single(where_negative(ctx, x, exp_minus_one(ctx, x, ctx.attr_float("alpha", 1.0))));
}

// Selu: gamma * x for x > 0, gamma * alpha * (exp(x) - 1) for x <= 0 (both 0 at 0).
std::vector<Value> convert_selu(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  double alpha = ctx.attr_float("alpha", 1.67326319217681884765625);
  double gamma = ctx.attr_float("gamma", 1.05070102214813232421875);
  Expr elu = where_negative(ctx, x, exp_minus_one(ctx, x, alpha));
  return single(call(ctx, "multiply", {elu, scalar_constant(ctx, tensor_dtype(x), gamma)}));
}

// Celu: max(0, x) + min(0, alpha * (exp(x / alpha) - 1)), the Elu of x / alpha scaled.
std::vector<Value> convert_celu(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  double alpha = ctx.attr_float("alpha", 1.0);
  if (alpha == 0.0) ctx.invalid("attribute 'alpha' must not be 0");
  Expr scaled = call(ctx, "divide", {x, scalar_constant(ctx, tensor_dtype(x), alpha)});
  return single(where_negative(ctx, x, exp_minus_one(ctx, scaled, alpha)));
}

std::vector<Value> convert_hard_sigmoid(NodeContext& ctx) {
  return single(
      hard_sigmoid(ctx, ctx.tensor(0), ctx.attr_float("alpha", 0.2), ctx.attr_float("beta", 0.5)));
}

std::vector<Value> convert_hard_swish(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  return single(call(ctx, "multiply", {x, hard_sigmoid(ctx, x, 1.0 / 6.0, 0.5)}));
}

// Softplus is log(exp(x) + 1); relax's softplus returns x itself past the threshold,
// where the two agree to float precision.
std::vector<Value> convert_softplus(NodeContext& ctx) {
  return single(
      call(ctx, "nn.softplus", {ctx.tensor(0)},
           Attrs({{"beta", AttrValue::floating(1.0)}, {"threshold", AttrValue::floating(20.0)}})));
}

std::vector<Value> convert_softsign(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  Expr denominator =
      call(ctx, "add", {call(ctx, "abs", {x}), scalar_constant(ctx, tensor_dtype(x), 1)});
  return single(call(ctx, "divide", {x, denominator}));
}

std::vector<Value> convert_thresholded_relu(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  DataType dtype = tensor_dtype(x);
  Expr above = call(ctx, "greater", {x, scalar_constant(ctx, dtype, ctx.attr_float("alpha", 1.0))});
  return single(call(ctx, "where", {above, x, scalar_constant(ctx, dtype, 0)}));
}

// Shrink: x + bias below -lambd, x - bias above lambd, 0 between. On integer inputs the
// constants convert toward zero and saturate to the dtype's range, which keeps the
// strict comparisons exact (an integer is above 1.5 exactly when it is above 1, and
// above 7e22 exactly when it is above the largest int32: never).
std::vector<Value> convert_shrink(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  DataType dtype = tensor_dtype(x);
  double bias = ctx.attr_float("bias", 0.0);
  double lambd = ctx.attr_float("lambd", 0.5);
  if (dtype.is_integer() && bias != std::trunc(bias)) {
    std::ostringstream message;
    message << "attribute 'bias' (" << bias << ") is not a whole number, on an input of dtype "
            << dtype.str();
    ctx.unsupported(message.str());
  }
  Expr below = call(ctx, "less", {x, scalar_constant(ctx, dtype, -lambd)});
  Expr above = call(ctx, "greater", {x, scalar_constant(ctx, dtype, lambd)});
  Expr middle = call(ctx, "where",
                     {above, call(ctx, "subtract", {x, scalar_constant(ctx, dtype, bias)}),
                      scalar_constant(ctx, dtype, 0)});
  return single(call(ctx, "where",
                     {below, call(ctx, "add", {x, scalar_constant(ctx, dtype, bias)}), middle}));
}

// ------------------------------------------------------------------------ Clip

// Clip before opset 11: the bounds are attributes (absent: unbounded).
std::vector<Value> convert_clip_6(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  DataType dtype = tensor_dtype(x);
  if (ctx.has_attr("min"))
    x = call(ctx, "maximum", {x, scalar_constant(ctx, dtype, ctx.attr_float("min"))});
  if (ctx.has_attr("max"))
    x = call(ctx, "minimum", {x, scalar_constant(ctx, dtype, ctx.attr_float("max"))});
  return single(x);
}

// Clip from opset 11: the bounds are optional 0-d inputs, known or not at import.
std::vector<Value> convert_clip_11(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  for (size_t k : {1, 2}) {
    if (!ctx.has_input(k)) continue;
    const relax::TensorStructInfoNode& bound = tensor_info(ctx.tensor(k));
    if (bound.ndim > 0) {
      ctx.invalid(std::string("input ") + std::to_string(k) + " '" + (k == 1 ? "min" : "max") +
                  "' must be a scalar (0-d), got " + std::to_string(bound.ndim) + " dimensions");
    }
    x = call(ctx, k == 1 ? "maximum" : "minimum", {x, ctx.tensor(k)});
  }
  return single(x);
}

std::vector<Value> convert_where(NodeContext& ctx) {
  return single(call(ctx, "where", {ctx.tensor(0), ctx.tensor(1), ctx.tensor(2)}));
}

// ------------------------------------------------------------------ quantization

// A quantization parameter (scale or zero point) shaped to broadcast against x: a scalar
// as it is, a 1-D one (one per channel of attribute 'axis', opset 13 on) with trailing
// dims of 1.
Expr along_axis(NodeContext& ctx, size_t input, const Expr& x) {
  Expr param = ctx.tensor(input);
  int ndim = tensor_info(param).ndim;
  if (ndim == 0) return param;
  int64_t rank = tensor_info(x).ndim;
  if (ndim != 1) {
    ctx.invalid("input " + std::to_string(input) + " must be a scalar or 1-D, got " +
                std::to_string(ndim) + " dimensions");
  }
  int64_t axis = normalized_axis(ctx, ctx.attr_int("axis", 1), rank, "attribute 'axis'");
  std::vector<int64_t> trailing;
  for (int64_t k = 1; k < rank - axis; ++k) trailing.push_back(k);
  if (trailing.empty()) return param;
  return call(ctx, "expand_dims", {param}, Attrs({{"axis", AttrValue::int_list(trailing)}}));
}

// DequantizeLinear: (x - zero_point) * scale, the difference taken in int32.
std::vector<Value> convert_dequantize_linear(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  Expr scale = along_axis(ctx, 1, x);
  Expr difference = convert(ctx, x, DataType::Int(32));
  if (ctx.has_input(2)) {
    Expr zero_point = convert(ctx, along_axis(ctx, 2, x), DataType::Int(32));
    difference = call(ctx, "subtract", {difference, zero_point});
  }
  Expr real = convert(ctx, difference, tensor_dtype(scale));
  return single(call(ctx, "multiply", {real, scale}));
}

// QuantizeLinear: round(x / scale) + zero_point (halves to even), saturated to the
// zero point's type (uint8 without one).
std::vector<Value> convert_quantize_linear(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  Expr scale = along_axis(ctx, 1, x);
  DataType real = tensor_dtype(scale);
  DataType quantized = ctx.has_input(2) ? tensor_dtype(ctx.tensor(2)) : DataType::UInt(8);
  if (quantized != DataType::UInt(8) && quantized != DataType::Int(8)) {
    ctx.invalid("input 2 'y_zero_point' must be uint8 or int8, got " + quantized.str());
  }
  Expr steps = call(ctx, "divide", {convert(ctx, x, real), scale});
  Expr zero_point = ctx.has_input(2) ? convert(ctx, along_axis(ctx, 2, x), real) : Expr();
  return single(quantize_steps(ctx, steps, zero_point, quantized));
}

// DynamicQuantizeLinear: uint8 quantization of x over the range of its values widened to
// hold 0; the scale and zero point are outputs too.
std::vector<Value> convert_dynamic_quantize_linear(NodeContext& ctx) {
  Expr x = ctx.tensor(0);
  DataType real = tensor_dtype(x);
  Attrs all_axes({{"axis", AttrValue::none()}, {"keepdims", AttrValue::boolean(false)}});
  Expr zero = scalar_constant(ctx, real, 0);
  // v saturated to [0, 255].
  auto saturate = [&](const Expr& v) {
    return call(ctx, "minimum", {call(ctx, "maximum", {v, zero}), scalar_constant(ctx, real, 255)});
  };
  auto round = [&](const Expr& v) { return call(ctx, "round", {v}); };
  Expr low = call(ctx, "minimum", {call(ctx, "min", {x}, all_axes), zero});
  Expr high = call(ctx, "maximum", {call(ctx, "max", {x}, all_axes), zero});
  Expr scale =
      call(ctx, "divide", {call(ctx, "subtract", {high, low}), scalar_constant(ctx, real, 255)});
  Expr point = saturate(round(call(ctx, "negative", {call(ctx, "divide", {low, scale})})));
  // Rounded before the zero point is added: halves go to even of x / scale.
  Expr y = saturate(call(ctx, "add", {round(call(ctx, "divide", {x, scale})), point}));
  return {Value{convert(ctx, y, DataType::UInt(8)), {}, {}}, Value{scale, {}, {}},
          Value{convert(ctx, point, DataType::UInt(8)), {}, {}}};
}

}  // namespace

void register_elementwise_converters(ConverterTable& table) {
  // relaxc imports opsets from 7; a converter registered at 1 or 6 covers every later
  // opset in which the operator means the same (new dtypes only).
  table.add("Add", 7, binary("add"));
  table.add("Sub", 7, binary("subtract"));
  table.add("Mul", 7, binary("multiply"));
  // Integer Div truncates toward zero (C's division, as ONNX Runtime computes it).
  table.add("Div", 7, binary("divide"));
  table.add("Pow", 7, convert_pow);
  table.add("Mod", 10, convert_mod);
  table.add("BitShift", 11, convert_bit_shift);
  table.add("Sum", 6, variadic("add"));
  table.add("Mean", 6, convert_mean);
  table.add("Max", 6, variadic("maximum"));
  table.add("Min", 6, variadic("minimum"));

  table.add("Equal", 7, binary("equal"));
  table.add("Less", 7, binary("less"));
  table.add("Greater", 7, binary("greater"));
  table.add("LessOrEqual", 12, binary("less_equal"));
  table.add("GreaterOrEqual", 12, binary("greater_equal"));
  table.add("And", 7, binary("logical_and"));
  table.add("Or", 7, binary("logical_or"));
  table.add("Xor", 7, binary("logical_xor"));
  table.add("Where", 9, convert_where);

  struct Unary {
    const char* onnx_op;
    int64_t since;
    const char* relax_op;
  };
  // Round halves to even, as relax.round does.
  for (const Unary& u : std::initializer_list<Unary>{
           {"Neg", 6, "negative"}, {"Abs", 6, "abs"},        {"Sign", 9, "sign"},
           {"Floor", 6, "floor"},  {"Ceil", 6, "ceil"},      {"Round", 11, "round"},
           {"Sqrt", 6, "sqrt"},    {"Exp", 6, "exp"},        {"Log", 6, "log"},
           {"Tanh", 6, "tanh"},    {"Sin", 7, "sin"},        {"Cos", 7, "cos"},
           {"Tan", 7, "tan"},      {"Asin", 7, "asin"},      {"Acos", 7, "acos"},
           {"Atan", 7, "atan"},    {"Sinh", 9, "sinh"},      {"Cosh", 9, "cosh"},
           {"Asinh", 9, "asinh"},  {"Acosh", 9, "acosh"},    {"Atanh", 9, "atanh"},
           {"Erf", 9, "erf"},      {"IsNaN", 9, "isnan"},    {"Not", 1, "logical_not"},
           {"Relu", 6, "nn.relu"}, {"Sigmoid", 6, "sigmoid"}}) {
    table.add(u.onnx_op, u.since, unary(u.relax_op));
  }
  table.add("Reciprocal", 6, convert_reciprocal);
  table.add("IsInf", 10, convert_is_inf);

  table.add("LeakyRelu", 6, convert_leaky_relu);
  table.add("PRelu", 7, convert_prelu);
  table.add("Elu", 6, convert_elu);
  table.add("Selu", 6, convert_selu);
  table.add("Celu", 12, convert_celu);
  table.add("HardSigmoid", 6, convert_hard_sigmoid);
  table.add("HardSwish", 14, convert_hard_swish);
  table.add("Softplus", 1, convert_softplus);
  table.add("Softsign", 1, convert_softsign);
  table.add("ThresholdedRelu", 10, convert_thresholded_relu);
  table.add("Shrink", 9, convert_shrink);
  table.add("Clip", 6, convert_clip_6);
  table.add("Clip", 11, convert_clip_11);

  // Opset 13 added per-axis parameters (attribute 'axis'); opset 10's are scalars.
  table.add("QuantizeLinear", 10, convert_quantize_linear);
  table.add("DequantizeLinear", 10, convert_dequantize_linear);
  table.add("DynamicQuantizeLinear", 11, convert_dynamic_quantize_linear);
  table.add("Cast", 6, convert_cast);
  table.add("CastLike", 15, convert_cast_like);
}

}  // namespace relaxc::onnx_import
