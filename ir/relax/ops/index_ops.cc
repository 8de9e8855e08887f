// Indexing operators (TVM's relax/op/index.py and the gathers and scatters of
// manipulate.py): strided_slice, dynamic_strided_slice, take, gather_elements,
// gather_nd, scatter_elements, scatter_nd.
#include <limits>

#include "ir/relax/analysis.h"
#include "ir/relax/block_builder.h"
#include "ir/relax/ops/op_common.h"
#include "ir/relax/struct_info_analysis.h"
#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

// A string attribute that must be one of `allowed`.
std::string choice_attr(const CallNode* call, const std::string& name,
                        const std::vector<std::string>& allowed) {
  const AttrValue* v = call->attrs.find(name);
  std::string list;
  bool ok = false;
  for (const std::string& a : allowed) {
    list += (list.empty() ? "\"" : ", \"") + a + "\"";
    ok = ok || (v != nullptr && v->kind == AttrValue::Kind::String && v->s == a);
  }
  if (!ok) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << name
                           << "' must be one of " << list;
  }
  return v->s;
}

// A UserError unless a known dtype of argument `index` is an integer type (indices).
void require_int_dtype(const CallNode* call, size_t index, DataType dtype) {
  if (!dtype.is_void() && !dtype.is_integer()) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must have an integer dtype, got " << dtype.str();
  }
}

void require_same_ndim(const CallNode* call, size_t a, int a_ndim, size_t b, int b_ndim) {
  if (a_ndim >= 0 && b_ndim >= 0 && a_ndim != b_ndim) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, b)
                           << "' has " << b_ndim << " dimension(s) but argument '"
                           << op_arg_name(call, a) << "' has " << a_ndim;
  }
}

void require_same_dtype(const CallNode* call, size_t a, DataType a_dtype, size_t b,
                        DataType b_dtype) {
  unify_dtypes(call, a_dtype, b_dtype, op_arg_name(call, a), op_arg_name(call, b));
}

// The values of a tuple-of-PrimValue argument (strided_slice's axes, begin, end,
// strides): nullopt if the argument is not a tuple of known scalars.
std::optional<std::vector<PrimExpr>> prim_tuple_arg(const CallNode* call, size_t index) {
  const StructInfo& sinfo = call->args[index]->struct_info;
  const auto* tuple = sinfo.as<TupleStructInfoNode>();
  if (tuple == nullptr) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must be a tuple of integers, got " << text::print_node(sinfo);
  }
  std::vector<PrimExpr> values;
  for (size_t i = 0; i < tuple->fields.size(); ++i) {
    const auto* prim = tuple->fields[i].as<PrimStructInfoNode>();
    if (prim == nullptr || (!prim->dtype.is_void() && !prim->dtype.is_integer())) {
      user_error(call->span) << op_display_name(call) << ": entry " << i << " of argument '"
                             << op_arg_name(call, index) << "' must be an integer, got "
                             << text::print_node(tuple->fields[i]);
    }
    if (!prim->value.defined()) return std::nullopt;
    values.push_back(prim->value->dtype == DataType::Int(64)
                         ? prim->value
                         : tir::cast(DataType::Int(64), prim->value));
  }
  return values;
}

// ---------------------------------------------------------------- strided_slice

StructInfo infer_strided_slice(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  std::optional<StridedSlice> slice = strided_slice_of(call);
  if (!slice) return tensor_sinfo_ndim(x.ndim, x.dtype);
  std::vector<PrimExpr> out = *known_dims(x);
  for (size_t k = 0; k < slice->axes.size(); ++k) out[slice->axes[k]] = slice->lengths[k];
  return tensor_sinfo(std::move(out), x.dtype);
}

StructInfo infer_dynamic_strided_slice(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  for (size_t i = 1; i < 4; ++i) {
    const TensorStructInfoNode& t = tensor_arg(call, i);
    require_int_dtype(call, i, t.dtype);
    if (t.ndim >= 0 && t.ndim != 1) {
      user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, i)
                             << "' must be a 1-D tensor, got " << t.ndim << " dimension(s)";
    }
    const std::vector<PrimExpr>* dims = known_dims(t);
    const int64_t* length = dims != nullptr ? tir::as_const_int((*dims)[0]) : nullptr;
    if (x.ndim >= 0 && length != nullptr && *length != x.ndim) {
      user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, i)
                             << "' has " << *length << " entries but argument 'x' has " << x.ndim
                             << " dimension(s)";
    }
  }
  return tensor_sinfo_ndim(x.ndim, x.dtype);
}

