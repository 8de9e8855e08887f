// BlockBuilder, the normalizer: scopes, blocks, bindings and StructInfo inference.
//
// The builder keeps a stack of scopes (one per SeqExpr being built: a function body or
// an If branch); each scope holds its closed blocks and at most one open block.
// Normal form is kept as things are built, never checked after the fact:
// - a non-leaf argument is bound to a fresh variable in the open block (a DataflowVar
//   inside a dataflow block), so calls only ever see leaves;
// - a SeqExpr met where a value is expected is flattened: its blocks are spliced into
//   the current scope and its body becomes the value (spec normal form rule 5);
// - closing a block drops it if empty and merges it into the previous block of the
//   same kind (rule 4).
// The StructInfo of a closed scope is its body's, erased of what the scope defined
// (variables bound in it, shape variables first bound by its MatchCasts), so that an
// If or a function never exposes names its callers cannot see.
#include "ir/relax/block_builder.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "ir/relax/analysis.h"
#include "ir/relax/op_registry.h"
#include "ir/relax/struct_info_analysis.h"
#include "ir/text/printer.h"
#include "ir/tir/functor.h"

namespace relaxc::relax {

namespace {

const char* const kDefaultName = "lv";

bool is_leaf(const Expr& e) {
  switch (e->kind()) {
    case NodeKind::RelaxVar:
    case NodeKind::RelaxDataflowVar:
    case NodeKind::RelaxGlobalVar:
    case NodeKind::RelaxConstant:
    case NodeKind::RelaxShapeExpr:
    case NodeKind::RelaxPrimValue:
    case NodeKind::RelaxStringImm:
    case NodeKind::RelaxDataTypeImm:
    case NodeKind::RelaxExternFunc:
    case NodeKind::RelaxOp:
    case NodeKind::RelaxTuple:
      return true;
    default:
      return false;
  }
}

bool all_leaves(const std::vector<Expr>& exprs) {
  for (const Expr& e : exprs) {
    if (!e.defined() || !is_leaf(e) || !e->struct_info.defined()) return false;
  }
  return true;
}

// An operator's inference computes its result's dimensions from its arguments; one that
// comes out as a negative constant (a reshape to -3, a broadcast to -1, padding that
// removes more than there is) is the caller's error, reported at the call rather than
// later by the well-formedness check as a malformed annotation.
void check_result_dims(const StructInfo& sinfo, const std::string& display, const Span& span,
                       const std::string& where = "the result") {
  if (const auto* tuple = sinfo.as<TupleStructInfoNode>()) {
    for (size_t i = 0; i < tuple->fields.size(); ++i) {
      check_result_dims(tuple->fields[i], display, span,
                        "field " + std::to_string(i) + " of the result");
    }
    return;
  }
  const std::vector<PrimExpr>* dims = nullptr;
  if (const auto* tensor = sinfo.as<TensorStructInfoNode>()) dims = tensor->shape_values();
  if (dims == nullptr) return;
  for (size_t i = 0; i < dims->size(); ++i) {
    const int64_t* extent = tir::as_const_int((*dims)[i]);
    if (extent != nullptr && *extent < 0) {
      user_error(span) << display << ": dimension " << i << " of " << where << " would be "
                       << *extent << "; a dimension is at least 0";
    }
  }
}

bool is_built_seq(const Expr& e) { return e.is<SeqExprNode>() && e->struct_info.defined(); }

// Whether `e` already is what the builder would make of it: StructInfo given and every
// child in normal form. Values built through the builder are; hand-built ones may not be.
bool in_normal_form(const Expr& e) {
  if (!e->struct_info.defined()) return false;
  if (const auto* call = e.as<CallNode>()) {
    return is_leaf(call->op) && all_leaves(call->args);
  }
  if (const auto* tuple = e.as<TupleNode>()) return all_leaves(tuple->fields);
  if (const auto* item = e.as<TupleGetItemNode>()) return all_leaves({item->tuple});
  if (const auto* node = e.as<IfNode>()) {
    return all_leaves({node->cond}) && is_built_seq(node->true_branch) &&
           is_built_seq(node->false_branch);
  }
  if (const auto* func = e.as<FunctionNode>()) return is_built_seq(func->body);
  return !e.is<SeqExprNode>();
}

// How error messages name a callee.
std::string callee_name(const Expr& callee) {
  if (const auto* op = callee.as<OpNode>()) return "R." + op_script_name(op->name);
  if (const auto* gv = callee.as<GlobalVarNode>()) return gv->name;
  if (const auto* v = callee.as<VarNode>()) return v->name;
  if (const auto* f = callee.as<ExternFuncNode>()) {
    return "R.ExternFunc(\"" + f->global_symbol + "\")";
  }
  return "the callee";
}

// The result of calling an opaque function: what sinfo_args says, else its `ret`.
StructInfo opaque_call_result(const FuncStructInfoNode& callee,
                              const std::vector<StructInfo>& sinfo_args) {
  if (sinfo_args.empty()) return callee.ret;
  if (sinfo_args.size() == 1) return sinfo_args[0];
  return tuple_sinfo(sinfo_args);
}

}  // namespace

struct BlockBuilder::Impl {
  struct Block {
    std::vector<Binding> bindings;
    bool dataflow = false;
    Span span;
  };
  struct Scope {
    std::vector<Block> blocks;  // closed
    std::optional<Block> open;
    std::unordered_set<const tir::VarNode*> param_shape_vars;
    std::unordered_set<const tir::VarNode*> local_shape_vars;  // first bound here
  };

