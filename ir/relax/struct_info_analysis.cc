// StructInfo analysis: is_base_of, LCA, erasure to well-defined and call derivation.
//
// Every comparison of dimensions goes through the arith analyzer with three outcomes:
// provably equal, provably different, or unknown. "Unknown" never fails statically;
// it becomes a run-time check (BaseCheck::RuntimeCheck) or, for the LCA, an unknown
// dimension. A call's result is derived in two passes over (parameter, argument)
// pairs, as the spec's rule 6 allows shape variables to be bound in any parameter:
// the first binds every bare-variable dimension, the second checks each argument
// against its parameter with those bindings substituted.
#include "ir/relax/struct_info_analysis.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ir/relax/analysis.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"

namespace relaxc::relax {

namespace {

// Holds an analyzer: the caller's, or a fresh one.
class AnalyzerRef {
 public:
  explicit AnalyzerRef(arith::Analyzer* given) : ptr_(given) {
    if (ptr_ == nullptr) {
      owned_ = std::make_unique<arith::Analyzer>();
      ptr_ = owned_.get();
    }
  }
  arith::Analyzer* get() const { return ptr_; }

 private:
  std::unique_ptr<arith::Analyzer> owned_;
  arith::Analyzer* ptr_;
};

// ---------------------------------------------------------------- Dimensions

// Maps one dimension: null if it mentions a variable the map erases; substituted
// dimensions are simplified (n * 4 with n -> m + 1 becomes m * 4 + 4).
PrimExpr map_dim(const PrimExpr& dim, const ShapeVarMap& f, arith::Analyzer* analyzer) {
  bool erased = false, changed = false;
  tir::post_order_visit(dim, [&](const Ref<Object>& node) {
    if (const auto* v = node.as<tir::VarNode>()) {
      PrimExpr mapped = f(tir::Var(v));
      erased = erased || !mapped.defined();
      changed = changed || !mapped.same_as(node);
    }
  });
  if (erased) return PrimExpr();
  if (!changed) return dim;
  PrimExpr substituted = tir::substitute(dim, [&f](const tir::Var& v) -> PrimExpr {
    PrimExpr mapped = f(v);
    if (mapped.same_as(v)) return PrimExpr();
    // A replacement of another integer width keeps the variable's type for its users.
    return mapped->dtype == v->dtype ? mapped : tir::cast(v->dtype, mapped);
  });
  return analyzer->simplify(substituted);
}

// Maps every dimension; nullopt if any is erased. Sets *changed if one changed.
std::optional<std::vector<PrimExpr>> map_dims(const std::vector<PrimExpr>& dims,
                                              const ShapeVarMap& f, arith::Analyzer* analyzer,
                                              bool* changed) {
  std::vector<PrimExpr> out;
  out.reserve(dims.size());
  for (const PrimExpr& d : dims) {
    PrimExpr m = map_dim(d, f, analyzer);
    if (!m.defined()) return std::nullopt;
    if (!m.same_as(d)) *changed = true;
    out.push_back(std::move(m));
  }
  return out;
}

PrimExpr to_int64(const PrimExpr& e) {
  return e->dtype == DataType::Int(64) ? e : tir::cast(DataType::Int(64), e);
}

// ---------------------------------------------------------------- is_base_of

BaseCheck combine(BaseCheck a, BaseCheck b) { return std::min(a, b); }

BaseCheck check_dims(const std::vector<PrimExpr>& base, const std::vector<PrimExpr>& derived,
                     arith::Analyzer* analyzer) {
  if (base.size() != derived.size()) return BaseCheck::Fail;
  BaseCheck result = BaseCheck::Pass;
  for (size_t i = 0; i < base.size(); ++i) {
    switch (prove_dim_equal(base[i], derived[i], *analyzer)) {
      case arith::Proof::True:
        break;
      case arith::Proof::False:
        return BaseCheck::Fail;
      case arith::Proof::Unknown:
        result = BaseCheck::RuntimeCheck;
        break;
    }
  }
  return result;
}

// A known ndim check: -1 in the base accepts anything, -1 in the derived needs a check.
BaseCheck check_ndim(int base, int derived) {
  if (base < 0 || base == derived) return BaseCheck::Pass;
  if (derived < 0) return BaseCheck::RuntimeCheck;
  return BaseCheck::Fail;
}

BaseCheck base_check(const StructInfo& base, const StructInfo& derived, arith::Analyzer* analyzer,
                     int& depth);

BaseCheck check_prim(const PrimStructInfoNode& base, const StructInfo& derived,
                     arith::Analyzer* analyzer) {
  const auto* d = derived.as<PrimStructInfoNode>();
  if (d == nullptr || base.dtype != d->dtype) return BaseCheck::Fail;
  if (!base.value.defined()) return BaseCheck::Pass;
  if (!d->value.defined()) return BaseCheck::RuntimeCheck;
  return check_dims({base.value}, {d->value}, analyzer);
}

BaseCheck check_shape(const ShapeStructInfoNode& base, const StructInfo& derived,
                      arith::Analyzer* analyzer) {
  const auto* d = derived.as<ShapeStructInfoNode>();
  if (d == nullptr) return BaseCheck::Fail;
  BaseCheck result = check_ndim(base.ndim, d->ndim);
  if (result != BaseCheck::Pass || !base.values) return result;
  if (!d->values) return BaseCheck::RuntimeCheck;
  return check_dims(*base.values, *d->values, analyzer);
}

BaseCheck check_tensor(const TensorStructInfoNode& base, const StructInfo& derived,
                       arith::Analyzer* analyzer) {
  const auto* d = derived.as<TensorStructInfoNode>();
  if (d == nullptr) return BaseCheck::Fail;
  BaseCheck result = BaseCheck::Pass;
  if (!base.dtype.is_void() && base.dtype != d->dtype) {
    if (!d->dtype.is_void()) return BaseCheck::Fail;
    result = BaseCheck::RuntimeCheck;
  }
  result = combine(result, check_ndim(base.ndim, d->ndim));
  if (result == BaseCheck::Fail || !base.shape.defined()) return result;
  if (!d->shape.defined()) return BaseCheck::RuntimeCheck;
  if (base.shape.same_as(d->shape)) return result;
  const std::vector<PrimExpr>* base_dims = base.shape_values();
  const std::vector<PrimExpr>* derived_dims = d->shape_values();
  if (base_dims == nullptr || derived_dims == nullptr) return BaseCheck::RuntimeCheck;
  return combine(result, check_dims(*base_dims, *derived_dims, analyzer));
}

BaseCheck check_func(const FuncStructInfoNode& base, const StructInfo& derived,
                     arith::Analyzer* analyzer, int& depth) {
  const auto* d = derived.as<FuncStructInfoNode>();
  if (d == nullptr) return BaseCheck::Fail;
  // Purity is not observable at run time: an impure function never fits a pure type.
  if (base.purity && !d->purity) return BaseCheck::Fail;
  if (!base.params) return BaseCheck::Pass;
  if (!d->params) return BaseCheck::RuntimeCheck;
  if (base.params->size() != d->params->size()) return BaseCheck::Fail;
  BaseCheck result = BaseCheck::Pass;
  // Parameters are contravariant: the derived function must accept what the base does.
  for (size_t i = 0; i < base.params->size() && result != BaseCheck::Fail; ++i) {
    result = combine(result, base_check((*d->params)[i], (*base.params)[i], analyzer, depth));
  }
  if (result == BaseCheck::Fail) return result;
  return combine(result, base_check(base.ret, d->ret, analyzer, depth));
}

BaseCheck base_check(const StructInfo& base, const StructInfo& derived, arith::Analyzer* analyzer,
                     int& depth) {
  RELAXC_ICHECK(base.defined() && derived.defined()) << "is_base_of of a null StructInfo";
  NestingGuard guard(depth, base.get());
  if (base.is<ObjectStructInfoNode>()) return BaseCheck::Pass;
  // An Object may hold any value: fitting a narrower type takes a run-time check.
  if (derived.is<ObjectStructInfoNode>()) return BaseCheck::RuntimeCheck;
  if (const auto* p = base.as<PrimStructInfoNode>()) return check_prim(*p, derived, analyzer);
  if (const auto* s = base.as<ShapeStructInfoNode>()) return check_shape(*s, derived, analyzer);
  if (const auto* t = base.as<TensorStructInfoNode>()) return check_tensor(*t, derived, analyzer);
  if (const auto* f = base.as<FuncStructInfoNode>()) {
    return check_func(*f, derived, analyzer, depth);
  }
  const auto* tuple = base.as<TupleStructInfoNode>();
  RELAXC_ICHECK(tuple != nullptr) << "unknown StructInfo kind " << node_kind_name(base->kind());
  const auto* d = derived.as<TupleStructInfoNode>();
  if (d == nullptr || d->fields.size() != tuple->fields.size()) return BaseCheck::Fail;
  BaseCheck result = BaseCheck::Pass;
  for (size_t i = 0; i < tuple->fields.size() && result != BaseCheck::Fail; ++i) {
    result = combine(result, base_check(tuple->fields[i], d->fields[i], analyzer, depth));
  }
  return result;
}

// ---------------------------------------------------------------- LCA

bool dims_equal(const std::vector<PrimExpr>& a, const std::vector<PrimExpr>& b,
                arith::Analyzer* analyzer) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (prove_dim_equal(a[i], b[i], *analyzer) != arith::Proof::True) return false;
  }
  return true;
}