// ---------------------------------------------------------------- take

// numpy.take: x.shape[:axis] + indices.shape + x.shape[axis + 1:]; without an axis, x
// must be 1-D (TVM). The indices may be a PrimValue: one index, as a 0-d tensor.
StructInfo infer_take(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  static const std::vector<PrimExpr> kScalar;
  struct {
    int ndim;
    const std::vector<PrimExpr>* dims;
  } indices;
  if (const auto* prim = call->args[1]->struct_info.as<PrimStructInfoNode>()) {
    require_int_dtype(call, 1, prim->dtype);
    indices = {0, &kScalar};
  } else {
    const TensorStructInfoNode& tensor = tensor_arg(call, 1);
    require_int_dtype(call, 1, tensor.dtype);
    indices = {tensor.ndim, known_dims(tensor)};
  }
  choice_attr(call, "mode", {"fast", "clip", "wrap", "nan"});
  const AttrValue* axis_value = call->attrs.find("axis");
  bool has_axis = axis_value != nullptr && !axis_value->is_none();
  int64_t axis_attr = has_axis ? int_attr(call, "axis") : 0;
  if (!has_axis && x.ndim >= 0 && x.ndim != 1) {
    user_error(call->span) << op_display_name(call)
                           << ": without attribute 'axis', argument 'x' must be 1-D, got " << x.ndim
                           << " dimension(s)";
  }
  if (x.ndim < 0 || indices.ndim < 0) return tensor_sinfo_ndim(-1, x.dtype);
  int axis = normalize_axis(call, "axis", axis_attr, x.ndim);
  int out_ndim = x.ndim - 1 + indices.ndim;
  const std::vector<PrimExpr>* x_dims = known_dims(x);
  const std::vector<PrimExpr>* i_dims = indices.dims;
  if (x_dims == nullptr || i_dims == nullptr) return tensor_sinfo_ndim(out_ndim, x.dtype);
  std::vector<PrimExpr> out(x_dims->begin(), x_dims->begin() + axis);
  out.insert(out.end(), i_dims->begin(), i_dims->end());
  out.insert(out.end(), x_dims->begin() + axis + 1, x_dims->end());
  return tensor_sinfo(std::move(out), x.dtype);
}

// ---------------------------------------------------------------- gather_elements

StructInfo infer_gather_elements(const CallNode* call, const BlockBuilder&) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  const TensorStructInfoNode& indices = tensor_arg(call, 1);
  require_int_dtype(call, 1, indices.dtype);
  require_same_ndim(call, 0, data.ndim, 1, indices.ndim);
  int64_t axis = int_attr(call, "axis");
  int ndim = data.ndim >= 0 ? data.ndim : indices.ndim;
  if (ndim >= 0) normalize_axis(call, "axis", axis, ndim);
  if (const std::vector<PrimExpr>* dims = known_dims(indices)) {
    return tensor_sinfo(*dims, data.dtype);
  }
  return tensor_sinfo_ndim(ndim, data.dtype);
}

// ---------------------------------------------------------------- gather_nd

// The last dimension of `indices` (argument 1), which must be a constant: the number
// of leading dimensions of data each index addresses.
std::optional<int64_t> index_depth(const CallNode* call, const TensorStructInfoNode& indices) {
  if (indices.ndim == 0) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'indices' must have at least 1 dimension";
  }
  const std::vector<PrimExpr>* dims = known_dims(indices);
  if (dims == nullptr) return std::nullopt;
  const int64_t* depth = tir::as_const_int(dims->back());
  if (depth == nullptr) {
    user_error(call->span) << op_display_name(call) << ": the last dimension of argument "
                           << "'indices' (dimension " << indices.ndim - 1
                           << ") must be a constant, got " << dim_str(dims->back());
  }
  return *depth;
}

