// The recursive-descent parser of the text format's Python subset: tokens to PyStmt /
// PyExpr trees.
//
// One function per grammar level, following Python's precedence (or < and < not <
// comparisons < | < ^ < & < shifts < + - < * / // % @ < unary < ** < primary).
// Recursion is bounded by a depth counter (brackets, unary operators, indented blocks)
// and left-associative chains by the height of the tree they build, so hostile input
// ends in a "nesting too deep" error instead of a stack overflow.
#include <algorithm>
#include <initializer_list>
#include <unordered_set>

#include "ir/text/python_ast.h"

namespace relaxc::text {

namespace {

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::Name:
    case TokenKind::Op:
      return "'" + t.text + "'";
    case TokenKind::Int:
    case TokenKind::Float:
      return "number " + t.text;
    case TokenKind::String:
      return "a string";
    case TokenKind::Newline:
      return "end of line";
    case TokenKind::Indent:
      return "an indent";
    case TokenKind::Dedent:
      return "a dedent";
    case TokenKind::End:
      return "end of file";
  }
  return "a token";
}

class PyParser {
 public:
  explicit PyParser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  PyBody parse_file() {
    PyBody body;
    while (peek().kind != TokenKind::End) parse_statement(body);
    return body;
  }

  PyExprPtr parse_single_expression() {
    PyExprPtr e = parse_expression();
    if (peek().kind == TokenKind::Newline) next();
    if (peek().kind != TokenKind::End)
      fail(peek(), "unexpected " + describe(peek()) + " after expression");
    return e;
  }

