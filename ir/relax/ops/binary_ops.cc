// Binary operators with numpy broadcasting (arithmetic, comparisons with bool results,
// logical and bitwise operators), where (three-way broadcasting) and astype.
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

// The operands' broadcast StructInfo with `dtype`: as precise as the operands allow.
StructInfo broadcast_sinfo(const CallNode* call, const Operand& lhs, const Operand& rhs,
                           DataType dtype, const std::string& lhs_label,
                           const std::string& rhs_label, const BlockBuilder& bb) {
  if (lhs.is_prim && rhs.is_prim) return prim_sinfo(dtype);
  if (lhs.ndim < 0 || rhs.ndim < 0) return tensor_sinfo_ndim(-1, dtype);
  int ndim = std::max(lhs.ndim, rhs.ndim);
  if (lhs.dims == nullptr || rhs.dims == nullptr) return tensor_sinfo_ndim(ndim, dtype);
  auto shape = broadcast_shapes(call, *lhs.dims, *rhs.dims, lhs_label, rhs_label, "dimension",
                                bb.analyzer());
  if (!shape) return tensor_sinfo_ndim(ndim, dtype);
  return tensor_sinfo(std::move(*shape), dtype);
}

// What a binary operator requires of its (common) operand dtype.
enum class DTypeRule { Any, Integer };

void check_operand_dtype(const CallNode* call, DTypeRule rule, DataType dtype) {
  if (rule == DTypeRule::Integer && !dtype.is_void() && !dtype.is_int() && !dtype.is_uint() &&
      !dtype.is_bool()) {
    user_error(call->span) << op_display_name(call)
                           << ": arguments 'x1' and 'x2' must have an integer or bool dtype, got "
                           << dtype.str();
  }
}

InferStructInfoFn infer_binary(DTypeRule rule, bool bool_result) {
  return [rule, bool_result](const CallNode* call, const BlockBuilder& bb) {
    Operand lhs = binary_operand(call, 0);
    Operand rhs = binary_operand(call, 1);
    DataType dtype = unify_dtypes(call, lhs.dtype, rhs.dtype, "x1", "x2");
    check_operand_dtype(call, rule, dtype);
    return broadcast_sinfo(call, lhs, rhs, bool_result ? DataType::Bool() : dtype, "x1", "x2", bb);
  };
}

// where(condition, x1, x2): the three shapes broadcast together; the values' dtype.
StructInfo infer_where(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& cond = tensor_arg(call, 0);
  if (!cond.dtype.is_void() && !cond.dtype.is_bool()) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'condition' must have dtype bool, got "
                           << cond.dtype.str();
  }
  Operand c{cond.dtype, cond.ndim, known_dims(cond), false};
  Operand x1 = binary_operand(call, 1);
  Operand x2 = binary_operand(call, 2);
  DataType dtype = unify_dtypes(call, x1.dtype, x2.dtype, "x1", "x2");
  StructInfo values = broadcast_sinfo(call, x1, x2, dtype, "x1", "x2", bb);
  const auto* v = values.as<TensorStructInfoNode>();
  if (v == nullptr) {
    // Two prim values: the result takes the condition's shape.
    return broadcast_sinfo(call, c, Operand{dtype, 0, x1.dims, false}, dtype, "condition", "x1",
                           bb);
  }
  return broadcast_sinfo(call, c, Operand{dtype, v->ndim, known_dims(*v), false}, dtype,
                         "condition", "x1 and x2", bb);
}

StructInfo infer_astype(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  DataType dtype = dtype_attr(call, "dtype");
  if (x.shape.defined()) return tensor_sinfo_shape(x.shape, dtype);
  return tensor_sinfo_ndim(x.ndim, dtype);
}

void register_binary(const std::string& name, DTypeRule rule, bool bool_result) {
  register_op(make_op(name, {"x1", "x2"}, infer_binary(rule, bool_result)));
}

}  // namespace

void register_binary_ops() {
  for (const char* name :
       {"add", "subtract", "multiply", "divide", "floor_divide", "power", "maximum", "minimum",
        "mod", "floor_mod", "logical_and", "logical_or", "logical_xor"}) {
    register_binary(name, DTypeRule::Any, false);
  }
  for (const char* name :
       {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}) {
    register_binary(name, DTypeRule::Any, true);
  }
  for (const char* name :
       {"bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"}) {
    register_binary(name, DTypeRule::Integer, false);
  }

  register_op(make_op("where", {"condition", "x1", "x2"}, infer_where));
  register_op(make_op("astype", {"x"}, infer_astype,
                      {{"dtype", AttrValue::data_type(DataType::Void()), true}}));
}

}  // namespace relaxc::relax
