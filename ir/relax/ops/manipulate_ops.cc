// Manipulation operators (TVM's relax/op/manipulate.py and the scans): reshape,
// flatten, permute_dims, expand_dims, squeeze, concat, split, broadcast_to, tile,
// repeat, flip, cumsum, cumprod.
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

// TVM's Python functions take an int where a list of one is meant (expand_dims'
// `axis`, tile's `repeats`) and store the list: the call carries the list, so that it
// prints as TVM prints it.
CanonicalizeFn int_to_list(std::vector<std::string> attrs) {
  return [attrs = std::move(attrs)](CallNode* call, const BlockBuilder&) {
    for (const std::string& name : attrs) {
      const AttrValue* v = call->attrs.find(name);
      if (v != nullptr && v->kind == AttrValue::Kind::Int) {
        call->attrs = call->attrs.with(name, AttrValue::int_list({v->i}));
      }
    }
  };
}

// A required attribute that is a list of integers.
std::vector<int64_t> int_list_attr(const CallNode* call, const std::string& name) {
  std::optional<std::vector<int64_t>> list = optional_int_list_attr(call, name);
  if (!list) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << name
                           << "' must be a list of integers";
  }
  return *list;
}

// An optional integer attribute (None or absent: nullopt).
std::optional<int64_t> optional_int_attr(const CallNode* call, const std::string& name) {
  const AttrValue* v = call->attrs.find(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  return int_attr(call, name);
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

// ---------------------------------------------------------------- expand_dims

// `axis` names positions in the result (numpy.expand_dims), so it is normalized
// against the result's rank.
StructInfo infer_expand_dims(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  std::vector<int64_t> axis = int_list_attr(call, "axis");
  if (x.ndim < 0) return tensor_sinfo_ndim(-1, x.dtype);
  int out_ndim = x.ndim + static_cast<int>(axis.size());
  std::vector<int> inserted = normalize_axes(call, "axis", axis, out_ndim);
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr) return tensor_sinfo_ndim(out_ndim, x.dtype);
  std::vector<bool> is_new(out_ndim, false);
  for (int a : inserted) is_new[a] = true;
  std::vector<PrimExpr> out;
  size_t next = 0;
  for (int i = 0; i < out_ndim; ++i) out.push_back(is_new[i] ? const_dim(1) : (*dims)[next++]);
  return tensor_sinfo(std::move(out), x.dtype);
}

// ---------------------------------------------------------------- squeeze

// Without `axis`, every dimension that is the constant 1 goes; a symbolic dimension
// stays (as TVM, which cannot know it is 1).
StructInfo infer_squeeze(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  std::optional<std::vector<int64_t>> axis = optional_int_list_attr(call, "axis");
  if (x.ndim < 0) return tensor_sinfo_ndim(-1, x.dtype);
  std::vector<int> axes;
  if (axis) axes = normalize_axes(call, "axis", *axis, x.ndim);
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr) {
    return tensor_sinfo_ndim(axis ? x.ndim - static_cast<int>(axes.size()) : -1, x.dtype);
  }
  std::vector<bool> removed(x.ndim, false);
  for (int a : axes) {
    const int64_t* c = tir::as_const_int((*dims)[a]);
    if (c != nullptr && *c != 1) {
      user_error(call->span) << op_display_name(call) << ": attribute 'axis': dimension " << a
                             << " of argument 'x' is " << *c << ", not 1";
    }
    removed[a] = true;
  }
  std::vector<PrimExpr> out;
  for (int i = 0; i < x.ndim; ++i) {
    bool squeezed = axis ? removed[i] : tir::is_const_int((*dims)[i], 1);
    if (!squeezed) out.push_back((*dims)[i]);
  }
  return tensor_sinfo(std::move(out), x.dtype);
}

// ---------------------------------------------------------------- concat

// The tensors of a tuple argument `index`.
std::vector<const TensorStructInfoNode*> tensor_fields(const CallNode* call, size_t index) {
  const StructInfo& sinfo = call->args[index]->struct_info;
  const auto* tuple = sinfo.as<TupleStructInfoNode>();
  if (tuple == nullptr) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must be a tuple of tensors, got " << text::print_node(sinfo);
  }
  std::vector<const TensorStructInfoNode*> out;
  for (size_t i = 0; i < tuple->fields.size(); ++i) {
    const auto* t = tuple->fields[i].as<TensorStructInfoNode>();
    if (t == nullptr) {
      user_error(call->span) << op_display_name(call) << ": field " << i << " of argument '"
                             << op_arg_name(call, index) << "' must be a tensor, got "
                             << text::print_node(tuple->fields[i]);
    }
    out.push_back(t);
  }
  return out;
}

