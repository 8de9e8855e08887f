// Normalizations: nn.softmax, nn.log_softmax, and nn.layer_norm, nn.rms_norm,
// nn.group_norm, nn.instance_norm, nn.batch_norm (with TVM's tuple result).
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/struct_info_analysis.h"

namespace relaxc::relax {

namespace {

StructInfo infer_softmax(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  require_float_dtype(call, 0, x.dtype);
  int64_t axis = int_attr(call, "axis");
  if (x.ndim >= 0) normalize_axis(call, "axis", axis, x.ndim);
  return call->args[0]->struct_info;
}

// Checks argument `index` (a scale, shift or statistic) against the dimensions
// `axes` of argument 'data' (0): the same dtype, one dimension per axis, equal sizes.
void check_param(const CallNode* call, size_t index, const std::vector<int>& axes,
                 const std::string& axes_origin, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  const TensorStructInfoNode& param = tensor_arg(call, index);
  unify_dtypes(call, data.dtype, param.dtype, "data", op_arg_name(call, index));
  if (param.ndim >= 0 && param.ndim != static_cast<int>(axes.size())) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must have " << axes.size() << " dimension(s) (" << axes_origin
                           << "), got " << param.ndim;
  }
  const std::vector<PrimExpr>* data_dims = known_dims(data);
  const std::vector<PrimExpr>* param_dims = known_dims(param);
  if (data_dims == nullptr || param_dims == nullptr) return;
  for (size_t k = 0; k < axes.size(); ++k) {
    const PrimExpr& expected = (*data_dims)[axes[k]];
    if (prove_dim_equal((*param_dims)[k], expected, bb.analyzer()) == arith::Proof::False) {
      user_error(call->span) << op_display_name(call) << ": dimension " << k << " of argument '"
                             << op_arg_name(call, index) << "' is " << dim_str((*param_dims)[k])
                             << " but dimension " << axes[k] << " of argument 'data' is "
                             << dim_str(expected);
    }
  }
}

// The data's float tensor, checked: every normalization returns its StructInfo.
const TensorStructInfoNode& norm_data(const CallNode* call) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  require_float_dtype(call, 0, data.dtype);
  return data;
}

// layer_norm and rms_norm: the scale (and shift) have the shape of the normalized axes.
StructInfo infer_axes_norm(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = norm_data(call);
  std::vector<int64_t> axes = *optional_int_list_attr(call, "axes");
  float_attr(call, "epsilon");
  if (data.ndim < 0) return call->args[0]->struct_info;
  std::vector<int> normalized = normalize_axes(call, "axes", axes, data.ndim);
  for (size_t i = 1; i < call->args.size(); ++i) {
    check_param(call, i, normalized, "one per entry of attribute 'axes'", bb);
  }
  return call->args[0]->struct_info;
}

// group_norm and instance_norm: per-channel scale and shift.
StructInfo infer_channel_norm(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = norm_data(call);
  std::vector<int64_t> axes = *optional_int_list_attr(call, "axes");
  float_attr(call, "epsilon");
  const AttrValue* groups_attr = call->attrs.find("num_groups");
  int64_t groups = groups_attr != nullptr ? int_attr(call, "num_groups") : 1;
  if (groups <= 0) {
    user_error(call->span) << op_display_name(call)
                           << ": attribute 'num_groups' must be positive, got " << groups;
  }
  if (data.ndim < 0) return call->args[0]->struct_info;
  int channel = normalize_axis(call, "channel_axis", int_attr(call, "channel_axis"), data.ndim);
  for (int a : normalize_axes(call, "axes", axes, data.ndim)) {
    if (a == channel) {
      user_error(call->span) << op_display_name(call)
                             << ": attribute 'axes' contains the channel axis " << channel
                             << " (attribute 'channel_axis')";
    }
  }
  const std::vector<PrimExpr>* dims = known_dims(data);
  const int64_t* channels = dims != nullptr ? tir::as_const_int((*dims)[channel]) : nullptr;
  if (channels != nullptr && *channels % groups != 0) {
    user_error(call->span) << op_display_name(call) << ": attribute 'num_groups' (" << groups
                           << ") does not divide the " << *channels
                           << " channels of argument 'data' (dimension " << channel << ")";
  }
  for (size_t i = 1; i < call->args.size(); ++i) {
    check_param(call, i, {channel}, "the channels", bb);
  }
  return call->args[0]->struct_info;
}

// (normalized data, moving_mean, moving_var), as TVM returns them.
StructInfo infer_batch_norm(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = norm_data(call);
  float_attr(call, "epsilon");
  double momentum = float_attr(call, "momentum");
  if (momentum < 0 || momentum > 1) {
    user_error(call->span) << op_display_name(call) << ": attribute 'momentum' (" << momentum
                           << ") must be in [0, 1]";
  }
  if (data.ndim >= 0) {
    int axis = normalize_axis(call, "axis", int_attr(call, "axis"), data.ndim);
    for (size_t i = 1; i < call->args.size(); ++i) check_param(call, i, {axis}, "the channels", bb);
  }
  return tuple_sinfo(
      {call->args[0]->struct_info, call->args[3]->struct_info, call->args[4]->struct_info});
}

OpInfo norm_op(const std::string& name, std::vector<std::string> arg_names,
               std::vector<OpAttrSpec> attrs, InferStructInfoFn infer) {
  OpInfo info;
  info.name = "relax.nn." + name;
  info.num_required_args = static_cast<int>(arg_names.size());
  info.arg_names = std::move(arg_names);
  info.attrs = std::move(attrs);
  info.infer = std::move(infer);
  info.canonicalize = [](CallNode* call, const BlockBuilder&) { int_attr_to_list(call, "axes"); };
  return info;
}

}  // namespace

void register_nn_norm_ops() {
  for (const char* name : {"softmax", "log_softmax"}) {
    register_op(norm_op(name, {"data"}, {{"axis", AttrValue::integer(-1)}}, infer_softmax));
  }
  const AttrValue epsilon = AttrValue::floating(1e-5);
  const AttrValue yes = AttrValue::boolean(true);
  const OpAttrSpec axes{"axes", AttrValue::none(), true};
  register_op(norm_op("layer_norm", {"data", "gamma", "beta"},
                      {axes, {"epsilon", epsilon}, {"center", yes}, {"scale", yes}},
                      infer_axes_norm));
  register_op(norm_op("rms_norm", {"data", "weight"},
                      {{"axes", AttrValue::int_list({-1})}, {"epsilon", epsilon}},
                      infer_axes_norm));
  register_op(norm_op("group_norm", {"data", "gamma", "beta"},
                      {{"num_groups", AttrValue::none(), true},
                       {"channel_axis", AttrValue::none(), true},
                       axes,
                       {"epsilon", epsilon},
                       {"center", yes},
                       {"scale", yes}},
                      infer_channel_norm));
  register_op(norm_op("instance_norm", {"data", "gamma", "beta"},
                      {{"channel_axis", AttrValue::none(), true},
                       axes,
                       {"epsilon", epsilon},
                       {"center", yes},
                       {"scale", yes}},
                      infer_channel_norm));
  register_op(norm_op("batch_norm", {"data", "gamma", "beta", "moving_mean", "moving_var"},
                      {{"axis", AttrValue::none(), true},
                       {"epsilon", epsilon},
                       {"center", yes},
                       {"scale", yes},
                       {"momentum", AttrValue::floating(0.1)},
                       {"training", yes}},
                      infer_batch_norm));
}

}  // namespace relaxc::relax
