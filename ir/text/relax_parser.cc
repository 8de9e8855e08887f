// The Relax builder of the parser, part one: functions and statements, built only
// through relax::BlockBuilder.
//
// Names are scoped leniently, as in Python: a name bound earlier in a function stays
// visible afterwards, even out of the branch that bound it (the well-formedness checker
// reports what the spec forbids). The exception is a DataflowVar after its block, which
// is refused here: consecutive dataflow blocks are merged as they are built, so the
// checker could not tell such a use from one inside the block. A dataflow block is scanned
// first for its R.output, so that each listed name's last binding in the block is made
// a Var and every other binding a DataflowVar. An if/else binds the name that both
// branches assign last; each branch is a SeqExpr of its other bindings.
#include "ir/text/parser_internal.h"

namespace relaxc::text {

namespace {

// True for `name = T.int64()` (also T.int32(), is_size_var=...): a shape variable.
bool is_shape_var_declaration(const PyExpr& value, DataType* dtype, bool* size_var) {
  const auto* call = value.as<PyCall>();
  if (call == nullptr || !call->args.empty()) return false;
  std::string callee = dotted_name(*call->func);
  if (callee.rfind("T.", 0) != 0 || callee.size() <= 2) return false;
  std::optional<DataType> parsed = DataType::parse(callee.substr(2));
  if (!parsed || !parsed->is_integer() || parsed->is_bool() || !parsed->is_scalar()) return false;
  *dtype = *parsed;
  *size_var = false;
  auto args = bind_arguments(*call, callee, {"value", "is_size_var"}, 0);
  if (args[1] != nullptr) *size_var = expect_bool(*args[1], "is_size_var");
  return true;
}

const PyName* assigned_name(const PyStmt& s) {
  const auto* a = s.as<PyAssign>();
  return a == nullptr ? nullptr : a->target->as<PyName>();
}

// The shape-variable declarations of statement `s`: one for `n = T.int64()`, several for
// `n, m = T.int64(), T.int64()`; empty if `s` declares none. A parallel assignment either
// declares only shape variables or is none of these.
std::vector<std::pair<const PyName*, const PyExpr*>> shape_var_declarations(const PyStmt& s) {
  const auto* a = s.as<PyAssign>();
  if (a == nullptr || a->value == nullptr || a->annotation != nullptr) return {};
  std::vector<std::pair<const PyName*, const PyExpr*>> pairs;
  if (const PyName* name = a->target->as<PyName>()) {
    pairs.emplace_back(name, a->value.get());
  } else {
    pairs = parallel_assignment(*a);
  }
  DataType dtype;
  bool size_var = false;
  for (const auto& [name, value] : pairs) {
    if (!is_shape_var_declaration(*value, &dtype, &size_var)) return {};
  }
  return pairs;
}

}  // namespace

RelaxParser::RelaxParser(const ModuleContext& module, relax::BlockBuilder& builder)
    : module_(module), builder_(builder), prims_(scope_) {
  scope_.define(module.class_name, Symbol::of_module());
}

relax::StructInfo RelaxParser::signature(const PyFunctionDef& def) {
  DecoratorFlags flags = parse_decorator(def, "R.function");
  ScopeFrame frame(scope_);
  Signature sig = parse_signature(def);
  std::vector<relax::StructInfo> params;
  for (const relax::Var& p : sig.params) params.push_back(p->struct_info);
  return relax::func_sinfo(std::move(params), sig.ret.defined() ? sig.ret : relax::object_sinfo(),
                           flags.pure, def.name_span);
}

relax::Function RelaxParser::function(const PyFunctionDef& def) {
  DecoratorFlags flags = parse_decorator(def, "R.function");
  return build_function(def, flags, /*is_global=*/true, {});
}

// The shape variables a function body declares at its top (`n = T.int64()`) exist
// before its signature is read, so that "n" there names the same variable (with the
// declared type and size-ness).
void RelaxParser::declare_shape_vars(const PyBody& body) {
  std::unordered_set<std::string> declared;
  for (const PyStmtPtr& s : body) {
    for (const auto& [name, value] : shape_var_declarations(*s)) {
      DataType dtype;
      bool size_var = false;
      is_shape_var_declaration(*value, &dtype, &size_var);
      if (!declared.insert(name->id).second) continue;
      tir::Var v = size_var ? tir::size_var(name->id, dtype, name->span)
                            : tir::var(name->id, dtype, name->span);
      scope_.define(name->id, Symbol::of_prim_var(v));
    }
  }
}

RelaxParser::Signature RelaxParser::parse_signature(const PyFunctionDef& def) {
  declare_shape_vars(def.body);
  Signature sig;
  in_signature_ = true;
  for (const PyParam& p : def.params) {
    if (p.default_value) user_error(p.default_value->span) << "parameters cannot have defaults";
    if (p.annotation == nullptr) {
      user_error(p.span) << "parameter '" << p.name << "' needs a StructInfo annotation, such as "
                         << "R.Tensor((\"n\", 4), dtype=\"float32\")";
    }
    relax::Var v = relax::make_var(p.name, struct_info(*p.annotation), p.span);
    scope_.define(p.name, Symbol::of_relax(v));
    sig.params.push_back(v);
  }
  if (def.returns != nullptr) sig.ret = struct_info(*def.returns);
  in_signature_ = false;
  return sig;
}

relax::Function RelaxParser::build_function(const PyFunctionDef& def, const DecoratorFlags& flags,
                                            bool is_global, const relax::Var& self) {
  ScopeFrame frame(scope_);
  Signature sig = parse_signature(def);
  if (self.defined()) scope_.define(def.name, Symbol::of_relax(self));
  builder_.begin_scope(sig.params);
  BlockState state;
  Attrs attrs;
  bool has_attrs = false;
  relax::Expr result;
  Span result_span;
  for (const PyStmtPtr& s : def.body) {
    if (result.defined()) user_error(s->span) << "statement after 'return'";
    if (const auto* r = s->as<PyReturn>()) {
      if (r->value == nullptr) user_error(r->span) << "a Relax function must return a value";
      result = expr(*r->value);
      result_span = r->span;
      continue;
    }
    if (const auto* e = s->as<PyExprStmt>();
        e != nullptr && called_name(*e->value) == "R.func_attr") {
      if (has_attrs) user_error(s->span) << "R.func_attr given twice";
      auto args = bind_arguments(*e->value->as<PyCall>(), "R.func_attr", {"attrs"}, 1);
      attrs = parse_attr_dict(*args[0]);
      has_attrs = true;
      continue;
    }
    parse_statement(*s, state);
  }
  if (!result.defined()) user_error(def.name_span) << "function '" << def.name << "' has no return";
  builder_.end_block();
  relax::Expr body = builder_.end_scope(result, result_span);
  if (is_global && !flags.is_private && attrs.find("global_symbol") == nullptr) {
    attrs = attrs.with("global_symbol", AttrValue::string(def.name));
  }
  return builder_.function(sig.params, body, sig.ret, flags.pure, attrs, def.name_span);
}

relax::VarKind RelaxParser::var_kind(const PyStmt& s, const BlockState& state) const {
  if (!state.dataflow || state.outputs.count(&s) != 0) return relax::VarKind::Var;
  return relax::VarKind::DataflowVar;
}

void RelaxParser::parse_statement(const PyStmt& s, BlockState& state) {
  switch (s.kind) {
    case PyStmtKind::Assign:
      return parse_assign(*s.as<PyAssign>(), state);
    case PyStmtKind::ExprStmt:
      return parse_expr_statement(*s.as<PyExprStmt>(), state);
    case PyStmtKind::With: {
      const auto& w = *s.as<PyWith>();
      if (called_name(*w.context) != "R.dataflow") {
        user_error(w.context->span) << "unknown context; a Relax function has 'with R.dataflow():'";
      }
      return parse_dataflow(w, state);
    }
    case PyStmtKind::If:
      parse_if(*s.as<PyIf>(), state);
      return;
    case PyStmtKind::FunctionDef:
      return parse_local_function(*s.as<PyFunctionDef>(), state);
    case PyStmtKind::Return:
      user_error(s.span) << "'return' must be the last statement of the function body";
    case PyStmtKind::Pass:
    case PyStmtKind::Import:
      return;
    case PyStmtKind::For:
    case PyStmtKind::While:
      user_error(s.span) << "loops are not part of Relax; write them in a @T.prim_func";
    case PyStmtKind::ClassDef:
      user_error(s.span) << "a class cannot be defined in a function";
  }
}

bool RelaxParser::parse_declaration(const PyName& name, const PyExpr& value) {
  if (const auto* alias = value.as<PyName>()) {
    const Symbol* symbol = scope_.lookup(alias->id);
    if (symbol != nullptr && symbol->kind == Symbol::Kind::Module) {
      scope_.define(name.id, Symbol::of_module());  // cls = Module
      return true;
    }
    return false;
  }
  DataType dtype;
  bool size_var = false;
  if (!is_shape_var_declaration(value, &dtype, &size_var)) return false;
  const Symbol* existing = scope_.lookup(name.id);
  if (existing != nullptr && existing->kind == Symbol::Kind::PrimVar) {
    if (existing->prim_var->dtype != dtype) {
      user_error(value.span) << "shape variable '" << name.id << "' is "
                             << existing->prim_var->dtype.str() << ", not " << dtype.str();
    }
    return true;  // names the variable the signature (or an earlier line) introduced
  }
  tir::Var v =
      size_var ? tir::size_var(name.id, dtype, name.span) : tir::var(name.id, dtype, name.span);
  scope_.define(name.id, Symbol::of_prim_var(v));
  return true;
}

void RelaxParser::parse_assign(const PyAssign& a, BlockState& state) {
  if (a.value == nullptr) user_error(a.span) << "a binding needs a value";
  if (a.target->as<PyTuple>()) {
    std::vector<std::pair<const PyName*, const PyExpr*>> declarations = shape_var_declarations(a);
    if (declarations.empty()) {
      user_error(a.target->span) << "tuple unpacking is not supported in Relax except to declare "
                                    "shape variables (n, m = T.int64(), T.int64()); bind the "
                                    "tuple and index it (t[0])";
    }
    for (const auto& [name, value] : declarations) parse_declaration(*name, *value);
    return;
  }
  const auto* name = a.target->as<PyName>();
  if (name == nullptr) user_error(a.target->span) << "cannot assign to this expression";
  if (parse_declaration(*name, *a.value)) {
    if (a.annotation) user_error(a.annotation->span) << "a declaration takes no annotation";
    return;
  }
  relax::VarKind kind = var_kind(a, state);
  relax::Var var;
  if (const PyCall* cast = as_call_of(*a.value, "R.match_cast");
      cast != nullptr && is_namespace("R")) {
    const PyExpr* value = nullptr;
    relax::StructInfo sinfo = match_cast_args(*cast, &value);
    if (a.annotation) struct_info(*a.annotation);  // checked for errors; the cast gives it
    var = builder_.emit_match_cast(expr(*value), sinfo, name->id, kind, a.span);
  } else {
    relax::StructInfo annotation;
    if (a.annotation) annotation = struct_info(*a.annotation);
    var = builder_.emit(expr(*a.value), name->id, kind, annotation, a.span);
  }
  scope_.define(name->id, Symbol::of_relax(var));
}

void RelaxParser::parse_expr_statement(const PyExprStmt& s, const BlockState& state) {
  const PyExpr& e = *s.value;
  if (e.as<PyString>()) return;  // a docstring
  std::string callee = called_name(e);
  if (callee == "R.output") {
    user_error(e.span) << "R.output must be the last statement of a dataflow block";
  }
  if (callee == "R.func_attr") {
    user_error(e.span) << "R.func_attr must be a statement of the function body";
  }
  if (callee == "R.dataflow")
    user_error(e.span) << "R.dataflow() opens a block: 'with R.dataflow():'";
  if (!e.as<PyCall>()) user_error(e.span) << "a statement must be a binding or a call";
  relax::Expr value = expr(e);
  builder_.emit(value, "_", var_kind(s, state), {}, s.span);
}

void RelaxParser::parse_dataflow(const PyWith& w, const BlockState& state) {
  if (state.dataflow) user_error(w.span) << "dataflow blocks cannot be nested";
  if (w.target) user_error(w.target->span) << "'with R.dataflow()' binds no name";
  bind_arguments(*w.context->as<PyCall>(), "R.dataflow", {}, 0);
  BlockState inner;
  inner.dataflow = true;
  size_t end = w.body.size();
  if (end > 0) {
    const auto* last = w.body.back()->as<PyExprStmt>();
    const PyCall* output = last != nullptr ? as_call_of(*last->value, "R.output") : nullptr;
    if (output != nullptr) {
      --end;
      if (!output->keywords.empty()) {
        user_error(output->keywords.front().span) << "R.output takes no keyword arguments";
      }
      // A local function's `def` binds its name too: the printer lists it in R.output
      // when its variable is a Var (always so with a return annotation).
      std::unordered_map<std::string, const PyStmt*> last_binding;
      for (size_t i = 0; i < end; ++i) {
        if (const PyName* bound = assigned_name(*w.body[i])) {
          last_binding[bound->id] = w.body[i].get();
        } else if (const auto* def = w.body[i]->as<PyFunctionDef>()) {
          last_binding[def->name] = w.body[i].get();
        }
      }
      for (const PyExprPtr& arg : output->args) {
        const auto* out = arg->as<PyName>();
        if (out == nullptr) user_error(arg->span) << "R.output lists names bound in the block";
        auto it = last_binding.find(out->id);
        if (it == last_binding.end()) {
          user_error(arg->span) << "R.output names '" << out->id
                                << "', which this dataflow block does not bind";
        }
        inner.outputs.insert(it->second);
      }
    }
  }
  builder_.begin_block(/*dataflow=*/true);
  for (size_t i = 0; i < end; ++i) parse_statement(*w.body[i], inner);
  builder_.end_block();
  for (size_t i = 0; i < end; ++i) {
    const PyName* bound = assigned_name(*w.body[i]);
    const auto* def = w.body[i]->as<PyFunctionDef>();
    const Symbol* symbol = bound != nullptr ? scope_.lookup(bound->id)
                                            : (def != nullptr ? scope_.lookup(def->name) : nullptr);
    if (symbol != nullptr && symbol->kind == Symbol::Kind::RelaxValue &&
        symbol->relax_value.is<relax::DataflowVarNode>()) {
      ended_dataflow_vars_.insert(symbol->relax_value.get());
    }
  }
}

std::string RelaxParser::parse_if(const PyIf& s, const BlockState& state) {
  relax::Expr cond = expr(*s.test);
  if (s.orelse.empty()) user_error(s.span) << "an 'if' in a Relax function needs an 'else' branch";
  BranchResult then_branch = parse_branch(s.body, s.span);
  BranchResult else_branch = parse_branch(s.orelse, s.span);
  if (then_branch.name != else_branch.name) {
    user_error(else_branch.name_span)
        << "both branches of an 'if' must end by assigning the "
        << "same name: '" << then_branch.name << "' and '" << else_branch.name << "'";
  }
  const PyExpr* annotation =
      then_branch.annotation != nullptr ? then_branch.annotation : else_branch.annotation;
  relax::StructInfo sinfo = annotation != nullptr ? struct_info(*annotation) : relax::StructInfo();
  relax::Expr value = builder_.if_then_else(cond, then_branch.value, else_branch.value, s.span);
  relax::Var var = builder_.emit(value, then_branch.name, var_kind(s, state), sinfo, s.span);
  scope_.define(then_branch.name, Symbol::of_relax(var));
  return then_branch.name;
}

RelaxParser::BranchResult RelaxParser::parse_branch(const PyBody& body, Span span) {
  builder_.begin_scope();
  BlockState state;
  BranchResult result;
  if (body.empty()) user_error(span) << "an 'if' branch cannot be empty";
  for (size_t i = 0; i + 1 < body.size(); ++i) parse_statement(*body[i], state);
  const PyStmt& last = *body.back();
  relax::Expr value;
  if (const auto* nested = last.as<PyIf>()) {
    result.name = parse_if(*nested, state);
    result.name_span = nested->span;
    value = scope_.lookup(result.name)->relax_value;
  } else if (const PyName* name = assigned_name(last)) {
    const auto& a = *last.as<PyAssign>();
    if (a.value == nullptr || parse_declaration(*name, *a.value)) {
      user_error(last.span) << "a branch of an 'if' must end by assigning its value to a name";
    }
    result.name = name->id;
    result.name_span = name->span;
    result.annotation = a.annotation.get();
    if (const PyCall* cast = as_call_of(*a.value, "R.match_cast");
        cast != nullptr && is_namespace("R")) {
      const PyExpr* cast_value = nullptr;
      relax::StructInfo sinfo = match_cast_args(*cast, &cast_value);
      value =
          builder_.emit_match_cast(expr(*cast_value), sinfo, name->id, relax::VarKind::Var, a.span);
    } else {
      value = expr(*a.value);
    }
  } else if (const auto* statement = last.as<PyExprStmt>();
             statement != nullptr && statement->value->as<PyCall>()) {
    // A call statement (R.print(...)) ends the branch as TVM's parser reads it: bound to
    // '_', as a statement elsewhere is, so the If is bound to '_' too.
    result.name = "_";
    result.name_span = statement->value->span;
    value = expr(*statement->value);
  } else {
    user_error(last.span) << "a branch of an 'if' must end by assigning its value to a name "
                             "or by a call";
  }
  builder_.end_block();
  result.value = builder_.end_scope(value, span);
  return result;
}

void RelaxParser::parse_local_function(const PyFunctionDef& def, const BlockState& state) {
  if (decorator_name(def) != "R.function") {
    user_error(def.span) << "a function inside a Relax function must be decorated with @R.function";
  }
  DecoratorFlags flags = parse_decorator(def, "R.function");
  // With a return annotation the function's StructInfo is known before its body, so its
  // own name can be bound first and the body may call it (recursion).
  relax::Var self;
  if (def.returns != nullptr) {
    ScopeFrame frame(scope_);
    Signature sig = parse_signature(def);
    std::vector<relax::StructInfo> params;
    for (const relax::Var& p : sig.params) params.push_back(p->struct_info);
    self = relax::make_var(def.name, relax::func_sinfo(std::move(params), sig.ret, flags.pure),
                           def.name_span);
  }
  relax::Function func = build_function(def, flags, /*is_global=*/false, self);
  relax::Var var;
  if (self.defined()) {
    builder_.emit_binding(relax::make_var_binding(self, func, def.span));
    var = self;
  } else {
    var = builder_.emit(func, def.name, var_kind(def, state), {}, def.span);
  }
  scope_.define(def.name, Symbol::of_relax(var));
}

}  // namespace relaxc::text
