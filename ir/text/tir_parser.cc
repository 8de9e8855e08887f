// The TensorIR builder of the parser: a @T.prim_func definition to a PrimFunc, built
// directly with the tir constructors.
//
// Statements are read in order. Those that scope over the rest of their statement list
// (`x: T.int32 = v`, and `T.alloc_buffer` outside any block) are folded from the end,
// so that a long list never nests the parser's recursion. Block headers (T.axis.*,
// T.reads, T.writes, T.where, T.block_attr, T.match_buffer, T.alloc_buffer, T.init)
// fill the innermost open block. A function whose body has blocks gets the implicit
// root block: its statements form the root block's body and its function-level
// T.alloc_buffer calls allocate there.
#include <algorithm>

#include "ir/arith/analyzer.h"
#include "ir/text/parser_internal.h"
#include "ir/tir/block_regions.h"

namespace relaxc::text {

namespace {

// Statements that wrap the rest of their list, nested this deep at most.
constexpr int kMaxScopedStatements = 1000;

const std::vector<std::string> kBufferArgs = {
    "shape", "dtype", "data",          "strides",     "elem_offset",
    "scope", "align", "offset_factor", "buffer_type", "axis_separators"};

struct LoopInfo {
  tir::Var var;
  tir::PrimExpr min, extent;
};

// A block while its statements are read.
struct BlockFrame {
  bool implicit_root = false;
  std::vector<tir::IterVar> iter_vars;
  std::vector<tir::PrimExpr> iter_values;
  tir::PrimExpr predicate;
  bool has_reads = false, has_writes = false;
  std::vector<tir::BufferRegion> reads, writes;
  tir::Stmt init;
  std::vector<tir::Buffer> alloc_buffers;
  std::vector<tir::MatchBufferRegion> match_buffers;
  Attrs annotations;
  bool has_annotations = false;
};

// One entry of a statement list: a statement, or a LetStmt / Allocate over the rest.
struct ListItem {
  tir::Stmt stmt;
  tir::Var let_var;
  tir::PrimExpr let_value;
  tir::Buffer allocated;
  Span span;
};

// The function a statement calls, with the spellings of TVM after 0.23 (s_tir) read as
// the T.block forms they stand for.
std::string statement_callee(const PyExpr& e) {
  std::string name = called_name(e);
  if (name == "T.sblock_alloc_buffer") return "T.alloc_buffer";
  if (name == "T.sblock_attr") return "T.block_attr";
  return name;
}

bool is_block_context(const PyExpr& e) {
  std::string name = called_name(e);
  return name == "T.block" || name == "T.sblock";
}

// Whether any statement of `body`, at any depth, opens a block. Iterative, so that the
// depth of the statement tree is the parser's business only.
bool contains_block(const PyBody& body) {
  std::vector<const PyBody*> pending = {&body};
  while (!pending.empty()) {
    const PyBody* current = pending.back();
    pending.pop_back();
    for (const PyStmtPtr& s : *current) {
      if (const auto* w = s->as<PyWith>()) {
        if (is_block_context(*w->context)) return true;
        pending.push_back(&w->body);
      } else if (const auto* f = s->as<PyFor>()) {
        pending.push_back(&f->body);
      } else if (const auto* i = s->as<PyIf>()) {
        pending.push_back(&i->body);
        pending.push_back(&i->orelse);
      } else if (const auto* wh = s->as<PyWhile>()) {
        pending.push_back(&wh->body);
      }
    }
  }
  return false;
}

tir::Stmt make_seq(std::vector<tir::Stmt> stmts, Span span) {
  if (stmts.empty()) return tir::evaluate(tir::int_imm(DataType::Int(32), 0, span), span);
  return tir::seq_stmt(std::move(stmts), span);
}

class PrimFuncBuilder {
 public:
  PrimFuncBuilder() : exprs_(scope_) {}

  tir::PrimFunc build(const PyFunctionDef& def) {
    DecoratorFlags flags = parse_decorator(def, "T.prim_func");
    if (def.returns != nullptr && !def.returns->as<PyNone>()) {
      user_error(def.returns->span) << "a TensorIR function returns nothing ('-> None')";
    }
    auto* func = make_node<tir::PrimFuncNode>();
    tir::PrimFunc result(func);
    func->span = def.name_span;
    for (const PyParam& p : def.params) parse_param(p, func);

    BlockFrame root;
    root.implicit_root = true;
    bool has_blocks = contains_block(def.body);
    if (has_blocks) blocks_.push_back(&root);
    func_ = func;
    tir::Stmt body = parse_body(def.body, def.name_span);
    if (has_blocks) {
      blocks_.pop_back();
      body = wrap_in_root(std::move(body), root, def.name_span);
    }
    func->body = std::move(body);
    // The buffer_map follows the parameters, however the match_buffers are ordered: the
    // printer writes a constant-shape buffer in the signature, so the order it reads
    // back in is the parameters'.
    auto param_index = [&](const tir::Var& param) {
      return std::find_if(func->params.begin(), func->params.end(),
                          [&](const tir::Var& p) { return p.same_as(param); }) -
             func->params.begin();
    };
    std::stable_sort(
        func->buffer_map.begin(), func->buffer_map.end(),
        [&](const auto& a, const auto& b) { return param_index(a.first) < param_index(b.first); });
    if (!flags.is_private && func->attrs.find("global_symbol") == nullptr) {
      func->attrs = func->attrs.with("global_symbol", AttrValue::string(def.name));
    }
    return result;
  }

