// Small helpers the nn and reduce converters share: an input's rank and dimensions
// (with the node's error when they are not known), scalar constants, axis checks, and
// the Relax calls they emit most.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/onnx/converter.h"

namespace relaxc::onnx_import {

// The input's tensor StructInfo; an error naming the input (`name`, the ONNX input's
// name in the operator's specification) when it is not a tensor of known rank.
const relax::TensorStructInfoNode& input_tensor(const NodeContext& ctx, size_t i,
                                                const std::string& name);
// The input's dimensions (possibly symbolic); an error when they are not known.
std::vector<relax::PrimExpr> input_dims(const NodeContext& ctx, size_t i, const std::string& name);

// `axis` in [-ndim, ndim) made non-negative; an error naming `attr` otherwise.
int64_t normalized_axis(const NodeContext& ctx, int64_t axis, int64_t ndim,
                        const std::string& attr);

// A call of the Relax operator `relax.<op>` on two tensors (add, multiply, equal, ...).
relax::Expr binary(NodeContext& ctx, const std::string& op, relax::Expr a, relax::Expr b);

// A 0-d constant of `dtype` holding `value`.
relax::Expr scalar_constant(NodeContext& ctx, DataType dtype, double value);

// Whether the node gives output `i` (ONNX omits an optional output by leaving it out or
// giving it the empty name).
bool has_output(const NodeContext& ctx, size_t i);

// The node's one result.
std::vector<Value> single(relax::Expr expr);

}  // namespace relaxc::onnx_import
