// Pooling: nn.max_pool2d, nn.avg_pool2d (TVM's pool_size, strides, dilation, padding,
// ceil_mode, count_include_pad, layouts) and nn.adaptive_avg_pool2d (output_size).
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/ops/spatial_attrs.h"

namespace relaxc::relax {

namespace {

constexpr int kSpatial = 2;

void canonicalize_pool2d(CallNode* call, const BlockBuilder&) {
  canonicalize_spatial_list(call, "pool_size", kSpatial, 1);
  canonicalize_spatial_list(call, "strides", kSpatial, 1);
  canonicalize_spatial_list(call, "dilation", kSpatial, 1);
  canonicalize_padding(call, "padding", kSpatial);
  default_out_layout(call, "out_layout", "layout");
}

StructInfo infer_pool2d(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  Layout layout(call, "layout", "NCHW");
  Layout out_layout(call, "out_layout", "NCHW");
  require_layout_ndim(call, 0, data.ndim, layout);
  bool ceil_mode = bool_attr(call, "ceil_mode");
  bool_attr(call, "count_include_pad");
  const std::vector<PrimExpr>* dims = known_dims(data);
  if (dims == nullptr) return tensor_sinfo_ndim(out_layout.ndim(), data.dtype);
  std::vector<PrimExpr> x = layout.to_canonical(*dims);
  std::vector<int64_t> pool_size = int_list(call, "pool_size");
  std::vector<int64_t> strides = int_list(call, "strides");
  std::vector<int64_t> dilation = int_list(call, "dilation");
  std::vector<int64_t> padding = int_list(call, "padding");
  std::vector<PrimExpr> out = {x[0], x[1]};
  const char* letters = "HW";
  for (int i = 0; i < kSpatial; ++i) {
    WindowDim dim{x[2 + i],
                  const_dim(pool_size[i]),
                  strides[i],
                  dilation[i],
                  padding[i],
                  padding[kSpatial + i],
                  "dimension " + std::to_string(layout.axis(letters[i])) + " of argument 'data'",
                  "entry " + std::to_string(i) + " of attribute 'pool_size'"};
    out.push_back(sliding_window_extent(call, dim, ceil_mode, bb.analyzer()));
  }
  return tensor_sinfo(out_layout.from_canonical(out), data.dtype);
}

OpInfo pool2d_op(const std::string& name) {
  OpInfo info;
  info.name = "relax.nn." + name;
  info.arg_names = {"data"};
  info.num_required_args = 1;
  info.attrs = {
      {"pool_size", AttrValue::int_list({1, 1})}, {"strides", AttrValue::int_list({1, 1})},
      {"dilation", AttrValue::int_list({1, 1})},  {"padding", AttrValue::int_list({0, 0, 0, 0})},
      {"ceil_mode", AttrValue::boolean(false)},   {"count_include_pad", AttrValue::boolean(false)},
      {"layout", AttrValue::string("NCHW")},      {"out_layout", AttrValue::none()}};
  info.canonicalize = canonicalize_pool2d;
  info.infer = infer_pool2d;
  return info;
}

void canonicalize_adaptive_pool2d(CallNode* call, const BlockBuilder&) {
  const AttrValue* output_size = call->attrs.find("output_size");
  if (output_size != nullptr && !output_size->is_none()) {
    canonicalize_spatial_list(call, "output_size", kSpatial, 1);
  }
  default_out_layout(call, "out_layout", "layout");
}

// Without output_size the output keeps the input's spatial size.
StructInfo infer_adaptive_pool2d(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  Layout layout(call, "layout", "NCHW");
  Layout out_layout(call, "out_layout", "NCHW");
  require_layout_ndim(call, 0, data.ndim, layout);
  const std::vector<PrimExpr>* dims = known_dims(data);
  if (dims == nullptr) return tensor_sinfo_ndim(out_layout.ndim(), data.dtype);
  std::vector<PrimExpr> out = layout.to_canonical(*dims);
  if (std::optional<std::vector<int64_t>> size = optional_int_list_attr(call, "output_size")) {
    out[2] = const_dim((*size)[0]);
    out[3] = const_dim((*size)[1]);
  }
  return tensor_sinfo(out_layout.from_canonical(out), data.dtype);
}

}  // namespace

void register_nn_pool_ops() {
  register_op(pool2d_op("max_pool2d"));
  register_op(pool2d_op("avg_pool2d"));

  OpInfo adaptive;
  adaptive.name = "relax.nn.adaptive_avg_pool2d";
  adaptive.arg_names = {"data"};
  adaptive.num_required_args = 1;
  adaptive.attrs = {{"output_size", AttrValue::none()},
                    {"layout", AttrValue::string("NCHW")},
                    {"out_layout", AttrValue::none()}};
  adaptive.canonicalize = canonicalize_adaptive_pool2d;
  adaptive.infer = infer_adaptive_pool2d;
  register_op(std::move(adaptive));
}

}  // namespace relaxc::relax
