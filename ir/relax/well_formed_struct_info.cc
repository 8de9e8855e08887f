// StructInfo annotations in the well-formedness checker: shape variables in scope
// (rules 4, 6, 14-16), ndim against shapes (10, 14, 15), FuncStructInfo's form (17) and
// data types (19, 20, 22).
//
// Algorithm: shape variables have scope frames like Relax variables: a function's
// signature and each SeqExpr open one (R.match_cast binds into its SeqExpr's frame), and
// so does each FuncStructInfo for the variables its own parameters bind. Where an
// annotation may bind (a signature, R.match_cast), its binding positions, a dimension
// that is a variable alone, are bound first; then every variable in it must be in scope.
#include "ir/relax/well_formed_checker.h"

namespace relaxc::relax::well_formed {

namespace {

std::string dtype_name(DataType dtype) { return dtype.is_void() ? "void" : dtype.str(); }

// Rule 20's bit widths: int and uint 1, 8, 16, 32, 64; float 16, 32, 64. bfloat16,
// which the spec predates, is accepted as a float type.
bool has_supported_bits(DataType dtype) {
  int bits = dtype.bits();
  switch (dtype.code()) {
    case DataType::Code::Int:
    case DataType::Code::UInt:
      return bits == 1 || bits == 8 || bits == 16 || bits == 32 || bits == 64;
    case DataType::Code::Float:
      return bits == 16 || bits == 32 || bits == 64;
    case DataType::Code::BFloat:
      return bits == 16;
    case DataType::Code::Handle:
      return false;
  }
  return false;
}

}  // namespace

void RelaxChecker::push_shape_frame() { shape_frames_.emplace_back(); }

void RelaxChecker::pop_shape_frame() {
  for (const tir::VarNode* var : shape_frames_.back()) shape_vars_[var] = false;
  shape_frames_.pop_back();
}

void RelaxChecker::define_shape_var(const tir::VarNode* var) {
  if (classify_shape_var_use(var) == ShapeVarUse::kOk) return;
  shape_vars_[var] = true;
  shape_frames_.back().push_back(var);
}

RelaxChecker::ShapeVarUse RelaxChecker::classify_shape_var_use(const tir::VarNode* var) const {
  auto it = shape_vars_.find(var);
  if (it == shape_vars_.end()) return ShapeVarUse::kNotBound;
  return it->second ? ShapeVarUse::kOk : ShapeVarUse::kScopeEnded;
}

void RelaxChecker::define_binding_positions(const StructInfo& sinfo, int depth) {
  if (!sinfo.defined() || depth > kMaxNestingDepth) return;
  auto define_alone = [&](const tir::PrimExpr& e) {
    if (const auto* var = e.as<tir::VarNode>()) define_shape_var(var);
  };
  if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) {
    if (const auto* shape = tensor->shape.as<ShapeExprNode>()) {
      for (const tir::PrimExpr& dim : shape->values) define_alone(dim);
    }
  } else if (const auto* shape = sinfo.as<ShapeStructInfoNode>()) {
    if (shape->values) {
      for (const tir::PrimExpr& dim : *shape->values) define_alone(dim);
    }
  } else if (const auto* prim = sinfo.as<PrimStructInfoNode>()) {
    define_alone(prim->value);
  } else if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
    for (const StructInfo& field : tuple->fields) define_binding_positions(field, depth + 1);
  }
  // A FuncStructInfo's parameters bind only inside it (check_func_struct_info).
}

void RelaxChecker::check_struct_info(const StructInfo& sinfo, const AnnotationSite& site) {
  if (!sinfo.defined()) {
    error(site.span, "[ir] " + site.description +
                         " is missing; every variable and annotation carries StructInfo");
    return;
  }
  check_struct_info_rec(sinfo, site);
}

void RelaxChecker::check_struct_info_rec(const StructInfo& sinfo, const AnnotationSite& outer) {
  if (!sinfo.defined()) {
    error(outer.span, "[ir] " + outer.description + " holds a null StructInfo");
    return;
  }
  // A written annotation carries its own location, more precise than its binding's.
  AnnotationSite site = outer;
  if (sinfo->span.defined()) site.span = sinfo->span;
  DepthGuard guard(&depth_, reporter_, &depth_reported_, site.span);
  if (!guard.ok()) return;
  switch (sinfo->kind()) {
    case NodeKind::ObjectStructInfo:
      return;
    case NodeKind::PrimStructInfo:
      check_prim_struct_info(static_cast<const PrimStructInfoNode*>(sinfo.get()), site);
      return;
    case NodeKind::ShapeStructInfo:
      check_shape_struct_info(static_cast<const ShapeStructInfoNode*>(sinfo.get()), site);
      return;
    case NodeKind::TensorStructInfo:
      check_tensor_struct_info(static_cast<const TensorStructInfoNode*>(sinfo.get()), site);
      return;
    case NodeKind::TupleStructInfo:
      for (const StructInfo& field : static_cast<const TupleStructInfoNode*>(sinfo.get())->fields) {
        check_struct_info_rec(field, site);
      }
      return;
    case NodeKind::FuncStructInfo:
      check_func_struct_info(static_cast<const FuncStructInfoNode*>(sinfo.get()), site);
      return;
    default:
      error(site.span, "[ir] " + site.description + " holds a node that is not a StructInfo");
      return;
  }
}