  BlockBuilder* self;
  IRModule module;
  std::unordered_map<std::string, StructInfo> declared;
  arith::Analyzer analyzer;
  std::vector<Scope> scopes;
  int depth = 0;  // of the normalizer's recursion

  // ---- Scopes and blocks.

  Scope& scope() {
    RELAXC_ICHECK(!scopes.empty()) << "BlockBuilder: no open scope (call begin_scope first)";
    return scopes.back();
  }

  void begin_scope(const std::vector<Var>* params) {
    Scope s;
    if (params != nullptr) {
      for (const Var& p : *params) {
        for (const tir::Var& v : free_symbolic_vars(p->struct_info)) {
          s.param_shape_vars.insert(v.get());
        }
      }
    }
    scopes.push_back(std::move(s));
  }

  void begin_block(bool dataflow, Span span = {}) {
    end_block();
    scope().open = Block{{}, dataflow, span};
  }

  void end_block() {
    Scope& s = scope();
    if (!s.open) return;
    Block block = std::move(*s.open);
    s.open.reset();
    if (block.bindings.empty()) return;
    if (!s.blocks.empty() && s.blocks.back().dataflow == block.dataflow) {
      auto& into = s.blocks.back().bindings;
      into.insert(into.end(), block.bindings.begin(), block.bindings.end());
      return;
    }
    s.blocks.push_back(std::move(block));
  }

  bool in_dataflow_block() const {
    return !scopes.empty() && scopes.back().open && scopes.back().open->dataflow;
  }

  bool shape_var_known(const tir::VarNode* v) const {
    for (const Scope& s : scopes) {
      if (s.param_shape_vars.count(v) != 0 || s.local_shape_vars.count(v) != 0) return true;
    }
    return false;
  }

  // ---- Bindings.

  // The one place bindings enter a block: checks the variable kind against the block,
  // purity in dataflow blocks, and records shape variables a MatchCast binds.
  void append(const Binding& binding) {
    Scope& s = scope();
    if (!s.open) s.open = Block{{}, false, binding->span};
    const Var& var = binding->var;
    if (var.is<DataflowVarNode>() && !s.open->dataflow) {
      user_error(binding->span) << "DataflowVar '" << var->name
                                << "' can only be bound inside a dataflow block";
    }
    if (s.open->dataflow) check_pure(binding->value, binding->span);
    if (const auto* cast = binding.as<MatchCastNode>()) {
      for (const tir::Var& v : defined_symbolic_vars(cast->struct_info)) {
        if (!shape_var_known(v.get())) s.local_shape_vars.insert(v.get());
      }
    }
    s.open->bindings.push_back(binding);
  }

  void check_pure(const Expr& value, Span span) {
    const auto* call = value.as<CallNode>();
    if (call == nullptr) return;
    bool pure = true;
    if (const auto* op = call->op.as<OpNode>()) {
      const OpInfo* info = find_op(op->name);
      pure = info == nullptr || info->pure;
    } else {
      StructInfo sinfo = call->op->struct_info;
      if (const auto* gv = call->op.as<GlobalVarNode>()) sinfo = global_struct_info(gv->name);
      const auto* func = sinfo.defined() ? sinfo.as<FuncStructInfoNode>() : nullptr;
      pure = func == nullptr || func->purity;
    }
    if (!pure) {
      user_error(call->span.defined() ? call->span : span)
          << callee_name(call->op) << " is impure and cannot be called inside a dataflow block";
    }
  }

