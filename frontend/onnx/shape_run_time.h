// The converters for operands known only at run time (shape_run_time.cc): the family
// files (ops_shape.cc, ops_reduce.cc, ...) call them where known_at_import is false.
#pragma once

#include <string>
#include <vector>

#include "frontend/onnx/converter.h"

namespace relaxc::onnx_import {

// Whether input `i`'s contents are known at import time (a constant, or shape elements).
bool known_at_import(const NodeContext& ctx, size_t i);

// Reshape with a run-time shape: its 0s (copy the input's dim, unless `allowzero`) and
// its -1 (the element count over the product of the others) resolved on the device.
std::vector<Value> reshape_at_run_time(NodeContext& ctx, bool allowzero);
// Expand of an input of dims `in` to a run-time shape.
std::vector<Value> expand_at_run_time(NodeContext& ctx, std::vector<relax::PrimExpr> in);
// Slice (opset 10 on) with any of starts, ends, axes and steps known only at run time.
std::vector<Value> slice_at_run_time(NodeContext& ctx);
// Range of `dtype` with bounds known only at run time.
std::vector<Value> range_at_run_time(NodeContext& ctx, DataType dtype);
// Unsqueeze and Squeeze (opset 13 on) with run-time axes.
std::vector<Value> unsqueeze_at_run_time(NodeContext& ctx);
std::vector<Value> squeeze_at_run_time(NodeContext& ctx);
// ReduceSum (opset 13 on) with axes known only at run time, at least one.
std::vector<Value> reduce_sum_at_run_time(NodeContext& ctx, bool keepdims);
// Split (opset 13 on) into `outputs` along `axis` with sizes known only at run time.
std::vector<Value> split_at_run_time(NodeContext& ctx, int64_t axis, size_t outputs);
// Pad (opset 11 on) in `mode` (constant, reflect or edge) with pads or the constant
// value known only at run time.
std::vector<Value> pad_at_run_time(NodeContext& ctx, const std::string& mode);

}  // namespace relaxc::onnx_import
