// The signal family's converters: the window functions HannWindow, HammingWindow and
// BlackmanWindow (opset 17). Each is a sum of cosines over n in [0, size),
//   w[n] = a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N),
// where N is size (periodic) or size - 1 (symmetric). The size is a scalar known at
// import (a constant, or computed from shapes) or only at run time, where R.tensor_to_shape
// reads it into a shape variable (the VM refuses a negative one). The sum is computed in
// float32, as the operators' ONNX function bodies compute it (Vulkan has no float64
// cosine), and cast to output_datatype.
#include <onnx/onnx_pb.h>

#include <numbers>
#include <optional>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"
#include "frontend/onnx/shape_values.h"
#include "ir/relax/ops/op_common.h"

namespace relaxc::onnx_import {

namespace {

using relax::Expr;
using relax::PrimExpr;

struct CosineSum {
  double a0, a1, a2;
};

// The window's output_datatype (float when the node does not give it): a numeric type.
DataType window_dtype(NodeContext& ctx) {
  DataType dtype = attr_element_type(ctx, "output_datatype", onnx::TensorProto::FLOAT);
  if (dtype.is_bool()) ctx.invalid("attribute 'output_datatype' must be a numeric type, not BOOL");
  return dtype;
}

// The window's length from input 0 'size', a 0-d int32 or int64 tensor.
PrimExpr window_length(NodeContext& ctx) {
  const relax::TensorStructInfoNode& size = input_tensor(ctx, 0, "size");
  if (size.ndim != 0 || (size.dtype != DataType::Int(32) && size.dtype != DataType::Int(64))) {
    ctx.invalid("input 0 'size' must be a 0-d int32 or int64 tensor");
  }
  if (std::optional<std::vector<PrimExpr>> known = known_elements(ctx.input(0))) {
    const PrimExpr& length = (*known)[0];
    if (const int64_t* value = tir::as_const_int(length); value != nullptr && *value < 0) {
      ctx.invalid("input 0 'size' is " + std::to_string(*value) +
                  "; a window's size is not negative");
    }
    return length;
  }
  Expr size_i64 = ctx.emit_op("relax.astype", {ctx.tensor(0)},
                              Attrs({{"dtype", AttrValue::data_type(DataType::Int(64))}}));
  return run_time_dims(ctx, emit_reshape(ctx, size_i64, {relax::const_dim(1)}),
                       "input 0 'size'")[0];
}

Converter cosine_window(CosineSum sum) {
  return [sum](NodeContext& ctx) -> std::vector<Value> {
    int64_t periodic = ctx.attr_int("periodic", 1);
    if (periodic != 0 && periodic != 1) {
      ctx.invalid("attribute 'periodic' is " + std::to_string(periodic) + "; it must be 0 or 1");
    }
    DataType out = window_dtype(ctx);
    PrimExpr length = window_length(ctx);
    const DataType math = DataType::Float(32);
    Attrs to_math({{"dtype", AttrValue::data_type(math)}});
    Expr n = ctx.emit_op("relax.astype", {iota(ctx, length, relax::const_dim(0), 1)}, to_math);
    Expr period = ctx.emit_op("relax.astype", {ctx.tensor(0)}, to_math);
    if (periodic == 0) period = binary(ctx, "subtract", period, scalar_constant(ctx, math, 1));
    Expr angle =
        binary(ctx, "multiply", n,
               binary(ctx, "divide", scalar_constant(ctx, math, 2 * std::numbers::pi), period));
    auto term = [&](double a, double multiple) {
      Expr phase = multiple == 1
                       ? angle
                       : binary(ctx, "multiply", angle, scalar_constant(ctx, math, multiple));
      return binary(ctx, "multiply", ctx.emit_op("relax.cos", {phase}),
                    scalar_constant(ctx, math, a));
    };
    Expr w = binary(ctx, "subtract", scalar_constant(ctx, math, sum.a0), term(sum.a1, 1));
    if (sum.a2 != 0) w = binary(ctx, "add", w, term(sum.a2, 2));
    if (out != math) {
      w = ctx.emit_op("relax.astype", {w}, Attrs({{"dtype", AttrValue::data_type(out)}}));
    }
    return single(w);
  };
}

}  // namespace

void register_signal_converters(ConverterTable& table) {
  table.add("HannWindow", 17, cosine_window({0.5, 0.5, 0}));
  table.add("HammingWindow", 17, cosine_window({25.0 / 46, 21.0 / 46, 0}));
  table.add("BlackmanWindow", 17, cosine_window({0.42, 0.5, 0.08}));
}

}  // namespace relaxc::onnx_import