  Var new_var(const std::string& name_hint, VarKind kind, StructInfo sinfo, Span span) {
    const std::string& name = name_hint.empty() ? std::string(kDefaultName) : name_hint;
    if (kind == VarKind::DataflowVar) {
      if (!in_dataflow_block()) {
        user_error(span) << "DataflowVar '" << name
                         << "' can only be bound inside a dataflow block";
      }
      return make_dataflow_var(name, std::move(sinfo), span);
    }
    return make_var(name, std::move(sinfo), span);
  }

  // A variable's StructInfo must be a base of its value's.
  void check_fits(const StructInfo& annotation, const StructInfo& value_sinfo,
                  const std::string& var_name, Span span) {
    BaseCheck fit = is_base_of(annotation, value_sinfo, &analyzer);
    if (fit == BaseCheck::Fail) {
      user_error(span) << "variable '" << var_name << "': annotation "
                       << text::print_node(annotation)
                       << " is incompatible with the value's StructInfo "
                       << text::print_node(value_sinfo);
    }
    if (fit == BaseCheck::RuntimeCheck) {
      user_error(span) << "variable '" << var_name << "': the value's StructInfo "
                       << text::print_node(value_sinfo) << " is less specific than the annotation "
                       << text::print_node(annotation)
                       << "; use R.match_cast to check it at run time";
    }
  }

  Var emit(const Expr& value, const std::string& name_hint, VarKind kind,
           const StructInfo& annotation, Span span, bool reinfer) {
    Expr v = normalize_value(value, reinfer);
    StructInfo sinfo = v->struct_info;
    if (annotation.defined()) {
      check_fits(annotation, sinfo, name_hint.empty() ? kDefaultName : name_hint, span);
      sinfo = annotation;
    }
    Var var = new_var(name_hint, kind, sinfo, span.defined() ? span : v->span);
    append(make_var_binding(var, v, span.defined() ? span : v->span));
    return var;
  }

  Var emit_match_cast(const Expr& value, const StructInfo& sinfo, const std::string& name_hint,
                      VarKind kind, Span span, bool reinfer) {
    Expr v = normalize_value(value, reinfer);
    check_match_cast(sinfo, v, name_hint.empty() ? kDefaultName : name_hint, span);
    Var var = new_var(name_hint, kind, sinfo, span);
    append(make_match_cast(var, v, sinfo, span));
    return var;
  }

  void check_match_cast(const StructInfo& sinfo, const Expr& value, const std::string& name,
                        Span span) {
    if (is_base_of(sinfo, value->struct_info, &analyzer) == BaseCheck::Fail) {
      user_error(span) << "R.match_cast of '" << name << "' can never succeed: the value's "
                       << "StructInfo " << text::print_node(value->struct_info)
                       << " does not match " << text::print_node(sinfo);
    }
  }

  // Re-emits `binding`, normalizing its value (flattening a SeqExpr into this scope).
  void bind(const Binding& binding, bool reinfer) {
    Expr value = normalize_value(binding->value, reinfer);
    const Var& var = binding->var;
    if (const auto* cast = binding.as<MatchCastNode>()) {
      check_match_cast(cast->struct_info, value, var.defined() ? var->name : "_", binding->span);
      append(value.same_as(binding->value)
                 ? binding
                 : make_match_cast(var, value, cast->struct_info, binding->span));
      return;
    }
    RELAXC_ICHECK(var.defined() && var->struct_info.defined()) << "binding without a variable";
    check_fits(var->struct_info, value->struct_info, var->name, binding->span);
    append(value.same_as(binding->value) ? binding : make_var_binding(var, value, binding->span));
  }

  // ---- Normalization.

  // A value in normal form for a binding's right-hand side: a SeqExpr is flattened
  // into the current scope; anything else is (re)normalized when needed.
  Expr normalize_value(const Expr& e, bool reinfer) {
    RELAXC_ICHECK(e.defined()) << "BlockBuilder: null expression";
    NestingGuard guard(depth, e.get());
    if (const auto* seq = e.as<SeqExprNode>()) return flatten(*seq, reinfer);
    if (e.is<GlobalVarNode>()) return refine_global_var(e);
    if (reinfer || !in_normal_form(e)) return normalize_expr(e);
    return e;
  }

  // A leaf for an argument position: non-leaf values are bound to fresh variables.
  Expr normalize_arg(const Expr& e, bool reinfer) {
    Expr v = normalize_value(e, reinfer);
    if (is_leaf(v)) return v;
    VarKind kind = in_dataflow_block() ? VarKind::DataflowVar : VarKind::Var;
    return emit(v, kDefaultName, kind, {}, v->span, false);
  }