// axis=None concatenates the flattened tensors.
StructInfo infer_concat(const CallNode* call, const BlockBuilder& bb) {
  std::vector<const TensorStructInfoNode*> tensors = tensor_fields(call, 0);
  std::optional<int64_t> axis = optional_int_attr(call, "axis");
  if (tensors.empty()) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'tensors' must hold at least one tensor";
  }
  DataType dtype = tensors[0]->dtype;
  int ndim = -1;
  for (size_t i = 0; i < tensors.size(); ++i) {
    std::string label = "tensors[" + std::to_string(i) + "]";
    if (!dtype.is_void() && !tensors[i]->dtype.is_void() && tensors[i]->dtype != dtype) {
      user_error(call->span) << op_display_name(call) << ": tensor dtypes differ: " << dtype.str()
                             << " (tensors[0]) vs " << tensors[i]->dtype.str() << " (" << label
                             << ")";
    }
    if (dtype.is_void()) dtype = tensors[i]->dtype;
    if (!axis) continue;
    if (ndim >= 0 && tensors[i]->ndim >= 0 && tensors[i]->ndim != ndim) {
      user_error(call->span) << op_display_name(call) << ": tensors have different ranks: " << ndim
                             << " (tensors[0]) vs " << tensors[i]->ndim << " (" << label << ")";
    }
    if (ndim < 0) ndim = tensors[i]->ndim;
  }
  arith::Analyzer& analyzer = bb.analyzer();
  if (!axis) {
    PrimExpr total = const_dim(0);
    for (const TensorStructInfoNode* t : tensors) {
      const std::vector<PrimExpr>* dims = known_dims(*t);
      if (dims == nullptr) return tensor_sinfo_ndim(1, dtype);
      total = tir::add(total, dims_product(*dims, analyzer));
    }
    return tensor_sinfo({analyzer.simplify(total)}, dtype);
  }
  if (ndim < 0) return tensor_sinfo_ndim(-1, dtype);
  int a = normalize_axis(call, "axis", *axis, ndim);
  std::vector<PrimExpr> out;
  PrimExpr total = const_dim(0);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const std::vector<PrimExpr>* dims = known_dims(*tensors[i]);
    if (dims == nullptr) return tensor_sinfo_ndim(ndim, dtype);
    if (out.empty()) out = *dims;
    for (int d = 0; d < ndim; ++d) {
      if (d == a) continue;
      if (prove_dim_equal(out[d], (*dims)[d], analyzer) == arith::Proof::False) {
        user_error(call->span) << op_display_name(call) << ": dimension " << d
                               << " differs between the tensors: " << dim_str(out[d])
                               << " (tensors[0]) vs " << dim_str((*dims)[d]) << " (tensors[" << i
                               << "])";
      }
    }
    total = tir::add(total, (*dims)[a]);
  }
  out[a] = analyzer.simplify(total);
  return tensor_sinfo(std::move(out), dtype);
}

// ---------------------------------------------------------------- split

