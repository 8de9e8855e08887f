// Creation operators: full, zeros, ones (and their _like forms), arange, eye, tril,
// triu, one_hot.
#include <cmath>
#include <optional>

#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

// A tensor of the shape given by argument `index` (a shape value) and `dtype`.
StructInfo tensor_of_shape_arg(const CallNode* call, size_t index, DataType dtype) {
  const Expr& shape = call->args[index];
  const auto* info = shape->struct_info.as<ShapeStructInfoNode>();
  if (info == nullptr) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must be a shape (R.shape([...]) or a shape variable), got "
                           << text::print_node(shape->struct_info);
  }
  if (info->values) {
    for (size_t i = 0; i < info->values->size(); ++i) {
      const int64_t* c = tir::as_const_int((*info->values)[i]);
      if (c != nullptr && *c < 0) {
        user_error(call->span) << op_display_name(call) << ": dimension " << i << " of argument '"
                               << op_arg_name(call, index) << "' is " << *c
                               << "; dimensions must be non-negative";
      }
    }
  }
  if (shape.is<ShapeExprNode>() || shape.is<VarNode>()) return tensor_sinfo_shape(shape, dtype);
  if (info->values) return tensor_sinfo(*info->values, dtype);
  return tensor_sinfo_ndim(info->ndim, dtype);
}

// The input's StructInfo with the dtype of attribute 'dtype' if given.
StructInfo like_input(const CallNode* call) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  DataType dtype = dtype_attr(call, "dtype");
  if (dtype.is_void()) return call->args[0]->struct_info;
  if (x.shape.defined()) return tensor_sinfo_shape(x.shape, dtype);
  return tensor_sinfo_ndim(x.ndim, dtype);
}

// The dtype of a scalar fill value, a 0-d tensor.
DataType fill_value_dtype(const CallNode* call, size_t index) {
  const TensorStructInfoNode& fill = tensor_arg(call, index);
  if (fill.ndim > 0) {
    user_error(call->span) << op_display_name(call) << ": argument 'fill_value' must be a 0-d "
                           << "tensor (a scalar), got " << fill.ndim << " dimension(s)";
  }
  return fill.dtype;
}

StructInfo infer_full(const CallNode* call, const BlockBuilder&) {
  DataType fill = fill_value_dtype(call, 1);
  DataType dtype = dtype_attr(call, "dtype");
  return tensor_of_shape_arg(call, 0, dtype.is_void() ? fill : dtype);
}

StructInfo infer_full_like(const CallNode* call, const BlockBuilder&) {
  fill_value_dtype(call, 1);
  return like_input(call);
}

StructInfo infer_ones_zeros(const CallNode* call, const BlockBuilder&) {
  DataType dtype = dtype_attr(call, "dtype");
  if (dtype.is_void()) {
    user_error(call->span) << op_display_name(call) << ": attribute 'dtype' must be a data type";
  }
  return tensor_of_shape_arg(call, 0, dtype);
}

StructInfo infer_like(const CallNode* call, const BlockBuilder&) { return like_input(call); }

PrimExpr as_dim(const PrimExpr& value) {
  return value->dtype == DataType::Int(64) ? value : tir::cast(DataType::Int(64), value);
}

// A constant number (integer or float), or nullopt.
std::optional<double> const_number(const PrimExpr& e) {
  if (const int64_t* i = tir::as_const_int(e)) return static_cast<double>(*i);
  if (const auto* f = e.as<tir::FloatImmNode>()) return f->value;
  return std::nullopt;
}

// arange(start, end, step): ceil((end - start) / step) elements.
StructInfo infer_arange(const CallNode* call, const BlockBuilder& bb) {
  const PrimStructInfoNode* bounds[3] = {&prim_arg(call, 0), &prim_arg(call, 1),
                                         &prim_arg(call, 2)};
  bool all_int = true, all_known = true;
  for (const PrimStructInfoNode* b : bounds) {
    all_int = all_int && (b->dtype.is_int() || b->dtype.is_uint());
    all_known = all_known && b->value.defined();
  }
  DataType dtype = dtype_attr(call, "dtype");
  // TVM's R.arange picks int64 for integer bounds, else float32.
  if (dtype.is_void()) dtype = all_int ? DataType::Int(64) : DataType::Float(32);
  if (!all_known) return tensor_sinfo_ndim(1, dtype);
  const PrimExpr& start = bounds[0]->value;
  const PrimExpr& end = bounds[1]->value;
  const PrimExpr& step = bounds[2]->value;
  if (const_number(step) == 0.0) {
    user_error(call->span) << op_display_name(call) << ": argument 'step' must not be 0";
  }
  PrimExpr count;
  if (all_int) {
    PrimExpr span = tir::sub(as_dim(end), as_dim(start));
    PrimExpr s = as_dim(step);
    const int64_t* step_c = tir::as_const_int(s);
    // ceil(span / step) as a floor division, rounding toward the step's sign.
    PrimExpr bias =
        step_c != nullptr && *step_c < 0 ? tir::add(s, const_dim(1)) : tir::sub(s, const_dim(1));
    count = bb.analyzer().simplify(tir::floordiv(tir::add(span, bias), s));
    // An empty range; a symbolic count is taken as TVM takes it, without a clamp that
    // would hide the dimension's form.
    if (const int64_t* c = tir::as_const_int(count); c != nullptr && *c < 0) count = const_dim(0);
  } else {
    std::optional<double> a = const_number(start), b = const_number(end), s = const_number(step);
    if (!a || !b || !s) return tensor_sinfo_ndim(1, dtype);
    double elements = std::ceil((*b - *a) / *s);
    // A count that is not a number, or past what an int64 dimension holds, is no tensor.
    if (!(elements < 9.2e18)) {
      user_error(call->span) << op_display_name(call) << ": the range from " << *a << " to " << *b
                             << " by " << *s << " has " << elements
                             << " elements, more than a tensor can hold";
    }
    // A range that runs the other way is empty (compared as a double: a count below
    // what an int64 holds, -inf included, must not be converted).
    count = const_dim(elements > 0 ? static_cast<int64_t>(elements) : 0);
  }
  return tensor_sinfo({bb.analyzer().simplify(count)}, dtype);
}

