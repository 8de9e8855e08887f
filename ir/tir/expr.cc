// Constructors of TensorIR expressions, with TVM's immediate promotion.
#include "ir/tir/expr.h"

#include <limits>

#include "ir/tir/intrinsics.h"
#include "ir/tir/stmt.h"

namespace relaxc::tir {

namespace {

template <typename T>
PrimExpr finish(T* node, DataType dtype, Span span) {
  node->dtype = dtype;
  node->span = span;
  return PrimExpr(node);
}

bool is_imm(const PrimExpr& e) { return e.is<IntImmNode>() || e.is<FloatImmNode>(); }

// An immediate converted to `dtype`, as when a Python literal meets a typed operand.
PrimExpr convert_imm(const PrimExpr& e, DataType dtype) {
  if (const auto* i = e.as<IntImmNode>()) {
    return dtype.is_float() ? float_imm(dtype, static_cast<double>(i->value), e->span)
                            : int_imm(dtype, i->value, e->span);
  }
  const auto* f = e.as<FloatImmNode>();
  if (dtype.is_float()) return float_imm(dtype, f->value, e->span);
  // A float literal meets an integer operand: only a whole number in range converts.
  if (!(f->value >= -9.2e18 && f->value <= 9.2e18) ||
      static_cast<double>(static_cast<int64_t>(f->value)) != f->value) {
    user_error(e->span) << "the float literal " << f->value << " cannot be used as " << dtype.str();
  }
  return int_imm(dtype, static_cast<int64_t>(f->value), e->span);
}

// Brings two operands to one dtype: an immediate takes the other side's dtype. Two
// immediates: an int32 one (a plain literal) takes the other's.
void unify(PrimExpr& a, PrimExpr& b, const char* op, Span span) {
  RELAXC_ICHECK(a.defined() && b.defined()) << "null operand of " << op;
  if (a->dtype == b->dtype) return;
  bool ai = is_imm(a), bi = is_imm(b);
  if (ai && bi) {
    if (a->dtype == DataType::Int(32) && !a->dtype.is_float()) {
      a = convert_imm(a, b->dtype);
    } else if (b->dtype == DataType::Int(32)) {
      b = convert_imm(b, a->dtype);
    }
  } else if (ai && a->dtype.lanes() == b->dtype.lanes()) {
    a = convert_imm(a, b->dtype);
  } else if (bi && a->dtype.lanes() == b->dtype.lanes()) {
    b = convert_imm(b, a->dtype);
  }
  if (a->dtype != b->dtype) {
    user_error(span.defined() ? span : a->span)
        << "operands of '" << op << "' have different types: " << a->dtype.str() << " and "
        << b->dtype.str() << " (use T.Cast to convert one)";
  }
}

const char* op_symbol(NodeKind kind) {
  switch (kind) {
    case NodeKind::TirAdd:
      return "+";
    case NodeKind::TirSub:
      return "-";
    case NodeKind::TirMul:
      return "*";
    case NodeKind::TirDiv:
      return "truncdiv";
    case NodeKind::TirMod:
      return "truncmod";
    case NodeKind::TirFloorDiv:
      return "//";
    case NodeKind::TirFloorMod:
      return "%";
    case NodeKind::TirMin:
      return "min";
    case NodeKind::TirMax:
      return "max";
    case NodeKind::TirEQ:
      return "==";
    case NodeKind::TirNE:
      return "!=";
    case NodeKind::TirLT:
      return "<";
    case NodeKind::TirLE:
      return "<=";
    case NodeKind::TirGT:
      return ">";
    case NodeKind::TirGE:
      return ">=";
    case NodeKind::TirAnd:
      return "and";
    case NodeKind::TirOr:
      return "or";
    default:
      return "?";
  }
}

template <NodeKind K>
PrimExpr make_binary(PrimExpr a, PrimExpr b, Span span) {
  unify(a, b, op_symbol(K), span);
  auto* n = make_node<BinaryNode<K>>();
  DataType dtype = a->dtype;
  if constexpr (K == NodeKind::TirEQ || K == NodeKind::TirNE || K == NodeKind::TirLT ||
                K == NodeKind::TirLE || K == NodeKind::TirGT || K == NodeKind::TirGE) {
    dtype = DataType::Bool(a->dtype.lanes());
  }
  if constexpr (K == NodeKind::TirAnd || K == NodeKind::TirOr) {
    if (!a->dtype.is_bool()) {
      user_error(span.defined() ? span : a->span)
          << "operands of '" << op_symbol(K) << "' must be bool, got " << a->dtype.str();
    }
  }
  n->a = std::move(a);
  n->b = std::move(b);
  return finish(n, dtype, span);
}

}  // namespace

Var var(std::string name, DataType dtype, Span span) {
  auto* n = make_node<VarNode>();
  n->name = std::move(name);
  n->dtype = dtype;
  n->span = span;
  return Var(n);
}

Var size_var(std::string name, DataType dtype, Span span) {
  auto* n = make_node<VarNode>();
  n->name = std::move(name);
  n->dtype = dtype;
  n->is_size_var = true;
  n->span = span;
  return Var(n);
}

PrimExpr int_imm(DataType dtype, int64_t value, Span span) {
  RELAXC_ICHECK(dtype.is_integer()) << "IntImm of type " << dtype.str();
  auto* n = make_node<IntImmNode>();
  n->value = value;
  return finish(n, dtype, span);
}

PrimExpr float_imm(DataType dtype, double value, Span span) {
  RELAXC_ICHECK(dtype.is_float()) << "FloatImm of type " << dtype.str();
  auto* n = make_node<FloatImmNode>();
  n->value = value;
  return finish(n, dtype, span);
}

PrimExpr string_imm(std::string value, Span span) {
  auto* n = make_node<StringImmNode>();
  n->value = std::move(value);
  return finish(n, DataType::Handle(), span);
}

PrimExpr make_const(DataType dtype, double value, Span span) {
  if (dtype.is_float()) return float_imm(dtype, value, span);
  return int_imm(dtype, static_cast<int64_t>(value), span);
}

PrimExpr bool_imm(bool value, Span span) { return int_imm(DataType::Bool(), value ? 1 : 0, span); }

namespace {

PrimExpr limit_value(DataType dtype, bool greatest, Span span) {
  RELAXC_ICHECK(dtype.is_scalar() && (dtype.is_integer() || dtype.is_float()) && !dtype.is_bool() &&
                dtype.bits() <= 64)
      << "no limit value for " << dtype.str();
  if (dtype.is_float()) {
    double limit = dtype.is_bfloat()    ? 3.38953138925153547590470800371487866880e+38
                   : dtype.bits() == 16 ? 65504.0
                   : dtype.bits() == 32 ? static_cast<double>(std::numeric_limits<float>::max())
                                        : std::numeric_limits<double>::max();
    return float_imm(dtype, greatest ? limit : -limit, span);
  }
  const int bits = dtype.bits();
  if (dtype.is_uint()) {
    RELAXC_ICHECK(!(greatest && bits == 64)) << "max_value(uint64) does not fit an int64";
    return int_imm(dtype, greatest ? (int64_t{1} << bits) - 1 : 0, span);
  }
  int64_t most = bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
  return int_imm(dtype, greatest ? most : -most - 1, span);
}

}  // namespace

PrimExpr min_value(DataType dtype, Span span) { return limit_value(dtype, false, span); }
PrimExpr max_value(DataType dtype, Span span) { return limit_value(dtype, true, span); }

PrimExpr cast(DataType dtype, PrimExpr value, Span span) {
  auto* n = make_node<CastNode>();
  n->value = std::move(value);
  return finish(n, dtype, span);
}

PrimExpr add(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirAdd>(std::move(a), std::move(b), span);
}
PrimExpr sub(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirSub>(std::move(a), std::move(b), span);
}
PrimExpr mul(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirMul>(std::move(a), std::move(b), span);
}
PrimExpr truncdiv(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirDiv>(std::move(a), std::move(b), span);
}
PrimExpr truncmod(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirMod>(std::move(a), std::move(b), span);
}
PrimExpr floordiv(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirFloorDiv>(std::move(a), std::move(b), span);
}
PrimExpr floormod(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirFloorMod>(std::move(a), std::move(b), span);
}
PrimExpr min(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirMin>(std::move(a), std::move(b), span);
}
PrimExpr max(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirMax>(std::move(a), std::move(b), span);
}
PrimExpr eq(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirEQ>(std::move(a), std::move(b), span);
}
PrimExpr ne(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirNE>(std::move(a), std::move(b), span);
}
PrimExpr lt(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirLT>(std::move(a), std::move(b), span);
}
PrimExpr le(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirLE>(std::move(a), std::move(b), span);
}
PrimExpr gt(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirGT>(std::move(a), std::move(b), span);
}
PrimExpr ge(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirGE>(std::move(a), std::move(b), span);
}
PrimExpr logical_and(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirAnd>(std::move(a), std::move(b), span);
}
PrimExpr logical_or(PrimExpr a, PrimExpr b, Span span) {
  return make_binary<NodeKind::TirOr>(std::move(a), std::move(b), span);
}

PrimExpr binary(NodeKind kind, PrimExpr a, PrimExpr b, Span span) {
  switch (kind) {
#define RELAXC_BINARY_CASE(K) \
  case NodeKind::K:           \
    return make_binary<NodeKind::K>(std::move(a), std::move(b), span);
    RELAXC_BINARY_CASE(TirAdd)
    RELAXC_BINARY_CASE(TirSub)
    RELAXC_BINARY_CASE(TirMul)
    RELAXC_BINARY_CASE(TirDiv)
    RELAXC_BINARY_CASE(TirMod)
    RELAXC_BINARY_CASE(TirFloorDiv)
    RELAXC_BINARY_CASE(TirFloorMod)
    RELAXC_BINARY_CASE(TirMin)
    RELAXC_BINARY_CASE(TirMax)
    RELAXC_BINARY_CASE(TirEQ)
    RELAXC_BINARY_CASE(TirNE)
    RELAXC_BINARY_CASE(TirLT)
    RELAXC_BINARY_CASE(TirLE)
    RELAXC_BINARY_CASE(TirGT)
    RELAXC_BINARY_CASE(TirGE)
    RELAXC_BINARY_CASE(TirAnd)
    RELAXC_BINARY_CASE(TirOr)
#undef RELAXC_BINARY_CASE
    default:
      RELAXC_UNREACHABLE() << node_kind_name(kind) << " is not a binary kind";
  }
}

PrimExpr logical_not(PrimExpr a, Span span) {
  if (!a->dtype.is_bool()) {
    user_error(span.defined() ? span : a->span)
        << "operand of 'not' must be bool, got " << a->dtype.str();
  }
  auto* n = make_node<NotNode>();
  DataType dtype = a->dtype;
  n->a = std::move(a);
  return finish(n, dtype, span);
}

PrimExpr select(PrimExpr condition, PrimExpr true_value, PrimExpr false_value, Span span) {
  unify(true_value, false_value, "Select", span);
  auto* n = make_node<SelectNode>();
  DataType dtype = true_value->dtype;
  n->condition = std::move(condition);
  n->true_value = std::move(true_value);
  n->false_value = std::move(false_value);
  return finish(n, dtype, span);
}

PrimExpr buffer_load(Buffer buffer, std::vector<PrimExpr> indices, Span span) {
  auto* n = make_node<BufferLoadNode>();
  DataType dtype = buffer->dtype;
  if (!indices.empty() && indices.back()->dtype.lanes() > 1) {
    dtype = dtype.with_lanes(indices.back()->dtype.lanes());
  }
  n->buffer = std::move(buffer);
  n->indices = std::move(indices);
  return finish(n, dtype, span);
}

PrimExpr ramp(PrimExpr base, PrimExpr stride, int lanes, Span span) {
  unify(base, stride, "Ramp", span);
  auto* n = make_node<RampNode>();
  DataType dtype = base->dtype.with_lanes(lanes);
  n->base = std::move(base);
  n->stride = std::move(stride);
  n->lanes = lanes;
  return finish(n, dtype, span);
}

PrimExpr broadcast(PrimExpr value, int lanes, Span span) {
  auto* n = make_node<BroadcastNode>();
  DataType dtype = value->dtype.with_lanes(lanes);
  n->value = std::move(value);
  n->lanes = lanes;
  return finish(n, dtype, span);
}

PrimExpr let(Var var, PrimExpr value, PrimExpr body, Span span) {
  auto* n = make_node<LetNode>();
  DataType dtype = body->dtype;
  n->var = std::move(var);
  n->value = std::move(value);
  n->body = std::move(body);
  return finish(n, dtype, span);
}

PrimExpr call(DataType dtype, std::string op, std::vector<PrimExpr> args, Span span) {
  const Intrinsic* intrin = find_intrinsic(op);
  if (intrin == nullptr) user_error(span) << "unknown intrinsic '" << op << "'";
  if (intrin->num_args >= 0 && static_cast<int>(args.size()) != intrin->num_args) {
    user_error(span) << "T." << intrin->script_name << " takes " << intrin->num_args
                     << " argument(s), got " << args.size();
  }
  for (const PrimExpr& a : args) {
    DataType t = a->dtype;
    const char* needed = nullptr;
    switch (intrin->arguments) {
      case Intrinsic::Arguments::Any:
        break;
      case Intrinsic::Arguments::Float:
        if (!t.is_float()) needed = "a floating-point";
        break;
      case Intrinsic::Arguments::IntegerOrBool:
        if (!t.is_integer()) needed = "an integer or bool";
        break;
      case Intrinsic::Arguments::Integer:
        if (!t.is_integer() || t.is_bool()) needed = "an integer";
        break;
    }
    if (needed != nullptr) {
      user_error(a->span.defined() ? a->span : span)
          << "T." << intrin->script_name << " needs " << needed << " argument, got " << t.str();
    }
  }
  if (op == "tir.shift_left" || op == "tir.shift_right") {
    // A constant shift by the width or more, or by a negative amount, is undefined.
    const int64_t* amount = as_const_int(args[1]);
    int bits = args[0]->dtype.bits();
    if (amount != nullptr && (*amount < 0 || *amount >= bits)) {
      user_error(args[1]->span.defined() ? args[1]->span : span)
          << "T." << intrin->script_name << " by " << *amount << ": a shift of "
          << args[0]->dtype.str() << " must be by 0 to " << bits - 1;
    }
  }
  auto* n = make_node<CallNode>();
  n->op = std::move(op);
  n->args = std::move(args);
  return finish(n, dtype, span);
}

const int64_t* as_const_int(const PrimExpr& e) {
  const auto* i = e.as<IntImmNode>();
  return i != nullptr ? &i->value : nullptr;
}

void split_conjuncts(const PrimExpr& cond, std::vector<PrimExpr>& out) {
  if (!cond.defined()) return;
  if (const auto* a = cond.as<AndNode>()) {
    split_conjuncts(a->a, out);
    split_conjuncts(a->b, out);
  } else if (!is_const_int(cond, 1)) {
    out.push_back(cond);
  }
}

bool is_const_int(const PrimExpr& e, int64_t value) {
  const int64_t* v = as_const_int(e);
  return v != nullptr && *v == value;
}

PrimExpr operator+(PrimExpr a, PrimExpr b) { return add(std::move(a), std::move(b)); }
PrimExpr operator-(PrimExpr a, PrimExpr b) { return sub(std::move(a), std::move(b)); }
PrimExpr operator*(PrimExpr a, PrimExpr b) { return mul(std::move(a), std::move(b)); }
PrimExpr operator+(PrimExpr a, int64_t b) {
  DataType t = a->dtype;
  return add(std::move(a), int_imm(t, b));
}
PrimExpr operator-(PrimExpr a, int64_t b) {
  DataType t = a->dtype;
  return sub(std::move(a), int_imm(t, b));
}
PrimExpr operator*(PrimExpr a, int64_t b) {
  DataType t = a->dtype;
  return mul(std::move(a), int_imm(t, b));
}
PrimExpr operator*(int64_t a, PrimExpr b) {
  DataType t = b->dtype;
  return mul(int_imm(t, a), std::move(b));
}

}  // namespace relaxc::tir
