// Relax: StructInfo, expressions, bindings and binding blocks (docs/language.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ir/support/attrs.h"
#include "ir/support/host_tensor.h"
#include "ir/tir/expr.h"

namespace relaxc::relax {

using tir::PrimExpr;

// ---------------------------------------------------------------- StructInfo

struct StructInfoNode : Object {
  Span span;
  static bool is_kind(NodeKind k) {
    return k > NodeKind::TirOtherEnd && k < NodeKind::StructInfoEnd;
  }
};
using StructInfo = Ref<StructInfoNode>;

struct ExprNode;
using Expr = Ref<ExprNode>;

// Any value.
struct ObjectStructInfoNode : StructInfoNode {
  RELAXC_NODE_KIND(ObjectStructInfo)
  RELAXC_FIELDS()
};

// A PrimValue of `dtype`, whose value is `value` if known.
struct PrimStructInfoNode : StructInfoNode {
  DataType dtype;
  PrimExpr value;  // may be null
  RELAXC_NODE_KIND(PrimStructInfo)
  RELAXC_FIELDS(&PrimStructInfoNode::dtype, &PrimStructInfoNode::value)
};

// A shape of `ndim` dimensions (-1: unknown), whose dimensions are `values` if known.
struct ShapeStructInfoNode : StructInfoNode {
  std::optional<std::vector<PrimExpr>> values;
  int ndim = -1;
  RELAXC_NODE_KIND(ShapeStructInfo)
  RELAXC_FIELDS(&ShapeStructInfoNode::values, &ShapeStructInfoNode::ndim)
};

// A tensor of `dtype` (void: unknown) and `ndim` dimensions (-1: unknown), whose shape
// is `shape` if known: a ShapeExpr or a Var bound to a shape.
struct TensorStructInfoNode : StructInfoNode {
  Expr shape;  // may be null
  DataType dtype = DataType::Void();
  int ndim = -1;
  RELAXC_NODE_KIND(TensorStructInfo)
  RELAXC_FIELDS(&TensorStructInfoNode::shape, &TensorStructInfoNode::dtype,
                &TensorStructInfoNode::ndim)