// ONNX GatherND: indices.shape[:-1] + data.shape[batch_dims + depth:].
StructInfo infer_gather_nd(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  const TensorStructInfoNode& indices = tensor_arg(call, 1);
  require_int_dtype(call, 1, indices.dtype);
  int64_t batch_dims = int_attr(call, "batch_dims");
  if (batch_dims < 0 || (indices.ndim >= 0 && batch_dims >= indices.ndim)) {
    user_error(call->span) << op_display_name(call) << ": attribute 'batch_dims' (" << batch_dims
                           << ") must be at least 0 and less than the rank of argument 'indices'";
  }
  std::optional<int64_t> depth = index_depth(call, indices);
  if (data.ndim < 0 || !depth) return tensor_sinfo_ndim(-1, data.dtype);
  if (*depth < 1 || batch_dims + *depth > data.ndim) {
    user_error(call->span) << op_display_name(call) << ": the last dimension of argument "
                           << "'indices' (" << *depth << ") must be between 1 and "
                           << data.ndim - batch_dims << " (the rank of argument 'data' less "
                           << "attribute 'batch_dims')";
  }
  const std::vector<PrimExpr>* d_dims = known_dims(data);
  const std::vector<PrimExpr>* i_dims = known_dims(indices);
  int out_ndim = indices.ndim - 1 + data.ndim - static_cast<int>(batch_dims + *depth);
  if (d_dims == nullptr) return tensor_sinfo_ndim(out_ndim, data.dtype);
  for (int64_t b = 0; b < batch_dims; ++b) {
    if (prove_dim_equal((*d_dims)[b], (*i_dims)[b], bb.analyzer()) == arith::Proof::False) {
      user_error(call->span) << op_display_name(call) << ": batch dimension " << b
                             << " differs: " << dim_str((*d_dims)[b]) << " (data) vs "
                             << dim_str((*i_dims)[b]) << " (indices)";
    }
  }
  std::vector<PrimExpr> out(i_dims->begin(), i_dims->end() - 1);
  out.insert(out.end(), d_dims->begin() + batch_dims + *depth, d_dims->end());
  return tensor_sinfo(std::move(out), data.dtype);
}

// ---------------------------------------------------------------- scatters

void require_same_dims(const CallNode* call, size_t a, const std::vector<PrimExpr>& a_dims,
                       size_t b, const std::vector<PrimExpr>& b_dims, arith::Analyzer& analyzer) {
  for (size_t d = 0; d < a_dims.size() && d < b_dims.size(); ++d) {
    if (prove_dim_equal(a_dims[d], b_dims[d], analyzer) == arith::Proof::False) {
      user_error(call->span) << op_display_name(call) << ": dimension " << d
                             << " differs: " << dim_str(a_dims[d]) << " (" << op_arg_name(call, a)
                             << ") vs " << dim_str(b_dims[d]) << " (" << op_arg_name(call, b)
                             << ")";
    }
  }
}

StructInfo infer_scatter_elements(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  const TensorStructInfoNode& indices = tensor_arg(call, 1);
  const TensorStructInfoNode& updates = tensor_arg(call, 2);
  require_int_dtype(call, 1, indices.dtype);
  require_same_dtype(call, 0, data.dtype, 2, updates.dtype);
  require_same_ndim(call, 0, data.ndim, 1, indices.ndim);
  require_same_ndim(call, 1, indices.ndim, 2, updates.ndim);
  choice_attr(call, "reduction", {"update", "add", "mul", "mean", "max", "min"});
  int64_t axis = int_attr(call, "axis");
  if (data.ndim >= 0) normalize_axis(call, "axis", axis, data.ndim);
  const std::vector<PrimExpr>* i_dims = known_dims(indices);
  const std::vector<PrimExpr>* u_dims = known_dims(updates);
  if (i_dims != nullptr && u_dims != nullptr) {
    require_same_dims(call, 1, *i_dims, 2, *u_dims, bb.analyzer());
  }
  return call->args[0]->struct_info;
}

