// Unary operators: element-wise math (exp, sqrt, sin, ...), the checks with bool results
// (isnan, isinf, isfinite), clip, and the activations of R.nn (relu, gelu, silu,
// softplus, prelu, dropout, ...).
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/struct_info_analysis.h"

namespace relaxc::relax {

namespace {

// What a unary operator requires of its input's dtype, as TVM 0.23 requires it (integer
// for bitwise_not, where TVM leaves the error to code generation).
enum class DTypeRule { Any, Float, Integer };

void check_input_dtype(const CallNode* call, DTypeRule rule, DataType dtype) {
  if (rule == DTypeRule::Float) require_float_dtype(call, 0, dtype);
  if (rule == DTypeRule::Integer && !dtype.is_void() && !dtype.is_int() && !dtype.is_uint() &&
      !dtype.is_bool()) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, 0)
                           << "' must have an integer or bool dtype, got " << dtype.str();
  }
}

// The input's StructInfo with another dtype.
StructInfo with_dtype(const TensorStructInfoNode& x, DataType dtype) {
  if (x.shape.defined()) return tensor_sinfo_shape(x.shape, dtype);
  return tensor_sinfo_ndim(x.ndim, dtype);
}

// Same shape and dtype as the input.
InferStructInfoFn infer_unary(DTypeRule rule) {
  return [rule](const CallNode* call, const BlockBuilder&) {
    check_input_dtype(call, rule, tensor_arg(call, 0).dtype);
    return call->args[0]->struct_info;
  };
}

StructInfo infer_check(const CallNode* call, const BlockBuilder&) {
  return with_dtype(tensor_arg(call, 0), DataType::Bool());
}

StructInfo infer_clip(const CallNode* call, const BlockBuilder&) {
  tensor_arg(call, 0);
  prim_arg(call, 1);
  prim_arg(call, 2);
  return call->args[0]->struct_info;
}

StructInfo infer_leakyrelu(const CallNode* call, const BlockBuilder&) {
  require_float_dtype(call, 0, tensor_arg(call, 0).dtype);
  float_attr(call, "alpha");
  return call->args[0]->struct_info;
}

StructInfo infer_softplus(const CallNode* call, const BlockBuilder&) {
  require_float_dtype(call, 0, tensor_arg(call, 0).dtype);
  if (float_attr(call, "beta") == 0.0) {
    user_error(call->span) << op_display_name(call) << ": attribute 'beta' must not be 0";
  }
  float_attr(call, "threshold");
  return call->args[0]->struct_info;
}

// prelu(data, alpha, axis): alpha holds one slope per channel of `axis` (or one for all).
StructInfo infer_prelu(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  const TensorStructInfoNode& alpha = tensor_arg(call, 1);
  require_float_dtype(call, 0, data.dtype);
  unify_dtypes(call, data.dtype, alpha.dtype, "data", "alpha");
  if (alpha.ndim > 1) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'alpha' must be a 1-d tensor of slopes, got "
                           << alpha.ndim << " dimensions";
  }
  int64_t axis = int_attr(call, "axis");
  if (data.ndim < 0) return call->args[0]->struct_info;
  int a = normalize_axis(call, "axis", axis, data.ndim);
  const std::vector<PrimExpr>* data_dims = known_dims(data);
  const std::vector<PrimExpr>* alpha_dims = known_dims(alpha);
  if (data_dims != nullptr && alpha_dims != nullptr && alpha.ndim == 1) {
    const PrimExpr& slopes = (*alpha_dims)[0];
    const PrimExpr& channels = (*data_dims)[a];
    if (!tir::is_const_int(slopes, 1) &&
        prove_dim_equal(slopes, channels, bb.analyzer()) == arith::Proof::False) {
      user_error(call->span) << op_display_name(call) << ": argument 'alpha' has "
                             << dim_str(slopes) << " slopes but dimension " << a
                             << " (attribute 'axis') of argument 'data' has " << dim_str(channels)
                             << " channels";
    }
  }
  return call->args[0]->struct_info;
}

// At inference dropout is the identity; TVM's result is (output, mask), both the input's
// StructInfo.
StructInfo infer_dropout(const CallNode* call, const BlockBuilder&) {
  tensor_arg(call, 0);
  double rate = float_attr(call, "rate");
  if (rate < 0.0 || rate >= 1.0) {
    user_error(call->span) << op_display_name(call) << ": attribute 'rate' (" << rate
                           << ") must be in [0, 1)";
  }
  return tuple_sinfo({call->args[0]->struct_info, call->args[0]->struct_info});
}

}  // namespace

void register_unary_ops() {
  for (const char* name :
       {"acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "exp", "log", "rsqrt",
        "sigmoid", "sin", "sinh", "sqrt", "tan", "tanh", "erf"}) {
    register_op(make_op(name, {"x"}, infer_unary(DTypeRule::Float)));
  }
  for (const char* name :
       {"abs", "ceil", "floor", "logical_not", "negative", "round", "sign", "square", "trunc"}) {
    register_op(make_op(name, {"x"}, infer_unary(DTypeRule::Any)));
  }
  register_op(make_op("bitwise_not", {"x"}, infer_unary(DTypeRule::Integer)));
  for (const char* name : {"isfinite", "isinf", "isnan"}) {
    register_op(make_op(name, {"x"}, infer_check));
  }
  register_op(make_op("clip", {"x", "min", "max"}, infer_clip));

  register_op(make_op("nn.relu", {"data"}, infer_unary(DTypeRule::Any)));
  for (const char* name : {"nn.gelu", "nn.gelu_tanh", "nn.silu"}) {
    register_op(make_op(name, {"data"}, infer_unary(DTypeRule::Float)));
  }
  register_op(
      make_op("nn.leakyrelu", {"data"}, infer_leakyrelu, {{"alpha", AttrValue::floating(0.01)}}));
  register_op(
      make_op("nn.softplus", {"data"}, infer_softplus,
              {{"beta", AttrValue::floating(1.0)}, {"threshold", AttrValue::floating(20.0)}}));
  register_op(
      make_op("nn.prelu", {"data", "alpha"}, infer_prelu, {{"axis", AttrValue::integer(1)}}));
  register_op(make_op("nn.dropout", {"data"}, infer_dropout, {{"rate", AttrValue::floating(0.5)}}));
}

}  // namespace relaxc::relax
