// Multi-head attention on BSNH tensors: nn.attention (query, key, value) and, as TVM
// names the call that has a bias, nn.attention_bias; scale, causal_mask, window_size.
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/struct_info_analysis.h"

namespace relaxc::relax {

namespace {

const char* const kAxisNames[] = {"batch size", "sequence length", "number of heads",
                                  "head dimension"};

// R.nn.attention(q, k, v, bias) is the operator nn.attention_bias, as TVM builds it
// (and prints it).
void canonicalize_attention(CallNode* call, const BlockBuilder&) {
  if (call->args.size() == 4) call->op = get_op("relax.nn.attention_bias");
}

StructInfo infer_attention(const CallNode* call, const BlockBuilder& bb) {
  std::vector<const TensorStructInfoNode*> args;
  for (size_t i = 0; i < call->args.size(); ++i) args.push_back(&tensor_arg(call, i));
  const TensorStructInfoNode& query = *args[0];
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i]->ndim >= 0 && args[i]->ndim != 4) {
      user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, i)
                             << "' must have 4 dimensions ("
                             << (i == 3 ? "batch, heads, query length, key length"
                                        : "batch, sequence, heads, head dimension")
                             << "), got " << args[i]->ndim;
    }
  }
  DataType dtype = unify_dtypes(call, query.dtype, args[1]->dtype, "query", "key");
  dtype = unify_dtypes(call, dtype, args[2]->dtype, "query", "value");
  require_float_dtype(call, 0, dtype);
  const AttrValue* scale = call->attrs.find("scale");
  if (scale != nullptr) float_attr(call, "scale");
  if (call->attrs.find("causal_mask") != nullptr) {
    std::string mask = string_attr(call, "causal_mask");
    if (mask != "TopLeft" && mask != "BottomRight") {
      user_error(call->span) << op_display_name(call) << ": attribute 'causal_mask' is \"" << mask
                             << "\"; expected \"TopLeft\", \"BottomRight\" or None";
    }
  }
  if (call->attrs.find("window_size") != nullptr) int_attr(call, "window_size");

  std::vector<const std::vector<PrimExpr>*> dims;
  for (const TensorStructInfoNode* a : args) dims.push_back(known_dims(*a));
  for (const auto* d : dims) {
    if (d == nullptr) return tensor_sinfo_ndim(4, dtype);
  }
  const std::vector<PrimExpr>& q = *dims[0];
  const std::vector<PrimExpr>& k = *dims[1];
  const std::vector<PrimExpr>& v = *dims[2];
  arith::Analyzer& analyzer = bb.analyzer();
  auto differ = [&](const PrimExpr& a, const PrimExpr& b) {
    return prove_dim_equal(a, b, analyzer) == arith::Proof::False;
  };
  auto mismatch = [&](size_t a, int a_axis, size_t b, int b_axis, const PrimExpr& a_dim,
                      const PrimExpr& b_dim, const char* how) {
    user_error(call->span) << op_display_name(call) << ": the " << kAxisNames[a_axis] << " of '"
                           << op_arg_name(call, a) << "' (" << dim_str(a_dim) << ", dimension "
                           << a_axis << ") and of '" << op_arg_name(call, b) << "' ("
                           << dim_str(b_dim) << ", dimension " << b_axis << ") " << how;
  };
  for (size_t i : {1, 2}) {
    if (differ(q[0], (*dims[i])[0])) mismatch(0, 0, i, 0, q[0], (*dims[i])[0], "differ");
    // Grouped-query attention: each key/value head serves a group of query heads.
    const PrimExpr& heads = (*dims[i])[2];
    if (analyzer.can_prove(tir::ne(tir::floormod(q[2], heads), const_dim(0)))) {
      mismatch(0, 2, i, 2, q[2], heads, "must be a multiple of the latter");
    }
  }
  if (differ(k[1], v[1])) mismatch(1, 1, 2, 1, k[1], v[1], "differ");
  if (differ(q[3], k[3])) mismatch(0, 3, 1, 3, q[3], k[3], "differ");
  if (dims.size() == 4) {
    // The bias is (batch, heads, query length, key length), broadcast on the first three.
    const std::vector<PrimExpr>& bias = *dims[3];
    const PrimExpr expected[] = {q[0], q[2], q[1], k[1]};
    const int source_axis[] = {0, 2, 1, 1};
    for (int axis = 0; axis < 4; ++axis) {
      bool broadcast = axis < 3 && tir::is_const_int(bias[axis], 1);
      if (!broadcast && differ(bias[axis], expected[axis])) {
        user_error(call->span) << op_display_name(call) << ": dimension " << axis
                               << " of argument 'bias' (" << dim_str(bias[axis]) << ") must be "
                               << (axis < 3 ? "1 or " : "") << dim_str(expected[axis]) << ", the "
                               << kAxisNames[source_axis[axis]] << " of '"
                               << (axis == 3 ? "key" : "query") << "' (dimension "
                               << source_axis[axis] << ")";
      }
    }
  }
  return tensor_sinfo({q[0], q[1], q[2], v[3]}, dtype);
}

OpInfo attention_op(const std::string& name, std::vector<std::string> arg_names, int num_required) {
  OpInfo info;
  info.name = name;
  info.arg_names = std::move(arg_names);
  info.num_required_args = num_required;
  info.attrs = {{"scale", AttrValue::none()},
                {"causal_mask", AttrValue::none()},
                {"window_size", AttrValue::none()}};
  info.infer = infer_attention;
  return info;
}

}  // namespace

void register_nn_attention_ops() {
  OpInfo attention = attention_op("relax.nn.attention", {"query", "key", "value", "bias"}, 3);
  attention.canonicalize = canonicalize_attention;
  register_op(std::move(attention));
  register_op(attention_op("relax.nn.attention_bias", {"query", "key", "value", "bias"}, 4));
}

}  // namespace relaxc::relax
