// Tensor operators: reshape, flatten, permute_dims.
#include <sstream>

#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/struct_info_analysis.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

std::string shape_str(const std::vector<PrimExpr>& dims) {
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < dims.size(); ++i) os << (i ? ", " : "") << dim_str(dims[i]);
  os << (dims.size() == 1 ? ",)" : ")");
  return os.str();
}

// ---------------------------------------------------------------- reshape

// Resolves a -1 in a ShapeExpr new shape from the input's element count, so that the
// call carries the shape it produces.
void canonicalize_reshape(CallNode* call, const BlockBuilder& bb) {
  if (call->args.size() < 2) return;
  const auto* shape = call->args[1].as<ShapeExprNode>();
  if (shape == nullptr) return;
  int inferred = -1;
  std::vector<PrimExpr> rest;
  for (size_t i = 0; i < shape->values.size(); ++i) {
    const int64_t* c = tir::as_const_int(shape->values[i]);
    if (c != nullptr && *c < -1) {
      user_error(call->span) << op_display_name(call) << ": dimension " << i
                             << " of the new shape is " << *c
                             << "; dimensions must be non-negative (or one -1, inferred)";
    }
    if (c != nullptr && *c == -1) {
      if (inferred >= 0) {
        user_error(call->span) << op_display_name(call)
                               << ": at most one dimension of the new shape may be -1";
      }
      inferred = static_cast<int>(i);
    } else {
      rest.push_back(shape->values[i]);
    }
  }
  if (inferred < 0) return;
  const std::vector<PrimExpr>* in_dims = known_dims(tensor_arg(call, 0));
  if (in_dims == nullptr) {
    user_error(call->span) << op_display_name(call)
                           << ": cannot infer the -1 dimension of the new shape: the shape of "
                              "argument 'x' is unknown";
  }
  arith::Analyzer& analyzer = bb.analyzer();
  PrimExpr total = dims_product(*in_dims, analyzer);
  PrimExpr known = dims_product(rest, analyzer);
  const int64_t* total_c = tir::as_const_int(total);
  const int64_t* known_c = tir::as_const_int(known);
  bool divisible =
      known_c == nullptr || (*known_c != 0 && (total_c == nullptr || *total_c % *known_c == 0));
  if (divisible && known_c == nullptr) {
    divisible =
        analyzer.prove(tir::eq(tir::floormod(total, known), const_dim(0))) != arith::Proof::False;
  }
  if (!divisible) {
    user_error(call->span) << op_display_name(call) << ": cannot reshape a tensor of shape "
                           << shape_str(*in_dims) << " to " << shape_str(shape->values) << ": "
                           << dim_str(total) << " elements do not divide into rows of "
                           << dim_str(known);
  }
  std::vector<PrimExpr> values = shape->values;
  values[inferred] = analyzer.simplify(tir::floordiv(total, known));
  call->args[1] = make_shape_expr(std::move(values), call->args[1]->span);
}

StructInfo infer_reshape(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  const Expr& new_shape = call->args[1];
  const auto* shape_info = new_shape->struct_info.as<ShapeStructInfoNode>();
  if (shape_info == nullptr) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'shape' must be a shape (R.shape([...]) or a shape "
                              "variable), got "
                           << text::print_node(new_shape->struct_info);
  }
  const std::vector<PrimExpr>* in_dims = known_dims(x);
  if (in_dims != nullptr && shape_info->values) {
    arith::Analyzer& analyzer = bb.analyzer();
    PrimExpr before = dims_product(*in_dims, analyzer);
    PrimExpr after = dims_product(*shape_info->values, analyzer);
    if (prove_dim_equal(before, after, analyzer) == arith::Proof::False) {
      user_error(call->span) << op_display_name(call) << ": cannot reshape a tensor of shape "
                             << shape_str(*in_dims) << " (" << dim_str(before)
                             << " elements) to shape " << shape_str(*shape_info->values) << " ("
                             << dim_str(after) << " elements)";
    }
  }
  if (new_shape.is<ShapeExprNode>() || new_shape.is<VarNode>()) {
    return tensor_sinfo_shape(new_shape, x.dtype);
  }
  if (shape_info->values) return tensor_sinfo(*shape_info->values, x.dtype);
  return tensor_sinfo_ndim(shape_info->ndim, x.dtype);
}

// ---------------------------------------------------------------- flatten

StructInfo infer_flatten(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr) return tensor_sinfo_ndim(1, x.dtype);
  return tensor_sinfo({dims_product(*dims, bb.analyzer())}, x.dtype);
}

// ---------------------------------------------------------------- permute_dims

StructInfo infer_permute_dims(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  std::optional<std::vector<int64_t>> axes = optional_int_list_attr(call, "axes");
  if (x.ndim < 0) {
    return tensor_sinfo_ndim(axes ? static_cast<int>(axes->size()) : -1, x.dtype);
  }
  std::vector<int> perm;
  if (axes) {
    if (static_cast<int>(axes->size()) != x.ndim) {
      user_error(call->span) << op_display_name(call) << ": attribute 'axes' has " << axes->size()
                             << " entries but argument 'x' has " << x.ndim << " dimension(s)";
    }
    perm = normalize_axes(call, "axes", *axes, x.ndim);
  }
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr) return tensor_sinfo_ndim(x.ndim, x.dtype);
  if (!axes) {
    for (int i = x.ndim - 1; i >= 0; --i) perm.push_back(i);
  }
  std::vector<PrimExpr> out;
  for (int axis : perm) out.push_back((*dims)[axis]);
  return tensor_sinfo(std::move(out), x.dtype);
}

OpInfo tensor_op(const std::string& name, std::vector<std::string> arg_names,
                 InferStructInfoFn infer) {
  OpInfo info;
  info.name = "relax." + name;
  info.num_required_args = static_cast<int>(arg_names.size());
  info.arg_names = std::move(arg_names);
  info.infer = std::move(infer);
  return info;
}

}  // namespace

void register_tensor_ops() {
  OpInfo reshape = tensor_op("reshape", {"x", "shape"}, infer_reshape);
  reshape.canonicalize = canonicalize_reshape;
  register_op(std::move(reshape));

  register_op(tensor_op("flatten", {"x"}, infer_flatten));

  OpInfo permute = tensor_op("permute_dims", {"x"}, infer_permute_dims);
  permute.attrs = {{"axes", AttrValue::none()}};
  register_op(std::move(permute));}

}  // namespace relaxc::relax
