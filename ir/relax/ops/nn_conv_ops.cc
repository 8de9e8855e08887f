// Convolutions: nn.conv1d, nn.conv2d and nn.conv2d_transpose, with TVM's attributes
// (strides, padding, dilation, groups, layouts as permutations, out_dtype).
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/ops/spatial_attrs.h"
#include "ir/relax/struct_info_analysis.h"

namespace relaxc::relax {

namespace {

// The canonical layouts of a convolution of `spatial` (1 or 2) dimensions.
struct ConvForm {
  int spatial;
  bool transpose;  // the weight is (in channels, out channels per group, ...)

  std::string data_layout() const { return spatial == 1 ? "NCW" : "NCHW"; }
  std::string kernel_layout() const {
    return std::string(transpose ? "IO" : "OI") + (spatial == 1 ? "W" : "HW");
  }
};

void canonicalize_conv(CallNode* call, const ConvForm& form) {
  canonicalize_spatial_list(call, "strides", form.spatial, 1);
  canonicalize_padding(call, "padding", form.spatial);
  canonicalize_spatial_list(call, "dilation", form.spatial, 1);
  if (form.transpose) canonicalize_spatial_list(call, "output_padding", form.spatial, 0);
  int64_t groups = int_attr(call, "groups");
  if (groups < 1) {
    user_error(call->span) << op_display_name(call) << ": attribute 'groups' is " << groups
                           << "; it must be positive";
  }
  default_out_layout(call, "out_layout", "data_layout");
}

// "the 16 input channels of argument 'data' (dimension 1)"
std::string channels_of(const CallNode* call, const PrimExpr& count, const char* what, size_t arg,
                        int axis) {
  return "the " + dim_str(count) + " " + what + " channels of argument '" + op_arg_name(call, arg) +
         "' (dimension " + std::to_string(axis) + ")";
}

StructInfo infer_conv(const CallNode* call, const BlockBuilder& bb, const ConvForm& form) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  const TensorStructInfoNode& weight = tensor_arg(call, 1);
  Layout data_layout(call, "data_layout", form.data_layout());
  Layout kernel_layout(call, "kernel_layout", form.kernel_layout());
  Layout out_layout(call, "out_layout", form.data_layout());
  DataType dtype = dtype_attr(call, "out_dtype");
  if (dtype.is_void()) dtype = unify_dtypes(call, data.dtype, weight.dtype, "data", "weight");
  require_layout_ndim(call, 0, data.ndim, data_layout);
  require_layout_ndim(call, 1, weight.ndim, kernel_layout);
  const std::vector<PrimExpr>* data_dims = known_dims(data);
  const std::vector<PrimExpr>* weight_dims = known_dims(weight);
  if (data_dims == nullptr || weight_dims == nullptr) {
    return tensor_sinfo_ndim(out_layout.ndim(), dtype);
  }
  std::vector<PrimExpr> x = data_layout.to_canonical(*data_dims);
  std::vector<PrimExpr> w = kernel_layout.to_canonical(*weight_dims);
  int64_t groups = int_attr(call, "groups");
  std::vector<int64_t> strides = int_list(call, "strides");
  std::vector<int64_t> padding = int_list(call, "padding");
  std::vector<int64_t> dilation = int_list(call, "dilation");
  arith::Analyzer& analyzer = bb.analyzer();
  auto provably_not_divisible = [&](const PrimExpr& count) {
    return analyzer.can_prove(tir::ne(tir::floormod(count, const_dim(groups)), const_dim(0)));
  };
  int data_c = data_layout.axis('C');
  int kernel_i = kernel_layout.axis('I'), kernel_o = kernel_layout.axis('O');
  const PrimExpr& in_channels = x[1];
  // The weight's input channels: all of them for a transposed convolution, one group's
  // for a convolution.
  const PrimExpr& weight_in = form.transpose ? w[0] : w[1];
  const PrimExpr& weight_out = form.transpose ? w[1] : w[0];
  if (provably_not_divisible(in_channels)) {
    user_error(call->span) << op_display_name(call) << ": attribute 'groups' (" << groups
                           << ") does not divide "
                           << channels_of(call, in_channels, "input", 0, data_c);
  }
  PrimExpr expected_in = form.transpose ? weight_in : weight_in * groups;
  if (prove_dim_equal(in_channels, expected_in, analyzer) == arith::Proof::False) {
    user_error(call->span) << op_display_name(call) << ": "
                           << channels_of(call, in_channels, "input", 0, data_c)
                           << " do not match argument 'weight': " << dim_str(weight_in)
                           << (form.transpose ? " input channels" : " input channels per group")
                           << " (dimension " << kernel_i << ")"
                           << (form.transpose || groups == 1
                                   ? ""
                                   : " times 'groups' " + std::to_string(groups));
  }
  if (!form.transpose && provably_not_divisible(weight_out)) {
    user_error(call->span) << op_display_name(call) << ": attribute 'groups' (" << groups
                           << ") does not divide "
                           << channels_of(call, weight_out, "output", 1, kernel_o);
  }
  std::vector<PrimExpr> out = {
      x[0], form.transpose ? analyzer.simplify(weight_out * groups) : weight_out};
  std::string spatial_letters = form.data_layout().substr(2);
  for (int i = 0; i < form.spatial; ++i) {
    char letter = spatial_letters[i];
    const PrimExpr& input = x[2 + i];
    const PrimExpr& kernel = w[2 + i];
    if (form.transpose) {
      int64_t output_padding = int_list(call, "output_padding")[i];
      if (output_padding >= strides[i]) {
        user_error(call->span) << op_display_name(call) << ": attribute 'output_padding': entry "
                               << i << " (" << output_padding
                               << ") must be smaller than the stride (" << strides[i] << ")";
      }
      PrimExpr extent = analyzer.simplify((input - 1) * strides[i] -
                                          (padding[i] + padding[form.spatial + i]) +
                                          dilation[i] * (kernel - 1) + (output_padding + 1));
      const int64_t* known = tir::as_const_int(extent);
      if (known != nullptr && *known < 0) {
        user_error(call->span) << op_display_name(call) << ": output dimension "
                               << data_layout.axis(letter) << " would be " << *known
                               << "; the padding (" << padding[i] << ", "
                               << padding[form.spatial + i]
                               << ") removes more than the transposed convolution produces";
      }
      out.push_back(extent);
      continue;
    }
    WindowDim dim{
        input,
        kernel,
        strides[i],
        dilation[i],
        padding[i],
        padding[form.spatial + i],
        "dimension " + std::to_string(data_layout.axis(letter)) + " of argument 'data'",
        "dimension " + std::to_string(kernel_layout.axis(letter)) + " of argument 'weight'"};
    out.push_back(sliding_window_extent(call, dim, false, analyzer));
  }
  return tensor_sinfo(out_layout.from_canonical(out), dtype);
}

OpInfo conv_op(const std::string& name, const ConvForm& form) {
  OpInfo info;
  info.name = "relax.nn." + name;
  info.arg_names = {"data", "weight"};
  info.num_required_args = 2;
  std::vector<int64_t> ones(form.spatial, 1), zeros(form.spatial, 0);
  info.attrs = {{"strides", AttrValue::int_list(ones)},
                {"padding", AttrValue::int_list(std::vector<int64_t>(2 * form.spatial, 0))}};
  if (form.transpose) info.attrs.push_back({"output_padding", AttrValue::int_list(zeros)});
  info.attrs.push_back({"dilation", AttrValue::int_list(ones)});
  info.attrs.push_back({"groups", AttrValue::integer(1)});
  info.attrs.push_back({"data_layout", AttrValue::string(form.data_layout())});
  info.attrs.push_back({"kernel_layout", AttrValue::string(form.kernel_layout())});
  info.attrs.push_back({"out_layout", AttrValue::none()});
  info.attrs.push_back({"out_dtype", AttrValue::data_type(DataType::Void())});
  info.canonicalize = [form](CallNode* call, const BlockBuilder&) {
    canonicalize_conv(call, form);
  };
  info.infer = [form](const CallNode* call, const BlockBuilder& bb) {
    return infer_conv(call, bb, form);
  };
  return info;
}

}  // namespace

void register_nn_conv_ops() {
  register_op(conv_op("conv1d", {1, false}));
  register_op(conv_op("conv2d", {2, false}));
  register_op(conv_op("conv2d_transpose", {2, true}));
}

}  // namespace relaxc::relax
