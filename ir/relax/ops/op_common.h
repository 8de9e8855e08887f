// What the operators' StructInfo inference shares: errors that name the operator and
// the argument, typed access to tensor arguments and attributes, axes, broadcasting.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/arith/analyzer.h"
#include "ir/relax/op_registry.h"

namespace relaxc::relax {

// Registration of each family of operators (called by register_builtin_ops()).
void register_call_ops();
void register_elementwise_ops();
void register_tensor_ops();
void register_memory_ops();
void register_nn_conv_ops();
void register_nn_pool_ops();
void register_image_ops();
void register_nn_attention_ops();
void register_data_dependent_ops();

// "R.add" for a call of relax.add.
std::string op_display_name(const CallNode* call);
// The registered name of argument `index` ("lhs"); the variadic name for extra ones.
std::string op_arg_name(const CallNode* call, size_t index);

// Argument `index`'s TensorStructInfo, or a UserError at the call ("R.exp: argument 'x'
// must be a tensor, got R.Shape([2])").
const TensorStructInfoNode& tensor_arg(const CallNode* call, size_t index);
// The dimensions of a tensor if known (and consistent with its ndim), else nullptr.
const std::vector<PrimExpr>* known_dims(const TensorStructInfoNode& tensor);
// A UserError unless a known dtype of argument `index` is a floating-point type.
void require_float_dtype(const CallNode* call, size_t index, DataType dtype);

// Attributes, checked for kind ("R.sum: attribute 'keepdims' must be a bool").
int64_t int_attr(const CallNode* call, const std::string& name);
bool bool_attr(const CallNode* call, const std::string& name);
DataType dtype_attr(const CallNode* call, const std::string& name);
std::string string_attr(const CallNode* call, const std::string& name);
// A number (an integer is taken as a float: pad_value=0).
double float_attr(const CallNode* call, const std::string& name);
// None (or absent) -> nullopt; otherwise a list of integers.
std::optional<std::vector<int64_t>> optional_int_list_attr(const CallNode* call,
                                                           const std::string& name);

// `axis` (possibly negative) as an index in [0, ndim); a UserError naming attribute
// `attr` if it is out of range.
int normalize_axis(const CallNode* call, const std::string& attr, int64_t axis, int ndim);
// Normalized `axes`; a UserError on an out-of-range or repeated axis.
std::vector<int> normalize_axes(const CallNode* call, const std::string& attr,
                                const std::vector<int64_t>& axes, int ndim);

// An int64 dimension.
PrimExpr const_dim(int64_t value);
// A dimension as the text format writes it, for messages.
std::string dim_str(const PrimExpr& d);

// The common dtype of two operands: void if either is unknown; a UserError naming both
// if they differ ("R.add: operand dtypes differ: float32 (lhs) vs int32 (rhs)").
DataType unify_dtypes(const CallNode* call, DataType lhs, DataType rhs,
                      const std::string& lhs_label, const std::string& rhs_label);

// Numpy broadcasting of two shapes, aligned at the right. A provable mismatch is a
// UserError ("R.add: cannot broadcast dimension 1 of the operands: 3 (lhs) vs 5
// (rhs)", with `what` = "dimension"); nullopt if some pair of symbolic dimensions
// cannot be decided (the result shape is then unknown).
std::optional<std::vector<PrimExpr>> broadcast_shapes(
    const CallNode* call, const std::vector<PrimExpr>& lhs, const std::vector<PrimExpr>& rhs,
    const std::string& lhs_label, const std::string& rhs_label, const std::string& what,
    arith::Analyzer& analyzer);

// The product of `dims`, simplified (1 for none).
PrimExpr dims_product(const std::vector<PrimExpr>& dims, arith::Analyzer& analyzer);

}  // namespace relaxc::relax