StructInfo lca(const StructInfo& a, const StructInfo& b, arith::Analyzer* analyzer, int& depth) {
  NestingGuard guard(depth, a.get());
  if (a.same_as(b)) return a;
  // Two kinds join to an Object, and so do two Objects (two values of any kind).
  if (a->kind() != b->kind() || a.is<ObjectStructInfoNode>()) return object_sinfo(a->span);
  if (const auto* pa = a.as<PrimStructInfoNode>()) {
    const auto* pb = b.as<PrimStructInfoNode>();
    if (pa->dtype != pb->dtype) return object_sinfo(a->span);
    if (pa->value.defined() && pb->value.defined() &&
        prove_dim_equal(pa->value, pb->value, *analyzer) == arith::Proof::True) {
      return a;
    }
    return pa->value.defined() ? prim_sinfo(pa->dtype, {}, a->span) : a;
  }
  if (const auto* sa = a.as<ShapeStructInfoNode>()) {
    const auto* sb = b.as<ShapeStructInfoNode>();
    if (sa->ndim != sb->ndim) return shape_sinfo_ndim(-1, a->span);
    if (sa->values && sb->values && dims_equal(*sa->values, *sb->values, analyzer)) return a;
    return shape_sinfo_ndim(sa->ndim, a->span);
  }
  if (const auto* ta = a.as<TensorStructInfoNode>()) {
    const auto* tb = b.as<TensorStructInfoNode>();
    DataType dtype = ta->dtype == tb->dtype ? ta->dtype : DataType::Void();
    if (ta->ndim != tb->ndim) return tensor_sinfo_ndim(-1, dtype, a->span);
    if (ta->shape.defined() && tb->shape.defined()) {
      bool same_shape = ta->shape.same_as(tb->shape);
      const std::vector<PrimExpr>* da = ta->shape_values();
      const std::vector<PrimExpr>* db = tb->shape_values();
      if (!same_shape && da != nullptr && db != nullptr)
        same_shape = dims_equal(*da, *db, analyzer);
      if (same_shape) {
        return dtype == ta->dtype ? a : tensor_sinfo_shape(ta->shape, dtype, a->span);
      }
    }
    return tensor_sinfo_ndim(ta->ndim, dtype, a->span);
  }
  if (const auto* tup_a = a.as<TupleStructInfoNode>()) {
    const auto* tup_b = b.as<TupleStructInfoNode>();
    if (tup_a->fields.size() != tup_b->fields.size()) return object_sinfo(a->span);
    std::vector<StructInfo> fields;
    bool same = true;
    for (size_t i = 0; i < tup_a->fields.size(); ++i) {
      fields.push_back(lca(tup_a->fields[i], tup_b->fields[i], analyzer, depth));
      same = same && fields.back().same_as(tup_a->fields[i]);
    }
    return same ? a : tuple_sinfo(std::move(fields), a->span);
  }
  const auto* fa = a.as<FuncStructInfoNode>();
  const auto* fb = b.as<FuncStructInfoNode>();
  RELAXC_ICHECK(fa != nullptr && fb != nullptr) << "unknown StructInfo kind";
  bool purity = fa->purity && fb->purity;
  StructInfo ret = lca(fa->ret, fb->ret, analyzer, depth);
  // Parameters are kept only where both functions take the same ones.
  bool same_params = fa->params && fb->params && fa->params->size() == fb->params->size();
  for (size_t i = 0; same_params && i < fa->params->size(); ++i) {
    const StructInfo& pa = (*fa->params)[i];
    const StructInfo& pb = (*fb->params)[i];
    same_params = base_check(pa, pb, analyzer, depth) == BaseCheck::Pass &&
                  base_check(pb, pa, analyzer, depth) == BaseCheck::Pass;
  }
  if (same_params) return func_sinfo(*fa->params, ret, purity, a->span);
  std::string derive = fa->derive_func == fb->derive_func ? fa->derive_func : std::string();
  return opaque_func_sinfo(ret, purity, derive, a->span);
}