  std::vector<Expr> normalize_args(const std::vector<Expr>& args, bool reinfer) {
    std::vector<Expr> out;
    out.reserve(args.size());
    for (const Expr& a : args) out.push_back(normalize_arg(a, reinfer));
    return out;
  }

  Expr flatten(const SeqExprNode& seq, bool reinfer) {
    Scope& s = scope();
    bool was_open = s.open.has_value();
    bool was_dataflow = was_open && s.open->dataflow;
    for (const BindingBlock& block : seq.blocks) {
      if (was_dataflow && !block->is_dataflow()) {
        user_error(block->span.defined() ? block->span : seq.span)
            << "a SeqExpr with a non-dataflow block cannot be flattened into a dataflow block";
      }
      if (!was_dataflow) begin_block(block->is_dataflow(), block->span);
      for (const Binding& b : block->bindings) bind(b, reinfer);
      if (!was_dataflow) end_block();
    }
    if (was_open && !was_dataflow) begin_block(false);
    return normalize_value(seq.body, reinfer);
  }

  // Re-infers `e` (its children normalized first).
  Expr normalize_expr(const Expr& e) {
    NestingGuard guard(depth, e.get());
    switch (e->kind()) {
      case NodeKind::RelaxVar:
      case NodeKind::RelaxDataflowVar:
        RELAXC_ICHECK(e->struct_info.defined()) << "variable without StructInfo";
        return e;
      case NodeKind::RelaxGlobalVar:
        return refine_global_var(e);
      case NodeKind::RelaxConstant:
        return e->struct_info.defined() ? e : make_constant(e.as<ConstantNode>()->data, e->span);
      case NodeKind::RelaxShapeExpr:
        return make_shape_expr(e.as<ShapeExprNode>()->values, e->span);
      case NodeKind::RelaxPrimValue:
        return make_prim_value(e.as<PrimValueNode>()->value, e->span);
      case NodeKind::RelaxStringImm:
        return e->struct_info.defined() ? e
                                        : make_string_imm(e.as<StringImmNode>()->value, e->span);
      case NodeKind::RelaxDataTypeImm:
        return e->struct_info.defined()
                   ? e
                   : make_data_type_imm(e.as<DataTypeImmNode>()->value, e->span);
      case NodeKind::RelaxExternFunc:
        return e->struct_info.defined()
                   ? e
                   : make_extern_func(e.as<ExternFuncNode>()->global_symbol, {}, e->span);
      case NodeKind::RelaxOp:
        return get_op(e.as<OpNode>()->name);
      case NodeKind::RelaxTuple:
        return make_tuple(e.as<TupleNode>()->fields, e->span, true);
      case NodeKind::RelaxSeqExpr:
        return normalize_seq(*e.as<SeqExprNode>(), nullptr);
      case NodeKind::RelaxCall: {
        const auto* call = e.as<CallNode>();
        return make_call(call->op, call->args, call->sinfo_args, call->attrs, e->span, true);
      }
      case NodeKind::RelaxIf: {
        const auto* node = e.as<IfNode>();
        return make_if(node->cond, node->true_branch, node->false_branch, e->span, true);
      }
      case NodeKind::RelaxFunction: {
        const auto* f = e.as<FunctionNode>();
        return make_function(f->params, f->body, f->ret_struct_info, f->is_pure, f->attrs, e->span,
                             true);
      }
      case NodeKind::RelaxTupleGetItem: {
        const auto* item = e.as<TupleGetItemNode>();
        return make_tuple_get_item(item->tuple, item->index, e->span, true);
      }
      default:
        RELAXC_UNREACHABLE() << "not a Relax expression: " << node_kind_name(e->kind());
    }
  }

  // A GlobalVar used as a value carries its function's StructInfo.
  Expr refine_global_var(const Expr& e) {
    StructInfo sinfo = global_struct_info(e.as<GlobalVarNode>()->name);
    if (!sinfo.defined() || (e->struct_info.defined() && e->struct_info.same_as(sinfo))) return e;
    GlobalVarNode* copy = copy_node(*e.as<GlobalVarNode>());
    copy->struct_info = sinfo;
    return Expr(copy);
  }

  // ---- Scopes as expressions.

