// Import-time computation on shape tensors: what PyTorch exports between Shape and the
// operators that take a shape (Reshape, Expand, ConstantOfShape, ...) is computed here
// on integer expressions, so that a graph with dynamic dims gets symbolic shapes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "frontend/onnx/converter.h"

namespace relaxc::onnx_import {

// The elements of a 0-d or 1-D integer (or bool) Value known at import time, as int64
// expressions: its shape_elements, or the elements of a small constant; nullopt if
// neither. (shape_elements of a 0-d Value holds its one element; the Value's expr says
// the tensor's dtype and rank, bool elements are 0 or 1.)
std::optional<std::vector<relax::PrimExpr>> known_elements(const Value& value);

// A Value of a 1-D (or, `scalar`, 0-d) tensor of the integer or bool `dtype` holding
// `elements`: a constant when every element is one, otherwise a tensor the graph can
// use (the symbolic elements computed by prim_expr_tensor) with shape_elements.
Value elements_value(NodeContext& ctx, std::vector<relax::PrimExpr> elements, DataType dtype,
                     bool scalar);

// A 0-d int64 (bool for a comparison) tensor holding `e` at run time. Relax PrimValues
// hold only immediates, so a symbolic dim `n` becomes sum(ones((n,))) and the
// arithmetic on it tensor operators.
relax::Expr prim_expr_tensor(NodeContext& ctx, const relax::PrimExpr& e);

// The 1-D int64 tensor [start, start + step, ...] of a possibly symbolic length (Range
// and Slice with bounds computed from dynamic dims).
relax::Expr iota(NodeContext& ctx, const relax::PrimExpr& length, const relax::PrimExpr& start,
                 int64_t step);

// Simplifies `e` knowing that its symbolic variables, which are dims, are not negative.
relax::PrimExpr simplify_dims(const relax::PrimExpr& e);

// The node computed at import time when it is one of the operators PyTorch exports on
// shapes (Shape, Size, Gather, Concat, Unsqueeze, Squeeze, Slice, Cast, Reshape,
// ConstantOfShape, Add, Sub, Mul, Div, Mod, Neg, Sum, Max, Min, Equal, Less, Greater,
// Where) and its inputs are known elements; nullopt otherwise (the node's converter
// builds it). The importer calls it before dispatching a node.
std::optional<std::vector<Value>> fold_on_shapes(NodeContext& ctx);

// ---------------------------------------------------------------- converter helpers
// What the shape and index converters (ops_shape.cc, ops_index.cc) emit on shapes; what
// they read of their inputs is in op_helpers.h.

// relax.reshape of `x` to `dims`, simplified first: a shape holds constants or
// expressions of the symbolic dims, not arithmetic on constants (c / (b * b)).
relax::Expr emit_reshape(NodeContext& ctx, const relax::Expr& x, std::vector<relax::PrimExpr> dims);

// The length of `tensor`, whose elements are known only at run time: it must be a 1-D
// integer tensor whose length is known at import time (an error naming `what`, "input 1
// 'shape'", otherwise).
size_t run_time_length(const NodeContext& ctx, const relax::Expr& tensor, const std::string& what);

// The elements of the 1-D integer tensor `tensor`, known only at run time, as dims:
// R.tensor_to_shape reads them (the VM copies the tensor to the host and refuses a
// negative one) and R.match_cast binds element k to a new shape variable named after
// the node's output (`<output>_k`), or checks it against `expected[k]` where that is
// defined (`expected` empty: every element is new). Its length is run_time_length's.
std::vector<relax::PrimExpr> run_time_dims(NodeContext& ctx, const relax::Expr& tensor,
                                           const std::string& what,
                                           const std::vector<relax::PrimExpr>& expected = {});

}  // namespace relaxc::onnx_import
