// Sorting: sort, argsort and topk along one axis.
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::relax {

namespace {

// The input, with its 'axis' checked; the axis normalized (-1 if the rank is unknown).
int sort_axis(const CallNode* call, const TensorStructInfoNode& x) {
  int64_t axis = int_attr(call, "axis");
  return x.ndim < 0 ? -1 : normalize_axis(call, "axis", axis, x.ndim);
}

StructInfo infer_sort(const CallNode* call, const BlockBuilder&) {
  sort_axis(call, tensor_arg(call, 0));
  return call->args[0]->struct_info;
}

StructInfo with_dtype(const TensorStructInfoNode& x, DataType dtype) {
  if (const std::vector<PrimExpr>* dims = known_dims(x)) return tensor_sinfo(*dims, dtype);
  return tensor_sinfo_ndim(x.ndim, dtype);
}

StructInfo infer_argsort(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  sort_axis(call, x);
  return with_dtype(x, dtype_attr(call, "dtype"));
}

// The k largest (or smallest) along the axis: k < 1, or k at least a known dimension,
// keeps the whole dimension, as TVM's topk does.
StructInfo infer_topk(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  int axis = sort_axis(call, x);
  int64_t k = int_attr(call, "k");
  std::string ret_type = string_attr(call, "ret_type");
  if (ret_type != "both" && ret_type != "values" && ret_type != "indices") {
    user_error(call->span) << op_display_name(call) << ": attribute 'ret_type' must be \"both\", "
                           << "\"values\" or \"indices\", got \"" << ret_type << "\"";
  }
  DataType index_dtype = dtype_attr(call, "dtype");
  StructInfo values = tensor_sinfo_ndim(x.ndim, x.dtype);
  StructInfo indices = tensor_sinfo_ndim(x.ndim, index_dtype);
  if (const std::vector<PrimExpr>* dims = known_dims(x)) {
    std::vector<PrimExpr> out = *dims;
    const int64_t* extent = tir::as_const_int(out[axis]);
    if (k > 0 && (extent == nullptr || k < *extent)) out[axis] = const_dim(k);
    values = tensor_sinfo(out, x.dtype);
    indices = tensor_sinfo(std::move(out), index_dtype);
  }
  if (ret_type == "values") return values;
  if (ret_type == "indices") return indices;
  return tuple_sinfo({values, indices});
}

OpInfo sort_op(const std::string& name, const std::string& arg, std::vector<OpAttrSpec> attrs,
               InferStructInfoFn infer) {
  OpInfo info;
  info.name = "relax." + name;
  info.arg_names = {arg};
  info.num_required_args = 1;
  info.attrs = std::move(attrs);
  info.infer = std::move(infer);
  return info;
}

}  // namespace

void register_sort_ops() {
  const OpAttrSpec axis{"axis", AttrValue::integer(-1)};
  const OpAttrSpec descending{"descending", AttrValue::boolean(false)};
  const OpAttrSpec dtype{"dtype", AttrValue::data_type(DataType::Int(32))};
  register_op(sort_op("sort", "x", {axis, descending}, infer_sort));
  register_op(sort_op("argsort", "data", {axis, descending, dtype}, infer_argsort));
  register_op(sort_op("topk", "data",
                      {{"k", AttrValue::integer(1)},
                       axis,
                       {"ret_type", AttrValue::string("both")},
                       {"largest", AttrValue::boolean(true)},
                       dtype},
                      infer_topk));
}

}  // namespace relaxc::relax
