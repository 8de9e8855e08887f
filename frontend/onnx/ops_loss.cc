// ONNX converters of the losses: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss,
// the latter the former of log_softmax over the class axis. Both are composed from
// gather_elements, take, where and the reductions.
//
// For an input of shape (N, C, d1, ..., dk) and a target of (N, d1, ..., dk), the loss of
// element (n, d...) is -input[n, target[n, d...], d...], times weight[target[n, d...]]
// when a weight is given. A target equal to ignore_index adds 0 and weighs nothing in
// the mean; it may be any integer, also outside [0, C), so it is replaced by class 0
// before anything is gathered and its loss and weight are masked afterwards.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "frontend/onnx/converter.h"
#include "frontend/onnx/op_helpers.h"
#include "ir/tir/expr.h"

namespace relaxc::onnx_import {

namespace {

using relax::Expr;
using relax::PrimExpr;

// The ONNX names of the inputs (which differ between the two operators), for errors.
struct LossInputNames {
  const char* input;
  const char* target;
  const char* weight;
};

// The checks of the shapes the specification requires: an error naming the input when a
// rank, a dtype or a constant dimension contradicts them. Symbolic dimensions are taken
// as given.
void check_loss_inputs(const NodeContext& ctx, const LossInputNames& names) {
  const relax::TensorStructInfoNode& input = input_tensor(ctx, 0, names.input);
  const relax::TensorStructInfoNode& target = input_tensor(ctx, 1, names.target);
  std::string input_name = std::string("input 0 '") + names.input + "'";
  std::string target_name = std::string("input 1 '") + names.target + "'";
  if (!input.dtype.is_float()) {
    ctx.invalid(input_name + " must be a floating-point tensor, got " + input.dtype.str());
  }
  if (input.ndim < 2) {
    ctx.invalid(input_name + " must have at least 2 dimensions (N, C, d1, ..., dk), got " +
                std::to_string(input.ndim));
  }
  if (!target.dtype.is_int() || (target.dtype.bits() != 32 && target.dtype.bits() != 64)) {
    ctx.invalid(target_name + " must be an int32 or int64 tensor, got " + target.dtype.str());
  }
  if (target.ndim != input.ndim - 1) {
    ctx.invalid(target_name + " must have " + std::to_string(input.ndim - 1) +
                " dimensions (N, d1, ..., dk: those of " + input_name + " without C), got " +
                std::to_string(target.ndim));
  }
  const std::vector<PrimExpr>* input_dims = input.shape_values();
  const std::vector<PrimExpr>* target_dims = target.shape_values();
  if (input_dims != nullptr && target_dims != nullptr) {
    for (size_t i = 0; i < target_dims->size(); ++i) {
      size_t input_axis = i == 0 ? 0 : i + 1;
      const int64_t* want = tir::as_const_int((*input_dims)[input_axis]);
      const int64_t* got = tir::as_const_int((*target_dims)[i]);
      if (want != nullptr && got != nullptr && *want != *got) {
        ctx.invalid("dimension " + std::to_string(i) + " of " + target_name + " is " +
                    std::to_string(*got) + "; it must be dimension " + std::to_string(input_axis) +
                    " of " + input_name + ", " + std::to_string(*want));
      }
    }
  }
  if (!ctx.has_input(2)) return;
  const relax::TensorStructInfoNode& weight = input_tensor(ctx, 2, names.weight);
  std::string weight_name = std::string("input 2 '") + names.weight + "'";
  if (weight.ndim != 1) {
    ctx.invalid(weight_name + " must have 1 dimension (C), got " + std::to_string(weight.ndim));
  }
  if (weight.dtype != input.dtype) {
    ctx.invalid(weight_name + " must have the type of " + input_name + ", " + input.dtype.str() +
                ", got " + weight.dtype.str());
  }
  const std::vector<PrimExpr>* weight_dims = weight.shape_values();
  if (input_dims != nullptr && weight_dims != nullptr) {
    const int64_t* classes = tir::as_const_int((*input_dims)[1]);
    const int64_t* got = tir::as_const_int((*weight_dims)[0]);
    if (classes != nullptr && got != nullptr && *classes != *got) {
      ctx.invalid(weight_name + " has " + std::to_string(*got) + " elements; it must have C = " +
                  std::to_string(*classes) + " (dimension 1 of " + input_name + ")");
    }
  }
}

// The attribute 'reduction', checked.
std::string reduction_of(const NodeContext& ctx) {
  std::string reduction = ctx.attr_string("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean") {
    ctx.invalid("attribute 'reduction' is '" + reduction + "'; expected 'none', 'sum' or 'mean'");
  }
  return reduction;
}

// The attribute 'ignore_index', if given and some target of `target_dtype` can equal it
// (an int32 target never equals an index outside int32's range).
std::optional<int64_t> ignore_index_of(const NodeContext& ctx, DataType target_dtype) {
  if (!ctx.has_attr("ignore_index")) return std::nullopt;
  int64_t index = ctx.attr_int("ignore_index");
  if (target_dtype.bits() == 32 && (index < std::numeric_limits<int32_t>::min() ||
                                    index > std::numeric_limits<int32_t>::max())) {
    return std::nullopt;
  }
  // Relax constants are made from doubles, which hold integers exactly up to 2^53.
  constexpr int64_t exact = int64_t{1} << 53;
  if (index < -exact || index > exact) {
    ctx.unsupported("attribute 'ignore_index' = " + std::to_string(index) +
                    " is not supported; its magnitude must be at most 2^53");
  }
  return index;
}

// The negative log-likelihood loss of `log_prob` (input 0 or its log_softmax, of
// `dtype`) for the targets of input 1 and the optional class weights of input 2.
Expr nll_loss(NodeContext& ctx, Expr log_prob, DataType dtype, const std::string& reduction) {
  Expr target = ctx.tensor(1);
  DataType target_dtype = input_tensor(ctx, 1, "target").dtype;
  std::optional<Expr> ignored;
  if (std::optional<int64_t> ignore_index = ignore_index_of(ctx, target_dtype)) {
    ignored = binary(ctx, "equal", target,
                     scalar_constant(ctx, target_dtype, static_cast<double>(*ignore_index)));
    target = ctx.emit_op("relax.where", {*ignored, scalar_constant(ctx, target_dtype, 0), target});
  }
  Attrs class_axis({{"axis", AttrValue::int_list({1})}});
  Expr picked =
      ctx.emit_op("relax.gather_elements",
                  {std::move(log_prob), ctx.emit_op("relax.expand_dims", {target}, class_axis)},
                  Attrs({{"axis", AttrValue::integer(1)}}));
  Expr loss = ctx.emit_op("relax.negative", {ctx.emit_op("relax.squeeze", {picked}, class_axis)});
  // The weight of each element (of the target's shape): its class's weight, 0 where the
  // target is ignored.
  std::optional<Expr> weight;
  if (ctx.has_input(2)) {
    weight = ctx.emit_op("relax.take", {ctx.tensor(2), target},
                         Attrs({{"axis", AttrValue::integer(0)}}));
  }
  if (ignored) {
    weight = ctx.emit_op("relax.where", {*ignored, scalar_constant(ctx, dtype, 0),
                                         weight ? *weight : scalar_constant(ctx, dtype, 1)});
  }
  if (weight) loss = binary(ctx, "multiply", loss, *weight);
  if (reduction == "none") return loss;
  Attrs all({{"axis", AttrValue::none()}, {"keepdims", AttrValue::boolean(false)}});
  if (reduction == "sum") return ctx.emit_op("relax.sum", {loss}, all);
  if (!weight) return ctx.emit_op("relax.mean", {loss}, all);
  // The weighted mean divides by the weight of the targets counted.
  return binary(ctx, "divide", ctx.emit_op("relax.sum", {loss}, all),
                ctx.emit_op("relax.sum", {*weight}, all));
}

std::vector<Value> convert_nll_loss(NodeContext& ctx) {
  std::string reduction = reduction_of(ctx);
  check_loss_inputs(ctx, {"input", "target", "weight"});
  return single(nll_loss(ctx, ctx.tensor(0), input_tensor(ctx, 0, "input").dtype, reduction));
}

// SoftmaxCrossEntropyLoss: its second output is the log_softmax of the scores.
std::vector<Value> convert_softmax_cross_entropy_loss(NodeContext& ctx) {
  std::string reduction = reduction_of(ctx);
  check_loss_inputs(ctx, {"scores", "labels", "weights"});
  Expr log_prob = ctx.emit_op("relax.nn.log_softmax", {ctx.tensor(0)},
                              Attrs({{"axis", AttrValue::integer(1)}}));
  Expr loss = nll_loss(ctx, log_prob, input_tensor(ctx, 0, "scores").dtype, reduction);
  return {Value{loss, {}, {}}, Value{log_prob, {}, {}}};
}

}  // namespace

void register_loss_converters(ConverterTable& table) {
  table.add("NegativeLogLikelihoodLoss", 12, convert_nll_loss);
  table.add("SoftmaxCrossEntropyLoss", 12, convert_softmax_cross_entropy_loss);
}

}  // namespace relaxc::onnx_import