 private:
  // ---- Signature.
  void parse_param(const PyParam& p, tir::PrimFuncNode* func) {
    if (p.default_value) user_error(p.default_value->span) << "parameters cannot have defaults";
    if (p.annotation == nullptr) {
      user_error(p.span) << "parameter '" << p.name
                         << "' needs a type: T.handle, T.Buffer(shape, dtype) or a scalar "
                            "type such as T.int32";
    }
    const PyExpr& a = *p.annotation;
    if (const PyCall* call = as_call_of(a, "T.Buffer")) {
      tir::Var handle = tir::var(p.name, DataType::Handle(), p.span);
      tir::Buffer buf = make_buffer(p.name, *call, "T.Buffer", /*shape_index=*/0, p.span);
      func->params.push_back(handle);
      func->buffer_map.emplace_back(handle, buf);
      scope_.define(p.name, Symbol::of_buffer(buf));
      return;
    }
    std::string type = dotted_name(a);
    std::optional<DataType> dtype;
    if (type == "T.handle") {
      dtype = DataType::Handle();
    } else if (type.rfind("T.", 0) == 0) {
      dtype = DataType::parse(type.substr(2));
      if (dtype && dtype->is_void()) dtype.reset();
    }
    if (!dtype) {
      user_error(a.span) << "unsupported parameter type; expected T.handle, T.Buffer(shape, "
                            "dtype) or a scalar type such as T.int32";
    }
    tir::Var v = tir::var(p.name, *dtype, p.span);
    func->params.push_back(v);
    scope_.define(p.name, Symbol::of_prim_var(v));
  }

  // A buffer from the arguments of T.Buffer / T.match_buffer / T.alloc_buffer, whose
  // shape is argument `shape_index`.
  tir::Buffer make_buffer(const std::string& name, const PyCall& call, const std::string& callee,
                          size_t shape_index, Span span) {
    std::vector<std::string> names;
    if (shape_index == 1) names.push_back("param");
    names.insert(names.end(), kBufferArgs.begin(), kBufferArgs.end());
    auto args = bind_arguments(call, callee, names, shape_index + 1);
    auto arg = [&](const char* n) -> const PyExpr* {
      size_t i = static_cast<size_t>(std::find(names.begin(), names.end(), n) - names.begin());
      return args[i];
    };
    for (const char* unsupported : {"data", "axis_separators"}) {
      const PyExpr* value = arg(unsupported);
      if (value != nullptr && !value->as<PyNone>()) {
        user_error(value->span) << callee << ": '" << unsupported << "' is not supported";
      }
    }
    auto* node = make_node<tir::BufferNode>();
    tir::Buffer result(node);  // owns the node if an argument below is in error
    node->name = name;
    node->span = span;
    node->data = tir::var(name, DataType::Handle(), span);
    node->shape = shape(*args[shape_index]);
    node->dtype = DataType::Float(32);
    if (const PyExpr* d = arg("dtype")) node->dtype = parse_dtype(*d);
    if (const PyExpr* s = arg("strides"); s != nullptr && !s->as<PyNone>()) {
      node->strides = shape(*s);
      if (node->strides.size() != node->shape.size()) {
        user_error(s->span) << "a buffer of " << node->shape.size() << " dimension(s) needs as "
                            << "many strides, got " << node->strides.size();
      }
    }
    if (const PyExpr* o = arg("elem_offset"); o != nullptr && !o->as<PyNone>()) {
      node->elem_offset = exprs_.parse(*o);
    }
    if (const PyExpr* s = arg("scope")) node->scope = expect_string(*s, "the scope");
    // align, offset_factor and buffer_type describe layouts this IR does not model.
    return result;
  }

  // (n, 4), [n, 4] or a single extent.
  std::vector<tir::PrimExpr> shape(const PyExpr& e) {
    std::vector<tir::PrimExpr> dims;
    const std::vector<PyExprPtr>* items = nullptr;
    if (const auto* t = e.as<PyTuple>()) items = &t->items;
    if (const auto* l = e.as<PyList>()) items = &l->items;
    if (items == nullptr) {
      dims.push_back(exprs_.parse(e));
    } else {
      for (const PyExprPtr& item : *items) dims.push_back(exprs_.parse(*item));
    }
    for (const tir::PrimExpr& d : dims) {
      if (!d->dtype.is_integer() || d->dtype.is_bool()) {
        user_error(d->span.defined() ? d->span : e.span)
            << "a buffer dimension must be an integer, got " << d->dtype.str();
      }
    }
    return dims;
  }