StructInfo infer_split(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  const AttrValue* spec = call->attrs.find("indices_or_sections");
  bool sections = spec != nullptr && spec->kind == AttrValue::Kind::Int;
  std::vector<int64_t> indices;
  if (!sections) indices = int_list_attr(call, "indices_or_sections");
  if (sections && spec->i <= 0) {
    user_error(call->span) << op_display_name(call)
                           << ": attribute 'indices_or_sections': the number of sections must be "
                              "positive, got "
                           << spec->i;
  }
  size_t count = sections ? static_cast<size_t>(spec->i) : indices.size() + 1;
  int64_t axis_attr = int_attr(call, "axis");
  if (x.ndim >= 0) normalize_axis(call, "axis", axis_attr, x.ndim);
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr) {
    return tuple_sinfo(std::vector<StructInfo>(count, tensor_sinfo_ndim(x.ndim, x.dtype)));
  }
  int axis = normalize_axis(call, "axis", axis_attr, x.ndim);
  arith::Analyzer& analyzer = bb.analyzer();
  const PrimExpr& n = (*dims)[axis];
  std::vector<PrimExpr> bounds;  // count + 1 boundaries along the axis
  if (sections) {
    // TVM: ceil(n / sections) for each part, the rest for the last.
    PrimExpr part =
        analyzer.simplify(tir::floordiv(tir::add(n, const_dim(spec->i - 1)), const_dim(spec->i)));
    for (int64_t k = 0; k < spec->i; ++k) bounds.push_back(tir::mul(part, const_dim(k)));
    PrimExpr last = analyzer.simplify(tir::sub(n, bounds.back()));
    const int64_t* last_c = tir::as_const_int(last);
    if (last_c != nullptr && *last_c < 0) {
      user_error(call->span) << op_display_name(call)
                             << ": attribute 'indices_or_sections': " << dim_str(n)
                             << " (dimension " << axis << " of argument 'x') cannot be split into "
                             << spec->i << " sections of " << dim_str(part);
    }
  } else {
    // Indices past either end are clamped, as numpy and TVM do.
    bounds.push_back(const_dim(0));
    for (int64_t index : indices) {
      bounds.push_back(tir::min(tir::max(const_dim(index), const_dim(0)), n));
    }
  }
  bounds.push_back(n);
  std::vector<StructInfo> fields;
  for (size_t k = 0; k < count; ++k) {
    std::vector<PrimExpr> shape = *dims;
    PrimExpr length = tir::sub(bounds[k + 1], bounds[k]);
    shape[axis] = analyzer.simplify(sections ? length : tir::max(length, const_dim(0)));
    fields.push_back(tensor_sinfo(std::move(shape), x.dtype));
  }
  return tuple_sinfo(std::move(fields));
}

// ---------------------------------------------------------------- broadcast_to

StructInfo infer_broadcast_to(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  const Expr& target = call->args[1];
  const auto* shape_info = target->struct_info.as<ShapeStructInfoNode>();
  if (shape_info == nullptr) {
    user_error(call->span) << op_display_name(call) << ": argument 'shape' must be a shape, got "
                           << text::print_node(target->struct_info);
  }
  if (x.ndim >= 0 && shape_info->ndim >= 0 && x.ndim > shape_info->ndim) {
    user_error(call->span) << op_display_name(call) << ": cannot broadcast a tensor of " << x.ndim
                           << " dimensions to a shape of " << shape_info->ndim;
  }
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims != nullptr && shape_info->values) {
    const std::vector<PrimExpr>& to = *shape_info->values;
    size_t offset = to.size() - dims->size();
    for (size_t d = 0; d < dims->size(); ++d) {
      const PrimExpr& from = (*dims)[d];
      if (tir::is_const_int(from, 1)) continue;
      if (prove_dim_equal(from, to[offset + d], bb.analyzer()) == arith::Proof::False) {
        user_error(call->span) << op_display_name(call) << ": dimension " << d
                               << " of argument 'x' is " << dim_str(from)
                               << ", neither 1 nor dimension " << offset + d << " ("
                               << dim_str(to[offset + d]) << ") of argument 'shape'";
      }
    }
  }
  if (target.is<ShapeExprNode>() || target.is<VarNode>()) {
    return tensor_sinfo_shape(target, x.dtype);
  }
  if (shape_info->values) return tensor_sinfo(*shape_info->values, x.dtype);
  return tensor_sinfo_ndim(shape_info->ndim, x.dtype);
}

// ---------------------------------------------------------------- tile, repeat, flip

// numpy.tile: the shorter of the rank and `repeats` is padded with 1s on the left.
StructInfo infer_tile(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  std::vector<int64_t> repeats = int_list_attr(call, "repeats");
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] < 0) {
      user_error(call->span) << op_display_name(call) << ": attribute 'repeats': entry " << i
                             << " is " << repeats[i] << "; repeats must be non-negative";
    }
  }
  if (x.ndim < 0) return tensor_sinfo_ndim(-1, x.dtype);
  int out_ndim = std::max(x.ndim, static_cast<int>(repeats.size()));
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr) return tensor_sinfo_ndim(out_ndim, x.dtype);
  std::vector<PrimExpr> out;
  for (int i = 0; i < out_ndim; ++i) {
    int d = i - (out_ndim - x.ndim), r = i - (out_ndim - static_cast<int>(repeats.size()));
    PrimExpr dim = d >= 0 ? (*dims)[d] : const_dim(1);
    out.push_back(bb.analyzer().simplify(tir::mul(dim, const_dim(r >= 0 ? repeats[r] : 1))));
  }
  return tensor_sinfo(std::move(out), x.dtype);
}

