// vm-shape-lower: symbolic shapes on a host shape heap, StructInfo checked at run time.
//
// Algorithm, per Relax function (see vm_shape_lower_heap.h for the heap's layout):
// 1. Plan: walk the parameters' StructInfo, the bindings (match_cast patterns, and the
//    ShapeExprs and PrimValues that are values; StructInfo annotations are static and
//    need nothing at run time) and the return StructInfo in program order. Every shape
//    variable, and every compound dimension (n * 4) that must be known at run time, gets
//    a heap slot in order of first appearance.
// 2. Rewrite in program order, tracking which variables are defined and which compound
//    slots are computed on the current path (each If branch starts from the state
//    before the If):
//    - first the heap (vm.builtin.alloc_shape_heap), then for each parameter its
//      check_*_info and match_shape / match_prim_value: a bare variable seen for the
//      first time is stored, one seen before and a constant are asserted, a compound
//      dimension not yet computed is left for later;
//    - a "compute point" follows the parameters and every match_cast: the compound
//      expressions whose variables are now all defined are stored into the heap by one
//      host PrimFunc called there, then the dimensions left for later are asserted
//      against their slots (AssertEqualToLoad). The first call point's function is
//      `<function>_shape_func`, later ones (match_casts that define new variables used
//      in compound expressions) `<function>_shape_func_1`, `_2`, ...; each stores only
//      what became computable at its point. A compound whose variables are defined is
//      thus computed at the earliest point, even if only a later branch uses it;
//    - a match_cast checks its value the same way, then binds its variable to the
//      value; the variable gets the value's StructInfo (the shape variables it defined
//      exist only in the heap now);
//    - ShapeExprs and PrimValues that use shape variables become vm.builtin.make_shape /
//      make_prim_value from the heap;
//    - sinfo_args that mention a variable a match_cast defined lose that information
//      (substitute_struct_info erases it), so that the function stays well formed once
//      its match_casts are gone: only the parameters still define shape variables;
//    - the return value is checked against the function's return StructInfo;
//    - the tensor condition of an If whose dimensions are not all known to be 1 is
//      asserted to have one element before the If (match_shape, on an empty heap if the
//      function has none), so the error names the If's place.
//    A function with no shape variables gets no heap, except an empty one (0 slots)
//    when it has constant dimensions to assert: match_shape takes a heap tensor.
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "ir/relax/analysis.h"
#include "ir/relax/expr_mutator.h"
#include "ir/relax/struct_info_analysis.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"
#include "passes/relax/transforms.h"
#include "passes/relax/vm_shape_lower_heap.h"
#include "runtime/vm/builtin_abi.h"

namespace relaxc::relax {

namespace {

namespace builtin = runtime::vm::builtin;

const DataType kInt64 = DataType::Int(64);

Expr prim(int64_t value) { return make_prim_value(tir::int_imm(kInt64, value)); }

// " (file:line:col)", or nothing where the span is unknown.
std::string location(Span span) { return span.defined() ? " (" + span.location() + ")" : ""; }

bool uses_any_shape_var(const PrimExpr& e) {
  return tir::uses_var_if(e, [](const tir::VarNode*) { return true; });
}

// Dimensions of a value that a match leaves for after the next compute point.
struct PendingAssert {
  Expr value;
  bool is_prim = false;  // match_prim_value of one value, else match_shape
  std::vector<PrimExpr> dims;
  std::string err_ctx;
};

class ShapeLowerer : public ExprMutator {
 public:
  ShapeLowerer(const IRModule& module, std::string func_name, HeapPlan plan,
               std::unordered_set<std::string>& taken_names)
      : ExprMutator(module),
        func_name_(std::move(func_name)),
        plan_(std::move(plan)),
        taken_names_(taken_names) {}

