// Operators whose result shape depends on the data: nonzero and unique. They parse,
// print and infer as TVM's do (a result of known rank and unknown dims), so modules
// that use them check; legalize-ops refuses them with a located error (later work).
#include "ir/relax/ops/op_common.h"
#include "ir/relax/struct_info_analysis.h"

namespace relaxc::relax {

namespace {

// R.nonzero(x): the indices of the nonzero elements, one row per dimension of x.
StructInfo infer_nonzero(const CallNode* call, const BlockBuilder&) {
  tensor_arg(call, 0);
  return tensor_sinfo_ndim(2, DataType::Int(64));
}

// R.unique(x, ...): the distinct values (of the flattened x, or along `axis`), then as
// asked the index of each one's first occurrence, the inverse indices and the counts.
StructInfo infer_unique(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  const AttrValue* axis = call->attrs.find("axis");
  int values_ndim = 1;  // the flattened tensor's distinct values
  if (axis != nullptr && !axis->is_none()) {
    values_ndim = x.ndim;
    if (x.ndim >= 0) normalize_axis(call, "axis", int_attr(call, "axis"), x.ndim);
  }
  std::vector<StructInfo> fields = {tensor_sinfo_ndim(values_ndim, x.dtype)};
  for (const char* flag : {"return_index", "return_inverse", "return_counts"}) {
    if (bool_attr(call, flag)) fields.push_back(tensor_sinfo_ndim(1, DataType::Int(64)));
  }
  if (fields.size() == 1) return fields[0];
  return tuple_sinfo(std::move(fields));
}

}  // namespace

void register_data_dependent_ops() {
  OpInfo nonzero;
  nonzero.name = "relax.nonzero";
  nonzero.arg_names = {"x"};
  nonzero.num_required_args = 1;
  nonzero.infer = infer_nonzero;
  register_op(std::move(nonzero));

  OpInfo unique;
  unique.name = "relax.unique";
  unique.arg_names = {"x"};
  unique.num_required_args = 1;
  unique.attrs = {{"sorted", AttrValue::boolean(true)},
                  {"return_index", AttrValue::boolean(false)},
                  {"return_inverse", AttrValue::boolean(false)},
                  {"return_counts", AttrValue::boolean(false)},
                  {"axis", AttrValue::none()}};
  unique.infer = infer_unique;
  register_op(std::move(unique));
}

}  // namespace relaxc::relax