// numpy.repeat: axis=None repeats the elements of the flattened tensor.
StructInfo infer_repeat(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  int64_t repeats = int_attr(call, "repeats");
  if (repeats < 0) {
    user_error(call->span) << op_display_name(call) << ": attribute 'repeats' is " << repeats
                           << "; it must be non-negative";
  }
  std::optional<int64_t> axis = optional_int_attr(call, "axis");
  if (!axis) {
    const std::vector<PrimExpr>* dims = known_dims(x);
    if (dims == nullptr) return tensor_sinfo_ndim(1, x.dtype);
    return tensor_sinfo(
        {bb.analyzer().simplify(tir::mul(dims_product(*dims, bb.analyzer()), const_dim(repeats)))},
        x.dtype);
  }
  if (x.ndim < 0) return tensor_sinfo_ndim(-1, x.dtype);
  int a = normalize_axis(call, "axis", *axis, x.ndim);
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr) return tensor_sinfo_ndim(x.ndim, x.dtype);
  std::vector<PrimExpr> out = *dims;
  out[a] = bb.analyzer().simplify(tir::mul(out[a], const_dim(repeats)));
  return tensor_sinfo(std::move(out), x.dtype);
}

StructInfo infer_flip(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  int64_t axis = int_attr(call, "axis");
  if (x.ndim >= 0) normalize_axis(call, "axis", axis, x.ndim);
  return call->args[0]->struct_info;
}

// ---------------------------------------------------------------- cumsum, cumprod

// axis=None scans the flattened tensor; `dtype` (void: the input's) is the result's.
StructInfo infer_scan(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  std::optional<int64_t> axis = optional_int_attr(call, "axis");
  DataType dtype = dtype_attr(call, "dtype");
  bool_attr(call, "exclusive");
  if (dtype.is_void()) dtype = x.dtype;
  if (!axis) {
    const std::vector<PrimExpr>* dims = known_dims(x);
    if (dims == nullptr) return tensor_sinfo_ndim(1, dtype);
    return tensor_sinfo({dims_product(*dims, bb.analyzer())}, dtype);
  }
  if (x.ndim >= 0) normalize_axis(call, "axis", *axis, x.ndim);
  if (const std::vector<PrimExpr>* dims = known_dims(x)) return tensor_sinfo(*dims, dtype);
  return tensor_sinfo_ndim(x.ndim, dtype);
}

}  // namespace

void register_manipulate_ops() {
  OpInfo reshape = make_op("reshape", {"x", "shape"}, infer_reshape);
  reshape.canonicalize = canonicalize_reshape;
  register_op(std::move(reshape));
  register_op(make_op("flatten", {"x"}, infer_flatten));
  register_op(make_op("permute_dims", {"x"}, infer_permute_dims, {{"axes", AttrValue::none()}}));

  OpInfo expand_dims = make_op("expand_dims", {"x"}, infer_expand_dims,
                               {{"axis", AttrValue::none(), /*required=*/true}});
  expand_dims.canonicalize = int_to_list({"axis"});
  register_op(std::move(expand_dims));
  OpInfo squeeze = make_op("squeeze", {"x"}, infer_squeeze, {{"axis", AttrValue::none()}});
  squeeze.canonicalize = int_to_list({"axis"});
  register_op(std::move(squeeze));

  register_op(make_op("concat", {"tensors"}, infer_concat, {{"axis", AttrValue::integer(0)}}));
  register_op(make_op("split", {"x"}, infer_split,
                      {{"indices_or_sections", AttrValue::none(), /*required=*/true},
                       {"axis", AttrValue::integer(0)}}));
  register_op(make_op("broadcast_to", {"x", "shape"}, infer_broadcast_to));

  OpInfo tile =
      make_op("tile", {"data"}, infer_tile, {{"repeats", AttrValue::none(), /*required=*/true}});
  tile.canonicalize = int_to_list({"repeats"});
  register_op(std::move(tile));
  register_op(
      make_op("repeat", {"data"}, infer_repeat,
              {{"repeats", AttrValue::none(), /*required=*/true}, {"axis", AttrValue::none()}}));
  register_op(
      make_op("flip", {"data"}, infer_flip, {{"axis", AttrValue::none(), /*required=*/true}}));

  for (const char* scan : {"cumsum", "cumprod"}) {
    register_op(make_op(scan, {"data"}, infer_scan,
                        {{"axis", AttrValue::none()},
                         {"dtype", AttrValue::data_type(DataType::Void())},
                         {"exclusive", AttrValue::boolean(false)}}));
  }
}

}  // namespace relaxc::relax
