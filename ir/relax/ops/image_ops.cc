// Padding and resizing: nn.pad (constant, reflect, edge) and image.resize2d (TVM's
// methods, coordinate transformation modes and rounding methods).
#include "ir/arith/int_math.h"
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/ops/spatial_attrs.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

// A UserError unless string attribute `attr` is one of `allowed`; the value otherwise.
std::string choice_attr(const CallNode* call, const std::string& attr,
                        const std::vector<std::string>& allowed) {
  std::string value = string_attr(call, attr);
  std::string list;
  for (const std::string& a : allowed) {
    if (a == value) return value;
    list += (list.empty() ? "\"" : ", \"") + a + "\"";
  }
  user_error(call->span) << op_display_name(call) << ": attribute '" << attr << "' is \"" << value
                         << "\"; expected one of " << list;
}

// ---------------------------------------------------------------- nn.pad

StructInfo infer_pad(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  std::optional<std::vector<int64_t>> widths = optional_int_list_attr(call, "pad_width");
  if (!widths) {
    user_error(call->span) << op_display_name(call)
                           << ": attribute 'pad_width' must be a list of integers";
  }
  std::string mode = choice_attr(call, "pad_mode", {"constant", "reflect", "edge"});
  float_attr(call, "pad_value");
  if (data.ndim >= 0 && widths->size() != 2 * static_cast<size_t>(data.ndim)) {
    user_error(call->span) << op_display_name(call) << ": attribute 'pad_width' has "
                           << widths->size() << " entries; argument 'data' has " << data.ndim
                           << " dimension(s), so it needs " << 2 * data.ndim
                           << " (before and after each)";
  }
  for (size_t i = 0; i < widths->size(); ++i) {
    if ((*widths)[i] < 0) {
      user_error(call->span) << op_display_name(call) << ": attribute 'pad_width': entry " << i
                             << " is " << (*widths)[i] << "; padding must be non-negative";
    }
  }
  const std::vector<PrimExpr>* dims = known_dims(data);
  if (data.ndim < 0) return tensor_sinfo_ndim(static_cast<int>(widths->size() / 2), data.dtype);
  if (dims == nullptr) return tensor_sinfo_ndim(data.ndim, data.dtype);
  arith::Analyzer& analyzer = bb.analyzer();
  std::vector<PrimExpr> out;
  for (int i = 0; i < data.ndim; ++i) {
    int64_t before = (*widths)[2 * i], after = (*widths)[2 * i + 1];
    const PrimExpr& dim = (*dims)[i];
    // Reflection mirrors around the edge element, so it reaches at most dim - 1 away.
    if (mode == "reflect" &&
        analyzer.can_prove(tir::lt(dim - 1, const_dim(std::max(before, after))))) {
      user_error(call->span) << op_display_name(call) << ": attribute 'pad_width' pads dimension "
                             << i << " of argument 'data' (" << dim_str(dim) << ") by " << before
                             << " and " << after
                             << "; \"reflect\" padding must be smaller than the dimension";
    }
    std::optional<int64_t> added = arith::checked_add(before, after);
    const int64_t* known = tir::as_const_int(dim);
    if (!added || (known != nullptr && !arith::checked_add(*known, *added))) {
      user_error(call->span) << op_display_name(call) << ": attribute 'pad_width' pads dimension "
                             << i << " by " << before << " and " << after
                             << ", more than a tensor can hold";
    }
    out.push_back(analyzer.simplify(dim + const_dim(*added)));
  }
  return tensor_sinfo(std::move(out), data.dtype);
}

// ---------------------------------------------------------------- image.resize2d

StructInfo infer_resize2d(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  const StructInfo& size_sinfo = call->args[1]->struct_info;
  const auto* size = size_sinfo.as<ShapeStructInfoNode>();
  if (size == nullptr || (size->ndim >= 0 && size->ndim != 2)) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'size' must be a shape of 2 dimensions (height, "
                              "width), got "
                           << text::print_node(size_sinfo);
  }
  Layout layout(call, "layout", "NCHW");
  require_layout_ndim(call, 0, data.ndim, layout);
  choice_attr(call, "method", {"nearest_neighbor", "linear", "cubic"});
  choice_attr(call, "coordinate_transformation_mode",
              {"half_pixel", "align_corners", "asymmetric", "pytorch_half_pixel",
               "tf_half_pixel_for_nn", "tf_crop_and_resize"});
  choice_attr(call, "rounding_method",
              {"round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil", ""});
  const AttrValue* roi = call->attrs.find("roi");
  bool floats = roi->kind == AttrValue::Kind::List && roi->list.size() == 4;
  for (size_t i = 0; floats && i < roi->list.size(); ++i) {
    floats =
        roi->list[i].kind == AttrValue::Kind::Float || roi->list[i].kind == AttrValue::Kind::Int;
  }
  if (!floats) {
    user_error(call->span) << op_display_name(call)
                           << ": attribute 'roi' must be a list of 4 numbers (start and end of "
                              "each spatial dimension)";
  }
  if (call->args.size() == 3) {
    // The scales that the coordinate transformation reads in place of size / input size
    // (ONNX Resize with scales known only at run time).
    const TensorStructInfoNode& scale = tensor_arg(call, 2);
    const std::vector<PrimExpr>* entries = known_dims(scale);
    if (scale.dtype != DataType::Float(32) || scale.ndim != 1 ||
        (entries != nullptr && !tir::is_const_int((*entries)[0], 2))) {
      user_error(call->span) << op_display_name(call)
                             << ": argument 'scale' must be a float32 tensor of 2 entries "
                                "(height, width), got "
                             << text::print_node(call->args[2]->struct_info);
    }
  }
  float_attr(call, "cubic_alpha");
  int_attr(call, "cubic_exclude");
  float_attr(call, "extrapolation_value");
  DataType dtype = dtype_attr(call, "out_dtype");
  if (dtype.is_void()) dtype = data.dtype;
  const std::vector<PrimExpr>* dims = known_dims(data);
  if (dims == nullptr || !size->values) return tensor_sinfo_ndim(layout.ndim(), dtype);
  std::vector<PrimExpr> out = layout.to_canonical(*dims);
  out[2] = (*size->values)[0];
  out[3] = (*size->values)[1];
  return tensor_sinfo(layout.from_canonical(out), dtype);
}

}  // namespace

void register_image_ops() {
  OpInfo pad;
  pad.name = "relax.nn.pad";
  pad.arg_names = {"data"};
  pad.num_required_args = 1;
  pad.attrs = {{"pad_width", AttrValue::none(), true},
               {"pad_value", AttrValue::floating(0.0)},
               {"pad_mode", AttrValue::string("constant")}};
  pad.infer = infer_pad;
  register_op(std::move(pad));

  OpInfo resize;
  resize.name = "relax.image.resize2d";
  resize.arg_names = {"data", "size", "scale"};
  resize.num_required_args = 2;
  AttrValue zero = AttrValue::floating(0.0);
  resize.attrs = {{"roi", AttrValue::list_of({zero, zero, zero, zero})},
                  {"layout", AttrValue::string("NCHW")},
                  {"method", AttrValue::string("linear")},
                  {"coordinate_transformation_mode", AttrValue::string("half_pixel")},
                  {"rounding_method", AttrValue::string("round")},
                  {"cubic_alpha", AttrValue::floating(-0.75)},
                  {"cubic_exclude", AttrValue::integer(0)},
                  {"extrapolation_value", zero},
                  {"out_dtype", AttrValue::data_type(DataType::Void())}};
  resize.infer = infer_resize2d;
  register_op(std::move(resize));
}

}  // namespace relaxc::relax
