// Small helpers every converter shares: an input's StructInfo, rank and dimensions
// (with the node's error, naming the input, when they are not known), axis checks,
// scalar constants, and the Relax calls they emit most.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/onnx/converter.h"

namespace relaxc::onnx_import {

// The input's tensor StructInfo; an error naming the input (`name`, the ONNX input's
// name in the operator's specification) when it is not a tensor of known rank.
const relax::TensorStructInfoNode& input_tensor(const NodeContext& ctx, size_t i,
                                                const std::string& name);
// The same of any rank (ndim -1 when it is not known): for an operator that needs only
// the dtype, or handles an unknown rank itself.
const relax::TensorStructInfoNode& input_tensor_any_rank(const NodeContext& ctx, size_t i,
                                                         const std::string& name);
// The input's rank; an error when it is not known.
int input_rank(const NodeContext& ctx, size_t i, const std::string& name);
// The input's dimensions (possibly symbolic); an error when they are not known at import
// time (they depend on tensor values).
std::vector<relax::PrimExpr> input_dims(const NodeContext& ctx, size_t i, const std::string& name);

// `axis` in [-ndim, ndim) made non-negative; otherwise an error naming `what`, where the
// axis comes from ("attribute 'axis'", "input 1 'axes'").
int64_t normalized_axis(const NodeContext& ctx, int64_t axis, int64_t ndim,
                        const std::string& what);

// The element type that attribute `name` gives as an ONNX element type code
// (TensorProto::DataType; `def` when the node does not give it): an error naming the
// attribute when the code is no ONNX type (invalid) or one relaxc has no tensors of
// (unsupported).
DataType attr_element_type(const NodeContext& ctx, const std::string& name,
                           std::optional<int64_t> def = {});

// Each of `axes` made non-negative by normalized_axis; an error naming `what` when one is
// out of range or given twice.
std::vector<int64_t> normalized_axes(const NodeContext& ctx, const std::vector<int64_t>& axes,
                                     int64_t ndim, const std::string& what);

// A call of the Relax operator `relax.<op>` on two tensors (add, multiply, equal, ...).
relax::Expr binary(NodeContext& ctx, const std::string& op, relax::Expr a, relax::Expr b);

// A 0-d constant of `dtype` holding `value`.
relax::Expr scalar_constant(NodeContext& ctx, DataType dtype, double value);

// max(0, min(1, alpha * x + beta)), of a tensor x (HardSigmoid, HardSwish, and the
// recurrent operators' activation).
relax::Expr hard_sigmoid(NodeContext& ctx, const relax::Expr& x, double alpha, double beta);

// `steps` (a float tensor, a value over its scale) rounded with halves to even, plus
// `zero_point` (of steps' dtype; undefined: none), saturated to the range of the 8-bit
// integer type `quantized` and cast to it: QuantizeLinear and the QLinear operators'
// requantization.
relax::Expr quantize_steps(NodeContext& ctx, const relax::Expr& steps,
                           const relax::Expr& zero_point, DataType quantized);

// Whether the node gives output `i` (ONNX omits an optional output by leaving it out or
// giving it the empty name).
bool has_output(const NodeContext& ctx, size_t i);

// The node's one result.
std::vector<Value> single(relax::Expr expr);

}  // namespace relaxc::onnx_import