// ---------------------------------------------------------------- Erasure

class Eraser {
 public:
  Eraser(ShapeVarMap shape_var_map, RelaxVarMap var_map, arith::Analyzer* analyzer)
      : shape_var_map_(std::move(shape_var_map)),
        var_map_(std::move(var_map)),
        analyzer_(analyzer) {}

  StructInfo erase(const StructInfo& sinfo) {
    NestingGuard guard(depth_, sinfo.get());
    if (const auto* p = sinfo.as<PrimStructInfoNode>()) {
      if (!p->value.defined()) return sinfo;
      PrimExpr value = map_dim(p->value, shape_var_map_, analyzer_);
      if (value.same_as(p->value)) return sinfo;
      return prim_sinfo(p->dtype, value, sinfo->span);
    }
    if (const auto* s = sinfo.as<ShapeStructInfoNode>()) {
      if (!s->values) return sinfo;
      bool changed = false;
      auto values = map_dims(*s->values, shape_var_map_, analyzer_, &changed);
      if (!values) return shape_sinfo_ndim(s->ndim, sinfo->span);
      return changed ? shape_sinfo(std::move(*values), sinfo->span) : sinfo;
    }
    if (const auto* t = sinfo.as<TensorStructInfoNode>()) return erase_tensor(sinfo, *t);
    if (const auto* tup = sinfo.as<TupleStructInfoNode>()) {
      std::vector<StructInfo> fields;
      bool changed = false;
      for (const StructInfo& f : tup->fields) {
        fields.push_back(erase(f));
        changed = changed || !fields.back().same_as(f);
      }
      return changed ? tuple_sinfo(std::move(fields), sinfo->span) : sinfo;
    }
    if (const auto* f = sinfo.as<FuncStructInfoNode>()) return erase_func(sinfo, *f);
    return sinfo;
  }