  Expr end_scope(const Expr& body, Span span) {
    end_block();
    Expr result = normalize_value(body, false);
    if (!is_leaf(result)) {
      begin_block(false);
      result = emit(result, kDefaultName, VarKind::Var, {}, result->span, false);
    }
    end_block();
    Scope s = std::move(scopes.back());
    scopes.pop_back();

    std::unordered_set<const VarNode*> bound;
    std::vector<BindingBlock> blocks;
    for (Block& block : s.blocks) {
      for (const Binding& b : block.bindings) {
        if (b->var.defined()) bound.insert(b->var.get());
      }
      blocks.push_back(make_binding_block(std::move(block.bindings), block.dataflow, block.span));
    }
    const auto& locals = s.local_shape_vars;
    StructInfo sinfo = substitute_struct_info(
        result->struct_info,
        [&](const tir::Var& v) -> PrimExpr { return locals.count(v.get()) ? nullptr : v; },
        [&](const Var& v) -> Expr { return bound.count(v.get()) ? nullptr : v; });
    auto* seq = make_node<SeqExprNode>();
    seq->blocks = std::move(blocks);
    seq->body = result;
    seq->struct_info = sinfo;
    seq->span = span.defined() ? span : body->span;
    return Expr(seq);
  }

  // Rebuilds a SeqExpr in a new scope, re-inferring every binding.
  Expr normalize_seq(const SeqExprNode& seq, const std::vector<Var>* params) {
    begin_scope(params);
    for (const BindingBlock& block : seq.blocks) {
      begin_block(block->is_dataflow(), block->span);
      for (const Binding& b : block->bindings) bind(b, true);
      end_block();
    }
    return end_scope(normalize_value(seq.body, true), seq.span);
  }

  // A function body or If branch as a SeqExpr of its own scope.
  Expr scoped(const Expr& e, const std::vector<Var>* params, bool reinfer) {
    if (const auto* seq = e.as<SeqExprNode>()) {
      if (!reinfer && e->struct_info.defined()) return e;
      return normalize_seq(*seq, params);
    }
    begin_scope(params);
    return end_scope(normalize_value(e, reinfer), e->span);
  }

  // ---- Non-leaf expressions.

  StructInfo global_struct_info(const std::string& name) const {
    auto it = declared.find(name);
    if (it != declared.end()) return it->second;
    if (!module.defined()) return {};
    Function f = module->relax_function(name);
    if (!f.defined()) {
      // A PrimFunc called directly (a destination-passing call after call-tir-rewrite)
      // writes into its arguments: an opaque impure function whose result is nothing.
      if (module->prim_func(name).defined()) return opaque_func_sinfo(object_sinfo());
      return {};
    }
    if (f->struct_info.is<FuncStructInfoNode>()) return f->struct_info;
    std::vector<StructInfo> params;
    for (const Var& p : f->params) params.push_back(p->struct_info);
    StructInfo ret = f->ret_struct_info.defined() ? f->ret_struct_info : object_sinfo();
    return func_sinfo(std::move(params), ret, f->is_pure);
  }

  Expr make_call(const Expr& op, const std::vector<Expr>& args,
                 const std::vector<StructInfo>& sinfo_args, const Attrs& attrs, Span span,
                 bool reinfer) {
    if (const auto* o = op.as<OpNode>()) {
      return make_op_call(o->name, args, sinfo_args, attrs, span, reinfer);
    }
    Expr callee = op.is<GlobalVarNode>() ? op : normalize_arg(op, reinfer);
    std::vector<Expr> new_args = normalize_args(args, reinfer);
    StructInfo callee_sinfo = callee->struct_info;
    if (const auto* gv = callee.as<GlobalVarNode>()) {
      callee_sinfo = global_struct_info(gv->name);
      if (!callee_sinfo.defined()) {
        user_error(span) << "call of unknown function '" << gv->name << "'";
      }
    }
    const auto* func = callee_sinfo.as<FuncStructInfoNode>();
    if (func == nullptr) {
      user_error(span) << "'" << callee_name(callee) << "' is not a function: its StructInfo is "
                       << text::print_node(callee_sinfo);
    }
    StructInfo result = func->params ? derive_call_ret_struct_info(
                                           *func, new_args, callee_name(callee), span, &analyzer)
                                     : opaque_call_result(*func, sinfo_args);
    auto* call = make_node<CallNode>();
    Call owner(call);
    call->op = callee;
    call->args = std::move(new_args);
    call->sinfo_args = sinfo_args;
    call->attrs = attrs;
    call->span = span;
    call->struct_info = std::move(result);
    return owner;
  }