// ONNX ScatterND: updates.shape = indices.shape[:-1] + data.shape[depth:].
StructInfo infer_scatter_nd(const CallNode* call, const BlockBuilder& bb) {
  const TensorStructInfoNode& data = tensor_arg(call, 0);
  const TensorStructInfoNode& indices = tensor_arg(call, 1);
  const TensorStructInfoNode& updates = tensor_arg(call, 2);
  require_int_dtype(call, 1, indices.dtype);
  require_same_dtype(call, 0, data.dtype, 2, updates.dtype);
  choice_attr(call, "reduction", {"update", "add", "mul", "max", "min"});
  std::optional<int64_t> depth = index_depth(call, indices);
  if (data.ndim >= 0 && depth && (*depth < 1 || *depth > data.ndim)) {
    user_error(call->span) << op_display_name(call) << ": the last dimension of argument "
                           << "'indices' (" << *depth << ") must be between 1 and " << data.ndim
                           << " (the rank of argument 'data')";
  }
  const std::vector<PrimExpr>* d_dims = known_dims(data);
  const std::vector<PrimExpr>* i_dims = known_dims(indices);
  const std::vector<PrimExpr>* u_dims = known_dims(updates);
  if (d_dims != nullptr && i_dims != nullptr && u_dims != nullptr) {
    std::vector<PrimExpr> expected(i_dims->begin(), i_dims->end() - 1);
    expected.insert(expected.end(), d_dims->begin() + *depth, d_dims->end());
    if (expected.size() != u_dims->size()) {
      user_error(call->span) << op_display_name(call) << ": argument 'updates' has "
                             << u_dims->size() << " dimension(s); expected " << expected.size()
                             << " (the rank of 'indices' less 1, plus the rank of 'data' less "
                             << *depth << ")";
    }
    for (size_t d = 0; d < expected.size(); ++d) {
      if (prove_dim_equal(expected[d], (*u_dims)[d], bb.analyzer()) == arith::Proof::False) {
        user_error(call->span) << op_display_name(call) << ": dimension " << d
                               << " of argument 'updates' is " << dim_str((*u_dims)[d])
                               << "; expected " << dim_str(expected[d]);
      }
    }
  }
  return call->args[0]->struct_info;
}

}  // namespace