 private:
  StructInfo erase_tensor(const StructInfo& sinfo, const TensorStructInfoNode& t) {
    if (!t.shape.defined()) return sinfo;
    if (const auto* shape = t.shape.as<ShapeExprNode>()) {
      bool changed = false;
      auto values = map_dims(shape->values, shape_var_map_, analyzer_, &changed);
      if (!values) return tensor_sinfo_ndim(t.ndim, t.dtype, sinfo->span);
      if (!changed) return sinfo;
      return tensor_sinfo_shape(make_shape_expr(std::move(*values), t.shape->span), t.dtype,
                                sinfo->span);
    }
    Var shape_var = t.shape.cast<VarNode>();
    if (!shape_var.defined()) return tensor_sinfo_ndim(t.ndim, t.dtype, sinfo->span);
    Expr mapped = var_map_(shape_var);
    if (mapped.same_as(shape_var)) return sinfo;
    if (mapped.defined() && mapped->struct_info.is<ShapeStructInfoNode>()) {
      return tensor_sinfo_shape(mapped, t.dtype, sinfo->span);
    }
    // Out of scope: what the variable's own StructInfo says about the shape remains.
    StructInfo shape_info = erase(shape_var->struct_info);
    const auto* s = shape_info.as<ShapeStructInfoNode>();
    if (s != nullptr && s->values) {
      return tensor_sinfo_shape(make_shape_expr(*s->values, t.shape->span), t.dtype, sinfo->span);
    }
    return tensor_sinfo_ndim(t.ndim, t.dtype, sinfo->span);
  }