  // The attributes of a call of `info`, checked against its schema, in schema order
  // with defaults filled in (an unset attribute with a None default stays absent).
  Attrs check_attrs(const OpInfo& info, const Attrs& given, Span span) {
    const std::string display = "R." + op_script_name(info.name);
    std::vector<const AttrValue*> values(info.attrs.size(), nullptr);
    for (const auto& [name, value] : given.entries()) {
      size_t i = 0;
      while (i < info.attrs.size() && info.attrs[i].name != name) ++i;
      if (i == info.attrs.size()) {
        std::string expected;
        for (const OpAttrSpec& spec : info.attrs)
          expected += (expected.empty() ? "" : ", ") + spec.name;
        user_error(span) << display << ": unknown attribute '" << name << "'"
                         << (expected.empty() ? " (it takes none)"
                                              : " (expected " + expected + ")");
      }
      if (values[i] != nullptr) {
        user_error(span) << display << ": attribute '" << name << "' is given twice";
      }
      values[i] = &value;
    }
    std::vector<Attrs::Entry> out;
    for (size_t i = 0; i < info.attrs.size(); ++i) {
      const OpAttrSpec& spec = info.attrs[i];
      if (values[i] == nullptr && spec.required) {
        user_error(span) << display << ": missing attribute '" << spec.name << "'";
      }
      AttrValue value = values[i] != nullptr ? *values[i] : spec.default_value;
      if (value.is_none() && spec.required) {
        user_error(span) << display << ": attribute '" << spec.name << "' must not be None";
      }
      if (value.is_none() && spec.default_value.is_none()) continue;
      // A data type attribute given as None is the unknown dtype "void" (out_dtype=None
      // is TVM's default, which it prints as "void").
      if (spec.default_value.kind == AttrValue::Kind::DType && value.is_none()) {
        value = AttrValue::data_type(DataType::Void());
      }
      // The text format spells data types as strings.
      if (spec.default_value.kind == AttrValue::Kind::DType &&
          value.kind == AttrValue::Kind::String) {
        std::optional<DataType> dtype = DataType::parse(value.s);
        if (!dtype) {
          user_error(span) << display << ": attribute '" << spec.name << "': unknown data type '"
                           << value.s << "'";
        }
        value = AttrValue::data_type(*dtype);
      }
      out.emplace_back(spec.name, std::move(value));
    }
    return Attrs(std::move(out));
  }

  Expr make_op_call(const std::string& op_name, const std::vector<Expr>& args,
                    const std::vector<StructInfo>& sinfo_args, const Attrs& attrs, Span span,
                    bool reinfer) {
    const OpInfo* info = find_op(op_name);
    if (info == nullptr)
      user_error(span) << "unknown operator 'R." << op_script_name(op_name) << "'";
    const std::string display = "R." + op_script_name(info->name);
    size_t max_args = info->arg_names.size();
    if (args.size() < static_cast<size_t>(info->num_required_args)) {
      user_error(span) << display << ": missing argument '" << info->arg_names[args.size()] << "'";
    }
    if (!info->variadic && args.size() > max_args) {
      std::string names;
      for (const std::string& n : info->arg_names) names += (names.empty() ? "" : ", ") + n;
      user_error(span) << display << " takes at most " << max_args << " argument(s) (" << names
                       << "), got " << args.size();
    }
    if (info->sinfo_args_keyword.empty() && !sinfo_args.empty()) {
      user_error(span) << display << " takes no StructInfo arguments (sinfo_args/out_sinfo)";
    }
    Attrs checked = check_attrs(*info, attrs, span);
    auto* call = make_node<CallNode>();
    Call owner(call);
    call->op = get_op(info->name);
    call->args = normalize_args(args, reinfer);
    call->sinfo_args = sinfo_args;
    call->attrs = std::move(checked);
    call->span = span;
    if (info->canonicalize) info->canonicalize(call, *self);
    RELAXC_ICHECK(info->infer) << display << " has no StructInfo inference";
    call->struct_info = info->infer(call, *self);
    RELAXC_ICHECK(call->struct_info.defined()) << display << ": inference returned null";
    // A result given by sinfo_args (call_tir's out_sinfo) is the caller's annotation,
    // which the well-formedness check reports at the annotation itself (rule 14).
    if (sinfo_args.empty()) check_result_dims(call->struct_info, display, span);
    return owner;
  }