  Function lower(const Function& func) {
    const auto* seq = func->body.as<SeqExprNode>();
    RELAXC_ICHECK(seq != nullptr) << "vm-shape-lower: function body is not a SeqExpr";
    for (const tir::Var& v : defined_symbolic_vars_of(func->params))
      signature_vars_.insert(v.get());

    builder_.begin_scope(func->params);
    // Without shape variables, constant dimensions still need a heap argument for
    // match_shape: an empty heap (the runtime requires a tensor there).
    if (plan_.size() > 0 || plan_.has_pattern_dims()) {
      heap_ = builder_.emit(
          packed(builtin::kAllocShapeHeap, {prim(plan_.size())}, {tensor_sinfo_ndim(1, kInt64)}),
          "shape_heap");
    }
    std::vector<PendingAssert> pending;
    for (const Var& param : func->params) {
      check_value(param, param->struct_info, "argument '" + param->name + "'", param->span,
                  pending);
    }
    compute_point();
    assert_pending(pending);

    for (const BindingBlock& block : seq->blocks) visit_block(block);
    Expr result = visit_expr(seq->body);
    if (func->ret_struct_info.defined()) {
      pending.clear();
      // The SeqExpr's span is the return statement's.
      Span span = seq->span.defined() ? seq->span : func->span;
      check_value(result, func->ret_struct_info, "return value", span, pending);
      compute_point();
      assert_pending(pending);
    }
    Expr body = builder_.end_scope(result, seq->span);

    Attrs attrs = func->attrs;
    // The checks are impure calls; a pure function keeps its purity by force_pure.
    if (emitted_ && func->is_pure && attrs.find("relax.force_pure") == nullptr) {
      attrs = attrs.with("relax.force_pure", AttrValue::boolean(true));
    }
    return builder_.function(func->params, body, func->ret_struct_info, func->is_pure, attrs,
                             func->span);
  }

  // The host functions made for the call points, in order.
  const std::vector<std::pair<GlobalVar, tir::PrimFunc>>& host_funcs() const { return host_funcs_; }

 protected:
  Expr visit_node(const ShapeExprNode* node) override {
    bool symbolic = false;
    for (const PrimExpr& dim : node->values) symbolic = symbolic || uses_any_shape_var(dim);
    if (!symbolic) return Expr(node);
    int ndim = static_cast<int>(node->values.size());
    std::vector<Expr> args = {heap_, prim(ndim)};
    for (const PrimExpr& dim : node->values) {
      if (const int64_t* imm = tir::as_const_int(dim)) {
        args.push_back(prim(builtin::kUseImm));
        args.push_back(prim(*imm));
      } else {
        args.push_back(prim(builtin::kLoadShape));
        args.push_back(prim(loaded_slot(dim, node->span)));
      }
    }
    return packed(builtin::kMakeShape, std::move(args), {shape_sinfo_ndim(ndim)}, node->span);
  }

  Expr visit_node(const PrimValueNode* node) override {
    if (!uses_any_shape_var(node->value)) return Expr(node);
    DataType dtype = node->value->dtype;
    std::vector<Expr> args = {heap_};
    if (const int64_t* imm = tir::as_const_int(node->value)) {
      args.push_back(prim(builtin::kUseImm));
      args.push_back(prim(*imm));
    } else {
      args.push_back(prim(builtin::kLoadShape));
      args.push_back(prim(loaded_slot(node->value, node->span)));
    }
    args.push_back(make_data_type_imm(dtype));
    return packed(builtin::kMakePrimValue, std::move(args), {prim_sinfo(dtype)}, node->span);
  }

  Expr visit_node(const CallNode* node) override {
    Expr result = ExprMutator::visit_node(node);
    const auto* call = result.as<CallNode>();
    std::vector<StructInfo> sinfo_args;
    bool erased = false;
    for (const StructInfo& sinfo : call->sinfo_args) {
      sinfo_args.push_back(erase_match_cast_vars(sinfo));
      erased = erased || !sinfo_args.back().same_as(sinfo);
    }
    if (!erased) return result;
    return builder_.call(call->op, call->args, std::move(sinfo_args), call->attrs, call->span);
  }

  // Each branch sees the variables and slots defined before the If, not the other's.
  Expr visit_node(const IfNode* node) override {
    Expr cond = visit_expr(node->cond);
    check_condition(cond, node->span);
    PathState before = state_;
    Var heap_before = heap_;  // a heap a branch allocates is not in scope after it
    Expr t = visit_scope(node->true_branch);
    state_ = before;
    heap_ = heap_before;
    Expr f = visit_scope(node->false_branch);
    state_ = before;
    heap_ = heap_before;
    if (cond.same_as(node->cond) && t.same_as(node->true_branch) && f.same_as(node->false_branch)) {
      return Expr(node);
    }
    return builder_.if_then_else(cond, t, f, node->span);
  }