  // ---- Statement lists.
  tir::Stmt parse_body(const PyBody& body, Span span) {
    std::vector<ListItem> items;
    for (const PyStmtPtr& s : body) parse_statement(*s, items);
    std::vector<tir::Stmt> tail;  // statements after the current point, reversed
    int scoped = 0;
    for (auto it = items.rbegin(); it != items.rend(); ++it) {
      if (it->stmt.defined()) {
        tail.push_back(it->stmt);
        continue;
      }
      if (++scoped > kMaxScopedStatements) user_error(it->span) << "too many nested statements";
      std::reverse(tail.begin(), tail.end());
      tir::Stmt rest = make_seq(std::move(tail), it->span);
      tail.clear();
      tail.push_back(it->let_var.defined()
                         ? tir::let_stmt(it->let_var, it->let_value, rest, it->span)
                         : tir::allocate(it->allocated, rest, it->span));
    }
    std::reverse(tail.begin(), tail.end());
    return make_seq(std::move(tail), span);
  }

  tir::Stmt parse_nested_body(const PyBody& body, Span span) {
    ScopeFrame frame(scope_);
    ++nesting_;
    tir::Stmt stmt = parse_body(body, span);
    --nesting_;
    return stmt;
  }

  void emit(std::vector<ListItem>& items, tir::Stmt stmt) {
    ListItem item;
    item.stmt = std::move(stmt);
    items.push_back(std::move(item));
  }

  void parse_statement(const PyStmt& s, std::vector<ListItem>& items) {
    switch (s.kind) {
      case PyStmtKind::Pass:
      case PyStmtKind::Import:
        return;
      case PyStmtKind::ExprStmt:
        return parse_expr_statement(*s.as<PyExprStmt>(), items);
      case PyStmtKind::Assign:
        return parse_assign(*s.as<PyAssign>(), items);
      case PyStmtKind::For:
        return emit(items, parse_for(*s.as<PyFor>()));
      case PyStmtKind::With:
        return parse_with(*s.as<PyWith>(), items);
      case PyStmtKind::If: {
        const auto& i = *s.as<PyIf>();
        tir::PrimExpr cond = condition(*i.test, "the condition of 'if'");
        tir::Stmt then_case = parse_nested_body(i.body, s.span);
        tir::Stmt else_case;
        if (!i.orelse.empty()) else_case = parse_nested_body(i.orelse, s.span);
        return emit(items, tir::if_then_else(cond, then_case, else_case, s.span));
      }
      case PyStmtKind::While: {
        const auto& w = *s.as<PyWhile>();
        tir::PrimExpr cond = condition(*w.test, "the condition of 'while'");
        return emit(items, tir::while_loop(cond, parse_nested_body(w.body, s.span), s.span));
      }
      case PyStmtKind::Return:
        user_error(s.span) << "a TensorIR function cannot return a value";
      case PyStmtKind::FunctionDef:
      case PyStmtKind::ClassDef:
        user_error(s.span) << "definitions inside a TensorIR function are not supported";
    }
  }

  tir::PrimExpr condition(const PyExpr& e, const std::string& what) {
    tir::PrimExpr cond = exprs_.parse(e);
    if (!cond->dtype.is_bool()) {
      user_error(e.span) << what << " must be a bool expression, got " << cond->dtype.str();
    }
    return cond;
  }

  // The innermost block that the user opened (not the implicit root), or an error.
  BlockFrame& current_block(Span span, const std::string& what) {
    if (blocks_.empty() || blocks_.back()->implicit_root) {
      user_error(span) << what << " is only allowed inside a block";
    }
    return *blocks_.back();
  }

  // Whether statements are read in the function's own list (not in a loop, branch or
  // block).
  bool at_function_level() const { return nesting_ == 0; }

  void parse_expr_statement(const PyExprStmt& s, std::vector<ListItem>& items) {
    const PyExpr& e = *s.value;
    if (e.as<PyString>()) return;  // a docstring
    std::string callee = statement_callee(e);
    const auto* call = e.as<PyCall>();
    if (callee == "T.func_attr") {
      if (!at_function_level()) {
        user_error(e.span) << "T.func_attr must be a statement of the function body";
      }
      auto args = bind_arguments(*call, callee, {"attrs"}, 1);
      if (!func_->attrs.empty()) user_error(e.span) << "T.func_attr given twice";
      func_->attrs = parse_attr_dict(*args[0]);
      return;
    }
    if (callee == "T.reads" || callee == "T.writes") {
      BlockFrame& block = current_block(e.span, callee);
      bool reads = callee == "T.reads";
      if (!call->keywords.empty()) {
        user_error(call->keywords.front().span) << callee << " takes no keyword arguments";
      }
      if ((reads && block.has_reads) || (!reads && block.has_writes)) {
        user_error(e.span) << callee << " given twice in one block";
      }
      std::vector<tir::BufferRegion>& regions = reads ? block.reads : block.writes;
      (reads ? block.has_reads : block.has_writes) = true;
      std::vector<const PyExpr*> items_of;
      if (call->args.size() == 1 && (call->args[0]->as<PyList>() || call->args[0]->as<PyTuple>())) {
        const auto* list = call->args[0]->as<PyList>();
        const auto& inner = list != nullptr ? list->items : call->args[0]->as<PyTuple>()->items;
        for (const PyExprPtr& item : inner) items_of.push_back(item.get());
      } else {
        for (const PyExprPtr& arg : call->args) items_of.push_back(arg.get());
      }
      for (const PyExpr* region : items_of) regions.push_back(exprs_.region(*region));
      return;
    }
    if (callee == "T.where") {
      BlockFrame& block = current_block(e.span, callee);
      auto args = bind_arguments(*call, callee, {"predicate"}, 1);
      if (block.predicate.defined()) user_error(e.span) << "T.where given twice in one block";
      block.predicate = condition(*args[0], "the predicate of T.where");
      return;
    }
    if (callee == "T.block_attr") {
      BlockFrame& block = current_block(e.span, callee);
      auto args = bind_arguments(*call, callee, {"attrs"}, 1);
      if (block.has_annotations) user_error(e.span) << "T.block_attr given twice in one block";
      block.annotations = parse_attr_dict(*args[0]);
      block.has_annotations = true;
      return;
    }
    if (callee == "T.evaluate") {
      auto args = bind_arguments(*call, callee, {"value"}, 1);
      return emit(items, tir::evaluate(exprs_.parse(*args[0]), e.span));
    }
    if (callee == "T.match_buffer" || callee == "T.alloc_buffer" ||
        callee.rfind("T.axis.", 0) == 0) {
      user_error(e.span) << "the result of " << callee << " must be assigned to a name";
    }
    emit(items, tir::evaluate(exprs_.parse(e), e.span));
  }