void RelaxChecker::check_tensor_struct_info(const TensorStructInfoNode* tensor,
                                            const AnnotationSite& site) {
  check_annotation_dtype(tensor->dtype, site);
  const std::string ndim_rule =
      site.kind == AnnotationSite::Kind::kVariable ? "[rule 10] " : "[rule 14] ";
  if (tensor->ndim < -1) {
    error(site.span, ndim_rule + "the tensor in " + site.description + " has ndim " +
                         std::to_string(tensor->ndim) + "; ndim is a count or -1 (unknown)");
  }
  if (!tensor->shape.defined()) return;
  if (const auto* shape = tensor->shape.as<ShapeExprNode>()) {
    if (static_cast<int64_t>(shape->values.size()) != tensor->ndim) {
      error(site.span, ndim_rule + "the tensor in " + site.description + " has ndim " +
                           std::to_string(tensor->ndim) + " but its shape has " +
                           std::to_string(shape->values.size()) + " dimensions");
    }
    for (size_t i = 0; i < shape->values.size(); ++i) {
      const tir::PrimExpr& dim = shape->values[i];
      if (!dim.defined()) {
        error(site.span, "[ir] the tensor shape in " + site.description + " has a null dimension");
        continue;
      }
      if (const int64_t* extent = tir::as_const_int(dim);
          extent != nullptr && *extent < 0 && reported_negative_dims_.insert(dim.get()).second) {
        error(site.span, "[rule 14] dimension " + std::to_string(i) + " of the tensor in " +
                             site.description + " is " + std::to_string(*extent) +
                             "; a dimension is at least 0");
      }
      check_annotation_shape_vars(dim, site, 14);
    }
    return;
  }
  if (const auto* var = tensor->shape.as<VarNode>()) {
    VarUse use = classify_var_use(var);
    if (use != VarUse::kOk && use != VarUse::kCapturedDataflowVar) {
      error(site.span, "[rule 14] the shape of the tensor in " + site.description + " is Var '" +
                           var->name + "', which is not in scope here");
    }
    const auto* shape_sinfo = var->struct_info.as<ShapeStructInfoNode>();
    if (shape_sinfo == nullptr) {
      error(site.span, "[rule 14] the shape of the tensor in " + site.description + " is Var '" +
                           var->name + "', which is not a shape (its StructInfo is not R.Shape)");
    } else if (shape_sinfo->ndim != -1 && tensor->ndim != shape_sinfo->ndim) {
      error(site.span, ndim_rule + "the tensor in " + site.description + " has ndim " +
                           std::to_string(tensor->ndim) + " but its shape Var '" + var->name +
                           "' has " + std::to_string(shape_sinfo->ndim) + " dimensions");
    }
    return;
  }
  error(site.span, "[rule 14] the shape of the tensor in " + site.description + " is " +
                       describe_expr_kind(tensor->shape.get()) +
                       "; a tensor's shape is a ShapeExpr or a Var");
}

void RelaxChecker::check_shape_struct_info(const ShapeStructInfoNode* shape,
                                           const AnnotationSite& site) {
  const std::string ndim_rule =
      site.kind == AnnotationSite::Kind::kVariable ? "[rule 10] " : "[rule 15] ";
  if (shape->ndim < -1) {
    error(site.span, ndim_rule + "the shape in " + site.description + " has ndim " +
                         std::to_string(shape->ndim) + "; ndim is a count or -1 (unknown)");
  }
  if (!shape->values) return;
  if (static_cast<int64_t>(shape->values->size()) != shape->ndim) {
    error(site.span, ndim_rule + "the shape in " + site.description + " has ndim " +
                         std::to_string(shape->ndim) + " but " +
                         std::to_string(shape->values->size()) + " values");
  }
  for (size_t i = 0; i < shape->values->size(); ++i) {
    const tir::PrimExpr& value = (*shape->values)[i];
    if (!value.defined()) {
      error(site.span, "[ir] the shape in " + site.description + " has a null value");
      continue;
    }
    if (const int64_t* extent = tir::as_const_int(value);
        extent != nullptr && *extent < 0 && reported_negative_dims_.insert(value.get()).second) {
      error(site.span, "[rule 15] value " + std::to_string(i) + " of the shape in " +
                           site.description + " is " + std::to_string(*extent) +
                           "; a dimension is at least 0");
    }
    check_annotation_shape_vars(value, site, 15);
  }
}