  // The dimensions if `shape` is a ShapeExpr (or a Var whose StructInfo gives them).
  const std::vector<PrimExpr>* shape_values() const;
};

struct TupleStructInfoNode : StructInfoNode {
  std::vector<StructInfo> fields;
  RELAXC_NODE_KIND(TupleStructInfo)
  RELAXC_FIELDS(&TupleStructInfoNode::fields)
};

// A closure with `params` -> `ret`, or (params absent) an opaque function such as a
// packed function, whose result StructInfo `derive_func` names or `ret` gives.
struct FuncStructInfoNode : StructInfoNode {
  std::optional<std::vector<StructInfo>> params;
  StructInfo ret;
  bool purity = true;
  std::string derive_func;  // empty: none
  RELAXC_NODE_KIND(FuncStructInfo)
  RELAXC_FIELDS(&FuncStructInfoNode::params, &FuncStructInfoNode::ret,
                &FuncStructInfoNode::purity, &FuncStructInfoNode::derive_func)
};

using ObjectStructInfo = Ref<ObjectStructInfoNode>;
using PrimStructInfo = Ref<PrimStructInfoNode>;
using ShapeStructInfo = Ref<ShapeStructInfoNode>;
using TensorStructInfo = Ref<TensorStructInfoNode>;
using TupleStructInfo = Ref<TupleStructInfoNode>;
using FuncStructInfo = Ref<FuncStructInfoNode>;

StructInfo object_sinfo(Span span = {});
StructInfo prim_sinfo(DataType dtype, PrimExpr value = {}, Span span = {});
StructInfo shape_sinfo(std::vector<PrimExpr> values, Span span = {});
StructInfo shape_sinfo_ndim(int ndim, Span span = {});
// Tensor of known shape (a ShapeExpr built from `values`).
StructInfo tensor_sinfo(std::vector<PrimExpr> values, DataType dtype, Span span = {});
// Tensor whose shape is the expression `shape` (a ShapeExpr or a shape Var).
StructInfo tensor_sinfo_shape(Expr shape, DataType dtype, Span span = {});
StructInfo tensor_sinfo_ndim(int ndim, DataType dtype, Span span = {});
StructInfo tuple_sinfo(std::vector<StructInfo> fields, Span span = {});
StructInfo func_sinfo(std::vector<StructInfo> params, StructInfo ret, bool purity = true,
                      Span span = {});
StructInfo opaque_func_sinfo(StructInfo ret, bool purity = false, std::string derive_func = {},
                             Span span = {});

// ---------------------------------------------------------------- Expressions

// Every expression carries its StructInfo, given when the normalizer builds it
// (Op nodes carry ObjectStructInfo: they are only ever callees).
struct ExprNode : Object {
  StructInfo struct_info;
  Span span;
  static bool is_kind(NodeKind k) {
    return k > NodeKind::StructInfoEnd && k < NodeKind::RelaxExprEnd;
  }
};

struct ConstantNode : ExprNode {
  HostTensor data;
  RELAXC_NODE_KIND(RelaxConstant)
  RELAXC_FIELDS(&ConstantNode::data)
};

// A local variable. Its struct_info is the one of its binding (or its annotation).
struct VarNode : ExprNode {
  std::string name;
  RELAXC_FIELDS(&VarNode::struct_info)
  static constexpr NodeKind kKind = NodeKind::RelaxVar;
  static bool is_kind(NodeKind k) {
    return k == NodeKind::RelaxVar || k == NodeKind::RelaxDataflowVar;
  }
};
using Var = Ref<VarNode>;

// A variable scoped to the DataflowBlock that binds it.
struct DataflowVarNode : VarNode {
  RELAXC_NODE_KIND(RelaxDataflowVar)
  RELAXC_FIELDS(&DataflowVarNode::struct_info)
};
using DataflowVar = Ref<DataflowVarNode>;

// A function of the module, by name.
struct GlobalVarNode : ExprNode {
  std::string name;
  RELAXC_NODE_KIND(RelaxGlobalVar)
  RELAXC_FIELDS(&GlobalVarNode::name)
};
using GlobalVar = Ref<GlobalVarNode>;

struct TupleNode : ExprNode {
  std::vector<Expr> fields;
  RELAXC_NODE_KIND(RelaxTuple)
  RELAXC_FIELDS(&TupleNode::fields)
};
using Tuple = Ref<TupleNode>;

struct BindingBlockNode;
using BindingBlock = Ref<BindingBlockNode>;

struct SeqExprNode : ExprNode {
  std::vector<BindingBlock> blocks;
  Expr body;
  RELAXC_NODE_KIND(RelaxSeqExpr)
  RELAXC_FIELDS(&SeqExprNode::blocks, &SeqExprNode::body)
};
using SeqExpr = Ref<SeqExprNode>;

struct PrimValueNode : ExprNode {
  PrimExpr value;
  RELAXC_NODE_KIND(RelaxPrimValue)
  RELAXC_FIELDS(&PrimValueNode::value)
};
using PrimValue = Ref<PrimValueNode>;

struct StringImmNode : ExprNode {
  std::string value;
  RELAXC_NODE_KIND(RelaxStringImm)
  RELAXC_FIELDS(&StringImmNode::value)
};

struct DataTypeImmNode : ExprNode {
  DataType value;
  RELAXC_NODE_KIND(RelaxDataTypeImm)
  RELAXC_FIELDS(&DataTypeImmNode::value)
};

struct FunctionNode : ExprNode {
  std::vector<Var> params;
  Expr body;  // a SeqExpr once normalized
  StructInfo ret_struct_info;
  bool is_pure = true;
  Attrs attrs;
  RELAXC_NODE_KIND(RelaxFunction)
  RELAXC_FIELDS(&FunctionNode::params, &FunctionNode::body, &FunctionNode::ret_struct_info,
                &FunctionNode::is_pure, &FunctionNode::attrs)
};
using Function = Ref<FunctionNode>;

struct IfNode : ExprNode {
  Expr cond, true_branch, false_branch;
  RELAXC_NODE_KIND(RelaxIf)
  RELAXC_FIELDS(&IfNode::cond, &IfNode::true_branch, &IfNode::false_branch)
};
using If = Ref<IfNode>;

// A packed function looked up by name at run time.
struct ExternFuncNode : ExprNode {
  std::string global_symbol;
  RELAXC_NODE_KIND(RelaxExternFunc)
  RELAXC_FIELDS(&ExternFuncNode::global_symbol)
};
using ExternFunc = Ref<ExternFuncNode>;

struct CallNode : ExprNode {
  Expr op;
  std::vector<Expr> args;
  std::vector<StructInfo> sinfo_args;
  Attrs attrs;
  RELAXC_NODE_KIND(RelaxCall)
  RELAXC_FIELDS(&CallNode::op, &CallNode::args, &CallNode::sinfo_args, &CallNode::attrs)
};
using Call = Ref<CallNode>;

struct ShapeExprNode : ExprNode {
  std::vector<PrimExpr> values;
  RELAXC_NODE_KIND(RelaxShapeExpr)
  RELAXC_FIELDS(&ShapeExprNode::values)
};
using ShapeExpr = Ref<ShapeExprNode>;

struct TupleGetItemNode : ExprNode {
  Expr tuple;
  int index = 0;
  RELAXC_NODE_KIND(RelaxTupleGetItem)
  RELAXC_FIELDS(&TupleGetItemNode::tuple, &TupleGetItemNode::index)
};
using TupleGetItem = Ref<TupleGetItemNode>;

// A built-in operator, by registered name ("relax.add"); see op_registry.h.
struct OpNode : ExprNode {
  std::string name;
  RELAXC_NODE_KIND(RelaxOp)
  RELAXC_FIELDS(&OpNode::name)
};
using Op = Ref<OpNode>;

// ---------------------------------------------------------------- Bindings

struct BindingNode : Object {
  Var var;
  Expr value;
  Span span;
  static bool is_kind(NodeKind k) {
    return k == NodeKind::RelaxVarBinding || k == NodeKind::RelaxMatchCast;
  }
};
using Binding = Ref<BindingNode>;

struct VarBindingNode : BindingNode {
  RELAXC_NODE_KIND(RelaxVarBinding)
  RELAXC_FIELDS(&VarBindingNode::var, &VarBindingNode::value)
};
using VarBinding = Ref<VarBindingNode>;

// Checks `value` against `struct_info` at run time, binding new shape variables.
struct MatchCastNode : BindingNode {
  StructInfo struct_info;
  RELAXC_NODE_KIND(RelaxMatchCast)
  RELAXC_FIELDS(&MatchCastNode::var, &MatchCastNode::value, &MatchCastNode::struct_info)
};
using MatchCast = Ref<MatchCastNode>;

struct BindingBlockNode : Object {
  std::vector<Binding> bindings;
  Span span;
  RELAXC_FIELDS(&BindingBlockNode::bindings)
  static constexpr NodeKind kKind = NodeKind::RelaxBindingBlock;
  static bool is_kind(NodeKind k) {
    return k == NodeKind::RelaxBindingBlock || k == NodeKind::RelaxDataflowBlock;
  }
  bool is_dataflow() const { return kind() == NodeKind::RelaxDataflowBlock; }
};

struct DataflowBlockNode : BindingBlockNode {
  RELAXC_NODE_KIND(RelaxDataflowBlock)
  RELAXC_FIELDS(&DataflowBlockNode::bindings)
};
using DataflowBlock = Ref<DataflowBlockNode>;

// ---------------------------------------------------------------- Leaf constructors
// Expressions whose StructInfo follows from the node alone; everything else is built
// through the normalizer (normalizer.h), which infers StructInfo.

Var make_var(std::string name, StructInfo struct_info, Span span = {});
Var make_dataflow_var(std::string name, StructInfo struct_info, Span span = {});
GlobalVar make_global_var(std::string name, Span span = {});
Expr make_constant(HostTensor data, Span span = {});
Expr make_prim_value(PrimExpr value, Span span = {});
Expr make_string_imm(std::string value, Span span = {});
Expr make_data_type_imm(DataType value, Span span = {});
Expr make_shape_expr(std::vector<PrimExpr> values, Span span = {});
Expr make_extern_func(std::string global_symbol, StructInfo struct_info = {}, Span span = {});
// The interned Op of a registered name; internal error if unregistered.
Op get_op(const std::string& name);
BindingBlock make_binding_block(std::vector<Binding> bindings, bool dataflow, Span span = {});
Binding make_var_binding(Var var, Expr value, Span span = {});
Binding make_match_cast(Var var, Expr value, StructInfo struct_info, Span span = {});

}  // namespace relaxc::relax