  Expr make_tuple(const std::vector<Expr>& fields, Span span, bool reinfer) {
    auto* tuple = make_node<TupleNode>();
    Expr owner(tuple);
    tuple->fields = normalize_args(fields, reinfer);
    std::vector<StructInfo> sinfos;
    for (const Expr& f : tuple->fields) sinfos.push_back(f->struct_info);
    tuple->struct_info = tuple_sinfo(std::move(sinfos), span);
    tuple->span = span;
    return owner;
  }

  Expr make_tuple_get_item(const Expr& tuple, int index, Span span, bool reinfer) {
    Expr t = normalize_arg(tuple, reinfer);
    StructInfo sinfo;
    if (const auto* fields = t->struct_info.as<TupleStructInfoNode>()) {
      if (index < 0 || static_cast<size_t>(index) >= fields->fields.size()) {
        user_error(span) << "tuple index " << index << " is out of range for a tuple of "
                         << fields->fields.size() << " field(s)";
      }
      sinfo = fields->fields[index];
    } else if (t->struct_info.is<ObjectStructInfoNode>()) {
      sinfo = object_sinfo(span);
    } else {
      user_error(span) << "cannot index a value that is not a tuple: its StructInfo is "
                       << text::print_node(t->struct_info);
    }
    auto* item = make_node<TupleGetItemNode>();
    Expr owner(item);
    item->tuple = t;
    item->index = index;
    item->struct_info = sinfo;
    item->span = span;
    return owner;
  }

  // What the VM can branch on, as TVM's normalizer and VM take it: a bool or integer
  // R.Prim, or a tensor of one element (the VM reads it; TVM's VM tests branch on a
  // (1,)-shaped tensor a packed function returns), or an R.Object that may hold either.
  // A tensor whose static shape has another number of elements is refused here; a
  // symbolic one is checked when the VM reads it.
  static void check_if_condition(const StructInfo& cs, Span span) {
    const char* const expected =
        "the condition of an If must be a bool or integer R.Prim or a tensor of one element";
    if (cs.is<ObjectStructInfoNode>()) return;
    if (const auto* prim = cs.as<PrimStructInfoNode>()) {
      if (prim->dtype.is_integer()) return;
    } else if (const auto* tensor = cs.as<TensorStructInfoNode>()) {
      const auto* shape = tensor->shape.as<ShapeExprNode>();
      if (shape == nullptr) return;
      bool one_element = true;
      for (const tir::PrimExpr& dim : shape->values) {
        const int64_t* extent = tir::as_const_int(dim);
        if (extent == nullptr) return;
        one_element = one_element && *extent == 1;
      }
      if (one_element) return;
    }
    user_error(span) << expected << ", got " << text::print_node(cs);
  }

  Expr make_if(const Expr& cond, const Expr& true_branch, const Expr& false_branch, Span span,
               bool reinfer) {
    Expr c = normalize_arg(cond, reinfer);
    // At the If: the condition is a variable, whose own span is where it was bound.
    check_if_condition(c->struct_info, span.defined() ? span : c->span);
    Expr t = scoped(true_branch, nullptr, reinfer);
    Expr f = scoped(false_branch, nullptr, reinfer);
    auto* node = make_node<IfNode>();
    Expr owner(node);
    node->cond = c;
    node->true_branch = t;
    node->false_branch = f;
    node->struct_info = struct_info_lca(t->struct_info, f->struct_info, &analyzer);
    node->span = span;
    return owner;
  }