  // The VM reads a tensor condition's one element; dimensions not known to be 1 are
  // asserted before the If, so that a tensor of several elements is reported at the
  // If's place. (A condition of unknown ndim is left to the VM's own check.)
  void check_condition(const Expr& cond, Span span) {
    const auto* t = cond->struct_info.as<TensorStructInfoNode>();
    if (t == nullptr || t->ndim <= 0) return;
    const std::vector<PrimExpr>* dims = t->shape_values();
    std::vector<Expr> codes;
    bool any = false;
    for (int d = 0; d < t->ndim; ++d) {
      bool is_one = dims != nullptr && tir::is_const_int((*dims)[d], 1);
      any = any || !is_one;
      codes.push_back(prim(is_one ? builtin::kNoOp : builtin::kAssertEqualToImm));
      codes.push_back(prim(is_one ? 0 : 1));
    }
    if (!any) return;
    if (!heap_.defined()) {
      heap_ =
          builder_.emit(packed(builtin::kAllocShapeHeap, {prim(0)}, {tensor_sinfo_ndim(1, kInt64)}),
                        "shape_heap");
    }
    emit_match(cond, /*is_prim=*/false, std::move(codes),
               func_name_ + ": the condition of If" + location(span) +
                   ", expected a tensor of one element");
  }

  Expr visit_node(const FunctionNode* node) override {
    throw UserError(node->span, "vm-shape-lower: function '" + func_name_ +
                                    "' holds a local function; run lambda-lift first");
  }

  void visit_block(const BindingBlock& block) override {
    if (block->is_dataflow()) {
      Span span = block->span;
      if (!span.defined() && !block->bindings.empty()) span = block->bindings.front()->span;
      user_error(span) << "vm-shape-lower: function '" << func_name_
                       << "' has a dataflow block; run to-non-dataflow first";
    }
    ExprMutator::visit_block(block);
  }

  void visit_match_cast(const MatchCastNode* binding, const Binding&) override {
    Expr value = visit_expr(binding->value);
    const Var& var = binding->var;
    VarKind kind = var.is<DataflowVarNode>() ? VarKind::DataflowVar : VarKind::Var;
    // A computed value is bound first, so that the checks and the variable share it.
    Var bound;
    if (!value.is<VarNode>()) bound = builder_.emit(value, var->name, kind, {}, binding->span);
    std::vector<PendingAssert> pending;
    check_value(bound.defined() ? Expr(bound) : value, binding->struct_info,
                "match_cast '" + var->name + "'", binding->span, pending);
    compute_point();
    assert_pending(pending);
    if (!bound.defined()) bound = builder_.emit(value, var->name, kind, {}, binding->span);
    var_remap_[var.get()] = bound;
  }

 private:
  // What is known on the current path of the function.
  struct PathState {
    std::unordered_set<const tir::VarNode*> defined;
    std::unordered_set<int64_t> computed;  // compound slots
  };

  static std::vector<tir::Var> defined_symbolic_vars_of(const std::vector<Var>& params) {
    std::vector<tir::Var> vars;
    for (const Var& p : params) {
      for (tir::Var& v : defined_symbolic_vars(p->struct_info)) vars.push_back(std::move(v));
    }
    return vars;
  }

  // R.call_packed(`name`, args..., sinfo_args=...), unbound.
  Expr packed(const std::string& name, std::vector<Expr> args, std::vector<StructInfo> sinfo_args,
              Span span = {}) {
    args.insert(args.begin(), make_extern_func(name, {}, span));
    return builder_.call_op("relax.call_packed", std::move(args), std::move(sinfo_args), {}, span);
  }

  // Binds a packed call whose result is not used (a check, a store).
  void emit_packed(const std::string& name, std::vector<Expr> args) {
    builder_.emit(packed(name, std::move(args), {}), "_");
    emitted_ = true;
  }

  std::string err_ctx(const std::string& what, Span span, const StructInfo& expected) const {
    return func_name_ + ": " + what + location(span) + ", expected " + text::print_node(expected);
  }