  // ---- Assignments.
  void parse_assign(const PyAssign& a, std::vector<ListItem>& items) {
    if (a.value == nullptr) {
      user_error(a.span) << "a declaration needs a value: write 'x: T.int32 = value'";
    }
    const PyExpr& value = *a.value;
    if (const auto* sub = a.target->as<PySubscript>()) {
      if (a.annotation) user_error(a.annotation->span) << "a buffer store takes no annotation";
      return emit(items, parse_store(*sub, value, a.span));
    }
    std::string callee = statement_callee(value);
    if (const auto* tuple = a.target->as<PyTuple>()) {
      std::vector<std::pair<const PyName*, const PyExpr*>> pairs = parallel_assignment(a);
      bool declarations = !pairs.empty() && std::all_of(pairs.begin(), pairs.end(), [](auto& p) {
        return is_var_declaration(*p.second);
      });
      if (declarations && a.annotation == nullptr) {
        for (const auto& [var_name, var_value] : pairs) declare_var(*var_name, *var_value);
        return;
      }
      if (callee != "T.axis.remap") {
        user_error(a.target->span) << "only T.axis.remap, or variable declarations "
                                      "(n, m = T.int64(), T.int64()), can be assigned to "
                                      "several names";
      }
      std::vector<const PyName*> names;
      for (const PyExprPtr& item : tuple->items) names.push_back(item->as<PyName>());
      return parse_remap(names, *value.as<PyCall>(), a.target->span);
    }
    const auto* name = a.target->as<PyName>();
    if (name == nullptr) user_error(a.target->span) << "cannot assign to this expression";
    bool declaration =
        callee == "T.match_buffer" || callee == "T.alloc_buffer" || callee.rfind("T.axis.", 0) == 0;
    if (a.annotation && declaration) {
      user_error(a.annotation->span) << "the result of " << callee << " takes no annotation";
    }
    if (is_var_declaration(value)) {
      if (a.annotation)
        user_error(a.annotation->span) << "a variable declaration takes no annotation";
      return declare_var(*name, value);
    }
    if (callee == "T.match_buffer") return parse_match_buffer(*name, *value.as<PyCall>());
    if (callee == "T.alloc_buffer") return parse_alloc_buffer(*name, *value.as<PyCall>(), items);
    if (callee == "T.axis.remap") return parse_remap({name}, *value.as<PyCall>(), name->span);
    if (callee.rfind("T.axis.", 0) == 0) return parse_axis(*name, *value.as<PyCall>());
    if (callee == "T.Buffer" || callee == "T.decl_buffer") {
      user_error(value.span) << callee << " inside a function body is not supported";
    }
    // name [: T.dtype] = value: a LetStmt over the rest of the list.
    tir::PrimExpr v = exprs_.parse(value);
    if (a.annotation) {
      DataType dtype = annotation_dtype(*a.annotation);
      v = convert_literal(v, dtype);
      if (v->dtype != dtype) {
        user_error(value.span) << "the value has type " << v->dtype.str() << ", but '" << name->id
                               << "' is declared " << dtype.str();
      }
    }
    ListItem item;
    item.let_var = tir::var(name->id, v->dtype, name->span);
    item.let_value = v;
    item.span = a.span;
    scope_.define(name->id, Symbol::of_prim_var(item.let_var));
    items.push_back(std::move(item));
  }

  // name = T.int64() (or T.int32(is_size_var=True), ...): a variable of the function.
  void declare_var(const PyName& name, const PyExpr& value) {
    const auto& call = *value.as<PyCall>();
    std::string callee = called_name(value);
    auto args = bind_arguments(call, callee, {"value", "is_size_var"}, 0);
    bool size_var = args[1] != nullptr && expect_bool(*args[1], "is_size_var");
    DataType dtype = *DataType::parse(callee.substr(2));
    tir::Var v =
        size_var ? tir::size_var(name.id, dtype, name.span) : tir::var(name.id, dtype, name.span);
    scope_.define(name.id, Symbol::of_prim_var(v));
  }

