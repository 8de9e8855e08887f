// Shared helpers of operator StructInfo inference.
#include "ir/relax/ops/op_common.h"

#include <unordered_set>

#include "ir/text/printer.h"

namespace relaxc::relax {

namespace {

const OpInfo& op_info_of(const CallNode* call) {
  const auto* op = call->op.as<OpNode>();
  RELAXC_ICHECK(op != nullptr) << "operator inference on a call of a non-operator";
  const OpInfo* info = find_op(op->name);
  RELAXC_ICHECK(info != nullptr) << "operator '" << op->name << "' is not registered";
  return *info;
}

const AttrValue& attr_of(const CallNode* call, const std::string& name) {
  const AttrValue* value = call->attrs.find(name);
  RELAXC_ICHECK(value != nullptr) << op_display_name(call) << ": attribute '" << name
                                  << "' missing after the schema check";
  return *value;
}

// Dimensions are int64 in Relax; one of another width is compared as int64.
PrimExpr as_int64(const PrimExpr& d) {
  return d->dtype == DataType::Int(64) ? d : tir::cast(DataType::Int(64), d);
}

}  // namespace

OpInfo make_op(const std::string& name, std::vector<std::string> arg_names, InferStructInfoFn infer,
               std::vector<OpAttrSpec> attrs) {
  OpInfo info;
  info.name = "relax." + name;
  info.num_required_args = static_cast<int>(arg_names.size());
  info.arg_names = std::move(arg_names);
  info.attrs = std::move(attrs);
  info.infer = std::move(infer);
  return info;
}

std::string op_display_name(const CallNode* call) {
  return "R." + op_script_name(op_info_of(call).name);
}

std::string op_arg_name(const CallNode* call, size_t index) {
  const OpInfo& info = op_info_of(call);
  if (index < info.arg_names.size()) return info.arg_names[index];
  return info.arg_names.empty() ? std::to_string(index) : info.arg_names.back();
}

const TensorStructInfoNode& tensor_arg(const CallNode* call, size_t index) {
  RELAXC_ICHECK(index < call->args.size()) << op_display_name(call) << ": missing argument";
  const StructInfo& sinfo = call->args[index]->struct_info;
  const auto* tensor = sinfo.as<TensorStructInfoNode>();
  if (tensor == nullptr) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must be a tensor, got " << text::print_node(sinfo);
  }
  return *tensor;
}

const std::vector<PrimExpr>* known_dims(const TensorStructInfoNode& tensor) {
  const std::vector<PrimExpr>* dims = tensor.shape_values();
  if (dims == nullptr || static_cast<int>(dims->size()) != tensor.ndim) return nullptr;
  return dims;
}

void require_float_dtype(const CallNode* call, size_t index, DataType dtype) {
  if (!dtype.is_void() && !dtype.is_float()) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must have a floating-point dtype, got " << dtype.str();
  }
}

const PrimStructInfoNode& prim_arg(const CallNode* call, size_t index) {
  RELAXC_ICHECK(index < call->args.size()) << op_display_name(call) << ": missing argument";
  const StructInfo& sinfo = call->args[index]->struct_info;
  const auto* prim = sinfo.as<PrimStructInfoNode>();
  if (prim == nullptr) {
    user_error(call->span) << op_display_name(call) << ": argument '" << op_arg_name(call, index)
                           << "' must be a prim value (R.prim_value(...)), got "
                           << text::print_node(sinfo);
  }
  return *prim;
}

int64_t int_attr(const CallNode* call, const std::string& name) {
  const AttrValue& v = attr_of(call, name);
  if (v.kind != AttrValue::Kind::Int) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << name
                           << "' must be an integer";
  }
  return v.i;
}

bool bool_attr(const CallNode* call, const std::string& name) {
  const AttrValue& v = attr_of(call, name);
  if (v.kind != AttrValue::Kind::Bool) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << name
                           << "' must be True or False";
  }
  return v.b;
}

double float_attr(const CallNode* call, const std::string& name) {
  const AttrValue& v = attr_of(call, name);
  if (v.kind == AttrValue::Kind::Int) return static_cast<double>(v.i);
  if (v.kind != AttrValue::Kind::Float) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << name
                           << "' must be a number";
  }
  return v.f;
}

DataType dtype_attr(const CallNode* call, const std::string& name) {
  const AttrValue& v = attr_of(call, name);
  if (v.kind != AttrValue::Kind::DType) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << name
                           << "' must be a data type";
  }
  return v.dtype;
}

std::string string_attr(const CallNode* call, const std::string& name) {
  const AttrValue& v = attr_of(call, name);
  if (v.kind != AttrValue::Kind::String) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << name
                           << "' must be a string";
  }
  return v.s;
}