  // The StructInfo checks of `value` against `sinfo` and the matches of its dimensions.
  void check_value(const Expr& value, const StructInfo& sinfo, const std::string& what, Span span,
                   std::vector<PendingAssert>& pending) {
    const std::string ctx = err_ctx(what, span, sinfo);
    if (const auto* p = sinfo.as<PrimStructInfoNode>()) {
      emit_packed(builtin::kCheckPrimValueInfo,
                  {value, make_data_type_imm(p->dtype), make_string_imm(ctx)});
      if (p->value.defined()) match(value, /*is_prim=*/true, {p->value}, ctx, pending);
    } else if (const auto* s = sinfo.as<ShapeStructInfoNode>()) {
      emit_packed(builtin::kCheckShapeInfo, {value, prim(s->ndim), make_string_imm(ctx)});
      if (s->values) match(value, /*is_prim=*/false, *s->values, ctx, pending);
    } else if (const auto* t = sinfo.as<TensorStructInfoNode>()) {
      emit_packed(builtin::kCheckTensorInfo,
                  {value, prim(t->ndim), make_data_type_imm(t->dtype), make_string_imm(ctx)});
      if (const std::vector<PrimExpr>* dims = t->shape_values()) {
        match(value, /*is_prim=*/false, *dims, ctx, pending);
      }
    } else if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
      check_tuple(value, *tuple, what, span, ctx, pending);
    } else if (sinfo.is<FuncStructInfoNode>()) {
      emit_packed(builtin::kCheckFuncInfo, {value, make_string_imm(ctx)});
    }
    // ObjectStructInfo: any value fits.
  }

  void check_tuple(const Expr& value, const TupleStructInfoNode& tuple, const std::string& what,
                   Span span, const std::string& ctx, std::vector<PendingAssert>& pending) {
    const size_t size = tuple.fields.size();
    // A tuple literal (a returned `(a, b)`) is a tuple of its size: check its fields.
    if (const auto* literal = value.as<TupleNode>(); literal && literal->fields.size() == size) {
      for (size_t i = 0; i < size; ++i) {
        check_value(literal->fields[i], tuple.fields[i], field_what(i, what), span, pending);
      }
      return;
    }
    emit_packed(builtin::kCheckTupleInfo,
                {value, prim(static_cast<int64_t>(size)), make_string_imm(ctx)});
    const auto* var = value.as<VarNode>();
    for (size_t i = 0; i < size; ++i) {
      if (tuple.fields[i].is<ObjectStructInfoNode>()) continue;
      std::string name =
          (var != nullptr ? var->name : std::string("tuple")) + "_" + std::to_string(i);
      Var item = builder_.emit(builder_.tuple_get_item(value, static_cast<int>(i)), name);
      check_value(item, tuple.fields[i], field_what(i, what), span, pending);
    }
  }

  static std::string field_what(size_t index, const std::string& what) {
    return "field " + std::to_string(index) + " of " + what;
  }

  // One match_shape / match_prim_value: bare variables are stored the first time and
  // asserted after; compound dimensions not yet computed are left to `pending`.
  void match(const Expr& value, bool is_prim, const std::vector<PrimExpr>& dims,
             const std::string& ctx, std::vector<PendingAssert>& pending) {
    std::vector<Expr> codes;
    bool any = false;
    bool deferred = false;
    for (const PrimExpr& dim : dims) {
      int64_t code = builtin::kNoOp;
      int64_t operand = 0;
      if (const int64_t* imm = tir::as_const_int(dim)) {
        code = builtin::kAssertEqualToImm;
        operand = *imm;
      } else if (const auto* v = dim.as<tir::VarNode>()) {
        operand = plan_.var_slot(v);
        code =
            state_.defined.insert(v).second ? builtin::kStoreToHeap : builtin::kAssertEqualToLoad;
      } else {
        int64_t slot = plan_.compound_slot(dim);
        if (state_.computed.count(slot)) {
          code = builtin::kAssertEqualToLoad;
          operand = slot;
        } else {
          deferred = true;
        }
      }
      any = any || code != builtin::kNoOp;
      codes.push_back(prim(code));
      codes.push_back(prim(operand));
    }
    if (any) emit_match(value, is_prim, std::move(codes), ctx);
    if (deferred) pending.push_back({value, is_prim, dims, ctx});
  }

  void emit_match(const Expr& value, bool is_prim, std::vector<Expr> codes,
                  const std::string& ctx) {
    RELAXC_ICHECK(heap_.defined()) << "vm-shape-lower: a match without a heap";
    std::vector<Expr> args = {value, heap_};
    if (!is_prim) args.push_back(prim(static_cast<int64_t>(codes.size() / 2)));
    args.insert(args.end(), codes.begin(), codes.end());
    args.push_back(make_string_imm(ctx));
    emit_packed(is_prim ? builtin::kMatchPrimValue : builtin::kMatchShape, std::move(args));
  }

