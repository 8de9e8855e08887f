// TensorIR expressions (PrimExpr): variables, immediates, arithmetic, comparisons,
// logic, select, cast, buffer loads, vectors, let and intrinsic calls.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/support/data_type.h"
#include "ir/support/diagnostics.h"
#include "ir/support/object.h"

namespace relaxc::tir {

struct PrimExprNode : Object {
  DataType dtype;
  Span span;

  static bool is_kind(NodeKind k) { return k > NodeKind::Invalid && k < NodeKind::TirExprEnd; }
};
using PrimExpr = Ref<PrimExprNode>;

struct BufferNode;
using Buffer = Ref<BufferNode>;

// A scalar variable. A size var is known to be non-negative (a shape dimension).
struct VarNode : PrimExprNode {
  std::string name;
  bool is_size_var = false;
  RELAXC_NODE_KIND(TirVar)
  RELAXC_FIELDS(&VarNode::dtype, &VarNode::is_size_var)
};
using Var = Ref<VarNode>;

struct IntImmNode : PrimExprNode {
  int64_t value = 0;
  RELAXC_NODE_KIND(TirIntImm)
  RELAXC_FIELDS(&IntImmNode::dtype, &IntImmNode::value)
};
using IntImm = Ref<IntImmNode>;

struct FloatImmNode : PrimExprNode {
  double value = 0.0;
  RELAXC_NODE_KIND(TirFloatImm)
  RELAXC_FIELDS(&FloatImmNode::dtype, &FloatImmNode::value)
};

struct StringImmNode : PrimExprNode {
  std::string value;
  RELAXC_NODE_KIND(TirStringImm)
  RELAXC_FIELDS(&StringImmNode::dtype, &StringImmNode::value)
};

struct CastNode : PrimExprNode {
  PrimExpr value;
  RELAXC_NODE_KIND(TirCast)
  RELAXC_FIELDS(&CastNode::dtype, &CastNode::value)
};

// Binary arithmetic and comparison nodes share one layout; K tells them apart.
// Div and Mod truncate toward zero (C semantics); FloorDiv and FloorMod round toward
// negative infinity (TIR's shape arithmetic).
template <NodeKind K>
struct BinaryNode : PrimExprNode {
  PrimExpr a, b;
  static constexpr NodeKind kKind = K;
  static bool is_kind(NodeKind k) { return k == K; }
  RELAXC_FIELDS(&BinaryNode::dtype, &BinaryNode::a, &BinaryNode::b)
};
using AddNode = BinaryNode<NodeKind::TirAdd>;
using SubNode = BinaryNode<NodeKind::TirSub>;
using MulNode = BinaryNode<NodeKind::TirMul>;
using DivNode = BinaryNode<NodeKind::TirDiv>;
using ModNode = BinaryNode<NodeKind::TirMod>;
using FloorDivNode = BinaryNode<NodeKind::TirFloorDiv>;
using FloorModNode = BinaryNode<NodeKind::TirFloorMod>;
using MinNode = BinaryNode<NodeKind::TirMin>;
using MaxNode = BinaryNode<NodeKind::TirMax>;
using EQNode = BinaryNode<NodeKind::TirEQ>;
using NENode = BinaryNode<NodeKind::TirNE>;
using LTNode = BinaryNode<NodeKind::TirLT>;
using LENode = BinaryNode<NodeKind::TirLE>;
using GTNode = BinaryNode<NodeKind::TirGT>;
using GENode = BinaryNode<NodeKind::TirGE>;
using AndNode = BinaryNode<NodeKind::TirAnd>;
using OrNode = BinaryNode<NodeKind::TirOr>;

struct NotNode : PrimExprNode {
  PrimExpr a;
  RELAXC_NODE_KIND(TirNot)
  RELAXC_FIELDS(&NotNode::dtype, &NotNode::a)
};

struct SelectNode : PrimExprNode {
  PrimExpr condition, true_value, false_value;
  RELAXC_NODE_KIND(TirSelect)
  RELAXC_FIELDS(&SelectNode::dtype, &SelectNode::condition, &SelectNode::true_value,
                &SelectNode::false_value)
};

struct BufferLoadNode : PrimExprNode {
  Buffer buffer;
  std::vector<PrimExpr> indices;
  RELAXC_NODE_KIND(TirBufferLoad)
  RELAXC_FIELDS(&BufferLoadNode::dtype, &BufferLoadNode::buffer, &BufferLoadNode::indices)
};

// The vector base, base + stride, ..., base + (lanes - 1) * stride.
struct RampNode : PrimExprNode {
  PrimExpr base, stride;
  int lanes = 1;
  RELAXC_NODE_KIND(TirRamp)
  RELAXC_FIELDS(&RampNode::dtype, &RampNode::base, &RampNode::stride, &RampNode::lanes)
};

// A scalar repeated in every lane.
struct BroadcastNode : PrimExprNode {
  PrimExpr value;
  int lanes = 1;
  RELAXC_NODE_KIND(TirBroadcast)
  RELAXC_FIELDS(&BroadcastNode::dtype, &BroadcastNode::value, &BroadcastNode::lanes)
};

struct LetNode : PrimExprNode {
  Var var;
  PrimExpr value, body;
  RELAXC_NODE_KIND(TirLet)
  RELAXC_FIELDS(&LetNode::dtype, &LetNode::var, &LetNode::value, &LetNode::body)
};

// A call of an intrinsic registered in intrinsics.h ("tir.exp", "tir.if_then_else").
struct CallNode : PrimExprNode {
  std::string op;
  std::vector<PrimExpr> args;
  RELAXC_NODE_KIND(TirCall)
  RELAXC_FIELDS(&CallNode::dtype, &CallNode::op, &CallNode::args)
};

// --- Constructors. Operands of binary constructors must have one dtype, except that
// an integer or float immediate takes the other side's dtype (as TVM's operators do);
// a remaining mismatch is a UserError at `span`.

Var var(std::string name, DataType dtype = DataType::Int(64), Span span = {});
Var size_var(std::string name, DataType dtype = DataType::Int(64), Span span = {});
PrimExpr int_imm(DataType dtype, int64_t value, Span span = {});
PrimExpr float_imm(DataType dtype, double value, Span span = {});
PrimExpr string_imm(std::string value, Span span = {});
// An immediate of `dtype` (integer or float) holding `value`.
PrimExpr make_const(DataType dtype, double value, Span span = {});
PrimExpr bool_imm(bool value, Span span = {});
// The least / greatest finite value of a scalar integer or float type, as a constant
// (TVM's min_value / max_value; reductions start from them). Not for bool, and
// max_value not for uint64 (a constant holds an int64).
PrimExpr min_value(DataType dtype, Span span = {});
PrimExpr max_value(DataType dtype, Span span = {});
PrimExpr cast(DataType dtype, PrimExpr value, Span span = {});

PrimExpr add(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr sub(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr mul(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr truncdiv(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr truncmod(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr floordiv(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr floormod(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr min(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr max(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr eq(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr ne(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr lt(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr le(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr gt(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr ge(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr logical_and(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr logical_or(PrimExpr a, PrimExpr b, Span span = {});
PrimExpr logical_not(PrimExpr a, Span span = {});
PrimExpr select(PrimExpr condition, PrimExpr true_value, PrimExpr false_value, Span span = {});
PrimExpr buffer_load(Buffer buffer, std::vector<PrimExpr> indices, Span span = {});
PrimExpr ramp(PrimExpr base, PrimExpr stride, int lanes, Span span = {});
PrimExpr broadcast(PrimExpr value, int lanes, Span span = {});
PrimExpr let(Var var, PrimExpr value, PrimExpr body, Span span = {});
// A call of a registered intrinsic; checks the argument count (UserError otherwise).
PrimExpr call(DataType dtype, std::string op, std::vector<PrimExpr> args, Span span = {});
// Builds the binary node of kind `kind` (TirAdd ... TirOr).
PrimExpr binary(NodeKind kind, PrimExpr a, PrimExpr b, Span span = {});

// Appends the conjuncts of `cond` (its operands through nested ands) to `out`, leaving out
// constant true ones; nothing for an undefined condition.
void split_conjuncts(const PrimExpr& cond, std::vector<PrimExpr>& out);

// The integer value of an IntImm, or nullptr.
const int64_t* as_const_int(const PrimExpr& e);
bool is_const_int(const PrimExpr& e, int64_t value);

// Operators build nodes without simplifying (arith::simplify does that).
PrimExpr operator+(PrimExpr a, PrimExpr b);
PrimExpr operator-(PrimExpr a, PrimExpr b);
PrimExpr operator*(PrimExpr a, PrimExpr b);
PrimExpr operator+(PrimExpr a, int64_t b);
PrimExpr operator-(PrimExpr a, int64_t b);
PrimExpr operator*(PrimExpr a, int64_t b);
PrimExpr operator*(int64_t a, PrimExpr b);

}  // namespace relaxc::tir
