// Tensor operators: matmul (numpy semantics) and sum.
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/struct_info_analysis.h"

namespace relaxc::relax {

namespace {

// ---------------------------------------------------------------- matmul

// numpy.matmul: a 1-D x1 is a row (1, k) and a 1-D x2 a column (k, 1), the added
// dimension removed from the result; leading (batch) dimensions broadcast.
StructInfo infer_matmul(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& a = tensor_arg(call, 0);
  const TensorStructInfoNode& b = tensor_arg(call, 1);
  DataType out_dtype = dtype_attr(call, "out_dtype");
  DataType dtype =
      out_dtype.is_void() ? unify_dtypes(call, a.dtype, b.dtype, "x1", "x2") : out_dtype;
  for (size_t i = 0; i < 2; ++i) {
    if ((i == 0 ? a.ndim : b.ndim) == 0) {
      user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, i)
                             << "' must have at least 1 dimension, got a 0-d tensor";
    }
  }
  if (a.ndim < 0 || b.ndim < 0) return tensor_sinfo_ndim(-1, dtype);
  int out_ndim = std::max(std::max(a.ndim, 2), std::max(b.ndim, 2)) - (a.ndim == 1) - (b.ndim == 1);
  const std::vector<PrimExpr>* a_dims = known_dims(a);
  const std::vector<PrimExpr>* b_dims = known_dims(b);
  if (a_dims == nullptr || b_dims == nullptr) return tensor_sinfo_ndim(out_ndim, dtype);

  std::vector<PrimExpr> x1 = *a_dims, x2 = *b_dims;
  if (a.ndim == 1) x1.insert(x1.begin(), const_dim(1));
  if (b.ndim == 1) x2.push_back(const_dim(1));
  const PrimExpr& k1 = x1.back();
  const PrimExpr& k2 = x2[x2.size() - 2];
  if (prove_dim_equal(k1, k2, bb.analyzer()) == arith::Proof::False) {
    user_error(call->span) << op_display_name(call)
                           << ": reduction dimensions differ: " << dim_str(k1) << " (dimension "
                           << a.ndim - 1 << " of x1) vs " << dim_str(k2) << " (dimension "
                           << std::max(b.ndim - 2, 0) << " of x2)";
  }
  std::vector<PrimExpr> batch1(x1.begin(), x1.end() - 2), batch2(x2.begin(), x2.end() - 2);
  auto out = broadcast_shapes(call, batch1, batch2, "x1", "x2", "batch dimension", bb.analyzer());
  if (!out) return tensor_sinfo_ndim(out_ndim, dtype);
  if (a.ndim != 1) out->push_back(x1[x1.size() - 2]);
  if (b.ndim != 1) out->push_back(x2.back());
  return tensor_sinfo(std::move(*out), dtype);
}

// ---------------------------------------------------------------- sum

StructInfo infer_sum(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  std::optional<std::vector<int64_t>> axis = optional_int_list_attr(call, "axis");
  bool keepdims = bool_attr(call, "keepdims");
  if (x.ndim < 0) return tensor_sinfo_ndim(!axis && !keepdims ? 0 : -1, x.dtype);
  std::vector<int> axes;
  if (axis) axes = normalize_axes(call, "axis", *axis, x.ndim);
  int reduced_count = axis ? static_cast<int>(axes.size()) : x.ndim;
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr)
    return tensor_sinfo_ndim(keepdims ? x.ndim : x.ndim - reduced_count, x.dtype);
  std::vector<bool> reduced(x.ndim, !axis.has_value());
  for (int a : axes) reduced[a] = true;
  std::vector<PrimExpr> out;
  for (int i = 0; i < x.ndim; ++i) {
    if (!reduced[i]) {
      out.push_back((*dims)[i]);
    } else if (keepdims) {
      out.push_back(const_dim(1));
    }
  }
  return tensor_sinfo(std::move(out), x.dtype);
}

OpInfo tensor_op(const std::string& name, std::vector<std::string> arg_names,
                 InferStructInfoFn infer) {
  OpInfo info;
  info.name = "relax." + name;
  info.num_required_args = static_cast<int>(arg_names.size());
  info.arg_names = std::move(arg_names);
  info.infer = std::move(infer);
  return info;
}

}  // namespace

void register_tensor_ops() {
  OpInfo matmul = tensor_op("matmul", {"x1", "x2"}, infer_matmul);
  matmul.attrs = {{"out_dtype", AttrValue::data_type(DataType::Void())}};
  register_op(std::move(matmul));

  OpInfo sum = tensor_op("sum", {"x"}, infer_sum);
  sum.attrs = {{"axis", AttrValue::none()}, {"keepdims", AttrValue::boolean(false)}};
  register_op(std::move(sum));
}

}  // namespace relaxc::relax
