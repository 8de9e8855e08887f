// Element-wise operators: binary arithmetic with numpy broadcasting (add, subtract,
// multiply, divide), unary exp and nn.relu.
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

// An operand of a binary operator: a tensor, or a PrimValue taken as a 0-d tensor.
struct Operand {
  DataType dtype;
  int ndim = -1;
  const std::vector<PrimExpr>* dims = nullptr;  // null if unknown
  bool is_prim = false;
};

Operand binary_operand(const CallNode* call, size_t index) {
  static const std::vector<PrimExpr> kScalar;
  const StructInfo& sinfo = call->args[index]->struct_info;
  if (const auto* prim = sinfo.as<PrimStructInfoNode>()) {
    return Operand{prim->dtype, 0, &kScalar, true};
  }
  const auto* tensor = sinfo.as<TensorStructInfoNode>();
  if (tensor == nullptr) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must be a tensor or a prim value, got " << text::print_node(sinfo);
  }
  return Operand{tensor->dtype, tensor->ndim, known_dims(*tensor), false};
}

StructInfo infer_binary(const CallNode* call, const BlockBuilder& bb) {
  Operand lhs = binary_operand(call, 0);
  Operand rhs = binary_operand(call, 1);
  DataType dtype = unify_dtypes(call, lhs.dtype, rhs.dtype, "lhs", "rhs");
  if (lhs.is_prim && rhs.is_prim) return prim_sinfo(dtype);
  if (lhs.ndim < 0 || rhs.ndim < 0) return tensor_sinfo_ndim(-1, dtype);
  int ndim = std::max(lhs.ndim, rhs.ndim);
  if (lhs.dims == nullptr || rhs.dims == nullptr) return tensor_sinfo_ndim(ndim, dtype);
  auto shape =
      broadcast_shapes(call, *lhs.dims, *rhs.dims, "lhs", "rhs", "dimension", bb.analyzer());
  if (!shape) return tensor_sinfo_ndim(ndim, dtype);
  return tensor_sinfo(std::move(*shape), dtype);
}

// Same shape and dtype as the input.
StructInfo infer_unary(const CallNode* call, const BlockBuilder&) {
  tensor_arg(call, 0);
  return call->args[0]->struct_info;
}

StructInfo infer_float_unary(const CallNode* call, const BlockBuilder&) {
  require_float_dtype(call, 0, tensor_arg(call, 0).dtype);
  return call->args[0]->struct_info;
}

void register_binary(const std::string& name) {
  OpInfo info;
  info.name = "relax." + name;
  info.arg_names = {"lhs", "rhs"};
  info.num_required_args = 2;
  info.infer = infer_binary;
  register_op(std::move(info));
}

void register_unary(const std::string& name, InferStructInfoFn infer) {
  OpInfo info;
  info.name = "relax." + name;
  info.arg_names = {"x"};
  info.num_required_args = 1;
  info.infer = std::move(infer);
  register_op(std::move(info));
}

}  // namespace

void register_elementwise_ops() {
  for (const char* name : {"add", "subtract", "multiply", "divide"}) register_binary(name);
  register_unary("exp", infer_float_unary);
  register_unary("nn.relu", infer_unary);
}

}  // namespace relaxc::relax