std::optional<StridedSlice> strided_slice_of(const CallNode* call) {
  const TensorStructInfoNode& x = tensor_arg(call, 0);
  // The input's dimensions are not negative: knowing it, min(n, 5) and a symbolic end
  // that is a dimension simplify.
  arith::Analyzer analyzer;
  for (const tir::Var& v : free_symbolic_vars(call->args[0]->struct_info)) {
    analyzer.bind_bounds(v, 0, std::numeric_limits<int64_t>::max());
  }
  bool assume_inbound = bool_attr(call, "assume_inbound");
  bool has_strides = call->args.size() > 4;
  std::optional<std::vector<PrimExpr>> axes = prim_tuple_arg(call, 1);
  std::optional<std::vector<PrimExpr>> begin = prim_tuple_arg(call, 2);
  std::optional<std::vector<PrimExpr>> end = prim_tuple_arg(call, 3);
  std::optional<std::vector<PrimExpr>> strides;
  if (has_strides) strides = prim_tuple_arg(call, 4);
  if (!axes) {
    user_error(call->span) << op_display_name(call)
                           << ": argument 'axes' must be a tuple of constant integers";
  }
  for (size_t i = 2; i <= (has_strides ? 4u : 3u); ++i) {
    size_t count = call->args[i]->struct_info.as<TupleStructInfoNode>()->fields.size();
    if (count != axes->size()) {
      user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, i)
                             << "' has " << count << " entries but argument 'axes' has "
                             << axes->size();
    }
  }
  std::vector<int64_t> axis_values;
  for (size_t k = 0; k < axes->size(); ++k) {
    const int64_t* c = tir::as_const_int((*axes)[k]);
    if (c == nullptr) {
      user_error(call->span) << op_display_name(call) << ": entry " << k
                             << " of argument 'axes' must be a constant, got "
                             << dim_str((*axes)[k]);
    }
    axis_values.push_back(*c);
  }
  if (x.ndim < 0) return std::nullopt;
  StridedSlice slice;
  for (int a : normalize_axes(call, "axes", axis_values, x.ndim)) slice.axes.push_back(a);
  const std::vector<PrimExpr>* dims = known_dims(x);
  if (dims == nullptr || !begin || !end || (has_strides && !strides)) return std::nullopt;
  for (size_t k = 0; k < slice.axes.size(); ++k) {
    int64_t stride = 1;
    if (has_strides) {
      const int64_t* c = tir::as_const_int((*strides)[k]);
      if (c == nullptr) return std::nullopt;
      stride = *c;
    }
    if (stride == 0) {
      user_error(call->span) << op_display_name(call) << ": entry " << k
                             << " of argument 'strides' is 0";
    }
    const PrimExpr& n = (*dims)[slice.axes[k]];
    PrimExpr n64 = n->dtype == DataType::Int(64) ? n : tir::cast(DataType::Int(64), n);
    // numpy's rules: a negative index counts from the end; out of range ones are
    // clamped to [0, n] going forward, [-1, n - 1] going backward.
    // ONNX writes "to the end" as INT64_MAX (and INT64_MIN backward): an index past
    // 2^31 is past every dimension, as kernels index in 32 bits.
    constexpr int64_t kPastEveryDim = int64_t{1} << 31;
    auto normalize = [&](const PrimExpr& index) {
      PrimExpr lo = stride > 0 ? const_dim(0) : const_dim(-1);
      PrimExpr hi = stride > 0 ? n64 : tir::sub(n64, const_dim(1));
      PrimExpr from_end = tir::add(index, n64);
      PrimExpr v;
      if (const int64_t* c = tir::as_const_int(index)) {
        if (!assume_inbound && *c >= kPastEveryDim) return analyzer.simplify(hi);
        if (!assume_inbound && *c <= -kPastEveryDim) return lo;
        v = *c < 0 ? from_end : index;
      } else {
        v = tir::select(tir::lt(index, const_dim(0)), from_end, index);
      }
      if (assume_inbound) return analyzer.simplify(v);
      return analyzer.simplify(tir::min(tir::max(v, lo), hi));
    };
    PrimExpr b = normalize((*begin)[k]);
    PrimExpr e = normalize((*end)[k]);
    PrimExpr span = stride > 0 ? tir::sub(e, b) : tir::sub(b, e);
    int64_t step = stride > 0 ? stride : -stride;
    PrimExpr length = tir::floordiv(tir::add(span, const_dim(step - 1)), const_dim(step));
    slice.begins.push_back(b);
    slice.strides.push_back(stride);
    slice.lengths.push_back(analyzer.simplify(tir::max(length, const_dim(0))));
  }
  return slice;
}

void register_index_ops() {
  OpInfo strided_slice =
      make_op("strided_slice", {"x", "axes", "begin", "end", "strides"}, infer_strided_slice,
              {{"assume_inbound", AttrValue::boolean(false)}});
  strided_slice.num_required_args = 4;  // strides defaults to ones
  register_op(std::move(strided_slice));
  register_op(make_op("dynamic_strided_slice", {"x", "begin", "end", "strides"},
                      infer_dynamic_strided_slice));
  register_op(make_op("take", {"x", "indices"}, infer_take,
                      {{"axis", AttrValue::none()}, {"mode", AttrValue::string("fast")}}));
  register_op(make_op("gather_elements", {"data", "indices"}, infer_gather_elements,
                      {{"axis", AttrValue::integer(0)}}));
  register_op(make_op("gather_nd", {"data", "indices"}, infer_gather_nd,
                      {{"batch_dims", AttrValue::integer(0)}}));
  register_op(
      make_op("scatter_elements", {"data", "indices", "updates"}, infer_scatter_elements,
              {{"axis", AttrValue::integer(0)}, {"reduction", AttrValue::string("update")}}));
  register_op(make_op("scatter_nd", {"data", "indices", "updates"}, infer_scatter_nd,
                      {{"reduction", AttrValue::string("update")}}));
}

}  // namespace relaxc::relax