void int_attr_to_list(CallNode* call, const std::string& name) {
  const AttrValue* v = call->attrs.find(name);
  if (v != nullptr && v->kind == AttrValue::Kind::Int) {
    call->attrs = call->attrs.with(name, AttrValue::int_list({v->i}));
  }
}

std::optional<std::vector<int64_t>> optional_int_list_attr(const CallNode* call,
                                                           const std::string& name) {
  const AttrValue* v = call->attrs.find(name);
  if (v == nullptr || v->is_none()) return std::nullopt;
  bool ints = v->kind == AttrValue::Kind::List;
  for (size_t i = 0; ints && i < v->list.size(); ++i) {
    ints = v->list[i].kind == AttrValue::Kind::Int;
  }
  if (!ints) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << name
                           << "' must be None or a list of integers";
  }
  return v->as_int_list();
}

int normalize_axis(const CallNode* call, const std::string& attr, int64_t axis, int ndim) {
  if (axis < -static_cast<int64_t>(ndim) || axis >= ndim) {
    user_error(call->span) << op_display_name(call) << ": attribute '" << attr << "': axis " << axis
                           << " is out of range for a tensor of " << ndim << " dimension(s)";
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

std::vector<int> normalize_axes(const CallNode* call, const std::string& attr,
                                const std::vector<int64_t>& axes, int ndim) {
  std::vector<int> out;
  std::unordered_set<int> seen;
  for (int64_t axis : axes) {
    int a = normalize_axis(call, attr, axis, ndim);
    if (!seen.insert(a).second) {
      user_error(call->span) << op_display_name(call) << ": attribute '" << attr << "': axis " << a
                             << " appears more than once";
    }
    out.push_back(a);
  }
  return out;
}

PrimExpr const_dim(int64_t value) { return tir::int_imm(DataType::Int(64), value); }

std::string dim_str(const PrimExpr& d) {
  if (const int64_t* c = tir::as_const_int(d)) return std::to_string(*c);
  return text::print_node(d);
}

DataType unify_dtypes(const CallNode* call, DataType lhs, DataType rhs,
                      const std::string& lhs_label, const std::string& rhs_label) {
  if (lhs.is_void() || rhs.is_void()) return DataType::Void();
  if (lhs != rhs) {
    user_error(call->span) << op_display_name(call) << ": operand dtypes differ: " << lhs.str()
                           << " (" << lhs_label << ") vs " << rhs.str() << " (" << rhs_label << ")";
  }
  return lhs;
}

std::optional<std::vector<PrimExpr>> broadcast_shapes(
    const CallNode* call, const std::vector<PrimExpr>& lhs, const std::vector<PrimExpr>& rhs,
    const std::string& lhs_label, const std::string& rhs_label, const std::string& what,
    arith::Analyzer& analyzer) {
  size_t ndim = std::max(lhs.size(), rhs.size());
  std::vector<PrimExpr> out(ndim);
  bool known = true;
  // From the right, as numpy aligns shapes; the first mismatch reported is the last
  // dimension that differs.
  for (size_t k = 1; k <= ndim; ++k) {
    size_t index = ndim - k;
    if (k > lhs.size()) {
      out[index] = rhs[rhs.size() - k];
      continue;
    }
    if (k > rhs.size()) {
      out[index] = lhs[lhs.size() - k];
      continue;
    }
    const PrimExpr& a = lhs[lhs.size() - k];
    const PrimExpr& b = rhs[rhs.size() - k];
    PrimExpr a64 = as_int64(a), b64 = as_int64(b);
    if (tir::is_const_int(a, 1)) {
      out[index] = b;
    } else if (tir::is_const_int(b, 1) || a.same_as(b) || analyzer.can_prove_equal(a64, b64)) {
      out[index] = a;
    } else {
      bool a_const = tir::as_const_int(a) != nullptr, b_const = tir::as_const_int(b) != nullptr;
      // Symbolic dimensions mismatch provably only if they differ and neither can be 1.
      bool mismatch = (a_const && b_const) || (analyzer.can_prove(tir::ne(a64, b64)) &&
                                               analyzer.can_prove(tir::ne(a64, const_dim(1))) &&
                                               analyzer.can_prove(tir::ne(b64, const_dim(1))));
      if (mismatch) {
        user_error(call->span) << op_display_name(call) << ": cannot broadcast " << what << " "
                               << index << " of the operands: " << dim_str(a) << " (" << lhs_label
                               << ") vs " << dim_str(b) << " (" << rhs_label << ")";
      }
      known = false;
    }
  }
  if (!known) return std::nullopt;
  return out;
}

PrimExpr dims_product(const std::vector<PrimExpr>& dims, arith::Analyzer& analyzer) {
  PrimExpr result = const_dim(1);
  for (const PrimExpr& d : dims) result = tir::mul(result, as_int64(d));
  return analyzer.simplify(result);
}

}  // namespace relaxc::relax