  StructInfo erase_func(const StructInfo& sinfo, const FuncStructInfoNode& f) {
    // The shape variables the parameters define are bound by each call: keep them.
    std::unordered_set<const tir::VarNode*> bound;
    if (f.params) {
      for (const StructInfo& p : *f.params) {
        for (const tir::Var& v : defined_symbolic_vars(p)) bound.insert(v.get());
      }
    }
    ShapeVarMap outer = shape_var_map_;
    shape_var_map_ = [&bound, &outer](const tir::Var& v) -> PrimExpr {
      return bound.count(v.get()) != 0 ? PrimExpr(v) : outer(v);
    };
    StructInfo ret = erase(f.ret);
    shape_var_map_ = std::move(outer);
    if (ret.same_as(f.ret)) return sinfo;
    if (f.params) return func_sinfo(*f.params, ret, f.purity, sinfo->span);
    return opaque_func_sinfo(ret, f.purity, f.derive_func, sinfo->span);
  }

  ShapeVarMap shape_var_map_;
  RelaxVarMap var_map_;
  arith::Analyzer* analyzer_;
  int depth_ = 0;
};

// ---------------------------------------------------------------- Call derivation

// First pass of call derivation: binds each bare-variable dimension of a parameter to
// the argument's dimension in the same place.
void bind_param_vars(const StructInfo& param, const StructInfo& arg, int& depth,
                     std::unordered_map<const tir::VarNode*, PrimExpr>* bindings) {
  NestingGuard guard(depth, param.get());
  auto bind_dims = [&](const std::vector<PrimExpr>& params, const std::vector<PrimExpr>& args) {
    if (params.size() != args.size()) return;
    for (size_t i = 0; i < params.size(); ++i) {
      if (const auto* v = params[i].as<tir::VarNode>()) bindings->emplace(v, args[i]);
    }
  };
  if (const auto* p = param.as<PrimStructInfoNode>()) {
    const auto* a = arg.as<PrimStructInfoNode>();
    if (a != nullptr && p->value.defined() && a->value.defined()) {
      bind_dims({p->value}, {a->value});
    }
  } else if (const auto* s = param.as<ShapeStructInfoNode>()) {
    const auto* a = arg.as<ShapeStructInfoNode>();
    if (a != nullptr && s->values && a->values) bind_dims(*s->values, *a->values);
  } else if (const auto* t = param.as<TensorStructInfoNode>()) {
    const auto* a = arg.as<TensorStructInfoNode>();
    const auto* shape = t->shape.as<ShapeExprNode>();
    if (a != nullptr && shape != nullptr && a->shape_values() != nullptr) {
      bind_dims(shape->values, *a->shape_values());
    }
  } else if (const auto* tup = param.as<TupleStructInfoNode>()) {
    const auto* a = arg.as<TupleStructInfoNode>();
    if (a == nullptr || a->fields.size() != tup->fields.size()) return;
    for (size_t i = 0; i < tup->fields.size(); ++i) {
      bind_param_vars(tup->fields[i], a->fields[i], depth, bindings);
    }
  }
}

Expr keep_var(const Var& v) { return v; }

}  // namespace