  static bool is_var_declaration(const PyExpr& value) {
    const auto* call = value.as<PyCall>();
    if (call == nullptr || !call->args.empty()) return false;
    std::string callee = dotted_name(*call->func);
    if (callee.rfind("T.", 0) != 0) return false;
    std::optional<DataType> dtype = DataType::parse(callee.substr(2));
    return dtype && !dtype->is_void() && callee.size() > 2;
  }

  DataType annotation_dtype(const PyExpr& e) {
    std::string type = dotted_name(e);
    if (type.rfind("T.", 0) == 0) {
      std::optional<DataType> dtype = DataType::parse(type.substr(2));
      if (dtype && !dtype->is_void() && type.size() > 2) return *dtype;
    }
    if (e.as<PyString>()) return parse_dtype(e);
    user_error(e.span) << "expected a scalar type such as T.int32";
  }

  tir::Stmt parse_store(const PySubscript& target, const PyExpr& value_expr, Span span) {
    tir::Buffer buf = exprs_.buffer(*target.value);
    std::vector<tir::PrimExpr> indices;
    for (const PyExpr* index : buffer_indices(target)) {
      if (index->as<PySlice>()) user_error(index->span) << "cannot store to a slice";
      indices.push_back(exprs_.parse(*index));
    }
    if (indices.size() != buf->shape.size()) {
      user_error(target.span) << "buffer '" << buf->name << "' has " << buf->shape.size()
                              << " dimension(s), indexed with " << indices.size();
    }
    int lanes = indices.empty() ? 1 : indices.back()->dtype.lanes();
    DataType expected = buf->dtype.with_lanes(lanes);
    tir::PrimExpr value = convert_literal(exprs_.parse(value_expr), expected);
    if (value->dtype != expected) {
      user_error(value_expr.span) << "cannot store a value of type " << value->dtype.str()
                                  << " into buffer '" << buf->name << "' of type "
                                  << expected.str();
    }
    return tir::buffer_store(buf, value, std::move(indices), span);
  }

  // ---- Buffers.
  void parse_match_buffer(const PyName& name, const PyCall& call) {
    if (blocks_.empty() || blocks_.back()->implicit_root) {
      if (!at_function_level()) {
        user_error(call.span) << "T.match_buffer of a parameter must be a statement of the "
                                 "function body";
      }
      const PyExpr* param_expr =
          call.args.empty() ? keyword_argument(call, "param") : call.args.front().get();
      if (param_expr == nullptr)
        user_error(call.span) << "T.match_buffer is missing argument 'param'";
      const auto* param_name = param_expr->as<PyName>();
      tir::Var param;
      for (const tir::Var& p : func_->params) {
        if (param_name != nullptr && p->name == param_name->id) param = p;
      }
      if (!param.defined() || !param->dtype.is_handle()) {
        user_error(param_expr->span) << "T.match_buffer outside a block needs a T.handle "
                                        "parameter of the function";
      }
      if (func_->buffer_of(param).defined()) {
        user_error(param_expr->span) << "parameter '" << param->name << "' is already matched to a "
                                     << "buffer";
      }
      tir::Buffer buf = make_buffer(name.id, call, "T.match_buffer", 1, name.span);
      func_->buffer_map.emplace_back(param, buf);
      scope_.define(name.id, Symbol::of_buffer(buf));
      return;
    }
    BlockFrame& block = *blocks_.back();
    const PyExpr* source_expr =
        call.args.empty() ? keyword_argument(call, "param") : call.args.front().get();
    if (source_expr == nullptr)
      user_error(call.span) << "T.match_buffer is missing argument 'param'";
    tir::BufferRegion source = exprs_.region(*source_expr);
    tir::Buffer buf = make_buffer(name.id, call, "T.match_buffer", 1, name.span);
    auto* match = make_node<tir::MatchBufferRegionNode>();
    match->buffer = buf;
    match->source = source;
    block.match_buffers.emplace_back(match);
    scope_.define(name.id, Symbol::of_buffer(buf));
  }

  void parse_alloc_buffer(const PyName& name, const PyCall& call, std::vector<ListItem>& items) {
    tir::Buffer buf = make_buffer(name.id, call, "T.alloc_buffer", 0, name.span);
    scope_.define(name.id, Symbol::of_buffer(buf));
    if (!blocks_.empty()) {
      blocks_.back()->alloc_buffers.push_back(buf);
      return;
    }
    ListItem item;
    item.allocated = buf;
    item.span = call.span;
    items.push_back(std::move(item));
  }

