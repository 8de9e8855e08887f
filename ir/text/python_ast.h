// A small Python AST for the text format, and the recursive-descent parser that builds
// it from tokens (python_parser.cc).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/support/diagnostics.h"
#include "ir/text/lexer.h"

namespace relaxc::text {

// Bound on nesting (brackets, operators, indented blocks): deeper input is an error,
// never a stack overflow in the parser or in the builders that walk the tree.
constexpr int kMaxPyNesting = 200;

// ---------------------------------------------------------------- Expressions

enum class PyExprKind : uint8_t {
  Name,
  Attribute,
  Call,
  Subscript,
  Slice,
  Tuple,
  List,
  Dict,
  Unary,
  Binary,
  Compare,
  BoolOp,
  Int,
  Float,
  String,
  Bool,
  None,
};

struct PyExpr {
  PyExpr(PyExprKind k, Span s) : kind(k), span(s) {}
  virtual ~PyExpr() = default;
  PyExpr(const PyExpr&) = delete;
  PyExpr& operator=(const PyExpr&) = delete;

  template <typename T>
  const T* as() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }

  PyExprKind kind;
  Span span;       // the first token of the expression
  int height = 1;  // of the expression tree; at most kMaxPyNesting
};
using PyExprPtr = std::unique_ptr<PyExpr>;

struct PyName : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Name;
  PyName(Span s, std::string i) : PyExpr(kKind, s), id(std::move(i)) {}
  std::string id;
};

// value.attr
struct PyAttribute : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Attribute;
  PyAttribute(Span s, PyExprPtr v, std::string a, Span as)
      : PyExpr(kKind, s), value(std::move(v)), attr(std::move(a)), attr_span(as) {}
  PyExprPtr value;
  std::string attr;
  Span attr_span;
};

struct PyKeyword {
  std::string name;
  Span span;  // of the name
  PyExprPtr value;
};

struct PyCall : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Call;
  PyCall(Span s, PyExprPtr f) : PyExpr(kKind, s), func(std::move(f)) {}
  PyExprPtr func;
  std::vector<PyExprPtr> args;
  std::vector<PyKeyword> keywords;
};

// value[i] or value[i, j:k]: one item per comma-separated index (a PySlice for `a:b`).
struct PySubscript : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Subscript;
  PySubscript(Span s, PyExprPtr v) : PyExpr(kKind, s), value(std::move(v)) {}
  PyExprPtr value;
  std::vector<PyExprPtr> indices;
};

// lower:upper:step inside a subscript; absent parts are null.
struct PySlice : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Slice;
  explicit PySlice(Span s) : PyExpr(kKind, s) {}
  PyExprPtr lower, upper, step;
};

// (a, b) or [a, b].
template <PyExprKind K>
struct PySequence : PyExpr {
  static constexpr PyExprKind kKind = K;
  explicit PySequence(Span s) : PyExpr(kKind, s) {}
  std::vector<PyExprPtr> items;
};
using PyTuple = PySequence<PyExprKind::Tuple>;
using PyList = PySequence<PyExprKind::List>;

struct PyDict : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Dict;
  explicit PyDict(Span s) : PyExpr(kKind, s) {}
  std::vector<PyExprPtr> keys, values;
};

// op is "-", "+", "~" or "not".
struct PyUnary : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Unary;
  PyUnary(Span s, std::string o, PyExprPtr x)
      : PyExpr(kKind, s), op(std::move(o)), operand(std::move(x)) {}
  std::string op;
  PyExprPtr operand;
};

// op is "+", "-", "*", "/", "//", "%", "**", "@", "&", "|", "^", "<<" or ">>".
struct PyBinary : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Binary;
  PyBinary(Span s, std::string o, Span os, PyExprPtr l, PyExprPtr r)
      : PyExpr(kKind, s), op(std::move(o)), op_span(os), lhs(std::move(l)), rhs(std::move(r)) {}
  std::string op;
  Span op_span;
  PyExprPtr lhs, rhs;
};

// operands[0] ops[0] operands[1] ops[1] ... (a chained comparison). ops are "==",
// "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not".
struct PyCompare : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Compare;
  explicit PyCompare(Span s) : PyExpr(kKind, s) {}
  std::vector<PyExprPtr> operands;
  std::vector<std::string> ops;
  std::vector<Span> op_spans;
};

// operands joined by "and" or "or".
struct PyBoolOp : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::BoolOp;
  PyBoolOp(Span s, std::string o) : PyExpr(kKind, s), op(std::move(o)) {}
  std::string op;
  std::vector<PyExprPtr> operands;
  std::vector<Span> op_spans;
};

struct PyInt : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Int;
  PyInt(Span s, int64_t v) : PyExpr(kKind, s), value(v) {}
  int64_t value;
};