arith::Proof prove_dim_equal(const PrimExpr& a, const PrimExpr& b, arith::Analyzer& analyzer) {
  if (a.same_as(b)) return arith::Proof::True;
  const int64_t* ca = tir::as_const_int(a);
  const int64_t* cb = tir::as_const_int(b);
  if (ca != nullptr && cb != nullptr) return *ca == *cb ? arith::Proof::True : arith::Proof::False;
  if (!a->dtype.is_integer() || !b->dtype.is_integer()) return arith::Proof::Unknown;
  return analyzer.prove(tir::eq(to_int64(a), to_int64(b)));
}

BaseCheck is_base_of(const StructInfo& base, const StructInfo& derived, arith::Analyzer* analyzer) {
  AnalyzerRef an(analyzer);
  int depth = 0;
  return base_check(base, derived, an.get(), depth);
}

StructInfo struct_info_lca(const StructInfo& a, const StructInfo& b, arith::Analyzer* analyzer) {
  RELAXC_ICHECK(a.defined() && b.defined()) << "struct_info_lca of a null StructInfo";
  AnalyzerRef an(analyzer);
  int depth = 0;
  return lca(a, b, an.get(), depth);
}

StructInfo substitute_struct_info(const StructInfo& sinfo, const ShapeVarMap& shape_var_map,
                                  const RelaxVarMap& var_map) {
  arith::Analyzer analyzer;
  return Eraser(shape_var_map, var_map, &analyzer).erase(sinfo);
}

StructInfo erase_to_well_defined(const StructInfo& sinfo,
                                 const std::vector<tir::Var>& defined_shape_vars,
                                 const std::vector<Var>& defined_vars) {
  std::unordered_set<const tir::VarNode*> shape_vars;
  for (const tir::Var& v : defined_shape_vars) shape_vars.insert(v.get());
  std::unordered_set<const VarNode*> vars;
  for (const Var& v : defined_vars) vars.insert(v.get());
  return substitute_struct_info(
      sinfo, [&](const tir::Var& v) -> PrimExpr { return shape_vars.count(v.get()) ? v : nullptr; },
      [&](const Var& v) -> Expr { return vars.count(v.get()) ? v : nullptr; });
}

StructInfo derive_call_ret_struct_info(const FuncStructInfoNode& callee,
                                       const std::vector<Expr>& args,
                                       const std::string& callee_name, Span span,
                                       arith::Analyzer* analyzer) {
  if (!callee.params) return callee.ret;
  const std::vector<StructInfo>& params = *callee.params;
  if (params.size() != args.size()) {
    user_error(span) << callee_name << " takes " << params.size() << " argument(s), got "
                     << args.size();
  }
  AnalyzerRef an(analyzer);
  std::unordered_map<const tir::VarNode*, PrimExpr> bindings;
  int depth = 0;
  for (size_t i = 0; i < params.size(); ++i) {
    bind_param_vars(params[i], args[i]->struct_info, depth, &bindings);
  }
  std::unordered_set<const tir::VarNode*> param_vars;
  for (const StructInfo& p : params) {
    for (const tir::Var& v : free_symbolic_vars(p)) param_vars.insert(v.get());
  }
  // Bound parameter variables take the caller's dimensions; unbound ones are unknown at
  // the call site; any other variable is from an enclosing scope and stays.
  ShapeVarMap subst = [&](const tir::Var& v) -> PrimExpr {
    auto it = bindings.find(v.get());
    if (it != bindings.end()) return it->second;
    return param_vars.count(v.get()) != 0 ? PrimExpr() : PrimExpr(v);
  };
  Eraser eraser(subst, keep_var, an.get());
  for (size_t i = 0; i < params.size(); ++i) {
    StructInfo expected = eraser.erase(params[i]);
    if (base_check(expected, args[i]->struct_info, an.get(), depth) == BaseCheck::Fail) {
      user_error(span) << callee_name << ": argument " << i
                       << " does not fit its parameter: expected " << text::print_node(params[i])
                       << ", got " << text::print_node(args[i]->struct_info);
    }
  }
  return eraser.erase(callee.ret);
}

}  // namespace relaxc::relax