  // ---- Block iteration variables.
  void parse_axis(const PyName& name, const PyCall& call) {
    std::string callee = dotted_name(*call.func);
    static const std::map<std::string, tir::IterKind> kKinds = {
        {"T.axis.spatial", tir::IterKind::Spatial}, {"T.axis.S", tir::IterKind::Spatial},
        {"T.axis.reduce", tir::IterKind::Reduce},   {"T.axis.R", tir::IterKind::Reduce},
        {"T.axis.scan", tir::IterKind::Scan},       {"T.axis.opaque", tir::IterKind::Opaque}};
    auto kind = kKinds.find(callee);
    if (kind == kKinds.end())
      user_error(call.func->span) << "unknown TensorIR function '" << callee << "'";
    BlockFrame& block = current_block(call.span, callee);
    auto args = bind_arguments(call, callee, {"dom", "binding", "dtype"}, 2);
    tir::PrimExpr binding = exprs_.parse(*args[1]);
    DataType dtype = args[2] != nullptr ? parse_dtype(*args[2]) : binding->dtype;
    binding = convert_literal(binding, dtype);
    if (!dtype.is_integer() || dtype.is_bool() || binding->dtype != dtype) {
      user_error(args[1]->span) << "the binding of '" << name.id << "' must be an integer of type "
                                << dtype.str() << ", got " << binding->dtype.str();
    }
    tir::PrimExpr min = tir::make_const(dtype, 0);
    tir::PrimExpr extent;
    const PyExpr& dom = *args[0];
    const std::vector<PyExprPtr>* bounds = nullptr;
    if (const auto* t = dom.as<PyTuple>()) bounds = &t->items;
    if (const auto* l = dom.as<PyList>()) bounds = &l->items;
    if (bounds != nullptr) {
      if (bounds->size() != 2) user_error(dom.span) << "a domain is an extent or (begin, end)";
      min = convert_literal(exprs_.parse(*(*bounds)[0]), dtype);
      extent = convert_literal(exprs_.parse(*(*bounds)[1]), dtype);  // the end, for now
    } else {
      extent = convert_literal(exprs_.parse(dom), dtype);
    }
    if (min->dtype != dtype || extent->dtype != dtype) {
      user_error(dom.span) << "the domain of '" << name.id << "' is "
                           << (min->dtype != dtype ? min->dtype : extent->dtype).str()
                           << " but its binding is " << dtype.str();
    }
    if (bounds != nullptr && !tir::is_const_int(min, 0)) {
      extent = arith::simplify(tir::sub(extent, min, dom.span));
    }
    add_iter_var(block, name, tir::range(min, extent), kind->second, binding);
  }

  void add_iter_var(BlockFrame& block, const PyName& name, tir::Range dom, tir::IterKind kind,
                    tir::PrimExpr binding) {
    auto* iv = make_node<tir::IterVarNode>();
    iv->var = tir::var(name.id, binding->dtype, name.span);
    iv->dom = std::move(dom);
    iv->kind = kind;
    scope_.define(name.id, Symbol::of_prim_var(iv->var));
    block.iter_vars.emplace_back(iv);
    block.iter_values.push_back(std::move(binding));
  }

