// nn.softmax (the element-wise operators live in unary_ops.cc and binary_ops.cc).
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::relax {

namespace {

StructInfo infer_softmax(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  require_float_dtype(call, 0, x.dtype);
  int64_t axis = int_attr(call, "axis");
  if (x.ndim >= 0) normalize_axis(call, "axis", axis, x.ndim);
  return call->args[0]->struct_info;
}

}  // namespace

void register_elementwise_ops() {
  OpInfo softmax;
  softmax.name = "relax.nn.softmax";
  softmax.arg_names = {"x"};
  softmax.num_required_args = 1;
  softmax.attrs = {{"axis", AttrValue::integer(-1)}};
  softmax.infer = infer_softmax;
  register_op(std::move(softmax));
}

}  // namespace relaxc::relax