StructInfo infer_eye(const CallNode* call, const BlockBuilder&) {
  std::vector<PrimExpr> dims;
  for (size_t i = 0; i < 3; ++i) {
    const PrimStructInfoNode& arg = prim_arg(call, i);
    if (!arg.dtype.is_void() && !arg.dtype.is_int() && !arg.dtype.is_uint()) {
      user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, i)
                             << "' must be an integer, got " << arg.dtype.str();
    }
    if (i < 2) dims.push_back(arg.value);
  }
  DataType dtype = dtype_attr(call, "dtype");
  if (!dims[0].defined() || !dims[1].defined()) return tensor_sinfo_ndim(2, dtype);
  return tensor_sinfo({as_dim(dims[0]), as_dim(dims[1])}, dtype);
}

StructInfo infer_tril_triu(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  if (x.ndim >= 0 && x.ndim < 2) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'x' must have at least 2 dimensions, got " << x.ndim;
  }
  const PrimStructInfoNode& k = prim_arg(call, 1);
  if (!k.dtype.is_void() && !k.dtype.is_int() && !k.dtype.is_uint()) {
    user_error(call->span) << op_display_name(call) << ": argument 'k' must be an integer, got "
                           << k.dtype.str();
  }
  return call->args[0]->struct_info;
}

// one_hot(indices, on_value, off_value, depth, axis): a new dimension of `depth` at
// `axis` (in [-ndim-1, ndim]), the dtype of the on/off values.
StructInfo infer_one_hot(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& indices = tensor_arg(call, 0);
  if (!indices.dtype.is_void() && !indices.dtype.is_int() && !indices.dtype.is_uint()) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'indices' must have an integer dtype, got "
                           << indices.dtype.str();
  }
  DataType dtype =
      unify_dtypes(call, prim_arg(call, 1).dtype, prim_arg(call, 2).dtype, "on_value", "off_value");
  int64_t depth = int_attr(call, "depth");
  if (depth <= 0) {
    user_error(call->span) << op_display_name(call) << ": attribute 'depth' (" << depth
                           << ") must be positive";
  }
  int64_t axis = int_attr(call, "axis");
  if (indices.ndim < 0) return tensor_sinfo_ndim(-1, dtype);
  int a = normalize_axis(call, "axis", axis, indices.ndim + 1);
  const std::vector<PrimExpr>* dims = known_dims(indices);
  if (dims == nullptr) return tensor_sinfo_ndim(indices.ndim + 1, dtype);
  std::vector<PrimExpr> out = *dims;
  out.insert(out.begin() + a, const_dim(depth));
  return tensor_sinfo(std::move(out), dtype);
}

OpAttrSpec dtype_spec(DataType default_dtype = DataType::Void(), bool required = false) {
  return {"dtype", AttrValue::data_type(default_dtype), required};
}

}  // namespace

void register_creation_ops() {
  register_op(make_op("full", {"shape", "fill_value"}, infer_full, {dtype_spec()}));
  register_op(make_op("full_like", {"x", "fill_value"}, infer_full_like, {dtype_spec()}));
  for (const char* name : {"zeros", "ones"}) {
    register_op(make_op(name, {"shape"}, infer_ones_zeros, {dtype_spec(DataType::Void(), true)}));
  }
  for (const char* name : {"zeros_like", "ones_like"}) {
    register_op(make_op(name, {"x"}, infer_like, {dtype_spec()}));
  }
  register_op(make_op("arange", {"start", "end", "step"}, infer_arange, {dtype_spec()}));
  register_op(make_op("eye", {"n", "m", "k"}, infer_eye, {dtype_spec(DataType::Float(32))}));
  for (const char* name : {"tril", "triu"}) {
    register_op(make_op(name, {"x", "k"}, infer_tril_triu));
  }
  register_op(make_op("one_hot", {"indices", "on_value", "off_value"}, infer_one_hot,
                      {{"depth", AttrValue::integer(0), true}, {"axis", AttrValue::integer(-1)}}));
}

}  // namespace relaxc::relax
