// Reductions: sum, mean, max, min, prod, variance, std over a list of axes (or all),
// and argmax/argmin over one axis (or all), each with keepdims.
#include <algorithm>

#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::relax {

namespace {

// The result of reducing `x` over `reduced` (one flag per dimension) with `dtype`.
StructInfo reduced_sinfo(const TensorStructInfoNode& x, const std::vector<bool>& reduced,
                         bool keepdims, DataType dtype) {
  int reduced_count = static_cast<int>(std::count(reduced.begin(), reduced.end(), true));
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr) return tensor_sinfo_ndim(keepdims ? x.ndim : x.ndim - reduced_count, dtype);
  std::vector<PrimExpr> out;
  for (int i = 0; i < x.ndim; ++i) {
    if (!reduced[i]) {
      out.push_back((*dims)[i]);
    } else if (keepdims) {
      out.push_back(const_dim(1));
    }
  }
  return tensor_sinfo(std::move(out), dtype);
}

// sum, mean, ...: attribute 'axis' is None (every axis) or a list of axes. Reducing
// every axis of a tensor of unknown rank gives a 0-d tensor, whose shape is known.
StructInfo infer_statistical(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  std::optional<std::vector<int64_t>> axis = optional_int_list_attr(call, "axis");
  bool keepdims = bool_attr(call, "keepdims");
  if (x.ndim < 0)
    return !axis && !keepdims ? tensor_sinfo({}, x.dtype) : tensor_sinfo_ndim(-1, x.dtype);
  std::vector<bool> reduced(x.ndim, !axis.has_value());
  if (axis) {
    for (int a : normalize_axes(call, "axis", *axis, x.ndim)) reduced[a] = true;
  }
  return reduced_sinfo(x, reduced, keepdims, x.dtype);
}

// argmax, argmin: attribute 'axis' is None (the flattened tensor) or one axis; the
// result is int64 indices, as TVM gives them.
StructInfo infer_arg_reduce(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  const AttrValue* axis = call->attrs.find("axis");
  bool keepdims = bool_attr(call, "keepdims");
  bool all = axis == nullptr || axis->is_none();
  int64_t a = all ? 0 : int_attr(call, "axis");
  DataType index = DataType::Int(64);
  if (x.ndim < 0) return all && !keepdims ? tensor_sinfo({}, index) : tensor_sinfo_ndim(-1, index);
  std::vector<bool> reduced(x.ndim, all);
  if (!all) reduced[normalize_axis(call, "axis", a, x.ndim)] = true;
  return reduced_sinfo(x, reduced, keepdims, index);
}

void register_reduction(const std::string& name, InferStructInfoFn infer, bool axis_list) {
  OpInfo info;
  info.name = "relax." + name;
  info.arg_names = {"x"};
  info.num_required_args = 1;
  info.attrs = {{"axis", AttrValue::none()}, {"keepdims", AttrValue::boolean(false)}};
  info.infer = std::move(infer);
  if (axis_list)
    info.canonicalize = [](CallNode* call, const BlockBuilder&) { int_attr_to_list(call, "axis"); };
  register_op(std::move(info));
}

}  // namespace

void register_statistical_ops() {
  for (const char* name : {"sum", "mean", "max", "min", "prod", "variance", "std"}) {
    register_reduction(name, infer_statistical, true);
  }
  for (const char* name : {"argmax", "argmin"}) register_reduction(name, infer_arg_reduce, false);
}

}  // namespace relaxc::relax