  // Asserts the compound dimensions that the last compute point made available.
  void assert_pending(const std::vector<PendingAssert>& pending) {
    for (const PendingAssert& p : pending) {
      std::vector<Expr> codes;
      for (const PrimExpr& dim : p.dims) {
        int64_t code = builtin::kNoOp;
        int64_t operand = 0;
        if (tir::as_const_int(dim) == nullptr && !dim.is<tir::VarNode>()) {
          code = builtin::kAssertEqualToLoad;
          operand = loaded_slot(dim, {});
        }
        codes.push_back(prim(code));
        codes.push_back(prim(operand));
      }
      emit_match(p.value, p.is_prim, std::move(codes), p.err_ctx);
    }
  }

  // The slot holding `e` (a variable or a computed compound) where it is used.
  int64_t loaded_slot(const PrimExpr& e, Span span) {
    if (const auto* v = e.as<tir::VarNode>()) {
      if (!state_.defined.count(v)) {
        user_error(span.defined() ? span : v->span)
            << "vm-shape-lower: function '" << func_name_ << "': shape variable '" << v->name
            << "' is used before a parameter or R.match_cast defines it";
      }
      return plan_.var_slot(v);
    }
    int64_t slot = plan_.compound_slot(e);
    if (!state_.computed.count(slot)) {
      user_error(span.defined() ? span : e->span)
          << "vm-shape-lower: function '" << func_name_ << "': '" << text::print_node(e)
          << "' uses a shape variable before a parameter or R.match_cast defines it";
    }
    return slot;
  }

  // Stores every compound expression that just became computable, with one host
  // function called here.
  void compute_point() {
    std::vector<const HeapPlan::Compound*> ready;
    for (const HeapPlan::Compound& c : plan_.compounds()) {
      if (state_.computed.count(c.slot)) continue;
      bool known = true;
      for (const tir::VarNode* v : c.vars) known = known && state_.defined.count(v) > 0;
      if (!known) continue;
      ready.push_back(&c);
      state_.computed.insert(c.slot);
    }
    if (ready.empty()) return;
    GlobalVar gv = make_global_var(host_func_name());
    host_funcs_.emplace_back(gv, make_host_func(ready, plan_, func_name_));
    builder_.declare_global(gv, opaque_func_sinfo(object_sinfo()));
    builder_.emit(builder_.call(gv, {heap_}), "_");
    emitted_ = true;
  }

  std::string host_func_name() {
    std::string base = func_name_ + "_shape_func";
    if (!host_funcs_.empty()) base += "_" + std::to_string(host_funcs_.size());
    std::string name = base;
    for (int i = 1; taken_names_.count(name); ++i) name = base + "_v" + std::to_string(i);
    taken_names_.insert(name);
    return name;
  }

  // `sinfo` without the shape variables that only match_casts define.
  StructInfo erase_match_cast_vars(const StructInfo& sinfo) const {
    bool local = false;
    for (const tir::Var& v : free_symbolic_vars(sinfo)) {
      local = local || !signature_vars_.count(v.get());
    }
    if (!local) return sinfo;
    return substitute_struct_info(
        sinfo,
        [&](const tir::Var& v) -> PrimExpr {
          return signature_vars_.count(v.get()) ? PrimExpr(v) : PrimExpr();
        },
        [](const Var& v) -> Expr { return v; });
  }

  std::string func_name_;
  HeapPlan plan_;
  std::unordered_set<std::string>& taken_names_;
  std::unordered_set<const tir::VarNode*> signature_vars_;
  Var heap_;
  PathState state_;
  bool emitted_ = false;
  std::vector<std::pair<GlobalVar, tir::PrimFunc>> host_funcs_;
};

}  // namespace

IRModule vm_shape_lower(const IRModule& module) {
  std::unordered_set<std::string> taken_names;
  for (const auto& [gv, func] : module->functions) taken_names.insert(gv->name);
  std::vector<std::pair<GlobalVar, Ref<Object>>> functions;
  for (const auto& [gv, func] : module->functions) {
    Function relax_func = func.cast<FunctionNode>();
    if (!relax_func.defined()) {
      functions.emplace_back(gv, func);
      continue;
    }
    ShapeLowerer lowerer(module, gv->name, plan_shape_heap(relax_func), taken_names);
    functions.emplace_back(gv, lowerer.lower(relax_func));
    // Each host function follows the function that calls it.
    for (const auto& [host_gv, host] : lowerer.host_funcs()) functions.emplace_back(host_gv, host);
  }
  return make_module(std::move(functions), module->attrs, module->span);
}

}  // namespace relaxc::relax