struct PyFloat : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Float;
  PyFloat(Span s, double v) : PyExpr(kKind, s), value(v) {}
  double value;
};

struct PyString : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::String;
  PyString(Span s, std::string v, bool verb)
      : PyExpr(kKind, s), value(std::move(v)), verbatim(verb) {}
  std::string value;
  bool verbatim;  // see Token::verbatim
};

struct PyBool : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::Bool;
  PyBool(Span s, bool v) : PyExpr(kKind, s), value(v) {}
  bool value;
};

struct PyNone : PyExpr {
  static constexpr PyExprKind kKind = PyExprKind::None;
  explicit PyNone(Span s) : PyExpr(kKind, s) {}
};

// ---------------------------------------------------------------- Statements

enum class PyStmtKind : uint8_t {
  FunctionDef,
  ClassDef,
  Assign,
  With,
  For,
  If,
  While,
  Return,
  ExprStmt,
  Pass,
  Import,
};

struct PyStmt {
  PyStmt(PyStmtKind k, Span s) : kind(k), span(s) {}
  virtual ~PyStmt() = default;
  PyStmt(const PyStmt&) = delete;
  PyStmt& operator=(const PyStmt&) = delete;

  template <typename T>
  const T* as() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }

  PyStmtKind kind;
  Span span;  // the first token (the 'def' of a decorated function)
};
using PyStmtPtr = std::unique_ptr<PyStmt>;
using PyBody = std::vector<PyStmtPtr>;

struct PyParam {
  std::string name;
  Span span;
  PyExprPtr annotation;     // may be null
  PyExprPtr default_value;  // may be null
};

struct PyFunctionDef : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::FunctionDef;
  explicit PyFunctionDef(Span s) : PyStmt(kKind, s) {}
  std::vector<PyExprPtr> decorators;
  std::string name;
  Span name_span;
  std::vector<PyParam> params;
  PyExprPtr returns;  // may be null
  PyBody body;
};

struct PyClassDef : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::ClassDef;
  explicit PyClassDef(Span s) : PyStmt(kKind, s) {}
  std::vector<PyExprPtr> decorators;
  std::string name;
  Span name_span;
  std::vector<PyExprPtr> bases;
  PyBody body;
};

// target [: annotation] [= value]: target is a name, a tuple of names, a subscript or
// an attribute. Without a value it only declares (`x: T.int32`).
struct PyAssign : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::Assign;
  explicit PyAssign(Span s) : PyStmt(kKind, s) {}
  PyExprPtr target;
  PyExprPtr annotation;  // may be null
  PyExprPtr value;       // may be null
};

// with context [as target]:
struct PyWith : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::With;
  explicit PyWith(Span s) : PyStmt(kKind, s) {}
  PyExprPtr context;
  PyExprPtr target;  // may be null
  PyBody body;
};

struct PyFor : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::For;
  explicit PyFor(Span s) : PyStmt(kKind, s) {}
  PyExprPtr target;
  PyExprPtr iter;
  PyBody body;
};

// if/elif/else: an elif is an If alone in orelse.
struct PyIf : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::If;
  explicit PyIf(Span s) : PyStmt(kKind, s) {}
  PyExprPtr test;
  PyBody body;
  PyBody orelse;
};

struct PyWhile : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::While;
  explicit PyWhile(Span s) : PyStmt(kKind, s) {}
  PyExprPtr test;
  PyBody body;
};

struct PyReturn : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::Return;
  explicit PyReturn(Span s) : PyStmt(kKind, s) {}
  PyExprPtr value;  // may be null
};

struct PyExprStmt : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::ExprStmt;
  PyExprStmt(Span s, PyExprPtr v) : PyStmt(kKind, s), value(std::move(v)) {}
  PyExprPtr value;
};

struct PyPass : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::Pass;
  explicit PyPass(Span s) : PyStmt(kKind, s) {}
};

// `import ...` or `from ... import ...`: accepted and ignored.
struct PyImport : PyStmt {
  static constexpr PyStmtKind kKind = PyStmtKind::Import;
  explicit PyImport(Span s) : PyStmt(kKind, s) {}
};

// ---------------------------------------------------------------- Parsing

// Parses a whole file into its top-level statements. Syntax errors throw UserError at
// the offending token ("expected ')' after arguments", "unexpected indent").
PyBody parse_python_file(const SourceFile* file);

// Parses one expression from `input` (with expression_only set): the inside of a
// string such as "n * 4" in a Relax signature.
PyExprPtr parse_python_expression(const LexerInput& input);

// "R.nn.relu" for a chain of attributes on a name, or "" for anything else.
std::string dotted_name(const PyExpr& e);

}  // namespace relaxc::text
