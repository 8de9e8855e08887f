// The PrimExpr builder of the parser: TensorIR expressions from Python expressions, in
// TensorIR bodies and in Relax shapes.
//
// Literals are typed as TVMScript types them: an integer literal is int32 (int64 in a
// Relax shape, and int64 when it does not fit in 32 bits), a float literal float32, and
// a literal next to a typed operand takes that operand's type (the tir constructors do
// that). Operators map to their nodes: // and % floor, / truncates integers.
#include <algorithm>
#include <cmath>
#include <limits>

#include "ir/arith/analyzer.h"
#include "ir/text/parser_internal.h"
#include "ir/tir/intrinsics.h"

namespace relaxc::text {

namespace {

bool is_imm(const tir::PrimExpr& e) { return e.is<tir::IntImmNode>() || e.is<tir::FloatImmNode>(); }

// A data type named by a T. function that makes typed literals ("int64" in T.int64).
std::optional<DataType> literal_dtype(const std::string& name) {
  std::optional<DataType> dtype = DataType::parse(name);
  if (!dtype || dtype->is_void() || dtype->is_handle() || !dtype->is_scalar() || name.empty()) {
    return std::nullopt;
  }
  return dtype;
}

// The dtype a group of operands agrees on: the first one that is not a literal, else
// the first one.
DataType common_dtype(const std::vector<tir::PrimExpr>& operands) {
  for (const tir::PrimExpr& e : operands) {
    if (!is_imm(e)) return e->dtype;
  }
  return operands.front()->dtype;
}

void require_bool(const tir::PrimExpr& e, Span span, const std::string& what) {
  if (!e->dtype.is_bool())
    user_error(span) << what << " must be a bool expression, got " << e->dtype.str();
}

}  // namespace

bool literal_fits(int64_t value, DataType dtype) {
  if (dtype.is_float()) return true;
  if (dtype.is_bool()) return value == 0 || value == 1;
  if (!dtype.is_integer()) return false;
  int bits = dtype.bits();
  if (dtype.is_int()) {
    return bits >= 64 ||
           (value >= -(int64_t{1} << (bits - 1)) && value < (int64_t{1} << (bits - 1)));
  }
  return value >= 0 && (bits >= 64 || value < (int64_t{1} << bits));
}

tir::PrimExpr convert_literal(const tir::PrimExpr& e, DataType dtype) {
  if (e->dtype == dtype || dtype.lanes() != e->dtype.lanes()) return e;
  if (const auto* i = e.as<tir::IntImmNode>()) {
    if (!literal_fits(i->value, dtype)) return e;
    return dtype.is_float() ? tir::float_imm(dtype, static_cast<double>(i->value), e->span)
                            : tir::int_imm(dtype, i->value, e->span);
  }
  if (const auto* f = e.as<tir::FloatImmNode>()) {
    if (dtype.is_float()) return tir::float_imm(dtype, f->value, e->span);
  }
  return e;
}

void match_operand_types(tir::PrimExpr& a, tir::PrimExpr& b, const std::string& op, Span span) {
  if (a->dtype == b->dtype) return;
  // A literal takes the other operand's type (an int32 literal when both are literals).
  bool a_literal = is_imm(a), b_literal = is_imm(b);
  if (a_literal && (!b_literal || a->dtype == DataType::Int(32))) {
    a = convert_literal(a, b->dtype);
  } else if (b_literal) {
    b = convert_literal(b, a->dtype);
  }
  // What remains is an error here rather than a narrowing conversion in the tir
  // constructors (a float literal truncated to an integer, 300 as an int8).
  if (a->dtype != b->dtype) {
    user_error(span) << "operands of '" << op << "' have different types: " << a->dtype.str()
                     << " and " << b->dtype.str() << " (use T.Cast to convert one)";
  }
}

tir::PrimExpr PrimExprParser::parse(const PyExpr& e, const PrimExprContext& ctx) {
  switch (e.kind) {
    case PyExprKind::Int: {
      int64_t v = e.as<PyInt>()->value;
      DataType dtype = ctx.int_literal;
      if (dtype == DataType::Int(32) &&
          (v > std::numeric_limits<int32_t>::max() || v < std::numeric_limits<int32_t>::min())) {
        dtype = DataType::Int(64);
      }
      return tir::int_imm(dtype, v, e.span);
    }
    case PyExprKind::Float:
      return tir::float_imm(DataType::Float(32), e.as<PyFloat>()->value, e.span);
    case PyExprKind::Bool:
      return tir::bool_imm(e.as<PyBool>()->value, e.span);
    case PyExprKind::Name:
      return parse_name(*e.as<PyName>(), ctx);
    case PyExprKind::String:
      return parse_string(*e.as<PyString>(), ctx);
    case PyExprKind::Unary:
      return parse_unary(*e.as<PyUnary>(), ctx);
    case PyExprKind::Binary:
      return parse_binary(*e.as<PyBinary>(), ctx);
    case PyExprKind::Compare:
      return parse_compare(*e.as<PyCompare>(), ctx);
    case PyExprKind::BoolOp: {
      const auto& op = *e.as<PyBoolOp>();
      tir::PrimExpr acc = parse(*op.operands.front(), ctx);
      for (size_t i = 1; i < op.operands.size(); ++i) {
        tir::PrimExpr rhs = parse(*op.operands[i], ctx);
        Span span = i - 1 < op.op_spans.size() ? op.op_spans[i - 1] : e.span;
        match_operand_types(acc, rhs, op.op, span);
        acc = op.op == "and" ? tir::logical_and(acc, rhs, span) : tir::logical_or(acc, rhs, span);
      }
      return acc;
    }
    case PyExprKind::Subscript:
      return parse_load(*e.as<PySubscript>(), ctx);
    case PyExprKind::Call:
      return parse_call(*e.as<PyCall>(), ctx);
    case PyExprKind::Attribute: {
      std::string name = dotted_name(e);
      if (!name.empty()) user_error(e.span) << "'" << name << "' is not a value";
      user_error(e.span) << "attributes of values are not supported in TensorIR expressions";
    }
    default:
      break;
  }
  user_error(e.span) << "expected a TensorIR expression";
}

tir::PrimExpr PrimExprParser::parse_name(const PyName& name, const PrimExprContext& ctx) {
  const Symbol* symbol = scope_.lookup(name.id);
  if (symbol == nullptr) {
    if (ctx.signature && ctx.inside_string) {
      tir::Var v = tir::var(name.id, DataType::Int(64), name.span);
      scope_.define(name.id, Symbol::of_prim_var(v));
      return v;
    }
    user_error(name.span) << "unknown name '" << name.id << "'";
  }
  switch (symbol->kind) {
    case Symbol::Kind::PrimVar:
      return symbol->prim_var;
    case Symbol::Kind::Buffer:
      user_error(name.span) << "buffer '" << name.id << "' is not a scalar; index it, as in "
                            << name.id << "[i]";
    case Symbol::Kind::RelaxValue:
      user_error(name.span) << "'" << name.id << "' is a Relax value, not a shape variable";
    case Symbol::Kind::Module:
      break;
  }
  user_error(name.span) << "'" << name.id << "' is the module, not a value";
}

tir::PrimExpr PrimExprParser::parse_string(const PyString& s, const PrimExprContext& ctx) {
  if (!ctx.strings_are_expressions || ctx.inside_string) {
    user_error(s.span) << "a string is not a TensorIR expression";
  }
  LexerInput input;
  input.file = s.span.file;
  input.text = s.value;
  input.line = s.span.line;
  input.col = s.span.col + 1;  // after the opening quote
  input.fixed_span = !s.verbatim;
  if (!s.verbatim) input.col = s.span.col;
  input.expression_only = true;
  PyExprPtr inner = parse_python_expression(input);
  PrimExprContext inner_ctx = ctx;
  inner_ctx.inside_string = true;
  return parse(*inner, inner_ctx);
}

tir::PrimExpr PrimExprParser::parse_unary(const PyUnary& u, const PrimExprContext& ctx) {
  if (u.op == "+") return parse(*u.operand, ctx);
  if (u.op == "not") return tir::logical_not(parse(*u.operand, ctx), u.span);
  if (u.op == "~") {
    // As TVM's ~ builds it: T.bitwise_not(x).
    tir::PrimExpr x = parse(*u.operand, ctx);
    return tir::call(x->dtype, "tir.bitwise_not", {x}, u.span);
  }
  if (u.op == "-") {
    // A negated literal is a literal, as Python folds it.
    if (const auto* i = u.operand->as<PyInt>()) {
      DataType dtype = ctx.int_literal;
      if (dtype == DataType::Int(32) && -i->value < std::numeric_limits<int32_t>::min()) {
        dtype = DataType::Int(64);
      }
      return tir::int_imm(dtype, -i->value, u.span);
    }
    if (const auto* f = u.operand->as<PyFloat>()) {
      return tir::float_imm(DataType::Float(32), -f->value, u.span);
    }
    tir::PrimExpr x = parse(*u.operand, ctx);
    if (!x->dtype.is_integer() && !x->dtype.is_float()) {
      user_error(u.span) << "cannot negate a value of type " << x->dtype.str();
    }
    return tir::sub(tir::make_const(x->dtype, 0, u.span), x, u.span);
  }
  user_error(u.span) << "operator '" << u.op << "' is not supported in TensorIR expressions";
}

tir::PrimExpr PrimExprParser::parse_binary(const PyBinary& b, const PrimExprContext& ctx) {
  static const std::map<std::string, NodeKind> kKinds = {
      {"+", NodeKind::TirAdd}, {"-", NodeKind::TirSub},       {"*", NodeKind::TirMul},
      {"/", NodeKind::TirDiv}, {"//", NodeKind::TirFloorDiv}, {"%", NodeKind::TirFloorMod}};
  tir::PrimExpr lhs = parse(*b.lhs, ctx);
  tir::PrimExpr rhs = parse(*b.rhs, ctx);
  if (b.op == "**") {
    DataType dtype = common_dtype({lhs, rhs});
    return tir::call(dtype, "tir.pow", {convert_literal(lhs, dtype), convert_literal(rhs, dtype)},
                     b.op_span);
  }
  // The bit operators build the intrinsic calls TVM's operators build (and print as).
  static const std::map<std::string, std::string> kBitOperations = {{"&", "tir.bitwise_and"},
                                                                    {"|", "tir.bitwise_or"},
                                                                    {"^", "tir.bitwise_xor"},
                                                                    {"<<", "tir.shift_left"},
                                                                    {">>", "tir.shift_right"}};
  auto it = kKinds.find(b.op);
  auto bit_operation = kBitOperations.find(b.op);
  if (it == kKinds.end() && bit_operation == kBitOperations.end()) {
    user_error(b.op_span) << "operator '" << b.op << "' is not supported in TensorIR expressions";
  }
  for (const tir::PrimExpr* operand : {&lhs, &rhs}) {
    if ((*operand)->dtype.is_handle()) {
      user_error(b.op_span) << "operator '" << b.op << "' cannot take a handle operand";
    }
  }
  match_operand_types(lhs, rhs, b.op, b.op_span);
  if (bit_operation != kBitOperations.end()) {
    return tir::call(lhs->dtype, bit_operation->second, {lhs, rhs}, b.op_span);
  }
  return tir::binary(it->second, lhs, rhs, b.op_span);
}

tir::PrimExpr PrimExprParser::parse_compare(const PyCompare& c, const PrimExprContext& ctx) {
  static const std::map<std::string, NodeKind> kKinds = {
      {"==", NodeKind::TirEQ}, {"!=", NodeKind::TirNE}, {"<", NodeKind::TirLT},
      {"<=", NodeKind::TirLE}, {">", NodeKind::TirGT},  {">=", NodeKind::TirGE}};
  tir::PrimExpr result;
  tir::PrimExpr lhs = parse(*c.operands.front(), ctx);
  for (size_t i = 0; i < c.ops.size() && i + 1 < c.operands.size(); ++i) {
    auto it = kKinds.find(c.ops[i]);
    if (it == kKinds.end()) {
      user_error(c.op_spans[i]) << "operator '" << c.ops[i]
                                << "' is not supported in TensorIR expressions";
    }
    tir::PrimExpr rhs = parse(*c.operands[i + 1], ctx);
    tir::PrimExpr left = lhs;
    match_operand_types(left, rhs, c.ops[i], c.op_spans[i]);
    tir::PrimExpr cmp = tir::binary(it->second, left, rhs, c.op_spans[i]);
    // a < b < c means a < b and b < c.
    result = result.defined() ? tir::logical_and(result, cmp, c.op_spans[i]) : cmp;
    lhs = rhs;
  }
  return result;
}

tir::Buffer PrimExprParser::buffer(const PyExpr& e) const {
  const auto* name = e.as<PyName>();
  if (name == nullptr) user_error(e.span) << "expected a buffer";
  const Symbol* symbol = scope_.lookup(name->id);
  if (symbol == nullptr) user_error(e.span) << "unknown name '" << name->id << "'";
  if (symbol->kind != Symbol::Kind::Buffer)
    user_error(e.span) << "'" << name->id << "' is not a buffer";
  return symbol->buffer;
}

tir::PrimExpr PrimExprParser::parse_load(const PySubscript& s, const PrimExprContext& ctx) {
  tir::Buffer buf = buffer(*s.value);
  std::vector<tir::PrimExpr> indices;
  for (const PyExpr* index : buffer_indices(s)) {
    if (index->as<PySlice>()) {
      user_error(index->span) << "a slice is only allowed in a region (T.reads, T.writes, "
                                 "T.match_buffer)";
    }
    indices.push_back(parse(*index, ctx));
  }
  if (indices.size() != buf->shape.size()) {
    user_error(s.span) << "buffer '" << buf->name << "' has " << buf->shape.size()
                       << " dimension(s), indexed with " << indices.size();
  }
  return tir::buffer_load(buf, std::move(indices), s.span);
}

tir::BufferRegion PrimExprParser::region(const PyExpr& e) {
  auto* node = make_node<tir::BufferRegionNode>();
  tir::BufferRegion result(node);
  if (e.as<PyName>()) {
    node->buffer = buffer(e);
    for (const tir::PrimExpr& dim : node->buffer->shape) {
      node->region.push_back(tir::range(tir::make_const(dim->dtype, 0), dim));
    }
    return result;
  }
  const auto* s = e.as<PySubscript>();
  if (s == nullptr) user_error(e.span) << "expected a buffer region such as A[i, 0:4]";
  node->buffer = buffer(*s->value);
  const std::vector<tir::PrimExpr>& shape = node->buffer->shape;
  std::vector<const PyExpr*> indices = buffer_indices(*s);
  if (indices.size() != shape.size()) {
    user_error(s->span) << "buffer '" << node->buffer->name << "' has " << shape.size()
                        << " dimension(s), indexed with " << indices.size();
  }
  for (size_t i = 0; i < indices.size(); ++i) {
    const PyExpr& index = *indices[i];
    const auto* slice = index.as<PySlice>();
    if (slice == nullptr) {
      tir::PrimExpr point = parse(index);
      node->region.push_back(tir::range(point, tir::make_const(point->dtype, 1)));
      continue;
    }
    if (slice->step) user_error(slice->step->span) << "a region cannot have a step";
    DataType dtype = shape[i]->dtype;
    tir::PrimExpr lower = slice->lower ? parse(*slice->lower) : tir::make_const(dtype, 0);
    tir::PrimExpr upper = slice->upper ? parse(*slice->upper) : shape[i];
    match_operand_types(lower, upper, ":", index.span);
    tir::PrimExpr extent = is_imm(lower) && tir::is_const_int(lower, 0)
                               ? upper
                               : arith::simplify(tir::sub(upper, lower, index.span));
    node->region.push_back(tir::range(lower, extent));
  }
  return result;
}

tir::PrimExpr PrimExprParser::parse_call(const PyCall& call, const PrimExprContext& ctx) {
  std::string callee = dotted_name(*call.func);
  if (callee.rfind("T.", 0) != 0) {
    if (const auto* name = call.func->as<PyName>()) {
      if (scope_.lookup(name->id) == nullptr)
        user_error(call.span) << "unknown name '" << name->id << "'";
    }
    user_error(call.span) << "only T. functions can be called in TensorIR expressions";
  }
  std::string fn = callee.substr(2);
  const std::string& c = callee;
  auto operand = [&](const PyExpr* e) { return parse(*e, ctx); };

  if (std::optional<DataType> dtype = literal_dtype(fn)) {
    auto args = bind_arguments(call, c, {"value", "is_size_var"}, 0);
    if (args[0] == nullptr) {
      user_error(call.span) << c << "() declares a variable; write it as 'n = " << c << "()'";
    }
    if (args[1] != nullptr)
      user_error(args[1]->span) << "is_size_var only applies to a declaration";
    const PyExpr& value = *args[0];
    if (const auto* s = value.as<PyString>()) {
      // T.float32("inf"), "-inf", "nan": the spelling TVM prints for non-finite values.
      if (!dtype->is_float()) user_error(s->span) << c << " of a string needs a float type";
      double v = 0;
      if (s->value == "inf") {
        v = std::numeric_limits<double>::infinity();
      } else if (s->value == "-inf") {
        v = -std::numeric_limits<double>::infinity();
      } else if (s->value == "nan") {
        v = std::numeric_limits<double>::quiet_NaN();
      } else {
        user_error(s->span) << "expected \"inf\", \"-inf\" or \"nan\"";
      }
      return tir::float_imm(*dtype, v, call.span);
    }
    if (const auto* b = value.as<PyBool>()) {
      return dtype->is_float() ? tir::float_imm(*dtype, b->value ? 1 : 0, call.span)
                               : tir::int_imm(*dtype, b->value ? 1 : 0, call.span);
    }
    bool is_int = false;
    if (std::optional<double> number = number_literal(value, &is_int)) {
      if (dtype->is_float()) return tir::float_imm(*dtype, *number, call.span);
      if (!is_int)
        return tir::cast(*dtype, tir::float_imm(DataType::Float(32), *number), call.span);
      int64_t v = expect_int(value, c);
      if (!literal_fits(v, *dtype))
        user_error(value.span) << v << " does not fit in " << dtype->str();
      return tir::int_imm(*dtype, v, call.span);
    }
    tir::PrimExpr x = operand(&value);
    return x->dtype == *dtype ? x : tir::cast(*dtype, x, call.span);
  }
  if (fn == "Cast" || fn == "cast") {
    // T.Cast(dtype, value) as TVM prints it; T.cast(value, dtype) as TVM's API spells it.
    bool dtype_first = fn == "Cast";
    auto args = bind_arguments(call, c,
                               dtype_first ? std::vector<std::string>{"dtype", "value"}
                                           : std::vector<std::string>{"value", "dtype"},
                               2);
    DataType dtype = parse_dtype(*args[dtype_first ? 0 : 1]);
    return tir::cast(dtype, operand(args[dtype_first ? 1 : 0]), call.span);
  }
  if (fn == "Select") {
    auto args = bind_arguments(call, c, {"condition", "true_value", "false_value"}, 3);
    tir::PrimExpr cond = operand(args[0]);
    require_bool(cond, args[0]->span, "the condition of T.Select");
    tir::PrimExpr true_value = operand(args[1]), false_value = operand(args[2]);
    match_operand_types(true_value, false_value, c, call.span);
    return tir::select(cond, true_value, false_value, call.span);
  }
  if (fn == "Ramp" || fn == "Broadcast") {
    bool ramp = fn == "Ramp";
    auto args = bind_arguments(call, c,
                               ramp ? std::vector<std::string>{"base", "stride", "lanes"}
                                    : std::vector<std::string>{"value", "lanes"},
                               ramp ? 3 : 2);
    const PyExpr* lanes_arg = args[ramp ? 2 : 1];
    int64_t lanes = expect_int(*lanes_arg, "the lanes of " + c);
    if (lanes < 1 || lanes > 65535) user_error(lanes_arg->span) << "lanes must be in [1, 65535]";
    if (ramp) {
      tir::PrimExpr base = operand(args[0]), stride = operand(args[1]);
      match_operand_types(base, stride, c, call.span);
      return tir::ramp(base, stride, static_cast<int>(lanes), call.span);
    }
    return tir::broadcast(operand(args[0]), static_cast<int>(lanes), call.span);
  }
  bool where_form = std::any_of(call.keywords.begin(), call.keywords.end(),
                                [](const PyKeyword& kw) { return kw.name == "where"; });
  if (fn == "Let" && where_form) {
    // T.Let(body, where={x: value}), as TVM prints it: x is declared beforehand
    // (x = T.int32()).
    auto args = bind_arguments(call, c, {"expr", "where"}, 2);
    const auto* where = args[1]->as<PyDict>();
    if (where == nullptr || where->keys.size() != 1) {
      user_error(args[1]->span) << "the where of T.Let is a dict of one variable and its value, "
                                   "where={x: value}";
    }
    const auto* name = where->keys[0]->as<PyName>();
    const Symbol* symbol = name != nullptr ? scope_.lookup(name->id) : nullptr;
    if (symbol == nullptr || symbol->kind != Symbol::Kind::PrimVar) {
      user_error(where->keys[0]->span)
          << "the variable of T.Let's where must be declared beforehand (x = T.int32())";
    }
    tir::Var v = symbol->prim_var;
    tir::PrimExpr value = convert_literal(operand(where->values[0].get()), v->dtype);
    if (value->dtype != v->dtype) {
      user_error(where->values[0]->span) << "the value has type " << value->dtype.str() << ", but '"
                                         << name->id << "' is declared " << v->dtype.str();
    }
    return tir::let(v, value, operand(args[0]), call.span);
  }
  if (fn == "Let") {
    auto args = bind_arguments(call, c, {"var", "value", "body"}, 3);
    const auto* name = args[0]->as<PyName>();
    if (name == nullptr) user_error(args[0]->span) << "the variable of T.Let must be a name";
    tir::PrimExpr value = operand(args[1]);
    tir::Var v = tir::var(name->id, value->dtype, name->span);
    ScopeFrame frame(scope_);
    scope_.define(name->id, Symbol::of_prim_var(v));
    return tir::let(v, value, operand(args[2]), call.span);
  }
  static const std::map<std::string, NodeKind> kBinaryFunctions = {
      {"min", NodeKind::TirMin},           {"max", NodeKind::TirMax},
      {"truncdiv", NodeKind::TirDiv},      {"truncmod", NodeKind::TirMod},
      {"floordiv", NodeKind::TirFloorDiv}, {"floormod", NodeKind::TirFloorMod},
      {"And", NodeKind::TirAnd},           {"Or", NodeKind::TirOr}};
  if (auto it = kBinaryFunctions.find(fn); it != kBinaryFunctions.end()) {
    auto args = bind_arguments(call, c, {"a", "b"}, 2);
    tir::PrimExpr a = operand(args[0]), b = operand(args[1]);
    match_operand_types(a, b, c, call.span);
    return tir::binary(it->second, a, b, call.span);
  }
  if (fn == "min_value" || fn == "max_value") return limit_value(call, fn == "max_value");
  if (fn == "Not") {
    auto args = bind_arguments(call, c, {"a"}, 1);
    return tir::logical_not(operand(args[0]), call.span);
  }
  if (tir::find_intrinsic_by_script_name(fn) != nullptr) return parse_intrinsic(call, fn, ctx);
  user_error(call.func->span) << "unknown TensorIR function '" << c << "'";
}

// T.min_value("float32") / T.max_value(...): the least / greatest finite value of a scalar
// type, folded to a constant as TVM folds it (legalized reductions start from them).
tir::PrimExpr PrimExprParser::limit_value(const PyCall& call, bool greatest) {
  const std::string callee = greatest ? "T.max_value" : "T.min_value";
  auto args = bind_arguments(call, callee, {"dtype"}, 1);
  DataType dtype = parse_dtype(*args[0]);
  if (!dtype.is_scalar() || !(dtype.is_integer() || dtype.is_float()) || dtype.is_bool() ||
      dtype.bits() > 64) {
    user_error(args[0]->span) << callee << " takes a scalar integer or float type, got "
                              << dtype.str();
  }
  if (greatest && dtype.is_uint() && dtype.bits() == 64) {
    user_error(call.span) << "T.max_value(\"uint64\") does not fit the int64 a constant holds";
  }
  return greatest ? tir::max_value(dtype, call.span) : tir::min_value(dtype, call.span);
}

tir::PrimExpr PrimExprParser::parse_intrinsic(const PyCall& call, const std::string& script_name,
                                              const PrimExprContext& ctx) {
  const tir::Intrinsic& intrin = *tir::find_intrinsic_by_script_name(script_name);
  std::string callee = "T." + script_name;
  // TE writes the result type as a keyword, T.exp(x, dtype="float32"); TVM's T. functions
  // take it and ignore it. Here it must name the type the call has.
  const PyExpr* dtype_keyword = nullptr;
  for (const PyKeyword& kw : call.keywords) {
    if (kw.name != "dtype" || dtype_keyword != nullptr) {
      user_error(kw.span) << callee << " takes no keyword arguments but dtype";
    }
    dtype_keyword = kw.value.get();
  }
  size_t first = 0;
  DataType dtype;
  if (intrin.result == tir::Intrinsic::ResultType::Explicit) {
    // T.call_extern("float32", "name", args...): the result type comes first.
    if (call.args.empty()) user_error(call.span) << callee << " needs the result type first";
    dtype = parse_dtype(*call.args[0]);
    first = 1;
  }
  std::vector<tir::PrimExpr> args;
  for (size_t i = first; i < call.args.size(); ++i) {
    const PyExpr& arg = *call.args[i];
    if (const auto* s = arg.as<PyString>()) {
      if (intrin.result != tir::Intrinsic::ResultType::Explicit &&
          intrin.result != tir::Intrinsic::ResultType::Void) {
        user_error(arg.span) << callee << " takes no string arguments";
      }
      args.push_back(tir::string_imm(s->value, arg.span));
    } else {
      args.push_back(parse(arg, ctx));
    }
  }
  if (intrin.num_args >= 0 && args.size() != static_cast<size_t>(intrin.num_args)) {
    user_error(call.span) << callee << " takes " << intrin.num_args << " argument"
                          << (intrin.num_args == 1 ? "" : "s") << ", got " << args.size();
  }
  switch (intrin.result) {
    case tir::Intrinsic::ResultType::SameAsArg0: {
      dtype = common_dtype(args);
      for (tir::PrimExpr& a : args) a = convert_literal(a, dtype);
      for (size_t i = 1; i < args.size(); ++i) {
        if (args[i]->dtype != dtype) {
          user_error(call.args[i]->span)
              << "the arguments of " << callee << " have different types: " << dtype.str()
              << " and " << args[i]->dtype.str() << " (use T.Cast to convert one)";
        }
      }
      break;
    }
    case tir::Intrinsic::ResultType::SameAsArg1: {
      require_bool(args[0], call.args[0]->span, "the condition of " + callee);
      std::vector<tir::PrimExpr> values(args.begin() + 1, args.end());
      dtype = common_dtype(values);
      for (size_t i = 1; i < args.size(); ++i) args[i] = convert_literal(args[i], dtype);
      for (size_t i = 2; i < args.size(); ++i) {
        if (args[i]->dtype != dtype) {
          user_error(call.args[i]->span)
              << "the branches of " << callee << " have different types: " << dtype.str() << " and "
              << args[i]->dtype.str();
        }
      }
      break;
    }
    case tir::Intrinsic::ResultType::Bool:
      dtype = DataType::Bool(args[0]->dtype.lanes());
      break;
    case tir::Intrinsic::ResultType::Explicit:
      break;
    case tir::Intrinsic::ResultType::Void:
      dtype = DataType::Void();
      break;
    case tir::Intrinsic::ResultType::Arg0Alone:
      dtype = args[0]->dtype;
      break;
  }
  if (dtype_keyword != nullptr && parse_dtype(*dtype_keyword, true) != dtype) {
    user_error(dtype_keyword->span) << callee << " gives a " << dtype.str() << " here, not "
                                    << parse_dtype(*dtype_keyword, true).str();
  }
  return tir::call(dtype, intrin.name, std::move(args), call.span);
}

}  // namespace relaxc::text