void RelaxChecker::check_prim_struct_info(const PrimStructInfoNode* prim,
                                          const AnnotationSite& site) {
  DataType dtype = prim->dtype;
  if (!dtype.is_int() && !dtype.is_uint() && !dtype.is_float()) {
    error(site.span, "[rule 19] the R.Prim in " + site.description + " has dtype '" +
                         dtype_name(dtype) + "'; it must be an int, uint or float type");
  } else {
    check_annotation_dtype(dtype, site);
  }
  if (!prim->value.defined()) return;
  if (prim->value->dtype != dtype) {
    error(site.span, "[rule 22] the R.Prim in " + site.description + " has dtype '" +
                         dtype_name(dtype) + "' but its value has dtype '" +
                         dtype_name(prim->value->dtype) + "'");
  }
  check_annotation_shape_vars(prim->value, site, 16);
}

void RelaxChecker::check_func_struct_info(const FuncStructInfoNode* func,
                                          const AnnotationSite& site) {
  // Rule 17. An opaque function (no params) may give its result in `ret` instead of a
  // derive_func (TVM's OpaqueFunc): only having none of the three is malformed.
  if (func->params.has_value() && !func->derive_func.empty()) {
    error(site.span, "[rule 17] the R.Callable in " + site.description +
                         " has both params and derive_func '" + func->derive_func +
                         "'; it has one or the other");
  } else if (!func->params.has_value() && func->derive_func.empty() && !func->ret.defined()) {
    error(site.span, "[rule 17] the R.Callable in " + site.description +
                         " has neither params, derive_func nor a result StructInfo");
  }
  // The callable's parameters bind their own shape variables, visible in its result.
  AnnotationSite inner = site;
  inner.kind = AnnotationSite::Kind::kOther;
  inner.scope_rule = 0;
  push_shape_frame();
  if (func->params.has_value()) {
    for (const StructInfo& param : *func->params) define_binding_positions(param);
    for (const StructInfo& param : *func->params) check_struct_info_rec(param, inner);
  }
  if (func->ret.defined()) check_struct_info_rec(func->ret, inner);
  pop_shape_frame();
}

// Rule 20: Relax data types are scalar int/uint/float of the supported widths, or void.
void RelaxChecker::check_annotation_dtype(DataType dtype, const AnnotationSite& site) {
  if (dtype.is_void()) return;
  std::string prefix =
      "[rule 20] " + site.description + " uses the data type '" + dtype_name(dtype);
  if (dtype.code() == DataType::Code::Handle) {
    error(site.span, prefix + "'; Relax data types are int, uint, float or void (unknown)");
  } else if (dtype.lanes() != 1) {
    error(site.span, prefix + "'; Relax data types have one lane");
  } else if (!has_supported_bits(dtype)) {
    error(site.span, prefix + "'; int and uint have 1, 8, 16, 32 or 64 bits, float 16, 32 or 64");
  }
}

void RelaxChecker::check_annotation_shape_vars(const tir::PrimExpr& e, const AnnotationSite& site,
                                               int kind_rule) {
  int rule = site.scope_rule != 0 ? site.scope_rule : kind_rule;
  PrimExprUses uses(reporter_, [&](const tir::VarNode* var, Span span) {
    ShapeVarUse use = classify_shape_var_use(var);
    if (use == ShapeVarUse::kOk || !reported_shape_vars_.insert(var).second) return;
    const std::string tag = "[rule " + std::to_string(rule) + "] ";
    const std::string name = "shape variable '" + var->name + "'";
    if (use == ShapeVarUse::kScopeEnded) {
      error(span,
            tag + name + " in " + site.description + " is used outside the scope that binds it");
    } else if (rule == 6) {
      error(span, tag + name + " in " + site.description + " is never bound: it stands alone in " +
                      "no dimension of a parameter annotation of " + functions_.back().name);
    } else if (rule == 4) {
      error(span, tag + site.description + " uses " + name +
                      ", which is not in scope where the function is defined; only parameter "
                      "annotations and the enclosing scope bind shape variables");
    } else {
      error(span, tag + name + " in " + site.description +
                      " is not bound here; a function signature or R.match_cast binds shape "
                      "variables");
    }
  });
  uses.visit(e, site.span);
}

}  // namespace relaxc::relax::well_formed