 private:
  // ---- Token access. tokens_ always ends with End, and the cursor never passes it.
  const Token& peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token& next() {
    const Token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool at_op(std::string_view op, size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == TokenKind::Op && t.text == op;
  }
  bool at_keyword(std::string_view word, size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == TokenKind::Name && t.text == word;
  }
  bool accept_op(std::string_view op) {
    if (!at_op(op)) return false;
    next();
    return true;
  }
  bool accept_keyword(std::string_view word) {
    if (!at_keyword(word)) return false;
    next();
    return true;
  }
  const Token& expect_op(std::string_view op, const std::string& message) {
    if (!at_op(op)) fail(peek(), message);
    return next();
  }
  [[noreturn]] void fail(const Token& t, const std::string& message) const {
    if (t.kind == TokenKind::Indent) user_error(t.span) << "unexpected indent";
    user_error(t.span) << message;
  }
  std::string expect_name(const std::string& message, Span* span) {
    const Token& t = peek();
    if (t.kind != TokenKind::Name || is_python_keyword(t.text)) fail(t, message);
    *span = t.span;
    return next().text;
  }

  // Counts one level of recursion for the lifetime of the guard.
  class DepthGuard {
   public:
    DepthGuard(PyParser& parser, Span span) : parser_(parser) {
      if (parser_.depth_ >= kMaxPyNesting) user_error(span) << "nesting too deep";
      ++parser_.depth_;
    }
    ~DepthGuard() { --parser_.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    PyParser& parser_;
  };

  // Raises `e`'s height above `child`'s; too tall a tree is an error.
  static void grow(PyExpr& e, const PyExprPtr& child) {
    if (!child) return;
    e.height = std::max(e.height, child->height + 1);
    if (e.height > kMaxPyNesting) user_error(child->span) << "nesting too deep";
  }

  // ---- Statements.
  void parse_statement(PyBody& out) {
    const Token& t = peek();
    if (t.kind == TokenKind::Indent) fail(t, "unexpected indent");
    if (t.kind == TokenKind::Dedent || t.kind == TokenKind::Newline) {
      fail(t, "expected a statement, found " + describe(t));
    }
    if (at_op("@")) {
      out.push_back(parse_decorated());
    } else if (at_keyword("def")) {
      out.push_back(parse_function_def({}, peek().span));
    } else if (at_keyword("class")) {
      out.push_back(parse_class_def({}, peek().span));
    } else if (at_keyword("if")) {
      out.push_back(parse_if());
    } else if (at_keyword("for")) {
      out.push_back(parse_for());
    } else if (at_keyword("while")) {
      out.push_back(parse_while());
    } else if (at_keyword("with")) {
      out.push_back(parse_with());
    } else {
      parse_simple_line(out);
    }
  }

  // simple_stmt (';' simple_stmt)* NEWLINE
  void parse_simple_line(PyBody& out) {
    out.push_back(parse_simple_statement());
    while (accept_op(";")) {
      if (peek().kind == TokenKind::Newline) break;
      out.push_back(parse_simple_statement());
    }
    if (peek().kind != TokenKind::Newline) {
      fail(peek(), "unexpected " + describe(peek()) + " after statement");
    }
    next();
  }

  PyStmtPtr parse_simple_statement() {
    const Token& t = peek();
    Span span = t.span;
    if (accept_keyword("pass")) return std::make_unique<PyPass>(span);
    if (accept_keyword("return")) {
      auto r = std::make_unique<PyReturn>(span);
      if (peek().kind != TokenKind::Newline && !at_op(";")) r->value = parse_expression_list();
      return r;
    }
    if (at_keyword("import") || at_keyword("from")) {
      while (peek().kind != TokenKind::Newline && peek().kind != TokenKind::End && !at_op(";")) {
        next();
      }
      return std::make_unique<PyImport>(span);
    }
    if (t.kind == TokenKind::Name && is_python_keyword(t.text) && t.text != "True" &&
        t.text != "False" && t.text != "None" && t.text != "not" && t.text != "lambda") {
      fail(t, "'" + t.text + "' statements are not supported");
    }
    const size_t first_token = pos_;
    PyExprPtr first = parse_expression_list();
    if (accept_op(":")) {
      check_target(*first, /*allow_tuple=*/false);
      auto a = std::make_unique<PyAssign>(span);
      a->target = std::move(first);
      a->annotation = parse_expression();
      if (accept_op("=")) a->value = parse_expression_list();
      return a;
    }
    if (accept_op("=")) {
      check_target(*first, /*allow_tuple=*/true);
      auto a = std::make_unique<PyAssign>(span);
      a->target = std::move(first);
      a->value = parse_expression_list();
      if (at_op("=")) fail(peek(), "chained assignment is not supported");
      return a;
    }
    // B[i] += x is B[i] = B[i] + x, as TVM reads it (its TensorIR tests write reductions
    // so); the target is read a second time from its tokens for the operand.
    for (const char* op : {"+=", "-=", "*=", "/=", "//=", "%=", "&=", "|=", "^=", "<<=", ">>="}) {
      if (!at_op(op)) continue;
      check_target(*first, /*allow_tuple=*/false);
      const Span op_span = next().span;
      const size_t value_token = pos_;
      pos_ = first_token;
      PyExprPtr operand = parse_expression_list();
      pos_ = value_token;
      auto a = std::make_unique<PyAssign>(span);
      a->target = std::move(first);
      std::string binary_op(op);
      binary_op.pop_back();  // "+=" -> "+"
      a->value = std::make_unique<PyBinary>(span, binary_op, op_span, std::move(operand),
                                            parse_expression());
      return a;
    }
    for (const char* op : {"**=", "@="}) {
      if (at_op(op))
        fail(peek(), std::string("augmented assignment ('") + op + "') is not supported");
    }
    return std::make_unique<PyExprStmt>(span, std::move(first));
  }

  void check_target(const PyExpr& target, bool allow_tuple) const {
    if (target.as<PyName>() || target.as<PySubscript>() || target.as<PyAttribute>()) return;
    if (allow_tuple) {
      const auto* tuple = target.as<PyTuple>();
      if (tuple != nullptr && !tuple->items.empty()) {
        for (const PyExprPtr& item : tuple->items) check_target(*item, /*allow_tuple=*/false);
        return;
      }
    }
    user_error(target.span) << "cannot assign to this expression";
  }

  // ':' already consumed: NEWLINE INDENT stmt+ DEDENT, or simple statements on the line.
  void parse_block(PyBody& body, const char* after) {
    if (peek().kind != TokenKind::Newline) {
      parse_simple_line(body);
      return;
    }
    next();
    if (peek().kind != TokenKind::Indent) {
      fail(peek(), std::string("expected an indented block after ") + after);
    }
    DepthGuard guard(*this, peek().span);
    next();
    while (peek().kind != TokenKind::Dedent && peek().kind != TokenKind::End) {
      parse_statement(body);
    }
    if (peek().kind == TokenKind::Dedent) next();
  }

  PyStmtPtr parse_decorated() {
    Span span = peek().span;
    std::vector<PyExprPtr> decorators;
    while (accept_op("@")) {
      decorators.push_back(parse_expression());
      if (peek().kind != TokenKind::Newline) {
        fail(peek(), "unexpected " + describe(peek()) + " after decorator");
      }
      next();
    }
    if (at_keyword("def")) return parse_function_def(std::move(decorators), span);
    if (at_keyword("class")) return parse_class_def(std::move(decorators), span);
    fail(peek(), "expected 'def' or 'class' after decorators");
  }

  PyStmtPtr parse_function_def(std::vector<PyExprPtr> decorators, Span span) {
    next();  // def
    auto f = std::make_unique<PyFunctionDef>(span);
    f->decorators = std::move(decorators);
    f->name = expect_name("expected a function name after 'def'", &f->name_span);
    expect_op("(", "expected '(' after function name");
    std::unordered_set<std::string> names;
    while (!at_op(")")) {
      if (at_op("*") || at_op("**") || at_op("/")) {
        fail(peek(), "variadic and positional-only parameters are not supported");
      }
      PyParam p;
      p.name = expect_name("expected a parameter name", &p.span);
      if (!names.insert(p.name).second) {
        user_error(p.span) << "duplicate parameter '" << p.name << "'";
      }
      if (accept_op(":")) p.annotation = parse_expression();
      if (accept_op("=")) p.default_value = parse_expression();
      f->params.push_back(std::move(p));
      if (!accept_op(",") && !at_op(")")) fail(peek(), "expected ')' after parameters");
    }
    next();  // )
    if (accept_op("->")) f->returns = parse_expression();
    expect_op(":", "expected ':' after function signature");
    parse_block(f->body, "function definition");
    return f;
  }

  PyStmtPtr parse_class_def(std::vector<PyExprPtr> decorators, Span span) {
    next();  // class
    auto c = std::make_unique<PyClassDef>(span);
    c->decorators = std::move(decorators);
    c->name = expect_name("expected a class name after 'class'", &c->name_span);
    if (accept_op("(")) {
      while (!at_op(")")) {
        c->bases.push_back(parse_expression());
        if (!accept_op(",") && !at_op(")")) fail(peek(), "expected ')' after base classes");
      }
      next();
    }
    expect_op(":", "expected ':' after class name");
    parse_block(c->body, "class definition");
    return c;
  }

  PyStmtPtr parse_if() {
    auto s = std::make_unique<PyIf>(peek().span);
    next();  // if / elif
    s->test = parse_expression();
    expect_op(":", "expected ':' after condition");
    parse_block(s->body, "'if'");
    if (at_keyword("elif")) {
      DepthGuard guard(*this, peek().span);
      s->orelse.push_back(parse_if());
    } else if (accept_keyword("else")) {
      expect_op(":", "expected ':' after 'else'");
      parse_block(s->orelse, "'else'");
    }
    return s;
  }

  PyStmtPtr parse_for() {
    auto s = std::make_unique<PyFor>(peek().span);
    next();  // for
    s->target = parse_target_list();
    if (!accept_keyword("in")) fail(peek(), "expected 'in' after loop variables");
    s->iter = parse_expression_list();
    expect_op(":", "expected ':' after loop header");
    parse_block(s->body, "'for'");
    return s;
  }

  // Loop targets stop before 'in', so they are parsed below the comparison level.
  PyExprPtr parse_target_list() {
    Span span = peek().span;
    PyExprPtr first = parse_bitor();
    if (!at_op(",")) {
      check_target(*first, /*allow_tuple=*/false);
      return first;
    }
    auto tuple = std::make_unique<PyTuple>(span);
    tuple->items.push_back(std::move(first));
    while (accept_op(",")) {
      if (at_keyword("in")) break;
      tuple->items.push_back(parse_bitor());
    }
    for (const PyExprPtr& item : tuple->items) {
      check_target(*item, /*allow_tuple=*/false);
      grow(*tuple, item);
    }
    return tuple;
  }

  PyStmtPtr parse_while() {
    auto s = std::make_unique<PyWhile>(peek().span);
    next();  // while
    s->test = parse_expression();
    expect_op(":", "expected ':' after condition");
    parse_block(s->body, "'while'");
    return s;
  }

  PyStmtPtr parse_with() {
    auto s = std::make_unique<PyWith>(peek().span);
    next();  // with
    s->context = parse_expression();
    if (accept_keyword("as")) s->target = parse_target_list();
    if (at_op(",")) fail(peek(), "only one context per 'with' is supported");
    expect_op(":", "expected ':' after 'with' item");
    parse_block(s->body, "'with'");
    return s;
  }

  // ---- Expressions.
  bool can_start_expression(const Token& t) const {
    switch (t.kind) {
      case TokenKind::Name:
        return !is_python_keyword(t.text) || t.text == "True" || t.text == "False" ||
               t.text == "None" || t.text == "not";
      case TokenKind::Int:
      case TokenKind::Float:
      case TokenKind::String:
        return true;
      case TokenKind::Op:
        return t.text == "(" || t.text == "[" || t.text == "{" || t.text == "-" || t.text == "+" ||
               t.text == "~";
      default:
        return false;
    }
  }

  // expression (',' expression)* [','], a tuple when there is a comma.
  PyExprPtr parse_expression_list() {
    Span span = peek().span;
    PyExprPtr first = parse_expression();
    if (!at_op(",")) return first;
    auto tuple = std::make_unique<PyTuple>(span);
    tuple->items.push_back(std::move(first));
    while (accept_op(",")) {
      if (!can_start_expression(peek())) break;
      tuple->items.push_back(parse_expression());
    }
    for (const PyExprPtr& item : tuple->items) grow(*tuple, item);
    return tuple;
  }

  PyExprPtr parse_expression() {
    DepthGuard guard(*this, peek().span);
    return parse_or();
  }

  PyExprPtr parse_bool_chain(const char* word, PyExprPtr (PyParser::*operand)()) {
    Span span = peek().span;
    PyExprPtr first = (this->*operand)();
    if (!at_keyword(word)) return first;
    auto op = std::make_unique<PyBoolOp>(span, word);
    op->operands.push_back(std::move(first));
    while (at_keyword(word)) {
      op->op_spans.push_back(next().span);
      op->operands.push_back((this->*operand)());
      grow(*op, op->operands.back());
    }
    grow(*op, op->operands.front());
    return op;
  }
  PyExprPtr parse_or() { return parse_bool_chain("or", &PyParser::parse_and); }
  PyExprPtr parse_and() { return parse_bool_chain("and", &PyParser::parse_not); }

  PyExprPtr parse_not() {
    if (!at_keyword("not")) return parse_comparison();
    Span span = next().span;
    DepthGuard guard(*this, span);
    auto e = std::make_unique<PyUnary>(span, "not", parse_not());
    grow(*e, e->operand);
    return e;
  }

  PyExprPtr parse_comparison() {
    Span span = peek().span;
    PyExprPtr first = parse_bitor();
    std::unique_ptr<PyCompare> cmp;
    while (true) {
      std::string op;
      Span op_span = peek().span;
      const Token& t = peek();
      if (t.kind == TokenKind::Op && (t.text == "==" || t.text == "!=" || t.text == "<" ||
                                      t.text == "<=" || t.text == ">" || t.text == ">=")) {
        op = t.text;
        next();
      } else if (at_keyword("in")) {
        op = "in";
        next();
      } else if (at_keyword("not") && at_keyword("in", 1)) {
        op = "not in";
        next();
        next();
      } else if (at_keyword("is")) {
        next();
        op = accept_keyword("not") ? "is not" : "is";
      } else {
        break;
      }
      if (!cmp) {
        cmp = std::make_unique<PyCompare>(span);
        cmp->operands.push_back(std::move(first));
        grow(*cmp, cmp->operands.back());
      }
      cmp->ops.push_back(op);
      cmp->op_spans.push_back(op_span);
      cmp->operands.push_back(parse_bitor());
      grow(*cmp, cmp->operands.back());
    }
    if (cmp) return cmp;
    return first;
  }

  // A left-associative chain of binary operators from `ops` over `operand`.
  PyExprPtr parse_binary_chain(std::initializer_list<const char*> ops,
                               PyExprPtr (PyParser::*operand)()) {
    Span span = peek().span;
    PyExprPtr lhs = (this->*operand)();
    while (true) {
      const char* matched = nullptr;
      for (const char* op : ops) {
        if (at_op(op)) matched = op;
      }
      if (matched == nullptr) return lhs;
      Span op_span = next().span;
      PyExprPtr rhs = (this->*operand)();
      auto e = std::make_unique<PyBinary>(span, matched, op_span, std::move(lhs), std::move(rhs));
      grow(*e, e->lhs);
      grow(*e, e->rhs);
      lhs = std::move(e);
    }
  }
  PyExprPtr parse_bitor() { return parse_binary_chain({"|"}, &PyParser::parse_bitxor); }
  PyExprPtr parse_bitxor() { return parse_binary_chain({"^"}, &PyParser::parse_bitand); }
  PyExprPtr parse_bitand() { return parse_binary_chain({"&"}, &PyParser::parse_shift); }
  PyExprPtr parse_shift() { return parse_binary_chain({"<<", ">>"}, &PyParser::parse_sum); }
  PyExprPtr parse_sum() { return parse_binary_chain({"+", "-"}, &PyParser::parse_term); }
  PyExprPtr parse_term() {
    return parse_binary_chain({"*", "/", "//", "%", "@"}, &PyParser::parse_factor);
  }

  PyExprPtr parse_factor() {
    if (at_op("-") || at_op("+") || at_op("~")) {
      const Token& t = next();
      Span span = t.span;
      std::string op = t.text;
      DepthGuard guard(*this, span);
      auto e = std::make_unique<PyUnary>(span, op, parse_factor());
      grow(*e, e->operand);
      return e;
    }
    return parse_power();
  }

  PyExprPtr parse_power() {
    Span span = peek().span;
    PyExprPtr base = parse_primary();
    if (!at_op("**")) return base;
    Span op_span = next().span;
    DepthGuard guard(*this, op_span);
    PyExprPtr exponent = parse_factor();
    auto e = std::make_unique<PyBinary>(span, "**", op_span, std::move(base), std::move(exponent));
    grow(*e, e->lhs);
    grow(*e, e->rhs);
    return e;
  }

  PyExprPtr parse_primary() {
    Span span = peek().span;
    PyExprPtr e = parse_atom();
    while (true) {
      if (accept_op(".")) {
        Span attr_span;
        std::string attr = expect_name("expected an attribute name after '.'", &attr_span);
        auto a = std::make_unique<PyAttribute>(span, std::move(e), std::move(attr), attr_span);
        grow(*a, a->value);
        e = std::move(a);
      } else if (accept_op("(")) {
        e = parse_call_arguments(span, std::move(e));
      } else if (accept_op("[")) {
        e = parse_subscript(span, std::move(e));
      } else {
        return e;
      }
    }
  }

  // '(' already consumed.
  PyExprPtr parse_call_arguments(Span span, PyExprPtr func) {
    auto call = std::make_unique<PyCall>(span, std::move(func));
    grow(*call, call->func);
    std::unordered_set<std::string> keywords;
    while (!at_op(")")) {
      if (at_op("*") || at_op("**")) fail(peek(), "argument unpacking is not supported");
      if (peek().kind == TokenKind::Name && at_op("=", 1)) {
        PyKeyword kw;
        kw.span = peek().span;
        kw.name = next().text;
        if (is_python_keyword(kw.name)) user_error(kw.span) << "invalid keyword argument name";
        next();  // =
        if (!keywords.insert(kw.name).second) {
          user_error(kw.span) << "keyword argument '" << kw.name << "' repeated";
        }
        kw.value = parse_expression();
        grow(*call, kw.value);
        call->keywords.push_back(std::move(kw));
      } else {
        if (!call->keywords.empty()) fail(peek(), "positional argument follows keyword argument");
        call->args.push_back(parse_expression());
        grow(*call, call->args.back());
      }
      if (!accept_op(",") && !at_op(")")) fail(peek(), "expected ')' after arguments");
    }
    next();  // )
    return call;
  }

  // '[' already consumed.
  PyExprPtr parse_subscript(Span span, PyExprPtr value) {
    auto sub = std::make_unique<PySubscript>(span, std::move(value));
    grow(*sub, sub->value);
    if (at_op("]")) fail(peek(), "expected an index");
    while (!at_op("]")) {
      sub->indices.push_back(parse_subscript_item());
      grow(*sub, sub->indices.back());
      if (!accept_op(",") && !at_op("]")) fail(peek(), "expected ']' after subscript");
    }
    next();  // ]
    return sub;
  }

  PyExprPtr parse_subscript_item() {
    Span span = peek().span;
    PyExprPtr lower;
    if (!at_op(":")) {
      lower = parse_expression();
      if (!at_op(":")) return lower;
    }
    next();  // :
    auto slice = std::make_unique<PySlice>(span);
    slice->lower = std::move(lower);
    auto at_item_end = [&] { return at_op(",") || at_op("]") || at_op(":"); };
    if (!at_item_end()) slice->upper = parse_expression();
    if (accept_op(":") && !at_op(",") && !at_op("]")) slice->step = parse_expression();
    grow(*slice, slice->lower);
    grow(*slice, slice->upper);
    grow(*slice, slice->step);
    return slice;
  }

  PyExprPtr parse_atom() {
    const Token& t = peek();
    Span span = t.span;
    switch (t.kind) {
      case TokenKind::Name: {
        if (t.text == "True" || t.text == "False") {
          bool value = t.text == "True";
          next();
          return std::make_unique<PyBool>(span, value);
        }
        if (t.text == "None") {
          next();
          return std::make_unique<PyNone>(span);
        }
        if (is_python_keyword(t.text)) fail(t, "expected an expression, found " + describe(t));
        return std::make_unique<PyName>(span, next().text);
      }
      case TokenKind::Int:
        return std::make_unique<PyInt>(span, next().int_value);
      case TokenKind::Float:
        return std::make_unique<PyFloat>(span, next().float_value);
      case TokenKind::String: {
        std::string value = t.text;
        bool verbatim = t.verbatim;
        next();
        while (peek().kind == TokenKind::String) {  // implicit concatenation
          value += next().text;
          verbatim = false;
        }
        return std::make_unique<PyString>(span, std::move(value), verbatim);
      }
      case TokenKind::Op:
        if (t.text == "(") return parse_parenthesized();
        if (t.text == "[") return parse_list();
        if (t.text == "{") return parse_dict();
        break;
      default:
        break;
    }
    fail(t, "expected an expression, found " + describe(t));
  }

  PyExprPtr parse_parenthesized() {
    Span span = peek().span;
    next();  // (
    if (accept_op(")")) return std::make_unique<PyTuple>(span);
    PyExprPtr first = parse_expression();
    if (accept_op(")")) return first;
    if (!at_op(",")) fail(peek(), "expected ')'");
    auto tuple = std::make_unique<PyTuple>(span);
    tuple->items.push_back(std::move(first));
    while (accept_op(",")) {
      if (at_op(")")) break;
      tuple->items.push_back(parse_expression());
    }
    expect_op(")", "expected ')' after tuple items");
    for (const PyExprPtr& item : tuple->items) grow(*tuple, item);
    return tuple;
  }

  PyExprPtr parse_list() {
    Span span = peek().span;
    next();  // [
    auto list = std::make_unique<PyList>(span);
    while (!at_op("]")) {
      list->items.push_back(parse_expression());
      grow(*list, list->items.back());
      if (!accept_op(",") && !at_op("]")) fail(peek(), "expected ']' after list items");
    }
    next();  // ]
    return list;
  }

  PyExprPtr parse_dict() {
    Span span = peek().span;
    next();  // {
    auto dict = std::make_unique<PyDict>(span);
    while (!at_op("}")) {
      dict->keys.push_back(parse_expression());
      expect_op(":", "expected ':' after dictionary key");
      dict->values.push_back(parse_expression());
      grow(*dict, dict->keys.back());
      grow(*dict, dict->values.back());
      if (!accept_op(",") && !at_op("}")) fail(peek(), "expected '}' after dictionary items");
    }
    next();  // }
    return dict;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

PyBody parse_python_file(const SourceFile* file) {
  LexerInput input;
  input.file = file;
  input.text = file->text;
  return PyParser(tokenize(input)).parse_file();
}

PyExprPtr parse_python_expression(const LexerInput& input) {
  return PyParser(tokenize(input)).parse_single_expression();
}

std::string dotted_name(const PyExpr& e) {
  std::vector<const std::string*> parts;
  const PyExpr* cur = &e;
  while (const auto* attr = cur->as<PyAttribute>()) {
    parts.push_back(&attr->attr);
    cur = attr->value.get();
  }
  const auto* root = cur->as<PyName>();
  if (root == nullptr) return "";
  std::string out = root->id;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += "." + **it;
  return out;
}

}  // namespace relaxc::text