  Function make_function(const std::vector<Var>& params, const Expr& body,
                         const StructInfo& ret_struct_info, bool is_pure, const Attrs& attrs,
                         Span span, bool reinfer) {
    std::vector<StructInfo> param_sinfo;
    std::unordered_set<const VarNode*> param_set;
    for (const Var& p : params) {
      RELAXC_ICHECK(p.defined() && p->struct_info.defined())
          << "function parameter without StructInfo";
      if (p.is<DataflowVarNode>()) {
        user_error(p->span) << "function parameter '" << p->name << "' cannot be a DataflowVar";
      }
      param_sinfo.push_back(p->struct_info);
      param_set.insert(p.get());
    }
    Expr seq = scoped(body, &params, reinfer);
    StructInfo ret = ret_struct_info;
    if (ret.defined()) {
      // A value the annotation does not provably describe is checked when the call
      // returns (the spec's function-boundary check); only a static mismatch is an error.
      if (is_base_of(ret, seq->struct_info, &analyzer) == BaseCheck::Fail) {
        user_error(span) << "the function's return annotation " << text::print_node(ret)
                         << " does not fit its body's StructInfo "
                         << text::print_node(seq->struct_info);
      }
    } else {
      ret = seq->struct_info;
    }
    // Callers see the result without references to the parameters' Relax variables.
    StructInfo visible_ret = substitute_struct_info(
        ret, [](const tir::Var& v) -> PrimExpr { return v; },
        [&](const Var& v) -> Expr { return param_set.count(v.get()) ? nullptr : v; });
    auto* func = make_node<FunctionNode>();
    Function owner(func);
    func->params = params;
    func->body = seq;
    func->ret_struct_info = ret;
    func->is_pure = is_pure;
    func->attrs = attrs;
    func->span = span;
    func->struct_info = func_sinfo(std::move(param_sinfo), visible_ret, is_pure, span);
    return owner;
  }
};

BlockBuilder::BlockBuilder(IRModule module)
    : impl_(new Impl{this, std::move(module), {}, {}, {}, 0}) {}

BlockBuilder::~BlockBuilder() { delete impl_; }

const IRModule& BlockBuilder::module() const { return impl_->module; }

void BlockBuilder::declare_global(const GlobalVar& gv, StructInfo sinfo) {
  impl_->declared[gv->name] = std::move(sinfo);
}

StructInfo BlockBuilder::global_struct_info(const std::string& name) const {
  return impl_->global_struct_info(name);
}

void BlockBuilder::begin_scope() { impl_->begin_scope(nullptr); }

void BlockBuilder::begin_scope(const std::vector<Var>& params) { impl_->begin_scope(&params); }

Expr BlockBuilder::end_scope(Expr body, Span span) { return impl_->end_scope(body, span); }

void BlockBuilder::begin_block(bool dataflow) { impl_->begin_block(dataflow); }

void BlockBuilder::end_block() { impl_->end_block(); }

bool BlockBuilder::in_dataflow_block() const { return impl_->in_dataflow_block(); }

Var BlockBuilder::emit(Expr value, std::string name_hint, VarKind kind, StructInfo annotation,
                       Span span) {
  return impl_->emit(value, name_hint, kind, annotation, span, false);
}

Var BlockBuilder::emit_match_cast(Expr value, StructInfo sinfo, std::string name_hint, VarKind kind,
                                  Span span) {
  return impl_->emit_match_cast(value, sinfo, name_hint, kind, span, false);
}

void BlockBuilder::emit_binding(const Binding& binding) { impl_->bind(binding, false); }

Expr BlockBuilder::call(Expr op, std::vector<Expr> args, std::vector<StructInfo> sinfo_args,
                        Attrs attrs, Span span) {
  return impl_->make_call(op, args, sinfo_args, attrs, span, false);
}

Expr BlockBuilder::call_op(const std::string& op_name, std::vector<Expr> args,
                           std::vector<StructInfo> sinfo_args, Attrs attrs, Span span) {
  return impl_->make_op_call(op_name, args, sinfo_args, attrs, span, false);
}

Expr BlockBuilder::tuple(std::vector<Expr> fields, Span span) {
  return impl_->make_tuple(fields, span, false);
}

Expr BlockBuilder::tuple_get_item(Expr tuple, int index, Span span) {
  return impl_->make_tuple_get_item(tuple, index, span, false);
}

Expr BlockBuilder::if_then_else(Expr cond, Expr true_branch, Expr false_branch, Span span) {
  return impl_->make_if(cond, true_branch, false_branch, span, false);
}

Function BlockBuilder::function(std::vector<Var> params, Expr body, StructInfo ret_struct_info,
                                bool is_pure, Attrs attrs, Span span) {
  return impl_->make_function(params, body, ret_struct_info, is_pure, attrs, span, false);
}

Expr BlockBuilder::normalize(Expr expr) { return impl_->normalize_expr(expr); }

arith::Analyzer& BlockBuilder::analyzer() const { return impl_->analyzer; }

IRModule normalize_module(const IRModule& module) {
  BlockBuilder bb(module);
  std::vector<std::pair<GlobalVar, Ref<Object>>> functions;
  for (const auto& [gv, func] : module->functions) {
    Function f = func.cast<FunctionNode>();
    if (!f.defined()) {
      functions.emplace_back(gv, func);
      continue;
    }
    Function normalized = bb.normalize(f).cast<FunctionNode>();
    // Later callers see this function's StructInfo as normalized.
    bb.declare_global(gv, normalized->struct_info);
    functions.emplace_back(gv, normalized);
  }
  return make_module(std::move(functions), module->attrs, module->span);
}

}  // namespace relaxc::relax