  void parse_remap(const std::vector<const PyName*>& names, const PyCall& call, Span target_span) {
    BlockFrame& block = current_block(call.span, "T.axis.remap");
    auto args = bind_arguments(call, "T.axis.remap", {"kinds", "bindings", "dtype"}, 2);
    std::string kinds = expect_string(*args[0], "the kinds of T.axis.remap");
    const std::vector<PyExprPtr>* bindings = nullptr;
    if (const auto* l = args[1]->as<PyList>()) bindings = &l->items;
    if (const auto* t = args[1]->as<PyTuple>()) bindings = &t->items;
    if (bindings == nullptr)
      user_error(args[1]->span) << "the bindings of T.axis.remap must be a list";
    if (kinds.size() != bindings->size() || kinds.size() != names.size()) {
      user_error(call.span) << "T.axis.remap binds " << names.size() << " name(s) with "
                            << kinds.size() << " kind(s) and " << bindings->size()
                            << " loop variable(s); the three must agree";
    }
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i] == nullptr) user_error(target_span) << "T.axis.remap must be assigned to names";
      tir::IterKind kind;
      if (kinds[i] == 'S') {
        kind = tir::IterKind::Spatial;
      } else if (kinds[i] == 'R') {
        kind = tir::IterKind::Reduce;
      } else {
        user_error(args[0]->span) << "unknown iteration kind '" << kinds[i]
                                  << "' (expected S or R)";
      }
      const PyExpr& b = *(*bindings)[i];
      tir::PrimExpr binding = exprs_.parse(b);
      const LoopInfo* loop = nullptr;
      for (const LoopInfo& l : loops_) {
        if (l.var.same_as(binding)) loop = &l;
      }
      if (loop == nullptr) user_error(b.span) << "T.axis.remap binds only loop variables";
      add_iter_var(block, *names[i], tir::range(loop->min, loop->extent), kind, binding);
    }
  }

  // ---- Loops.
  tir::Stmt parse_for(const PyFor& f) {
    std::string callee = called_name(*f.iter);
    const auto* call = f.iter->as<PyCall>();
    if (call == nullptr) {
      user_error(f.iter->span) << "a loop runs over range(...), T.serial, T.parallel, "
                                  "T.vectorized, T.unroll, T.thread_binding or T.grid";
    }
    std::vector<const PyName*> targets;
    if (const auto* t = f.target->as<PyTuple>()) {
      for (const PyExprPtr& item : t->items) targets.push_back(item->as<PyName>());
    } else {
      targets.push_back(f.target->as<PyName>());
    }
    for (const PyName* t : targets) {
      if (t == nullptr) user_error(f.target->span) << "a loop variable must be a name";
    }
    if (callee == "T.grid") {
      if (!call->keywords.empty())
        user_error(call->keywords.front().span) << "T.grid takes no keywords";
      if (call->args.size() != targets.size()) {
        user_error(f.target->span) << "T.grid has " << call->args.size() << " extent(s) but "
                                   << targets.size() << " loop variable(s)";
      }
      std::vector<LoopInfo> grid;
      for (size_t i = 0; i < targets.size(); ++i) {
        tir::PrimExpr extent = loop_extent(*call->args[i]);
        grid.push_back({tir::var(targets[i]->id, extent->dtype, targets[i]->span),
                        tir::make_const(extent->dtype, 0), extent});
      }
      return nest_loops(grid, targets, f, tir::ForKind::Serial, "", Attrs());
    }
    if (targets.size() != 1)
      user_error(f.target->span) << "only T.grid binds several loop variables";
    static const std::map<std::string, tir::ForKind> kKinds = {
        {"range", tir::ForKind::Serial},        {"T.serial", tir::ForKind::Serial},
        {"T.parallel", tir::ForKind::Parallel}, {"T.vectorized", tir::ForKind::Vectorized},
        {"T.unroll", tir::ForKind::Unrolled},   {"T.thread_binding", tir::ForKind::ThreadBinding}};
    auto kind = kKinds.find(callee);
    if (kind == kKinds.end()) {
      user_error(call->func->span) << "unknown loop kind '" << callee << "'";
    }
    std::vector<std::string> names = {"start", "stop"};
    if (callee == "range") names.push_back("step");
    if (kind->second == tir::ForKind::ThreadBinding) names.push_back("thread");
    if (callee != "range") names.push_back("annotations");
    auto args = bind_arguments(*call, callee, names, 1);
    auto arg = [&](const char* n) -> const PyExpr* {
      auto it = std::find(names.begin(), names.end(), n);
      return it == names.end() ? nullptr : args[static_cast<size_t>(it - names.begin())];
    };
    if (const PyExpr* step = arg("step"); step != nullptr && expect_int(*step, "the step") != 1) {
      user_error(step->span) << "a loop step other than 1 is not supported";
    }
    std::string thread;
    if (kind->second == tir::ForKind::ThreadBinding) {
      const PyExpr* t = arg("thread");
      if (t == nullptr) user_error(call->span) << "T.thread_binding needs thread=\"...\"";
      thread = expect_string(*t, "the thread");
    }
    Attrs annotations;
    if (const PyExpr* a = arg("annotations"); a != nullptr && !a->as<PyNone>()) {
      annotations = parse_attr_dict(*a);
    }
    tir::PrimExpr min, extent;
    if (args[1] == nullptr || args[1]->as<PyNone>()) {
      extent = loop_extent(*args[0]);
      min = tir::make_const(extent->dtype, 0);
    } else {
      min = exprs_.parse(*args[0]);
      tir::PrimExpr stop = exprs_.parse(*args[1]);
      min = convert_literal(min, stop->dtype);
      stop = convert_literal(stop, min->dtype);
      check_loop_bound(min, args[0]->span);
      check_loop_bound(stop, args[1]->span);
      if (min->dtype != stop->dtype) {
        user_error(args[1]->span) << "the loop bounds have different types: " << min->dtype.str()
                                  << " and " << stop->dtype.str();
      }
      extent = tir::is_const_int(min, 0) ? stop : arith::simplify(tir::sub(stop, min, call->span));
    }
    std::vector<LoopInfo> loop = {
        {tir::var(targets[0]->id, extent->dtype, targets[0]->span), min, extent}};
    return nest_loops(loop, targets, f, kind->second, thread, std::move(annotations));
  }

  tir::PrimExpr loop_extent(const PyExpr& e) {
    tir::PrimExpr extent = exprs_.parse(e);
    check_loop_bound(extent, e.span);
    return extent;
  }

  void check_loop_bound(const tir::PrimExpr& e, Span span) {
    if (!e->dtype.is_int() || !e->dtype.is_scalar()) {
      user_error(span) << "a loop bound must be a signed integer, got " << e->dtype.str();
    }
  }

  tir::Stmt nest_loops(const std::vector<LoopInfo>& loops, const std::vector<const PyName*>& names,
                       const PyFor& f, tir::ForKind kind, const std::string& thread,
                       Attrs annotations) {
    ScopeFrame frame(scope_);
    for (size_t i = 0; i < loops.size(); ++i) {
      scope_.define(names[i]->id, Symbol::of_prim_var(loops[i].var));
      loops_.push_back(loops[i]);
    }
    tir::Stmt body = parse_nested_body(f.body, f.span);
    loops_.resize(loops_.size() - loops.size());
    for (size_t i = loops.size(); i-- > 0;) {
      body = tir::for_loop(loops[i].var, loops[i].min, loops[i].extent, kind, body, thread,
                           annotations, f.span);
    }
    return body;
  }

  // `with T.decl_buffer(shape, dtype, scope=...) as name:` (an Allocate) and
  // `with T.LetStmt(value) as name:` (a LetStmt): the printed form of an allocation or a
  // let whose scope ends before the statements that follow it.
  void parse_scoped(const PyWith& w, const std::string& callee, std::vector<ListItem>& items) {
    const auto* target = w.target ? w.target->as<PyName>() : nullptr;
    if (target == nullptr) {
      user_error(w.target ? w.target->span : w.span)
          << "'with " << callee << "' needs 'as NAME' naming what it declares";
    }
    const auto* call = w.context->as<PyCall>();
    if (call == nullptr) user_error(w.context->span) << callee << " must be called";
    ScopeFrame frame(scope_);
    if (callee == "T.decl_buffer") {
      tir::Buffer buf = make_buffer(target->id, *call, callee, 0, target->span);
      scope_.define(target->id, Symbol::of_buffer(buf));
      tir::Stmt body = parse_nested_body(w.body, w.span);
      return emit(items, tir::allocate(buf, body, w.span));
    }
    auto args = bind_arguments(*call, callee, {"value"}, 1);
    tir::PrimExpr value = exprs_.parse(*args[0]);
    tir::Var var = tir::var(target->id, value->dtype, target->span);
    scope_.define(target->id, Symbol::of_prim_var(var));
    tir::Stmt body = parse_nested_body(w.body, w.span);
    emit(items, tir::let_stmt(var, value, body, w.span));
  }

  // ---- Blocks.
  void parse_with(const PyWith& w, std::vector<ListItem>& items) {
    std::string callee = called_name(*w.context);
    if (callee == "T.decl_buffer" || callee == "T.LetStmt") return parse_scoped(w, callee, items);
    if (w.target) user_error(w.target->span) << "'with " << callee << "' binds no name";
    if (callee == "T.init") {
      BlockFrame& block = current_block(w.span, "T.init");
      bind_arguments(*w.context->as<PyCall>(), callee, {}, 0);
      if (block.init.defined()) user_error(w.span) << "T.init given twice in one block";
      block.init = parse_nested_body(w.body, w.span);
      return;
    }
    if (callee != "T.block" && callee != "T.sblock") {
      user_error(w.context->span) << "unknown context '"
                                  << (callee.empty() ? std::string("?") : callee)
                                  << "'; TensorIR has 'with T.block(...)' and 'with T.init()'";
    }
    const auto& call = *w.context->as<PyCall>();
    auto args = bind_arguments(call, callee, {"name_hint", "no_realize"}, 0);
    std::string name = args[0] != nullptr ? expect_string(*args[0], "the block name") : "";
    if (args[1] != nullptr && expect_bool(*args[1], "no_realize")) {
      user_error(args[1]->span) << "no_realize=True is not supported";
    }
    BlockFrame frame;
    blocks_.push_back(&frame);
    tir::Stmt body = parse_nested_body(w.body, w.span);
    blocks_.pop_back();
    // A root block written out lists no regions; other blocks get the ones left out.
    bool root = name == "root" && frame.iter_vars.empty() &&
                (blocks_.empty() || (blocks_.size() == 1 && blocks_[0]->implicit_root));
    auto* block = make_node<tir::BlockNode>();
    tir::Block owner(block);
    block->name = std::move(name);
    block->span = w.span;
    block->iter_vars = std::move(frame.iter_vars);
    block->reads = std::move(frame.reads);
    block->writes = std::move(frame.writes);
    block->init = std::move(frame.init);
    block->body = std::move(body);
    block->alloc_buffers = std::move(frame.alloc_buffers);
    block->match_buffers = std::move(frame.match_buffers);
    block->annotations = std::move(frame.annotations);
    if (!root) tir::complete_block_regions(block, !frame.has_reads, !frame.has_writes);
    emit(items, tir::block_realize(std::move(frame.iter_values), frame.predicate, owner, w.span));
  }

  // The body of a function with blocks, inside its root block; a body that already is
  // one root block (written out as 'with T.block("root"):') stays as it is.
  tir::Stmt wrap_in_root(tir::Stmt body, BlockFrame& root, Span span) {
    if (const auto* realize = body.as<tir::BlockRealizeNode>()) {
      const tir::BlockNode& b = *realize->block;
      if (b.name == "root" && b.iter_vars.empty() && root.alloc_buffers.empty()) return body;
    }
    auto* block = make_node<tir::BlockNode>();
    block->name = "root";
    block->span = span;
    block->body = std::move(body);
    block->alloc_buffers = std::move(root.alloc_buffers);
    return tir::block_realize({}, {}, tir::Block(block), span);
  }

  Scope scope_;
  PrimExprParser exprs_;
  tir::PrimFuncNode* func_ = nullptr;  // the function being built (owned by `build`)
  std::vector<LoopInfo> loops_;
  std::vector<BlockFrame*> blocks_;
  int nesting_ = 0;  // statement lists entered below the function's own
};

}  // namespace

tir::PrimFunc parse_prim_func(const PyFunctionDef& def) { return PrimFuncBuilder().build(def); }

}  // namespace relaxc::text
